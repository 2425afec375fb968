"""Run a SceneSpec in Genesis: play to the freeze, render the window, roll out ground truth.

One ``Simulator`` per process (``sim.simulator``) initialises Genesis once (with a fixed
seed: the seed is part of Genesis's kernel-cache key, and all scene randomness already lives
in the spec) and builds each scene. Each ``Episode`` is one built scene:

1. steps at dt = 1/240 s from rest, releases triggers at t0 (after any settling pre-roll),
2. renders the three cameras at the window's frame times,
3. freezes at t0 + window (``freeze_state``) so execution can resume exactly there,
4. rolls on, unobserved, to t0 + horizon recording the hazard point and its first floor
   contact, computes ground truth, and restores the freeze.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from reacthuman.genesis_runtime import LinkPoses, as_numpy
from reacthuman.scenes.geometry import (
    Quat,
    Vec3,
    add,
    quat_mul,
    quat_rotate,
    rotate_into,
)
from reacthuman.scenes.kinematics import kinetic_energy
from reacthuman.scenes.spec import CameraName, ObjectRole, SceneObject, SceneSpec
from reacthuman.scenes.truth import (
    GroundTruth,
    HazardView,
    Obstacle,
    furniture_obstacles,
    ground_truth,
    obstacle,
)
from reacthuman.sim.contacts import Contacts, step_contacts, touching
from reacthuman.sim.settings import DT, RenderSettings
from reacthuman.sim.visibility import hazard_view
from reacthuman.spine.command import CONTROL_PERIOD

MIN_ENVS = 2  # environments of every scene (``sim.simulator.Simulator``'s docstring)
MAX_ENVS = 8  # plans executed side by side; more run in turns

_np = as_numpy


@dataclass
class Placed:
    """An object of the spec as the Genesis scene holds it: its entity, and where its hazard
    point, centre of mass and own axes sit in the entity's link frame."""

    obj: SceneObject
    entity: Any
    hazard_offset: Vec3  # the hazard point in the entity's link frame
    center_offset: Vec3 = (0.0, 0.0, 0.0)  # the centre of mass in the link frame
    frame: Quat = (1.0, 0.0, 0.0, 0.0)  # the object's own axes in the link frame


