"""The simulator's start: waiting until the other nodes are in the graph and subscribed to
what they need of it, and hearing what the run folder already holds (the scorer's score rows,
the recorder's bags), which a resumed run skips (``EpisodeDriver.resumed``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reacthuman.episode_driver import Found, NodeMissing
from reacthuman.ros import contract as c

Await = Callable[[tuple[str], float], Any]  # ``SimNode.await_mail``


def discover(
    node_names: Callable[[], list[str]],
    needs: dict[str, list[Any]],
    required: list[str],
    timeout: float,
    run_dir: str,
    await_mail: Await,
    spin: Callable[[], None],
) -> Found:
    """Wait until the ``required`` nodes exist and subscribe to what they need (``needs``:
    the simulator's publishers each node's name must match), spinning meanwhile with
    ``spin``; then whether a recorder records, and what the run folder holds."""
    deadline = time.monotonic() + timeout
    while True:
        names = set(node_names())
        missing = [n for n in required if n not in names]
        unmatched = [
            n
            for n in required
            if n not in missing and any(p.get_subscription_count() == 0 for p in needs.get(n, []))
        ]
        if not missing and not unmatched:
            # Bags are recorded when a recorder is in the graph (not required: --no-bags).
            recording = c.RECORDER_NODE in names
            scored = held(c.SCORED, deadline, run_dir, await_mail)
            recorded = held(c.RECORDED, deadline, run_dir, await_mail) if recording else None
            return Found(recording, scored, recorded)
        if time.monotonic() > deadline:
            waiting = missing or unmatched
            raise NodeMissing(
                f"node(s) {', '.join(waiting)} not "
                f"{'found' if missing else 'subscribed'} after "
                f"{timeout:g} s (same ROS_DOMAIN_ID and "
                "ROS_AUTOMATIC_DISCOVERY_RANGE in every process?)"
            )
        spin()


def held(topic: str, deadline: float, run_dir: str, await_mail: Await) -> c.RunFolderEpisodes:
    """What the scorer (``SCORED``) or the recorder (``RECORDED``) says the run folder
    holds; they must write to this node's run folder."""
    node = c.TOPIC[topic].publisher
    found = await_mail((topic,), max(deadline - time.monotonic(), 1.0))
    if found is None:
        raise NodeMissing(f"{node} did not say what the run folder holds ({topic})")
    mine = str(Path(run_dir).resolve())
    if found.run_dir != mine:
        raise NodeMissing(
            f"{node} writes to {found.run_dir}, {c.SIM_NODE} to {mine}: give every node "
            "of a run the same run_dir"
        )
    return found
