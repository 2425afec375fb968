"""The node graph: which nodes, their parameters, isolation, and running them.

``NODES`` and ``config/bench.yaml`` are the single source for both ways of starting the
graph: ``launch/bench.launch.py`` (one process per node, ROS 2's launch system) and
``reacthuman bench`` (the same node classes composed in one process with an rclpy
executor, for pip-only machines).
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import importlib
import os
import random
import signal
import sys
import tempfile
import threading
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import yaml

from reacthuman.assets import config_file
from reacthuman.ros import contract
from reacthuman.ros.base import COMMON_PARAMETERS

PARAMETERS_FILE = "bench.yaml"
EPISODE_THREAD = ("sim_node", "spine_node", "recorder_node")  # composed: spun by the sim
FASTDDS_PROFILE = "fastdds.xml"
DOMAIN_IDS = (1, 101)  # Fast DDS maps domain ids above ~101 to ports beyond 65535
# A run holds an advisory lock on its domain id for as long as its process lives, so two runs
# on one machine never share a domain (one drawn at random in 1-101 did for about 1 % of
# concurrent pairs, and exchanged messages: outcomes changed, results held the other's
# scenes). The locks live beside every user's temporary files.
DOMAIN_LOCKS = Path(tempfile.gettempdir()) / "reacthuman-domains"
_claimed: dict[int, IO[str]] = {}  # this process's domains and their open lock files


class DomainInUse(RuntimeError):
    """The ROS_DOMAIN_ID asked for is held by another ReactHuman run on this machine."""


def claim_domain(domain: int) -> bool:
    """Hold ``domain`` for this process's lifetime; False when another process holds it."""
    if domain in _claimed:
        return True
    DOMAIN_LOCKS.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # a folder another user made and left unwritable
        DOMAIN_LOCKS.chmod(0o1777)
    try:
        handle = (DOMAIN_LOCKS / f"{domain}.lock").open("a+")
    except OSError:  # another user's lock file: theirs
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return False
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    _claimed[domain] = handle
    return True


def release_domain(domain: int) -> None:
    """Give back a domain this process holds (the process that lent it to a worker outlives
    the worker: a Ray task of ``reacthuman bench --ray``)."""
    handle = _claimed.pop(domain, None)
    if handle is not None:
        handle.close()  # closing the file drops its lock


def holder(domain: int) -> str | None:
    """The pid that holds ``domain``, as its lock file records it (None: unknown)."""
    with contextlib.suppress(OSError):
        return (DOMAIN_LOCKS / f"{domain}.lock").read_text().strip() or None
    return None


def choose_domain(candidates: Sequence[int]) -> int:
    """The first of ``candidates`` no process holds, now held by this one (for its own run,
    or lent to the processes it starts: see ``isolate``)."""
    for domain in candidates:
        if domain not in _claimed and claim_domain(domain):
            return domain
    raise DomainInUse(
        f"every ROS_DOMAIN_ID in {DOMAIN_IDS[0]}-{DOMAIN_IDS[1]} is held by another "
        f"ReactHuman run on this machine ({DOMAIN_LOCKS})"
    )


@dataclass(frozen=True)
class NodeEntry:
    name: str  # node name and console-script executable
    module: str
    cls: str
    recorder: bool = False  # only when bags are recorded
    unitree: bool = False  # only when executions go over Unitree's interface

    def load(self) -> Any:
        """The node's class (Any: the nodes' constructors differ)."""
        return getattr(importlib.import_module(self.module), self.cls)


NODES = (
    NodeEntry("sim_node", "reacthuman.ros.sim_node", "SimNode"),
    NodeEntry("brain_node", "reacthuman.ros.brain_node", "BrainNode"),
    NodeEntry("spine_node", "reacthuman.ros.spine_node", "SpineNode"),
    NodeEntry("scorer_node", "reacthuman.ros.scorer_node", "ScorerNode"),
    NodeEntry("recorder_node", "reacthuman.ros.recorder_node", "RecorderNode", recorder=True),
    # Only with spine_link: unitree, where the spine drives a G1's interface through it.
    NodeEntry("g1_guard", "reacthuman.ros.guard_node", "GuardNode", unitree=True),
)


def parameters_file() -> Path:
    return config_file(PARAMETERS_FILE)


def node_parameters(node: str, path: Path | None = None) -> dict[str, Any]:
    """A node's parameters from a ROS 2 parameter file, read as rclpy (and so ``ros2 launch``)
    reads one: ``/**`` first, then the node's own section; nothing for a node the file does
    not name."""
    from rclpy.parameter import parameter_dict_from_yaml_file, parameter_value_to_python

    path = path or parameters_file()
    try:
        found = parameter_dict_from_yaml_file(str(path), use_wildcard=True, target_nodes=[node])
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not valid YAML ({exc})") from None
    except (RuntimeError, KeyError, TypeError, AttributeError) as exc:
        if "does not contain any valid parameters" in str(exc):  # rclpy's word for "none"
            return {}
        raise ValueError(f"{path}: not a ROS 2 parameter file for {node} ({exc})") from None
    return {name: _plain(parameter_value_to_python(msg.value)) for name, msg in found.items()}