@dataclass
class Episode:
    """A built scene, ready to play once from rest."""

    spec: SceneSpec
    settings: RenderSettings
    scene: Any
    floor: Any
    objects: dict[str, Placed]
    cameras: dict[CameraName, Any]
    starts_on_floor: bool
    envs: int = MIN_ENVS  # environments: one per plan executed side by side (``Simulator.build``)
    g1: Any = None  # sim.body.G1Body when the scene has the G1
    stand: Callable[[Any], Any] | None = None  # the G1's controller while it stands
    freeze_state: Any = None
    frames: dict[tuple[CameraName, float], np.ndarray] = field(default_factory=dict)
    g1_states: dict[float, Any] = field(default_factory=dict)  # the G1 at each frame time
    # Wall seconds: all physics steps, of which those after the freeze (the ground-truth
    # roll-out), and rendering.
    seconds: dict[str, float] = field(
        default_factory=lambda: {"physics": 0.0, "after_freeze": 0.0, "render": 0.0}
    )

    @property
    def hazard(self) -> Placed:
        return self.objects[self.spec.primary_hazard]

    @property
    def window(self) -> float:
        """The observed span: the scene's own window unless the settings override it."""
        return self.settings.window_of(self.spec)

    @functools.cached_property
    def _hazard_poses(self) -> LinkPoses:
        return LinkPoses(self.scene.sim.rigid_solver, [self.hazard.entity.link_start])

    def _hazard_link(self) -> tuple[Vec3, Quat]:
        """The hazard's (first) link, as its entity's getters give it: read every physics
        step of the play and the ground-truth roll-out."""
        pos, quat = self._hazard_poses.read()
        return tuple(pos[0, 0].tolist()), tuple(quat[0, 0].tolist())

    def hazard_point(self) -> tuple[float, float, float]:
        pos, quat = self._hazard_link()
        return add(pos, quat_rotate(quat, self.hazard.hazard_offset))

    def hazard_pose(self) -> tuple[Vec3, Vec3, Quat]:
        """The hazard point, the object's centre of mass and its orientation (world frame)."""
        pos, quat = self._hazard_link()
        placed = self.hazard
        return (
            add(pos, quat_rotate(quat, placed.hazard_offset)),
            add(pos, quat_rotate(quat, placed.center_offset)),
            quat_mul(quat, placed.frame),
        )

    @functools.cached_property
    def _others(self) -> list[tuple[str, Placed]]:
        """Every object but the primary hazard: each is a hazard too if it reaches the robot."""
        return [(n, p) for n, p in self.objects.items() if n != self.spec.primary_hazard]

    @functools.cached_property
    def _other_poses(self) -> LinkPoses:
        links = [placed.entity.link_start for _name, placed in self._others]
        return LinkPoses(self.scene.sim.rigid_solver, links)

    def other_poses(self) -> list[tuple[Vec3, Quat]]:
        """The centre of mass and orientation of every other object (``_others``' order)."""
        if not self._others:
            return []
        pos, quat = self._other_poses.read()
        out = []
        for i, (_name, placed) in enumerate(self._others):
            p, q = tuple(pos[0, i].tolist()), tuple(quat[0, i].tolist())
            out.append((add(p, quat_rotate(q, placed.center_offset)), quat_mul(q, placed.frame)))
        return out

    def hazard_contacts(self, envs: int | None = None) -> list[tuple[Contacts, np.ndarray, bool]]:
        """This step's contacts in each environment (the first ``envs``: ``step_contacts``),
        which of them involve the hazard, and whether one of those is with the floor (as
        ``get_contacts(with_entity=)`` finds it)."""
        out = []
        for contacts in step_contacts(self.scene, envs):
            mine = touching(contacts.geom_a, contacts.geom_b, self.hazard.entity)
            floor = touching(contacts.geom_a, contacts.geom_b, self.floor)
            out.append((contacts, mine, bool((mine & floor).any())))
        return out

    def hazard_on_floor(self) -> bool:
        """In environment 0 (the play's: every environment plays alike)."""
        return self.hazard_contacts(envs=1)[0][2]

    def hazard_landed(self) -> bool:
        """Whether the hazard has come down to the floor: its first floor contact, or, for one
        standing on the floor from the start (furniture, a standee), its hazard point down to
        ``LANDED_SHARE`` of its starting height (ground truth's landing, ``_landing_time``)."""
        if not self.starts_on_floor:
            return self.hazard_on_floor()
        return self.landed_at(self.hazard_point())

    def landed_at(self, point: Vec3) -> bool:
        """For a hazard standing on the floor from the start: whether its hazard point at
        ``point`` has come down (``hazard_landed``)."""
        start = self._start_height
        return start >= MIN_LANDING_DROP and point[2] <= LANDED_SHARE * start

    @functools.cached_property
    def _start_height(self) -> float:
        """Where the hazard point starts above the floor."""
        obj = self.hazard.obj
        return add(obj.pose.pos, quat_rotate(obj.pose.quat, obj.hazard_point))[2]

    def _launch(self, at_t0: bool) -> None:
        for placed in self.objects.values():
            obj = placed.obj
            if obj.launch_at_t0 != at_t0:
                continue
            if obj.joint is None:
                # A free joint's angular velocity is in the body's own frame.
                spin = rotate_into(obj.pose.quat, obj.ang_vel)
                velocity = np.asarray([*obj.lin_vel, *spin])
            else:
                rate = sum(a * w for a, w in zip(obj.joint.axis, obj.ang_vel, strict=True))
                velocity = np.asarray([rate])
            placed.entity.set_dofs_velocity(np.tile(velocity, (self.envs, 1)))

    def _stand(self, tick: int) -> None:
        """One control tick of the G1 standing under its controller (zero command)."""
        if self.stand is None:
            raise RuntimeError("an episode with the G1 needs its standing controller")
        self.g1.apply(self.stand(self.g1.state(tick, tick * CONTROL_PERIOD)))

    def run(self, on_frame: Callable[[], None] | None = None) -> GroundTruth:
        """Play from rest to the horizon: frames in the window, freeze, unobserved roll-out.

        Leaves the scene restored to the freeze, so execution resumes exactly there.
        """
        timing = self.spec.timing
        window = self.window
        t0_step = round(timing.t0 / DT)
        frame_times = self.settings.frame_times(window)
        frame_steps = {t0_step + round(t / DT): t for t in frame_times}
        first_t, window_t = frame_times[0], frame_times[-1]
        segmentations: dict[tuple[CameraName, float], np.ndarray] = {}
        freeze_step = freeze_step_of(self.spec, self.settings)
        end_step = t0_step + round(timing.horizon / DT)
        samples: list[tuple[float, Vec3, Vec3, float]] = []
        poses: list[tuple[Vec3, Quat]] = []
        obstacles: list[Obstacle] = []
        floor_time: float | None = None
        lowest = final = float("inf")
        obj = self.hazard.obj
        tracks: dict[str, list[tuple[float, Vec3, Vec3, float]]] = {n: [] for n, _ in self._others}
        self._launch(at_t0=False)
        previous = self.hazard_pose()
        previous_others = self.other_poses()
        tick_starts = _tick_starts(freeze_step) if self.g1 is not None else {}
        for step in range(end_step + 1):
            if step in tick_starts:
                self._stand(tick_starts[step])
            if step == t0_step:
                self._launch(at_t0=True)
            if step >= t0_step:
                pose = self.hazard_pose()
                point, center, orientation = pose
                velocity = tuple((point[i] - previous[0][i]) / DT for i in range(3))
                center_vel = tuple((center[i] - previous[1][i]) / DT for i in range(3))
                energy = kinetic_energy(
                    obj.shape,
                    obj.mass_kg,
                    center_vel,
                    angular_velocity(previous[2], orientation, DT),
                    orientation,
                )
                samples.append(((step - t0_step) * DT, point, velocity, energy))  # type: ignore[arg-type]
                poses.append((center, orientation))
                now_others = self.other_poses()
                self._track_others(tracks, (step - t0_step) * DT, previous_others, now_others)
                lowest, final = min(lowest, center[2]), center[2]
                if (
                    floor_time is None
                    and step > t0_step
                    and not self.starts_on_floor
                    and self.hazard_on_floor()
                ):
                    floor_time = (step - t0_step) * DT
            if step in frame_steps:
                t = frame_steps[step]
                started = time.perf_counter()
                for name, camera in self.cameras.items():
                    self.frames[(name, t)] = rendered(camera)
                    if t in (first_t, window_t):
                        segmentations[(name, t)] = segmented(camera)
                if self.g1 is not None:
                    self.g1_states[t] = self.g1.state(0, t)
                self.seconds["render"] += time.perf_counter() - started
                if on_frame is not None:
                    on_frame()
            if step == freeze_step:
                obstacles = self.obstacles()
                self.freeze_state = self.scene.get_state()
                # Restoring at once clears solver caches, so this line and any branch from
                # the freeze (the spine's execution) continue bit-identically.
                self.scene.reset(self.freeze_state)
                if self.g1 is not None:
                    self.g1.step_aside()  # ground truth: where the object goes untouched
            # Rendering and reading leave the state as it was: the pose read this step stands,
            # unless the freeze was restored (which recomputes the poses) at this step.
            previous = pose if step >= t0_step and step != freeze_step else self.hazard_pose()
            previous_others = (
                now_others if step >= t0_step and step != freeze_step else self.other_poses()
            )
            if step < end_step:
                started = time.perf_counter()
                self.scene.step()
                spent = time.perf_counter() - started
                self.seconds["physics"] += spent
                if step >= freeze_step:
                    self.seconds["after_freeze"] += spent
        for track in (samples, *tracks.values()):
            if track:  # the first sample has no earlier position: give it the second's motion
                second = track[1] if len(track) > 1 else (0.0, (0.0,) * 3, (0.0,) * 3, 0.0)
                track[0] = (track[0][0], track[0][1], second[2], second[3])
        if self.starts_on_floor:
            floor_time = _landing_time(samples)
        self.scene.reset(self.freeze_state)
        truth = ground_truth(
            self.spec,
            samples,
            floor_time,
            DT,
            window,
            lowest_center=lowest,
            final_center=final,
            poses=poses,
            obstacles=obstacles,
            others=tracks,
        )
        return truth.model_copy(update={"views": self._views(segmentations, first_t, window_t)})

    def _views(
        self, segmentations: dict[tuple[CameraName, float], np.ndarray], first: float, last: float
    ) -> list[HazardView]:
        """The hazard in each camera's frames (``sim.visibility``), from the segmentations of
        the window's first frame and the freeze's."""
        owner = self.scene.segmentation_idx_dict

        def ids(placed: Placed) -> list[int]:
            return [k for k, entity in owner.items() if entity == placed.entity.idx]

        triggers = [p for p in self.objects.values() if p.obj.role is ObjectRole.trigger]
        return [
            hazard_view(
                name.value,
                segmentations[(name, first)],
                segmentations[(name, last)],
                ids(self.hazard),
                [ids(p) for p in triggers],
            )
            for name in self.cameras
        ]

    def _track_others(
        self,
        tracks: dict[str, list[tuple[float, Vec3, Vec3, float]]],
        t: float,
        before: list[tuple[Vec3, Quat]],
        now: list[tuple[Vec3, Quat]],
    ) -> None:
        """Append each other object's (t, centre, velocity, kinetic energy) sample."""
        for (name, placed), (c0, q0), (c1, q1) in zip(self._others, before, now, strict=True):
            velocity = tuple((c1[i] - c0[i]) / DT for i in range(3))
            spin = angular_velocity(q0, q1, DT)
            energy = kinetic_energy(placed.obj.shape, placed.obj.mass_kg, velocity, spin, q1)
            tracks[name].append((t, c1, velocity, energy))  # type: ignore[arg-type]

    def obstacles(self) -> list[Obstacle]:
        """The furniture and every object but the hazard, where they are now."""
        out = furniture_obstacles(self.spec)
        for name, placed in self.objects.items():
            if name == self.spec.primary_hazard:
                continue
            lo, hi = _np(placed.entity.get_AABB())[0].tolist()  # environment 0
            out.append(obstacle(name, lo, hi))
        return out


