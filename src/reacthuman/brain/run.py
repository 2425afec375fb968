"""Decide many scenes with one brain: cached, concurrent, resumable.

Brains share one small interface (``name``, ``endpoint``, ``decoding()``, ``decide``), so a
baseline is selected exactly like a model. A brain is shown its scene's brain folder
(``reacthuman.layout``: observation.json and the frames, nothing else); ground truth is
handed, as an argument, to the oracle alone (``decide_one``). Decisions run with at most
``concurrency`` in flight; each finished one is written to the response store at once (one
transaction), so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from pydantic import ValidationError

from reacthuman.brain.baselines import BASELINES
from reacthuman.brain.client import Decision, ModelClient, api_key_from_env
from reacthuman.brain.oracle import oracle_plan
from reacthuman.brain.plan import ReactionPlan
from reacthuman.brain.prompt import PROMPT_VERSION
from reacthuman.brain.store import ResponseStore, decision_key, observation_hash
from reacthuman.layout import GROUND_TRUTH_FILE, brain_folder
from reacthuman.observation import Observation, read_observation_of
from reacthuman.out_folder import write_text
from reacthuman.safe_files import DOCUMENT_LIMIT, read_inside
from reacthuman.scenes.truth import GroundTruth


class Brain(Protocol):
    """``decide`` gets the observation and its brain folder (frame files are relative to
    it), and nothing else. ``name`` and ``endpoint`` are read-only (a model brain's are
    properties of its client)."""

    @property
    def name(self) -> str: ...

    @property
    def endpoint(self) -> str | None: ...

    def decoding(self) -> dict[str, Any]: ...

    async def decide(self, observation: Observation, folder: Path) -> Decision: ...


class PrivilegedBrain(Protocol):
    """A reference brain that is handed ground truth (the oracle; ``privileged`` is True)."""

    name: str
    endpoint: str | None
    privileged: bool

    def decoding(self) -> dict[str, Any]: ...

    async def decide(
        self, observation: Observation, folder: Path, truth: GroundTruth | None
    ) -> Decision: ...


def brain_sees_truth(brain: Any) -> bool:
    """Only the oracle is given ground truth; every other brain sees the observation only."""
    return bool(getattr(brain, "privileged", False))


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
    """Motion from the head camera's pixels; danger from how the motion looks, or from the
    legend's words under the legend ablation (no LLM)."""

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
    """Decides from the ground truth it is handed (``decide_one`` passes it; it never looks
    for files). Reports must mark it as the oracle.

    The only privileged brain: the direct path, ``reacthuman decide`` and the node graph hand
    it ground truth, nobody else."""

    name: str = "oracle"
    privileged: bool = True
    endpoint: str | None = None

    def decoding(self) -> dict[str, Any]:
        return {}

    async def decide(
        self, observation: Observation, folder: Path, truth: GroundTruth | None = None
    ) -> Decision:
        if truth is None:
            raise ValueError(f"the oracle was handed no ground truth for {observation.scene_id}")
        if truth.scene_id != observation.scene_id:
            raise ValueError(
                f"the oracle was handed the ground truth of {truth.scene_id} "
                f"for {observation.scene_id}"
            )
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


BASELINE_NAMES = (*BASELINES, "heuristic", "oracle")


def baseline(name: str) -> Brain:
    if name == "oracle":
        return OracleBrain()
    if name == "heuristic":
        return HeuristicBrain()
    try:
        return BaselineBrain(name, BASELINES[name])
    except KeyError:
        known = ", ".join(BASELINE_NAMES)
        raise ValueError(f"unknown brain {name!r} (known: {known})") from None


def make_brain(
    name: str,
    base_url: str = "",
    api_key_env: str = "",
    temperature: float = 0.0,
    timeout: float = 120.0,
) -> Brain:
    """A baseline by name, else the model ``name`` at ``base_url`` (key from the environment)."""
    if not base_url or name in BASELINE_NAMES:
        return baseline(name)
    key = api_key_from_env(api_key_env or None)
    return ModelBrain(ModelClient(name, base_url, key, temperature=temperature, timeout=timeout))


def brain_names(text: str) -> list[str]:
    """The brains a run evaluates, as its ``brain`` parameter names them: one name, or several
    separated by commas (``oracle,heuristic``; model ids have no commas), each once."""
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise ValueError(f"brain {text!r}: an empty name (brains are separated by one comma)")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"brain {text!r}: {', '.join(repeated)} named more than once")
    return names


@dataclass
class Outcome:
    scene: Path  # the scene's folder; the brain was shown its brain folder
    decision: Decision
    cached: bool


