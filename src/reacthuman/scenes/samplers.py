"""Which family sampler stages a family, what a seed stands for, and what a family can stage.

The seed schedule (documented in docs/scenes.md): in the twelve speed-swept families, seed
``s`` is scene group ``s // 4`` at band ``(slow, normal, fast, very_fast)[s % 4]``; in the
five gravity-paced families each seed is its own group. Every draw of a scene comes from a
stream named by ``NAMESPACE``, the family and the group.
"""

from __future__ import annotations

from reacthuman.scenes import families
from reacthuman.scenes.catalogue import Catalogue, default_catalogue
from reacthuman.scenes.families.base import FamilySampler, adversarial_pool
from reacthuman.scenes.spec import SWEPT_BANDS, Family, Pin, SpeedBand

NAMESPACE = "reacthuman-scenes-v2"  # part of every seed: changing it changes every scene
HORIZON = 3.5  # s after t0 that intended motion and ground truth cover


class GenerationError(ValueError):
    """A scene cannot be generated; the message says which family, seed and why."""


def sampler_for(family: Family | str) -> FamilySampler:
    try:
        return families.REGISTRY[Family(family)]
    except ValueError:
        known = ", ".join(f.value for f in Family)
        raise GenerationError(f"unknown family {family!r} (known: {known})") from None


def pinnable_objects(family: Family | str, catalogue: Catalogue | None = None) -> list[str]:
    """The catalogue objects a family can stage: its pool, and the pool's look-alikes where
    the window can show an object's mass (elsewhere a look-alike moves exactly like what it
    imitates, and no one could tell them apart)."""
    catalogue = catalogue if catalogue is not None else default_catalogue()
    sampler = sampler_for(family)
    names = list(sampler.pool)
    if sampler.shows_mass:
        names += [o.name for o in adversarial_pool(sampler, catalogue)]
    return names


def check_pin(family: Family | str, pin: Pin, catalogue: Catalogue | None = None) -> None:
    """A clear error when ``family`` cannot stage ``pin``'s object. Any room type will do:
    a family's ``rooms`` are where generation places it, and a room's type names the room
    without changing its physics."""
    sampler = sampler_for(family)
    allowed = pinnable_objects(family, catalogue)
    if pin.object not in allowed:
        raise GenerationError(
            f"{sampler.family.value} cannot stage {pin.object!r}; it stages "
            + ", ".join(sorted(allowed))
        )


def schedule(family: Family | str, seed: int) -> tuple[int, SpeedBand]:
    """The (scene group, speed band) a seed stands for."""
    if seed < 0:
        raise GenerationError(f"seed must be >= 0, got {seed}")
    if sampler_for(family).gravity_paced:
        return seed, SpeedBand.gravity
    return seed // 4, SWEPT_BANDS[seed % 4]
