"""The package's shape: layers in one direction, no cycles, every module placed in a layer."""

from __future__ import annotations

import tomllib
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "reacthuman"


def _contracts() -> list[dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["importlinter"]["contracts"]


def test_import_contracts_are_kept(monkeypatch) -> None:
    """Layers import only those below them, and no package's modules import each other in a
    circle (pyproject.toml [tool.importlinter]); the failure lists each offending import."""
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_every_module_has_a_layer() -> None:
    """A new top-level module or package must be placed in the layer contract, or it would
    escape it."""
    (layers,) = [c["layers"] for c in _contracts() if c["type"] == "layers"]
    placed = {name.strip() for layer in layers for name in layer.replace("|", ":").split(":")}
    modules = {
        f"reacthuman.{p.stem if p.is_file() else p.name}"
        for p in PACKAGE.iterdir()
        if (p.suffix == ".py" and p.stem not in {"__init__", "__main__"})
        or (p.is_dir() and (p / "__init__.py").exists())
    }
    assert modules - placed == set(), "modules in no layer of pyproject.toml's contract"
    assert placed - modules == set(), "layers naming modules that do not exist"


def test_the_library_type_checks(monkeypatch) -> None:
    """mypy on src/reacthuman (pyproject.toml [tool.mypy]) finds nothing; its cache makes a
    rerun take seconds."""
    from mypy import api

    monkeypatch.chdir(ROOT)
    out, err, status = api.run([])
    assert status == 0, out + err