def rendered(camera: Any) -> np.ndarray:
    """A camera's RGB frame of environment 0 (the only one a batched scene renders)."""
    rgb = _np(camera.render(rgb=True)[0])
    return (rgb[0] if rgb.ndim == 4 else rgb).copy()


def segmented(camera: Any) -> np.ndarray:
    """A camera's segmentation of environment 0: each pixel the id of the entity it shows
    (``Scene.segmentation_idx_dict``), rendered from the same state as its RGB frame."""
    seg = _np(camera.render(rgb=False, segmentation=True)[2])
    return (seg[0] if seg.ndim == 3 else seg).copy()


LANDED_SHARE = 0.25  # of its starting height: a standing object has fallen over
MIN_LANDING_DROP = 0.1  # m: a hazard point starting lower than this cannot fall over


def freeze_step_of(spec: SceneSpec, settings: RenderSettings) -> int:
    """The physics step (from the scene's start) at which the scene freezes."""
    return round(spec.timing.t0 / DT) + round(settings.window_of(spec) / DT)


def standing_ticks(spec: SceneSpec, settings: RenderSettings) -> int:
    """How many control ticks the G1 stands under its controller before the freeze."""
    return len(_tick_starts(freeze_step_of(spec, settings)))


def _tick_starts(last_step: int) -> dict[int, int]:
    """Physics steps at which a 50 Hz control tick starts, from the scene's start to
    ``last_step`` (240 Hz does not divide: ticks of 5 and 4 steps)."""
    starts: dict[int, int] = {}
    tick = 0
    while (step := round(tick * CONTROL_PERIOD / DT)) < last_step:
        starts[step] = tick
        tick += 1
    return starts


