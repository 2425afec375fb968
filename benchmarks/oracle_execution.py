"""The oracle's execution validity on a scene set, per family, in worker processes.

For every scene: play it to the freeze (small frames: nothing looks at them), plan with the
oracle from the simulated ground truth, execute on the G1 and judge. It prints the per-family
table of the note on issue 13 (as intended, catches caught, dodges clear, falls, and how many
catches the planner found) and writes one JSON line per scene. ``reacthuman bench --brain
oracle --scenes SET`` measures the same through the node graph, with rendering and bags.

    .venv/bin/python benchmarks/oracle_execution.py SET --jobs 2 --out oracle.jsonl
    .venv/bin/python benchmarks/oracle_execution.py SET --families object_drop --per-family 3
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from multiprocessing import get_context
from pathlib import Path

INTENDED = {"EXECUTE_CATCH": "caught", "TRIGGER_DODGE": "clear", "NO_ACTION": "clear"}


def _work(job: tuple[list[str], str, str]) -> None:
    specs, out, controller_name = job
    from reacthuman.brain.client import Decision
    from reacthuman.brain.oracle import oracle_plan
    from reacthuman.runner import execute_decision, play
    from reacthuman.scenes.spec import SceneSpec
    from reacthuman.sim.settings import RenderSettings
    from reacthuman.sim.simulator import Simulator
    from reacthuman.spine.controller import make_controller

    simulator = Simulator()
    controller = make_controller(controller_name)
    settings = RenderSettings(width=64, height=36)
    for path in specs:
        spec = SceneSpec.load(path)
        played = play(simulator, spec, settings, controller)
        try:
            plan = oracle_plan(played.truth, spec.observer.pos, spec.observer.yaw)
            decision = Decision(scene_id=spec.scene_id, brain="oracle", plan=plan)
            outcome = execute_decision(played, decision, controller)
        finally:
            simulator.destroy(played.episode)
        record = {
            "scene": spec.scene_id,
            "family": spec.family.value,
            "band": spec.speed_band.value,
            "truth": played.truth.action.value,
            "outcome": outcome.result.value,
            "planned_catch": plan.intent.startswith("catch"),
            "walking": plan.walking_duration,
            "min_hand_distance": round(outcome.min_hand_distance, 3),
            "first_contact": None if outcome.first_contact is None else outcome.first_contact.part,
        }
        with open(out, "a") as handle:
            handle.write(json.dumps(record) + "\n")


def table(records: list[dict]) -> str:
    header = (
        "| family | scenes | as intended | catches caught | dodges clear | no action clear "
        "| falls | catches planned |\n|---|---|---|---|---|---|---|---|"
    )
    rows = [header]
    families: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        families[r["family"]].append(r)
    for family, group in [*sorted(families.items()), ("all", records)]:
        catches = [r for r in group if r["truth"] == "EXECUTE_CATCH"]
        dodges = [r for r in group if r["truth"] == "TRIGGER_DODGE"]
        stays = [r for r in group if r["truth"] == "NO_ACTION"]
        intended = sum(r["outcome"] == INTENDED[r["truth"]] for r in group)
        caught = sum(r["outcome"] == "caught" for r in catches)
        clear = sum(r["outcome"] == "clear" for r in dodges)
        still = sum(r["outcome"] == "clear" for r in stays)
        falls = sum(r["outcome"] == "fell" for r in group)
        planned = sum(r["planned_catch"] for r in catches)
        share = f" ({100 * intended / len(group):.1f} %)" if family == "all" else ""
        rows.append(
            f"| {family} | {len(group)} | {intended}/{len(group)}{share} | "
            f"{caught}/{len(catches)} | {clear}/{len(dodges)} | {still}/{len(stays)} | "
            f"{falls} | {planned}/{len(catches)} |"
        )
    planned = [r for r in records if r["truth"] == "EXECUTE_CATCH" and r["planned_catch"]]
    made = sum(r["outcome"] == "caught" for r in planned)
    rows.append(f"\nCaught where the planner found a catch: {made}/{len(planned)}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("set", help="a scene set folder (reacthuman scenes generate)")
    parser.add_argument("--out", default="runs/oracle_execution.jsonl")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--per-family", type=int, default=None)
    parser.add_argument("--families", default="", help="comma-separated (default: all)")
    parser.add_argument("--controller", default="g1")
    args = parser.parse_args()

    root = Path(args.set)
    families = (
        args.families.split(",")
        if args.families
        else sorted(d.name for d in root.iterdir() if d.is_dir())
    )
    specs = [
        str(p)
        for family in families
        for p in sorted((root / family).glob("*/spec.json"))[: args.per_family]
    ]
    if not specs:
        raise SystemExit(f"no scenes under {root} (a set folder has <family>/<scene>/spec.json)")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.unlink(missing_ok=True)
    jobs = [(specs[i :: args.jobs], str(out), args.controller) for i in range(args.jobs)]
    with get_context("spawn").Pool(args.jobs) as pool:
        pool.map(_work, jobs)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    print(table(records))


if __name__ == "__main__":
    main()
