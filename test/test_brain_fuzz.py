"""Fuzzed replies from a hostile endpoint on loopback (2,000 in the slow run, 300 in the quick
loop), through the real client, the response store and the files a decision is written to: no
crash, every decision a plan or an R1, every stored one read back, the key nowhere on disk
(issue 20's acceptance)."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from loopback import GOOD, completion

from reacthuman.brain.client import ModelClient
from reacthuman.brain.run import Outcome, write_outcome
from reacthuman.brain.store import ResponseStore

KEY = "fuzz-credential-0123456789abcdef/xyz"  # not a real key


def escaped(text: str, rng: random.Random) -> str:
    return "".join(f"\\u{ord(c):04x}" if rng.random() < 0.5 else c for c in text)


def fuzzed(rng: random.Random) -> tuple:
    """One scripted response: a reply text, or a whole body, of one of the shapes a hostile
    or sloppy server sends."""
    plan = json.loads(json.dumps(GOOD))
    kind = rng.randrange(12)
    if kind == 0:  # the key echoed in a string, plain or escaped
        plan["intent"] = rng.choice([KEY, f"my key {KEY}"])
        text = json.dumps(plan)
        return ("reply", text.replace(KEY, escaped(KEY, rng)) if rng.random() < 0.5 else text)
    if kind == 1:  # lone surrogates and junk characters
        plan["object_identified"] = "".join(
            rng.choice(["\ud800", "\udfff", "\x00", "é", "😀", "\u202e", "a"]) for _ in range(20)
        )
        return ("reply", json.dumps(plan))
    if kind == 2:  # truncated anywhere
        text = json.dumps(plan)
        return ("reply", text[: rng.randrange(len(text))])
    if kind == 3:  # absurd numbers
        plan["walking_cmd"] = [rng.choice([1e308, -1e308, 0.0, 1e-320]) for _ in range(3)]
        plan["confidence"] = rng.choice([-5, 2, 1e9])
        return ("reply", json.dumps(plan))
    if kind == 4:  # deep nesting
        depth = rng.randrange(10, 3000)
        return ("reply", "[" * depth + "]" * depth)
    if kind == 5:  # many braces
        return ("reply", "{" * rng.randrange(1, 20_000))
    if kind == 6:  # content as parts, some not text
        text = json.dumps(plan)
        cut = rng.randrange(len(text))
        parts = [{"type": "text", "text": text[:cut]}, {"type": "image_url"}]
        parts.append({"type": "text", "text": text[cut:]})
        return ("body", _body(parts, _usage(rng)))
    if kind == 7:  # odd usage
        return ("body", _body(json.dumps(plan), _usage(rng)))
    if kind == 8:  # no content, null message, no choices
        body = json.loads(_body(None, _usage(rng)))
        body["choices"] = rng.choice([[], [{"index": 0, "message": None}], body["choices"]])
        return ("body", json.dumps(body))
    if kind == 9:  # prose and fences around a plan, or none
        return ("reply", rng.choice(["Sure! ```json\n", "I think ", ""]) + json.dumps(plan))
    if kind == 10:  # random bytes as text
        return ("reply", "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(200)))
    return ("reply", json.dumps({**plan, "keyframes": [{"t": "soon"}] * rng.randrange(0, 40)}))


def _usage(rng: random.Random) -> dict:
    odd = [1.5, float("nan"), float("inf"), -3, "12", None, 10**30, True, 7]
    return {"prompt_tokens": rng.choice(odd), "completion_tokens": rng.choice(odd),
            "cost": rng.choice(odd)}  # fmt: skip


def _body(content, usage) -> str:
    return completion(content, usage).decode()


@pytest.mark.parametrize(
    "replies", [300, pytest.param(2_000, marks=[pytest.mark.slow, pytest.mark.sweep])]
)
def test_fuzzed_replies_never_crash_store_and_read_back_and_never_keep_the_key(
    server, tmp_path, replies
):
    rng = random.Random(20)
    server.responses = [fuzzed(rng) for _ in range(replies)]
    obs, folder = _observation(tmp_path)
    client = ModelClient(
        "fake/model", server.url, api_key=KEY, backoff=0.0, timeout=10.0, max_reasks=0,
        max_retries=0,
    )  # fmt: skip
    semaphore = asyncio.Semaphore(16)

    async def one():
        async with semaphore:
            return await client.decide(obs, folder)

    async def run_all():
        return await asyncio.gather(*(one() for _ in range(replies)))

    decisions = asyncio.run(run_all())
    assert len(decisions) == replies
    # Every request reaches the endpoint, save one whose connection failed on a loaded machine
    # (1-2 of 2,000, twice, while a benchmark shared the two cores): that decision must be
    # one of the API failures, not a crash or a plan.
    lost = replies - len(server.requests)
    assert 0 <= lost <= min(replies // 100, sum(d.api_failure for d in decisions)), lost
    assert all((d.plan is None) == (d.r1_reason is not None) for d in decisions)
    assert sum(d.plan is not None for d in decisions) > replies // 5  # the good ones parse
    store = ResponseStore(tmp_path / "store.sqlite")
    for n, decision in enumerate(decisions):
        store.put(f"k{n}", "h", {}, decision)
    store.close()
    again = ResponseStore(tmp_path / "store.sqlite")  # a rerun on the same store
    assert all(again.get(f"k{n}") == d for n, d in enumerate(decisions))
    again.close()
    for n, decision in enumerate(decisions[:300]):
        scene = tmp_path / "scenes" / f"s{n}"
        write_outcome(Outcome(scene, decision, False), tmp_path / "out", tmp_path / "scenes")
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    for path in written:
        assert KEY.encode() not in path.read_bytes(), path


def _observation(tmp_path):
    import cv2
    import numpy as np

    from reacthuman.observation import CameraInfo, Frame, Observation, RobotPose
    from reacthuman.scenes.generate import generate_scene

    folder = tmp_path / "obs"
    (folder / "frames").mkdir(parents=True)
    spec = generate_scene("object_drop", 1)
    frames = []
    for cam in spec.cameras:
        name = f"frames/{cam.name.value}_0000ms.png"
        cv2.imwrite(str(folder / name), np.full((36, 64, 3), 128, np.uint8))
        frames.append(Frame(view=cam.name, t=0.0, file=name))
    observation = Observation(
        scene_id=spec.scene_id,
        window=0.6,
        frame_times=[0.0],
        frames=frames,
        cameras=[CameraInfo.of(c, 64, 36) for c in spec.cameras],
        robot=RobotPose(pos=spec.observer.pos, yaw=spec.observer.yaw),
    )
    return observation, folder
