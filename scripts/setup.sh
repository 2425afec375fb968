#!/usr/bin/env bash
# One-command set-up: .venv at the repository root with every pinned dependency and ReactHuman
# installed editable (so `.venv/bin/reacthuman` runs the working tree).
# Idempotent: a stamp records the hash of the files that define the venv; when it matches,
# nothing is done. Rerun it after changing requirements-lock.txt, setup.py, setup.cfg or
# package.xml (scripts/run-tests.sh and scripts/run-benchmark.sh call it every time).
#
# Environment: PYTHON (default python3.11) makes the venv; REACTHUMAN_TORCH_INDEX_URL, if set, is
# the index torch comes from (e.g. https://download.pytorch.org/whl/cpu where no CPU wheel lies
# on disk: PyPI's Linux torch is a multi-GB CUDA build).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

venv=.venv
stamp=$venv/.reacthuman-setup
want=$(cat requirements-lock.txt setup.py setup.cfg package.xml scripts/setup.sh scripts/pip-check.sh | sha256sum | cut -d' ' -f1)

up_to_date() { [[ -x $venv/bin/python && -f $stamp && $(<"$stamp") == "$want" ]]; }

if up_to_date; then
  echo "setup: .venv is up to date"
  exit 0
fi

# Two scripts starting at once (tests and a benchmark) must not install into one venv together.
mkdir -p "$venv"
exec 9>"$venv/.setup.lock"
flock 9
if up_to_date; then
  echo "setup: .venv is up to date"
  exit 0
fi
rm -f "$stamp"

start=$SECONDS
HOLOSOMA=0.1.3  # the G1 policies' wheel (see below)
# This kind of machine lists local index folders in its pip config that may not exist; pip
# then warns once per package (hundreds of lines). Only that warning is dropped.
pip() {
  "$venv/bin/python" -m pip --disable-pip-version-check -q "$@" \
    2> >(grep -v "^WARNING: Location 'file:.*' is ignored: it is neither a file nor a directory" >&2)
}

if [[ ! -x $venv/bin/python ]]; then
  # A full disk otherwise surfaces as pip's "[Errno 28] No space left on device" mid-install.
  free_gb=$(($(df -Pk . | awk 'NR == 2 {print $4}') / 1024 / 1024))
  if ((free_gb < 7)); then
    echo "setup: only ${free_gb} GB free on $(df -P . | awk 'NR == 2 {print $6}'); the venv" \
      "needs about 7 GB while installing (torch, Genesis, ROS 2 wheels, the G1). Free some" \
      "space and rerun." >&2
    exit 1
  fi
  python=${PYTHON:-python3.11}
  echo "setup: creating .venv with $python"
  "$python" -m venv "$venv"
fi

# torch first and on its own: Genesis imports it without declaring it, and a torch pulled in by
# the resolver would be the CUDA build.
torch=$(grep -E '^torch==' requirements-lock.txt)
torch_index=()
if [[ -n ${REACTHUMAN_TORCH_INDEX_URL:-} ]]; then
  torch_index=(--index-url "$REACTHUMAN_TORCH_INDEX_URL")
fi
echo "setup: installing $torch"
pip install "${torch_index[@]}" "$torch"

echo "setup: installing requirements-lock.txt ($(grep -cEv '^(#|$)' requirements-lock.txt) pins)"
# The lock is a whole venv frozen (scripts/lock.sh), so nothing is left to resolve; --no-deps
# keeps out what it leaves out on purpose: Genesis's opencv-python (the headless cv2 is kept).
pip install --no-deps -r requirements-lock.txt
# A venv set up before the lock dropped opencv-python holds both; its removal takes the cv2
# files the two share, so the headless one is put back.
if "$venv/bin/python" -m pip show -q opencv-python >/dev/null 2>&1; then
  echo "setup: removing opencv-python (the lock's OpenCV is opencv-python-headless)"
  pip uninstall -y opencv-python
  pip install --force-reinstall --no-deps "$(grep -E '^opencv-python-headless==' requirements-lock.txt)"
fi

# The venv's own pinned setuptools builds the package: no download, same as colcon uses.
echo "setup: installing reacthuman (editable)"
pip install --no-build-isolation -e .
bash scripts/pip-check.sh "$venv/bin/python"

# The G1 walking policies: ONNX files inside the holosoma-inference wheel, whose declared
# dependencies (wandb, pinocchio, evdev, ...) we do not want. pip fetches the pinned wheel
# without them and only the files are kept, where reacthuman.spine.policy looks for them.
policies=$venv/share/reacthuman/holosoma
echo "setup: G1 walking policies (holosoma-inference==$HOLOSOMA wheel, files only)"
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
pip download --no-deps "holosoma-inference==$HOLOSOMA" -d "$wheels"
mkdir -p "$policies"
"$venv/bin/python" - "$wheels"/holosoma_inference-*.whl "$policies" <<'PY'
import sys, zipfile
from pathlib import Path

wheel, target = sys.argv[1], Path(sys.argv[2])
prefix = "holosoma_inference/models/loco/g1_29dof/"
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.startswith(prefix) and n.endswith(".onnx")]
    if not names:
        sys.exit(f"setup: {wheel} has no {prefix}*.onnx")
    for name in names:
        (target / Path(name).name).write_bytes(z.read(name))
PY

echo "$want" > "$stamp"
echo "setup: done in $((SECONDS - start)) s"
