"""The twin test: can an adversarial object be told from its genuine look-alike?

The paper's premise for its adversarial probes (3.3) is that the right action "is recoverable
only from observed dynamics in the early frames". That holds only where the window shows a
cue of the object's true physics plainly: a contact, a bounce, a swing that dies away. In free
fall or ballistic flight a lead-cored tennis ball moves exactly like a tennis ball (the
simulation has no air drag), and its window would be pixel-identical to its twin's.

So every adversarial scene is simulated again with its genuine twin's physics (same scene,
same look; the twin's mass, friction, restitution and hazards, with the same jitter), and the
two windows are compared: the hazard point must part by at least ``MIN_TRAJECTORY_GAP`` during
the window, and at least ``MIN_PIXEL_SHARE`` of some close-up frame's pixels must differ
visibly (the close-up is where a person would look for the cue). A cue that only says "this
one is faster" would be confounded with the speed band, so the window must also differ by
``MIN_TRAJECTORY_GAP`` from the genuine twin's at the neighbouring bands of its group (the
same scene with the object thrown, pushed or knocked a band slower or faster). And the cue
must read the right way (``MassCue``): a dangerous look-alike shows heavier than its twin, a
harmless one lighter. A solid steel apple rings back up off a counter higher than an apple
does; a person reads that as a rubber toy and catches it. A scene that fails is rejected with
the figures; one that passes records them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from reacthuman.scenes.catalogue import Catalogue, CatalogueObject, default_catalogue
from reacthuman.scenes.labels import intrinsic_reasons
from reacthuman.scenes.spec import SWEPT_BANDS, CameraName, SceneObject, SceneSpec, SpeedBand, Vec3
from reacthuman.scenes.truth import GroundTruth

MIN_TRAJECTORY_GAP = 0.10  # m between the two hazard points at some time in the window
# In some close-up frame the model sees, the two hazard points land this far apart, as a share
# of the frame's width (8 px of 640: a tennis ball's width at 1.5 m), and the two frames differ
# visibly somewhere (an object hidden behind furniture would not): the cue is in the picture.
CLOSEUP_WIDTH_PX = 640  # the default close-up width, in which the thresholds are stated
MIN_CLOSEUP_SHIFT = 8.0 / CLOSEUP_WIDTH_PX
MIN_PIXEL_SHARE = 0.0002  # of a close-up frame's pixels that differ visibly (46 px at 640x360)
PIXEL_LEVEL = 25  # grey levels (of 255) for a pixel to count as different, after a 5x5 blur


class _Timed(Protocol):
    @property
    def t(self) -> float: ...

    @property
    def pos(self) -> Vec3: ...


class MassCue(StrEnum):
    """How a family's window shows what an object weighs, in the direction a person reads it."""

    # A heavy thing thuds where a light one rebounds: the lower bounce. (A swing is no cue
    # on its own: a rope mount's damping slows a light bob more than a heavy one, but a
    # blind reader saw that only next to the twin's window, issue 51.)
    bounce = "bounce"


def reads_heavier(cue: MassCue, obj: CatalogueObject, other: CatalogueObject) -> bool:
    """Whether ``obj`` should show heavier than ``other`` in a window with ``cue``, from the
    catalogue: where a design may stage it (``families.base.adversarial_pool``)."""
    return obj.restitution < other.restitution


def heaviness(cue: MassCue, trajectory: Sequence[_Timed], window: float) -> float:
    """How heavy the hazard shows in the window, measured (larger reads heavier, in metres):
    for a bounce, minus how far it rises after its first contact (a thud rises 0)."""
    points = [p for p in trajectory if p.t <= window + 1e-9]
    z = [p.pos[2] for p in points]
    for i in range(1, len(z) - 1):
        if z[i] <= z[i - 1] and z[i] < z[i + 1]:  # the first contact: it stops going down
            return -(max(z[i:]) - z[i])
    return 0.0


def cue_reads_right(shows_heavier: bool | None, dangerous: bool) -> bool:
    """Whether a look-alike's cue reads the way a person reads it: heavier than its twin
    where it is dangerous, lighter where harmless (always, where there is no mass cue)."""
    return shows_heavier is None or shows_heavier == dangerous


