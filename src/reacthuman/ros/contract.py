"""The node graph's contract: every topic, its type, QoS and frame, and the JSON envelopes.

Standard messages carry everything that has one; plans, ground truth, outcomes and scores
travel as JSON in ``std_msgs/String``, validated on both ends by the core's pydantic models
wrapped in an envelope naming the run and the episode (so a stale message from another
episode is never mistaken for the current one). README "ROS 2 interface" documents this table.

Episode protocol (sim time in ``/clock``; one run's episodes follow each other on one clock):

1. sim: ``scene`` and ``ground_truth`` (the scorer's; only the oracle brain also reads it),
   then plays to the freeze publishing camera images, camera info, ``/clock``,
   ``/joint_states`` and transforms; at the freeze it publishes ``freeze`` (the observation).
2. brain: assembles the observation from the images listed in ``freeze``, decides, publishes
   ``plan`` (an R1 record if the brain fails, hangs past its timeout or answers garbage).
3. sim: publishes ``execute`` and then, per 50 Hz control tick, ``/joint_states`` stamped at
   the tick; spine: answers each with ``spine/joint_command`` (same stamp) and ``/cmd_vel``;
   the sim does not step past a tick before its command arrived.
4. sim: ``outcome``; scorer: ``markers`` and then ``score``, and the sim moves on.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

from reacthuman.brain.client import Decision
from reacthuman.observation import Observation
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
EXECUTE = f"{NAMESPACE}/execute"
JOINT_COMMAND = f"{NAMESPACE}/spine/joint_command"
OUTCOME = f"{NAMESPACE}/outcome"
SCORE = f"{NAMESPACE}/score"
MARKERS = f"{NAMESPACE}/markers"
RUN_STATUS = f"{NAMESPACE}/run_status"
GUARD_MODE = f"{NAMESPACE}/g1_guard/mode"  # std_msgs/String: disarmed | armed | damping
STOP_SERVICE = f"{NAMESPACE}/sim/stop"  # std_srvs/Trigger: finish the episode, then stop

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
    Topic(GROUND_TRUTH, "std_msgs/msg/String", EVENTS, SIM_NODE, WORLD_FRAME, "TruthMessage"),
    Topic(FREEZE, "std_msgs/msg/String", EVENTS, SIM_NODE, WORLD_FRAME, "FreezeMessage"),
    Topic(PLAN, "std_msgs/msg/String", EVENTS, BRAIN_NODE, BASE_FRAME, "PlanMessage"),
    Topic(EXECUTE, "std_msgs/msg/String", EVENTS, SIM_NODE, WORLD_FRAME, "ExecuteMessage"),
    Topic(
        JOINT_COMMAND, "sensor_msgs/msg/JointState", STREAM, SPINE_NODE, about="targets per tick"
    ),
    Topic(CMD_VEL, "geometry_msgs/msg/Twist", STREAM, SPINE_NODE, BASE_FRAME, "walking command"),
    Topic(OUTCOME, "std_msgs/msg/String", EVENTS, SIM_NODE, WORLD_FRAME, "OutcomeMessage"),
    Topic(MARKERS, "visualization_msgs/msg/MarkerArray", EVENTS, SCORER_NODE, WORLD_FRAME),
    Topic(SCORE, "std_msgs/msg/String", EVENTS, SCORER_NODE, about="ScoreMessage"),
    Topic(RUN_STATUS, "std_msgs/msg/String", EVENTS, SIM_NODE, about="RunStatus"),
    Topic(GUARD_MODE, "std_msgs/msg/String", LATCHED, "g1_guard", about="the guard's mode"),
]
TOPIC = {t.name: t for t in TOPICS}


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
    window_start_ns: int  # sim time of the window's first frame (t = 0)
    observation: Observation


class PlanMessage(Envelope):
    decision: Decision


class ExecuteMessage(Envelope):
    """The decision being executed (the brain's, or the R1 record the simulator wrote when
    the brain never answered) and where the robot stands: all the spine needs."""

    start_ns: int  # sim time of control tick 0 (the freeze)
    ticks: int
    controller: str
    decision: Decision
    robot_pos: tuple[float, float, float]
    robot_yaw: float


class OutcomeMessage(Envelope):
    outcome: ExecutionOutcome


class ScoreMessage(Envelope):
    row: ScoreRow


class RunStatus(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    run_id: str
    state: str  # "running", "done", "stopped" or "failed"
    episodes: int = 0
    reason: str | None = None
