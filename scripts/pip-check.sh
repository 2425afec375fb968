#!/usr/bin/env bash
# `pip check` of the venv whose Python is $1, less the one conflict the lock makes on purpose:
# Genesis declares opencv-python, and the lock installs opencv-python-headless alone instead
# (the same cv2 without the GUI libraries; with both installed, one cv2 overwrites the other).
# Usage: scripts/pip-check.sh .venv/bin/python
set -uo pipefail
out=$("$1" -m pip --disable-pip-version-check check 2>/dev/null)
status=$?
((status == 0)) && exit 0
broken=$(grep -Ev '^genesis-world [^ ]+ requires opencv-python, which is not installed\.$' <<<"$out")
if [[ -n $out && -z $broken ]]; then
  exit 0
fi
echo "${broken:-pip check failed (exit $status) and printed nothing}" >&2
exit 1
