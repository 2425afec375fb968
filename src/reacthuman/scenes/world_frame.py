"""From the observer's frame, where families build their events, to the room's (world) frame,
rounded as a spec stores it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from reacthuman.scenes.cameras import Bounds
from reacthuman.scenes.geometry import Quat, Vec3, quat_from_yaw, quat_mul, rotate_yaw
from reacthuman.scenes.spec import Camera, Furniture, Joint, Pose, SceneObject


class WorldTransform:
    """Observer frame -> world (room) frame: a yaw by a multiple of 90 degrees and a shift."""

    def __init__(self, yaw: float, bounds: Bounds) -> None:
        self.yaw = yaw
        self.q = quat_from_yaw(yaw)
        center = ((bounds[0] + bounds[1]) / 2.0, (bounds[2] + bounds[3]) / 2.0, 0.0)
        shifted = rotate_yaw((-center[0], -center[1], 0.0), yaw)
        self.offset = (shifted[0], shifted[1], 0.0)

    def point(self, p: Sequence[float]) -> Vec3:
        r = rotate_yaw(p, self.yaw)
        return rounded3((r[0] + self.offset[0], r[1] + self.offset[1], r[2]))

    def vector(self, v: Sequence[float]) -> Vec3:
        return rounded3(rotate_yaw(v, self.yaw))

    def quat(self, q: Quat) -> Quat:
        w, x, y, z = quat_mul(self.q, q)
        n = math.sqrt(w * w + x * x + y * y + z * z)
        return (round(w / n, 6), round(x / n, 6), round(y / n, 6), round(z / n, 6))

    def pose(self, pose: Pose) -> Pose:
        return Pose(pos=self.point(pose.pos), quat=self.quat(pose.quat))


def rounded3(v: Sequence[float]) -> Vec3:
    """A vector as a spec stores it (``rounded``)."""
    return (rounded(v[0]), rounded(v[1]), rounded(v[2]))


def rounded(x: float) -> float:
    """A number as a spec stores it: 4 decimals."""
    return round(x, 4) + 0.0  # + 0.0 turns -0.0 into 0.0, so JSON never shows "-0.0"


def rounded_or_none(x: float | None) -> float | None:
    """``rounded``, keeping None."""
    return None if x is None else rounded(x)


def world_object(obj: SceneObject, tf: WorldTransform) -> SceneObject:
    """An object of the event, its pose, velocities and joint in the room's frame."""
    joint = None
    if obj.joint is not None:
        joint = Joint(
            kind=obj.joint.kind,
            anchor=tf.point(obj.joint.anchor),
            axis=tf.vector(obj.joint.axis),
            damping=obj.joint.damping,
        )
    return obj.model_copy(
        update={
            "pose": tf.pose(obj.pose),
            "lin_vel": tf.vector(obj.lin_vel),
            "ang_vel": tf.vector(obj.ang_vel),
            "joint": joint,
            "color": tuple(round(c, 4) for c in obj.color),
        }
    )


def world_furniture(piece: Furniture, tf: WorldTransform) -> Furniture:
    """A piece of furniture in the room's frame."""
    return piece.model_copy(
        update={
            "pose": tf.pose(piece.pose),
            "size": rounded3(piece.size),
            "color": tuple(round(c, 4) for c in piece.color),
            "friction": round(piece.friction, 4),
        }
    )


def world_camera(camera: Camera, tf: WorldTransform) -> Camera:
    """A camera in the room's frame."""
    return camera.model_copy(
        update={
            "pos": tf.point(camera.pos),
            "lookat": tf.point(camera.lookat),
            "up": tf.vector(camera.up),
        }
    )
