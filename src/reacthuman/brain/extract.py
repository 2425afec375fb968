"""Find the JSON object in a model's reply: bare, in a code fence, or inside prose."""

from __future__ import annotations

import json
import re
from typing import Any

FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


class ExtractionError(ValueError):
    """No JSON object could be read from the reply."""


def first_balanced_object(text: str) -> str | None:
    """The first ``{...}`` with balanced braces, skipping braces inside strings."""
    start = text.find("{")
    while start != -1:
        depth, in_string, escaped = 0, False, False
        for i in range(start, len(text)):
            ch = text[i]
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
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return text[start : i + 1]
        start = text.find("{", start + 1)  # unbalanced (truncated): try a later brace
    return None


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
            value = json.loads(found)
        except json.JSONDecodeError as exc:
            errors.append(f"{exc.msg} at character {exc.pos}")
            continue
        if isinstance(value, dict):
            return value
    if errors:
        raise ExtractionError(f"malformed JSON: {errors[0]}")
    raise ExtractionError("no JSON object in the reply (truncated or prose only)")
