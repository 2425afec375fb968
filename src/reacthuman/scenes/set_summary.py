"""A scene set in counts: per family, label, speed band and adversarial flag."""

from __future__ import annotations

from collections import Counter

from reacthuman.scenes.labels import Action
from reacthuman.scenes.set_models import (
    Scene,
)
from reacthuman.scenes.spec import Family, SpeedBand


def summarise(scenes: list[Scene]) -> dict[str, Counter]:
    """Counts per family, label, speed band and adversarial flag."""
    return {
        "family": Counter(s.spec.family.value for s in scenes),
        "label": Counter(s.metadata.label.value for s in scenes),
        "speed_band": Counter(s.spec.speed_band.value for s in scenes),
        "adversarial": Counter("adversarial" if s.spec.adversarial else "genuine" for s in scenes),
    }


def format_summary(scenes: list[Scene]) -> str:
    """A plain-text summary a person reads in a terminal."""
    total = len(scenes)
    if total == 0:
        return "0 scenes"
    counts = summarise(scenes)
    lines = [f"{total} scenes, {len(counts['family'])} families"]
    by_family_label: dict[str, Counter] = {}
    for s in scenes:
        by_family_label.setdefault(s.spec.family.value, Counter())[s.metadata.label.value] += 1
    labels = [a.value for a in Action]
    header = f"  {'family':<18}{'scenes':>7}" + "".join(f"{a:>15}" for a in labels)
    lines += ["", header]
    for family in Family:
        if family.value in counts["family"]:
            row = by_family_label[family.value]
            lines.append(
                f"  {family.value:<18}{counts['family'][family.value]:>7}"
                + "".join(f"{row.get(a, 0):>15}" for a in labels)
            )

    def share(counter: Counter, keys: list[str]) -> str:
        return ", ".join(
            f"{k} {counter.get(k, 0)} ({100.0 * counter.get(k, 0) / total:.1f} %)" for k in keys
        )

    lines += [
        "",
        "labels:      " + share(counts["label"], labels),
        "speed bands: " + share(counts["speed_band"], [b.value for b in SpeedBand]),
        "objects:     " + share(counts["adversarial"], ["genuine", "adversarial"]),
    ]
    return "\n".join(lines)
