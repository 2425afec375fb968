"""BilliardPhys's questions and the reading of a model's replies.

As in the paper (section 2.3): one common prompt with the physics (friction law, mu, g,
stopping distance, perfectly elastic collisions) and the image, then the three tasks asked
in separate calls, each answered with a JSON object. A reply is read with the brain's own
JSON extraction; one that cannot be used (no JSON, a missing or repeated ball, a word other
than T or F, a position off the table) is recorded with the reason and judged wrong on
every item, never dropped and never a crash.
"""

from __future__ import annotations

import math
from typing import Any

from reacthuman.billiards.physics import HEIGHT, MU, RADIUS, WIDTH, G, Wall
from reacthuman.billiards.render import ARROW_SECONDS
from reacthuman.billiards.scenes import BALLS, BilliardScene
from reacthuman.brain.client import ReplyError
from reacthuman.brain.extract import ExtractionError, extract_json

TASKS = ("q1", "q2", "q3")


class UnusableAnswer(ReplyError):
    """A reply that answers nothing usable; the message says why (the model client asks
    again with it)."""


def common_prompt(scene: BilliardScene) -> str:
    return (
        "The image shows a billiard table from above. The playing surface spans "
        f"x from 0 to {WIDTH:g} m (left to right) and y from 0 to {HEIGHT:g} m (bottom to top); "
        "the walls are LEFT (x = 0), RIGHT (x = 2), BOTTOM (y = 0) and TOP (y = 1), with six "
        "pockets at the corners and the middles of the long walls. "
        f"There are {BALLS} balls of radius {RADIUS} m, labelled with their ids: ball 0 "
        "(white) is the cue ball, the only one moving at t = 0; the arrow from it shows its "
        f"velocity (its tip is where the ball would be after {ARROW_SECONDS:g} s without "
        "friction). Friction slows every moving ball along its path: "
        f"v(s) = sqrt(v0^2 - 2 mu g s) with mu = {MU} and g = {G} m/s^2, so a ball stops after "
        "s_stop = v0^2 / (2 mu g). Collisions between balls (equal masses) and with the walls "
        "are perfectly elastic; a ball that reaches a pocket is pocketed and leaves the table. "
        f"Consider the motion from t = 0 to t = {scene.horizon} s."
    )


def task_prompt(task: str, scene: BilliardScene) -> str:
    """The question of one task (asked in its own call, after the common prompt)."""
    ids = ", ".join(str(b) for b in range(1, BALLS))
    if task == "q1":
        return (
            f"Task 1: for each ball {ids}, does the cue ball collide with it before "
            f"t = {scene.horizon} s? Answer with JSON only: "
            '{"collisions": [{"id": 1, "answer": "T"}, {"id": 2, "answer": "F"}, ...]} '
            "with one entry per ball, T for a collision and F for none."
        )
    if task == "q2":
        return (
            "Task 2: for each wall, does the cue ball collide with it before "
            f"t = {scene.horizon} s? "
            'Answer with JSON only: {"walls": [{"wall": "TOP", "answer": "T"}, '
            '{"wall": "BOTTOM", "answer": "F"}, {"wall": "LEFT", "answer": "F"}, '
            '{"wall": "RIGHT", "answer": "F"}]} with all four walls.'
        )
    if task == "q3":
        every = ", ".join(str(b) for b in range(BALLS))
        return (
            f"Task 3: where is every ball ({every}) at t = {scene.horizon} s? Answer with JSON "
            'only: {"predictions": [{"id": 0, "pos": [x, y]}, ...]} with x and y in metres to '
            'at most four decimals, one entry per ball; a pocketed ball has "pos": null.'
        )
    raise ValueError(f"unknown BilliardPhys task {task!r} (known: {', '.join(TASKS)})")


def parse_reply(reply: str | None) -> dict[str, Any]:
    """The reply's JSON object (the brain's extraction); UnusableAnswer when there is none."""
    try:
        return extract_json(reply)
    except ExtractionError as exc:
        raise UnusableAnswer(str(exc)) from None


def _entries(found: dict[str, Any], key: str) -> list[dict[str, Any]]:
    entries = found.get(key)
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise UnusableAnswer(f'no "{key}" list of objects in the reply')
    return entries


def _true_false(value: Any, what: str) -> bool:
    if value in ("T", "F"):
        return value == "T"
    raise UnusableAnswer(f'{what}: answer {value!r} is neither "T" nor "F"')


def read_hits(found: dict[str, Any]) -> dict[int, bool]:
    """Task 1's reply (its JSON object): object ball id -> collided; UnusableAnswer naming
    what is wrong."""
    out: dict[int, bool] = {}
    for entry in _entries(found, "collisions"):
        ball = entry.get("id")
        if not isinstance(ball, int) or isinstance(ball, bool) or not 1 <= ball < BALLS:
            raise UnusableAnswer(
                f"collision entry for id {ball!r}: not an object ball 1-{BALLS - 1}"
            )
        if ball in out:
            raise UnusableAnswer(f"ball {ball} answered twice")
        out[ball] = _true_false(entry.get("answer"), f"ball {ball}")
    missing = sorted(set(range(1, BALLS)) - set(out))
    if missing:
        raise UnusableAnswer(f"no answer for ball(s) {', '.join(map(str, missing))}")
    return out


def read_walls(found: dict[str, Any]) -> dict[Wall, bool]:
    """Task 2's reply: wall -> touched; UnusableAnswer naming what is wrong."""
    out: dict[Wall, bool] = {}
    for entry in _entries(found, "walls"):
        name = entry.get("wall")
        try:
            wall = Wall(str(name).upper())
        except ValueError:
            raise UnusableAnswer(f"wall {name!r}: not TOP, BOTTOM, LEFT or RIGHT") from None
        if wall in out:
            raise UnusableAnswer(f"wall {wall} answered twice")
        out[wall] = _true_false(entry.get("answer"), f"wall {wall}")
    missing = [w.value for w in Wall if w not in out]
    if missing:
        raise UnusableAnswer(f"no answer for wall(s) {', '.join(missing)}")
    return out


def _finite(value: int | float) -> bool:
    """A finite number that converts to a float (an integer of 400 digits does not)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def read_positions(found: dict[str, Any]) -> dict[int, tuple[float, float] | None]:
    """Task 3's reply: ball id -> position at the horizon or None (pocketed)."""
    out: dict[int, tuple[float, float] | None] = {}
    for entry in _entries(found, "predictions"):
        ball = entry.get("id")
        if not isinstance(ball, int) or isinstance(ball, bool) or not 0 <= ball < BALLS:
            raise UnusableAnswer(f"prediction for id {ball!r}: not a ball 0-{BALLS - 1}")
        if ball in out:
            raise UnusableAnswer(f"ball {ball} predicted twice")
        pos = entry.get("pos")
        if pos is None:
            out[ball] = None
            continue
        if (
            not isinstance(pos, list)
            or len(pos) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in pos)
            or not all(_finite(v) for v in pos)
        ):
            raise UnusableAnswer(f"ball {ball}: pos {pos!r} is not [x, y] in metres or null")
        x, y = float(pos[0]), float(pos[1])
        if not (0.0 <= x <= WIDTH and 0.0 <= y <= HEIGHT):
            raise UnusableAnswer(f"ball {ball}: ({x:g}, {y:g}) is off the table")
        out[ball] = (x, y)
    missing = sorted(set(range(BALLS)) - set(out))
    if missing:
        raise UnusableAnswer(f"no prediction for ball(s) {', '.join(map(str, missing))}")
    return out
