"""Contacts in the rigid solver: how soft each surface is, and what touched what in a step.

Contact softness is MuJoCo-style solref (time constant, damping ratio). The rigid solver has
no restitution coefficient: a contact is a damped spring, and a pair of surfaces uses the mean
of their damping ratios. Static surfaces get a low ratio and each object the ratio that gives
its restitution against them, measured by dropping spheres from 0.3-2 m at dt = 1/240
(BENCHMARKS.md). Below a mean ratio of ~0.2 the contact gains energy, so bounces are capped at
SIM_MAX_RESTITUTION (the catalogue's livelier balls bounce like a 0.4 ball).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from reacthuman.genesis_runtime import as_numpy
from reacthuman.scenes.kinematics import SIM_MAX_RESTITUTION

CONTACT_TIMECONST = 0.02  # s, at least 2 dt
STATIC_DAMPRATIO = 0.05
RESTITUTION_TO_DAMPRATIO = (
    (0.0, 1.95),
    (0.04, 1.6),
    (0.13, 1.2),
    (0.24, 0.8),
    (0.37, 0.5),
    (0.43, 0.35),
)


def object_dampratio(restitution: float) -> float:
    """The damping ratio an object's geoms need for its restitution against static surfaces."""
    e = min(max(restitution, 0.0), SIM_MAX_RESTITUTION)
    table = RESTITUTION_TO_DAMPRATIO
    for (e0, d0), (e1, d1) in zip(table, table[1:], strict=False):
        if e <= e1:
            return d0 + (d1 - d0) * (e - e0) / (e1 - e0)
    return table[-1][1]


@dataclass(frozen=True)
class Contacts:
    """One environment's contacts of a physics step: geoms and links A and B, the force on
    A (as the collider's ``get_contacts`` gives them)."""

    geom_a: np.ndarray
    geom_b: np.ndarray
    link_a: np.ndarray
    link_b: np.ndarray
    force: np.ndarray


def step_contacts(scene: Any, envs: int | None = None) -> list[Contacts]:
    """This physics step's contacts, environment by environment (the first ``envs`` of them;
    None: all), read once: padded to the collider's capacity and cut at each environment's
    own count (in a batched scene the trimmed lists keep stale rows past an environment's
    count)."""
    data = scene.sim.rigid_solver.collider.get_contacts(
        as_tensor=True, to_torch=True, is_padded=True
    )
    names = ("geom_a", "geom_b", "link_a", "link_b", "force")
    if data["geom_a"].ndim == 1:  # unbatched
        counts = as_numpy(data["n_contacts"]).reshape(-1)
        fields = {k: as_numpy(data[k])[None] for k in names}
    else:
        counts = as_numpy(data["n_contacts"][:envs]).reshape(-1)
        fields = {k: as_numpy(data[k][:envs]) for k in names}
    return [Contacts(*(fields[k][env, : int(n)] for k in names)) for env, n in enumerate(counts)]


def touching(geom_a: np.ndarray, geom_b: np.ndarray, entity: Any) -> np.ndarray:
    """Which of a step's contacts (their geoms A and B) involve one of ``entity``'s geoms."""
    lo, hi = entity.geom_start, entity.geom_end
    return ((geom_a >= lo) & (geom_a < hi)) | ((geom_b >= lo) & (geom_b < hi))
