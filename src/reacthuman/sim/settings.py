"""Render and roll-out settings of an observation: part of the observation cache key."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from reacthuman.observation import frame_times
from reacthuman.scenes.spec import SceneSpec

DT = 1.0 / 240.0  # s, the rigid solver's step (paper 3.4)
DEFAULT_FRAMES = 5


class RenderSettings(BaseModel):
    """Resolution and frame count of the observation window.

    The window itself is the scene's (``SceneSpec.timing.window``: 0.6 s, shorter for hazards
    too fast to leave a reaction margin after a full one); ``window`` overrides it for every
    scene, an ablation that may show the outcome and that reports must name.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    width: int = Field(default=640, ge=16, le=3840)
    height: int = Field(default=360, ge=16, le=2160)
    window: float | None = Field(default=None, gt=0, le=5)
    frames: int = Field(default=DEFAULT_FRAMES, ge=1, le=60)

    @model_validator(mode="after")
    def _even_aspect(self) -> RenderSettings:
        if abs(self.width / self.height - 16 / 9) > 0.02:
            raise ValueError(f"resolution must be 16:9, got {self.width}x{self.height}")
        return self

    def window_of(self, spec: SceneSpec) -> float:
        """The observed span of this scene: the override, or the scene's own window."""
        return spec.timing.window if self.window is None else self.window

    def frame_times(self, window: float) -> list[float]:
        """Evenly spaced over the window, both ends included (``observation.frame_times``)."""
        return frame_times(self.frames, window)


def parse_resolution(text: str) -> tuple[int, int]:
    """'1280x720' -> (1280, 720), with an error a person can act on."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"resolution must look like 640x360, got {text!r}") from None
    return width, height
