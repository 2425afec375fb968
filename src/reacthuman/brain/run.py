"""Decide many scenes with one brain: cached, concurrent, resumable.

Brains share one small interface (``name``, ``endpoint``, ``decoding()``, ``decide``), so a
baseline is selected exactly like a model. Decisions run with at most ``concurrency`` in
flight; each finished one is written to the response store at once (one transaction), so an
interrupted run resumes where it stopped.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from reacthuman.brain.baselines import BASELINES, oracle_plan
from reacthuman.brain.client import Decision
from reacthuman.brain.plan import ReactionPlan
from reacthuman.brain.prompt import PROMPT_VERSION
from reacthuman.brain.store import ResponseStore, decision_key, observation_hash
from reacthuman.observation import Observation
from reacthuman.sim.truth import GroundTruth


class Brain(Protocol):
    name: str
    endpoint: str | None

    def decoding(self) -> dict[str, Any]: ...

    async def decide(self, observation: Observation, folder: Path) -> Decision: ...


@dataclass
class BaselineBrain:
    name: str
    policy: Callable[[Observation], ReactionPlan]
    endpoint: str | None = None

    def decoding(self) -> dict[str, Any]:
        return {}

    async def decide(self, observation: Observation, folder: Path) -> Decision:
        return Decision(
            scene_id=observation.scene_id, brain=self.name, plan=self.policy(observation)
        )


@dataclass
class HeuristicBrain:
    """Motion from the head camera's pixels, danger from the legend's words (no LLM)."""

    name: str = "heuristic"
    endpoint: str | None = None

    def decoding(self) -> dict[str, Any]:
        return {}

    async def decide(self, observation: Observation, folder: Path) -> Decision:
        from reacthuman.brain.heuristic import heuristic_plan

        return Decision(
            scene_id=observation.scene_id, brain=self.name, plan=heuristic_plan(observation, folder)
        )


@dataclass
class OracleBrain:
    """Reads ground_truth.json beside the observation. Reports must mark it as the oracle.

    The only privileged brain: the node graph hands it ground truth, nobody else."""

    name: str = "oracle"
    privileged: bool = True
    endpoint: str | None = None

    def decoding(self) -> dict[str, Any]:
        return {}

    async def decide(self, observation: Observation, folder: Path) -> Decision:
        truth = GroundTruth.load(folder / "ground_truth.json")
        plan = oracle_plan(truth, observation.robot.pos, observation.robot.yaw)
        return Decision(scene_id=observation.scene_id, brain=self.name, plan=plan)


@dataclass
class ModelBrain:
    client: Any  # ModelClient

    @property
    def name(self) -> str:
        return self.client.model

    @property
    def endpoint(self) -> str | None:
        return self.client.base_url

    def decoding(self) -> dict[str, Any]:
        return self.client.decoding()

    async def decide(self, observation: Observation, folder: Path) -> Decision:
        return await self.client.decide(observation, folder)


def baseline(name: str) -> Brain:
    if name == "oracle":
        return OracleBrain()
    if name == "heuristic":
        return HeuristicBrain()
    try:
        return BaselineBrain(name, BASELINES[name])
    except KeyError:
        known = ", ".join([*BASELINES, "heuristic", "oracle"])
        raise ValueError(f"unknown brain {name!r} (known: {known})") from None


def find_observations(root: Path) -> list[Path]:
    """Scene folders (holding observation.json) under ``root``, or ``root`` itself."""
    if (root / "observation.json").is_file():
        return [root]
    return sorted(p.parent for p in root.glob("**/observation.json"))


@dataclass
class Outcome:
    folder: Path
    decision: Decision
    cached: bool


async def decide_one(
    brain: Brain,
    observation: Observation,
    folder: Path,
    store: ResponseStore | None = None,
    timeout: float | None = None,
) -> Outcome:
    """One decision, from the store when it was made before. A brain that raises or takes
    longer than ``timeout`` seconds gives a recorded R1 decision instead of an exception."""
    decoding = brain.decoding()
    obs_hash = observation_hash(folder)
    key = decision_key(brain.name, brain.endpoint, PROMPT_VERSION, obs_hash, decoding)
    cached = store.get(key) if store is not None else None
    if cached is not None:
        return Outcome(folder, cached, True)
    try:
        decision = await asyncio.wait_for(brain.decide(observation, folder), timeout)
    except TimeoutError:
        decision = _failed(brain, observation, f"the brain did not answer within {timeout:g} s")
    except Exception as exc:  # a crashing brain is a recorded R1, not a lost run
        decision = _failed(brain, observation, f"the brain failed: {type(exc).__name__}: {exc}")
    if store is not None and not decision.api_failure:
        store.put(key, obs_hash, decoding, decision)
    return Outcome(folder, decision, False)


def _failed(brain: Brain, observation: Observation, reason: str) -> Decision:
    return Decision(
        scene_id=observation.scene_id,
        brain=brain.name,
        endpoint=brain.endpoint,
        r1_reason=reason,
        api_failure=True,  # not stored: the next run tries again
    )


async def decide_all(
    folders: list[Path],
    brain: Brain,
    store: ResponseStore,
    concurrency: int = 8,
    on_outcome: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    semaphore = asyncio.Semaphore(concurrency)

    async def one(folder: Path) -> Outcome:
        observation = Observation.load(folder / "observation.json")
        async with semaphore:
            outcome = await decide_one(brain, observation, folder, store)
        if on_outcome is not None:
            on_outcome(outcome)
        return outcome

    return list(await asyncio.gather(*(one(folder) for folder in folders)))


def write_outcome(outcome: Outcome, out: Path, root: Path) -> Path:
    """``plan.json`` (the plan, or the R1 record) and ``reply.txt`` (raw replies) per scene."""
    relative = (
        outcome.folder.relative_to(root)
        if outcome.folder != root
        else Path(outcome.decision.scene_id)
    )
    target = out / relative
    target.mkdir(parents=True, exist_ok=True)
    (target / "plan.json").write_text(
        json.dumps(outcome.decision.model_dump(mode="json", exclude={"replies"}), indent=2) + "\n"
    )
    (target / "reply.txt").write_text(
        "\n\n----- next reply -----\n\n".join(outcome.decision.replies)
    )
    return target
