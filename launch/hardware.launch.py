"""A physical G1 (or ``reacthuman g1-bridge``) behind the spine: the guard and the spine on
Unitree's DDS interface, each plan published on /reacthuman/plan executed as it arrives.

    ros2 launch reacthuman hardware.launch.py network_interface:=enp3s0

The guard starts disarmed: arm it with the robot on its gantry, after the spine's soft start
has brought it to its standing pose (README "A physical G1"):

    ros2 service call /g1_guard/arm std_srvs/srv/Trigger
    ros2 service call /g1_guard/estop std_srvs/srv/Trigger     # damping, latched

``arm:=true`` arms as soon as the robot reports and the spine commands: for a simulated G1
only. Real time does not freeze on a robot: a brain's latency is time the robot spent
waiting.
"""

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
}


def typed(text: str, kind: type) -> object:
    if kind is bool:
        if text.lower() not in ("true", "false"):
            raise ValueError(f"expected true or false, got {text!r}")
        return text.lower() == "true"
    return kind(text)


def start_nodes(context) -> list:  # noqa: ANN001 (launch's LaunchContext)
    values = {}
    for name, (_default, kind, _about) in ARGUMENTS.items():
        text = context.launch_configurations[name]
        try:
            values[name] = typed(text, kind)
        except ValueError:
            raise ValueError(f"launch argument {name}:={text!r} is not a {kind.__name__}") from None
    dds = {"network_interface": values["network_interface"], "dds_domain": values["dds_domain"]}
    guard = Node(
        package="reacthuman",
        executable="g1_guard",
        name="g1_guard",
        output="screen",
        parameters=[{**dds, "arm": values["arm"], "use_sim_time": False}],
    )
    spine = Node(
        package="reacthuman",
        executable="spine_node",
        name="spine_node",
        output="screen",
        parameters=[
            {
                **dds,
                "backend": "g1",
                "start_on": "plan",
                "controller": values["controller"],
                "policy_path": values["policy_path"],
                "soft_start": values["soft_start"],
                "use_sim_time": False,
            }
        ],
    )
    return [guard, spine]


def generate_launch_description() -> LaunchDescription:
    declared = [
        DeclareLaunchArgument(name, default_value=default, description=about)
        for name, (default, _kind, about) in ARGUMENTS.items()
    ]
    return LaunchDescription([*declared, OpaqueFunction(function=start_nodes)])
