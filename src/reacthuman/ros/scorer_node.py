"""scorer_node: scores each executed decision against ground truth and keeps the results.

For every episode it collects the scene, the ground truth, the executed decision and the
outcome, writes the score row to the run's results store (replacing an earlier row of the
same scene and brain, so resumed runs never duplicate), and publishes the RViz markers and
then the score.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from std_msgs.msg import String
from visualization_msgs.msg import MarkerArray

from reacthuman.brain.classify import ClassifierConfig
from reacthuman.out_folder import write_text
from reacthuman.ros import contract as c
from reacthuman.ros import convert
from reacthuman.ros.base import ReactNode
from reacthuman.ros.graph import run_node_process
from reacthuman.ros.markers import episode_markers
from reacthuman.run_folder import episode_folder, safe_name
from reacthuman.scoring.results import ResultsStore
from reacthuman.scoring.run import score_row

MODELS = (c.SceneMessage, c.TruthMessage, c.ExecuteMessage, c.OutcomeMessage)
PARTS: dict[str, type[c.Envelope]] = dict(zip(c.SCORED_FROM, MODELS, strict=True))


class ScorerNode(ReactNode):
    PARAMETERS: dict[str, Any] = {"classifier_config": ""}  # empty: config/classifier.yaml

    def __init__(self, overrides: dict[str, Any] | None = None, context: Any = None) -> None:
        super().__init__(c.SCORER_NODE, overrides, context)

        path = str(self.param("classifier_config"))
        self.config = ClassifierConfig.load(path) if path else None
        self.run_dir = Path(self.param("run_dir"))
        self.results = ResultsStore(self.run_dir / "results.sqlite")
        self.scored: dict[str, set[str]] = {}  # what the store holds, by brain folder
        for held in self.results.rows():
            self.scored.setdefault(safe_name(held.brain), set()).add(held.scene_id)
        self.scored_pub = self.create_publisher(String, c.SCORED, c.LATCHED)
        self._publish_scored()
        self.lock = threading.Lock()
        self.parts: dict[tuple[str, int], dict[str, Any]] = {}
        self.score_pub = self.create_publisher(String, c.SCORE, c.EVENTS)
        self.marker_pub = self.create_publisher(MarkerArray, c.MARKERS, c.EVENTS)
        for topic, model in PARTS.items():
            self.create_subscription(
                String, topic, lambda m, t=topic, k=model: self._on_part(t, k, m), c.EVENTS
            )

    def _on_part(self, topic: str, model: type[c.Envelope], msg: String) -> None:
        part = self.parse(model, msg, topic)
        if part is None:
            return
        key = (part.run_id, part.episode)
        with self.lock:
            parts = self.parts.setdefault(key, {})
            parts[topic] = part
            if len(parts) < len(PARTS):
                return
            del self.parts[key]
            scene, truth = parts[c.SCENE], parts[c.GROUND_TRUTH]
            execute, outcome = parts[c.EXECUTE], parts[c.OUTCOME]
            row = score_row(execute.decision, truth.truth, scene.spec, outcome.outcome, self.config)
            self.results.put(row)
            self.scored.setdefault(safe_name(row.brain), set()).add(row.scene_id)
            self._publish_scored()
            run = Path(self.param("run_dir"))
            folder = episode_folder(run, row.brain, row.scene_id)
            write_text(
                run, folder / "outcome.json", outcome.outcome.model_dump_json(indent=2) + "\n"
            )
        self.marker_pub.publish(
            episode_markers(
                scene.spec, truth.truth, execute.decision, execute.start_ns, part.episode
            )
        )
        self.score_pub.publish(
            convert.to_string(c.ScoreMessage(run_id=key[0], episode=key[1], row=row))
        )

    def _publish_scored(self) -> None:
        held = {brain: tuple(sorted(ids)) for brain, ids in sorted(self.scored.items())}
        message = c.RunFolderEpisodes(run_dir=str(self.run_dir.resolve()), episodes=held)
        self.scored_pub.publish(convert.to_string(message))

    def destroy_node(self) -> None:
        if hasattr(self, "results"):  # absent when the store could not be opened
            self.results.close()
        super().destroy_node()


def main(args: list[str] | None = None) -> None:
    run_node_process(ScorerNode, args)


if __name__ == "__main__":
    main()
