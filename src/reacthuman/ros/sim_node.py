"""sim_node: the simulator's ROS node, thin phases over ``episode_driver.EpisodeDriver``.

The driver decides what a run does, episode by episode and phase by phase (the scene, the
stand, the window and freeze, the plan, the execution, the outcome and its score), what a
resumed run skips and when the run ends; this node is its ``EpisodeGraph``: it publishes
each phase's messages (``contract``), waits for the other nodes' answers in its mailbox, and
keeps the lock step with the spine (``tick_exchange``). Discovery of the other nodes and of
what the run folder holds is ``sim_discovery``; the body's URDF and frames ``body_frames``.

Genesis runs in the thread that calls ``run`` (the main thread) or in the episode host's
worker process, while this thread spins the node's executor whenever it waits (composed by
``reacthuman bench``), or another thread spins it (a process of its own); every wait has a
deadline and names the node that did not answer.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from geometry_msgs.msg import TransformStamped
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import CameraInfo, Image, Imu, JointState
from std_msgs.msg import Float64MultiArray, String
from std_srvs.srv import Trigger

from reacthuman.brain.client import Decision
from reacthuman.episode_driver import (
    Asked,
    EpisodeDriver,
    EpisodeSlot,
    Found,
    RunParameters,
)
from reacthuman.episode_host import EPISODES_PER_PROCESS, Staged, Tick
from reacthuman.ros import contract as c
from reacthuman.ros import convert
from reacthuman.ros.base import Mailbox, ReactNode
from reacthuman.ros.body_frames import BodyPublisher, robot_description, standard_tf_publisher
from reacthuman.ros.graph import run_node_process
from reacthuman.ros.sim_discovery import discover
from reacthuman.ros.tick_exchange import TickExchange
from reacthuman.scoring.results import ScoreRow
from reacthuman.spine.command import JointCommand, ticks_in
from reacthuman.spine.outcome import ExecutionOutcome
from reacthuman.unitree.channel import Channel
from reacthuman.unitree.link import LOCK_STEP_TIMEOUT, SimulatorLink

SPIN_S = 0.05  # the longest a wait for mail spins the executor between looks at the mail


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
        self.driver: EpisodeDriver[c.RunStatus] = EpisodeDriver(self.run_id, self)
        pub = self.create_publisher
        self.clock_pub = pub(Clock, c.CLOCK, c.STREAM)
        images = c.images(int(self.param("frames")))
        self.images = {v: pub(Image, c.image_topic(v), images) for v in c.CameraName}
        self.infos = {v: pub(CameraInfo, c.camera_info_topic(v), images) for v in c.CameraName}
        self.joint_pub = pub(JointState, c.JOINT_STATES, c.STREAM)
        self.imu_pub = pub(Imu, c.IMU, c.STREAM)
        self.tf_pub = pub(TransformStamped, c.TF, c.STREAM)
        self.body = BodyPublisher(
            self.joint_pub, self.imu_pub, self.tf_pub, standard_tf_publisher(self)
        )
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
        self._link: SimulatorLink | None = None  # spine_link unitree: made at first use
        self._exchange: TickExchange | None = None  # the lock step (made by run)
        # The executor that serves this node, spun by the thread that runs the episodes
        # while it waits (no hand-over between threads on the lock-step's critical path);
        # None when something else spins the node.
        self.executor: Any = None

    # What ``reacthuman bench`` (``graph.run_composed``) reads and sets of the run.
    @property
    def stop_requested(self) -> bool:
        return self.driver.stop_requested

    @stop_requested.setter
    def stop_requested(self, value: bool) -> None:
        self.driver.stop_requested = value

    @property
    def on_row(self) -> Callable[[ScoreRow], None] | None:
        return self.driver.on_row

    @on_row.setter
    def on_row(self, value: Callable[[ScoreRow], None] | None) -> None:
        self.driver.on_row = value

    @property
    def timings(self) -> list[dict[str, Any]]:
        return self.driver.timings

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

    # -- the run ------------------------------------------------------------------------
    def run(self) -> c.RunStatus:
        """Play every scene (``EpisodeDriver.run``); returns how the run ended (also
        published on run_status)."""
        self._exchange = TickExchange(
            self.clock_pub,
            self.batch_pub,
            self.body,
            self.await_mail,
            float(self.param("command_timeout")),
            float(self.param("first_command_timeout")),
        )
        return self.driver.run(self.run_parameters())

    def run_parameters(self) -> RunParameters:
        p = self.param
        return RunParameters(
            scenes=str(p("scenes")),
            limit=int(p("limit")),
            shard=int(p("shard")),
            shards=int(p("shards")),
            brain=str(p("brain")),
            width=int(p("width")),
            height=int(p("height")),
            frames=int(p("frames")),
            legend=bool(p("legend")),
            controller=str(p("controller")),
            policy_path=str(p("policy_path")),
            videos=bool(p("videos")),
            episodes_per_process=int(p("episodes_per_process")),
            brain_timeout=float(p("brain_timeout")),
            score_timeout=float(p("score_timeout")),
            bag_timeout=float(p("bag_timeout")),
            run_dir=str(p("run_dir")),
            brain_node=c.BRAIN_NODE,
            scorer_node=c.SCORER_NODE,
            recorder_node=c.RECORDER_NODE,
        )

    def unitree_link(self) -> SimulatorLink | None:
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

    def status(
        self, state: str, reason: str | None = None, episodes: int | None = None
    ) -> c.RunStatus:
        """The run's status published (``episodes``: those done, the driver's count)."""
        done = self.driver.episodes_done if episodes is None else episodes
        status = c.RunStatus(run_id=self.run_id, state=state, episodes=done, reason=reason)
        self.status_pub.publish(convert.to_string(status))
        return status

    # -- the episode graph (``episode_driver.EpisodeGraph``) ----------------------------
    def info(self, text: str) -> None:
        self.get_logger().info(text)

    def warning(self, text: str) -> None:
        self.get_logger().warning(text)

    def error(self, text: str) -> None:
        self.get_logger().error(text)

    def discover(self) -> Found:
        """Wait until the required nodes exist and subscribe to what they need."""
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

        def spin() -> None:
            if self.executor is not None:
                self.executor.spin_once(timeout_sec=0.05)
            else:
                time.sleep(0.05)

        return discover(
            self.get_node_names,
            needs,
            list(self.param("required_nodes")),
            float(self.param("discovery_timeout")),
            str(self.param("run_dir")),
            self.await_mail,
            spin,
        )

    def over_unitree(self) -> bool:
        return self.unitree_link() is not None

    def announce(self, ep: EpisodeSlot) -> None:
        """The episode's scene message: its brain and its span of the run's clock."""
        spec = ep.spec
        end_ns = ep.start_ns + convert.seconds_to_ns(spec.timing.t0 + spec.timing.horizon)
        scene = c.SceneMessage(
            **ep.envelope, brain=ep.brain, start_ns=ep.start_ns, end_ns=end_ns, spec=spec
        )
        self.scene_pub.publish(convert.to_string(scene))

    def stand(
        self, ep: EpisodeSlot, ticks: int, controller: str, timing: dict[str, Any]
    ) -> Callable[[Tick], JointCommand]:
        """``stand``, then the stand's ticks in lock step with the spine."""
        spec = ep.spec
        stand = c.StandMessage(
            **ep.envelope,
            start_ns=ep.start_ns,
            ticks=ticks,
            controller=controller,
            robot_pos=spec.observer.pos,
            robot_yaw=spec.observer.yaw,
        )
        self.stand_pub.publish(convert.to_string(stand))
        return self._lock_step(ep, stand, timing)

    def show(self, ep: EpisodeSlot, staged: Staged, brains: tuple[str, ...] = ()) -> int:
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
                self.body.transforms(
                    [convert.transform(c.WORLD_FRAME, frame, ns, info.pos, rotations[view])]
                )
            self.body.body(staged.frame_states[t], ns, pose=staged.pose)
        freeze = c.FreezeMessage(
            **ep.envelope,
            brain=ep.brain,
            brains=brains or (ep.brain,),
            window_start_ns=window_start,
            observation=staged.observation,
        )
        self.freeze_pub.publish(convert.to_string(freeze))
        return window_start + convert.seconds_to_ns(staged.observation.window)

    def await_plan(self, ep: EpisodeSlot, timeout: float) -> Decision | None:
        return self.await_mail(("plan", ep.episode), timeout)

    def execute(
        self,
        ep: EpisodeSlot,
        staged: Staged,
        decision: Decision,
        freeze_ns: int,
        timing: dict[str, Any],
    ) -> Callable[[Tick], JointCommand]:
        """``execute``, then the execution's ticks in lock step with the spine."""
        execute = execute_message(ep, staged, decision, freeze_ns)
        self.execute_pub.publish(convert.to_string(execute))
        return self._lock_step(ep, execute, timing)

    def execute_side_by_side(
        self, asked: list[Asked], staged: Staged, timing: dict[str, Any]
    ) -> Callable[[list[Tick]], list[JointCommand]]:
        """Every episode's ``execute`` (``batched``), then their ticks in one exchange."""
        executes = []
        for ep, decision, freeze_ns, _timing in asked:
            execute = execute_message(ep, staged, decision, freeze_ns, batched=True)
            self.execute_pub.publish(convert.to_string(execute))
            executes.append(execute)
        assert self._exchange is not None  # made by run
        return self._exchange.side_by_side(staged.spec.scene_id, executes, timing)

    def _lock_step(
        self, ep: EpisodeSlot, phase: c.Phase, timing: dict[str, Any]
    ) -> Callable[[Tick], JointCommand]:
        assert self._exchange is not None  # made by run
        return self._exchange.lock_step(ep.spec.scene_id, phase, timing, self.unitree_link())

    def clock(self, ns: int) -> None:
        self.clock_pub.publish(convert.clock(ns))

    def send_outcome(self, ep: EpisodeSlot, outcome: ExecutionOutcome) -> None:
        self.outcome_pub.publish(
            convert.to_string(c.OutcomeMessage(**ep.envelope, outcome=outcome))
        )

    def await_score(self, ep: EpisodeSlot, timeout: float) -> ScoreRow | None:
        return self.await_mail(("score", ep.episode), timeout)

    def await_recorded(self, timeout: float) -> c.RunFolderEpisodes | None:
        return self.await_mail((c.RECORDED,), timeout)


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


def main(args: list[str] | None = None) -> None:
    run_node_process(SimNode, args)


if __name__ == "__main__":
    main()
