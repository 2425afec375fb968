"""The ROS 2 package: colcon installs it where ROS tools look, and pip's console script runs."""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
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
