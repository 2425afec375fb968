"""The executor of the nodes on the 50 Hz lock-step (simulator, spine, recorder), composed.

rclpy's ``SingleThreadedExecutor`` spends about 190 us of Python around every callback: it
gathers every entity of every node through filters, enters each handle in an ``ExitStack``,
creates an rcl timer for the timeout and a wait set, and wraps each callback in a ``Task``
coroutine (BENCHMARKS.md, issue 16). Through the lock-step that is several callbacks a control
tick. This executor keeps one wait set for as long as the nodes' entities stay the same,
waits on it, and calls every ready subscription's callback directly, in the order rclpy would
(node by node, subscription by subscription). One ``spin_once`` serves every subscription
the wait found ready, where rclpy's serves one callback a call; every caller loops on
``spin_once`` and looks at its own condition in between, so none depends on the difference.

Anything else that becomes ready (a service such as ``/reacthuman/sim/stop`` or ``ros2
param``, a guard condition: the executor woken, nodes added, shut down, Ctrl-C) and any node
with timers, clients or waitables is left to rclpy's own ``spin_once``, so behaviour is
rclpy's wherever this does not apply.

It is spun and shut down by one thread (``graph.compose``: the thread that runs the episodes).
"""

from __future__ import annotations

import contextlib
from typing import Any

from rclpy.exceptions import InvalidHandle
from rclpy.executors import SingleThreadedExecutor
from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy
from rclpy.subscription import Subscription

_MESSAGE_ONLY = Subscription.CallbackType.MessageOnly


def _some(entities: Any) -> bool:
    """Whether a node's entities (rclpy gives them as a generator) are any."""
    return next(iter(entities), None) is not None


class LockStepExecutor(SingleThreadedExecutor):
    """``SingleThreadedExecutor`` with a lean path for subscriptions (see the module)."""

    def __init__(self, *, context: Any = None) -> None:
        super().__init__(context=context)
        self._held = contextlib.ExitStack()  # the handles the wait set holds, entered once
        self._wait_set: Any = None
        self._shape: tuple[int, ...] = ()  # the entities' ids
        self._subscriptions: list[Any] = []
        self._services: list[Any] = []
        self._guards: list[Any] = []

    def spin_once(self, timeout_sec: float | None = None) -> None:
        nodes = self.get_nodes()
        if self._is_shutdown or any(
            _some(n.timers) or _some(n.clients) or _some(n.waitables) or _some(n.guards)
            for n in nodes
        ):
            self._release()
            super().spin_once(timeout_sec)
            return
        # Which entities, not how many: one destroyed and another made between two spins
        # must not leave the old one in the wait set.
        shape = tuple(
            id(entity)
            for node in nodes
            for entities in (node.subscriptions, node.services)
            for entity in entities
        )
        if shape != self._shape or self._wait_set is None:
            self._build(nodes, shape)
        wait_set = self._wait_set
        wait_set.clear_entities()
        for sub in self._subscriptions:
            wait_set.add_subscription(sub.handle)
        for srv in self._services:
            wait_set.add_service(srv.handle)
        for gc in self._guards:
            wait_set.add_guard_condition(gc.handle)
        timeout_ns = -1 if timeout_sec is None or timeout_sec < 0 else int(timeout_sec * 1e9)
        wait_set.wait(timeout_ns)
        if (
            wait_set.get_ready_entities("guard_condition")
            or wait_set.get_ready_entities("service")
            or self._is_shutdown
        ):
            self._release()  # rclpy's own path sees the same readiness again
            super().spin_once(0.0)
            return
        ready = set(wait_set.get_ready_entities("subscription"))
        for sub in self._subscriptions:
            if sub.handle.pointer not in ready:
                continue
            taken = sub.handle.take_message(sub.msg_type, sub.raw)
            if taken is None:
                continue
            if sub._callback_type is _MESSAGE_ONLY:
                sub.callback(taken[0])
            else:
                sub.callback(*taken)

    def _build(self, nodes: list[Any], shape: tuple[int, ...]) -> None:
        """A wait set for the nodes' subscriptions and services and this executor's own guard
        conditions (woken, Ctrl-C), the handles held (entered) until it is rebuilt. An
        entity already destroyed is left out, as rclpy leaves it out."""
        self._release()
        context = self._context.handle
        if context is None:
            raise RuntimeError("the executor's context is not initialised")
        subscriptions = self._hold(sub for node in nodes for sub in node.subscriptions)
        services = self._hold(srv for node in nodes for srv in node.services)
        guards = self._hold(gc for gc in (self._guard, self._sigint_gc) if gc is not None)
        self._held.enter_context(context)
        self._subscriptions, self._services, self._guards = subscriptions, services, guards
        self._wait_set = _rclpy.WaitSet(
            len(subscriptions), len(guards), 0, 0, len(services), 0, context
        )
        self._shape = shape

    def _hold(self, entities: Any) -> list[Any]:
        """The entities whose handles could be entered (held until the next release)."""
        held = []
        for entity in entities:
            try:
                self._held.enter_context(entity.handle)
            except InvalidHandle:  # destroyed since the node listed it
                continue
            held.append(entity)
        return held

    def _release(self) -> None:
        """Let go of the held handles (a node can then be destroyed)."""
        self._wait_set = None
        self._shape = ()
        self._subscriptions, self._services, self._guards = [], [], []
        self._held.close()
        self._held = contextlib.ExitStack()

    def shutdown(self, timeout_sec: float | None = None) -> bool:
        self._release()
        return super().shutdown(timeout_sec)
