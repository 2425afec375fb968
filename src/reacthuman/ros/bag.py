"""rosbag2 MCAP bags of episodes (written with ``rosbags``, pure Python) and re-scoring one.

A bag is written under ``.<name>.partial/<name>`` (so its storage file is already
``<name>.mcap``) and moved to ``<name>`` when the episode's score was recorded, so a bag
outside a ``.partial`` folder is always a finished episode; ``/tf`` is written as standard
``tf2_msgs/msg/TFMessage`` (live it travels as ``geometry_msgs/TransformStamped`` on
``/reacthuman/tf``, because tf2_msgs is not published on PyPI). Its MCAP file carries the
CRCs the format defines (``mcap_crc``), checked when the bag is read: a damaged bag is that
bag's error, never a wrong score.
"""

from __future__ import annotations

import functools
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reacthuman.out_folder import inside
from reacthuman.ros import contract, mcap_crc
from reacthuman.scoring.results import ScoreRow

PARTIAL = ".partial"
TF_IN_BAG = "/tf"


@functools.cache
def _typestore() -> Any:
    """One type store per process: ``get_typestore`` builds a fresh one at every call, and a
    store compiles its (de)serializers at first use (tens of ms a bag, at every bag)."""
    from rosbags.typesys import Stores, get_typestore

    return get_typestore(Stores.ROS2_KILTED)


@functools.cache
def _definition(msgtype: str) -> tuple[str, str]:
    """A message type's definition text and RIHS01 hash, as a bag's connection records
    them (computed once per process, not for each of a bag's connections)."""
    store = _typestore()
    return store.generate_msgdef(msgtype, ros_version=2)[0], store.hash_rihs01(msgtype)


class EpisodeBag:
    """One episode's bag. Messages are kept in memory as they arrive (a callback only
    appends, so recording adds almost nothing to the lock-step's round trips) and written
    when the episode closes."""

    def __init__(self, folder: Path, run: Path | None = None) -> None:
        """``run``: the run folder ``folder`` lies in; no part of the bag's path below it may
        be a symbolic link (checked again as the bag is written)."""
        self.folder = folder
        self.run = run
        self.staging = folder.with_name(f".{folder.name}{PARTIAL}")
        self.partial = self.staging / folder.name
        self._messages: list[tuple[str, bytes, int]] = []

    def write(self, topic: str, raw: bytes, ns: int) -> None:
        self._messages.append((topic, raw, ns))

    def close(self, finished: bool) -> Path | None:
        """Write a finished episode's bag under its final name; drop an unfinished one."""
        if not finished:
            return None
        from rosbags.rosbag2 import StoragePlugin, Writer

        store = _typestore()
        if self.run is not None:  # a link is refused, never removed or written through
            inside(self.run, self.folder)
            inside(self.run, self.staging)
        shutil.rmtree(self.staging, ignore_errors=True)
        self.staging.mkdir(parents=True)
        connections: dict[str, Any] = {}
        with Writer(self.partial, version=9, storage_plugin=StoragePlugin.MCAP) as writer:
            for topic, raw, ns in sorted(self._messages, key=lambda m: m[2]):
                if topic == contract.TF:
                    transform = store.deserialize_cdr(raw, "geometry_msgs/msg/TransformStamped")
                    tf = store.types["tf2_msgs/msg/TFMessage"](transforms=[transform])
                    raw = store.serialize_cdr(tf, "tf2_msgs/msg/TFMessage")
                    name, msgtype = TF_IN_BAG, "tf2_msgs/msg/TFMessage"
                else:
                    name, msgtype = topic, contract.TOPIC[topic].type
                if name not in connections:
                    msgdef, rihs01 = _definition(msgtype)
                    connections[name] = writer.add_connection(
                        name, msgtype, msgdef=msgdef, rihs01=rihs01
                    )
                writer.write(connections[name], ns, raw)
        for storage in self.partial.glob("*.mcap"):
            mcap_crc.seal(storage)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.partial.rename(self.folder)
        self.staging.rmdir()
        self._messages = []
        return self.folder


