"""``reacthuman g1-bridge`` and ``reacthuman g1-guard``: a simulated G1 on Unitree's DDS
interface, and the guard between the spine and a robot (docs/physical-g1.md)."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from typing import Any


def add_parser(commands: Any) -> None:
    bridge = commands.add_parser(
        "g1-bridge",
        help="a simulated G1 on Unitree's DDS interface (rt/lowcmd in, rt/lowstate out)",
        description="The Genesis G1 on a flat floor behind rt/lowcmd and rt/lowstate, as "
        "Unitree's MuJoCo simulator serves their SDK: the spine (spine_node backend:=g1) and "
        "the guard cannot tell it from a robot.",
    )
    _interface(bridge)
    bridge.add_argument(
        "--realtime",
        action="store_true",
        help="keep pace with the wall clock, LowState at 500 Hz (default: lock step, each "
        "control tick waits for its command)",
    )
    bridge.add_argument(
        "--seconds", type=float, default=3600.0, help="simulated seconds to run (default 3600)"
    )
    bridge.add_argument(
        "--gantry",
        type=float,
        default=2.0,
        metavar="S",
        help="s the pelvis is held after the first command, as a gantry holds a robot during "
        "the spine's soft start (default 2.0, the spine's soft_start; 0: none)",
    )
    bridge.add_argument("--record", metavar="FILE", help="write what the G1 did as JSON at exit")
    bridge.set_defaults(func=cmd_g1_bridge)

    guard = commands.add_parser(
        "g1-guard",
        help="the guard: the only writer of a G1's rt/lowcmd (limits, watchdog, e-stop)",
        description="Forwards the spine's commands to the robot once armed, after checking "
        "each; sends damping when the spine or the robot falls silent, or on e-stop "
        "(services ~/arm and ~/estop of node g1_guard).",
    )
    _interface(guard)
    guard.add_argument(
        "--arm",
        action="store_true",
        help="arm as soon as the robot reports and the spine waits to be armed (a simulated G1; on "
        "a robot arm by hand: ros2 service call /g1_guard/arm std_srvs/srv/Trigger)",
    )
    guard.add_argument(
        "--command-timeout",
        type=float,
        metavar="S",
        help="s of the spine's silence before damping (default: g1_guard's parameter)",
    )
    guard.add_argument(
        "--state-timeout",
        type=float,
        metavar="S",
        help="s of the robot's silence before damping (default: g1_guard's parameter)",
    )
    guard.set_defaults(func=cmd_g1_guard)


def _interface(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--interface",
        default="lo",
        help="network interface wired to the robot (default lo: nothing leaves this machine)",
    )
    parser.add_argument("--domain", type=int, default=0, help="DDS domain (the robot's is 0)")


def cmd_g1_bridge(args: argparse.Namespace) -> int:
    from reacthuman.unitree.bridge import G1Bridge
    from reacthuman.unitree.channel import Channel, ChannelError

    try:
        channel = Channel(args.domain, args.interface)
    except ChannelError as error:
        print(f"reacthuman: error: {error}", file=sys.stderr)
        return 1
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    bridge = G1Bridge(
        channel,
        lockstep=not args.realtime,
        log=lambda t: print(t, flush=True),
        gantry=args.gantry,
    )
    mode = "real time" if args.realtime else "lock step"
    print(f"g1 bridge: ready on {args.interface}, DDS domain {args.domain}, {mode}", flush=True)
    try:
        bridge.run(args.seconds, stop)
    finally:
        if args.record:
            bridge.write_record(Path(args.record))
    record = bridge.record
    print(
        f"g1 bridge: {len(record.ticks)} control ticks, "
        f"{len(bridge.inbox.rejected)} command(s) rejected",
        flush=True,
    )
    return 0


def cmd_g1_guard(args: argparse.Namespace) -> int:
    from reacthuman.ros.graph import run_node_process
    from reacthuman.ros.guard_node import GuardNode

    params = {"network_interface": args.interface, "dds_domain": args.domain, "arm": args.arm}
    for key in ("command_timeout", "state_timeout"):  # the node's own defaults otherwise
        if getattr(args, key) is not None:
            params[key] = getattr(args, key)
    ros_args = ["--ros-args"]
    for key, value in params.items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        ros_args += ["-p", f"{key}:={text}"]
    run_node_process(GuardNode, ros_args)
    return 0
