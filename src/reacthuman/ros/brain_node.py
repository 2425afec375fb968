"""brain_node: shows the configured brain the observation and publishes its plan.

It assembles the observation from the camera topics (the frames the freeze message lists,
by view and stamp), writes it as the brain's folder (``episodes/<brain>/<scene>/observation``:
observation.json and the frames, nothing else), and decides in a worker thread so that a
slow model never blocks the node. It subscribes to ground truth only when its brain is the
oracle, the one privileged reference brain, and hands it over as an argument, never a file.
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
from reacthuman.brain.run import brain_sees_truth, make_brain
from reacthuman.ros import contract as c
from reacthuman.ros import convert
from reacthuman.ros.base import Mailbox, ReactNode
from reacthuman.ros.graph import run_node_process
from reacthuman.run_folder import episode_folder, write_decision, write_observation
from reacthuman.runner import BrainRunner


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

        self.brain = brain or make_brain(
            str(self.param("brain")),
            str(self.param("base_url")),
            str(self.param("api_key_env")),
            float(self.param("temperature")),
            float(self.param("brain_timeout")),
        )
        self.runner = BrainRunner(Path(self.param("run_dir")) / "responses.sqlite")
        self.frames = Mailbox()
        self.truths = Mailbox()
        self.plan_pub = self.create_publisher(String, c.PLAN, c.EVENTS)
        for view in c.CameraName:
            self.create_subscription(
                Image, c.image_topic(view), lambda m, v=view: self._on_image(v, m), c.IMAGES
            )
        self.create_subscription(String, c.FREEZE, self._on_freeze, c.EVENTS)

        if brain_sees_truth(self.brain):
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
        threading.Thread(target=self._decide, args=(freeze,), daemon=True).start()

    def _decide(self, freeze: c.FreezeMessage) -> None:
        observation = freeze.observation
        deadline = time.monotonic() + float(self.param("frame_timeout"))
        frames: dict[tuple[c.CameraName, float], np.ndarray] = {}
        missing = []
        for frame in observation.frames:
            ns = freeze.window_start_ns + convert.seconds_to_ns(frame.t)
            image = self.frames.take((frame.view, ns), max(deadline - time.monotonic(), 0.0))
            if image is None:
                missing.append(f"{frame.view.value}@{frame.t:g}s")
            else:
                frames[(frame.view, frame.t)] = image
        folder = episode_folder(Path(self.param("run_dir")), self.brain.name, observation.scene_id)
        if missing:
            decision = Decision(
                scene_id=observation.scene_id,
                brain=self.brain.name,
                r1_reason=f"frames never arrived: {', '.join(missing)}",
                api_failure=True,
            )
        else:
            write_observation(folder, observation, frames)
            truth = None
            if brain_sees_truth(self.brain):  # the oracle: None if it never came (an R1)
                truth = self.truths.take((freeze.run_id, freeze.episode), 10.0)
            decision = self.runner.decide(
                self.brain, observation, folder, float(self.param("brain_timeout")), truth
            )
        folder.mkdir(parents=True, exist_ok=True)
        write_decision(folder, decision)
        if decision.r1_reason:
            self.get_logger().warning(f"{observation.scene_id}: R1: {decision.r1_reason}")
        self.plan_pub.publish(
            convert.to_string(
                c.PlanMessage(run_id=freeze.run_id, episode=freeze.episode, decision=decision)
            )
        )

    def destroy_node(self) -> None:
        self.runner.close()
        super().destroy_node()


def main(args: list[str] | None = None) -> None:
    run_node_process(BrainNode, args)


if __name__ == "__main__":
    main()
