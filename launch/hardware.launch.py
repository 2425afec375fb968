"""A physical G1 (or ``reacthuman g1-bridge``) with the benchmark's brain: the window
recorder cuts the last 0.6 s of the robot's head camera when a decision is asked for, the
brain decides, and the spine executes each plan as it arrives, through the guard, on
Unitree's DDS interface.

    ros2 launch reacthuman hardware.launch.py network_interface:=enp3s0 \
        brain:=qwen/qwen2.5-vl-72b-instruct base_url:=https://openrouter.ai/api/v1
    ros2 service call /window_recorder/decide std_srvs/srv/Trigger

The guard starts disarmed: arm it with the robot on its gantry, after the spine's soft start
has brought it to its standing pose (README "A physical G1"):

    ros2 service call /g1_guard/arm std_srvs/srv/Trigger
    ros2 service call /g1_guard/estop std_srvs/srv/Trigger     # damping, latched

``arm:=true`` arms as soon as the robot reports and the spine commands: for a simulated G1
only. Real time does not freeze on a robot: a brain's latency is time the robot spent
waiting, recorded with each decision in <run_dir>/live_decisions.jsonl. ``brain:=none``
starts the guard and the spine alone (plans from elsewhere on /reacthuman/plan).
"""

import os

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch_ros.actions import Node

ARGUMENTS = {  # name: (default, type, description)
    "network_interface": ("lo", str, "interface wired to the G1 (Unitree: 192.168.123.x)"),
    "dds_domain": ("0", int, "Unitree's DDS domain (the robot's is 0)"),
    "controller": ("g1", str, "the walking policy: g1 (holosoma fastsac) or g1-<policy>"),
    "policy_path": ("", str, "Unitree's motion.pt, for g1-unitree-motion"),
    "soft_start": ("2.0", float, "s from the measured posture to the standing pose"),
    "arm": ("false", bool, "arm at once (a simulated G1 only)"),
    "brain": ("heuristic", str, "a baseline, a model id with base_url, or none"),
    "base_url": ("", str, "OpenAI-compatible endpoint of the model"),
    "api_key_env": ("", str, "variable holding the key (default OPENROUTER/OPENAI_API_KEY)"),
    "brain_timeout": ("120.0", float, "s for one decision; later it is an R1"),
    "cameras": ("egocentric=/camera/color/image_raw", str, "view=image topic, comma-separated"),
    "camera_poses": ("", str, "JSON poses of cameras other than the G1 head camera"),
    "period": ("0.0", float, "s between decisions; 0: only on /window_recorder/decide"),
    "run_dir": ("runs/robot", str, "decisions, their timings and the brain's responses"),
}


def fastdds_profile() -> str:
    """The package's Fast DDS profile (config/fastdds.xml), or "" where it is not installed."""
    try:
        from reacthuman.assets import config_file

        return str(config_file("fastdds.xml"))
    except (ImportError, FileNotFoundError):
        return ""


def typed(text: str, kind: type) -> object:
    if kind is bool:
        if text.lower() not in ("true", "false"):
            raise ValueError(f"expected true or false, got {text!r}")
        return text.lower() == "true"
    return kind(text)


def start_nodes(context) -> list:
    values = {}
    for name, (_default, kind, _about) in ARGUMENTS.items():
        text = context.launch_configurations[name]
        try:
            values[name] = typed(text, kind)
        except ValueError:
            raise ValueError(f"launch argument {name}:={text!r} is not a {kind.__name__}") from None
    dds = {"network_interface": values["network_interface"], "dds_domain": values["dds_domain"]}
    guard = node("g1_guard", {**dds, "arm": values["arm"]})
    spine = node(
        "spine_node",
        {
            **dds,
            "backend": "g1",
            "start_on": "plan",
            "controller": values["controller"],
            "policy_path": values["policy_path"],
            "soft_start": values["soft_start"],
        },
    )
    if values["brain"] == "none":
        return [guard, spine]
    if values["brain"] == "oracle":
        raise ValueError(
            "launch argument brain:=oracle: the oracle plans from the simulator's ground "
            "truth, which a robot does not have (a baseline, or a model with base_url)"
        )
    # Camera frames through Fast DDS's shared memory (a 32 MB segment) rather than fragmented
    # UDP, where most 640x480 frames are lost; the camera driver needs the same variable.
    profile = os.environ.get("FASTDDS_DEFAULT_PROFILES_FILE") or fastdds_profile()
    shm = {"FASTDDS_DEFAULT_PROFILES_FILE": profile} if profile else {}
    recorder = node(
        "window_recorder",
        {
            "run_dir": values["run_dir"],
            "cameras": values["cameras"],
            "camera_poses": values["camera_poses"],
            "period": values["period"],
            "plan_timeout": values["brain_timeout"] + 30.0,
        },
        shm,
    )
    brain = node(
        "brain_node",
        {
            "run_dir": values["run_dir"],
            "brain": values["brain"],
            "base_url": values["base_url"],
            "api_key_env": values["api_key_env"],
            "brain_timeout": values["brain_timeout"],
        },
        shm,
    )
    return [guard, spine, recorder, brain]


def node(executable: str, parameters: dict, env: dict | None = None) -> Node:
    """One of the package's nodes, named after its executable, on the robot's wall clock."""
    return Node(
        package="reacthuman",
        executable=executable,
        name=executable,
        output="screen",
        additional_env=env or {},
        parameters=[{**parameters, "use_sim_time": False}],
    )


def generate_launch_description() -> LaunchDescription:
    declared = [
        DeclareLaunchArgument(name, default_value=default, description=about)
        for name, (default, _kind, about) in ARGUMENTS.items()
    ]
    return LaunchDescription([*declared, OpaqueFunction(function=start_nodes)])
