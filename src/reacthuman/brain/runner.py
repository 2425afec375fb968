"""Decisions from synchronous code (the direct path, the brain node): one event loop in a
thread of its own runs the asynchronous brains, so neither caller needs one."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from reacthuman.brain.client import Decision
from reacthuman.brain.run import Brain, decide_one
from reacthuman.brain.store import ResponseStore
from reacthuman.observation import Observation
from reacthuman.scenes.truth import GroundTruth

DEFAULT_BRAIN_TIMEOUT = 120.0  # s a brain may take to answer before the decision is an R1


class BrainRunner:
    """Decisions from synchronous code: one event loop in its own thread for the whole run
    (model clients keep their HTTP connections on it), and the response store opened there."""

    def __init__(self, store_path: Path | None) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._store: ResponseStore | None = self._call(self._open(store_path))

    async def _open(self, path: Path | None) -> ResponseStore | None:
        return ResponseStore(path) if path is not None else None

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def decide(
        self,
        brain: Brain,
        observation: Observation,
        scene: Path,
        timeout: float,
        truth: GroundTruth | None = None,
    ) -> Decision:
        """The brain's decision on the scene whose brain folder is written in ``scene`` (an
        R1 record when it fails or takes longer than ``timeout``); ``truth`` reaches the
        oracle only (``decide_one``)."""
        outcome = self._call(decide_one(brain, observation, scene, self._store, timeout, truth))
        return outcome.decision

    def decide_all(
        self,
        brains: list[Brain],
        observation: Observation,
        scenes: list[Path],
        timeout: float,
        truth: GroundTruth | None = None,
    ) -> list[Decision]:
        """Every brain's decision on one observation at once (``scenes[i]``: brain i's folder,
        already written; ``truth`` reaches the oracle only): a scene's brains wait for the
        slowest model, not for the sum of them."""

        async def gather() -> list[Decision]:
            outcomes = await asyncio.gather(
                *(
                    decide_one(brain, observation, scene, self._store, timeout, truth)
                    for brain, scene in zip(brains, scenes, strict=True)
                )
            )
            return [outcome.decision for outcome in outcomes]

        return self._call(gather())

    def close(self) -> None:
        async def shut() -> None:
            if self._store is not None:
                self._store.close()

        if self._thread.is_alive():
            self._call(shut())
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
