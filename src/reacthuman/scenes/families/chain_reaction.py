"""chain_reaction: a rolling ball strikes an object resting at a table's edge and launches it.

The threatening object is at rest during the window (paper 3.2): the model sees a ball
rolling toward it across a long counter and must work out that the strike will knock it off
toward the robot before any motion of its own is visible. The ball is held for a 0.5 s
settling pre-roll, then released at t0 with the swept speed; it strikes after the freeze. The
robot stands at the counter's near end (multi_object's layout) and the object rests at its
edge, within arm's reach and at rest until the strike: it flies off at counter height into
hands held just short of the edge, where a G1 standing still can put them (knocked off a
table beyond the reach zone, it used to land on the floor at the robot's feet).
"""

from __future__ import annotations

from reacthuman.scenes.catalogue import CatalogueObject
from reacthuman.scenes.families.base import (
    CATCH,
    DODGE,
    FamilyError,
    FamilySampler,
    Layout,
    SampleContext,
    register,
)
from reacthuman.scenes.families.blocks import (
    HANDS_COUNTER_NEAR_EDGE,
    fly,
    hands_counter_height,
    long_table,
    resting_z,
    rolling_spin,
)
from reacthuman.scenes.kinematics import DT, SIM_MAX_RESTITUTION, MotionPath
from reacthuman.scenes.labels import intrinsic_reasons
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

STRIKE_SPEEDS = {
    SpeedBand.slow: (1.0, 1.1),
    SpeedBand.normal: (1.6, 1.7),
    SpeedBand.fast: (2.2, 2.3),
    SpeedBand.very_fast: (3.0, 3.15),
}
SETTLE = 0.5  # s of pre-roll so the target is at rest before the strike
HEAVY_TRIGGER = "bowling_ball"  # for targets heavier than HEAVY_TARGET_KG that stand tall
# A catch group's heaviest: harmless, so it may roll on into reach after the strike as the
# bowling ball does in a dodge. Under a baseball a bottle, a cereal box, a can or a teddy
# bear (0.3-0.5 kg) was nudged 1-5 cm at the slow band and stayed on the counter (16 of the
# first 60 groups' slow bands by design, measured 0.03-0.09 m/s; labelled catch all the
# same); struck by a football at its middle they tip over the edge into reach.
CATCH_HEAVY_TRIGGER = "soccer_ball"
MID_TRIGGER = "baseball"
LIGHT_TRIGGER = "billiard_ball"
HEAVY_TARGET_KG = 0.12
# The counter is base.HANDS_COUNTER_*: its near end is where a G1 standing still holds both hands.
# How far the ball rolls to the object: the very fast band strikes 0.72 s after t0 at the
# earliest (a 0.3 s window, its 0.3 s margin and the design slack), the slow one by 2.5 s.
GAP = (2.3, 2.45)  # m


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = hands_counter_height(ctx, ctx.hazard)
    near_edge = rng.uniform(*HANDS_COUNTER_NEAR_EDGE)
    table_y = rng.uniform(-0.15, 0.15)
    y = rng.uniform(-0.12, 0.12)
    behind = rng.uniform(0.01, 0.03)  # its centre this far behind the edge: precarious
    gap = rng.uniform(*GAP)
    speed = ctx.speed(STRIKE_SPEEDS)

    target = ctx.hazard
    trigger_obj = ctx.catalogue.get(striker_for(ctx, target))
    if ctx.side is DODGE and not intrinsic_reasons(target):
        # A harmless object: the dodge is the bowling ball that strikes it and rolls on
        # into reach (a hazard as much as the object it launches).
        trigger_obj = ctx.catalogue.get(HEAVY_TRIGGER)
    half_x = target.shape.size[0] / 2.0
    radius = trigger_obj.shape.size[0] / 2.0
    target_pos = (near_edge + behind, y, resting_z(height, target))
    trigger_x = target_pos[0] + half_x + gap + radius
    table, top = long_table(
        ctx, "table", near_edge, trigger_x + radius + 0.1, table_y, height, rng.uniform(0.4, 0.6)
    )
    hazard = ctx.make_object(target, "hazard", ObjectRole.hazard, target_pos)
    trigger_vel = (-speed, 0.0, 0.0)
    trigger = ctx.make_object(
        trigger_obj,
        "trigger",
        ObjectRole.trigger,
        (trigger_x, y, resting_z(height, trigger_obj)),
        lin_vel=trigger_vel,
        ang_vel=rolling_spin(trigger_vel, radius),
        launch_at_t0=True,
    )
    # Impact along x with restitution e: the target leaves at m1 u (1 + e) / (m1 + m2).
    m1, m2 = trigger.mass_kg, hazard.mass_kg
    e = min(trigger.restitution, hazard.restitution, SIM_MAX_RESTITUTION)
    kick = m1 * speed * (1.0 + e) / (m1 + m2)
    follow = speed * (m1 - e * m2) / (m1 + m2)  # the ball's own speed after the strike
    strike_time = gap / speed
    path = MotionPath()
    path.append(0.0, target_pos, (0.0, 0.0, 0.0), 0.0)
    path.hold_until(strike_time)
    fly(ctx, hazard, [top], start_t=path.end.t, vel=(-kick, 0.0, 0.0), path=path)
    # The ball rolls to the strike, then on at its own speed after it (if any).
    ball = MotionPath()
    bx, by, bz = trigger.pose.pos
    for i in range(round(strike_time / DT) + 1):
        ball.append(i * DT, (bx - speed * i * DT, by, bz), trigger_vel)
    if follow > 0.0:
        fly(
            ctx,
            trigger,
            [top],
            start_t=ball.end.t,
            pos=ball.end.pos,
            vel=(-follow, 0, 0),
            path=ball,
        )
    else:
        ball.hold_until(ctx.horizon)
    if min(sample.pos[2] for sample in path.samples) > height:
        # Nudged, not launched: still on the counter at the horizon, it needs no catch.
        raise FamilyError(f"the strike leaves the {target.name} on the counter")
    trigger_name = trigger_obj.looks_like
    return Layout(
        furniture=[table],
        objects=[hazard, trigger],
        primary=hazard.id,
        path=path,
        event_origin=(target_pos[0] + gap / 2.0, y, height),
        description=(
            f"{trigger_name} rolls along a counter toward {target.looks_like} standing at its "
            "end, where the robot stands"
        ),
        t0=SETTLE,
        extra_frame_points=[trigger.pose.pos],
        other_paths={trigger.id: ball},
    )


