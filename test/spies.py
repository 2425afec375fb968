"""Brains that note what they were shown (for tests of what a brain may see)."""

from __future__ import annotations

from reacthuman.brain.baselines import always_dodge
from reacthuman.brain.client import Decision
from reacthuman.brain.run import OracleBrain
from reacthuman.scenes.truth import GroundTruth


class Spy:
    """A brain that notes what its folder holds when it decides, and dodges."""

    name, endpoint = "spy", None

    def __init__(self) -> None:
        self.seen: dict[str, set[str]] = {}

    def decoding(self):
        return {}

    async def decide(self, observation, folder, *extra):
        assert not extra, "a brain that is not the oracle was handed more than its folder"
        self.seen[observation.scene_id] = {p.name for p in folder.iterdir()}
        return Decision(scene_id=observation.scene_id, brain=self.name, plan=always_dodge(None))


class SpyOracle(OracleBrain):
    """The oracle, noting the ground truth it is handed and what its folder holds."""

    def __init__(self) -> None:
        super().__init__(name="spy-oracle")
        self.handed: dict[str, GroundTruth | None] = {}
        self.seen: dict[str, set[str]] = {}

    async def decide(self, observation, folder, truth=None):
        self.handed[observation.scene_id] = truth
        self.seen[observation.scene_id] = {p.name for p in folder.iterdir()}
        return await super().decide(observation, folder, truth)
