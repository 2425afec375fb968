"""Find the JSON object in a model's reply: bare, in a code fence, or inside prose."""

from __future__ import annotations

import json
import re
from typing import Any

FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


class ExtractionError(ValueError):
    """No JSON object could be read from the reply."""


def first_balanced_object(text: str) -> str | None:
    """The earliest-starting ``{...}`` with balanced braces, skipping braces inside strings;
    an unbalanced (truncated) brace is passed over for a later one. One pass over the text:
    a reply of 100,000 ``{`` is read once, not once per brace (that took minutes)."""
    opened: list[int] = []  # where the braces still open start
    best: tuple[int, int] | None = None
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            opened.append(i)
        elif ch == "}" and opened:
            start = opened.pop()
            if not opened:  # closes the earliest brace still open: nothing starts before it
                return text[start : i + 1]
            if best is None or start < best[0]:
                best = (start, i)
    return None if best is None else text[best[0] : best[1] + 1]


MAX_INT_DIGITS = 4300  # Python's default bound on int(str), whatever a library sets it to


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ValueError(
            f"Exceeds the limit ({MAX_INT_DIGITS} digits) for integer string conversion: "
            f"value has {digits} digits"
        )
    return int(text)


# Arrays and objects a reply may nest: a plan nests 4 deep. Python's json recurses once a
# level up to the recursion limit, which a library may raise (mypy sets 16,384: in the test
# session a reply nested 5,000 deep then parsed), so the bound is this one, checked first.
MAX_DEPTH = 200
_STR_TOKENS = re.compile(r'\\.|["\[\]{}]', re.S)
_BYTES_TOKENS = re.compile(rb'\\.|["\[\]{}]', re.S)


def nesting_depth(text: str | bytes) -> int:
    """How deep arrays and objects nest in JSON ``text`` (brackets inside strings aside)."""
    tokens = _BYTES_TOKENS if isinstance(text, bytes) else _STR_TOKENS
    depth = deepest = 0
    in_string = False
    for match in tokens.finditer(text):  # type: ignore[arg-type]
        token = match.group()
        first = token[:1]
        if first in ("\\", b"\\"):
            continue  # an escaped character: only ever inside a string
        if first in ('"', b'"'):
            in_string = not in_string
        elif not in_string:
            if first in ("[", "{", b"[", b"{"):
                depth += 1
                deepest = max(deepest, depth)
            else:
                depth -= 1
    return deepest


def loads(text: str | bytes) -> Any:
    """``json.loads`` bounded whatever a library set: integers to ``MAX_INT_DIGITS`` digits
    (ValueError past it, as Python's own bound; mypy, torch and others may lift it) and
    nesting to ``MAX_DEPTH`` (RecursionError past it), so a hostile reply is unreadable in
    every process, not only in some."""
    if nesting_depth(text) > MAX_DEPTH:
        raise RecursionError(f"nested more than {MAX_DEPTH} deep")
    return json.loads(text, parse_int=_bounded_int)


def too_long(exc: ValueError) -> str:
    """What json says of an integer past Python's 4,300 digits, without its advice to the
    programmer: ``value has 5000 digits``."""
    return str(exc).split(";")[0].split(": ")[-1]


def extract_json(reply: str | None) -> dict[str, Any]:
    """The reply's JSON object; code fences first, then the first balanced object anywhere."""
    if not reply or not reply.strip():
        raise ExtractionError("empty reply")
    candidates = [m.group(1) for m in FENCE.finditer(reply)] + [reply]
    errors = []
    for candidate in candidates:
        found = first_balanced_object(candidate)
        if found is None:
            continue
        try:
            value = loads(found)
        except json.JSONDecodeError as exc:
            errors.append(f"{exc.msg} at character {exc.pos}")
            continue
        except ValueError as exc:  # an integer past Python's 4,300 digits
            errors.append(f"a number too long to read ({too_long(exc)})")
            continue
        except RecursionError:
            errors.append("nested too deep to read")
            continue
        if isinstance(value, dict):
            return value
    if errors:
        raise ExtractionError(f"malformed JSON: {errors[0]}")
    raise ExtractionError("no JSON object in the reply (truncated or prose only)")
