"""How an execution ended, judged from the simulation after the resume.

* ``caught``: a hand touched the object, no strike came first, and the object had not
  reached the floor by the end of the execution (for a hazard whose path is the floor, a
  bouncing or rolling ball, ``floor_resolves`` False: a hand touched it and it is off the
  floor, held, at the end; bounces before do not count);
* ``struck``: the object touched the body outside the hands with an impulse of at least
  ``STRIKE_IMPULSE`` (a lighter touch is not a strike) before any hand held it;
* ``clear``: neither (the object lands elsewhere, never comes near, or slips from the hands);
* ``fell``: the robot's base came down below ``FALL_HEIGHT`` (a real body only).

On the G1 the contacts are the simulator's: the contact forces between the object and the
robot's links each physics step, hands being the wrist links and rubber hands. A body
impulse is the time integral of the body contact force over the execution, counted while
the object moves at ``STRIKE_SPEED`` or faster (a robot stepping on a resting object is not
struck by it).

With the kinematic stand-in there are no physical contacts: a "contact" is the object's
hazard point coming within the object's contact radius of a hand sphere or of the body's
cylinder, and its impulse is the object's mass times its speed then.
"""

from __future__ import annotations

import math
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from reacthuman.scenes.geometry import Vec3
from reacthuman.scenes.spec import SceneObject
from reacthuman.spine.command import JointCommand

HAND_RADIUS = 0.06  # m, a hand as a sphere
BODY_RADIUS = 0.2  # m, the torso and legs as a vertical cylinder about the base
BODY_HEIGHT = 1.32  # m, the G1 standing
CROUCH_DEPTH = 0.4  # share of the height a full knee bend takes off
MAX_CONTACT_RADIUS = 0.25  # m: long objects (doors, ladders) are judged at their hazard point
STRIKE_IMPULSE = 0.3  # N s
STRIKE_SPEED = 0.5  # m/s: an object slower than this is pushed (stepped on), not striking
FALL_HEIGHT = 0.45  # m, base height below which the robot has fallen


class Result(StrEnum):
    caught = "caught"
    struck = "struck"
    clear = "clear"
    fell = "fell"


