"""A model answers BilliardPhys tables through the brain's client, response store and
concurrency: three calls a table (one per task, as the paper makes them), each with the
common prompt, its question and the table's image.

A call's record is the brain's ``Decision`` (replies, requests, re-asks, usage, the reason
when no reply was usable), stored under a key of the model, endpoint, prompt version, task,
image and decoding, so a rerun asks nothing already answered. An unusable reply is asked
again with the reason (the client's re-asks), then recorded as that task's unusable answer:
judged wrong on every item, kept in the results, never a crash.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from reacthuman.billiards.bench import TableResult, result
from reacthuman.billiards.prompts import (
    TASKS,
    UnusableAnswer,
    common_prompt,
    parse_reply,
    read_hits,
    read_positions,
    read_walls,
    task_prompt,
)
from reacthuman.billiards.render import table_png
from reacthuman.billiards.scenes import BilliardScene, BilliardTruth
from reacthuman.billiards.scoring import BilliardAnswer
from reacthuman.brain.client import Decision, ModelClient
from reacthuman.brain.store import ResponseStore, decision_key

PROMPT_VERSION = "billiardphys-1"
READERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "q1": read_hits,
    "q2": read_walls,
    "q3": read_positions,
}
FIELDS = {"q1": "hits", "q2": "walls", "q3": "positions"}


def messages(scene: BilliardScene, png: bytes, task: str) -> list[dict[str, Any]]:
    image = base64.b64encode(png).decode()
    return [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": f"{common_prompt(scene)}\n\n{task_prompt(task, scene)}"},
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{image}"}},
            ],
        }
    ]


async def ask_task(
    client: ModelClient, store: ResponseStore | None, scene: BilliardScene, png: bytes, task: str
) -> tuple[Any, Decision]:
    """One task's answer (None when unusable) and its record, from the store when there."""
    asked = messages(scene, png, task)
    shown = hashlib.sha256(png + asked[0]["content"][0]["text"].encode()).hexdigest()
    version = f"{PROMPT_VERSION}:{task}"
    key = decision_key(client.model, client.base_url, version, shown, client.decoding())
    record = store.get(key) if store is not None else None
    if record is None:
        record = Decision(
            scene_id=f"{scene.scene_id}:{task}",
            brain=client.model,
            endpoint=client.base_url,
            prompt_version=version,
        )
        await client.ask(record, asked, READERS[task])
        if store is not None and not record.api_failure:  # an outage is asked again next run
            store.put(key, shown, client.decoding(), record)
    if record.r1_reason is not None or not record.replies:
        return None, record
    try:  # the stored reply read again: the record keeps text, not the reader's value
        return READERS[task](parse_reply(record.replies[-1])), record
    except UnusableAnswer as exc:
        record.r1_reason = f"unusable reply: {exc}"
        return None, record


async def answer_table(
    client: ModelClient,
    store: ResponseStore | None,
    scene: BilliardScene,
    answers: BilliardTruth,
) -> TableResult:
    png = table_png(scene)
    found: dict[str, Any] = {}
    unusable = []
    for task in TASKS:
        value, record = await ask_task(client, store, scene, png, task)
        if value is None:
            unusable.append(f"{task}: {record.r1_reason or 'no reply'}")
        found[FIELDS[task]] = value
    return result(client.model, scene, answers, BilliardAnswer(**found), unusable)


async def run_model(
    client: ModelClient,
    store: ResponseStore | None,
    drawn: Sequence[tuple[BilliardScene, BilliardTruth]],
    concurrency: int = 8,
    on_result: Callable[[TableResult], None] | None = None,
) -> list[TableResult]:
    """Every table answered by the model, ``concurrency`` tables at a time."""
    semaphore = asyncio.Semaphore(concurrency)

    async def one(scene: BilliardScene, answers: BilliardTruth) -> TableResult:
        async with semaphore:
            done = await answer_table(client, store, scene, answers)
        if on_result is not None:
            on_result(done)
        return done

    return list(await asyncio.gather(*(one(s, t) for s, t in drawn)))
