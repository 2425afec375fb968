"""Probes of one observed scene and their exact labels (issue 19, HumanPhys section 3).

Each probe asks about a physically grounded quantity the model could read off the frames it
was shown before deciding. Labels come from the simulator's record of the scene
(``GroundTruth``: the hazard's trajectory at 60 Hz, where and when it reaches the robot) and
its ``SceneSpec`` (where the robot stands, the lights, the cameras), never from an estimator
on the frames. Times in a question are the frames' own (seconds after the event's start, as
the frames are labelled to the model); "the freeze" is the last frame.

The kinds:

* ``distance``: the hazard's horizontal distance from the robot's vertical axis at the last
  frame (m).
* ``speed``: the straight-line distance between its positions at the last two frames over
  the time between them (m/s).
* ``direction``: where it moves between the last two frames, as seen from the robot facing it
  (choice; not asked of a hazard still at rest).
* ``displacement``: how far it moved between the first and the last frame (m).
* ``time_to_reach``: seconds from the last frame until it reaches the robot (enters the
  reach zone: within 1.2 m of the robot's axis, below 2 m), or never.
* ``crossing``: how far from the robot's axis it will cross the robot's chest height
  (1.1 m, the reach plane), where it does (m).
* ``height``: its height above the floor at the last frame (m).
* ``light``: where the main light comes from, as seen by the egocentric camera (choice; not
  asked where it shines from nearly straight above).

Positions are the object's centre of mass where the record has it (schema 2.1), else the
hazard point; between two 60 Hz samples they are interpolated linearly (off by at most
``g dt^2 / 8`` = 0.3 mm in free fall). Camera ego-motion, which HumanPhys asks about, is not
probed: every ReactHuman camera is fixed in the room for the whole episode.

Every numeric probe is also asked as a four-way choice: the label among three distractors at
multiples of it drawn so that its rank among the four is even, shuffled by the scene id.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from reacthuman.observation import Observation
from reacthuman.scenes.geometry import cross, dot, normalize, sub
from reacthuman.scenes.reach import REACH_HEIGHT, REACH_PLANE_HEIGHT, REACH_RADIUS
from reacthuman.scenes.rng import SeededRng
from reacthuman.scenes.spec import CameraName, SceneSpec
from reacthuman.scenes.truth import GroundTruth

PROBES_SCHEMA = "1.0"
NEVER = "never"
# The choice form's wrong options, as multiples of the label: one pattern drawn per probe, so
# the right amount is as often the smallest of the four as the second, third or largest (a
# fixed pattern would give it away by its rank). Neighbours stay 1.5x or more apart.
DISTRACTOR_PATTERNS = (
    (1.6, 2.5, 4.0),
    (0.5, 1.6, 2.5),
    (0.4, 0.63, 1.6),
    (0.25, 0.4, 0.63),
)
_CROSSING_TOLERANCE = 0.02  # m: an impact point this close to the plane crossed it there
# A quantity smaller than this (in its unit) is not asked: relative accuracy needs a label
# away from zero (a hazard still at rest, as a chain reaction's target can be at the freeze).
MIN_LABEL = 0.01
OVERHEAD_DEG = 15.0  # a key light this close to the vertical comes from no side


class Kind(StrEnum):
    distance = "distance"
    speed = "speed"
    direction = "direction"
    displacement = "displacement"
    time_to_reach = "time_to_reach"
    crossing = "crossing"
    height = "height"
    light = "light"


class Form(StrEnum):
    numeric = "numeric"
    choice = "choice"


class Direction(StrEnum):
    """Where the hazard moves, relative to the robot (as the robot would see it facing the
    hazard)."""

    toward = "toward the robot"
    away = "away from the robot"
    left = "across, to the left as seen from the robot"
    right = "across, to the right as seen from the robot"
    down = "downward"
    up = "upward"


class LightSide(StrEnum):
    """Where the main light comes from, seen from the egocentric camera."""

    left = "from the camera's left"
    right = "from the camera's right"
    behind = "from behind the camera"
    front = "from in front of the camera (facing it)"


UNITS = {
    Kind.distance: "m",
    Kind.speed: "m/s",
    Kind.displacement: "m",
    Kind.time_to_reach: "s",
    Kind.crossing: "m",
    Kind.height: "m",
}


class Probe(BaseModel):
    """One question about one scene and its exact answer.

    ``label``: a number (numeric form), ``None`` for "never" (``time_to_reach`` only), or
    the right option's letter (choice form)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: str = PROBES_SCHEMA
    probe_id: str  # <scene_id>:<kind>:<form>
    scene_id: str
    family: str
    speed_band: str
    kind: Kind
    form: Form
    question: str
    unit: str | None = None
    options: list[str] = []  # choice form: "A. ...", "B. ...", in order
    label: float | str | None

    def choices(self) -> dict[str, str]:
        """The choice form's options by letter, without the letters ("A" -> "2.5 m")."""
        split = (option.split(". ", 1) for option in self.options)
        return {letter: text for letter, text in split}


