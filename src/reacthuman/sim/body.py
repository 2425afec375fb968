"""The G1 body in a Genesis scene: placed at the observer, read as a joint state, driven by
joint commands (PD targets and gains per joint, applied by Genesis's joint PD each physics
step, as the policies were trained; docs/spine.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from reacthuman.genesis_runtime import as_numpy as _np
from reacthuman.scenes.geometry import (
    Vec3,
    quat4,
    quat_from_yaw,
    quat_rotate,
    rotate_into,
    vec3,
)
from reacthuman.spine.command import JointCommand, JointState
from reacthuman.spine.g1 import (
    DEFAULT_POSE,
    G1_JOINTS,
    HAND_LINK,
    HAND_LINKS,
    HAND_POINT,
    PELVIS_HEIGHT,
    g1_document,
    parse_g1_once,
)

STEP_ASIDE = 100.0  # m the G1 is moved away for the ground-truth roll-out
GRASP_MAX_MASS = 1.5  # kg the hands hold (Unitree: about 2 kg payload per arm); = HEAVY_MASS_KG


def add_g1(scene: Any, gs: Any, pos: Vec3, yaw: float) -> Any:
    """Add the G1 standing at ``pos`` (floor point between its feet), facing ``yaw``."""
    parse_g1_once()
    return scene.add_entity(
        gs.morphs.MJCF(
            file=g1_document(),
            pos=(pos[0], pos[1], pos[2] + PELVIS_HEIGHT),
            quat=quat_from_yaw(yaw),
        ),
    )


def hand_point(side: str, link_pos: np.ndarray, link_quat: np.ndarray) -> Vec3:
    """A hand's centre in the world from its link's pose (``side``: "left" or "right")."""
    pos = tuple(float(v) for v in link_pos)
    offset = quat_rotate(quat4(float(v) for v in link_quat), HAND_POINT[side])
    return (pos[0] + offset[0], pos[1] + offset[1], pos[2] + offset[2])


@dataclass
class G1Body:
    """A built G1 entity and the indices the spine's joint names map to."""

    entity: Any
    dofs: np.ndarray = field(init=False)
    hand_links: dict[str, Any] = field(init=False)
    hand_side: dict[int, str] = field(init=False)
    link_indices: frozenset[int] = field(init=False)
    _gains: tuple[tuple[float, ...], tuple[float, ...]] | None = None

    _weld: tuple[int, int] | None = None  # (hand link, object link) while a hand holds

    def __post_init__(self) -> None:
        self.dofs = np.asarray(
            [self.entity.get_joint(name).dofs_idx_local[0] for name in G1_JOINTS]
        )
        self.hand_links = {side: self.entity.get_link(name) for side, name in HAND_LINK.items()}
        self.hand_side = {
            self.entity.get_link(n).idx: ("left_hand" if n.startswith("left") else "right_hand")
            for n in HAND_LINKS
        }
        self.link_indices = frozenset(link.idx for link in self.entity.links)

    def stand_up(self) -> None:
        """Default pose at rest (the scene's start); gains are set by the first command."""
        self.entity.set_dofs_position(
            np.asarray([DEFAULT_POSE[n] for n in G1_JOINTS]), self.dofs, zero_velocity=True
        )
        self._gains = None

    def base(self) -> tuple[Vec3, tuple[float, float, float, float]]:
        pos = tuple(float(v) for v in _np(self.entity.get_pos()))
        quat = tuple(float(v) for v in _np(self.entity.get_quat()))
        return pos, quat  # type: ignore[return-value]

    def state(self, tick: int, t: float) -> JointState:
        """The joint state and base IMU at the start of a control tick."""
        _pos, quat = self.base()
        omega = tuple(float(v) for v in _np(self.entity.get_ang()))
        gyro = rotate_into(quat, omega)  # world -> body frame
        q = _np(self.entity.get_dofs_position(self.dofs)).astype(np.float64)
        dq = _np(self.entity.get_dofs_velocity(self.dofs)).astype(np.float64)
        return JointState(
            tick=tick,
            t=t,
            names=G1_JOINTS,
            positions=tuple(q.tolist()),
            velocities=tuple(dq.tolist()),
            imu_quat=quat,
            imu_gyro=vec3(float(v) for v in gyro),
        )

    def apply(self, command: JointCommand) -> None:
        """PD targets and gains for the tick (held by Genesis for each of its physics steps)."""
        if command.names != G1_JOINTS:
            index = {name: i for i, name in enumerate(command.names)}
            missing = [n for n in G1_JOINTS if n not in index]
            if missing:
                raise ValueError(f"a G1 command lacks joints {missing}")
            order = [index[n] for n in G1_JOINTS]
            positions = [command.positions[i] for i in order]
            gains = (
                tuple(command.kp[i] for i in order),
                tuple(command.kd[i] for i in order),
            )
        else:
            positions, gains = list(command.positions), (command.kp, command.kd)
        if not gains[0] or not gains[1]:
            raise ValueError("a G1 command needs PD gains (kp, kd) for every joint")
        if gains != self._gains:
            self.entity.set_dofs_kp(np.asarray(gains[0]), self.dofs)
            self.entity.set_dofs_kv(np.asarray(gains[1]), self.dofs)
            self._gains = gains
        self.entity.control_dofs_position(np.asarray(positions), self.dofs)

    def hand_points(self) -> dict[str, Vec3]:
        """World position of each hand's centre (the point a keyframe places)."""
        return {
            side: hand_point(side, _np(link.get_pos()), _np(link.get_quat()))
            for side, link in self.hand_links.items()
        }

    def step_aside(self) -> None:
        """Take the G1 out of the room (for the unobserved ground-truth roll-out, which asks
        where the object goes if nothing is in its way); the freeze state brings it back."""
        pos, _quat = self.base()
        self.entity.set_pos(np.asarray([pos[0] + STEP_ASIDE, pos[1], pos[2]]), zero_velocity=True)

    def contacts_with(self, entity: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """This physics step's contacts between ``entity`` and the robot: links A and B and
        the force on geom A, as Genesis gives them (``sim.execute.StepReadings`` reads the
        same for an execution's object in one query with the rest)."""
        contacts = entity.get_contacts(with_entity=self.entity)
        return _np(contacts["link_a"]), _np(contacts["link_b"]), _np(contacts["force_a"])

    def touches_in(
        self, links_a: np.ndarray, links_b: np.ndarray, force_a: np.ndarray
    ) -> tuple[dict[str, float], int | None]:
        """Contact forces (N) between the object and each part ("left_hand", "right_hand",
        "body") from this physics step's contacts between them (``contacts_with``), and a
        hand link touching it, if any."""
        forces: dict[str, float] = {}
        hand_link = None
        force = force_a.reshape(-1, 3)
        for a, b, f in zip(links_a.tolist(), links_b.tolist(), force, strict=True):
            link = a if a in self.link_indices else b
            part = self.hand_side.get(link, "body")
            forces[part] = forces.get(part, 0.0) + float(np.linalg.norm(f))
            if part != "body":
                hand_link = link
        return forces, hand_link

    def grasp(self, hand_link: int, hazard: Any, scene: Any) -> bool:
        """Close the hand on the object (a weld between the hand link and the object), once.

        Menagerie's G1 has rubber fists, not Dex3 hands: the grasp stands in for the fingers
        closing when a hand meets an object it can hold (``sim.execute.graspable``)."""
        if self._weld is not None:
            return False
        self._weld = (hand_link, hazard.links[0].idx)
        scene.sim.rigid_solver.add_weld_constraint(*self._weld)
        return True

    def release(self, scene: Any) -> None:
        """Open the hand again (the weld is the model's, not the state's: restoring the freeze
        keeps it), so that the next execution from the freeze starts as the first did."""
        if self._weld is not None:
            scene.sim.rigid_solver.delete_weld_constraint(*self._weld)
            self._weld = None
