"""A scene's lighting: an ambient grey and a key and fill light, drawn from the stage stream."""

from __future__ import annotations

from reacthuman.scenes.rng import SeededRng
from reacthuman.scenes.spec import Light, Lighting
from reacthuman.scenes.world_frame import WorldTransform, rounded, rounded3


def draw_lighting(rng: SeededRng, tf: WorldTransform) -> Lighting:
    gray = rng.uniform(0.25, 0.4)
    warmth = rng.uniform(-0.05, 0.05)
    key_dir = (rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), -1.0)
    fill_dir = (rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), -0.6)
    key_color = (min(1.0, 1.0 + warmth), 1.0, min(1.0, 1.0 - warmth))
    return Lighting(
        ambient=(round(gray, 4),) * 3,
        lights=[
            Light(
                direction=tf.vector(key_dir),
                color=rounded3(key_color),
                intensity=rounded(rng.uniform(0.8, 1.2)),
            ),
            Light(
                direction=tf.vector(fill_dir),
                color=(1.0, 1.0, 1.0),
                intensity=rounded(rng.uniform(0.2, 0.4)),
            ),
        ],
    )