async def decide_one(
    brain: Brain,
    observation: Observation,
    scene: Path,
    store: ResponseStore | None = None,
    timeout: float | None = None,
    truth: GroundTruth | None = None,
) -> Outcome:
    """One decision on the scene in ``scene`` (its brain folder already written), from the
    store when it was made before. The brain is shown the brain folder only; ``truth`` is
    handed to a privileged brain (the oracle) and to no other. A brain that raises or takes
    longer than ``timeout`` seconds gives a recorded R1 decision instead of an exception."""
    folder = brain_folder(scene)
    decoding = brain.decoding()
    try:  # off the event loop: other scenes' requests go on while this one's files are read
        obs_hash = await asyncio.to_thread(observation_hash, folder)
    except (OSError, ValueError) as exc:  # a frame missing or unreadable: this scene's error
        return Outcome(scene, _failed(brain, observation, f"cannot read its frames: {exc}"), False)
    key = decision_key(brain.name, brain.endpoint, PROMPT_VERSION, obs_hash, decoding)
    cached = store.get(key) if store is not None else None
    if cached is not None:
        return Outcome(scene, cached, True)
    try:
        if brain_sees_truth(brain):
            deciding = cast(PrivilegedBrain, brain).decide(observation, folder, truth)
        else:
            deciding = brain.decide(observation, folder)
        decision = await asyncio.wait_for(deciding, timeout)
    except TimeoutError:
        decision = _failed(brain, observation, f"the brain did not answer within {timeout:g} s")
    except Exception as exc:  # a crashing brain is a recorded R1, not a lost run
        decision = _failed(brain, observation, f"the brain failed: {type(exc).__name__}: {exc}")
    if store is not None and not decision.api_failure:
        store.put(key, obs_hash, decoding, decision)
    return Outcome(scene, decision, False)


def _failed(brain: Brain, observation: Observation | str, reason: str) -> Decision:
    """An R1 record that is not stored (``api_failure``): the next run tries again.
    ``observation``, or the scene's id where its observation could not be read."""
    return Decision(
        scene_id=observation if isinstance(observation, str) else observation.scene_id,
        brain=brain.name,
        endpoint=brain.endpoint,
        r1_reason=reason,
        api_failure=True,  # not stored: the next run tries again
    )


def read_observation(scene: Path) -> Observation:
    """The observation in a scene's brain folder; ValueError naming the file and the problem
    (missing, a link out of the scene, not UTF-8, not JSON, a frame path that leaves the
    folder, ...)."""
    return read_observation_of(brain_folder(scene))


def read_truth(scene: Path) -> GroundTruth:
    """The ground truth beside a scene's brain folder (no link out of the scene, within
    ``safe_files``' limit); ValueError naming the file."""
    path = scene / GROUND_TRUTH_FILE
    try:
        return GroundTruth.model_validate_json(read_inside(path, scene, DOCUMENT_LIMIT))
    except OSError as exc:
        raise ValueError(f"{path}: cannot read ({exc.strerror})") from None
    except ValidationError as exc:
        raise ValueError(f"{path}: not valid ground truth ({exc.errors()[0]['msg']})") from None


async def decide_all(
    scenes: list[Path],
    brain: Brain,
    store: ResponseStore,
    concurrency: int = 8,
    on_outcome: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Every scene folder (``reacthuman.layout.find_scenes``) decided by ``brain``. The
    oracle is handed each scene's ground_truth.json, read here beside its brain folder."""
    semaphore = asyncio.Semaphore(concurrency)

    async def one(scene: Path) -> Outcome:
        try:  # files are read off the event loop, as every brain path reads them
            observation = await asyncio.to_thread(read_observation, scene)
        except ValueError as exc:  # that scene's error; the others go on
            outcome = Outcome(scene, _failed(brain, scene.name, str(exc)), False)
            if on_outcome is not None:
                on_outcome(outcome)
            return outcome
        async with semaphore:
            try:
                truth = (
                    await asyncio.to_thread(read_truth, scene) if brain_sees_truth(brain) else None
                )
            except ValueError as exc:  # recorded, not stored: the next run tries again
                problem = f"no ground truth for the oracle: {exc}"
                outcome = Outcome(scene, _failed(brain, observation, problem), False)
            else:
                outcome = await decide_one(brain, observation, scene, store, truth=truth)
        if on_outcome is not None:
            on_outcome(outcome)
        return outcome

    return list(await asyncio.gather(*(one(scene) for scene in scenes)))


def write_outcome(outcome: Outcome, out: Path, root: Path) -> Path:
    """``plan.json`` (the plan, or the R1 record) and ``reply.txt`` (raw replies) per scene,
    at the scene's place under ``root`` (``out/<family>/<scene_id>/``)."""
    relative = (
        outcome.scene.relative_to(root)
        if outcome.scene != root
        else Path(outcome.decision.scene_id)
    )
    target = out / relative
    write_text(  # never through a symbolic link out of ``out``
        out,
        target / "plan.json",
        json.dumps(outcome.decision.model_dump(mode="json", exclude={"replies"}), indent=2) + "\n",
    )
    write_text(
        out, target / "reply.txt", "\n\n----- next reply -----\n\n".join(outcome.decision.replies)
    )
    return target
