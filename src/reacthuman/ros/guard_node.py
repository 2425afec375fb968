"""guard_node (``reacthuman g1-guard``): the only writer of a G1's ``rt/lowcmd``.

It runs ``unitree.guard.Guard`` on Unitree's DDS interface: the robot's ``rt/lowstate`` and
the spine's ``rt/reacthuman/spine_lowcmd`` in, checked commands or damping out, from a loop
at the robot's 500 Hz in a thread of its own (the ROS executor only serves the services).
Services (``std_srvs/Trigger``): ``~/arm`` (arms once the robot reports and the spine waits
to be armed, holding the robot's posture), ``~/estop`` (damping, latched until armed again).
Parameter ``arm: true`` arms as soon as both are there, for a simulated G1; on a robot, arm
by hand with the robot on its gantry (docs/physical-g1.md). SIGINT or SIGTERM: damping for
``EXIT_DAMPING`` s, then exit.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from std_msgs.msg import String
from std_srvs.srv import Trigger

from reacthuman.ros import contract as c
from reacthuman.ros.base import ReactNode
from reacthuman.ros.graph import run_node_process
from reacthuman.unitree import guard as g
from reacthuman.unitree import guard_rules as rules
from reacthuman.unitree.channel import Channel
from reacthuman.unitree.messages import (
    LOWCMD_TOPIC,
    LOWSTATE_TOPIC,
    SPINE_LOWCMD_TOPIC,
    LowCmd_,
    LowState_,
)

GUARD_NODE = "g1_guard"
EXIT_DAMPING = 0.2  # s of damping sent when the guard is stopped


class GuardNode(ReactNode):
    PARAMETERS: dict[str, Any] = {
        "network_interface": "lo",  # the interface wired to the G1 (Unitree: 192.168.123.x)
        "dds_domain": 0,  # Unitree's robots use domain 0
        "arm": False,
        "command_timeout": g.COMMAND_TIMEOUT,
        "state_timeout": g.STATE_TIMEOUT,
        "max_target_speed": rules.MAX_TARGET_SPEED,
        "pd_torque_factor": rules.PD_TORQUE_FACTOR,
    }

    def __init__(self, overrides: dict[str, Any] | None = None, context: Any = None) -> None:
        super().__init__(GUARD_NODE, overrides, context)
        self.guard = g.Guard(
            command_timeout=float(self.param("command_timeout")),
            state_timeout=float(self.param("state_timeout")),
            max_target_speed=float(self.param("max_target_speed")),
            pd_torque_factor=float(self.param("pd_torque_factor")),
            log=lambda text: self.get_logger().info(text),
        )
        self.arm_when_ready = bool(self.param("arm"))
        self.channel = Channel(int(self.param("dds_domain")), str(self.param("network_interface")))
        self.writer = self.channel.writer(LOWCMD_TOPIC, LowCmd_)
        self.warn_if_sharing(self.channel.domain)
        self.readers = [
            self.channel.reader(LOWSTATE_TOPIC, LowState_, self.guard.on_state),
            self.channel.reader(SPINE_LOWCMD_TOPIC, LowCmd_, self.guard.on_command),
        ]
        self.mode_pub = self.create_publisher(String, c.GUARD_MODE, c.LATCHED)
        self._published_mode: g.Mode | None = None
        self.create_service(Trigger, "~/arm", self._arm)
        self.create_service(Trigger, "~/estop", self._estop)
        self.stopping = threading.Event()
        self.loop = threading.Thread(target=self._loop, name="g1-guard", daemon=True)
        self.loop.start()
        self.get_logger().info(
            f"g1 guard on {self.channel.interface}, DDS domain {self.channel.domain}: "
            + (
                "arming when the robot and the spine are there"
                if self.arm_when_ready
                else "disarmed (call ~/arm)"
            )
        )

    def _arm(self, _request: Any, response: Any) -> Any:
        text = self.guard.arm()
        response.success, response.message = self.guard.mode is g.Mode.ARMED, text
        return response

    def _estop(self, _request: Any, response: Any) -> Any:
        self.guard.estop("e-stop service")
        response.success, response.message = True, "damping"
        return response

    def _loop(self) -> None:
        next_at = time.monotonic()
        while not self.stopping.is_set():
            if (
                self.arm_when_ready
                and self.guard.mode is g.Mode.DISARMED
                and self.guard.reporting()
                and self.guard.spine_not_ready() is None
            ) and self.guard.arm().startswith("armed"):
                self.arm_when_ready = False
            out = self.guard.poll()
            if out is not None:
                self.writer.write(out)
            if self.guard.mode is not self._published_mode:
                self._published_mode = self.guard.mode
                self.mode_pub.publish(String(data=self.guard.mode.value))
            next_at += rules.LOOP_PERIOD
            time.sleep(max(0.0, next_at - time.monotonic()))

    def settle(self, _executor: Any) -> None:
        """Stopped: damping for a moment (if it was ever armed), then the loop ends."""
        if self.stopping.is_set():
            return
        guard = self.guard
        self.get_logger().info(
            f"g1 guard: {guard.forwarded} command(s) forwarded ({guard.limited} with targets "
            f"limited), {guard.refused} refused; "
            f"fastest target {guard.peak_speed:.1f} rad/s ({guard.peak_speed_joint}), largest "
            f"PD torque {guard.peak_torque:.2f} x peak ({guard.peak_torque_joint})"
        )
        if self.guard.mode is not g.Mode.DISARMED:
            self.guard.estop("guard stopped")
            time.sleep(EXIT_DAMPING)
        self.stopping.set()
        self.loop.join(timeout=1.0)

    def destroy_node(self) -> None:
        self.settle(None)  # composed in one process: the graph's end stops the guard too
        super().destroy_node()


def main(args: list[str] | None = None) -> None:
    run_node_process(GuardNode, args)


if __name__ == "__main__":
    main()