def _plain(value: Any) -> Any:
    """rclpy gives number arrays as ``array.array``: a list, as the nodes declare them."""
    return list(value) if isinstance(value, array.array) else value


def free_domain() -> int:
    """A domain id no process holds, drawn at random and now held by this one (for its own
    run, or lent to a process it starts: a worker, the Unitree link's DDS)."""
    ids = list(range(DOMAIN_IDS[0], DOMAIN_IDS[1] + 1))
    random.SystemRandom().shuffle(ids)
    return choose_domain(ids)


def isolate(env: MutableMapping[str, str] | None = None) -> dict[str, str]:
    """Keep DDS on this machine and give the run a domain of its own: one no other ReactHuman
    run on this machine holds, or the user's, which then must not be held either
    (``DomainInUse``).

    Returns what it set (also written into ``env``, by default ``os.environ``)."""
    env = os.environ if env is None else env
    chosen: dict[str, str] = {}
    asked = env.get("ROS_DOMAIN_ID")
    if asked:
        with contextlib.suppress(ValueError):
            domain = int(asked)
            # Held by the process that started this one (a launch, a test harness): lent.
            if not claim_domain(domain) and holder(domain) != str(os.getppid()):
                raise DomainInUse(
                    f"ROS_DOMAIN_ID {asked} is in use by another ReactHuman run on this "
                    f"machine (pid {holder(domain) or '?'}): unset ROS_DOMAIN_ID to let each "
                    "run take a free one, or export another"
                )
    else:
        env["ROS_DOMAIN_ID"] = chosen["ROS_DOMAIN_ID"] = str(free_domain())
    defaults = {
        "ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST",
        "RMW_IMPLEMENTATION": "rmw_fastrtps_cpp",
    }
    with contextlib.suppress(FileNotFoundError):  # a custom install may not ship it
        defaults["FASTDDS_DEFAULT_PROFILES_FILE"] = str(config_file(FASTDDS_PROFILE))
    for key, value in defaults.items():
        if not env.get(key):
            env[key] = chosen[key] = value
    return chosen


def make_executor(context: Any = None) -> Any:
    """A single-threaded executor: callbacks one at a time in one thread (cheaper per message
    than the multi-threaded one); slow work (a model's answer) runs in the brain node's own
    worker threads. rclpy's EventsExecutor deadlocks here when another thread publishes."""
    from rclpy.executors import SingleThreadedExecutor

    return SingleThreadedExecutor(context=context)


def run_node_process(cls: type, args: list[str] | None = None) -> None:
    """``main`` of one node as its own process (console scripts, launch files, tests).

    Parameters come from ``--ros-args`` (``-p``, ``--params-file``); SIGINT and SIGTERM stop
    it cleanly (stores closed; the recorder first waits briefly for scores in flight, then
    drops the bags of episodes that were never scored). The simulator's exit status says how
    the run ended: 0 done or stopped, 1 failed.
    """
    import rclpy
    from rclpy.executors import ExternalShutdownException
    from rclpy.signals import SignalHandlerOptions

    # Every node but the simulator (which runs its episodes and exits on its own) handles
    # SIGINT/SIGTERM itself, as a flag read between spins. rclpy's own handler shuts the
    # context down from its signal thread: a node that finishes work after the signal (the
    # recorder's last bag, whose score may still be in flight) could not take one more
    # message, and the brain node once aborted in destroy_node while that thread was still
    # shutting the context down (CI, test_graph).
    flagged = not hasattr(cls, "run")
    settles = hasattr(cls, "settle")
    rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO if flagged else None)
    stop = threading.Event()
    if flagged:
        # The first signal only sets a flag that the loop below reads between spins: raised
        # as KeyboardInterrupt, it landed wherever the interpreter was, in the middle of a
        # callback too, and twice in one `.ci/run` the recorder then hung at exit. A second
        # signal stops at once.
        def on_signal(_signum: int, _frame: Any) -> None:
            if stop.is_set():
                raise KeyboardInterrupt
            stop.set()

        signal.signal(signal.SIGINT, on_signal)
        signal.signal(signal.SIGTERM, on_signal)
    node = cls()
    executor = make_executor()
    executor.add_node(node)
    status = 0
    spinner = threading.Thread(target=executor.spin, daemon=True)
    try:
        if hasattr(node, "run"):
            node.executor = executor  # spun by run() itself while it waits
            result = node.run()
            status = 1 if result.state == "failed" else 0
        else:
            while not stop.is_set():  # short waits, so the signal is seen within one of them
                executor.spin_once(timeout_sec=0.2)
            if settles:
                with contextlib.suppress(KeyboardInterrupt):  # a second signal: at once
                    node.settle(executor)
    except (KeyboardInterrupt, ExternalShutdownException):
        if settles and not stop.is_set():
            with contextlib.suppress(KeyboardInterrupt):  # a second signal: stop at once
                node.settle(executor)
    finally:
        executor.shutdown(timeout_sec=5.0)
        if spinner.is_alive():
            spinner.join(timeout=5)  # a thread still in rcl at exit aborts the process
        node.destroy_node()
        if rclpy.ok():
            rclpy.shutdown()
    raise SystemExit(status)


