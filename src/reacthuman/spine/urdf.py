"""The G1 as URDF for ``/robot_description``, converted from the same MJCF the simulation
loads, so RViz (with robot_state_publisher and ``/joint_states``) shows the body the
benchmark runs. Meshes are referenced in place (``file://`` into site-packages); nothing is
copied. The root link is ``base_link`` (the pelvis), the frame the simulator's transforms
place in the world."""

from __future__ import annotations

import functools
import math
import xml.etree.ElementTree as ET
from pathlib import Path

from reacthuman.spine.g1 import g1_document


def _floats(text: str | None, default: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(float(v) for v in text.split()) if text else default


def _rpy(quat: tuple[float, ...]) -> tuple[float, float, float]:
    """Roll, pitch, yaw of a (w, x, y, z) quaternion."""
    w, x, y, z = quat
    roll = math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2 * (w * y - z * x))))
    yaw = math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return roll, pitch, yaw


def _origin(parent: ET.Element, element: ET.Element) -> None:
    pos = _floats(element.get("pos"), (0.0, 0.0, 0.0))
    rpy = _rpy(_floats(element.get("quat"), (1.0, 0.0, 0.0, 0.0)))
    ET.SubElement(
        parent,
        "origin",
        xyz=" ".join(f"{v:.6g}" for v in pos),
        rpy=" ".join(f"{v:.6g}" for v in rpy),
    )


@functools.cache
def g1_urdf() -> str:
    root = ET.fromstring(g1_document())
    meshdir = Path(root.find("compiler").get("meshdir"))  # type: ignore[union-attr]
    meshes = {
        m.get("name") or Path(m.get("file", "")).stem: meshdir / m.get("file", "")
        for m in root.iter("mesh")
        if m.get("file")
    }
    colours = {m.get("name"): m.get("rgba") for m in root.iter("material")}
    robot = ET.Element("robot", name="unitree_g1")
    for name, rgba in colours.items():
        ET.SubElement(ET.SubElement(robot, "material", name=name), "color", rgba=rgba)
    ET.SubElement(robot, "link", name="base_link")

    def add(body: ET.Element, parent: str) -> None:
        name = body.get("name")
        link = ET.SubElement(robot, "link", name=name)
        for geom in body.findall("geom"):
            if geom.get("class") != "visual" or geom.get("mesh") not in meshes:
                continue
            visual = ET.SubElement(link, "visual")
            _origin(visual, geom)
            geometry = ET.SubElement(visual, "geometry")
            ET.SubElement(geometry, "mesh", filename=f"file://{meshes[geom.get('mesh')]}")
            ET.SubElement(visual, "material", name=geom.get("material", "metal"))
        hinge = body.find("joint")
        if parent == "base_link":
            joint = ET.SubElement(robot, "joint", name="base_to_pelvis", type="fixed")
            ET.SubElement(joint, "origin", xyz="0 0 0", rpy="0 0 0")
        elif hinge is None:
            joint = ET.SubElement(robot, "joint", name=f"{name}_fixed", type="fixed")
            _origin(joint, body)
        else:
            joint = ET.SubElement(robot, "joint", name=hinge.get("name"), type="revolute")
            _origin(joint, body)
            ET.SubElement(joint, "axis", xyz=hinge.get("axis", "0 0 1"))
            low, high = _floats(hinge.get("range"), (-math.pi, math.pi))
            effort = _floats(hinge.get("actuatorfrcrange"), (-100.0, 100.0))[1]
            ET.SubElement(
                joint,
                "limit",
                lower=f"{low:g}",
                upper=f"{high:g}",
                effort=f"{effort:g}",
                velocity="30",
            )
        ET.SubElement(joint, "parent", link=parent)
        ET.SubElement(joint, "child", link=name)
        for child in body.findall("body"):
            add(child, name)

    pelvis = root.find("worldbody/body")
    assert pelvis is not None
    add(pelvis, "base_link")
    ET.indent(robot)
    return '<?xml version="1.0"?>\n' + ET.tostring(robot, encoding="unicode") + "\n"
