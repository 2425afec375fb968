"""brain_node: shows the run's brains the observation and publishes their plans.

It hosts every brain the ``brain`` parameter names (comma-separated) and answers each freeze
for the brain it names. It assembles the observation from the camera topics (the frames the
freeze message lists, by view and stamp), writes it as each brain's folder
(``episodes/<brain>/<scene>/observation``: observation.json and the frames, nothing else), and
decides in a worker thread so that a slow model never blocks the node; at a scene's first
freeze all of the scene's brains decide at once. It subscribes to ground truth only when one
of its brains is the oracle, the one privileged reference brain, and hands it over as an
argument, never a file.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
from sensor_msgs.msg import Image
from std_msgs.msg import String

from reacthuman.brain.client import Decision
from reacthuman.brain.run import brain_names, brain_sees_truth, make_brain
from reacthuman.brain.runner import BrainRunner
from reacthuman.observation import Observation
from reacthuman.ros import contract as c
from reacthuman.ros import convert
from reacthuman.ros.base import Mailbox, ReactNode
from reacthuman.ros.graph import run_node_process
from reacthuman.run_folder import episode_folder, write_decision, write_observations
from reacthuman.scenes.truth import GroundTruth


class BrainNode(ReactNode):
    PARAMETERS: dict[str, Any] = {
        "api_key_env": "",  # variable holding the key; empty: OPENROUTER_API_KEY, OPENAI_API_KEY
        "temperature": 0.0,
        "brain_timeout": 120.0,  # s for one decision; later it is a recorded R1
        "frame_timeout": 10.0,  # s to wait for the frames a freeze message lists
    }

    def __init__(
        self, overrides: dict[str, Any] | None = None, brain: Any = None, context: Any = None
    ) -> None:
        super().__init__(c.BRAIN_NODE, overrides, context)
        if brain is not None:  # one made by the caller (tests)
            self.brains = {brain.name: brain}
        else:
            self.brains = {
                name: make_brain(
                    name,
                    str(self.param("base_url")),
                    str(self.param("api_key_env")),
                    float(self.param("temperature")),
                    float(self.param("brain_timeout")),
                )
                for name in brain_names(str(self.param("brain")))
            }
        self.runner = BrainRunner(Path(self.param("run_dir")) / "responses.sqlite")
        self.frames = Mailbox()
        self.truths = Mailbox()
        self.decided = Mailbox()  # (run, scene, brain) -> its decision, gathered per scene
        self.asked: set[tuple[str, str, str]] = set()  # (run, scene, brain) being decided
        self.strangers: set[str] = set()  # brains asked for that this node does not host
        self.plan_pub = self.create_publisher(String, c.PLAN, c.EVENTS)
        # Plans are published from the deciding threads: never while the node is destroyed.
        self._publishing = threading.Lock()
        self._closed = False
        images = c.images(int(self.param("frames")))
        for view in c.CameraName:
            self.create_subscription(
                Image, c.image_topic(view), lambda m, v=view: self._on_image(v, m), images
            )
        self.create_subscription(String, c.FREEZE, self._on_freeze, c.EVENTS)

        self.sees_truth = any(brain_sees_truth(b) for b in self.brains.values())
        if self.sees_truth:
            self.create_subscription(String, c.GROUND_TRUTH, self._on_truth, c.EVENTS)

    def _on_image(self, view: c.CameraName, msg: Image) -> None:
        try:
            self.frames.put((view, convert.ns_of(msg.header.stamp)), convert.image_array(msg))
        except convert.MessageError as exc:
            self.get_logger().error(f"{c.image_topic(view)}: {exc}")

    def _on_truth(self, msg: String) -> None:
        truth = self.parse(c.TruthMessage, msg, c.GROUND_TRUTH)
        if truth is not None:
            self.truths.put((truth.run_id, truth.episode), truth.truth)

    def _on_freeze(self, msg: String) -> None:
        freeze = self.parse(c.FreezeMessage, msg, c.FREEZE)
        if freeze is None:
            return
        freeze = self._addressed(freeze)
        if freeze.brain not in self.brains:
            if freeze.brain not in self.strangers:
                self.strangers.add(freeze.brain)
                self.get_logger().warning(
                    f"{c.FREEZE}: brain {freeze.brain!r} is not one of this node's "
                    f"({', '.join(self.brains)}): start it with brain:= naming every brain "
                    "of the run"
                )
            return
        threading.Thread(target=self._decide, args=(freeze,), daemon=True).start()

    def _addressed(self, freeze: c.FreezeMessage) -> c.FreezeMessage:
        """The freeze with its brain named: a live window's names none and asks the first."""
        if freeze.brain:
            return freeze
        return freeze.model_copy(update={"brain": next(iter(self.brains))})

    def _take_frames(
        self, freeze: c.FreezeMessage
    ) -> tuple[dict[tuple[c.CameraName, float], np.ndarray], list[str]]:
        """The frames the freeze lists (by view and stamp), and those that never came."""
        deadline = time.monotonic() + float(self.param("frame_timeout"))
        frames: dict[tuple[c.CameraName, float], np.ndarray] = {}
        missing = []
        for frame in freeze.observation.frames:
            ns = freeze.window_start_ns + convert.seconds_to_ns(frame.t)
            image = self.frames.take((frame.view, ns), max(deadline - time.monotonic(), 0.0))
            if image is None:
                missing.append(f"{frame.view.value}@{frame.t:g}s")
            else:
                frames[(frame.view, frame.t)] = image
        return frames, missing

    def _decide(self, freeze: c.FreezeMessage) -> None:
        """The plan for the freeze's episode. At a scene's first freeze every brain it lists
        that this node hosts decides at once (the scene's later episodes show the same
        observation again), so a scene waits for its slowest model, not for their sum."""
        freeze = self._addressed(freeze)
        observation = freeze.observation
        run_dir = Path(self.param("run_dir"))
        frames, missing = self._take_frames(freeze)
        key = (freeze.run_id, observation.scene_id)
        if missing:
            decision = Decision(
                scene_id=observation.scene_id,
                brain=freeze.brain,
                r1_reason=f"frames never arrived: {', '.join(missing)}",
                api_failure=True,
            )
            folder = episode_folder(run_dir, freeze.brain, observation.scene_id)
            write_decision(folder, decision, run_dir)
        else:
            names = [b for b in dict.fromkeys((freeze.brain, *freeze.brains)) if b in self.brains]
            asking = [b for b in names if (*key, b) not in self.asked]
            self.asked.update((*key, b) for b in asking)
            truth = None
            if self.sees_truth:  # every episode's truth is taken: none piles up
                needed = any(brain_sees_truth(self.brains[b]) for b in asking)
                # None when it never came: the oracle's decision is then an R1
                truth = self.truths.take((freeze.run_id, freeze.episode), 10.0 if needed else 0.0)
            if asking:
                self._decide_all(asking, observation, frames, truth, freeze.run_id)
            wait = float(self.param("brain_timeout")) + 5.0
            decided: Decision | None = self.decided.take((*key, freeze.brain), wait)
            if decided is None:  # its decision is still being made for another freeze
                return
            decision = decided
        if decision.r1_reason:
            self.get_logger().warning(f"{observation.scene_id}: R1: {decision.r1_reason}")
        plan = c.PlanMessage(run_id=freeze.run_id, episode=freeze.episode, decision=decision)
        with self._publishing:
            if not self._closed:
                self.plan_pub.publish(convert.to_string(plan))

    def _decide_all(
        self,
        names: list[str],
        observation: Observation,
        frames: dict[tuple[c.CameraName, float], np.ndarray],
        truth: GroundTruth | None,
        run_id: str,
    ) -> None:
        """Each named brain's decision on the observation, made together, into ``decided``."""
        run_dir = Path(self.param("run_dir"))
        folders = [episode_folder(run_dir, name, observation.scene_id) for name in names]
        write_observations(folders, observation, frames, run_dir)
        brains = [self.brains[name] for name in names]
        timeout = float(self.param("brain_timeout"))
        decisions = self.runner.decide_all(brains, observation, folders, timeout, truth)
        for name, folder, decision in zip(names, folders, decisions, strict=True):
            write_decision(folder, decision, run_dir)
            self.decided.put((run_id, observation.scene_id, name), decision)

    def destroy_node(self) -> None:
        if hasattr(self, "_publishing"):  # absent when __init__ failed (a store it cannot open)
            with self._publishing:
                self._closed = True
        if hasattr(self, "runner"):
            self.runner.close()
        super().destroy_node()


def main(args: list[str] | None = None) -> None:
    run_node_process(BrainNode, args)


if __name__ == "__main__":
    main()
