"""What RViz shows of an episode: the object's path, the impact point, the planned hands, and
the robot's place, as one ``visualization_msgs/MarkerArray`` in the world frame."""

from __future__ import annotations

from geometry_msgs.msg import Point
from std_msgs.msg import ColorRGBA
from visualization_msgs.msg import Marker, MarkerArray

from reacthuman import robot
from reacthuman.brain.client import Decision
from reacthuman.brain.motion import hand_in_robot_frame, to_world
from reacthuman.ros.contract import WORLD_FRAME
from reacthuman.ros.convert import set_quaternion, stamp
from reacthuman.scenes.geometry import quat_from_yaw
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scenes.truth import GroundTruth

NAMESPACES = ("trajectory", "impact_point", "left_hand_plan", "right_hand_plan", "robot")


def _marker(kind: int, ns: str, ident: int, at_ns: int, rgba: tuple[float, ...]) -> Marker:
    m = Marker(type=kind, ns=ns, id=ident, action=Marker.ADD)
    m.header.frame_id = WORLD_FRAME
    m.header.stamp = stamp(at_ns)
    m.color = ColorRGBA(r=rgba[0], g=rgba[1], b=rgba[2], a=rgba[3])
    m.pose.orientation.w = 1.0
    return m


def _point(p: tuple[float, float, float]) -> Point:
    return Point(x=float(p[0]), y=float(p[1]), z=float(p[2]))


def episode_markers(
    spec: SceneSpec, truth: GroundTruth, decision: Decision, at_ns: int, episode: int
) -> MarkerArray:
    markers = MarkerArray()
    clear = Marker(action=Marker.DELETEALL)
    clear.header.frame_id = WORLD_FRAME
    markers.markers.append(clear)
    path = _marker(Marker.LINE_STRIP, "trajectory", episode, at_ns, (1.0, 0.55, 0.0, 1.0))
    path.scale.x = 0.01
    path.points = [_point(p.pos) for p in truth.trajectory]
    markers.markers.append(path)
    if truth.impact_point is not None:
        hit = _marker(Marker.SPHERE, "impact_point", episode, at_ns, (1.0, 0.0, 0.0, 0.9))
        hit.pose.position = _point(truth.impact_point)
        hit.scale.x = hit.scale.y = hit.scale.z = 0.08
        markers.markers.append(hit)
    pos, yaw = spec.observer.pos, spec.observer.yaw
    if decision.plan is not None:
        for side, rgba in (("left", (0.1, 0.4, 1.0, 0.9)), ("right", (0.1, 0.8, 0.3, 0.9))):
            hands = _marker(Marker.SPHERE_LIST, f"{side}_hand_plan", episode, at_ns, rgba)
            hands.scale.x = hands.scale.y = hands.scale.z = 0.05
            for frame in decision.plan.keyframes:
                target = frame.left_hand if side == "left" else frame.right_hand
                point = hand_in_robot_frame(decision.plan, target, frame.t)
                hands.points.append(_point(to_world(point, pos, yaw)))
            markers.markers.append(hands)
    body = _marker(Marker.CYLINDER, "robot", episode, at_ns, (0.6, 0.6, 0.65, 0.4))
    height = robot.HAND_ORIGIN[2] + 0.22
    body.pose.position = _point((pos[0], pos[1], pos[2] + height / 2))
    set_quaternion(body.pose.orientation, quat_from_yaw(yaw))
    body.scale.x = body.scale.y = 0.4
    body.scale.z = height
    markers.markers.append(body)
    return markers
