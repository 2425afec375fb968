"""A model answers perception probes through the brain's client, response store and
concurrency, shown the very frames it is shown to decide (``brain.prompt.frame_content``).

One call a probe. The record is the brain's ``Decision`` (replies, requests, re-asks, usage,
the reason when no reply was usable), stored under a key of the model, endpoint, prompt
version, probe kind and form, the frames and the question, and the decoding, so a rerun asks
nothing already answered. A reply that does not answer the question (no JSON, a word where a
number is asked, a letter that is not an option) is asked again with the reason, then
recorded as unusable: scored 0, kept in the results, never a crash.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reacthuman.brain.client import Decision, ModelClient, ReplyError
from reacthuman.brain.extract import ExtractionError, extract_json
from reacthuman.brain.prompt import frame_content
from reacthuman.brain.store import ResponseStore, decision_key, observation_hash
from reacthuman.layout import brain_folder
from reacthuman.observation import Observation, read_observation_of
from reacthuman.probes.labels import NEVER, Form, Kind, Probe
from reacthuman.probes.scoring import Answer, ProbeResult, result

PROMPT_VERSION = "probes-1"
SYSTEM = (
    "You are the brain of a humanoid robot standing in a room. The frames that follow are "
    "what your {cameras} cameras recorded over the last {window:g} s, labelled with their "
    "time (seconds after the recording began) and view. Answer one question about what they "
    "show, as precisely as you can judge from the images. Reply with one JSON object, "
    '{{"answer": ...}}: a number in the unit the question asks for, "never" where the '
    "question allows it, or the letter of one option."
)


def read_answer(probe: Probe, found: dict[str, Any]) -> Answer:
    """The answer in a reply's JSON object, or ReplyError saying why it is not one."""
    if "answer" not in found:
        raise ReplyError('no "answer" in the reply')
    value = found["answer"]
    if probe.form is Form.choice:
        letters = list(probe.choices())
        text = str(value).strip().upper()
        letter = text[:1] if text[1:2] in ("", ".", ")", " ") else ""
        if letter not in letters:
            raise ReplyError(f"answer {value!r} is not one of the options {', '.join(letters)}")
        return letter
    if isinstance(value, str) and value.strip(" .!").lower().startswith(NEVER):
        if probe.kind is not Kind.time_to_reach:
            raise ReplyError(
                f'"never" is no answer to this question; give a number in {probe.unit}'
            )
        return NEVER
    try:
        number = float(str(value).strip().split()[0]) if isinstance(value, str) else float(value)
    except (ValueError, IndexError, TypeError, OverflowError):
        raise ReplyError(f"answer {value!r} is not a number in {probe.unit}") from None
    if not math.isfinite(number) or isinstance(value, bool):
        raise ReplyError(f"answer {value!r} is not a number in {probe.unit}")
    return number


@dataclass(frozen=True)
class Shown:
    """A scene's frames as each of its probes shows them: read, hashed and encoded once a
    scene, not once a probe (a scene has about 14 probes and 15 frames)."""

    observation: Observation
    frames: list[dict[str, Any]]  # ``frame_content``'s parts
    frames_hash: str  # ``observation_hash`` of the folder

    @classmethod
    def load(cls, scene: Path) -> Shown:
        """``scene``: the scene's folder in the observation set. Its files are read as a
        brain may be shown them (``observation.read_shown``); ValueError naming the file that
        cannot be (a link out of the scene, no regular file, too large, missing)."""
        folder = brain_folder(scene)
        observation = read_observation_of(folder)
        try:
            return cls(observation, frame_content(observation, folder), observation_hash(folder))
        except OSError as exc:
            raise ValueError(f"{exc.filename}: cannot read ({exc.strerror})") from None


def messages(probe: Probe, shown: Shown) -> list[dict[str, Any]]:
    """The probe's call: the system prompt, the frames, the question (and its options)."""
    question = probe.question
    if probe.options:
        question += "\n" + "\n".join(probe.options)
    content = [*shown.frames, {"type": "text", "text": f"Question: {question}"}]
    cameras, window = len(shown.observation.cameras), shown.observation.window
    system = SYSTEM.format(cameras=cameras, window=window)
    return [{"role": "system", "content": system}, {"role": "user", "content": content}]


async def ask_probe(
    client: ModelClient, store: ResponseStore | None, probe: Probe, shown: Shown
) -> tuple[Answer, Decision]:
    """One probe's answer (None when unusable) and its record, from the store when there."""
    asked = messages(probe, shown)
    shown_key = hashlib.sha256(
        (shown.frames_hash + asked[-1]["content"][-1]["text"]).encode()
    ).hexdigest()
    version = f"{PROMPT_VERSION}:{probe.kind}:{probe.form}"
    key = decision_key(client.model, client.base_url, version, shown_key, client.decoding())
    record = store.get(key) if store is not None else None
    if record is None:
        record = Decision(
            scene_id=probe.probe_id,
            brain=client.model,
            endpoint=client.base_url,
            prompt_version=version,
        )

        def accept(found: dict[str, Any]) -> None:
            read_answer(probe, found)

        await client.ask(record, asked, accept)
        if store is not None and not record.api_failure:  # an outage is asked again next run
            store.put(key, shown_key, client.decoding(), record)
    if record.r1_reason is not None or not record.replies:
        return None, record
    try:  # the stored reply read again: the record keeps text, not the reader's value
        return read_answer(probe, extract_json(record.replies[-1])), record
    except (ReplyError, ExtractionError) as exc:
        record.r1_reason = f"unusable reply: {exc}"
        return None, record


async def run_model(
    client: ModelClient,
    store: ResponseStore | None,
    probes: Sequence[Probe],
    scenes: dict[str, Path],
    concurrency: int = 8,
    on_result: Callable[[ProbeResult], None] | None = None,
) -> list[ProbeResult]:
    """Every probe answered by the model, ``concurrency`` calls at a time; ``scenes`` maps a
    scene id to its folder in the observation set."""
    missing = sorted({p.scene_id for p in probes} - set(scenes))
    if missing:
        raise ValueError(
            f"{len(missing)} probed scene(s) not in the observation set: {', '.join(missing[:5])}"
        )
    semaphore = asyncio.Semaphore(concurrency)
    # The scenes whose probes are in flight, newest last: a scene's probes come together, so
    # a few scenes suffice, and a whole set's encoded frames (hundreds of MB) are never held.
    # Each is read once, off the event loop (a slow disk holds no other probe's request).
    shown: OrderedDict[str, asyncio.Future[Shown]] = OrderedDict()

    async def frames_of(scene_id: str) -> Shown:
        if scene_id not in shown:
            shown[scene_id] = asyncio.ensure_future(asyncio.to_thread(Shown.load, scenes[scene_id]))
            while len(shown) > concurrency + 1:
                shown.popitem(last=False)
        shown.move_to_end(scene_id)
        return await shown[scene_id]

    async def one(probe: Probe) -> ProbeResult:
        async with semaphore:
            try:
                frames = await frames_of(probe.scene_id)
            except ValueError as exc:  # that scene's probes are unusable; nothing is sent
                done = result(probe, client.model, None, f"cannot read its frames: {exc}")
            else:
                answer, record = await ask_probe(client, store, probe, frames)
                done = result(probe, client.model, answer, record.r1_reason)
        if on_result is not None:
            on_result(done)
        return done

    return list(await asyncio.gather(*(one(p) for p in probes)))
