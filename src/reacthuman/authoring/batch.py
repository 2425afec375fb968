"""A batch of descriptions turned into a set (``reacthuman scenes author``): each planned
offline or by a model, then staged, and the set the authored scenes join.

The command line parses and prints; what it authors is decided here, so a script that
authors a batch gets the same bytes as the command.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from reacthuman.authoring import offline
from reacthuman.authoring.author import Authoring, Rejected, first_candidate, manifest_for, merged
from reacthuman.authoring.planner import plan_with_model
from reacthuman.authoring.retrieval import RetrievalError, RiskIndex
from reacthuman.authoring.selection import SelectionError
from reacthuman.brain.client import ModelClient
from reacthuman.brain.store import ResponseStore
from reacthuman.scenes.set_files import read_set
from reacthuman.scenes.set_models import Scene, SetError, SetManifest
from reacthuman.scenes.spec import SceneSpec

AUTHORED_FILE = "authored.json"  # a set's record of what became of each description
MODEL_CONCURRENCY = 8  # descriptions a model plans at once


def plan_offline(texts: list[str], index: RiskIndex) -> list[Authoring | Rejected]:
    """Each description planned by the offline planner; one it cannot plan is rejected with
    the reason."""
    outcome: list[Authoring | Rejected] = []
    for text in texts:
        try:
            selection, _hits = offline.plan(text, index)
        except (SelectionError, RetrievalError) as exc:
            outcome.append(Rejected(text[:200], str(exc)))
            continue
        outcome.append(Authoring(text.strip(), offline.PLANNER, selection))
    return outcome


def plan_by_model(
    client: ModelClient, texts: list[str], index: RiskIndex, store: ResponseStore
) -> list[Authoring | Rejected]:
    """Each description planned by ``client``'s model, ``MODEL_CONCURRENCY`` at a time, its
    exchanges kept in ``store``; an unusable answer is the description's rejection."""

    async def one(text: str) -> Authoring | Rejected:
        try:
            selection, record, _hits = await plan_with_model(client, text, index, store)
        except SelectionError as exc:
            return Rejected(text[:200], str(exc))
        if selection is None:
            return Rejected(text[:200], f"{client.model}: {record.r1_reason}")
        return Authoring(text.strip(), client.model, selection)

    async def all_of() -> list[Authoring | Rejected]:
        limit = asyncio.Semaphore(MODEL_CONCURRENCY)

        async def bounded(text: str) -> Authoring | Rejected:
            async with limit:
                return await one(text)

        return await asyncio.gather(*(bounded(text) for text in texts))

    return asyncio.run(all_of())


def first_candidates(items: list[Authoring | Rejected], first_seed: int) -> list[SceneSpec]:
    """Each selection's first candidate spec: what to simulate ahead, in parallel, so that a
    simulation check reads it from the cache and only a rejected candidate's successor runs
    alone."""
    firsts = [
        first_candidate(item, slot, first_seed)
        for slot, item in enumerate(items)
        if isinstance(item, Authoring)
    ]
    return [spec for spec in firsts if spec is not None]


def authored_set(
    scenes: list[Scene], record: list[dict[str, str]], into: str | Path | None = None
) -> tuple[SetManifest, list[Scene], dict[str, str]]:
    """The set to write: its manifest, its scenes and its extra files (``AUTHORED_FILE``).
    With ``into``, that set's scenes come first and its record before this batch's; an error
    (SetError, SelectionError, ValueError) names what is wrong with it."""
    manifest, written = manifest_for(scenes), scenes
    if into is not None:
        base = read_set(into)
        before = Path(into) / AUTHORED_FILE
        if before.is_file():
            earlier = json.loads(before.read_text(encoding="utf-8"))
            if not isinstance(earlier, list):
                raise SetError(f"{before}: not a list of authoring records")
            record = earlier + record
        manifest, written = merged(base, scenes)
    text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    return manifest, written, {AUTHORED_FILE: text}


def read_descriptions(path: str | Path) -> list[str]:
    """The descriptions in a text file, one per line (blank lines and ``#`` comments
    skipped); a ValueError naming the file when it cannot be read as UTF-8 text."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]
