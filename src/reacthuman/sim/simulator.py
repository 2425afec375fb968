"""The ``Simulator``: Genesis started once per process, and a SceneSpec built into an
``Episode`` (the room, the objects with their contact softness, the G1, the cameras)."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

from reacthuman.genesis_runtime import genesis
from reacthuman.scenes.geometry import add, box_corners, quat_rotate, sub
from reacthuman.scenes.spec import SceneSpec
from reacthuman.sim.contacts import CONTACT_TIMECONST, STATIC_DAMPRATIO, object_dampratio
from reacthuman.sim.episode import MAX_ENVS, MIN_ENVS, Episode, Placed
from reacthuman.sim.mjcf import floor_document, object_document, world_document
from reacthuman.sim.settings import DT, RenderSettings

LIGHT_SCALE = 3.0  # spec intensities are relative; Genesis's directional lights want ~3


class Simulator:
    """Builds episodes from specs; one per process.

    Every scene is batched, with an environment for each plan executed side by side from its
    freeze (``sim.execute.execute_all``), and at least two: Genesis steps a scene of one
    environment (or none) along another path than a batch, and the two differ in the last
    bits, while batches of any size agree bit for bit. So a plan's execution is the same
    whichever plans share its scene. Every environment plays alike to the freeze; the
    cameras render environment 0."""

    def __init__(self) -> None:
        self.gs = genesis()

    def build(
        self,
        spec: SceneSpec,
        settings: RenderSettings,
        stand: Callable[[Any], Any] | None = None,
        envs: int = MIN_ENVS,
    ) -> Episode:
        """Build a scene; with ``stand`` (the G1's controller at a zero command) the G1 stands
        at the observer from the start and is in every view. ``envs``: how many plans will
        execute side by side (``MIN_ENVS`` to ``MAX_ENVS``)."""
        envs = min(max(envs, MIN_ENVS), MAX_ENVS)
        gs = self.gs
        from genesis.options.vis import DirectionalLight

        lights = [
            DirectionalLight(
                dir=tuple(light.direction),
                color=tuple(light.color),
                intensity=light.intensity * LIGHT_SCALE,
            )
            for light in spec.lighting.lights
        ]
        scene = gs.Scene(
            sim_options=gs.options.SimOptions(dt=DT),
            # Each environment its own PD gains: each plan's execution sets its own.
            rigid_options=gs.options.RigidOptions(batch_dofs_info=True, box_box_detection=True),
            vis_options=gs.options.VisOptions(
                background_color=tuple(spec.room.wall_color),
                ambient_light=tuple(spec.lighting.ambient),
                lights=lights,
                shadow=True,
                rendered_envs_idx=[0],
                segmentation_level="entity",  # one id per object: sim.visibility
            ),
            show_viewer=False,
        )
        # Genesis precomputes a signed-distance grid for every collision geom and caches it by
        # geometry; scenes have fresh random sizes, so at the default resolution (up to 128^3)
        # that costs seconds per scene. Boxes, spheres and cylinders collide analytically, so
        # the coarsest grid is enough.
        coarse = gs.materials.Rigid(sdf_min_res=16, sdf_max_res=16)
        floor = scene.add_entity(
            gs.morphs.MJCF(
                file=floor_document(spec, (CONTACT_TIMECONST, STATIC_DAMPRATIO)),
                default_armature=None,
            ),
            material=coarse,
        )
        scene.add_entity(
            gs.morphs.MJCF(
                file=world_document(spec, (CONTACT_TIMECONST, STATIC_DAMPRATIO)),
                default_armature=None,
            ),
            material=coarse,
        )
        objects: dict[str, Placed] = {}
        for obj in spec.objects:
            solref = (CONTACT_TIMECONST, object_dampratio(obj.restitution))
            text, pos, quat = object_document(obj, solref)
            entity = scene.add_entity(
                gs.morphs.MJCF(file=text, pos=pos, quat=quat, default_armature=None),
                material=coarse,
            )
            if obj.joint is None:
                objects[obj.id] = Placed(obj, entity, obj.hazard_point)
            else:
                # The body frame sits on the joint anchor, aligned with the world at rest.
                origin = sub(obj.pose.pos, obj.joint.anchor)
                offset = add(origin, quat_rotate(obj.pose.quat, obj.hazard_point))
                objects[obj.id] = Placed(obj, entity, offset, origin, obj.pose.quat)
        robot = None
        if stand is not None:
            from reacthuman.sim.body import add_g1

            robot = add_g1(scene, gs, spec.observer.pos, spec.observer.yaw)
        cameras = {
            cam.name: scene.add_camera(
                res=(settings.width, settings.height),
                pos=tuple(cam.pos),
                lookat=tuple(cam.lookat),
                up=tuple(cam.up),
                fov=cam.fov_deg,
                GUI=False,
            )
            for cam in spec.cameras
        }
        scene.build(n_envs=envs)
        hazard = spec.hazard
        lowest = min(
            c[2] for c in box_corners(hazard.pose.pos, hazard.shape.size, hazard.pose.quat)
        )
        on_floor = lowest < 0.01
        g1 = None
        if robot is not None:
            from reacthuman.sim.body import G1Body

            g1 = G1Body(robot)
            g1.stand_up()
        return Episode(
            spec, settings, scene, floor, objects, cameras, on_floor, envs=envs, g1=g1, stand=stand
        )

    def destroy(self, episode: Episode) -> None:
        """Free a scene. Genesis forces a full garbage collection inside ``Scene.destroy`` (a
        CUDA work-around); on the CPU backend it is held back and run once the scene is gone.
        After every scene: a G1 scene at 640x360 leaves about 70 MB of cyclic garbage, and
        collecting every 10 scenes raised a 17-episode bench's peak
        from 4.1 to 5.3 GB for no time saved (114 s against 116 s;
        ``benchmarks/bench_memory.py``)."""
        if self.gs.backend != self.gs.cpu:
            episode.scene.destroy()
            return
        forced = gc.collect
        gc.collect = lambda *_args, **_kwargs: 0
        try:
            episode.scene.destroy()
        finally:
            gc.collect = forced
        gc.collect()