def _landing_time(samples: list[tuple[float, Vec3, Vec3, float]]) -> float | None:
    """For hazards standing on the floor from the start (furniture, ladders): when the hazard
    point comes down to within 2 cm of its lowest height and stays there."""
    if not samples:
        return None
    lowest = min(sample[1][2] for sample in samples)
    start = samples[0][1][2]
    if start - lowest < 0.1:
        return None
    for sample in samples:
        if sample[1][2] <= lowest + 0.02:
            return sample[0]
    return None


def angular_velocity(before: Quat, after: Quat, dt: float) -> Vec3:
    """World-frame angular velocity that turns ``before`` into ``after`` in ``dt``."""
    w0, x0, y0, z0 = before
    dw, dx, dy, dz = quat_mul(after, (w0, -x0, -y0, -z0))
    if dw < 0.0:  # the short way round
        dw, dx, dy, dz = -dw, -dx, -dy, -dz
    angle = 2.0 * math.atan2(math.sqrt(dx * dx + dy * dy + dz * dz), dw)
    norm = math.sqrt(dx * dx + dy * dy + dz * dz)
    if norm < 1e-12:
        return (0.0, 0.0, 0.0)
    k = angle / (norm * dt)
    return (dx * k, dy * k, dz * k)


def standing(controller: Any, spec: SceneSpec) -> Callable[[Any], Any] | None:
    """The G1's standing controller for a scene (waiting at the observer for its execution,
    ``G1Controller.wait``), or None for a controller without a body (the kinematic stand-in)."""
    if controller is None or not getattr(controller, "physical", False):
        return None
    controller.wait(spec.observer.pos, spec.observer.yaw)
    return controller.command
