"""ReactHuman: a physics-grounded benchmark of reactive decisions by multimodal LLMs on a humanoid.

The package is a ROS-agnostic core (scenes, simulation, brain, spine, scoring) with thin
ROS 2 nodes on top; see the README.
"""

import os
from importlib.metadata import PackageNotFoundError, version

# onnxruntime (the walking policy's runtime) sends usage telemetry from its import on
# (1.29 and later on Linux: DNS lookups of Microsoft's events host, measured with strace).
# The project sends nothing the user did not ask for: off before anything imports it, in
# every process (each ROS 2 node imports this package first). A user may set it to 0.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

try:
    __version__ = version("reacthuman")  # from package.xml, through setup.py
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