class TwinTest(BaseModel):
    """How far an adversarial scene's window is from its genuine twin's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    twin: str  # the genuine catalogue object
    trajectory_gap: float  # m: the largest distance between the hazard points in the window
    pixel_share: float  # the largest share of visibly different pixels in a close-up frame
    # the largest distance between the two hazard points in a close-up frame, as a share of
    # its width
    closeup_shift: float = 0.0
    # m: the same against the genuine twin at each neighbouring band of the group
    neighbour_gaps: dict[SpeedBand, float] = {}
    # whether the window shows it heavier than its twin (``MassCue``); None where the family
    # has no mass cue
    shows_heavier: bool | None = None
    dangerous: bool = False  # whether it is dangerous itself (so should show heavier)
    passed: bool

    @property
    def reads_right(self) -> bool:
        return cue_reads_right(self.shows_heavier, self.dangerous)

    def reason(self) -> str:
        parts = []
        if (
            self.trajectory_gap < MIN_TRAJECTORY_GAP
            or self.closeup_shift < MIN_CLOSEUP_SHIFT
            or self.pixel_share < MIN_PIXEL_SHARE
        ):
            parts.append(
                f"its window cannot be told from its genuine twin's ({self.twin}): the hazard "
                f"points part by {100 * self.trajectory_gap:.1f} cm (needs "
                f"{100 * MIN_TRAJECTORY_GAP:.0f}), by "
                f"{CLOSEUP_WIDTH_PX * self.closeup_shift:.1f} px of {CLOSEUP_WIDTH_PX} "
                f"in the close-up (needs {CLOSEUP_WIDTH_PX * MIN_CLOSEUP_SHIFT:.0f}), and "
                f"{100 * self.pixel_share:.2f} % of close-up pixels differ (needs "
                f"{100 * MIN_PIXEL_SHARE:.2f})"
            )
        for band, gap in self.neighbour_gaps.items():
            if gap < MIN_TRAJECTORY_GAP:
                parts.append(
                    f"its window is {100 * gap:.1f} cm from its genuine twin's at the "
                    f"{band.value} band (needs {100 * MIN_TRAJECTORY_GAP:.0f}): the cue is the "
                    "speed band's"
                )
        if not self.reads_right:
            shows = "heavier" if self.shows_heavier else "lighter"
            parts.append(
                f"its window shows it {shows} than its genuine twin ({self.twin}), though it is "
                f"{'dangerous' if self.dangerous else 'harmless'}: a person reads the cue the "
                "wrong way"
            )
        return "; ".join(parts)


def as_twin(obj: SceneObject, catalogue: Catalogue) -> SceneObject:
    """The object with its genuine twin's physics (mass, friction, restitution, hazards), the
    scene's jitter of friction and restitution kept."""
    adversarial = catalogue.get(obj.catalogue_name)
    genuine = catalogue.get(obj.imitates or obj.catalogue_name)
    # The scene's jitter of friction and restitution, carried over to the twin's material.
    grip = obj.friction / adversarial.friction
    bounce = obj.restitution / adversarial.restitution if adversarial.restitution else 1.0
    return obj.model_copy(
        update={
            "catalogue_name": genuine.name,
            "adversarial": False,
            "imitates": None,
            "mass_kg": genuine.mass_kg,
            "friction": round(min(genuine.friction * grip, 2.0), 4),
            "restitution": round(min(genuine.restitution * bounce, 0.95), 4),
            "hazards": genuine.hazards,
            "graspable": genuine.graspable,
        }
    )


def twin_spec(spec: SceneSpec, catalogue: Catalogue | None = None) -> SceneSpec:
    """The same scene with every object of the adversarial kind given its twin's physics
    (a row of look-alikes in multi_object is all of one kind)."""
    if not spec.adversarial:
        raise ValueError(f"{spec.scene_id} has no adversarial object")
    catalogue = catalogue if catalogue is not None else default_catalogue()
    kind = spec.hazard.catalogue_name
    objects = [as_twin(o, catalogue) if o.catalogue_name == kind else o for o in spec.objects]
    return spec.model_copy(update={"objects": objects, "adversarial": False})


def neighbour_bands(spec: SceneSpec) -> list[tuple[SpeedBand, int]]:
    """The speed bands next to a swept scene's, with their seeds (same group, same object)."""
    if spec.speed_band not in SWEPT_BANDS:
        return []
    index = SWEPT_BANDS.index(spec.speed_band)
    return [
        (SWEPT_BANDS[i], spec.seed - index + i)
        for i in (index - 1, index + 1)
        if 0 <= i < len(SWEPT_BANDS)
    ]


