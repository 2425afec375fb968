"""The ROS 2 package: colcon installs it where ROS tools look, and pip's console script runs;
its dependencies are declared where they are used, and the lock installs one OpenCV."""

import ast
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent  # the venv made by scripts/setup.sh
PYTHON_DIR = f"python{sys.version_info.major}.{sys.version_info.minor}"


def manifest() -> ET.Element:
    return ET.parse(REPO / "package.xml").getroot()


def run(cmd: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def test_package_xml_is_ament_python_with_the_version_of_setup_py():
    root = manifest()
    assert root.tag == "package"
    assert root.get("format") == "3"
    assert root.findtext("name") == "reacthuman"
    assert root.findtext("export/build_type") == "ament_python"

    setup_py = run([sys.executable, "setup.py", "--version"], cwd=REPO, timeout=60)
    assert setup_py.returncode == 0, setup_py.stderr
    assert setup_py.stdout.strip().splitlines()[-1] == root.findtext("version")


def test_console_script_help_exits_zero():
    result = run([str(BIN / "reacthuman"), "--help"], cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


@pytest.mark.slow
def test_colcon_build_installs_package_assets_and_ament_index_marker(tmp_path):
    build = run(
        [
            str(BIN / "colcon"),
            "--log-base",
            str(tmp_path / "log"),
            "build",
            "--base-paths",
            str(REPO),
            "--build-base",
            str(tmp_path / "build"),
            "--install-base",
            str(tmp_path / "install"),
        ],
        cwd=tmp_path,
        timeout=600,
    )
    assert build.returncode == 0, build.stdout + build.stderr

    prefix = tmp_path / "install" / "reacthuman"  # colcon's default isolated layout
    share = prefix / "share" / "reacthuman"
    marker = prefix / "share" / "ament_index" / "resource_index" / "packages" / "reacthuman"
    assert (prefix / "lib" / PYTHON_DIR / "site-packages" / "reacthuman" / "__init__.py").is_file()
    assert (share / "package.xml").read_text() == (REPO / "package.xml").read_text()
    assert marker.is_file()
    assert (share / "assets" / "catalogue.json").is_file()
    for asset in (REPO / "assets").rglob("*"):
        if asset.is_file() and "__pycache__" not in asset.parts:
            assert (share / asset.relative_to(REPO)).is_file(), asset
    # `ros2 run reacthuman reacthuman` looks in lib/<package>/ (setup.cfg's install_scripts).
    assert (prefix / "lib" / "reacthuman" / "reacthuman").is_file()
    # ... and `ros2 launch` starts the nodes from there: every executable a launch file names.
    for launch_file in (REPO / "launch").glob("*.launch.py"):
        for exe in re.findall(r'executable="([a-z_0-9]+)"', launch_file.read_text()):
            if exe == "rviz2":  # RViz's own
                continue
            assert (prefix / "lib" / "reacthuman" / exe).is_file(), (launch_file.name, exe)


def test_onnxruntime_sends_no_telemetry_from_any_process_that_imports_reacthuman(tmp_path):
    # onnxruntime (the walking policy's runtime) starts usage telemetry at its import: DNS
    # lookups of Microsoft's events host (strace, BENCHMARKS.md) and a device id with an
    # offline event cache under the user's cache folder. The cache is what a test sees. It
    # stays quiet where it sees a CI run (CI=true), so both processes run as a user's would.
    quiet = {"ORT_DISABLE_TELEMETRY", "CI", "GITHUB_ACTIONS", "TF_BUILD", "BUILD_BUILDID"}

    def cache_after(code: str, home: Path) -> list[str]:
        env = {k: v for k, v in os.environ.items() if k not in quiet}
        env.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"))
        subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)
        return sorted(p.name for p in home.rglob("*"))

    control = cache_after("import onnxruntime, time; time.sleep(1)", tmp_path / "plain")
    assert "deviceid" in control  # what the opt-out prevents (the test can fail)
    ours = cache_after("import reacthuman, onnxruntime, time; time.sleep(1)", tmp_path / "ours")
    assert ours == []


PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s#;]+)")
# Modules src/ imports that no pip requirement provides, and where they come from instead.
NOT_FROM_PIP = {
    "tf2_msgs": "a full ROS 2 install (package.xml); the simulator node publishes /tf without it",
    "unitree_hg": "unitree_ros2's messages, built on a robot's machine (unitree/ros2_route.py)",
}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(file: str) -> dict[str, str]:
    """Distribution (canonical name) -> pinned version, of a requirements file."""
    matches = (PIN.match(line) for line in (REPO / file).read_text().splitlines())
    return {canonical(m[1]): m[2] for m in matches if m}


def imported_by_src() -> dict[str, str]:
    """Top-level name of every module src/ imports (at any depth of a file) -> one file."""
    found: dict[str, str] = {}
    for path in sorted((REPO / "src").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], str(path.relative_to(REPO)))
    return found


def test_every_library_src_imports_is_a_direct_dependency():
    """A library imported by src/ is pinned in requirements.txt, not merely pulled in by
    another (an upgrade of that one could drop it)."""
    declared = set(pins("requirements.txt"))
    # PyPI's ROS wheels: ros-kilted-X pins the Kilted release of ros-X, which holds the module.
    declared |= {"ros-" + n.removeprefix("ros-kilted-") for n in declared if "ros-kilted-" in n}
    providers = packages_distributions()
    imported = imported_by_src()
    undeclared = {
        module: f"{file}: {' or '.join(providers.get(module, ['no installed distribution']))}"
        for module, file in imported.items()
        if module not in sys.stdlib_module_names
        and module not in {"reacthuman", *NOT_FROM_PIP}
        and not {canonical(d) for d in providers.get(module, [])} & declared
    }
    assert undeclared == {}, "pin these in requirements.txt, with what uses them"
    assert set(NOT_FROM_PIP) <= set(imported), "NOT_FROM_PIP names a module src/ no longer imports"
    assert {"numpy", "cv2", "scipy", "PIL", "imageio"} <= set(imported)  # the scan sees


def test_the_lock_pins_every_direct_dependency_and_one_opencv():
    """requirements-lock.txt is what setup.sh and the Docker image install: it holds each
    direct pin at its version, and one OpenCV (headless: Genesis declares opencv-python, whose
    cv2 would overwrite the other's), installed without resolving, which would bring it back."""
    lock, direct = pins("requirements-lock.txt"), pins("requirements.txt")
    assert {name: version for name, version in direct.items() if lock.get(name) != version} == {}
    assert sorted(name for name in lock if name.startswith("opencv-")) == ["opencv-python-headless"]
    for installer in ("scripts/setup.sh", "docker/Dockerfile"):
        text = (REPO / installer).read_text()
        installs = [
            line
            for line in text.splitlines()
            if "install" in line and "-r requirements-lock.txt" in line
        ]
        assert installs and all("--no-deps" in line for line in installs), installer
