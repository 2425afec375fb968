"""``python -m reacthuman.cli`` is the ``reacthuman`` command."""

import sys

from reacthuman.cli import main

sys.exit(main())
