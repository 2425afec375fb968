"""The lock step between the simulator and the spine: each control tick the body's state goes
out stamped at the tick and the physics waits for the spine's command of the same stamp
(with the phase's PD gains), over the graph's topics or Unitree's interface; executions side
by side share one exchange a tick (``spine/batch_states``, ``spine/batch_commands``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reacthuman.episode_driver import SLOW_EVERY, NodeMissing
from reacthuman.episode_host import Tick
from reacthuman.ros import contract as c
from reacthuman.ros import convert
from reacthuman.ros.body_frames import BodyPublisher
from reacthuman.spine.command import CONTROL_PERIOD, JointCommand
from reacthuman.unitree.link import GuardDamped, SimulatorLink, SpineSilent
from reacthuman.unitree.messages import lowstate_tick

Await = Callable[[tuple[str, int], float], Any]  # ``SimNode.await_mail``


@dataclass(frozen=True)
class TickExchange:
    """What the lock step needs of the simulator node: its publishers, its mail, and how
    long the spine may take (``command_timeout``; a phase's first tick
    ``first_command_timeout``, a spine warming up)."""

    clock_pub: Any
    batch_pub: Any
    body: BodyPublisher
    await_mail: Await
    command_timeout: float
    first_command_timeout: float

    def _wait(self, tick: int) -> float:
        if tick == 0:
            return max(self.command_timeout, self.first_command_timeout)
        return self.command_timeout

    def lock_step(
        self,
        scene_id: str,
        phase: c.Phase,
        timing: dict[str, Any],
        link: SimulatorLink | None = None,
    ) -> Callable[[Tick], JointCommand]:
        """Each tick of ``phase``: the body's state out, the spine's command (with the
        phase's gains) back, over the graph's topics or Unitree's interface (``link``);
        the wait adds to ``timing``'s ``command_wait``."""
        gains: list[c.GainsMessage | None] = []  # the spine's, once per phase

        def command_for(tick: Tick) -> JointCommand:
            state = tick.state
            ns = phase.start_ns + convert.seconds_to_ns(state.tick * CONTROL_PERIOD)
            asked = time.perf_counter()
            slow = state.tick % SLOW_EVERY == 0
            if slow:
                self.clock_pub.publish(convert.clock(ns))
            self.body.body(state, ns, transforms=slow, pose=tick.pose)
            wait = self._wait(state.tick)
            try:
                if link is not None:
                    return link.command(state, lowstate_tick(ns), wait)
                msg = self.await_mail(("command", ns), wait)
                if msg is not None and not gains:
                    gains.append(self.await_mail(("gains", phase.start_ns), wait))
            except (SpineSilent, GuardDamped) as exc:
                raise NodeMissing(f"{scene_id} tick {state.tick}: {exc}") from None
            finally:
                timing["command_wait"] = (
                    float(timing.get("command_wait", 0.0)) + time.perf_counter() - asked
                )
            if msg is None or gains[0] is None:
                what = "stand" if isinstance(phase, c.StandMessage) else "execution"
                raise NodeMissing(
                    f"{c.SPINE_NODE} did not answer control tick {state.tick} of "
                    f"{scene_id}'s {what} within {wait:g} s"
                    + ("" if msg is None else f" with the {what}'s gains ({c.GAINS})")
                )
            kp_kd = gains[0].for_joints(tuple(msg.name))
            return convert.joint_command(msg, state.tick, state.t, None, kp_kd)

        return command_for

    def side_by_side(
        self, scene_id: str, executes: list[c.ExecuteMessage], timing: dict[str, Any]
    ) -> Callable[[list[Tick]], list[JointCommand]]:
        """Each tick of executions side by side: their states out in one batch (each row
        stamped in its own episode), the spine's commands back in one, with each
        execution's gains."""
        gains: dict[int, c.GainsMessage] = {}

        def commands_for(ticks: list[Tick]) -> list[JointCommand]:
            tick = ticks[0].state.tick
            offset = convert.seconds_to_ns(tick * CONTROL_PERIOD)
            stamps = [execute.start_ns + offset for execute in executes]
            asked = time.perf_counter()
            # Each episode's clock and transforms at 10 Hz ride in the batch (its rows'
            # transform fields), and the recorder writes them into the bags: as messages they
            # were 28 a slow tick for 7 executions, each a callback in the recorder.
            frames = None
            if tick % SLOW_EVERY == 0:
                frames = [convert.body_frames(at.state, at.pose) for at in ticks]
            states = [t.state for t in ticks]
            self.batch_pub.publish(convert.batch_states_msg(states, stamps, frames))
            wait = self._wait(tick)
            missing = ""
            try:
                msg = self.await_mail(("commands", stamps[0]), wait)
                for execute in executes if msg is not None else ():
                    if execute.episode not in gains:
                        found = self.await_mail(("gains", execute.start_ns), wait)
                        if found is None:
                            missing = f" with episode {execute.episode}'s gains ({c.GAINS})"
                            break
                        gains[execute.episode] = found
            finally:
                timing["command_wait"] = (
                    float(timing.get("command_wait", 0.0)) + time.perf_counter() - asked
                )
            if msg is None or missing:
                raise NodeMissing(
                    f"{c.SPINE_NODE} did not answer control tick {tick} of {scene_id}'s "
                    f"{len(executes)} executions within {wait:g} s{missing}"
                )
            rows = convert.batch_rows(msg)
            if [row.ns for row in rows] != stamps:
                raise NodeMissing(f"{c.SPINE_NODE} answered tick {tick} with other ticks' rows")
            return [
                convert.row_command(
                    row, tick, at.state.t, gains[execute.episode].for_joints(row.names)
                )
                for row, at, execute in zip(rows, ticks, executes, strict=True)
            ]

        return commands_for