@dataclass
class ComposedRun:
    status: Any  # contract.RunStatus
    bags: list[Path]
    domain_id: str
    timings: list[dict[str, Any]]  # the simulator's wall seconds per episode and phase


def compose(
    overrides: dict[str, Any],
    record: bool = True,
    parameters: Path | None = None,
    brain: Any = None,
    on_row: Any = None,
) -> ComposedRun:
    """Run the graph's nodes in this process with rclpy executors (what ``reacthuman bench``
    does on machines without ROS 2's launch system): the simulator, spine and recorder share
    one that the episode thread spins while it waits; the brain and the scorer have a thread
    each. Ctrl-C stops after cleaning up: finished episodes keep their results and bags, and
    a rerun resumes."""
    isolate()
    import rclpy

    context = rclpy.Context()
    rclpy.init(context=context)
    nodes: dict[str, Any] = {}
    executors: list[Any] = []
    spinners: list[threading.Thread] = []
    lockstep: Any = None
    status = None
    try:
        unitree = overrides.get("spine_link") == "unitree"
        for entry in NODES:
            if (entry.recorder and not record) or (entry.unitree and not unitree):
                continue
            params = {**node_parameters(entry.name, parameters), **overrides}
            cls = entry.load()
            declared = {**_common(), **cls.PARAMETERS}
            params = {k: v for k, v in params.items() if k in declared or k == "use_sim_time"}
            if entry.name == "brain_node":
                nodes[entry.name] = cls(params, brain=brain, context=context)
            else:
                nodes[entry.name] = cls(params, context=context)
            # The nodes busy at every control tick (simulator, spine, recorder) share one
            # executor, spun by the thread that runs the episodes while it waits: their
            # callbacks run in the time the simulator waits anyway instead of competing for
            # the GIL with the physics. The brain and the scorer get a thread each.
            # Over Unitree's interface the spine answers DDS, not the simulator's executor.
            # That executor takes subscriptions without rclpy's per-callback Python
            # (``LockStepExecutor``: about a fifth of the graph's extra CPU, issue 16).
            if entry.name in EPISODE_THREAD and not (unitree and entry.name == "spine_node"):
                if lockstep is None:
                    from reacthuman.ros.lockstep_executor import LockStepExecutor

                    lockstep = LockStepExecutor(context=context)
                    executors.append(lockstep)
                lockstep.add_node(nodes[entry.name])
                continue
            executor = make_executor(context)
            executor.add_node(nodes[entry.name])
            executors.append(executor)
            spinner = threading.Thread(target=executor.spin, daemon=True)
            spinner.start()
            spinners.append(spinner)
        sim = nodes["sim_node"]
        sim.executor = lockstep
        sim.on_row = on_row

        # The first Ctrl-C asks the simulator to stop after the episode in progress (a flag:
        # a KeyboardInterrupt raised inside Genesis's scene building can be swallowed by a
        # library there); a second one interrupts at once.
        def interrupt(_signum: int, _frame: Any) -> None:
            if sim.stop_requested:
                raise KeyboardInterrupt
            sim.stop_requested = True
            print(
                "reacthuman: stopping after this episode (Ctrl-C again to stop now)",
                file=sys.stderr,
                flush=True,
            )

        previous = signal.signal(signal.SIGINT, interrupt)
        try:
            status = sim.run()
        except KeyboardInterrupt:
            status = sim.status("stopped", "interrupted (Ctrl-C)")
        finally:
            signal.signal(signal.SIGINT, previous)
        drain(lockstep)  # the recorder's last score and the run status
    finally:
        for executor in executors:
            executor.shutdown()
        for spinner in spinners:
            spinner.join(timeout=5)
        for node in nodes.values():
            node.destroy_node()
        rclpy.shutdown(context=context)
    recorder = nodes.get("recorder_node")
    return ComposedRun(
        status=status or contract.RunStatus(run_id="", state="failed", reason="did not start"),
        bags=list(recorder.written) if recorder is not None else [],
        domain_id=os.environ.get("ROS_DOMAIN_ID", ""),
        timings=list(nodes["sim_node"].timings) if "sim_node" in nodes else [],
    )


def drain(executor: Any, seconds: float = 0.5) -> None:
    """Serve what is still pending on ``executor`` for ``seconds`` (the last messages of a
    run: the recorder's final score and the run status)."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        executor.spin_once(timeout_sec=0.05)


def _common() -> dict[str, Any]:
    return COMMON_PARAMETERS
