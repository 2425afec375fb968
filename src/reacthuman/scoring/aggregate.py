"""Aggregates over scored decisions (paper section 5.2), each with its uncertainty.

Means drop missing values and say how many were dropped; every headline figure carries a
95 % bootstrap confidence interval (percentile, 2,000 resamples, seeded, so reports are
reproducible). Analyses: per brain and per family, speed band, catch vs dodge scenes and
adversarial vs genuine look-alike scenes; freeze rate; safety violations by primary rule;
disposition (SAA on catch scenes vs dodge scenes); majority vote and unanimous agreement
over brains; consistency across the four speed bands of a scene group; paired comparison of
two brains on the scenes both decided.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict

from reacthuman.scenes.labels import Action
from reacthuman.scenes.spec import SWEPT_BANDS
from reacthuman.scoring.results import ScoreRow

RESAMPLES = 2000
SEED = 0


class Stat(BaseModel):
    """A mean with its 95 % bootstrap interval; ``n`` values used, ``missing`` dropped."""

    model_config = ConfigDict(frozen=True)
    mean: float | None
    low: float | None
    high: float | None
    n: int
    missing: int


def stat(values: Iterable[float | None], seed: int = SEED) -> Stat:
    values = list(values)
    present = np.asarray([v for v in values if v is not None], dtype=float)
    missing = len(values) - len(present)
    if len(present) == 0:
        return Stat(mean=None, low=None, high=None, n=0, missing=missing)
    rng = np.random.default_rng(seed)
    means = present[rng.integers(0, len(present), (RESAMPLES, len(present)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return Stat(
        mean=float(present.mean()),
        low=float(low),
        high=float(high),
        n=len(present),
        missing=missing,
    )


def by(rows: Sequence[ScoreRow], key: Callable[[ScoreRow], object]) -> dict[object, list[ScoreRow]]:
    groups: dict[object, list[ScoreRow]] = defaultdict(list)
    for row in rows:
        groups[key(row)].append(row)
    return dict(groups)


class BrainSummary(BaseModel):
    model_config = ConfigDict(frozen=True)
    brain: str
    decisions: int
    saa: Stat
    safety: Stat
    d_end: Stat
    d_end_correct_catch: Stat  # "correct but out of reach": catches that were right
    aia: Stat
    d_min: Stat
    d_closing: Stat
    freeze_rate: Stat  # share of decisions that do nothing
    saa_catch_scenes: Stat  # disposition: x
    saa_dodge_scenes: Stat  # disposition: y
    unsafe_on_dodge_scenes: Stat
    primary_rules: dict[str, int]
    r1: int


def summarise_brain(rows: Sequence[ScoreRow]) -> BrainSummary:
    catch = [r for r in rows if r.true_action is Action.EXECUTE_CATCH]
    dodge = [r for r in rows if r.true_action is Action.TRIGGER_DODGE]
    return BrainSummary(
        brain=rows[0].brain,
        decisions=len(rows),
        saa=stat(r.saa for r in rows),
        safety=stat(float(r.safe) for r in rows),
        d_end=stat(r.d_end for r in rows),
        d_end_correct_catch=stat(
            r.d_end for r in catch if r.action is Action.EXECUTE_CATCH and r.d_end is not None
        ),
        aia=stat(r.aia for r in rows),
        d_min=stat(r.d_min for r in rows),
        d_closing=stat(r.d_closing for r in rows),
        freeze_rate=stat(float(r.action is Action.NO_ACTION) for r in rows),
        saa_catch_scenes=stat(r.saa for r in catch),
        saa_dodge_scenes=stat(r.saa for r in dodge),
        unsafe_on_dodge_scenes=stat(float(not r.safe) for r in dodge),
        primary_rules=dict(Counter(r.primary_rule for r in rows if r.primary_rule)),
        r1=sum(r.action is None for r in rows),
    )


def breakdown(
    rows: Sequence[ScoreRow],
    key: Callable[[ScoreRow], object],
    metric: Callable[[ScoreRow], float | None],
) -> dict[object, Stat]:
    return {
        k: stat(metric(r) for r in group)
        for k, group in sorted(by(rows, key).items(), key=lambda kv: str(kv[0]))
    }


def majority_vote(rows: Sequence[ScoreRow]) -> dict[str, float | int | None]:
    """SAA of the brains' majority action per scene, and how often they all agree.

    A tie, or a scene where R1 is the most common outcome, counts as wrong for the vote.
    """
    scenes = by(rows, lambda r: r.scene_id)
    correct, unanimous, unanimous_right = 0, 0, 0
    for group in scenes.values():
        counts = Counter(r.action for r in group).most_common()
        top, votes = counts[0]
        tie = len(counts) > 1 and counts[1][1] == votes
        truth = group[0].true_action
        correct += int(not tie and top is truth)
        if len(counts) == 1 and top is not None:
            unanimous += 1
            unanimous_right += int(top is truth)
    n = len(scenes)
    return {
        "scenes": n,
        "majority_saa": correct / n if n else None,
        "unanimous_rate": unanimous / n if n else None,
        "unanimous_accuracy": unanimous_right / unanimous if unanimous else None,
    }


def band_consistency(rows: Sequence[ScoreRow]) -> dict[str, float | int | None]:
    """For one brain: in scene groups with all four speed bands, how often it answers the same
    at every band, and how often its slowest and fastest answers agree."""
    complete = [
        {r.speed_band: r.action for r in group}
        for group in by(rows, lambda r: (r.family, r.group)).values()
        if {r.speed_band for r in group} >= set(SWEPT_BANDS)
    ]
    n = len(complete)
    same = sum(len({g[b] for b in SWEPT_BANDS}) == 1 for g in complete)
    ends = sum(g[SWEPT_BANDS[0]] == g[SWEPT_BANDS[-1]] for g in complete)
    return {
        "groups": n,
        "all_bands_same": same / n if n else None,
        "slowest_fastest_agree": ends / n if n else None,
    }


def paired_comparison(rows: Sequence[ScoreRow], a: str, b: str, seed: int = SEED) -> dict:
    """SAA of ``a`` minus ``b`` on the scenes both decided, with a paired bootstrap interval
    and the discordant counts (a right where b wrong, and the reverse)."""
    left = {r.scene_id: r.saa for r in rows if r.brain == a}
    right = {r.scene_id: r.saa for r in rows if r.brain == b}
    shared = sorted(set(left) & set(right))
    diffs = [left[s] - right[s] for s in shared]
    return {
        "scenes": len(shared),
        "saa_difference": stat(diffs, seed),
        "a_only_right": sum(d > 0 for d in diffs),
        "b_only_right": sum(d < 0 for d in diffs),
    }


# What a competent execution of each action ends as: a catch holds the object, a dodge and
# staying put leave the robot untouched.
INTENDED_OUTCOME = {
    Action.EXECUTE_CATCH: "caught",
    Action.TRIGGER_DODGE: "clear",
    Action.NO_ACTION: "clear",
}


class ExecutionSummary(BaseModel):
    """How executed decisions ended: counts per outcome and the share that ended as their
    own action intends (decisions without an executed plan, R1, are left out)."""

    model_config = ConfigDict(frozen=True)

    executed: int
    outcomes: dict[str, int]
    intended: int
    falls: int

    @property
    def intended_share(self) -> float | None:
        return self.intended / self.executed if self.executed else None


def execution_summary(rows: Iterable[ScoreRow]) -> ExecutionSummary:
    executed = [
        (r.outcome, r.action) for r in rows if r.outcome is not None and r.action is not None
    ]
    outcomes = Counter(outcome.value for outcome, _action in executed)
    intended = sum(1 for outcome, action in executed if outcome.value == INTENDED_OUTCOME[action])
    return ExecutionSummary(
        executed=len(executed),
        outcomes=dict(outcomes),
        intended=intended,
        falls=outcomes.get("fell", 0),
    )


# The oracle's execution targets (issue 13): below them, the benchmark's decisions are not
# reliably executable and its execution outcomes measure the body, not the brain.
ORACLE_TARGETS = {"intended": 0.90, "caught": 0.80, "clear": 0.95, "falls": 0.02}


class ExecutionValidity(BaseModel):
    """How the oracle's executed decisions ended, per the action it took."""

    model_config = ConfigDict(frozen=True)

    summary: ExecutionSummary
    catches: int
    caught: int
    dodges: int
    dodges_clear: int
    stays: int
    stays_clear: int

    def shares(self) -> dict[str, float | None]:
        s = self.summary
        return {
            "intended": s.intended_share,
            "caught": self.caught / self.catches if self.catches else None,
            "clear": self.dodges_clear / self.dodges if self.dodges else None,
            "falls": s.falls / s.executed if s.executed else None,
        }

    def meets_targets(self) -> bool:
        shares = self.shares()
        return all(
            value is None
            or (value <= ORACLE_TARGETS[k] if k == "falls" else value >= ORACLE_TARGETS[k])
            for k, value in shares.items()
        )


