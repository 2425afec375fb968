"""spine_node: the robot's controller, in this process only: joint commands per control tick.

It answers each ``/joint_states`` of a phase (stamped at a 50 Hz tick of simulated time) with
the controller's command for that tick on ``spine/joint_command`` (same stamp) and the
walking command on ``/cmd_vel``; the simulator waits for it before stepping on (lock-step).
The phases: ``stand`` (the G1 from the scene's start to the freeze, at a zero command) and
``execute`` (the plan, from the freeze); each begins with its PD gains on ``spine/gains``.
A scene's executions side by side (``execute`` with ``batched``) each get a controller of
their own, and every tick's ``spine/batch_states`` is answered row by row in one
``spine/batch_commands``.
With ``backend:=g1`` it drives a G1 (or ``reacthuman g1-bridge``) over Unitree's DDS
interface instead (``unitree.robot_spine``): the same controller, paced by the robot's LowState,
its commands through the guard, each plan from the brain executed as it arrives.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from geometry_msgs.msg import Twist
from sensor_msgs.msg import Imu, JointState
from std_msgs.msg import Float64MultiArray, String

from reacthuman.ros import contract as c
from reacthuman.ros import convert
from reacthuman.ros.base import ReactNode
from reacthuman.ros.graph import run_node_process
from reacthuman.spine.command import CONTROL_PERIOD
from reacthuman.spine.controller import Controller, make_controller
from reacthuman.spine.g1 import G1_JOINTS
from reacthuman.spine.g1_controller import G1Controller
from reacthuman.unitree.messages import lowstate_tick

BACKENDS = ("sim", "g1")
MAX_RUNNING = 64  # batched executions held at once (a run stopped mid-scene leaves some)


class SpineNode(ReactNode):
    QOS_EVENT_WARNINGS = False  # on the 50 Hz lock-step path (ReactNode)
    PARAMETERS: dict[str, Any] = {
        "controller": "g1",
        "policy_path": "",
        "backend": "sim",  # sim: the simulator's lock step; g1: Unitree's DDS interface
        "network_interface": "lo",  # g1: the interface wired to the robot
        "dds_domain": 0,  # g1: Unitree's DDS domain (the robot's is 0)
        "soft_start": 2.0,  # g1: s from the measured posture to the default pose
        # g1: what starts an execution: "plan" (a robot: each plan as it arrives) or
        # "execute" (a simulator on Unitree's interface, sim_node spine_link:=unitree: its
        # execute message names the LowState tick each execution starts at)
        "start_on": "plan",
    }

    def __init__(self, overrides: dict[str, Any] | None = None, context: Any = None) -> None:
        super().__init__(c.SPINE_NODE, overrides, context)
        self.controller = make_controller(
            str(self.param("controller")), str(self.param("policy_path")) or None
        )
        backend = str(self.param("backend"))
        if backend not in BACKENDS:
            raise ValueError(f"spine_node backend {backend!r}: expected one of {BACKENDS}")
        self.hardware: Any = None
        if backend == "g1":
            self._start_hardware()
            return
        self.phase: c.Phase | None = None  # the stand or execution the ticks belong to
        self.pending: list[JointState] = []  # states that came before their phase's message
        self.lock = threading.Lock()
        self.answered = -1  # stamp of the last tick answered
        self.walking: tuple[float, float, float] | None = None
        self.command_pub = self.create_publisher(JointState, c.JOINT_COMMAND, c.STREAM)
        self.gains_pub = self.create_publisher(String, c.GAINS, c.EVENTS)
        self.twist_pub = self.create_publisher(Twist, c.CMD_VEL, c.STREAM)
        self.create_subscription(String, c.STAND, self._on_stand, c.EVENTS)
        self.create_subscription(String, c.EXECUTE, self._on_execute, c.EVENTS)
        self.imus: dict[int, Imu] = {}  # by stamp: a G1 state waits for its IMU
        self.create_subscription(Imu, c.IMU, self._on_imu, c.STREAM)
        self.create_subscription(JointState, c.JOINT_STATES, self._on_state, c.STREAM)
        # Executions side by side: by episode, each with its own controller.
        self.running: dict[int, tuple[c.ExecuteMessage, Controller]] = {}
        self.idle: list[Controller] = []  # controllers of finished batched executions
        self.early_batches: list[Float64MultiArray] = []  # rows before their execute message
        self.batch_pub = self.create_publisher(Float64MultiArray, c.BATCH_COMMANDS, c.STREAM)
        self.create_subscription(Float64MultiArray, c.BATCH_STATES, self._on_batch, c.STREAM)
        prepare = getattr(self.controller, "prepare", None)
        if prepare is not None:  # load models now rather than during the first execution
            prepare()

    def _start_hardware(self) -> None:
        """The g1 backend: LowState from the robot, commands to the guard, plans from the
        brain (``unitree.robot_spine``); nothing of the simulator's lock step."""
        from reacthuman.unitree.channel import Channel
        from reacthuman.unitree.messages import (
            LOWCMD_TOPIC,
            LOWSTATE_TOPIC,
            SPINE_LOWCMD_TOPIC,
            LowCmd_,
            LowState_,
        )
        from reacthuman.unitree.robot_spine import HardwareSpine

        if not getattr(self.controller, "physical", False):
            raise ValueError("spine_node backend g1 needs a G1 controller, not the stand-in")
        prepare = getattr(self.controller, "prepare", None)
        if prepare is not None:
            prepare()
        self.twist_pub = self.create_publisher(Twist, c.CMD_VEL, c.STREAM)
        self.walking = None
        channel = Channel(int(self.param("dds_domain")), str(self.param("network_interface")))
        writer = channel.writer(SPINE_LOWCMD_TOPIC, LowCmd_)
        self.warn_if_sharing(channel.domain)
        start_on = str(self.param("start_on"))
        if start_on not in ("plan", "execute"):
            raise ValueError(f"spine_node start_on {start_on!r}: expected plan or execute")
        self.hardware = HardwareSpine(
            self.controller,
            writer.write,
            log=lambda text: self.get_logger().info(text),
            soft_start=float(self.param("soft_start")),
            hold=start_on == "execute",
            guard_armed=False,  # until the guard forwards its commands (rt/lowcmd)
        )
        self.channel = channel
        self.reader = channel.reader(LOWSTATE_TOPIC, LowState_, self._on_lowstate)
        # What the robot obeys, on the robot's clock: arming and damping as they happen.
        self.guard_reader = channel.reader(LOWCMD_TOPIC, LowCmd_, self.hardware.on_guard_output)
        if start_on == "plan":  # only plans made from now on: a restart replays none
            self.create_subscription(String, c.PLAN, self._on_plan, c.FRESH)
        else:
            self.create_subscription(String, c.EXECUTE, self._on_simulated_execute, c.EVENTS)
        self.get_logger().info(
            f"spine on a G1 over {channel.interface}, DDS domain {channel.domain}: commands "
            "go to the guard (reacthuman g1-guard), plans come from the brain"
        )

    def _on_plan(self, msg: String) -> None:
        plan = self.parse(c.PlanMessage, msg, c.PLAN)
        if plan is None:
            return
        why = self.hardware.not_ready()
        if why is not None:
            self.get_logger().warning(f"plan of episode {plan.episode} dropped: {why}")
            return
        self.hardware.execute(plan.decision.plan, not_before=plan.start_tick)
        at = "" if plan.start_tick is None else f" from robot tick {plan.start_tick}"
        self.get_logger().info(f"executing the plan of episode {plan.episode}{at}")

    def _on_simulated_execute(self, msg: String) -> None:
        execute = self.parse(c.ExecuteMessage, msg, c.EXECUTE)
        if execute is None:
            return
        at_tick = lowstate_tick(execute.start_ns)
        self.hardware.execute(execute.decision.plan, at_tick, execute.ticks)

    def _on_lowstate(self, msg: Any) -> None:
        out = self.hardware.on_state(msg)
        if out is not None and self.hardware.walking != self.walking:
            self.walking = self.hardware.walking
            self.twist_pub.publish(convert.twist(self.walking))

    def _on_imu(self, msg: Imu) -> None:
        ns = convert.ns_of(msg.header.stamp)
        with self.lock:
            self.imus[ns] = msg
            if len(self.imus) > 64:
                for old in sorted(self.imus)[:-32]:
                    del self.imus[old]
            waiting = [s for s in self.pending if convert.ns_of(s.header.stamp) == ns]
        for state in waiting:
            self._on_state(state)

    def _on_stand(self, msg: String) -> None:
        stand = self.parse(c.StandMessage, msg, c.STAND)
        if stand is None:
            return
        if not isinstance(self.controller, G1Controller):
            self.get_logger().error(
                f"{c.STAND}: {stand.controller} stands under the spine's policy, but this "
                f"spine runs {self.controller.name}: start it with controller:={stand.controller}"
            )
            return
        self._begin(stand, lambda g1: g1.wait(stand.robot_pos, stand.robot_yaw))

    def _on_execute(self, msg: String) -> None:
        execute = self.parse(c.ExecuteMessage, msg, c.EXECUTE)
        if execute is None:
            return
        plan = execute.decision.plan
        if execute.batched:
            self._begin_batched(execute)
            return
        self._begin(execute, lambda body: body.start(plan, execute.robot_pos, execute.robot_yaw))

    def _begin_batched(self, execute: c.ExecuteMessage) -> None:
        """An execution beside others: a controller of its own started on its plan, its
        gains published, and the batches that waited for it answered."""
        with self.lock:
            if self.idle:
                controller = self.idle.pop()
            else:
                controller = make_controller(
                    str(self.param("controller")), str(self.param("policy_path")) or None
                )
            controller.start(execute.decision.plan, execute.robot_pos, execute.robot_yaw)
            self.running[execute.episode] = (execute, controller)
            while len(self.running) > MAX_RUNNING:  # executions a stopped run left behind
                del self.running[min(self.running)]
            early, self.early_batches = self.early_batches, []
        self.gains_pub.publish(convert.to_string(self.gains(execute, controller)))
        for batch in early:
            self._on_batch(batch)

    def _on_batch(self, msg: Float64MultiArray) -> None:
        """A tick of executions side by side: each row answered by its execution's
        controller, all in one message; rows of an execution whose message has not arrived
        wait for it."""
        try:
            rows = convert.batch_rows(msg)
        except ValueError as exc:
            self.get_logger().error(f"{c.BATCH_STATES}: {exc}")
            return
        commands = []
        with self.lock:
            found = [self._running_at(row.ns) for row in rows]
            if any(f is None for f in found):
                self.early_batches = [*self.early_batches[-9:], msg]
                return
            for row, (execute, controller, tick) in zip(rows, found, strict=True):  # type: ignore[misc]
                state = convert.row_state(row, tick, tick * CONTROL_PERIOD)
                commands.append(controller.command(state))
                if tick == execute.ticks - 1:  # its last: the controller is free again
                    del self.running[execute.episode]
                    self.idle.append(controller)
        self.batch_pub.publish(convert.batch_commands_msg(commands, [row.ns for row in rows]))

    def _running_at(self, ns: int) -> tuple[c.ExecuteMessage, Controller, int] | None:
        """The batched execution a tick stamped ``ns`` belongs to, and the tick."""
        for execute, controller in self.running.values():
            tick = tick_of(execute, ns)
            if 0 <= tick < execute.ticks:
                return execute, controller, tick
        return None

    def _begin(self, phase: c.Phase, start: Callable[[Any], None]) -> None:
        """A new phase: the controller started for it, its gains published, and the states
        that arrived before its message answered."""
        with self.lock:
            start(self.controller)
            self.phase = phase
            self.walking = None
            pending, self.pending = self.pending, []
        self.gains_pub.publish(convert.to_string(self.gains(phase, self.controller)))
        for state in pending:
            self._on_state(state)

    def gains(self, phase: c.Phase, controller: Controller) -> c.GainsMessage:
        """The PD gains of this phase's commands (the G1's follow from the policy and the
        plan, ``G1Controller.gains``; the stand-in has none)."""
        kp: tuple[float, ...] = ()
        kd: tuple[float, ...] = ()
        names: tuple[str, ...] = ()
        if isinstance(controller, G1Controller):
            (kp, kd), names = controller.gains(), tuple(G1_JOINTS)
        envelope = {"run_id": phase.run_id, "episode": phase.episode, "start_ns": phase.start_ns}
        return c.GainsMessage(**envelope, names=names, kp=kp, kd=kd)

    def _on_state(self, msg: JointState) -> None:
        ns = convert.ns_of(msg.header.stamp)
        with self.lock:
            phase = self.phase
            tick = -1 if phase is None else tick_of(phase, ns)
            if phase is not None and 0 <= tick < phase.ticks and ns <= self.answered:
                return  # this tick was answered already (the window's last state is tick 0's)
            imu = self.imus.get(ns)
            needs_imu = getattr(self.controller, "physical", False)
            if phase is None or tick < 0 or tick >= phase.ticks or (needs_imu and imu is None):
                # A state of the observation window between ticks, the next phase's first
                # tick before its message, or a G1 state before its IMU: keep the last few.
                self.pending = [*self.pending[-9:], msg]
                return
            self.pending = [p for p in self.pending if p is not msg]
            state = convert.joint_state(msg, tick, tick * CONTROL_PERIOD, imu)
            command = self.controller.command(state)
            self.answered = ns
        if command.walking_cmd != self.walking:  # a held command: published when it changes
            self.walking = command.walking_cmd
            self.twist_pub.publish(convert.twist(command.walking_cmd))
        self.command_pub.publish(convert.joint_state_msg(command.names, command.positions, ns))


def tick_of(phase: c.Phase, ns: int) -> int:
    """The control tick of ``phase`` a state stamped ``ns`` opens, or -1 when the stamp is no
    tick's (a frame's state between ticks: the lock step never waits on it, and answering
    it would put a command on a stamp the next phase's tick may share)."""
    tick = round((ns - phase.start_ns) / convert.seconds_to_ns(CONTROL_PERIOD))
    on_tick = ns == phase.start_ns + convert.seconds_to_ns(tick * CONTROL_PERIOD)
    return tick if on_tick else -1


def main(args: list[str] | None = None) -> None:
    run_node_process(SpineNode, args)


if __name__ == "__main__":
    main()
