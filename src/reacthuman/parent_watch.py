"""A worker process that ends with its parent.

A pool's worker (``concurrent.futures`` with the spawn context) notices a parent that was
killed only between two tasks, when it reads its next one; one busy simulating a scene went on
for most of an hour after ``kill`` took its parent. ``exit_with_parent`` in the worker's
initializer watches the parent from a daemon thread and ends the worker once it is gone.
"""

from __future__ import annotations

import os
import threading

POLL = 0.5  # s between looks at the parent


def exit_with_parent(poll: float = POLL) -> None:
    """End this process (exit status 1) within ``poll`` s of its parent's end: the process is
    then handed to another (init or a subreaper), so its parent id changes."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(poll)
        os._exit(1)  # nothing to flush: the results had nobody to go to

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