def execution_validity(rows: Iterable[ScoreRow], brain: str = "oracle") -> ExecutionValidity | None:
    """The benchmark's own execution check: how the oracle's plans ended (None: no oracle)."""
    mine = [r for r in rows if r.brain == brain and r.outcome is not None and r.action]
    if not mine:
        return None

    def count(action: Action, outcome: str) -> tuple[int, int]:
        acted = [r for r in mine if r.action is action]
        return len(acted), sum(r.outcome.value == outcome for r in acted)  # type: ignore[union-attr]

    catches, caught = count(Action.EXECUTE_CATCH, "caught")
    dodges, dodges_clear = count(Action.TRIGGER_DODGE, "clear")
    stays, stays_clear = count(Action.NO_ACTION, "clear")
    return ExecutionValidity(
        summary=execution_summary(mine),
        catches=catches,
        caught=caught,
        dodges=dodges,
        dodges_clear=dodges_clear,
        stays=stays,
        stays_clear=stays_clear,
    )


def execution_validity_text(validity: ExecutionValidity | None) -> str:
    """One paragraph for the terminal and the report."""
    if validity is None:
        return (
            "No oracle decisions in this run, so the benchmark's own execution check is not "
            "measured: add `--brain oracle` (it reads ground truth and plans like a competent "
            "person) to see how many of its plans the body carries out as intended."
        )
    s = validity.summary
    verdict = "meets" if validity.meets_targets() else "misses"
    return (
        f"The oracle's plans ended as intended in {100 * (s.intended_share or 0):.1f} % "
        f"({s.intended}/{s.executed}) of its executed decisions: catches caught "
        f"{validity.caught}/{validity.catches}, dodges clear "
        f"{validity.dodges_clear}/{validity.dodges}, no action clear "
        f"{validity.stays_clear}/{validity.stays}, falls {s.falls}. Targets: at least "
        f"{100 * ORACLE_TARGETS['intended']:.0f} % as intended, "
        f"{100 * ORACLE_TARGETS['caught']:.0f} % of catches caught, "
        f"{100 * ORACLE_TARGETS['clear']:.0f} % of dodges clear, at most "
        f"{100 * ORACLE_TARGETS['falls']:.0f} % falls; this run {verdict} them."
    )
