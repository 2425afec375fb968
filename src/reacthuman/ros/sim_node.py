"""sim_node: plays each scene of a set through the episode protocol (``contract``).

Genesis runs in the thread that calls ``run`` (the main thread), while an executor spins the
node's subscriptions elsewhere; the node waits for the plan, for every control tick's
command and for the score with deadlines, and names the node that did not answer.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from geometry_msgs.msg import TransformStamped
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import CameraInfo, Image, Imu, JointState
from std_msgs.msg import Float64MultiArray, String
from std_srvs.srv import Trigger

from reacthuman.brain.client import Decision
from reacthuman.brain.run import brain_names
from reacthuman.episode_host import (
    EPISODES_PER_PROCESS,
    BodyPose,
    EpisodeWorker,
    SceneHost,
    Staged,
    Tick,
    episode_host,
)
from reacthuman.ros import contract as c
from reacthuman.ros import convert
from reacthuman.ros.base import Mailbox, ReactNode
from reacthuman.ros.graph import run_node_process
from reacthuman.run_folder import TIMINGS_FILE, episode_folder
from reacthuman.runner import bench_scenes
from reacthuman.scenes.spec import SceneSpec
from reacthuman.scoring.results import ScoreRow
from reacthuman.sim.episode import MAX_ENVS, standing_ticks
from reacthuman.sim.settings import RenderSettings
from reacthuman.spine.command import CONTROL_PERIOD, JointCommand, ticks_in
from reacthuman.spine.command import JointState as CoreJointState
from reacthuman.spine.controller import controller_name
from reacthuman.spine.outcome import ExecutionOutcome
from reacthuman.spine.standin import STANDIN_NAME
from reacthuman.unitree.channel import Channel
from reacthuman.unitree.link import (
    LOCK_STEP_TIMEOUT,
    GuardDamped,
    SimulatorLink,
    SpineSilent,
)
from reacthuman.unitree.messages import lowstate_tick

STANDIN_URDF = """<?xml version="1.0"?>
<robot name="reacthuman_kinematic_stand_in">
  <link name="base_link"><visual><origin xyz="0 0 0.66"/><geometry><cylinder radius="0.2"
    length="1.32"/></geometry></visual></link>
  <link name="left_hand"><visual><geometry><sphere radius="0.06"/></geometry></visual></link>
  <link name="right_hand"><visual><geometry><sphere radius="0.06"/></geometry></visual></link>
  <joint name="left_hand_free" type="floating"><parent link="base_link"/>
    <child link="left_hand"/></joint>
  <joint name="right_hand_free" type="floating"><parent link="base_link"/>
    <child link="right_hand"/></joint>