def position_at(truth: GroundTruth, t: float) -> tuple[float, float, float]:
    """The hazard (centre of mass, else the hazard point) at ``t`` seconds after t0,
    linearly between the record's samples."""
    points = truth.trajectory
    if not points:
        raise ValueError(f"{truth.scene_id}: the ground truth has no trajectory")
    if not points[0].t - 1e-9 <= t <= points[-1].t + 1e-9:
        raise ValueError(
            f"{truth.scene_id}: t = {t} s is outside the recorded trajectory "
            f"({points[0].t}-{points[-1].t} s)"
        )

    def where(i: int) -> Sequence[float]:
        p = points[i]
        return p.center if p.center is not None else p.pos

    hi = next((i for i, p in enumerate(points) if p.t >= t), len(points) - 1)
    if hi == 0 or points[hi].t == t:
        x = where(hi)
        return (x[0], x[1], x[2])
    lo = hi - 1
    w = (t - points[lo].t) / (points[hi].t - points[lo].t)
    a, b = where(lo), where(hi)
    return (a[0] + w * (b[0] - a[0]), a[1] + w * (b[1] - a[1]), a[2] + w * (b[2] - a[2]))


def _horizontal(a: Sequence[float], b: Sequence[float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def direction_of(start: Sequence[float], end: Sequence[float], robot: Sequence[float]) -> Direction:
    """The main axis of the move ``start`` -> ``end``: toward or away from the robot (along
    the floor), across it (left or right of a robot facing the hazard), or up or down."""
    move = sub(end, start)
    toward_vec = normalize((robot[0] - start[0], robot[1] - start[1], 0.0))
    facing = (-toward_vec[0], -toward_vec[1], 0.0)  # the robot looking at the hazard
    left = (-facing[1], facing[0], 0.0)
    parts = {
        Direction.toward: dot(move, toward_vec),
        Direction.left: dot(move, left),
        Direction.up: move[2],
    }
    axis = max(parts, key=lambda k: abs(parts[k]))
    if parts[axis] >= 0:
        return axis
    return {Direction.toward: Direction.away, Direction.left: Direction.right}.get(
        axis, Direction.down
    )


def light_side(spec: SceneSpec) -> LightSide | None:
    """Where the key light (the scene's strongest) comes from, in the egocentric camera's
    horizontal frame; None where it shines from nearly straight above (within
    ``OVERHEAD_DEG`` of the vertical), which has no side."""
    camera = next(c for c in spec.cameras if c.name == CameraName.egocentric)
    forward = normalize(sub(camera.lookat, camera.pos))
    forward = normalize((forward[0], forward[1], 0.0))
    right = cross(forward, (0.0, 0.0, 1.0))
    key = max(spec.lighting.lights, key=lambda light: light.intensity)
    d = key.direction
    if math.hypot(d[0], d[1]) < math.sin(math.radians(OVERHEAD_DEG)) * math.hypot(*d):
        return None
    source = (-d[0], -d[1], 0.0)  # toward the light
    ahead, aside = dot(source, forward), dot(source, right)
    if abs(aside) >= abs(ahead):
        return LightSide.right if aside > 0 else LightSide.left
    return LightSide.front if ahead > 0 else LightSide.behind


def _numeric_labels(
    spec: SceneSpec, truth: GroundTruth, first: float, before_last: float, last: float
) -> dict[Kind, float | None]:
    """The numeric probes' labels from the frames at ``first``, ``before_last`` and ``last``
    (s); None for a time to reach of "never"."""
    robot = spec.observer.pos
    at_last = position_at(truth, last)
    labels: dict[Kind, float | None] = {
        Kind.distance: _horizontal(at_last, robot),
        Kind.speed: math.dist(position_at(truth, before_last), at_last) / (last - before_last),
        Kind.displacement: math.dist(position_at(truth, first), at_last),
        Kind.time_to_reach: (
            None
            if not truth.reaches_observer or truth.arrival_time is None
            else max(truth.arrival_time - last, 0.0)
        ),
        Kind.height: at_last[2],
    }
    impact = truth.impact_point
    if impact is not None and abs(impact[2] - REACH_PLANE_HEIGHT) <= _CROSSING_TOLERANCE:
        labels[Kind.crossing] = _horizontal(impact, robot)
    return labels


def _numeric_question(kind: Kind, first: float, before_last: float, last: float) -> str:
    return {
        Kind.distance: f"At t = {last:.2f} s (the last frame), how far is the moving object "
        "from the robot, measured along the floor from the robot's vertical axis? Answer in "
        "metres.",
        Kind.speed: "How fast is the moving object going between "
        f"t = {before_last:.2f} s and t = {last:.2f} s (the last two frames): the straight-line "
        "distance between its two positions divided by the time between them? Answer in "
        "metres per second.",
        Kind.displacement: f"How far does the moving object travel in a straight line between "
        f"t = {first:.2f} s (the first frame) and t = {last:.2f} s (the last frame)? Answer in "
        "metres.",
        Kind.time_to_reach: f"How many seconds after t = {last:.2f} s (the last frame) will the "
        f"moving object reach the robot, that is, come within {REACH_RADIUS:g} m of its "
        f'vertical axis and below {REACH_HEIGHT:g} m? Answer in seconds, or "never" if it '
        "will not.",
        Kind.crossing: "Where the moving object comes down through the robot's chest height "
        f"({REACH_PLANE_HEIGHT:g} m above the floor), how far from the robot's vertical axis "
        "will it be? Answer in metres.",
        Kind.height: f"At t = {last:.2f} s (the last frame), how high above the floor is the "
        "middle of the moving object? Answer in metres.",
    }[kind]


def _choice(
    spec: SceneSpec,
    kind: Kind,
    question: str,
    right: str,
    wrong: Sequence[str],
    rng: SeededRng,
    unit: str | None = None,
) -> Probe:
    """The multiple-choice probe: ``right`` among ``wrong``, lettered in an order drawn from
    the scene's stream."""
    options = [right, *wrong]
    for i in range(len(options) - 1, 0, -1):  # Fisher-Yates
        j = rng.integer(0, i)
        options[i], options[j] = options[j], options[i]
    letters = "ABCDEF"[: len(options)]
    return _probe(
        spec,
        kind,
        Form.choice,
        question=f"{question} Answer with the letter of one option.",
        unit=unit,
        options=[f"{letter}. {text}" for letter, text in zip(letters, options, strict=True)],
        label=letters[options.index(right)],
    )


def _probe(spec: SceneSpec, kind: Kind, form: Form, **fields: Any) -> Probe:
    """A probe of ``spec`` with the fields every probe of the scene shares filled in."""
    return Probe(
        probe_id=f"{spec.scene_id}:{kind}:{form}",
        scene_id=spec.scene_id,
        family=spec.family.value,
        speed_band=spec.speed_band.value,
        kind=kind,
        form=form,
        **fields,
    )


def _amount(value: float, unit: str) -> str:
    return f"{value:.2g} {unit}" if value < 10 else f"{value:.0f} {unit}"


def probes_for(spec: SceneSpec, truth: GroundTruth, observation: Observation) -> list[Probe]:
    """Every probe of one observed scene, numeric and choice forms, in a fixed order."""
    if not spec.scene_id == truth.scene_id == observation.scene_id:
        raise ValueError(
            f"spec {spec.scene_id}, ground truth {truth.scene_id} and observation "
            f"{observation.scene_id} are not the same scene"
        )
    if len(observation.frame_times) < 2:
        raise ValueError(f"{spec.scene_id}: probes need at least two frames")
    times = observation.frame_times
    first, before_last, last = times[0], times[-2], times[-1]
    rng = SeededRng("probes", spec.scene_id)
    probes: list[Probe] = []
    for kind, label in _numeric_labels(spec, truth, first, before_last, last).items():
        if label is not None and label < MIN_LABEL:
            continue
        question = _numeric_question(kind, first, before_last, last)
        unit = UNITS[kind]
        probes.append(
            _probe(
                spec,
                kind,
                Form.numeric,
                question=question,
                unit=unit,
                label=None if label is None else round(label, 4),
            )
        )
        if label is None:
            right, wrong = NEVER, [_amount(r, unit) for r in (0.5, 1.5, 3.0)]
        else:
            right = _amount(label, unit)
            wrong = [_amount(label * r, unit) for r in rng.choice(DISTRACTOR_PATTERNS)]
            if kind is Kind.time_to_reach:
                wrong[-1] = NEVER
        stem = question.rsplit(" Answer", 1)[0]
        probes.append(_choice(spec, kind, stem, right, wrong, rng, unit))
    start, end = position_at(truth, before_last), position_at(truth, last)
    if math.dist(start, end) / (last - before_last) >= MIN_LABEL:  # it moves: it has a way
        moved = direction_of(start, end, spec.observer.pos)
        probes.append(
            _choice(
                spec,
                Kind.direction,
                f"Between t = {before_last:.2f} s and t = {last:.2f} s (the last two frames), "
                "which way does the moving object mainly move?",
                moved.value,
                [d.value for d in Direction if d is not moved],
                rng,
            )
        )
    side = light_side(spec)
    if side is not None:
        probes.append(
            _choice(
                spec,
                Kind.light,
                "Seen from the egocentric camera, where does the main light in the room come from?",
                side.value,
                [s.value for s in LightSide if s is not side],
                rng,
            )
        )
    return probes