def striker_for(ctx: SampleContext, target: CatalogueObject) -> str:
    """The heaviest ball that strikes the object below its top (a ball whose centre is above
    the object rides up over it): for objects over ``HEAVY_TARGET_KG`` a bowling ball, or in
    a catch group a football (a bowling ball would roll on into reach after the strike and
    make the scene a dodge), else a baseball or a billiard ball."""
    height = target.shape.size[2]
    heaviest = CATCH_HEAVY_TRIGGER if ctx.side is CATCH else HEAVY_TRIGGER
    for name in (heaviest, MID_TRIGGER, LIGHT_TRIGGER):
        ball = ctx.catalogue.get(name)
        heavy = name != heaviest or target.mass_kg > HEAVY_TARGET_KG
        if heavy and ball.shape.size[0] / 2.0 <= 0.95 * height:
            return name
    return LIGHT_TRIGGER


SAMPLER = register(
    FamilySampler(
        family=Family.chain_reaction,
        summary="strike launches a second object",
        archetype="causal_chain",
        gravity_paced=False,
        # Objects that stand at least as tall as the striking ball's centre (a ball rides up
        # over a knife, a phone or a paperback lying flat instead of launching it) and that a
        # strike at the slow band's speed still pushes off the table into reach: a mug, a
        # bowl, a tin can or a loaf under a baseball barely tips over the edge and drops
        # straight down at the zone's boundary (measured: 20 of 22 such groups had no design).
        pool=(
            "wine_glass",
            "glass_bottle",
            "plastic_water_bottle",
            "soda_can",
            "hot_coffee_cup",
            "cereal_box",
            "plastic_cup",
            "glass_vase",
            "hot_kettle",
            "apple",
            "orange",
            "teddy_bear",
        ),
        rooms=(RoomType.kitchen, RoomType.dining_room, RoomType.office, RoomType.living_room),
        build=build,
        dodge_by_event=True,
        plan_phase=0,
    )
)
