"""The G1 body in a Genesis scene: placed at the observer, read as a joint state, driven by
joint commands (PD targets and gains per joint, applied by Genesis's joint PD each physics
step, as the policies were trained; docs/spine.md)."""

from __future__ import annotations

import copy
import functools
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
)

STEP_ASIDE = 100.0  # m the G1 is moved away for the ground-truth roll-out
GRASP_MAX_MASS = 1.5  # kg the hands hold (Unitree: about 2 kg payload per arm); = HEAVY_MASS_KG


@functools.cache
def parse_g1_once() -> None:
    """Genesis parses an MJCF document anew for every scene that adds it: for the G1 that
    is 1.5-2.5 s (its meshes' vertices are deduplicated each time). The G1's parse is kept
    for the process and each scene gets a deep copy of it (0.1-0.2 s), the same data the
    parse gives (every other document is parsed as before). Called before the G1 is added
    anywhere (every scene's body), so a process parses it once."""
    from genesis.utils import mjcf

    parse = mjcf.parse_xml
    parsed: dict[tuple[Any, ...], Any] = {}

    @functools.wraps(parse)
    def parse_xml(morph: Any, surface: Any, rigid_options: Any = None) -> Any:
        if getattr(morph, "file", None) != g1_document():  # cached: one string
            return parse(morph, surface, rigid_options)
        key = (
            tuple(np.ravel(morph.scale).tolist()),
            morph.visualization,
            morph.exclude_ground_plane,
            repr(surface),
        )
        if key not in parsed:
            parsed[key] = parse(morph, surface, rigid_options)
        return copy.deepcopy(parsed[key])

    mjcf.parse_xml = parse_xml


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
    """A built G1 entity and the indices the spine's joint names map to.

    In a batched scene (``Simulator.build``: one environment per plan executed side by side)
    every environment holds a G1: getters take the environment (``env``), ``apply`` drives
    them all alike and ``apply_each`` each with its own command; an unbatched scene (the
    bridge's, the proving ground's) is environment 0."""

    entity: Any
    dofs: np.ndarray = field(init=False)
    hand_links: dict[str, Any] = field(init=False)
    hand_side: dict[int, str] = field(init=False)
    link_indices: frozenset[int] = field(init=False)
    _gains: list[tuple[tuple[float, ...], tuple[float, ...]] | None] = field(init=False)
    # env -> (hand link, object link) while a hand holds in that environment
    _welds: dict[int, tuple[int, int]] = field(init=False)

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
        self._gains = []
        self._welds = {}

    @property
    def batched(self) -> bool:
        """Whether the scene is batched (known once it is built: the body may come first)."""
        return int(getattr(self.entity._solver, "n_envs", 0)) > 0

    @property
    def envs(self) -> int:
        """The scene's environments (1 when unbatched)."""
        return max(1, int(getattr(self.entity._solver, "n_envs", 0)))

    def _all(self, values: np.ndarray) -> np.ndarray:
        """One environment's values for every environment of a batched scene."""
        return np.tile(values, (self.envs, 1)) if self.batched else values

    def _of(self, values: Any, env: int) -> np.ndarray:
        array = _np(values)
        return array[env] if self.batched else array

    def stand_up(self) -> None:
        """Default pose at rest (the scene's start); gains are set by the first command."""
        self.entity.set_dofs_position(
            self._all(np.asarray([DEFAULT_POSE[n] for n in G1_JOINTS])),
            self.dofs,
            zero_velocity=True,
        )
        self._gains = []

    def base(self, env: int = 0) -> tuple[Vec3, tuple[float, float, float, float]]:
        pos = tuple(float(v) for v in self._of(self.entity.get_pos(), env))
        quat = tuple(float(v) for v in self._of(self.entity.get_quat(), env))
        return pos, quat  # type: ignore[return-value]

    def state(self, tick: int, t: float, env: int = 0) -> JointState:
        """The joint state and base IMU at the start of a control tick."""
        return self.states(tick, t)[env]

    def states(self, tick: int, t: float) -> list[JointState]:
        """``state`` of every environment, read once."""
        quats = _np(self.entity.get_quat()).reshape(self.envs, 4)
        omegas = _np(self.entity.get_ang()).reshape(self.envs, 3)
        qs = _np(self.entity.get_dofs_position(self.dofs)).astype(np.float64)
        dqs = _np(self.entity.get_dofs_velocity(self.dofs)).astype(np.float64)
        qs, dqs = qs.reshape(self.envs, -1), dqs.reshape(self.envs, -1)
        out = []
        for env in range(self.envs):
            quat = quat4(float(v) for v in quats[env])
            gyro = rotate_into(quat, tuple(float(v) for v in omegas[env]))  # world -> body
            out.append(
                JointState(
                    tick=tick,
                    t=t,
                    names=G1_JOINTS,
                    positions=tuple(qs[env].tolist()),
                    velocities=tuple(dqs[env].tolist()),
                    imu_quat=quat,
                    imu_gyro=vec3(float(v) for v in gyro),
                )
            )
        return out

    def apply(self, command: JointCommand) -> None:
        """PD targets and gains for the tick in every environment (held by Genesis for each
        of its physics steps)."""
        self.apply_each([command] * self.envs)

    def apply_each(self, commands: list[JointCommand]) -> None:
        """Each environment's command for the tick (``commands[env]``)."""
        if len(commands) != self.envs:
            raise ValueError(f"{len(commands)} commands for {self.envs} environments")
        ordered = [_in_g1_order(command) for command in commands]
        gains = [g for _p, g in ordered]
        if gains != self._gains:
            kp = np.asarray([g[0] for g in gains])
            kv = np.asarray([g[1] for g in gains])
            self.entity.set_dofs_kp(kp if self.batched else kp[0], self.dofs)
            self.entity.set_dofs_kv(kv if self.batched else kv[0], self.dofs)
            self._gains = gains  # type: ignore[assignment]
        targets = np.asarray([p for p, _g in ordered])
        self.entity.control_dofs_position(targets if self.batched else targets[0], self.dofs)

    def hand_points(self, env: int = 0) -> dict[str, Vec3]:
        """World position of each hand's centre (the point a keyframe places)."""
        return {
            side: hand_point(side, self._of(link.get_pos(), env), self._of(link.get_quat(), env))
            for side, link in self.hand_links.items()
        }

    def step_aside(self) -> None:
        """Take the G1 out of the room (for the unobserved ground-truth roll-out, which asks
        where the object goes if nothing is in its way); the freeze state brings it back."""
        pos, _quat = self.base()
        self.entity.set_pos(
            self._all(np.asarray([pos[0] + STEP_ASIDE, pos[1], pos[2]])), zero_velocity=True
        )

    def contacts_with(self, entity: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """This physics step's contacts between ``entity`` and the robot in an unbatched
        scene: links A and B and the force on geom A, as Genesis gives them
        (``sim.execute.StepReadings`` reads the same for every environment at once)."""
        contacts = entity.get_contacts(with_entity=self.entity)
        return _np(contacts["link_a"]), _np(contacts["link_b"]), _np(contacts["force_a"])

    def touches_in(
        self, links_a: np.ndarray, links_b: np.ndarray, force_a: np.ndarray
    ) -> tuple[dict[str, float], int | None]:
        """Contact forces (N) between the object and each part ("left_hand", "right_hand",
        "body") from this physics step's contacts between them in one environment
        (``sim.execute.StepReadings.contacts``), and a hand link touching it, if any."""
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

    def grasp(self, hand_link: int, hazard: Any, scene: Any, env: int = 0) -> bool:
        """Close the hand on the object in one environment (a weld between the hand link and
        the object), once.

        Menagerie's G1 has rubber fists, not Dex3 hands: the grasp stands in for the fingers
        closing when a hand meets an object it can hold (``sim.execute.graspable``)."""
        if env in self._welds:
            return False
        weld = (hand_link, hazard.links[0].idx)
        where = {"envs_idx": [env]} if self.batched else {}
        scene.sim.rigid_solver.add_weld_constraint(*weld, **where)
        self._welds[env] = weld
        return True

    def holding(self, env: int = 0) -> bool:
        return env in self._welds

    def release(self, scene: Any) -> None:
        """Open every hand again (the weld is the model's, not the state's: restoring the
        freeze keeps it), so that the next execution from the freeze starts as the first did."""
        for env, weld in sorted(self._welds.items()):
            where = {"envs_idx": [env]} if self.batched else {}
            scene.sim.rigid_solver.delete_weld_constraint(*weld, **where)
        self._welds = {}


def _in_g1_order(
    command: JointCommand,
) -> tuple[list[float], tuple[tuple[float, ...], tuple[float, ...]]]:
    """A command's targets and gains in ``G1_JOINTS`` order."""
    if command.names != G1_JOINTS:
        index = {name: i for i, name in enumerate(command.names)}
        missing = [n for n in G1_JOINTS if n not in index]
        if missing:
            raise ValueError(f"a G1 command lacks joints {missing}")
        order = [index[n] for n in G1_JOINTS]
        positions = [command.positions[i] for i in order]
        gains = (tuple(command.kp[i] for i in order), tuple(command.kd[i] for i in order))
    else:
        positions, gains = list(command.positions), (command.kp, command.kd)
    if not gains[0] or not gains[1]:
        raise ValueError("a G1 command needs PD gains (kp, kd) for every joint")
    return positions, gains
