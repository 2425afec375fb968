"""``reacthuman bench-sim``: how fast scenes simulate and render here, and what they cost.

Simulates scenes into a throw-away cache (so every scene is really simulated) and reports
seconds per scene cold (the first in a process: Genesis start-up and first build) and warm,
the split into build, physics, rendering, ground truth and writing, the floor (physics plus
rendering) and peak resident memory as it grows over the scenes.
"""

from __future__ import annotations

import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim.cache import ObservationCache
from reacthuman.sim.observe import Observer
from reacthuman.sim.settings import RenderSettings


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def bench(
    specs: Sequence[SceneSpec],
    settings: RenderSettings,
    on_scene: Callable[[int, dict], None] | None = None,
) -> dict:
    rows: list[dict[str, Any]] = []  # scene id and status, then seconds and megabytes
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="reacthuman-bench-") as cache_dir:
        observer = Observer(settings, ObservationCache(cache_dir))
        for index, spec in enumerate(specs):
            t = time.perf_counter()
            result = observer.observe(spec)
            row = {
                "scene_id": spec.scene_id,
                "status": result.status,
                "seconds": time.perf_counter() - t,
                **observer.last_timings,
                "peak_rss_mb": peak_rss_mb(),
            }
            rows.append(row)
            if on_scene is not None:
                on_scene(index, row)
    warm = rows[1:] or rows
    total = time.perf_counter() - started

    def median(key: str) -> float:
        return statistics.median(r.get(key, 0.0) for r in warm)

    floor = median("physics") + median("render")
    return {
        "scenes": len(rows),
        "resolution": f"{settings.width}x{settings.height}",
        "frames": 3 * settings.frames,
        "total_seconds": total,
        "cold_seconds": rows[0]["seconds"],
        "warm_median_seconds": median("seconds"),
        "warm_median": {k: median(k) for k in ("build", "physics", "render", "other", "write")},
        "floor_seconds": floor,
        "warm_over_floor": median("seconds") / floor if floor else float("nan"),
        "peak_rss_mb_first": rows[0]["peak_rss_mb"],
        "peak_rss_mb_at_10": rows[min(9, len(rows) - 1)]["peak_rss_mb"],
        "peak_rss_mb_last": rows[-1]["peak_rss_mb"],
        "statuses": {s: sum(r["status"] == s for r in rows) for s in ("ok", "rejected", "failed")},
        "rows": rows,
    }


def format_report(report: dict) -> str:
    m = report["warm_median"]
    lines = [
        f"{report['scenes']} scenes at {report['resolution']}, {report['frames']} frames each: "
        f"{report['total_seconds']:.0f} s in all",
        f"  cold (first scene, Genesis start-up and first build): {report['cold_seconds']:.1f} s",
        f"  warm median: {report['warm_median_seconds']:.2f} s per scene = build "
        f"{m['build']:.2f} + physics {m['physics']:.2f} + rendering {m['render']:.2f} + "
        f"ground truth and state {m['other']:.2f} + writing {m['write']:.2f}",
        f"  floor (physics + rendering): {report['floor_seconds']:.2f} s; warm / floor = "
        f"{report['warm_over_floor']:.2f}",
        f"  physics share {m['physics'] / report['warm_median_seconds']:.0%}, rendering share "
        f"{m['render'] / report['warm_median_seconds']:.0%}",
        f"  peak RSS: {report['peak_rss_mb_first']:.0f} MB after the first scene, "
        f"{report['peak_rss_mb_at_10']:.0f} MB after 10, {report['peak_rss_mb_last']:.0f} MB "
        f"after {report['scenes']}",
        f"  outcomes: {report['statuses']}",
    ]
    return "\n".join(lines)