</robot>
"""


# During execution /clock and the transforms go out every SLOW_EVERY control ticks (10 Hz):
# the lock-step itself runs on the stamps of /joint_states and the joint commands, and each
# extra message per tick costs every subscriber a callback.
SLOW_EVERY = 5
SPIN_S = 0.05  # the longest a wait for mail spins the executor between looks at the mail


class NodeMissing(RuntimeError):
    """A node of the graph is not there or stopped answering."""


class SimNode(ReactNode):
    QOS_EVENT_WARNINGS = False  # on the 50 Hz lock-step path (ReactNode)
    PARAMETERS: dict[str, Any] = {
        "scenes": "default",  # a scene-set folder, or "default" (one scene per family)
        "limit": 0,  # 0: every scene
        # This node's share of the set: every ``shards``-th scene from the ``shard``-th (the
        # workers of `reacthuman bench --workers N`, each a graph of its own).
        "shard": 0,
        "shards": 1,
        "width": 640,
        "height": 360,
        "legend": False,  # the legend ablation: observations also describe the objects
        "controller": "g1",
        "policy_path": "",
        "videos": False,
        # Genesis keeps memory for every scene it builds: scenes are played in a worker process
        # replaced after this many episodes (0: in this process, which then grows).
        "episodes_per_process": EPISODES_PER_PROCESS,
        "brain_timeout": 120.0,  # s the brain node may take for a plan
        # How executions reach the spine: "ros" (/joint_states and spine/joint_command) or
        # "unitree" (Unitree's DDS interface, rt/lowstate and rt/lowcmd through the guard,
        # as a G1 would: unitree.link; the spine runs backend:=g1 start_on:=execute).
        "spine_link": "ros",
        "network_interface": "lo",  # unitree: DDS interface and domain
        "dds_domain": 0,
        "command_timeout": LOCK_STEP_TIMEOUT,  # s the spine node may take for a tick's command
        "first_command_timeout": 120.0,  # s for an execution's first tick (a spine warming up)
        "score_timeout": 30.0,  # s the scorer node may take for a score
        # s at the end of a run for the recorder to say it wrote the run's last bags: this
        # node's publishers stay alive meanwhile, so what the recorder still lacks from them
        # reaches it (DDS drops a reliable message not yet delivered with its publisher).
        "bag_timeout": 30.0,
        "discovery_timeout": 15.0,  # s to wait for the other nodes at the start
        "required_nodes": [c.BRAIN_NODE, c.SPINE_NODE, c.SCORER_NODE],
    }

    def __init__(self, overrides: dict[str, Any] | None = None, context: Any = None) -> None:
        super().__init__(c.SIM_NODE, overrides, context)
        self.run_id = uuid.uuid4().hex[:12]
        self.mail = Mailbox()
        self.stop_requested = False
        self.recording = False  # a recorder node was found with the others (wait_for_graph)
        self.held: dict[str, c.RunFolderEpisodes] = {}  # SCORED, RECORDED (wait_for_graph)
        pub = self.create_publisher
        self.clock_pub = pub(Clock, c.CLOCK, c.STREAM)
        images = c.images(int(self.param("frames")))
        self.images = {v: pub(Image, c.image_topic(v), images) for v in c.CameraName}
        self.infos = {v: pub(CameraInfo, c.camera_info_topic(v), images) for v in c.CameraName}
        self.joint_pub = pub(JointState, c.JOINT_STATES, c.STREAM)
        self.imu_pub = pub(Imu, c.IMU, c.STREAM)
        self.tf_pub = pub(TransformStamped, c.TF, c.STREAM)
        self.tf2_pub = _standard_tf_publisher(self)
        self.description_pub = pub(String, c.ROBOT_DESCRIPTION, c.LATCHED)
        self.scene_pub = pub(String, c.SCENE, c.EVENTS)
        self.truth_pub = pub(String, c.GROUND_TRUTH, c.EVENTS)
        self.freeze_pub = pub(String, c.FREEZE, c.EVENTS)
        self.stand_pub = pub(String, c.STAND, c.EVENTS)
        self.execute_pub = pub(String, c.EXECUTE, c.EVENTS)
        self.batch_pub = pub(Float64MultiArray, c.BATCH_STATES, c.STREAM)
        self.outcome_pub = pub(String, c.OUTCOME, c.EVENTS)
        self.status_pub = pub(String, c.RUN_STATUS, c.EVENTS)
        self.create_subscription(String, c.PLAN, self._on_plan, c.EVENTS)
        self.create_subscription(JointState, c.JOINT_COMMAND, self._on_command, c.STREAM)
        self.create_subscription(
            Float64MultiArray, c.BATCH_COMMANDS, self._on_batch_commands, c.STREAM
        )
        self.create_subscription(String, c.GAINS, self._on_gains, c.EVENTS)
        self.create_subscription(String, c.SCORE, self._on_score, c.EVENTS)
        for topic in (c.SCORED, c.RECORDED):  # what the run folder holds, as its nodes say
            self.create_subscription(
                String, topic, lambda msg, t=topic: self._on_held(t, msg), c.LATCHED
            )
        self.create_service(Trigger, c.STOP_SERVICE, self._on_stop)
        self.description_pub.publish(String(data=robot_description(str(self.param("controller")))))
        self.episodes_done = 0
        self.episode_count = 0
        self.controller = ""  # the body's controller, by its full name (set by run)
        self._link: SimulatorLink | None = None  # spine_link unitree: made at first use
        # The executor that serves this node, spun by the thread that runs the episodes
        # while it waits (no hand-over between threads on the lock-step's critical path);
        # None when something else spins the node.
        self.executor: Any = None
        self._started: dict[int, float] = {}  # wall clock at each episode's start
        self.timings: list[dict[str, float | str]] = []  # wall seconds per episode and phase
        self.scored_now: dict[str, set[str]] = {}  # scene ids scored in this run, by brain
        self.on_row: Callable[[ScoreRow], None] | None = None  # progress, when composed

    # -- subscriptions ------------------------------------------------------------------
    def _on_plan(self, msg: String) -> None:
        plan = self.parse(c.PlanMessage, msg, c.PLAN)
        if plan is not None and plan.run_id == self.run_id:
            self.mail.put(("plan", plan.episode), plan.decision)

    def _on_command(self, msg: JointState) -> None:
        self.mail.put(("command", convert.ns_of(msg.header.stamp)), msg)

    def _on_batch_commands(self, msg: Float64MultiArray) -> None:
        if len(msg.data):  # keyed by its first row's stamp, as the batch it answers
            self.mail.put(("commands", int(msg.data[0])), msg)

    def _on_gains(self, msg: String) -> None:
        gains = self.parse(c.GainsMessage, msg, c.GAINS)
        if gains is not None and gains.run_id == self.run_id:
            self.mail.put(("gains", gains.start_ns), gains)

    def _on_score(self, msg: String) -> None:
        score = self.parse(c.ScoreMessage, msg, c.SCORE)
        if score is not None and score.run_id == self.run_id:
            self.mail.put(("score", score.episode), score.row)

    def _on_held(self, topic: str, msg: String) -> None:
        held = self.parse(c.RunFolderEpisodes, msg, topic)
        if held is not None:
            self.mail.put((topic,), held)

    def _on_stop(self, _request: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        self.stop_requested = True
        response.success = True
        response.message = "stopping after the current episode"
        return response

    def await_mail(self, key: tuple[str] | tuple[str, int], timeout: float) -> Any:
        """The message for ``key``, spinning this node's executor meanwhile; None at timeout."""
        if self.executor is None:
            return self.mail.take(key, timeout)
        deadline = time.monotonic() + timeout
        while True:
            found = self.mail.take(key, 0.0)
            if found is not None:
                return found
            if time.monotonic() >= deadline:
                return None
            # Always the same timeout: rclpy keeps its generator of ready callbacks (one wait
            # set, every callback that wait found) only while spin_once's arguments stay the
            # same; a shrinking timeout rebuilt the wait set, 57 entities, for each callback.
            self.executor.spin_once(timeout_sec=SPIN_S)

    # -- helpers ------------------------------------------------------------------------
    def unitree_link(self) -> Any:
        """The DDS link to the spine when ``spine_link`` is "unitree" (made once), else None."""
        kind = str(self.param("spine_link"))
        if kind not in ("ros", "unitree"):
            raise ValueError(f"sim_node spine_link {kind!r}: expected ros or unitree")
        if kind == "ros":
            return None
        if self._link is None:
            channel = Channel(int(self.param("dds_domain")), str(self.param("network_interface")))
            self._link = SimulatorLink(channel, log=lambda t: self.get_logger().warning(t))
        return self._link

    def log_progress(self, text: str) -> None:
        """Progress in the node's log when it runs as a process of its own (``ros2 launch``);
        composed, ``reacthuman bench`` prints it (``on_row``)."""
        if self.on_row is None:
            self.get_logger().info(text)

    def status(self, state: str, reason: str | None = None) -> c.RunStatus:
        status = c.RunStatus(
            run_id=self.run_id, state=state, episodes=self.episodes_done, reason=reason
        )
        self.status_pub.publish(convert.to_string(status))
        return status

    def wait_for_graph(self) -> None:
        """Wait until the required nodes exist and subscribe to what they need."""
        required = list(self.param("required_nodes"))
        deadline = time.monotonic() + float(self.param("discovery_timeout"))
        needs = {
            c.BRAIN_NODE: [self.freeze_pub],
            # Over Unitree's interface the spine reads execute messages and DDS, not states.
            c.SPINE_NODE: [self.execute_pub]
            + (
                [self.stand_pub, self.joint_pub, self.batch_pub]
                if str(self.param("spine_link")) == "ros"
                else []
            ),
            c.SCORER_NODE: [self.scene_pub, self.truth_pub, self.outcome_pub],
        }
        while True:
            names = set(self.get_node_names())
            missing = [n for n in required if n not in names]
            unmatched = [
                n
                for n in required
                if n not in missing
                and any(p.get_subscription_count() == 0 for p in needs.get(n, []))
            ]
            if not missing and not unmatched:
                # Bags are recorded when a recorder is in the graph (not required: --no-bags).
                self.recording = c.RECORDER_NODE in names
                self.held = {
                    topic: self._held(topic, deadline)
                    for topic in (c.SCORED, c.RECORDED)
                    if topic == c.SCORED or self.recording
                }
                return
            if time.monotonic() > deadline:
                waiting = missing or unmatched
                raise NodeMissing(
                    f"node(s) {', '.join(waiting)} not "
                    f"{'found' if missing else 'subscribed'} after "
                    f"{self.param('discovery_timeout'):g} s (same ROS_DOMAIN_ID and "
                    "ROS_AUTOMATIC_DISCOVERY_RANGE in every process?)"
                )
            if self.executor is not None:
                self.executor.spin_once(timeout_sec=0.05)
            else:
                time.sleep(0.05)

    def _held(self, topic: str, deadline: float) -> c.RunFolderEpisodes:
        """What the scorer (``SCORED``) or the recorder (``RECORDED``) says the run folder
        holds; they must write to this node's run folder."""
        node = c.TOPIC[topic].publisher
        held = self.await_mail((topic,), max(deadline - time.monotonic(), 1.0))
        if held is None:
            raise NodeMissing(f"{node} did not say what the run folder holds ({topic})")
        mine = str(Path(self.param("run_dir")).resolve())
        if held.run_dir != mine:
            raise NodeMissing(
                f"{node} writes to {held.run_dir}, {c.SIM_NODE} to {mine}: give every node "
                "of a run the same run_dir"
            )
        return held

    def publish_body(
        self, state: CoreJointState, ns: int, transforms: bool = True, pose: BodyPose | None = None
    ) -> None:
        """The body at a tick: the IMU first (the spine pairs it with the joint state of the
        same stamp), then the joint state, then transforms."""
        if state.imu_quat is not None:
            self.imu_pub.publish(convert.imu_msg(state, ns, c.BASE_FRAME))
        self.joint_pub.publish(
            convert.joint_state_msg(state.names, state.positions, ns, state.velocities)
        )
        if transforms:
            self.publish_transforms(body_transforms(state, ns, pose))

    def publish_transforms(self, transforms: list[TransformStamped]) -> None:
        for transform in transforms:
            self.tf_pub.publish(transform)
        if self.tf2_pub is not None:
            from tf2_msgs.msg import TFMessage

            self.tf2_pub.publish(TFMessage(transforms=transforms))

    # -- the run ------------------------------------------------------------------------
    def run(self) -> c.RunStatus:
        """Play every scene; returns how the run ended (also published on run_status)."""
        try:
            brain_names(str(self.param("brain")))
            shard, shards = int(self.param("shard")), int(self.param("shards"))
            if not 0 <= shard < shards:
                raise ValueError(f"shard {shard} of {shards}: expected 0 <= shard < shards")
        except ValueError as exc:
            self.get_logger().error(str(exc))
            return self.status("failed", str(exc))
        try:
            self.wait_for_graph()
            return self._episodes()
        except NodeMissing as exc:
            self.get_logger().error(str(exc))
            return self.status("failed", str(exc))

    def _episodes(self) -> c.RunStatus:
        settings = RenderSettings(
            width=int(self.param("width")),
            height=int(self.param("height")),
            frames=int(self.param("frames")),
        )
        limit = int(self.param("limit"))
        shard, shards = int(self.param("shard")), int(self.param("shards"))
        specs = bench_scenes(self.param("scenes"), limit or None)[shard::shards]
        brains = brain_names(str(self.param("brain")))
        run_dir = Path(self.param("run_dir"))
        done = {brain: self._scored_and_bagged(brain, specs) for brain in brains}
        controller = self.controller = controller_name(str(self.param("controller")))
        host = episode_host(
            controller,
            str(self.param("policy_path")) or None,
            int(self.param("episodes_per_process")),
        )
        self.episode_count = len(specs) * len(brains)
        scored = sum(len(ids) for ids in done.values())
        self.log_progress(
            f"{len(specs)} scene(s) from {self.param('scenes')} x {len(brains)} brain(s) "
            f"({', '.join(brains)}; {scored} episode(s) already scored), controller "
            f"{controller}, {settings.width}x{settings.height} -> {run_dir}"
        )
        self.status("running")
        clock_ns = 0
        try:
            for index, spec in enumerate(specs):
                if self.stop_requested:
                    return self.status("stopped", "stop requested")
                slots = []
                for number, brain in enumerate(brains):
                    if spec.scene_id not in done[brain]:
                        episode = index * len(brains) + number
                        slots.append(EpisodeSlot(self.run_id, episode, spec, 0, brain))
                if slots:
                    clock_ns = self._scene(slots, settings, host, clock_ns)
        finally:
            host.close()
        if self.stop_requested:
            return self._bagged(self.status("stopped", "stop requested"))
        self.log_progress(
            f"done: {self.episodes_done} episode(s) scored into {run_dir / 'results.sqlite'}; "
            f"the report: reacthuman report {run_dir}"
        )
        return self._bagged(self.status("done"))

    def _bagged(self, status: c.RunStatus) -> c.RunStatus:
        """``status`` once the recorder holds a bag of every episode this run scored (it
        writes the last ones after the run status, each when all its messages are in), or
        after ``bag_timeout``; the episodes still without a bag are named (a rerun into the
        run folder plays them again)."""
        if not self.recording:
            return status
        timeout = float(self.param("bag_timeout"))
        deadline = time.monotonic() + timeout
        while True:
            held = self.held[c.RECORDED]
            lacking = sorted(
                f"{brain} {scene_id}"
                for brain, ids in self.scored_now.items()
                for scene_id in ids - held.of(brain)
            )
            left = deadline - time.monotonic()
            if not lacking:
                return status
            if left <= 0:
                self.get_logger().warning(
                    f"{c.RECORDER_NODE} wrote no bag for {len(lacking)} scored episode(s) "
                    f"within {timeout:g} s: {', '.join(lacking)}; a rerun into "
                    f"{self.param('run_dir')} plays them again to record them"
                )
                return status
            renewed = self.await_mail((c.RECORDED,), left)
            if renewed is not None:
                self.held[c.RECORDED] = renewed

    def _scored_and_bagged(self, brain: str, specs: list[SceneSpec]) -> set[str]:
        """The scenes ``brain`` has finished in this run folder: scored, and bagged when a
        recorder is in the graph."""
        done = self.held[c.SCORED].of(brain)
        # A scored episode always has its bag: one whose bag was lost (the run killed while
        # the recorder still wrote it) is played again to record it, not skipped.
        bagged = self.held[c.RECORDED].of(brain) if self.recording else done
        unbagged = [s.scene_id for s in specs if s.scene_id in done - bagged]
        if unbagged:  # said however the node runs: the user's bags are at stake
            self.get_logger().warning(
                f"{brain}: {len(unbagged)} scored episode(s) have no bag (a run stopped while "
                f"writing it): played again to record them: {', '.join(unbagged)}"
            )
        return done - set(unbagged)

    def _scene(
        self,
        slots: list[EpisodeSlot],
        settings: RenderSettings,
        host: SceneHost | EpisodeWorker,
        clock_ns: int,
    ) -> int:
        """One scene played once to its freeze (``host``: where it lives, ``episode_host``),
        then an episode per brain in ``slots``, each executed from that freeze: side by side,
        up to ``MAX_ENVS`` at once (one lock-step exchange a tick for all), or one after
        another with videos or over Unitree's interface. Returns the clock after the last.
        Stops after the current episodes when a stop is requested."""
        if self.unitree_link() is not None or bool(self.param("videos")):
            return self._scene_in_turn(slots, settings, host, clock_ns)
        staged: Staged | None = None
        envs = min(len(slots), MAX_ENVS)
        try:
            for first in range(0, len(slots), envs):
                asked: list[tuple[EpisodeSlot, Decision, int, dict[str, Any]]] = []
                for number in range(first, min(first + envs, len(slots))):
                    ep = replace(slots[number], start_ns=clock_ns)
                    self._begin_episode(ep)
                    if staged is None:  # the scene's first episode plays it
                        staged = self._play(ep, settings, host, envs)
                    later = tuple(s.brain for s in slots[number:])
                    freeze_ns = self._show(ep, staged, later)
                    asked.append((ep, self._decide(ep), freeze_ns, self.timings[-1]))
                    # A second of clock between episodes.
                    clock_ns = freeze_ns + convert.seconds_to_ns(staged.duration) + convert.NS
                assert staged is not None  # the batch's first episode played it
                outcomes = self._execute_side_by_side(asked, staged, host)
                # Every outcome goes out before the first score is awaited: the scorer
                # scores them one after another while the next round trip is under way.
                for (ep, _decision, freeze_ns, _timing), outcome in zip(
                    asked, outcomes, strict=True
                ):
                    end_ns = freeze_ns + convert.seconds_to_ns(staged.duration)
                    self.clock_pub.publish(convert.clock(end_ns))
                    self._send_outcome(ep, outcome)
                for ep, _decision, _freeze_ns, timing in asked:
                    self._await_score(ep, timing)
                    self.episodes_done += 1
                if self.stop_requested:
                    break
        finally:
            host.finish()
        return clock_ns

    def _scene_in_turn(
        self,
        slots: list[EpisodeSlot],
        settings: RenderSettings,
        host: SceneHost | EpisodeWorker,
        clock_ns: int,
    ) -> int:
        """``_scene`` with the executions one after another."""
        staged: Staged | None = None
        try:
            for number, slot in enumerate(slots):
                ep = replace(slot, start_ns=clock_ns)
                self._begin_episode(ep)
                if staged is None:  # the scene's first episode plays it
                    staged = self._play(ep, settings, host)
                later = tuple(s.brain for s in slots[number:])
                freeze_ns = self._show(ep, staged, later)
                decision = self._decide(ep)
                outcome = self._execute(ep, staged, decision, freeze_ns, host)
                end_ns = freeze_ns + convert.seconds_to_ns(staged.duration)
                self.clock_pub.publish(convert.clock(end_ns))
                self._score(ep, outcome, self.timings[-1])
                self.episodes_done += 1
                clock_ns = end_ns + convert.NS  # a second of clock between episodes
                if self.stop_requested:
                    break
        finally:
            host.finish()
        return clock_ns

    def _begin_episode(self, ep: EpisodeSlot) -> None:
        """The episode's timings opened and its scene message published."""
        self._started[ep.episode] = time.perf_counter()
        self.timings.append({"scene_id": ep.spec.scene_id, "brain": ep.brain})
        self._announce(ep)

    def _announce(self, ep: EpisodeSlot) -> None:
        """The episode's scene message: its brain and its span of the run's clock."""
        spec = ep.spec
        end_ns = ep.start_ns + convert.seconds_to_ns(spec.timing.t0 + spec.timing.horizon)
        scene = c.SceneMessage(
            **ep.envelope, brain=ep.brain, start_ns=ep.start_ns, end_ns=end_ns, spec=spec
        )
        self.scene_pub.publish(convert.to_string(scene))

    def _play(
        self,
        ep: EpisodeSlot,
        settings: RenderSettings,
        host: SceneHost | EpisodeWorker,
        envs: int = 1,
    ) -> Staged:
        """Play the scene to the freeze; a G1 stands meanwhile under the spine's commands
        (``stand``), or over Unitree's interface under the host's own controller (as a
        robot's own stand would be, before the spine takes it). The scene's later episodes
        start from this freeze: their bags hold no stand."""
        spec = ep.spec
        command_for = None
        if self.unitree_link() is None and self.controller != STANDIN_NAME:
            stand = c.StandMessage(
                **ep.envelope,
                start_ns=ep.start_ns,
                ticks=standing_ticks(spec, settings),
                controller=self.controller,
                robot_pos=spec.observer.pos,
                robot_yaw=spec.observer.yaw,
            )
            self.stand_pub.publish(convert.to_string(stand))
            command_for = self._lock_step(ep, stand)
        started = time.perf_counter()
        staged = host.play(spec, settings, bool(self.param("legend")), command_for, envs)
        self.timings[-1]["play"] = time.perf_counter() - started
        self.timings[-1].update(staged.seconds)
        return staged

    def _show(self, ep: EpisodeSlot, staged: Staged, brains: tuple[str, ...] = ()) -> int:
        """Ground truth for the scorer, the window's frames, camera info, body and
        transforms, then the freeze (the observation); returns the freeze's sim time."""
        self.truth_pub.publish(convert.to_string(c.TruthMessage(**ep.envelope, truth=staged.truth)))
        window_start = ep.start_ns + convert.seconds_to_ns(ep.spec.timing.t0)
        infos = {info.name: info for info in staged.observation.cameras}
        rotations = {view: convert.optical_rotation(infos[view]) for view in c.CameraName}
        for t in staged.observation.frame_times:
            ns = window_start + convert.seconds_to_ns(t)
            for view in c.CameraName:
                frame = c.camera_frame(view)
                info = infos[view]
                self.images[view].publish(convert.image(staged.frames[(view, t)], ns, frame))
                self.infos[view].publish(convert.camera_info(info, ns, frame))
                self.publish_transforms(
                    [convert.transform(c.WORLD_FRAME, frame, ns, info.pos, rotations[view])]
                )
            self.publish_body(staged.frame_states[t], ns, pose=staged.pose)
        freeze = c.FreezeMessage(
            **ep.envelope,
            brain=ep.brain,
            brains=brains or (ep.brain,),
            window_start_ns=window_start,
            observation=staged.observation,
        )
        self.freeze_pub.publish(convert.to_string(freeze))
        return window_start + convert.seconds_to_ns(staged.observation.window)

    def _decide(self, ep: EpisodeSlot) -> Decision:
        """The brain's plan, or an R1 record when none came in time."""
        timeout = float(self.param("brain_timeout")) + 5.0
        deciding = time.perf_counter()
        decision = self.await_mail(("plan", ep.episode), timeout)
        self.timings[-1]["publish_and_decide"] = time.perf_counter() - deciding
        if decision is None:
            decision = Decision(
                scene_id=ep.spec.scene_id,
                brain=ep.brain,
                r1_reason=f"{c.BRAIN_NODE} did not publish a plan within {timeout:g} s",
            )
            self.get_logger().warning(str(decision.r1_reason))
        return decision

    def _execute(
        self,
        ep: EpisodeSlot,
        staged: Staged,
        decision: Decision,
        freeze_ns: int,
        host: SceneHost | EpisodeWorker,
    ) -> ExecutionOutcome:
        """The decision executed from the freeze, each tick's command from the spine."""
        spec = ep.spec
        execute = execute_message(ep, staged, decision, freeze_ns)
        self.execute_pub.publish(convert.to_string(execute))
        video = None
        if bool(self.param("videos")):
            video = episode_folder(Path(self.param("run_dir")), decision.brain, spec.scene_id)
            video = video / "execution.mp4"
        executing = time.perf_counter()
        outcome = host.execute(decision, self._lock_step(ep, execute), video, SLOW_EVERY)
        self.timings[-1]["execute"] = time.perf_counter() - executing
        self.timings[-1]["ticks"] = execute.ticks
        return outcome

    def _execute_side_by_side(
        self,
        asked: list[tuple[EpisodeSlot, Decision, int, dict[str, Any]]],
        staged: Staged,
        host: SceneHost | EpisodeWorker,
    ) -> list[ExecutionOutcome]:
        """The episodes' decisions executed side by side from the freeze, every tick's
        commands from the spine in one exchange (``_lock_step_side_by_side``)."""
        spec = staged.spec
        executes = []
        for ep, decision, freeze_ns, timing in asked:
            execute = execute_message(ep, staged, decision, freeze_ns, batched=True)
            self.execute_pub.publish(convert.to_string(execute))
            executes.append(execute)
            timing["ticks"] = execute.ticks
        timing = asked[0][3]  # the executions count in the first episode, as the play does
        executing = time.perf_counter()
        outcomes = host.execute_all(
            [decision for _ep, decision, _ns, _t in asked],
            self._lock_step_side_by_side(spec, executes, timing),
            SLOW_EVERY,
        )
        timing["execute"] = time.perf_counter() - executing
        return outcomes

    def _lock_step_side_by_side(
        self, spec: SceneSpec, executes: list[c.ExecuteMessage], timing: dict[str, Any]
    ) -> Callable[[list[Tick]], list[JointCommand]]:
        """Each tick of executions side by side: their states out in one batch (each row
        stamped in its own episode), the spine's commands back in one, with each
        execution's gains."""
        command_timeout = float(self.param("command_timeout"))
        gains: dict[int, c.GainsMessage] = {}

        def commands_for(ticks: list[Tick]) -> list[JointCommand]:
            tick = ticks[0].state.tick
            offset = convert.seconds_to_ns(tick * CONTROL_PERIOD)
            stamps = [execute.start_ns + offset for execute in executes]
            asked = time.perf_counter()
            # Each episode's clock and transforms at 10 Hz ride in the batch (its rows'
            # transform fields), and the recorder writes them into the bags: as messages they
            # were 28 a slow tick for 7 executions, each a callback in the recorder.
            frames = None
            if tick % SLOW_EVERY == 0:
                frames = [convert.body_frames(at.state, at.pose) for at in ticks]
            states = [t.state for t in ticks]
            self.batch_pub.publish(convert.batch_states_msg(states, stamps, frames))
            wait = command_timeout
            if tick == 0:
                wait = max(wait, float(self.param("first_command_timeout")))
            missing = ""
            try:
                msg = self.await_mail(("commands", stamps[0]), wait)
                for execute in executes if msg is not None else ():
                    if execute.episode not in gains:
                        found = self.await_mail(("gains", execute.start_ns), wait)
                        if found is None:
                            missing = f" with episode {execute.episode}'s gains ({c.GAINS})"
                            break
                        gains[execute.episode] = found
            finally:
                timing["command_wait"] = (
                    float(timing.get("command_wait", 0.0)) + time.perf_counter() - asked
                )
            if msg is None or missing:
                raise NodeMissing(
                    f"{c.SPINE_NODE} did not answer control tick {tick} of {spec.scene_id}'s "
                    f"{len(executes)} executions within {wait:g} s{missing}"
                )
            rows = convert.batch_rows(msg)
            if [row.ns for row in rows] != stamps:
                raise NodeMissing(f"{c.SPINE_NODE} answered tick {tick} with other ticks' rows")
            return [
                convert.row_command(
                    row, tick, at.state.t, gains[execute.episode].for_joints(row.names)
                )
                for row, at, execute in zip(rows, ticks, executes, strict=True)
            ]

        return commands_for

    def _lock_step(self, ep: EpisodeSlot, phase: c.Phase) -> Callable[[Tick], JointCommand]:
        """Each tick of ``phase``: the body's state out, the spine's command (with the
        phase's gains) back, over the graph's topics or Unitree's interface."""
        command_timeout = float(self.param("command_timeout"))
        timing = self.timings[-1]
        link = self.unitree_link()
        gains: list[c.GainsMessage | None] = []  # the spine's, once per phase

        def command_for(tick: Tick) -> JointCommand:
            state = tick.state
            ns = phase.start_ns + convert.seconds_to_ns(state.tick * CONTROL_PERIOD)
            asked = time.perf_counter()
            slow = state.tick % SLOW_EVERY == 0
            if slow:
                self.clock_pub.publish(convert.clock(ns))
            self.publish_body(state, ns, transforms=slow, pose=tick.pose)
            wait = command_timeout
            if state.tick == 0:
                wait = max(wait, float(self.param("first_command_timeout")))
            try:
                if link is not None:
                    return link.command(state, lowstate_tick(ns), wait)
                msg = self.await_mail(("command", ns), wait)
                if msg is not None and not gains:
                    gains.append(self.await_mail(("gains", phase.start_ns), wait))
            except (SpineSilent, GuardDamped) as exc:
                raise NodeMissing(f"{ep.spec.scene_id} tick {state.tick}: {exc}") from None
            finally:
                timing["command_wait"] = (
                    float(timing.get("command_wait", 0.0)) + time.perf_counter() - asked
                )
            if msg is None or gains[0] is None:
                what = "stand" if isinstance(phase, c.StandMessage) else "execution"
                raise NodeMissing(
                    f"{c.SPINE_NODE} did not answer control tick {state.tick} of "
                    f"{ep.spec.scene_id}'s {what} within {wait:g} s"
                    + ("" if msg is None else f" with the {what}'s gains ({c.GAINS})")
                )
            kp_kd = gains[0].for_joints(tuple(msg.name))
            return convert.joint_command(msg, state.tick, state.t, None, kp_kd)

        return command_for

    def _score(self, ep: EpisodeSlot, outcome: ExecutionOutcome, timing: dict[str, Any]) -> None:
        """The outcome to the scorer, and its score row back (``timing``: the episode's)."""
        self._send_outcome(ep, outcome)
        self._await_score(ep, timing)

    def _send_outcome(self, ep: EpisodeSlot, outcome: ExecutionOutcome) -> None:
        self.outcome_pub.publish(
            convert.to_string(c.OutcomeMessage(**ep.envelope, outcome=outcome))
        )

    def _await_score(self, ep: EpisodeSlot, timing: dict[str, Any]) -> None:
        """The episode's score row, from the scorer (``timing``: the episode's, written to
        the run's timings file)."""
        score_timeout = float(self.param("score_timeout"))
        scoring = time.perf_counter()
        row = self.await_mail(("score", ep.episode), score_timeout)
        timing["score_wait"] = time.perf_counter() - scoring
        if row is None:
            raise NodeMissing(
                f"{c.SCORER_NODE} did not score {ep.spec.scene_id} within {score_timeout:g} s"
            )
        timing["total"] = time.perf_counter() - self._started.pop(ep.episode)
        self.scored_now.setdefault(ep.brain, set()).add(ep.spec.scene_id)
        with (Path(self.param("run_dir")) / TIMINGS_FILE).open("a") as log:
            log.write(json.dumps(timing) + "\n")
        if self.on_row is not None:
            self.on_row(row)
        self.log_progress(f"[{ep.episode + 1}/{self.episode_count}] {row.summary()}")


