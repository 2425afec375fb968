"""A colour camera driver at the boundary, as its own process (a robot's camera driver is):
rgb8 frames and their camera_info on the topics the RealSense driver uses, stamped with the
wall clock when sent. Frame n is grey level n % 256 with a white square crossing it; each
sent frame's stamp and n go to LOG as ``stamp n`` lines. Behind its rate it skips a frame,
as a camera does, never sending a burst.

    python test/fake_camera.py LOG [--topic /camera/color/image_raw] [--size 64x36] [--rate 30]

SIGINT or SIGTERM stop it; a file PAUSE beside LOG (LOG.pause) holds it while it exists.
"""

from __future__ import annotations

import argparse
import signal
import time
from pathlib import Path

import numpy as np
import rclpy
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import CameraInfo, Image

NS = 1_000_000_000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("log", type=Path)
    parser.add_argument("--topic", default="/camera/color/image_raw")
    parser.add_argument("--size", default="64x36")
    parser.add_argument("--rate", type=float, default=30.0)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    pause = args.log.with_suffix(args.log.suffix + ".pause")
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    rclpy.init()
    node = rclpy.create_node("fake_camera")
    images = node.create_publisher(Image, args.topic, qos_profile_sensor_data)
    infos = node.create_publisher(
        CameraInfo, args.topic.rsplit("/", 1)[0] + "/camera_info", qos_profile_sensor_data
    )
    info = CameraInfo(width=width, height=height)
    f = height / 2 / np.tan(np.radians(30.0))  # a 60 degree vertical field of view
    info.k = [f, 0.0, width / 2, 0.0, f, height / 2, 0.0, 0.0, 1.0]
    period, n = 1.0 / args.rate, 0
    side = max(2, height // 6)
    next_at = time.monotonic()
    try:
        with args.log.open("w", buffering=1) as log:
            while True:
                if not pause.exists():
                    pixels = np.full((height, width, 3), n % 256, np.uint8)
                    x = (2 * n) % max(1, width - side)
                    pixels[height // 2 : height // 2 + side, x : x + side] = 255
                    ns = time.time_ns()
                    msg = Image(
                        height=height, width=width, encoding="rgb8", step=3 * width,
                        data=pixels.tobytes(),
                    )  # fmt: skip
                    msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(ns, NS)
                    msg.header.frame_id = info.header.frame_id = "camera_color_optical_frame"
                    info.header.stamp = msg.header.stamp
                    images.publish(msg)
                    infos.publish(info)
                    log.write(f"{ns} {n}\n")
                    n += 1
                next_at += period
                late = time.monotonic() - next_at
                if late > 0:  # behind: drop the frames it missed
                    next_at += period * (int(late / period) + 1)
                time.sleep(max(0.0, next_at - time.monotonic()))
    except KeyboardInterrupt:
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == "__main__":
    main()
