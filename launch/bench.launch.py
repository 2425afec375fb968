"""ReactHuman benchmark graph: sim, brain, spine, scorer (and the bag recorder) as separate
processes, with parameters from config/bench.yaml overridden by the launch arguments given.

    ros2 launch reacthuman bench.launch.py brain:=heuristic limit:=5 rviz:=true
    ros2 launch reacthuman bench.launch.py brain:=oracle,heuristic,always-dodge

Several brains (comma-separated) are evaluated on each scene played once, each plan executed
from the same freeze.

The node list and the parameter file are the ones ``reacthuman bench`` composes in one
process on machines without ROS 2's launch system (reacthuman.ros.graph). The run ends when
the simulator has played every scene; its exit shuts the other nodes down. Isolation is
``reacthuman bench``'s too: DDS stays on this machine and, unless ROS_DOMAIN_ID is set, the
run gets a domain of its own (logged at start), so two launches on one machine never cross.
"""

import os
from pathlib import Path

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import (
    DeclareLaunchArgument,
    EmitEvent,
    LogInfo,
    OpaqueFunction,
    RegisterEventHandler,
    SetEnvironmentVariable,
)
from launch.conditions import IfCondition
from launch.event_handlers import OnProcessExit
from launch.events import Shutdown
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

from reacthuman.ros.graph import (
    FASTDDS_PROFILE,
    NODES,
    PARAMETERS_FILE,
    isolate,
    node_parameters,
)

# launch argument -> (parameter, type). Left empty, the parameter file's value holds.
ARGUMENTS = {
    "scenes": ("scenes", str),
    "brain": ("brain", str),
    "base_url": ("base_url", str),
    "limit": ("limit", int),
    "shard": ("shard", int),  # with shards: this launch's share of the set (several machines)
    "shards": ("shards", int),
    "width": ("width", int),
    "height": ("height", int),
    "frames": ("frames", int),
    "legend": ("legend", bool),  # the legend ablation (default: frames only)
    "run_dir": ("run_dir", str),
    "brain_timeout": ("brain_timeout", float),
    "controller": ("controller", str),  # sim_node and spine_node alike
    "policy_path": ("policy_path", str),
    "videos": ("videos", bool),
    "episodes_per_process": ("episodes_per_process", int),  # Genesis worker renewal (0: none)
}
BOOLEANS = {"true": True, "false": False}
EXPECTED = {int: "an integer", float: "a number", bool: "true or false"}


def typed(name: str, text: str, kind: type) -> object:
    """A launch argument's text as its parameter's type, or an error naming the argument."""
    try:
        if kind is bool:
            return BOOLEANS[text.lower()]
        return kind(text)
    except (KeyError, ValueError):
        raise ValueError(f"launch argument {name}:={text!r} must be {EXPECTED[kind]}") from None


def start_nodes(context) -> list:
    """The graph's nodes, each with its values from the parameter file (``/**``, then its own
    section) and the arguments given on top: merged here, as ``reacthuman bench`` does,
    because ROS 2 ranks a file's node section above any ``/**`` override whatever the order."""
    overrides = {
        param: typed(name, context.launch_configurations[name], kind)
        for name, (param, kind) in ARGUMENTS.items()
        if context.launch_configurations.get(name, "") != ""
    }
    params = LaunchConfiguration("params").perform(context)
    if not os.path.isfile(params):
        raise FileNotFoundError(f"launch argument params:={params}: no such parameter file")
    record = IfCondition(LaunchConfiguration("record"))
    nodes = {
        entry.name: Node(
            package="reacthuman",
            executable=entry.name,
            name=entry.name,
            output="screen",
            parameters=[{**node_parameters(entry.name, Path(params)), **overrides}],
            condition=record if entry.recorder else None,
        )
        for entry in NODES
        if not entry.unitree  # the guard: hardware.launch.py, or bench --spine-link unitree
    }
    end = RegisterEventHandler(
        OnProcessExit(target_action=nodes["sim_node"], on_exit=[EmitEvent(event=Shutdown())])
    )
    return [*nodes.values(), end]


def generate_launch_description() -> LaunchDescription:
    share = get_package_share_directory("reacthuman")
    declared = [
        DeclareLaunchArgument(name, default_value="", description=f"{param} (empty: from params)")
        for name, (param, _kind) in ARGUMENTS.items()
    ]
    declared += [
        DeclareLaunchArgument("record", default_value="true", description="rosbag2 per episode"),
        DeclareLaunchArgument("rviz", default_value="false", description="start rviz2"),
        DeclareLaunchArgument(
            "params",
            default_value=os.path.join(share, "config", PARAMETERS_FILE),
            description="parameter file",
        ),
    ]
    env = dict(os.environ)
    own_profile = not env.get("FASTDDS_DEFAULT_PROFILES_FILE")
    chosen = isolate(env)  # what the user left unset: localhost discovery, a domain per run
    if own_profile:  # the installed package's copy
        chosen["FASTDDS_DEFAULT_PROFILES_FILE"] = os.path.join(share, "config", FASTDDS_PROFILE)
    environment = [SetEnvironmentVariable(key, value) for key, value in chosen.items()]
    announce = LogInfo(
        msg=f"ReactHuman: ROS_DOMAIN_ID={env['ROS_DOMAIN_ID']}, discovery "
        f"{env['ROS_AUTOMATIC_DISCOVERY_RANGE']} (export both to watch from another shell)"
    )
    rviz = Node(
        package="rviz2",
        executable="rviz2",
        arguments=["-d", os.path.join(share, "config", "reacthuman.rviz")],
        parameters=[{"use_sim_time": True}],
        condition=IfCondition(LaunchConfiguration("rviz")),
    )
    return LaunchDescription(
        [*declared, *environment, announce, OpaqueFunction(function=start_nodes), rviz]
    )
