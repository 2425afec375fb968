"""Reading the package's JSON documents (the catalogue, the risk-memory bank) and saying what
is wrong with one: the file and the problem, the first field pydantic rejects and why."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError


def read_json(file: Path, what: str) -> object:
    """The parsed JSON of ``file``; a ValueError naming the file when it cannot be read, is
    not UTF-8 or is not JSON (``what``: the document, for the message)."""
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{file}: cannot read {what}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{file}: not valid JSON: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{file}: not UTF-8 text (byte {exc.start})") from None


def first_problem(exc: ValidationError, whole: str = "document") -> str:
    """A validation error's first problem as ``field.path: message`` (``whole`` when the
    problem is the item itself rather than one of its fields)."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or whole
    return f"{where}: {err['msg']}"
