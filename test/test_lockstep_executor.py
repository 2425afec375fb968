"""The lock-step nodes' executor: what rclpy's SingleThreadedExecutor does, over real DDS."""

from __future__ import annotations

import threading
import time

import pytest

rclpy = pytest.importorskip("rclpy")

from rclpy.executors import SingleThreadedExecutor  # noqa: E402
from rclpy.node import Node  # noqa: E402
from rclpy.qos import QoSProfile  # noqa: E402
from std_msgs.msg import Int32, String  # noqa: E402
from std_srvs.srv import Trigger  # noqa: E402

from reacthuman.ros.base import ReactNode  # noqa: E402
from reacthuman.ros.graph import isolate  # noqa: E402
from reacthuman.ros.lockstep_executor import LockStepExecutor  # noqa: E402

QOS = QoSProfile(depth=50)


class LockStepNode(ReactNode):
    """Made as the lock-step's nodes are: no QoS event handlers (rclpy's waitables)."""

    QOS_EVENT_WARNINGS = False
    PARAMETER_SERVICES = False


@pytest.fixture
def fallbacks(monkeypatch):
    """The spins rclpy's own executor served."""
    served: list[float | None] = []
    own = SingleThreadedExecutor.spin_once

    def counted(self, timeout_sec=None):
        served.append(timeout_sec)
        own(self, timeout_sec)

    monkeypatch.setattr(SingleThreadedExecutor, "spin_once", counted)
    return served


@pytest.fixture
def context():
    isolate()
    ctx = rclpy.Context()
    rclpy.init(context=ctx)
    yield ctx
    rclpy.shutdown(context=ctx)


def spin_until(executor, done, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        executor.spin_once(timeout_sec=0.05)
    assert done(), "timed out"


def test_a_lock_step_round_trip_delivers_every_message_in_order(context, fallbacks):
    """Two nodes answering each other through one executor, as the simulator and the spine
    do at every control tick; a raw subscription gets the serialized bytes. The executor's
    own path serves them (rclpy's only at the start, when adding the nodes woke it)."""
    executor = LockStepExecutor(context=context)
    asker = LockStepNode("asker", context=context)
    answerer = LockStepNode("answerer", context=context)
    answers: list[int] = []
    raw: list[bytes] = []
    ask = asker.create_publisher(Int32, "ask", QOS)
    answer = answerer.create_publisher(Int32, "answer", QOS)
    answerer.create_subscription(Int32, "ask", lambda m: answer.publish(Int32(data=-m.data)), QOS)
    asker.create_subscription(Int32, "answer", lambda m: answers.append(m.data), QOS)
    asker.create_subscription(Int32, "ask", raw.append, QOS, raw=True)
    try:
        for node in (asker, answerer):
            executor.add_node(node)
        spin_until(executor, lambda: ask.get_subscription_count() == 2)
        for tick in range(200):
            ask.publish(Int32(data=tick))
            spin_until(executor, lambda t=tick: len(answers) == t + 1)
        assert answers == [-t for t in range(200)]
        assert len(raw) == 200 and all(isinstance(r, bytes) for r in raw)
        assert len(fallbacks) < 10
        # A subscription made after the wait set was built is waited on too.
        late: list[str] = []
        answerer.create_subscription(String, "late", lambda m: late.append(m.data), QOS)
        say = asker.create_publisher(String, "late", QOS)
        spin_until(executor, lambda: say.get_subscription_count() == 1)
        say.publish(String(data="hello"))
        spin_until(executor, lambda: late == ["hello"])
    finally:
        executor.shutdown()
        asker.destroy_node()
        answerer.destroy_node()


def test_services_errors_and_shutdown_as_rclpy_has_them(context, fallbacks):
    """A service (the simulator's stop) is answered through rclpy's own path, a callback's
    exception reaches the spinner, and a shut-down executor lets its nodes be destroyed; a
    node with QoS event handlers is served by rclpy's path throughout."""
    executor = LockStepExecutor(context=context)
    server = LockStepNode("server", context=context)
    stopped = threading.Event()

    def stop(_request, response):
        stopped.set()
        response.success = True
        return response

    server.create_service(Trigger, "stop", stop)

    def fail(_msg):
        raise RuntimeError("a callback failed")

    server.create_subscription(Int32, "fail", fail, QOS)
    executor.add_node(server)

    client_context = rclpy.Context()
    rclpy.init(context=client_context)
    client = Node("client", context=client_context)
    caller = client.create_client(Trigger, "stop")
    client_executor = SingleThreadedExecutor(context=client_context)
    client_executor.add_node(client)
    try:
        spin_until(executor, lambda: caller.service_is_ready())
        future = caller.call_async(Trigger.Request())
        deadline = time.monotonic() + 10
        while not future.done() and time.monotonic() < deadline:
            executor.spin_once(timeout_sec=0.05)
            client_executor.spin_once(timeout_sec=0.05)
        assert stopped.is_set() and future.result().success
        assert fallbacks  # the service's request

        publish = server.create_publisher(Int32, "fail", QOS)
        spin_until(executor, lambda: publish.get_subscription_count() == 1)
        publish.publish(Int32(data=1))
        with pytest.raises(RuntimeError, match="a callback failed"):
            spin_until(executor, lambda: False, seconds=5.0)

        plain = Node("plain", context=context)  # rclpy's defaults: event handlers
        got: list[int] = []
        plain.create_subscription(Int32, "plain", lambda m: got.append(m.data), QOS)
        executor.add_node(plain)
        to_plain = server.create_publisher(Int32, "plain", QOS)
        spin_until(executor, lambda: to_plain.get_subscription_count() == 1)
        before = len(fallbacks)
        to_plain.publish(Int32(data=7))
        spin_until(executor, lambda: got == [7])
        assert len(fallbacks) > before
        executor.remove_node(plain)
        plain.destroy_node()
    finally:
        client_executor.shutdown()
        client.destroy_node()
        rclpy.shutdown(context=client_context)
        assert executor.shutdown()
        server.destroy_node()  # the executor no longer holds its handles


def test_a_subscription_destroyed_behind_its_nodes_back_is_left_out(context, fallbacks):
    """A subscription whose handle is gone while its node still lists it is left out of the
    wait set, as rclpy leaves it out; the node's other subscriptions are served."""
    executor = LockStepExecutor(context=context)
    node = LockStepNode("listener", context=context)
    got: list[int] = []
    gone = node.create_subscription(Int32, "gone", lambda m: got.append(-1), QOS)
    node.create_subscription(Int32, "kept", lambda m: got.append(m.data), QOS)
    publish = node.create_publisher(Int32, "kept", QOS)
    try:
        executor.add_node(node)
        gone.destroy()  # its handle only: the node still lists it
        assert gone in node.subscriptions
        spin_until(executor, lambda: publish.get_subscription_count() == 1)
        publish.publish(Int32(data=3))
        spin_until(executor, lambda: got == [3])
    finally:
        assert executor.shutdown()
        node.destroy_node()
