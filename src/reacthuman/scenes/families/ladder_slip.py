"""ladder_slip: a ladder leaning on the front wall slips (gravity-paced).

Two regimes (paper 3.4): slide-down, where the lean from vertical is past the no-slip
limit (tan(lean) > 2 mu_f / (1 - mu_f mu_w) for floor and wall friction mu_f, mu_w), so the
feet skid toward the robot on a polished floor and the top slides down the wall; and
tip-over, where the ladder stands a few degrees past vertical away from the wall and
topples toward the robot about its feet.
"""

from __future__ import annotations

import math

from reacthuman.scenes.families.base import DODGE, FamilySampler, Layout, SampleContext, register
from reacthuman.scenes.families.blocks import topple
from reacthuman.scenes.geometry import quat_from_axis_angle
from reacthuman.scenes.kinematics import MotionPath, ladder_angles
from reacthuman.scenes.reach import REACH_RADIUS
from reacthuman.scenes.spec import Family, ObjectRole, RoomType

SLIDE_SHARE = 0.6
# Slide regime: the feet start this far outside the reach zone (m), and come at least
# FEET_INSIDE inside it once the ladder lies flat; the lean is past the no-slip limit by
# LEAN_PAST (degrees): a ladder set at too shallow an angle that slides off at once, not one
# that creeps for a second, still, then goes (too little to see before a decision in time).
FEET_OUTSIDE = (0.6, 0.9)
FEET_INSIDE = 0.3
LEAN_PAST = (4.0, 7.0)
PAINTED_WALL_FRICTION = 0.1  # the simulator's walls


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    tip_wall = rng.uniform(1.8, 2.7)
    feet_outside = rng.uniform(*FEET_OUTSIDE)
    y = rng.uniform(-0.5, 0.5)
    slides = ctx.meant(SLIDE_SHARE)
    polished_floor = rng.uniform(0.15, 0.25)
    lean_margin = math.radians(rng.uniform(*LEAN_PAST))
    past_vertical = math.radians(rng.uniform(2.0, 6.0))
    wall_gap = rng.uniform(0.05, 0.2)
    thickness, _width, length = ctx.hazard.shape.size

    if not slides:
        wall = tip_wall
        pivot_x = wall - wall_gap - thickness
        hazard, path = topple(ctx, ctx.hazard, "hazard", pivot_x, y, past_vertical)
        return Layout(
            furniture=[],
            objects=[hazard],
            primary=hazard.id,
            path=path,
            event_origin=(pivot_x, y, length * 0.7),
            description=(
                f"{ctx.hazard.looks_like} standing almost upright by the wall tips over "
                "toward the robot"
            ),
            front_wall=wall,
        )

    hazard = ctx.make_object(ctx.hazard, "hazard", ObjectRole.hazard, (0.0, 0.0, 0.0))
    # Contacts take the larger friction of the pair (MuJoCo-style solvers), so the feet see
    # mu_f = max(ladder, floor) and the top mu_w = max(ladder, painted wall). A ladder's feet on
    # a polished floor grip as the pair does, not as rubber on a dry one: the ladder carries it.
    hazard = hazard.model_copy(update={"friction": polished_floor})
    # With friction at both ends the ladder slips once tan(lean) > 2 mu_f / (1 - mu_f mu_w).
    mu_f = max(hazard.friction, polished_floor)
    mu_w = max(hazard.friction, PAINTED_WALL_FRICTION)
    limit = math.atan(2.0 * mu_f / (1.0 - mu_f * mu_w))
    lean = min(limit + lean_margin, math.radians(68.0))
    # The feet start outside the reach zone and skid into it, far enough out that the slip
    # shows before the decision moment, near enough that they come well inside it.
    travel = length * (1.0 - math.sin(lean))
    feet_ahead = REACH_RADIUS + min(feet_outside, travel - FEET_INSIDE)
    wall = feet_ahead + length * math.sin(lean) + thickness * math.cos(lean)
    # Top against the wall: the box's outermost corner is 2 mm short of the wall and floor.
    half_x = length / 2.0 * math.sin(lean) + thickness / 2.0 * math.cos(lean)
    half_z = length / 2.0 * math.cos(lean) + thickness / 2.0 * math.sin(lean)
    center = (wall - half_x - 0.002, y, half_z + 0.002)
    quat = quat_from_axis_angle((0.0, 1.0, 0.0), lean)
    hazard = hazard.model_copy(
        update={
            "pose": hazard.pose.model_copy(update={"pos": center, "quat": quat}),
            "hazard_point": (0.0, 0.0, -length / 2.0),  # the feet
        }
    )
    # The ladder slides with friction at both ends (kinematics.ladder_angles): just past the
    # no-slip lean it creeps, then gathers speed. The feet (the hazard point) are at
    # wall - L sin(theta) while the top stays on the wall.
    angles = ladder_angles(length, mu_f, mu_w, lean, ctx.horizon)
    path = MotionPath()
    for t, theta, omega in angles:
        feet = (
            wall - length * math.sin(theta) - thickness / 2.0 * math.cos(theta) - 0.002,
            y,
            thickness / 2.0 * math.sin(theta) + 0.002,
        )
        energy = hazard.mass_kg * length * length * omega * omega / 6.0
        path.append(t, feet, (-length * math.cos(theta) * omega, 0.0, 0.0), energy)
    path.floor_time = angles[-1][0] if angles[-1][1] >= math.pi / 2 else None
    path.hold_until(ctx.horizon)
    return Layout(
        furniture=[],
        objects=[hazard],
        primary=hazard.id,
        path=path,
        event_origin=(wall - length * math.sin(lean), y, 0.3),
        description=(
            f"{ctx.hazard.looks_like} leaning against the wall starts to slip on the polished "
            "floor toward the robot"
        ),
        front_wall=wall,
        floor_friction=polished_floor,
    )


SAMPLER = register(
    FamilySampler(
        family=Family.ladder_slip,
        summary="ladder slips or tips over",
        archetype="topple",
        gravity_paced=True,
        pool=("aluminium_ladder", "wooden_ladder"),
        rooms=(RoomType.garage, RoomType.hallway, RoomType.living_room),
        build=build,
        plan=(DODGE,),  # a ladder is too large to hold
    )
)
