"""What every node shares: parameters with defaults, and a mailbox to wait for messages."""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable
from typing import Any, TypeVar

from pydantic import BaseModel
from rclpy.event_handler import PublisherEventCallbacks, SubscriptionEventCallbacks
from rclpy.node import Node
from rclpy.parameter import Parameter
from std_msgs.msg import String

from reacthuman.ros.convert import MessageError, from_string

M = TypeVar("M", bound=BaseModel)

COMMON_PARAMETERS: dict[str, Any] = {
    "run_dir": "runs/latest",  # results store, episodes, bags and report
    "brain": "oracle",  # a baseline's name, or a model id when base_url is set
    "base_url": "",  # OpenAI-compatible endpoint of the model; empty for baselines
    # Frames per camera over the window: the simulator renders them, and every node that
    # takes images keeps that many a topic (``contract.images``).
    "frames": 5,
}


class ReactNode(Node):
    """A node whose parameters are declared from one dict of defaults (``PARAMETERS``)."""

    PARAMETERS: dict[str, Any] = {}
    # No node reads the ROS clock (the simulator is the clock and stamps every message from
    # it; every other node's timeouts are wall time, a model's latency being wall time), so
    # none subscribes to /clock by default: with use_sim_time each /clock message woke every
    # node's executor to set a clock nobody asked. A user's -p use_sim_time:=true still works.
    SIM_TIME = False
    PARAMETER_SERVICES = True  # `ros2 param` on the node (six services in every wait set)
    # rclpy gives every publisher and subscription two QoS event handlers (incompatible QoS,
    # incompatible type) that only log a warning, and walks them in Python at every wait:
    # with ~50 endpoints that is a third of the lock-step's cost per control tick. Nodes on
    # the 50 Hz path turn them off; a mismatched subscriber still warns on its own side.
    QOS_EVENT_WARNINGS = True

    def __init__(
        self, name: str, overrides: dict[str, Any] | None = None, context: Any = None
    ) -> None:
        overrides = dict(overrides or {})
        overrides.setdefault("use_sim_time", self.SIM_TIME)
        super().__init__(
            name,
            parameter_overrides=[Parameter(k, value=v) for k, v in overrides.items()],
            automatically_declare_parameters_from_overrides=False,
            start_parameter_services=self.PARAMETER_SERVICES,
            context=context,
        )
        for key, default in {**COMMON_PARAMETERS, **self.PARAMETERS}.items():
            self.declare_parameter(key, default)

    def create_publisher(self, *args: Any, **kwargs: Any) -> Any:
        if not self.QOS_EVENT_WARNINGS:
            quiet = PublisherEventCallbacks(use_default_callbacks=False)
            kwargs.setdefault("event_callbacks", quiet)
        return super().create_publisher(*args, **kwargs)

    def create_subscription(self, *args: Any, **kwargs: Any) -> Any:
        if not self.QOS_EVENT_WARNINGS:
            quiet = SubscriptionEventCallbacks(use_default_callbacks=False)
            kwargs.setdefault("event_callbacks", quiet)
        return super().create_subscription(*args, **kwargs)

    def param(self, name: str) -> Any:
        return self.get_parameter(name).value

    def warn_if_sharing(self, unitree_domain: int) -> None:
        """Say so when Unitree's interface shares this ROS graph's DDS domain: it works, but
        Cyclone DDS prints "ddsi_xt_type_add_typeobj with invalid type object" for every ROS
        participant that starts (62-222 lines each); hardware.launch.py keeps them apart."""
        ros = self.context.get_domain_id()
        if ros == unitree_domain:
            self.get_logger().warning(
                f"Unitree's interface is on DDS domain {unitree_domain}, this ROS graph's too: "
                "Cyclone DDS will print type errors for every ROS participant; export "
                f"ROS_DOMAIN_ID={(unitree_domain + 1) % 233} (and in the shell calling the "
                "services) to keep them apart"
            )

    def parse(self, model: type[M], msg: String, topic: str) -> M | None:
        """A JSON message as ``model``; None, with the reason in this node's log, when it is
        not one (a callback then drops it: one bad message never stops a node)."""
        try:
            return from_string(model, msg, topic)
        except MessageError as exc:
            self.get_logger().error(str(exc))
            return None


class Mailbox:
    """Messages keyed by what they answer, and waiting for one with a deadline."""

    def __init__(self) -> None:
        self._items: dict[Hashable, Any] = {}
        self._ready = threading.Condition()

    def put(self, key: Hashable, value: Any) -> None:
        with self._ready:
            self._items[key] = value
            self._ready.notify_all()

    def take(self, key: Hashable, timeout: float) -> Any | None:
        """The value for ``key`` (removed), or None after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._ready:
            while key not in self._items:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._ready.wait(left)
            return self._items.pop(key)
