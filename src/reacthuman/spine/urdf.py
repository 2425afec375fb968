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

from reacthuman.scenes.geometry import quat_rpy
from reacthuman.spine.g1 import g1_document


def mjcf_floats(text: str | None, default: tuple[float, ...]) -> tuple[float, ...]:
    """An MJCF attribute's numbers (``pos``, ``quat``, ``range``...), or ``default``."""
    return tuple(float(v) for v in text.split()) if text else default


def _attr(element: ET.Element, key: str) -> str:
    """An attribute the G1 MJCF always sets (names of bodies, hinges and materials)."""
    value = element.get(key)
    assert value is not None, f"<{element.tag}> without {key}"
    return value


def _origin(parent: ET.Element, element: ET.Element) -> None:
    pos = mjcf_floats(element.get("pos"), (0.0, 0.0, 0.0))
    w, x, y, z = mjcf_floats(element.get("quat"), (1.0, 0.0, 0.0, 0.0))
    rpy = quat_rpy((w, x, y, z))
    ET.SubElement(
        parent,
        "origin",
        xyz=" ".join(f"{v:.6g}" for v in pos),
        rpy=" ".join(f"{v:.6g}" for v in rpy),
    )


@functools.cache
def g1_urdf() -> str:
    root = ET.fromstring(g1_document())
    compiler = root.find("compiler")
    assert compiler is not None
    meshdir = Path(_attr(compiler, "meshdir"))
    meshes = {
        m.get("name") or Path(m.get("file", "")).stem: meshdir / m.get("file", "")
        for m in root.iter("mesh")
        if m.get("file")
    }
    colours = {_attr(m, "name"): _attr(m, "rgba") for m in root.iter("material")}
    robot = ET.Element("robot", name="unitree_g1")
    for name, rgba in colours.items():
        ET.SubElement(ET.SubElement(robot, "material", name=name), "color", rgba=rgba)
    ET.SubElement(robot, "link", name="base_link")

    def add(body: ET.Element, parent: str) -> None:
        name = _attr(body, "name")
        link = ET.SubElement(robot, "link", name=name)
        for geom in body.findall("geom"):
            mesh = geom.get("mesh")
            if geom.get("class") != "visual" or mesh not in meshes:
                continue
            visual = ET.SubElement(link, "visual")
            _origin(visual, geom)
            geometry = ET.SubElement(visual, "geometry")
            ET.SubElement(geometry, "mesh", filename=f"file://{meshes[mesh]}")
            ET.SubElement(visual, "material", name=geom.get("material", "metal"))
        hinge = body.find("joint")
        if parent == "base_link":
            joint = ET.SubElement(robot, "joint", name="base_to_pelvis", type="fixed")
            ET.SubElement(joint, "origin", xyz="0 0 0", rpy="0 0 0")
        elif hinge is None:
            joint = ET.SubElement(robot, "joint", name=f"{name}_fixed", type="fixed")
            _origin(joint, body)
        else:
            joint = ET.SubElement(robot, "joint", name=_attr(hinge, "name"), type="revolute")
            _origin(joint, body)
            ET.SubElement(joint, "axis", xyz=hinge.get("axis", "0 0 1"))
            low, high = mjcf_floats(hinge.get("range"), (-math.pi, math.pi))
            effort = mjcf_floats(hinge.get("actuatorfrcrange"), (-100.0, 100.0))[1]
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
