"""BilliardPhys's questions, and replies read into answers or refused with the reason."""

from __future__ import annotations

import json

import pytest

from reacthuman.billiards.physics import Wall
from reacthuman.billiards.prompts import (
    UnusableAnswer,
    common_prompt,
    parse_reply,
    read_hits,
    read_positions,
    read_walls,
    task_prompt,
)
from reacthuman.billiards.scenes import generate, truth
from reacthuman.billiards.scoring import BilliardAnswer, grade

SCENE = generate(11, 3)


def test_the_prompts_state_the_physics_the_horizon_and_the_answer_format():
    common = common_prompt(SCENE)
    for needle in ("mu = 0.002", "g = 9.8", "v0^2 / (2 mu g)", "perfectly elastic", "t = 3 s"):
        assert needle in common
    assert '"collisions"' in task_prompt("q1", SCENE) and "1, 2, 3, 4, 5, 6" in task_prompt(
        "q1", SCENE
    )
    assert '"walls"' in task_prompt("q2", SCENE)
    assert '"predictions"' in task_prompt("q3", SCENE) and '"pos": null' in task_prompt("q3", SCENE)
    with pytest.raises(ValueError, match="unknown BilliardPhys task 'q4'"):
        task_prompt("q4", SCENE)


def oracle_replies(scene) -> tuple[str, str, str]:
    t = truth(scene)
    q1 = {"collisions": [{"id": b, "answer": "T" if b in t.hits else "F"} for b in range(1, 7)]}
    q2 = {"walls": [{"wall": w.value, "answer": "T" if w in t.walls else "F"} for w in Wall]}
    q3 = {
        "predictions": [
            {"id": b, "pos": None if p is None else list(p)} for b, p in enumerate(t.positions)
        ]
    }
    return (
        f"Reasoning first... then:\n```json\n{json.dumps(q1)}\n```",
        json.dumps(q2),
        f"The balls end here: {json.dumps(q3)} as computed.",
    )


def test_replies_in_fences_or_prose_read_back_into_a_full_score():
    for seed in range(10):
        scene = generate(seed, 4)
        q1, q2, q3 = oracle_replies(scene)
        answer = BilliardAnswer(
            hits=read_hits(parse_reply(q1)),
            walls=read_walls(parse_reply(q2)),
            positions=read_positions(parse_reply(q3)),
        )
        g = grade(truth(scene), answer)
        assert (g.q1_right, g.q2_right, g.q3_right) == (6, True, 7)


@pytest.mark.parametrize(
    ("reader", "reply", "reason"),
    [
        (read_hits, None, "empty reply"),
        (read_hits, "I think ball 3 gets hit.", "no JSON object"),
        (read_hits, '{"collisions": [{"id": 1, "answer": "T"}', 'no "collisions" list'),  # cut off
        (read_hits, '{"hits": []}', 'no "collisions" list'),
        (read_hits, '{"collisions": [{"id": 1, "answer": "yes"}]}', 'neither "T" nor "F"'),
        (
            read_hits,
            '{"collisions": [{"id": 1, "answer": "T"}]}',
            "no answer for ball(s) 2, 3, 4, 5, 6",
        ),
        (read_hits, '{"collisions": [{"id": 0, "answer": "T"}]}', "not an object ball 1-6"),
        (read_hits, '{"collisions": [{"id": true, "answer": "T"}]}', "not an object ball"),
        (read_walls, '{"walls": [{"wall": "NORTH", "answer": "T"}]}', "not TOP, BOTTOM"),
        (
            read_walls,
            '{"walls": [{"wall": "top", "answer": "T"}]}',
            "no answer for wall(s) LEFT, RIGHT, BOTTOM",
        ),
        (
            read_walls,
            '{"walls": [{"wall": "TOP", "answer": "T"}, {"wall": "TOP", "answer": "F"}]}',
            "answered twice",
        ),
        (read_positions, '{"predictions": [{"id": 0, "pos": [3.0, 0.5]}]}', "off the table"),
        (read_positions, '{"predictions": [{"id": 0, "pos": "middle"}]}', "is not [x, y]"),
        (
            read_positions,
            '{"predictions": [{"id": 0, "pos": [0.1, 0.2]}]}',
            "no prediction for ball(s) 1",
        ),
        (read_positions, '{"predictions": [{"id": 9, "pos": null}]}', "not a ball 0-6"),
    ],
)
def test_an_unusable_reply_is_refused_with_what_is_wrong(reader, reply, reason):
    with pytest.raises(UnusableAnswer) as caught:
        reader(parse_reply(reply))
    assert reason in str(caught.value)
