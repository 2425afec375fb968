"""recorder_node: one rosbag2 MCAP bag per episode, recorded from the live topics.

It subscribes to every topic of the contract with raw (serialized) callbacks and writes the
bytes as they came, so a bag holds exactly what travelled. Topics do not arrive in order
relative to each other, so messages are routed to their episode by what they carry: the
JSON envelopes by their episode number (kept aside when they come before the scene
message), stamped messages by their sim-time stamp (each episode owns the clock from its
scene message's ``start_ns`` on), the rest to the newest episode. A bag gets its final name
once it holds the episode's score and everything the score was computed from
(``contract.SCORED_FROM``: each comes from its own publisher, in no order relative to the
others) and the clock has moved into the next episode (or the run ended); an interrupted
episode, or one whose messages never all came, leaves no bag, so that a rerun into the run
folder plays it again. Executions side by side come as one batch message a tick
(``contract.BATCH_STATES``, ``BATCH_COMMANDS``); each row goes into its own episode's bag as
the ``/imu``, ``/joint_states``, ``spine/joint_command`` and ``/cmd_vel`` messages a lone
execution has, with its ``/clock`` and transforms at 10 Hz (serialized by ``cdr``, without
building rclpy messages).
"""

from __future__ import annotations

import bisect
import struct
import threading
import time
from pathlib import Path
from typing import Any

from rclpy.serialization import deserialize_message
from std_msgs.msg import Float64MultiArray, String

from reacthuman.ros import cdr, convert
from reacthuman.ros import contract as c
from reacthuman.ros.bag import EpisodeBag
from reacthuman.ros.base import ReactNode
from reacthuman.ros.convert import NS
from reacthuman.ros.graph import run_node_process
from reacthuman.run_folder import bag_folder, bagged

# Every episode topic; the run's own state (its status, what the folder holds) is no episode's,
# and a batch of executions side by side is written row by row into each one's bag
# (``_on_batch``).
BATCHES = (c.BATCH_STATES, c.BATCH_COMMANDS)
BAGGED = [t for t in c.TOPICS if t.name not in (c.RUN_STATUS, c.SCORED, c.RECORDED, *BATCHES)]
ENVELOPES = {t.name for t in c.TOPICS if t.type == "std_msgs/msg/String"} - {c.ROBOT_DESCRIPTION}
STAMPED = {
    t.name
    for t in c.TOPICS
    if t.type
    in (
        "sensor_msgs/msg/Image",
        "sensor_msgs/msg/CameraInfo",
        "sensor_msgs/msg/JointState",
        "geometry_msgs/msg/TransformStamped",
        "rosgraph_msgs/msg/Clock",
    )
}
NEEDED = {*c.SCORED_FROM, c.SCORE}  # what a bag holds before it is written
GRACE_NS = NS // 2  # sim time into the next episode before the last bag closes
SETTLE_S = 3.0  # wall s a stopped recorder waits for scores in flight (launch: SIGTERM at 5 s)


def _message_class(type_name: str) -> type:
    import importlib

    package, _msg, name = type_name.split("/")
    return getattr(importlib.import_module(f"{package}.msg"), name)


def stamp_of(raw: bytes) -> int:
    """The sim-time stamp of a serialized message that starts with a header or a time."""
    order = "<" if raw[1] & 1 else ">"
    sec, nanosec = struct.unpack_from(f"{order}iI", raw, 4)
    return sec * NS + nanosec