@dataclass
class BagEpisode:
    """Everything a bag holds that scoring needs, decoded and validated."""

    scene: contract.SceneMessage
    truth: contract.TruthMessage
    execute: contract.ExecuteMessage
    outcome: contract.OutcomeMessage | None
    score: contract.ScoreMessage | None
    topics: dict[str, int]  # messages per topic


class BagError(ValueError):
    pass


REPAIR = "delete the bag and rerun `reacthuman bench` with the same --out to record it again"


def read_episode(path: Path) -> BagEpisode:
    """The episode a finished bag holds (its folder, or its one ``.mcap`` file, which holds
    every message and type); BagError naming the bag and what is wrong with it."""
    if path.is_file() and path.suffix == ".mcap":
        storages = [path]
    elif not (path / "metadata.yaml").is_file():
        raise BagError(f"{path}: not a rosbag2 bag (no metadata.yaml) nor an .mcap file")
    else:
        storages = sorted(path.glob("*.mcap"))
    for storage in storages:
        damage = mcap_crc.problems(storage)
        if damage:
            raise BagError(f"{storage}: damaged: {'; '.join(damage)}; {REPAIR}")
    try:
        return _read(path)
    except BagError:
        raise
    except Exception as exc:
        raise BagError(f"{path}: cannot be read ({type(exc).__name__}: {exc}); {REPAIR}") from None


def _read(path: Path) -> BagEpisode:
    from rosbags.rosbag2 import Reader

    store = _typestore()
    wanted: dict[str, type[contract.Envelope]] = {
        contract.SCENE: contract.SceneMessage,
        contract.GROUND_TRUTH: contract.TruthMessage,
        contract.EXECUTE: contract.ExecuteMessage,
        contract.OUTCOME: contract.OutcomeMessage,
        contract.SCORE: contract.ScoreMessage,
    }
    found: dict[str, Any] = {}
    topics: dict[str, int] = {}
    with Reader(path) as reader:
        for connection, _ns, raw in reader.messages():
            topics[connection.topic] = topics.get(connection.topic, 0) + 1
            model = wanted.get(connection.topic)
            if model is None:
                continue
            text = store.deserialize_cdr(raw, "std_msgs/msg/String").data
            try:
                found[connection.topic] = model.model_validate_json(text)
            except ValueError as exc:
                raise BagError(
                    f"{path}: {connection.topic} holds an invalid message: {exc}"
                ) from None
    missing = [
        t for t in (contract.SCENE, contract.GROUND_TRUTH, contract.EXECUTE) if t not in found
    ]
    if missing:
        raise BagError(f"{path}: the bag lacks {', '.join(missing)}; it cannot be re-scored")
    return BagEpisode(
        found[contract.SCENE],
        found[contract.GROUND_TRUTH],
        found[contract.EXECUTE],
        found.get(contract.OUTCOME),
        found.get(contract.SCORE),
        topics,
    )


def rescore(episode: BagEpisode) -> ScoreRow:
    """The episode's score row, recomputed from the bag's scene, truth, decision and outcome."""
    from reacthuman.scoring.run import score_row

    outcome = episode.outcome.outcome if episode.outcome is not None else None
    return score_row(episode.execute.decision, episode.truth.truth, episode.scene.spec, outcome)


def find_bags(root: Path) -> list[Path]:
    """The finished bags at ``root``: a bag folder, an ``.mcap`` file (a bag's storage file,
    copied out on its own), or a folder holding bags."""
    if root.is_file():
        return [root] if root.suffix == ".mcap" else []
    if (root / "metadata.yaml").is_file():
        return [root]
    return sorted(
        p.parent
        for p in root.glob("**/metadata.yaml")
        if not any(part.endswith(PARTIAL) for part in p.relative_to(root).parts)
    )
