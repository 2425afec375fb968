"""The node graph's contract: every topic, its type, QoS and frame, and the JSON envelopes.

Standard messages carry everything that has one; plans, ground truth, outcomes and scores
travel as JSON in ``std_msgs/String``, validated on both ends by the core's pydantic models
wrapped in an envelope naming the run and the episode (so a stale message from another
episode is never mistaken for the current one). docs/ros.md tabulates the topics
(``topic_table``).

Episode protocol (sim time in ``/clock``; one run's episodes follow each other on one clock).
An episode is one brain on one scene; a scene is played once, in its first brain's episode,
and every brain's plan is executed from that freeze:

1. sim: ``scene`` (naming the episode's brain); in a scene's first episode with the G1,
   ``stand`` and then, per 50 Hz control tick from the scene's start to the freeze,
   ``/joint_states`` stamped at the tick, answered by the spine as in step 3 (the G1 stands
   under the spine's walking policy: the simulator runs none); then ``ground_truth`` (the
   scorer's; only the oracle brain also reads it), camera images, camera info and transforms
   of the window, and at the freeze ``freeze`` (the observation, the brain asked and the
   scene's brains still to come, which the brain node decides for at once).
2. brain: assembles the observation from the images listed in ``freeze``, decides, publishes
   ``plan`` (an R1 record if the brain fails, hangs past its timeout or answers garbage).
3. sim: publishes ``execute`` and then, per 50 Hz control tick, ``/joint_states`` stamped at
   the tick; spine: publishes the phase's ``spine/gains`` and answers each tick with
   ``spine/joint_command`` (same stamp) and ``/cmd_vel``; the sim does not step past a tick
   before its command arrived.
4. sim: ``outcome``; scorer: ``markers`` and then ``score``, and the sim moves on.

A scene's executions run side by side (one environment of the batched scene each): the sim
announces, shows and asks every brain of the scene in turn (steps 1-2, each episode on its
own span of the clock), then publishes every episode's ``execute`` (``batched``) and, per
control tick, one ``spine/batch_states`` holding a row per execution, each stamped in its
own episode's span; the spine answers all rows in one ``spine/batch_commands``, each
execution with a controller of its own. The recorder writes each row into its episode's bag
as the ``/imu``, ``/joint_states``, ``spine/joint_command`` and ``/cmd_vel`` a lone execution
has, so a bag is the same whichever way its episode ran. Then step 4 for each episode.
Executions with a video, or over Unitree's interface, run one after another as in step 3.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, model_validator
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

from reacthuman.brain.client import Decision
from reacthuman.observation import Observation
from reacthuman.run_folder import safe_name
from reacthuman.scenes.spec import CameraName, SceneSpec
from reacthuman.scenes.truth import GroundTruth
from reacthuman.scoring.results import ScoreRow
from reacthuman.spine.outcome import ExecutionOutcome

NAMESPACE = "/reacthuman"
WORLD_FRAME = "world"
BASE_FRAME = "base_link"

SIM_NODE, BRAIN_NODE, SPINE_NODE, SCORER_NODE, RECORDER_NODE = (
    "sim_node",
    "brain_node",
    "spine_node",
    "scorer_node",
    "recorder_node",
)


# QoS: everything reliable (a lost plan or command would stall the lock-step); the episode's
# JSON topics are transient-local so a subscriber that matched late still gets them.
def reliable(depth: int, latched: bool) -> QoSProfile:
    """Reliable, keep-last ``depth``; transient-local when ``latched``."""
    return QoSProfile(
        history=HistoryPolicy.KEEP_LAST,
        depth=depth,
        reliability=ReliabilityPolicy.RELIABLE,
        durability=DurabilityPolicy.TRANSIENT_LOCAL if latched else DurabilityPolicy.VOLATILE,
    )


EVENTS = reliable(10, latched=True)
STREAM = reliable(50, latched=False)
IMAGES = reliable(20, latched=True)


def images(frames: int) -> QoSProfile:
    """The camera topics' QoS for a window of ``frames`` frames a view: a freeze publishes
    them all at once, and a keep-last history shorter than that loses the earliest (37 frames
    a view, the paper's 60 fps, against 20 kept: the brain never got 17 of them)."""
    return IMAGES if frames + 2 <= IMAGES.depth else reliable(frames + 2, latched=True)


LATCHED = reliable(1, latched=True)
# A robot's spine reads plans volatile: a plan published before it (re)started is one whose
# moment has passed, never to be replayed from the brain's latched history.
FRESH = reliable(10, latched=False)


@dataclass(frozen=True)
class Topic:
    name: str
    type: str  # ROS interface name
    qos: QoSProfile
    publisher: str
    frame: str = ""
    about: str = ""


def image_topic(view: CameraName) -> str:
    return f"{NAMESPACE}/camera/{view.value}/image_raw"


def camera_info_topic(view: CameraName) -> str:
    return f"{NAMESPACE}/camera/{view.value}/camera_info"


def camera_frame(view: CameraName) -> str:
    return f"{view.value}_camera_optical"


CLOCK = "/clock"
JOINT_STATES = "/joint_states"
IMU = "/imu"
CMD_VEL = "/cmd_vel"
TF = f"{NAMESPACE}/tf"  # geometry_msgs/TransformStamped: tf2_msgs is not on PyPI (bags get /tf)
ROBOT_DESCRIPTION = "/robot_description"
SCENE = f"{NAMESPACE}/scene"
GROUND_TRUTH = f"{NAMESPACE}/ground_truth"
FREEZE = f"{NAMESPACE}/freeze"
PLAN = f"{NAMESPACE}/plan"
STAND = f"{NAMESPACE}/stand"
EXECUTE = f"{NAMESPACE}/execute"
JOINT_COMMAND = f"{NAMESPACE}/spine/joint_command"
BATCH_STATES = f"{NAMESPACE}/spine/batch_states"  # a tick of executions side by side
BATCH_COMMANDS = f"{NAMESPACE}/spine/batch_commands"
GAINS = f"{NAMESPACE}/spine/gains"  # once per phase: JointState cannot carry kp, kd
OUTCOME = f"{NAMESPACE}/outcome"
SCORE = f"{NAMESPACE}/score"
MARKERS = f"{NAMESPACE}/markers"
RUN_STATUS = f"{NAMESPACE}/run_status"
SCORED = f"{NAMESPACE}/scored"  # RunFolderEpisodes: the score rows the run folder holds
RECORDED = f"{NAMESPACE}/recorded"  # RunFolderEpisodes: the bags it holds
GUARD_MODE = f"{NAMESPACE}/g1_guard/mode"  # std_msgs/String: disarmed | armed | damping
STOP_SERVICE = f"{NAMESPACE}/sim/stop"  # std_srvs/Trigger: finish the episode, then stop
# The episode's messages its score is computed from (the scorer's, and what a bag must hold
# beside the score to be written: ``reacthuman replay`` re-scores from them).
SCORED_FROM = (SCENE, GROUND_TRUTH, EXECUTE, OUTCOME)

TOPICS: list[Topic] = [
    Topic(CLOCK, "rosgraph_msgs/msg/Clock", STREAM, SIM_NODE, about="simulated time"),
    *[
        Topic(
            image_topic(v),
            "sensor_msgs/msg/Image",
            IMAGES,
            SIM_NODE,
            camera_frame(v),
            "rgb8 frames of the observation window",
        )
        for v in CameraName
    ],
    *[
        Topic(
            camera_info_topic(v),
            "sensor_msgs/msg/CameraInfo",
            IMAGES,
            SIM_NODE,
            camera_frame(v),
            "pinhole intrinsics, one per frame",
        )
        for v in CameraName
    ],
    Topic(
        JOINT_STATES, "sensor_msgs/msg/JointState", STREAM, SIM_NODE, about="body state per tick"
    ),
    Topic(
        IMU,
        "sensor_msgs/msg/Imu",
        STREAM,
        SIM_NODE,
        BASE_FRAME,
        "G1 base orientation and angular velocity per tick (stamped as /joint_states)",
    ),
    Topic(TF, "geometry_msgs/msg/TransformStamped", STREAM, SIM_NODE, WORLD_FRAME, "transforms"),
    Topic(ROBOT_DESCRIPTION, "std_msgs/msg/String", LATCHED, SIM_NODE, about="URDF of the body"),
    Topic(SCENE, "std_msgs/msg/String", EVENTS, SIM_NODE, WORLD_FRAME, "SceneMessage"),
    Topic(STAND, "std_msgs/msg/String", EVENTS, SIM_NODE, WORLD_FRAME, "StandMessage"),
    Topic(GROUND_TRUTH, "std_msgs/msg/String", EVENTS, SIM_NODE, WORLD_FRAME, "TruthMessage"),
    Topic(FREEZE, "std_msgs/msg/String", EVENTS, SIM_NODE, WORLD_FRAME, "FreezeMessage"),
    Topic(PLAN, "std_msgs/msg/String", EVENTS, BRAIN_NODE, BASE_FRAME, "PlanMessage"),
    Topic(EXECUTE, "std_msgs/msg/String", EVENTS, SIM_NODE, WORLD_FRAME, "ExecuteMessage"),
    Topic(
        JOINT_COMMAND, "sensor_msgs/msg/JointState", STREAM, SPINE_NODE, about="targets per tick"
    ),
    Topic(GAINS, "std_msgs/msg/String", EVENTS, SPINE_NODE, about="GainsMessage, once per phase"),
    Topic(
        BATCH_STATES,
        "std_msgs/msg/Float64MultiArray",
        STREAM,
        SIM_NODE,
        about="executions side by side: a row per execution a tick (`convert.STATE_FIELDS`)",
    ),
    Topic(
        BATCH_COMMANDS,
        "std_msgs/msg/Float64MultiArray",
        STREAM,
        SPINE_NODE,
        about="the spine's answer to a batch, row by row (`convert.COMMAND_FIELDS`)",
    ),
    Topic(CMD_VEL, "geometry_msgs/msg/Twist", STREAM, SPINE_NODE, BASE_FRAME, "walking command"),
    Topic(OUTCOME, "std_msgs/msg/String", EVENTS, SIM_NODE, WORLD_FRAME, "OutcomeMessage"),
    Topic(MARKERS, "visualization_msgs/msg/MarkerArray", EVENTS, SCORER_NODE, WORLD_FRAME),
    Topic(SCORE, "std_msgs/msg/String", EVENTS, SCORER_NODE, about="ScoreMessage"),
    Topic(RUN_STATUS, "std_msgs/msg/String", EVENTS, SIM_NODE, about="RunStatus"),
    Topic(SCORED, "std_msgs/msg/String", LATCHED, SCORER_NODE, about="RunFolderEpisodes"),
    Topic(RECORDED, "std_msgs/msg/String", LATCHED, RECORDER_NODE, about="RunFolderEpisodes"),
    Topic(
        GUARD_MODE,
        "std_msgs/msg/String",
        LATCHED,
        "g1_guard",
        about="disarmed, armed or damping ([a physical G1](physical-g1.md))",
    ),
]
TOPIC = {t.name: t for t in TOPICS}


def topic_table() -> str:
    """The topics as the Markdown table docs/ros.md shows (a test keeps the two equal)."""

    def qos(profile: QoSProfile) -> str:
        latched = profile.durability == DurabilityPolicy.TRANSIENT_LOCAL
        return f"reliable, {'transient-local' if latched else 'volatile'}, {profile.depth}"

    lines = [
        "| topic | type | from | QoS (depth) | frame | carries |",
        "|---|---|---|---|---|---|",
    ]
    for t in TOPICS:
        frame = f"`{t.frame}`" if t.frame else ""
        lines.append(
            f"| `{t.name}` | `{t.type}` | {t.publisher} | {qos(t.qos)} | {frame} | {t.about} |"
        )
    return "\n".join(lines) + "\n"


class Envelope(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    run_id: str
    episode: int


class SceneMessage(Envelope):
    brain: str
    start_ns: int  # sim time at which the episode begins ...
    end_ns: int  # ... and ends: its stamped messages fall in between
    spec: SceneSpec


class TruthMessage(Envelope):
    truth: GroundTruth


class FreezeMessage(Envelope):
    brain: str = ""  # the brain asked (the scene message's); "": the brain node's first (live)
    brains: tuple[str, ...] = ()  # the brains this scene's episodes ask, this one's on
    window_start_ns: int  # sim time of the window's first frame (t = 0)
    observation: Observation


class PlanMessage(Envelope):
    decision: Decision
    # On a robot (spine_node backend:=g1): the robot tick (ms) from which the plan runs, at
    # the first LowState answered at or after it; None, the next one. A brain leaves it None
    # (a plan starts as it arrives); a script names a tick, so that a run against a
    # lock-stepped simulated G1 is the same on a busy host as on a quiet one.
    start_tick: int | None = Field(default=None, ge=0, le=0xFFFFFFFF)


class Phase(Envelope):
    """A span of control ticks the spine drives in lock step: tick k's joint state is stamped
    ``start_ns`` + k control periods, and the spine answers it with that stamp."""

    start_ns: int  # sim time of control tick 0
    ticks: int
    controller: str
    robot_pos: tuple[float, float, float]
    robot_yaw: float


class StandMessage(Phase):
    """The G1 stands at the observer from the scene's start (tick 0) to the freeze, under the
    spine's walking policy at a zero command (``G1Controller.wait``)."""


class ExecuteMessage(Phase):
    """The decision being executed from the freeze (tick 0): the brain's, or the R1 record the
    simulator wrote when the brain never answered. With where the robot stands, all the
    spine needs."""

    decision: Decision
    batched: bool = False  # its ticks come as rows of BATCH_STATES, beside other executions


class GainsMessage(Envelope):
    """The PD gains of the spine's joint commands for one phase (stand or execute), published
    as it starts (they are fixed for a phase; empty for the kinematic stand-in, whose targets
    are kinematic): the spine owns them, the simulator applies them with each tick's targets."""

    start_ns: int  # the phase's (``Phase.start_ns``)
    names: tuple[str, ...]
    kp: tuple[float, ...]
    kd: tuple[float, ...]

    @model_validator(mode="after")
    def _one_gain_per_joint(self) -> GainsMessage:
        if not len(self.kp) == len(self.kd) == (len(self.names) if self.kp else 0):
            raise ValueError(
                f"{len(self.names)} joints with {len(self.kp)} kp and {len(self.kd)} kd"
            )
        return self

    def for_joints(self, names: tuple[str, ...]) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """(kp, kd) in the order of ``names`` (a command's joints); empty when there are none."""
        if not self.kp:
            return (), ()
        index = {name: i for i, name in enumerate(self.names)}
        missing = [n for n in names if n not in index]
        if missing:
            raise ValueError(f"no gains for joint(s) {', '.join(missing)}")
        return tuple(self.kp[index[n]] for n in names), tuple(self.kd[index[n]] for n in names)


class OutcomeMessage(Envelope):
    outcome: ExecutionOutcome


class ScoreMessage(Envelope):
    row: ScoreRow


class RunFolderEpisodes(BaseModel):
    """The episodes a run folder already holds, scene ids by brain (as its folder is named,
    ``run_folder.safe_name``): the scorer's score rows (``scored``) or the recorder's bags
    (``recorded``). Latched and renewed as they grow, so that a (re)started simulator
    resumes a run without reading another node's files."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    run_dir: str  # as the publishing node resolved it: nodes of one run name the same folder
    episodes: dict[str, tuple[str, ...]]

    def of(self, brain: str) -> set[str]:
        """The scene ids held for ``brain`` (its name, or its folder's)."""
        return set(self.episodes.get(safe_name(brain), ()))


class RunStatus(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    run_id: str
    state: str  # "running", "done", "stopped" or "failed"
    episodes: int = 0
    reason: str | None = None