def largest_gap(a: Sequence[_Timed], b: Sequence[_Timed], window: float) -> float:
    """The largest distance between two paths sampled at the same times (a design's or a
    measured trajectory), over ``window`` s from t0."""
    gap = 0.0
    for x, y in zip(a, b, strict=False):
        if x.t > window + 1e-9:
            break
        gap = max(gap, math.dist(x.pos, y.pos))
    return gap


def _pixel_share(a: Path, b: Path) -> float:
    import cv2

    first, second = cv2.imread(str(a)), cv2.imread(str(b))
    if first is None or second is None:
        raise FileNotFoundError(f"cannot read {a} or {b}")
    blur = [
        cv2.GaussianBlur(cv2.cvtColor(x, cv2.COLOR_BGR2GRAY), (5, 5), 0) for x in (first, second)
    ]
    return float((cv2.absdiff(blur[0], blur[1]) > PIXEL_LEVEL).mean())


def compare(
    spec: SceneSpec,
    truth: GroundTruth,
    frames: Path,
    twin_truth: GroundTruth,
    twin_frames: Path,
    neighbours: Sequence[tuple[SpeedBand, GroundTruth]] = (),
    cue: MassCue | None = None,
    catalogue: Catalogue | None = None,
) -> TwinTest:
    """Compare an adversarial scene's window with its twin's (trajectories at the truth's
    60 Hz, and every close-up frame of the two ``frames`` folders), and with its twin's at
    the neighbouring bands (``neighbours``: their ground truths); ``cue``: the family's, to
    check it reads the right way."""
    window = truth.window
    share, times = 0.0, []
    for path in sorted(frames.glob(f"{CameraName.closeup.value}_*.png")):
        share = max(share, _pixel_share(path, twin_frames / path.name))
        times.append(int(path.stem.rsplit("_", 1)[1].removesuffix("ms")) / 1000.0)
    gap = largest_gap(truth.trajectory, twin_truth.trajectory, window)
    shift = _closeup_shift(spec, truth, twin_truth, times)
    others = {
        band: round(largest_gap(truth.trajectory, other.trajectory, window), 4)
        for band, other in neighbours
    }
    twin = spec.hazard.imitates or spec.hazard.catalogue_name
    catalogue = catalogue if catalogue is not None else default_catalogue()
    dangerous = bool(intrinsic_reasons(catalogue.get(spec.hazard.catalogue_name)))
    heavier = None
    if cue is not None:
        heavier = heaviness(cue, truth.trajectory, window) > heaviness(
            cue, twin_truth.trajectory, window
        )
    return TwinTest(
        twin=twin,
        trajectory_gap=round(gap, 4),
        pixel_share=round(share, 5),
        closeup_shift=round(shift, 5),
        neighbour_gaps=others,
        shows_heavier=heavier,
        dangerous=dangerous,
        passed=gap >= MIN_TRAJECTORY_GAP
        and shift >= MIN_CLOSEUP_SHIFT
        and share >= MIN_PIXEL_SHARE
        and all(g >= MIN_TRAJECTORY_GAP for g in others.values())
        and cue_reads_right(heavier, dangerous),
    )


def _at(truth: GroundTruth, t: float) -> Sequence[float]:
    """The hazard point at the trajectory sample nearest ``t``."""
    return min(truth.trajectory, key=lambda p: abs(p.t - t)).pos


def _closeup_shift(
    spec: SceneSpec, truth: GroundTruth, other: GroundTruth, times: Sequence[float]
) -> float:
    """The largest distance, as a share of the frame's width, between the two hazard points
    projected into the close-up camera at the frame times the model sees."""
    from reacthuman.scenes.cameras import ASPECT
    from reacthuman.scenes.geometry import project

    camera = spec.camera(CameraName.closeup)
    shift = 0.0
    for t in times:
        a = min(truth.trajectory, key=lambda p: abs(p.t - t)).pos
        b = min(other.trajectory, key=lambda p: abs(p.t - t)).pos
        uv = [
            project(x, camera.pos, camera.lookat, camera.up, camera.fov_deg, ASPECT) for x in (a, b)
        ]
        if uv[0] is not None and uv[1] is not None:
            # Normalised coordinates span 2 across the width and 2 / aspect in height units.
            dx, dy = (uv[0][0] - uv[1][0]) / 2.0, (uv[0][1] - uv[1][1]) / (2.0 * ASPECT)
            shift = max(shift, math.hypot(dx, dy))
    return shift
