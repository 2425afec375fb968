"""ReactHuman: a physics-grounded benchmark of reactive decisions by multimodal LLMs on a humanoid.

The package is a ROS-agnostic core (scenes, simulation, brain, spine, scoring) with thin
ROS 2 nodes on top; see the README.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("reacthuman")  # from package.xml, through setup.py
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
