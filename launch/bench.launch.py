"""ReactHuman benchmark graph: sim, brain, spine, scorer (and the bag recorder) as separate
processes, with parameters from config/bench.yaml overridden by the launch arguments.

    ros2 launch reacthuman bench.launch.py brain:=heuristic limit:=5 rviz:=true

The node list and the parameter file are the ones ``reacthuman bench`` composes in one
process on machines without ROS 2's launch system (reacthuman.ros.graph). The run ends when
the simulator has played every scene; its exit shuts the other nodes down.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import (
    DeclareLaunchArgument,
    EmitEvent,
    RegisterEventHandler,
    SetEnvironmentVariable,
)
from launch.conditions import IfCondition
from launch.event_handlers import OnProcessExit
from launch.events import Shutdown
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

from reacthuman.ros.graph import FASTDDS_PROFILE, NODES, PARAMETERS_FILE

# launch argument -> (parameter, default shown to the user, type)
ARGUMENTS = {
    "scenes": ("scenes", "default", str),
    "brain": ("brain", "oracle", str),
    "base_url": ("base_url", "", str),
    "limit": ("limit", "0", int),
    "width": ("width", "640", int),
    "height": ("height", "360", int),
    "run_dir": ("run_dir", "runs/latest", str),
    "brain_timeout": ("brain_timeout", "120.0", float),
}


def generate_launch_description() -> LaunchDescription:
    share = get_package_share_directory("reacthuman")
    params_file = os.path.join(share, "config", PARAMETERS_FILE)
    declared = [
        DeclareLaunchArgument(name, default_value=default, description=f"parameter {param}")
        for name, (param, default, _kind) in ARGUMENTS.items()
    ]
    declared += [
        DeclareLaunchArgument("record", default_value="true", description="rosbag2 per episode"),
        DeclareLaunchArgument("rviz", default_value="false", description="start rviz2"),
        DeclareLaunchArgument("params", default_value=params_file, description="parameter file"),
    ]
    # Typed, so that an empty base_url stays a string and limit:=5 an integer.
    overrides = {
        param: ParameterValue(LaunchConfiguration(name), value_type=kind)
        for name, (param, _default, kind) in ARGUMENTS.items()
    }
    actions = [
        SetEnvironmentVariable("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST"),
        SetEnvironmentVariable(
            "FASTDDS_DEFAULT_PROFILES_FILE", os.path.join(share, "config", FASTDDS_PROFILE)
        ),
    ]
    nodes = {}
    for entry in NODES:
        nodes[entry.name] = Node(
            package="reacthuman",
            executable=entry.name,
            name=entry.name,
            output="screen",
            parameters=[LaunchConfiguration("params"), overrides],
            condition=IfCondition(LaunchConfiguration("record")) if entry.recorder else None,
        )
    rviz = Node(
        package="rviz2",
        executable="rviz2",
        arguments=["-d", os.path.join(share, "config", "reacthuman.rviz")],
        parameters=[{"use_sim_time": True}],
        condition=IfCondition(LaunchConfiguration("rviz")),
    )
    end = RegisterEventHandler(
        OnProcessExit(target_action=nodes["sim_node"], on_exit=[EmitEvent(event=Shutdown())])
    )
    return LaunchDescription([*declared, *actions, *nodes.values(), rviz, end])
