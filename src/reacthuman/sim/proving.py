"""A proving ground: the G1 alone on a flat floor under a controller, for the spine's
acceptance tests, the walking calibration and the execution benchmark."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from reacthuman.brain.plan import ReactionPlan
from reacthuman.scenes.geometry import Vec3, quat_yaw
from reacthuman.scenes.moment import MIN_WINDOW
from reacthuman.sim.body import G1Body, add_g1
from reacthuman.sim.execute import steps_of_tick
from reacthuman.sim.settings import DT
from reacthuman.spine.command import tick_time, ticks_in
from reacthuman.spine.outcome import FALL_HEIGHT

# s the G1 waits in stance before a trial's plan starts, as long as the shortest window
# before a freeze (in stance it stands still however long it waits).
WAIT = MIN_WINDOW


@dataclass
class Trial:
    """What the body did: base positions and hand centres per tick, and timings."""

    base: list[tuple[float, float, float]] = field(default_factory=list)
    hands: list[dict[str, tuple[float, float, float]]] = field(default_factory=list)
    yaw: list[float] = field(default_factory=list)
    physics_s: float = 0.0
    control_s: float = 0.0
    wall_s: float = 0.0
    seconds: float = 0.0

    @property
    def fell(self) -> bool:
        return min(p[2] for p in self.base) < FALL_HEIGHT

    @property
    def distance(self) -> float:
        return math.dist(self.base[0][:2], self.base[-1][:2])

    @property
    def realtime_factor(self) -> float:
        return self.seconds / self.wall_s


class ProvingGround:
    """One built scene (floor + G1), reset for every trial."""

    def __init__(self) -> None:
        from reacthuman.genesis_runtime import genesis

        gs = genesis()
        self.scene = gs.Scene(sim_options=gs.options.SimOptions(dt=DT), show_viewer=False)
        self.scene.add_entity(gs.morphs.Plane())
        self.g1 = G1Body(add_g1(self.scene, gs, (0.0, 0.0, 0.0), 0.0))
        self.scene.build()
        self.start = self.scene.get_state()

    def trial(
        self,
        controller: Any,
        plan: ReactionPlan | None,
        seconds: float,
        wait: float = WAIT,
        start: Callable[[], None] | None = None,
        push: tuple[float, Vec3] | None = None,
    ) -> Trial:
        """Stand the G1 up at the origin, let it wait ``wait`` s for its execution as it does
        in a scene before the freeze (``G1Controller.wait``), then run ``controller`` on
        ``plan`` for ``seconds``; the trial's record starts with the plan. ``start`` replaces
        the controller's own start of the execution (``benchmarks/gait_start.py`` sets the
        gait clock by hand). ``push`` (s after the start, m/s): the pelvis is given that
        velocity then, as a shove would."""
        self.scene.reset(self.start)
        self.g1.stand_up()
        waiting = getattr(controller, "wait", None)
        if waiting is not None:
            waiting((0.0, 0.0, 0.0), 0.0)
            for tick in range(ticks_in(wait)):
                self._tick(controller, tick)
        if start is None:
            controller.start(plan, (0.0, 0.0, 0.0), 0.0)
        else:
            start()
        out = Trial(seconds=seconds)
        started = time.perf_counter()
        shove = None if push is None else ticks_in(push[0])
        for tick in range(ticks_in(seconds)):
            if tick == shove:
                velocity = np.asarray(push[1], dtype=float)  # type: ignore[index]
                self.g1.entity.set_dofs_velocity(velocity, dofs_idx_local=[0, 1, 2])
            control_s, physics_s = self._tick(controller, tick)
            out.control_s += control_s
            out.physics_s += physics_s
            pos, quat = self.g1.base()
            out.base.append(pos)
            out.hands.append(self.g1.hand_points())
            out.yaw.append(quat_yaw(quat))
        out.wall_s = time.perf_counter() - started
        return out

    def _tick(self, controller: Any, tick: int) -> tuple[float, float]:
        """One control tick: the controller's command, then its physics steps; the seconds
        each took."""
        state = self.g1.state(tick, tick_time(tick))
        t = time.perf_counter()
        self.g1.apply(controller.command(state))
        control_s = time.perf_counter() - t
        t = time.perf_counter()
        for _ in range(steps_of_tick(tick)):
            self.scene.step()
        return control_s, time.perf_counter() - t
