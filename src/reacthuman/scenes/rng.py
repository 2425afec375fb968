"""Seeded randomness whose streams never change across Python or NumPy releases.

Only ``random.Random(int).random()`` carries a cross-version reproducibility guarantee in the
standard library, so every draw here is built on it. NumPy's ``Generator`` methods do not
promise stream compatibility between releases, which would break "a scene is a pure function
of its seed" on the next upgrade.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from any printable parts, stable across processes (unlike ``hash``)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class SeededRng:
    """Uniform, normal, choice and Bernoulli draws derived from one reproducible stream."""

    def __init__(self, *seed_parts: object) -> None:
        self._random = random.Random(derive_seed(*seed_parts))

    def random(self) -> float:
        return self._random.random()

    def uniform(self, low: float, high: float) -> float:
        return low + (high - low) * self._random.random()

    def normal(self, mean: float = 0.0, std: float = 1.0) -> float:
        # Box-Muller on two uniforms keeps the stream tied to random() only.
        u1 = max(self._random.random(), 1e-300)
        u2 = self._random.random()
        return mean + std * math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def integer(self, low: int, high: int) -> int:
        """An integer in [low, high], both inclusive."""
        return low + min(int(self._random.random() * (high - low + 1)), high - low)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("cannot choose from an empty sequence")
        return items[self.integer(0, len(items) - 1)]

    def chance(self, probability: float) -> bool:
        return self._random.random() < probability

    def sign(self) -> float:
        return 1.0 if self._random.random() < 0.5 else -1.0
