"""chain_reaction: a rolling ball strikes an object resting near a table edge and launches it.

The threatening object is at rest when the window opens (paper 3.2): the model must see that
the ball will strike it before any motion of its own is visible. The ball is held for a
0.5 s settling pre-roll, then released at t0 with the swept speed. A light ball striking a
heavy object may not move it off the table (No_Action).
"""

from __future__ import annotations

from reacthuman.scenes.families.base import (
    FamilySampler,
    Layout,
    SampleContext,
    fly,
    register,
    resting_z,
    rolling_spin,
    table_with_near_edge,
)
from reacthuman.scenes.kinematics import SIM_MAX_RESTITUTION, Path
from reacthuman.scenes.spec import Family, ObjectRole, RoomType, SpeedBand

STRIKE_SPEEDS = {
    SpeedBand.slow: (0.8, 1.0),
    SpeedBand.normal: (1.3, 1.6),
    SpeedBand.fast: (2.0, 2.4),
    SpeedBand.very_fast: (2.8, 3.4),
}
SETTLE = 0.5  # s of pre-roll so the target is at rest before the strike
LIGHT_TRIGGERS = ("billiard_ball", "baseball")
HEAVY_TRIGGER = "bowling_ball"
HEAVY_TARGET_KG = 0.4  # heavier targets are struck by the bowling ball


def build(ctx: SampleContext) -> Layout:
    rng = ctx.rng
    height = rng.uniform(0.74, 0.95)
    near_edge = rng.uniform(0.7, 1.2)
    table_y = rng.uniform(-0.3, 0.3)
    table, top = table_with_near_edge(ctx, "table", near_edge, table_y, height)
    y = table_y + rng.uniform(-0.2, 0.2)
    margin = rng.uniform(0.01, 0.05)
    gap = rng.uniform(0.25, 0.45)
    light_trigger = rng.choice(LIGHT_TRIGGERS)
    speed = ctx.speed(STRIKE_SPEEDS)

    target = ctx.hazard
    trigger_obj = ctx.catalogue.get(
        HEAVY_TRIGGER if target.mass_kg > HEAVY_TARGET_KG else light_trigger
    )
    half_x = target.shape.size[0] / 2.0
    radius = trigger_obj.shape.size[0] / 2.0
    target_pos = (near_edge + half_x + margin, y, resting_z(height, target))
    hazard = ctx.make_object(target, "hazard", ObjectRole.hazard, target_pos)
    trigger_x = target_pos[0] + half_x + gap + radius
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
    strike_time = gap / speed
    path = Path()
    path.append(0.0, target_pos, (0.0, 0.0, 0.0))
    path.hold_until(strike_time)
    fly(ctx, hazard, [top], start_t=path.end.t, vel=(-kick, 0.0, 0.0), path=path)
    trigger_name = trigger_obj.looks_like
    return Layout(
        furniture=[table],
        objects=[hazard, trigger],
        primary=hazard.id,
        path=path,
        event_origin=target_pos,
        description=(
            f"{trigger_name} rolls across a table toward {target.looks_like} standing near the "
            "edge in front of the robot"
        ),
        t0=SETTLE,
        extra_frame_points=[trigger.pose.pos],
    )


SAMPLER = register(
    FamilySampler(
        family=Family.chain_reaction,
        summary="strike launches a second object",
        archetype="causal_chain",
        gravity_paced=False,
        pool=(
            "ceramic_mug",
            "wine_glass",
            "glass_bottle",
            "plastic_water_bottle",
            "soda_can",
            "tin_can",
            "chef_knife",
            "hot_coffee_cup",
            "smartphone",
            "tv_remote",
            "cereal_box",
            "ceramic_bowl",
            "plastic_cup",
            "glass_vase",
            "paperback_book",
            "cast_iron_pan",
            "hot_kettle",
            "apple",
        ),
        rooms=(RoomType.kitchen, RoomType.dining_room, RoomType.office, RoomType.living_room),
        build=build,
    )
)
