"""A physical G1 (or ``reacthuman g1-bridge``) with the benchmark's brain: the window
recorder cuts the last 0.6 s of the robot's head camera when a decision is asked for, the
brain decides, and the spine executes each plan as it arrives, through the guard, on
Unitree's DDS interface.

    ros2 launch reacthuman hardware.launch.py network_interface:=enp3s0 \
        brain:=qwen/qwen2.5-vl-72b-instruct base_url:=https://openrouter.ai/api/v1
    ros2 service call /window_recorder/decide std_srvs/srv/Trigger

The guard starts disarmed: arm it with the robot on its gantry (docs/physical-g1.md); the
spine's soft start then brings it to its standing pose:

    ros2 service call /g1_guard/arm std_srvs/srv/Trigger
    ros2 service call /g1_guard/estop std_srvs/srv/Trigger     # damping, latched

``arm:=true`` arms as soon as the robot reports and the spine waits to be armed, holding the
robot's posture: for a simulated G1 only. Real time does not freeze on a robot: a brain's
latency is time the robot spent waiting, recorded with each decision in
<run_dir>/live_decisions.jsonl. ``brain:=none`` starts the guard and the spine alone (plans
from elsewhere on /reacthuman/plan). The ROS graph runs on a DDS domain apart from Unitree's
(``ros_domain:=``; the launch says which): export it where ``ros2 service call`` runs.
"""

import os
from typing import Any

ARGUMENTS = {  # name: (default, type, description)
    "network_interface": ("lo", str, "interface wired to the G1 (Unitree: 192.168.123.x)"),
    "dds_domain": ("0", int, "Unitree's DDS domain (the robot's is 0)"),
    "ros_domain": ("", str, "ROS_DOMAIN_ID of the nodes (default: yours, or 1 if it is Unitree's)"),
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


def typed_arguments(configurations: dict[str, str]) -> dict[str, Any]:
    """The launch arguments, typed (a one-line error names one that is not)."""
    values = {}
    for name, (_default, kind, _about) in ARGUMENTS.items():
        text = configurations[name]
        try:
            values[name] = typed(text, kind)
        except ValueError:
            raise ValueError(f"launch argument {name}:={text!r} is not a {kind.__name__}") from None
    return values


NodeSpec = tuple[str, dict, dict]  # executable, parameters, environment


def ros_domain(values: dict[str, Any], environ: dict[str, str]) -> int:
    """The ROS graph's DDS domain: ``ros_domain:=``, else the shell's ``ROS_DOMAIN_ID``, but
    never Unitree's by default. ROS 2 (Fast DDS) and Unitree's interface (Cyclone DDS) on one
    domain work, but every ROS participant's start makes Cyclone print 62-222 lines of
    "ddsi_xt_type_add_typeobj with invalid type object" about the other's type information."""
    if values["ros_domain"]:
        try:
            return int(values["ros_domain"])
        except ValueError:
            raise ValueError(
                f"launch argument ros_domain:={values['ros_domain']!r} is not an int"
            ) from None
    unitree = values["dds_domain"]
    shell = environ.get("ROS_DOMAIN_ID", "")
    chosen = int(shell) if shell.isdigit() else 0
    return chosen if chosen != unitree else (unitree + 1) % 233


def node_specs(values: dict[str, Any]) -> list[NodeSpec]:
    """The nodes the launch starts for typed ``values``: plain data, so a test can start the
    same processes where ``ros2 launch`` is not installed."""
    dds = {"network_interface": values["network_interface"], "dds_domain": values["dds_domain"]}
    ros = {"ROS_DOMAIN_ID": str(ros_domain(values, dict(os.environ)))}
    guard = ("g1_guard", {**dds, "arm": values["arm"]}, ros)
    spine = (
        "spine_node",
        {
            **dds,
            "backend": "g1",
            "start_on": "plan",
            "controller": values["controller"],
            "policy_path": values["policy_path"],
            "soft_start": values["soft_start"],
        },
        ros,
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
    shm = {**ros, "FASTDDS_DEFAULT_PROFILES_FILE": profile} if profile else ros
    recorder = (
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
    brain = (
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


def start_nodes(context) -> list:
    from launch.actions import LogInfo

    values = typed_arguments(context.launch_configurations)
    specs = node_specs(values)
    ros = specs[0][2]["ROS_DOMAIN_ID"]
    said = LogInfo(
        msg=f"ROS 2 graph on ROS_DOMAIN_ID={ros}, Unitree's interface on DDS domain "
        f"{values['dds_domain']}: export ROS_DOMAIN_ID={ros} in the shell that calls "
        "/g1_guard/arm"
    )
    return [said, *(node(executable, params, env) for executable, params, env in specs)]


def node(executable: str, parameters: dict, env: dict | None = None):
    """One of the package's nodes, named after its executable, on the robot's wall clock."""
    from launch_ros.actions import Node

    return Node(
        package="reacthuman",
        executable=executable,
        name=executable,
        output="screen",
        additional_env=env or {},
        parameters=[{**parameters, "use_sim_time": False}],
    )


def generate_launch_description():
    from launch import LaunchDescription
    from launch.actions import DeclareLaunchArgument, OpaqueFunction

    declared = [
        DeclareLaunchArgument(name, default_value=default, description=about)
        for name, (default, _kind, about) in ARGUMENTS.items()
    ]
    return LaunchDescription([*declared, OpaqueFunction(function=start_nodes)])
