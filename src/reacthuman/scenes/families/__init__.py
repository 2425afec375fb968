"""The event-family registry: every module in this package but ``base`` (what a sampler is)
and ``blocks`` (what samplers share) registers one family sampler."""

from __future__ import annotations

import importlib
import pkgutil

from reacthuman.scenes.families.base import REGISTRY, FamilySampler, register

__all__ = ["REGISTRY", "FamilySampler", "register"]

for _module in pkgutil.iter_modules(__path__):
    if _module.name not in ("base", "blocks"):
        importlib.import_module(f"{__name__}.{_module.name}")