class RecorderNode(ReactNode):
    QOS_EVENT_WARNINGS = False  # on the 50 Hz lock-step path (ReactNode)
    PARAMETER_SERVICES = False  # its executor is the simulator's: keep the wait set small

    def __init__(self, overrides: dict[str, Any] | None = None, context: Any = None) -> None:
        super().__init__(c.RECORDER_NODE, overrides, context)
        self.lock = threading.Lock()
        self.bags: dict[int, EpisodeBag] = {}
        self.starts: list[tuple[int, int]] = []  # (start_ns, episode), sorted
        self.ends: dict[int, int] = {}  # episode -> end_ns
        self.start_of: dict[int, int] = {}  # episode -> start_ns
        self.envelopes: dict[int, set[str]] = {}  # episode -> its envelope topics recorded
        self.names: dict[int, str] = {}  # episode -> "brain scene_id", for errors
        self.early: list[tuple[str, bytes, int]] = []  # stamped before their scene arrived
        self.written: list[Path] = []
        self.description: bytes | None = None
        self.run_over = False
        self.opened: set[int] = set()  # episodes whose scene message arrived
        self.waiting: dict[int, list[tuple[str, bytes, int]]] = {}  # envelopes before that
        images = c.images(int(self.param("frames")))
        for topic in BAGGED:
            self.create_subscription(
                _message_class(topic.type),
                topic.name,
                lambda raw, t=topic.name: self._on_message(t, raw),
                images if topic.qos == c.IMAGES else topic.qos,
                raw=True,
            )
        for name in BATCHES:
            self.create_subscription(
                Float64MultiArray,
                name,
                lambda msg, t=name: self._on_batch(t, msg),
                c.TOPIC[name].qos,
            )
        self.walking: dict[int, tuple[float, float, float]] = {}  # by episode (batches)
        self.create_subscription(String, c.RUN_STATUS, self._on_status, c.EVENTS)
        self.run_dir = Path(self.param("run_dir"))
        self.recorded = bagged(self.run_dir)  # the bags the run folder holds, by brain
        self.recorded_pub = self.create_publisher(String, c.RECORDED, c.LATCHED)
        self._publish_recorded()

    def _publish_recorded(self) -> None:
        held = {brain: tuple(sorted(ids)) for brain, ids in sorted(self.recorded.items())}
        message = c.RunFolderEpisodes(run_dir=str(self.run_dir.resolve()), episodes=held)
        self.recorded_pub.publish(convert.to_string(message))

    def _episode_at(self, ns: int) -> int | None:
        i = bisect.bisect_right(self.starts, (ns, 1 << 62)) - 1
        if i < 0 or ns > self.ends[self.starts[i][1]]:
            return None  # its scene message has not arrived yet
        return self.starts[i][1]

    def _on_message(self, topic: str, raw: bytes) -> None:
        received = time.time_ns()
        with self.lock:
            if topic in ENVELOPES:
                envelope = c.Envelope.model_validate_json(
                    _envelope_text(deserialize_message(raw, String).data)
                )
                if topic == c.SCENE:
                    self._open(raw)
                episode: int | None = envelope.episode
                if envelope.episode in self.opened and envelope.episode not in self.bags:
                    return  # its bag was written already (a message it does not need)
                self.envelopes.setdefault(envelope.episode, set()).add(topic)
                if envelope.episode not in self.opened:  # came before its scene message
                    self.waiting.setdefault(envelope.episode, []).append((topic, raw, received))
                    return
            elif topic in STAMPED:
                ns = stamp_of(raw)
                if topic == c.CLOCK:
                    self._close_left_behind(ns)
                episode = self._episode_at(ns)
                if episode is None:
                    self.early.append((topic, raw, ns))
                    return
            elif topic == c.ROBOT_DESCRIPTION:
                self.description = raw  # latched: written into every bag as it opens
                episode = self.starts[-1][1] if self.starts else None
            elif topic == c.MARKERS and (drawn := _markers_stamp(raw)) is not None:
                # The scorer's, stamped in the episode they draw (executions side by side
                # are scored after the scene's last episode began).
                episode = self._episode_at(drawn)
                if episode is None:
                    self.early.append((topic, raw, drawn))
                    return
            else:  # /cmd_vel and the like: the newest episode
                episode = self.starts[-1][1] if self.starts else None
            bag = self.bags.get(episode) if episode is not None else None
            if bag is not None:
                assert episode is not None  # its bag was found by it
                bag.write(topic, raw, received)
                if topic in ENVELOPES and self.run_over and self._complete(episode):
                    self._finish(episode)

    def _on_batch(self, topic: str, msg: Float64MultiArray) -> None:
        """A tick of executions side by side: each row into its episode's bag as the
        messages of a lone execution's tick (a held walking command when it changes; the
        clock and transforms at the rows marked slow)."""
        received = time.time_ns()
        try:
            rows = convert.batch_rows(msg)
        except ValueError as exc:
            self.get_logger().error(f"{topic}: {exc}")
            return
        with self.lock:
            if topic == c.BATCH_STATES and rows and rows[0].slow:
                self._close_left_behind(max(row.ns for row in rows))
            for row in rows:
                episode = self._episode_at(row.ns)
                if topic == c.BATCH_STATES:
                    if row.slow:  # the clock and transforms a lone execution publishes
                        self._stamped(c.CLOCK, cdr.clock(row.ns), row.ns, episode, received)
                        for parent, child, translation, rotation in row.frames:
                            tf = cdr.transform(parent, child, row.ns, translation, rotation)
                            self._stamped(c.TF, tf, row.ns, episode, received)
                    if row.imu_quat is not None and row.imu_gyro is not None:
                        imu = cdr.imu(row.ns, c.BASE_FRAME, row.imu_quat, row.imu_gyro)
                        self._stamped(c.IMU, imu, row.ns, episode, received)
                    joints = cdr.joint_state(row.names, row.ns, row.positions, row.velocities)
                    self._stamped(c.JOINT_STATES, joints, row.ns, episode, received)
                    continue
                command = cdr.joint_state(row.names, row.ns, row.positions)
                self._stamped(c.JOINT_COMMAND, command, row.ns, episode, received)
                if episode is None or self.walking.get(episode) != row.walking:
                    if episode is not None:
                        self.walking[episode] = row.walking
                    self._stamped(c.CMD_VEL, cdr.twist(row.walking), row.ns, episode, received)

    def _stamped(self, topic: str, raw: bytes, ns: int, episode: int | None, received: int) -> None:
        """A message of sim time ``ns`` into its episode's bag (kept aside until its scene
        message when it came first)."""
        if episode is None:
            self.early.append((topic, raw, ns))
            return
        bag = self.bags.get(episode)
        if bag is not None:
            bag.write(topic, raw, received)

    def _open(self, raw: bytes) -> None:
        scene = c.SceneMessage.model_validate_json(deserialize_message(raw, String).data)
        run = Path(self.param("run_dir"))
        folder = bag_folder(run, scene.brain, scene.spec)
        self.names[scene.episode] = f"{scene.brain} {scene.spec.scene_id}"
        self.bags[scene.episode] = EpisodeBag(folder, run)
        self.opened.add(scene.episode)
        if self.description is not None:
            self.bags[scene.episode].write(c.ROBOT_DESCRIPTION, self.description, time.time_ns())
        for topic, message, received in self.waiting.pop(scene.episode, []):
            self.bags[scene.episode].write(topic, message, received)
        bisect.insort(self.starts, (scene.start_ns, scene.episode))
        self.start_of[scene.episode] = scene.start_ns
        self.ends[scene.episode] = scene.end_ns
        early, self.early = self.early, []
        for topic, message, ns in early:
            episode = self._episode_at(ns)
            if episode is None:
                self.early.append((topic, message, ns))
            elif episode in self.bags:
                self.bags[episode].write(topic, message, time.time_ns())

    def _complete(self, episode: int) -> bool:
        """Whether the episode's bag holds its score and what the score was computed from."""
        return NEEDED.issubset(self.envelopes.get(episode, ()))

    def _close_left_behind(self, ns: int) -> None:
        """Close the complete bags of episodes that the clock has left (with some grace).
        Only the open bags are looked at: a clock message comes 10 times a simulated second,
        and walking every episode of the run at each one grew with the run's square."""
        for episode in [e for e in self.bags if self._complete(e)]:
            following = self._following_start(episode)
            if following is not None and ns >= following + GRACE_NS:
                self._finish(episode)

    def _following_start(self, episode: int) -> int | None:
        """When the episode after ``episode`` (in sim time) starts; None while there is none."""
        i = bisect.bisect_right(self.starts, (self.start_of[episode], episode))
        return self.starts[i][0] if i < len(self.starts) else None

    def _on_status(self, msg: String) -> None:
        status = c.RunStatus.model_validate_json(msg.data)
        if status.state != "running":
            with self.lock:
                self.run_over = True
                # The last score may still be on its way (another node publishes it), or a
                # message the score was computed from: an incomplete bag waits for them
                # (``_on_message``), or is dropped when the node shuts down.
                for episode in [e for e in self.bags if self._complete(e)]:
                    self._finish(episode)

    def _finish(self, episode: int) -> None:
        self.walking.pop(episode, None)
        bag = self.bags.pop(episode)
        got = self.envelopes.pop(episode, set())
        name = self.names.pop(episode, "?")
        complete = NEEDED.issubset(got)
        if c.SCORE in got and not complete:  # scored, yet the bag could not re-score it
            missing = ", ".join(sorted(NEEDED - got))
            self.get_logger().error(
                f"episode {episode} ({name}) was scored but its bag "
                f"never received {missing}: not written; a rerun into {self.run_dir} plays "
                "the episode again to record it"
            )
        path = bag.close(complete)
        if path is not None:
            self.written.append(path)
            brain, _family, scene_id = path.relative_to(self.run_dir / "bags").parts
            self.recorded.setdefault(brain, set()).add(scene_id)
            self._publish_recorded()

    def settle(self, executor: Any, within_s: float = SETTLE_S) -> None:
        """After a stop signal, keep taking messages until every open bag is complete (or
        ``within_s`` passes): a launch stops the graph the moment the simulator exits, which
        can be before this node has read the last score the scorer already published."""
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline:
            with self.lock:
                if all(self._complete(episode) for episode in self.bags):
                    return
            executor.spin_once(timeout_sec=0.1)

    def destroy_node(self) -> None:
        with self.lock:
            for episode in list(self.bags):
                self._finish(episode)
        super().destroy_node()


def _markers_stamp(raw: bytes) -> int | None:
    """The sim time a serialized MarkerArray draws (its latest stamp: the scorer's first
    marker clears the previous episode's, unstamped); None when none is stamped."""
    from visualization_msgs.msg import MarkerArray

    markers = deserialize_message(raw, MarkerArray).markers
    latest = max((convert.ns_of(m.header.stamp) for m in markers), default=0)
    return latest or None


def _envelope_text(data: str) -> str:
    """Only the envelope's fields, so routing does not validate the whole payload twice."""
    import json

    loaded = json.loads(data)
    return json.dumps({"run_id": loaded.get("run_id", ""), "episode": loaded.get("episode", -1)})


def main(args: list[str] | None = None) -> None:
    run_node_process(RecorderNode, args)


if __name__ == "__main__":
    main()