class Contact(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    t: float  # s after the freeze
    part: str  # "left_hand", "right_hand" or "body"
    speed: float  # m/s of the object then
    impulse: float  # N s


class ExecutionOutcome(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    scene_id: str
    brain: str
    controller: str
    result: Result
    first_contact: Contact | None
    floor_time: float | None  # s after the freeze of the object's first floor contact
    fall_time: float | None
    min_hand_distance: float  # m between the hazard point and the nearer hand sphere
    min_body_distance: float  # m between the hazard point and the body cylinder
    ticks: int
    duration: float  # s executed


def contact_radius(obj: SceneObject) -> float:
    return min(0.5 * max(obj.shape.size), MAX_CONTACT_RADIUS)


def _cylinder_distance(point: Vec3, base: tuple[float, float], height: float) -> float:
    radial = max(math.hypot(point[0] - base[0], point[1] - base[1]) - BODY_RADIUS, 0.0)
    vertical = max(point[2] - height, -point[2], 0.0)
    return math.hypot(radial, vertical)


class OutcomeJudge:
    """Accumulates one execution, physics step by physics step, then names its result."""

    def __init__(
        self,
        obj: SceneObject,
        scene_id: str,
        brain: str,
        controller: str,
        floor_resolves: bool = True,
    ) -> None:
        self.obj = obj
        self.floor_resolves = floor_resolves
        self.on_floor = False
        self.radius = contact_radius(obj)
        self.scene_id, self.brain, self.controller = scene_id, brain, controller
        self.first_contact: Contact | None = None
        self.floor_time: float | None = None
        self.fall_time: float | None = None
        self.min_hand = math.inf
        self.min_body = math.inf
        self.ticks = 0
        self.t = 0.0
        self.hand_contact: Contact | None = None
        self.body_impulse = 0.0
        self.strike: Contact | None = None
        self.physical = False

    def observe(
        self,
        t: float,
        point: Vec3,
        velocity: Vec3,
        on_floor: bool,
        command: JointCommand,
        base_height: float | None = None,
    ) -> None:
        self.t = t
        if on_floor and self.floor_time is None:
            self.floor_time = t
        if base_height is not None and base_height < FALL_HEIGHT and self.fall_time is None:
            self.fall_time = t
        bend = command.position("knee_bend")
        height = BODY_HEIGHT * (1.0 - CROUCH_DEPTH * bend)
        base = (command.position("base_x"), command.position("base_y"))
        distances = {
            side: math.dist(point, tuple(command.position(f"{side}_{a}") for a in "xyz"))
            - HAND_RADIUS
            for side in ("left_hand", "right_hand")
        }
        body = _cylinder_distance(point, base, height)
        self.min_hand = min(self.min_hand, *(max(d, 0.0) for d in distances.values()))
        self.min_body = min(self.min_body, body)
        if self.first_contact is not None:
            return
        speed = math.sqrt(sum(v * v for v in velocity))
        impulse = self.obj.mass_kg * speed
        hand = min(distances, key=distances.__getitem__)
        if distances[hand] <= self.radius and self.floor_time is None:
            self.first_contact = Contact(t=t, part=hand, speed=speed, impulse=impulse)
        elif body <= self.radius and impulse >= STRIKE_IMPULSE:
            self.first_contact = Contact(t=t, part="body", speed=speed, impulse=impulse)

    def observe_contacts(
        self,
        t: float,
        point: Vec3,
        velocity: Vec3,
        on_floor: bool,
        hands: dict[str, Vec3],
        base: Vec3,
        forces: dict[str, float],
        dt: float,
    ) -> None:
        """One physics step of a real body: its hand centres, base (pelvis) position and the
        contact force on each part ("left_hand", "right_hand", "body")."""
        self.physical = True
        self.t = t
        self.on_floor = on_floor
        if on_floor and self.floor_time is None:
            self.floor_time = t
        if base[2] < FALL_HEIGHT and self.fall_time is None:
            self.fall_time = t
        self.min_hand = min(
            self.min_hand,
            *(max(math.dist(point, h) - HAND_RADIUS, 0.0) for h in hands.values()),
        )
        self.min_body = min(
            self.min_body, _cylinder_distance(point, (base[0], base[1]), BODY_HEIGHT)
        )
        speed = math.sqrt(sum(v * v for v in velocity))
        hand = max(("left_hand", "right_hand"), key=lambda part: forces.get(part, 0.0))
        if forces.get(hand, 0.0) > 0.0 and self.hand_contact is None and self.may_hold():
            self.hand_contact = Contact(t=t, part=hand, speed=speed, impulse=forces[hand] * dt)
        if forces.get("body", 0.0) > 0.0 and speed >= STRIKE_SPEED:
            self.body_impulse += forces["body"] * dt
            if self.strike is None and self.body_impulse >= STRIKE_IMPULSE:
                self.strike = Contact(t=t, part="body", speed=speed, impulse=self.body_impulse)
        firsts = [c for c in (self.hand_contact, self.strike) if c is not None]
        self.first_contact = min(firsts, key=lambda c: c.t) if firsts else None

    def may_hold(self) -> bool:
        """Whether a hand meeting the object now would be catching it (not picking it up)."""
        return self.floor_time is None if self.floor_resolves else True

    def _physical_result(self) -> Result:
        struck_first = self.strike is not None and (
            self.hand_contact is None or self.strike.t < self.hand_contact.t
        )
        if struck_first:
            return Result.struck
        held = self.floor_time is None if self.floor_resolves else not self.on_floor
        if self.hand_contact is not None and held:
            return Result.caught
        return Result.struck if self.strike is not None else Result.clear

    def outcome(self) -> ExecutionOutcome:
        if self.fall_time is not None:
            result = Result.fell
        elif self.physical:
            result = self._physical_result()
        elif self.first_contact is None:
            result = Result.clear
        elif self.first_contact.part == "body":
            result = Result.struck
        else:
            result = Result.caught
        return ExecutionOutcome(
            scene_id=self.scene_id,
            brain=self.brain,
            controller=self.controller,
            result=result,
            first_contact=self.first_contact,
            floor_time=self.floor_time,
            fall_time=self.fall_time,
            min_hand_distance=self.min_hand if math.isfinite(self.min_hand) else 0.0,
            min_body_distance=self.min_body if math.isfinite(self.min_body) else 0.0,
            ticks=self.ticks,
            duration=self.t,
        )
