"""Closing an episode's bag: CPU milliseconds per bag, and where they go.

    .venv/bin/python benchmarks/bench_bag.py [--bags 10] [--resolution 640x360]

Builds one episode's messages as the recorder holds them (the window's 15 frames with camera
info and transforms, a 30-tick stand and a 170-tick execution at 50 Hz: /imu, /joint_states,
joint commands, /clock and transforms at 10 Hz, and the episode's JSON messages) and closes
it into a bag ``--bags`` times (``ros.bag.EpisodeBag.close``: rosbags writes the MCAP file and
metadata.yaml, ``mcap_crc.seal`` fills in its CRCs). Prints CPU ms per bag for the whole
close and for its parts: the writer's connections (each with its QoS as YAML),
closing (metadata YAML), the CRC seal, and the rest (the messages themselves: timing each
write would cost more than the write).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

TICKS_STAND, TICKS_EXECUTE, FRAMES = 30, 170, 5
PERIOD_NS = 20_000_000


def episode_messages(width: int, height: int) -> list[tuple[str, bytes, int]]:
    """(topic, serialized message, received ns) as the recorder keeps an episode's."""
    from rclpy.serialization import serialize_message
    from std_msgs.msg import String

    from reacthuman.ros import cdr, convert
    from reacthuman.ros import contract as c
    from reacthuman.spine.g1 import G1_JOINTS

    rng = np.random.default_rng(0)
    out: list[tuple[str, bytes, int]] = []
    ns = 0

    def add(topic: str, raw: bytes) -> None:
        nonlocal ns
        ns += 1000
        out.append((topic, bytes(raw), ns))

    text = '{"run_id": "r", "episode": 0, "payload": "' + "x" * 4000 + '"}'
    for topic in (c.SCENE, c.STAND, c.GROUND_TRUTH):
        add(topic, serialize_message(String(data=text)))
    names = tuple(G1_JOINTS)
    identity = (1.0, 0.0, 0.0, 0.0)

    def body_tick(stamp: int, slow: bool) -> None:
        positions = tuple(float(v) for v in rng.normal(size=len(names)))
        add(c.IMU, cdr.imu(stamp, c.BASE_FRAME, identity, (0.0, 0.1, 0.0)))
        add(c.JOINT_STATES, cdr.joint_state(names, stamp, positions, positions))
        add(c.JOINT_COMMAND, cdr.joint_state(names, stamp, positions))
        if slow:
            add(c.CLOCK, cdr.clock(stamp))
            add(c.TF, cdr.transform("world", "base_link", stamp, (1.0, 2.0, 0.0), identity))
            for hand in ("left_hand", "right_hand"):
                add(c.TF, cdr.transform("base_link", hand, stamp, (0.3, 0.2, 0.9), identity))

    for tick in range(TICKS_STAND):
        body_tick(tick * PERIOD_NS, tick % 5 == 0)
    frame = rng.integers(0, 255, size=(height, width, 3), dtype=np.uint8)
    for i in range(FRAMES):
        stamp = (TICKS_STAND + i) * PERIOD_NS
        for view in c.CameraName:
            optical = c.camera_frame(view)
            add(c.image_topic(view), serialize_message(convert.image(frame, stamp, optical)))
            add(c.TF, cdr.transform("world", optical, stamp, (0.0, 0.0, 2.0), identity))
    for topic in (c.FREEZE, c.PLAN, c.EXECUTE, c.GAINS):
        add(topic, serialize_message(String(data=text)))
    for tick in range(TICKS_EXECUTE):
        body_tick((TICKS_STAND + FRAMES + tick) * PERIOD_NS, tick % 5 == 0)
    for topic in (c.OUTCOME, c.SCORE):
        add(topic, serialize_message(String(data=text)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bags", type=int, default=10)
    parser.add_argument("--resolution", default="640x360")
    args = parser.parse_args()
    width, height = (int(v) for v in args.resolution.split("x"))

    import rosbags.rosbag2.writer as writer

    from reacthuman.ros import bag, mcap_crc

    messages = episode_messages(width, height)
    size = sum(len(raw) for _t, raw, _ns in messages) / 1e6
    spent: dict[str, float] = {}

    def timed(owner: Any, name: str, part: str) -> None:
        own = getattr(owner, name)

        def wrapper(*a: Any, **k: Any) -> Any:
            started = time.process_time()
            try:
                return own(*a, **k)
            finally:
                spent[part] = spent.get(part, 0.0) + time.process_time() - started

        setattr(owner, name, wrapper)

    timed(writer.Writer, "add_connection", "connections (QoS YAML)")
    timed(writer.Writer, "close", "closing (metadata YAML)")
    timed(mcap_crc, "seal", "CRC seal")
    root = Path(tempfile.mkdtemp(prefix="bench-bag-"))
    try:

        def close(i: int) -> None:
            episode = bag.EpisodeBag(root / f"episode-{i}")
            for topic, raw, ns in messages:
                episode.write(topic, raw, ns)
            assert episode.close(True) is not None

        close(0)  # type store, message definitions: once a process
        spent.clear()
        started = time.process_time()
        for i in range(1, args.bags + 1):
            close(i)
        whole = (time.process_time() - started) / args.bags * 1000
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{len(messages)} messages, {size:.1f} MB an episode, {args.bags} bags")
    print(f"closing a bag: {whole:.1f} CPU ms")
    for part, seconds in spent.items():
        print(f"  {part}: {seconds / args.bags * 1000:.1f} ms")
    rest = whole - sum(spent.values()) / args.bags * 1000
    print(f"  the rest (messages into the MCAP file, /tf as TFMessage, folders): {rest:.1f} ms")


if __name__ == "__main__":
    main()
