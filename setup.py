"""Build script of the ReactHuman ROS 2 package (ament_python; colcon and pip both use it).

The name, version, description, maintainer and license are read from package.xml so that
the ROS manifest and the Python metadata can never disagree.
"""

import os
import xml.etree.ElementTree as ET
from glob import glob

from setuptools import find_packages, setup

PACKAGE = "reacthuman"
HERE = os.path.dirname(os.path.abspath(__file__))
SHARE = os.path.join("share", PACKAGE)


def manifest():
    root = ET.parse(os.path.join(HERE, "package.xml")).getroot()
    maintainer = root.find("maintainer")
    return {
        "name": root.findtext("name").strip(),
        "version": root.findtext("version").strip(),
        "description": " ".join(root.findtext("description").split()),
        "maintainer": maintainer.text.strip(),
        "maintainer_email": maintainer.get("email"),
        "license": root.findtext("license").strip(),
    }


def tree(top):
    """data_files entries installing every file under `top` into share/reacthuman/<top>/..."""
    entries = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(HERE, top)):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        rel = os.path.relpath(dirpath, HERE)
        files = [os.path.join(rel, f) for f in sorted(filenames)]
        if files:
            entries.append((os.path.join(SHARE, rel), files))
    return entries


def matching(pattern):
    """data_files entry for the files matching `pattern` (none when nothing matches)."""
    files = sorted(os.path.relpath(f, HERE) for f in glob(os.path.join(HERE, pattern)))
    return [(os.path.join(SHARE, os.path.dirname(pattern)), files)] if files else []


# The node graph's executables (reacthuman.ros.graph.NODES; launch/bench.launch.py starts them).
NODE_EXECUTABLES = {  # executable: module in reacthuman.ros
    "sim_node": "sim_node",
    "brain_node": "brain_node",
    "spine_node": "spine_node",
    "scorer_node": "scorer_node",
    "recorder_node": "recorder_node",
    "g1_guard": "guard_node",
    "window_recorder": "window_recorder",
}

setup(
    **manifest(),
    packages=find_packages("src"),
    package_dir={"": "src"},
    data_files=[
        ("share/ament_index/resource_index/packages", [f"resource/{PACKAGE}"]),
        (SHARE, ["package.xml"]),
        *matching("launch/*.py"),
        *matching("config/*.yaml"),
        *matching("config/*.rviz"),
        *matching("config/*.xml"),
        *tree("assets"),
    ],
    # Dependencies are installed from requirements-lock.txt (pip) or package.xml (rosdep);
    # listing them here as well would give a third list to keep in step.
    install_requires=["setuptools"],
    python_requires=">=3.11",
    entry_points={
        "console_scripts": [
            f"{PACKAGE} = {PACKAGE}.cli:main",
            *(f"{exe} = {PACKAGE}.ros.{module}:main" for exe, module in NODE_EXECUTABLES.items()),
        ],
    },
)