@dataclass(frozen=True)
class EpisodeSlot:
    """One episode's place in the run: its number, its scene, its brain and where it starts
    on the run's clock."""

    run_id: str
    episode: int  # scene index x brains + the brain's index: the same on a resumed run
    spec: SceneSpec
    start_ns: int
    brain: str

    @property
    def envelope(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "episode": self.episode}


def execute_message(
    ep: EpisodeSlot, staged: Staged, decision: Decision, freeze_ns: int, batched: bool = False
) -> c.ExecuteMessage:
    """What the spine needs of an execution from the freeze at ``freeze_ns``."""
    return c.ExecuteMessage(
        **ep.envelope,
        start_ns=freeze_ns,
        ticks=ticks_in(staged.duration),
        controller=staged.controller,
        decision=decision,
        robot_pos=ep.spec.observer.pos,
        robot_yaw=ep.spec.observer.yaw,
        batched=batched,
    )


def robot_description(controller: str) -> str:
    """URDF of the body the controller drives: the G1 (converted from the simulated MJCF)
    or the kinematic stand-in's."""
    if controller.startswith("g1"):
        from reacthuman.spine.urdf import g1_urdf

        return g1_urdf()
    return STANDIN_URDF


def _standard_tf_publisher(node: ReactNode) -> Any:
    """A ``/tf`` publisher where tf2_msgs is installed (a full ROS 2 install; it is not on
    PyPI), so RViz and tf2 see the transforms live; None elsewhere."""
    try:
        from tf2_msgs.msg import TFMessage
    except ImportError:
        return None
    return node.create_publisher(TFMessage, "/tf", c.STREAM)


def body_transforms(
    state: CoreJointState, ns: int, pose: BodyPose | None = None
) -> list[TransformStamped]:
    """world -> base_link and base_link -> hands at sim time ``ns`` (``convert.body_frames``)."""
    return [
        convert.transform(parent, child, ns, translation, rotation)
        for parent, child, translation, rotation in convert.body_frames(state, pose)
    ]


def main(args: list[str] | None = None) -> None:
    run_node_process(SimNode, args)


if __name__ == "__main__":
    main()
