"""A run's episodes in this process, from its configuration: the direct loop or the node
graph composed here; what ``reacthuman bench`` runs itself and what each worker runs."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reacthuman.pool.config import RunConfig, Shard
from reacthuman.scoring.results import ScoreRow


def run_episodes(
    config: RunConfig,
    scenes: list[Any],
    on_row: Callable[[ScoreRow], None],
    shard: Shard | None = None,
) -> int:
    """Every scene with every brain in this process, on the direct path or through the node
    graph composed here (``scenes``: the run's, this worker's share of them with ``shard``;
    the graph's simulator picks the same share itself); 0 when all were scored, 1 when the
    run failed. Ctrl-C raises KeyboardInterrupt once the episodes stopped (finished ones
    keep their results: a rerun resumes)."""
    run = config.out
    if config.direct:
        from reacthuman.brain.run import make_brain
        from reacthuman.direct import run_direct
        from reacthuman.episode_host import EPISODES_PER_PROCESS

        chosen = [
            make_brain(name, config.base_url or "", config.api_key_env or "", 0.0, 120.0)
            for name in config.brains
        ]
        run_direct(
            [scene.spec for scene in scenes],
            chosen,
            run,
            config.settings,
            config.controller,
            config.policy_path,
            config.brain_timeout,
            on_row=on_row,
            videos=config.videos,
            legend=config.legend,
            episodes_per_process=EPISODES_PER_PROCESS
            if config.episodes_per_process is None
            else config.episodes_per_process,
        )
        return 0
    from reacthuman.ros.graph import compose

    settings = config.settings
    overrides: dict[str, Any] = {
        "run_dir": str(run),
        "brain": ",".join(config.brains),
        "base_url": config.base_url or "",
        "scenes": config.scenes,
        "limit": config.limit or 0,
        "shard": shard.index if shard else 0,
        "shards": shard.count if shard else 1,
        "width": settings.width,
        "height": settings.height,
        "frames": settings.frames,
        "brain_timeout": float(config.brain_timeout),
        "controller": config.controller,
        "policy_path": config.policy_path or "",
        "videos": config.videos,
        "legend": config.legend,
    }
    if config.api_key_env:
        overrides["api_key_env"] = config.api_key_env
    if config.episodes_per_process is not None:
        overrides["episodes_per_process"] = config.episodes_per_process
    if config.spine_link == "unitree":
        overrides.update(unitree_overrides())
    result = compose(
        overrides,
        record=config.record,
        parameters=Path(config.params) if config.params else None,
        on_row=on_row,
    )
    print(
        f"{'worker ' + shard.label + ': ' if shard else ''}{result.status.state}, "
        f"{result.status.episodes} episode(s), {len(result.bags)} bag(s), "
        f"ROS_DOMAIN_ID {result.domain_id}",
        file=sys.stderr,
    )
    if result.status.state == "stopped":
        raise KeyboardInterrupt
    if result.status.state == "failed":
        print(f"reacthuman: error: {result.status.reason}", file=sys.stderr)
        return 1
    return 0


def unitree_overrides() -> dict[str, object]:
    """Node parameters for a graph whose executions go over Unitree's interface on loopback:
    a DDS domain of its own (held like ROS_DOMAIN_ID), the spine on the G1 backend started by
    the simulator's execute messages without a soft start (the simulated G1 is standing at
    every freeze), the guard armed as soon as both ends are there.

    The guard's two watchdogs get the lock-step's patience (``LOCK_STEP_TIMEOUT``, the time
    the simulator itself waits for a tick's command): their 100 ms defaults are wall clock
    for a robot that keeps moving, but this robot stands frozen until each tick is answered,
    and a busy host stalls its heartbeat or the spine for longer (CI, two loaded cores: the
    heartbeat stalled 464 ms, and the trip latched damping into later executions). A tick
    answered by damping ends the run with the guard's reason (``unitree.link.GuardDamped``),
    never a score.
    """
    from reacthuman.ros.graph import free_domain
    from reacthuman.unitree.link import LOCK_STEP_TIMEOUT

    domain = free_domain()
    return {
        "state_timeout": LOCK_STEP_TIMEOUT,
        "command_timeout": LOCK_STEP_TIMEOUT,  # the simulator's own, the guard's the same
        "spine_link": "unitree",
        "backend": "g1",
        "start_on": "execute",
        "soft_start": 0.0,
        "arm": True,
        "network_interface": "lo",
        "dds_domain": domain,
    }
