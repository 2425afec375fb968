"""The package's shape: layers in one direction, no cycles, every module placed in a layer,
and no import the contract cannot see."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from importlinter.adapters.building import GraphBuilder
from importlinter.application.app_config import settings
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


# Where a module is imported by a name computed at run time, which import-linter cannot see,
# and why. Anywhere else a module is imported by an import statement.
STRING_IMPORTS = {
    "scenes/families/__init__.py": "the families' registry imports every module of its package",
    # NODES names each node's module once (the launch file, console scripts, composition); as
    # import statements every node would import every other through run_node_process.
    "ros/graph.py": "the node table, loaded by name where the graph is composed",
    "ros/recorder_node.py": "a bag's ROS message classes, by the type names it records",
}


def _module_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path, ast.parse(path.read_text(), str(path))


def _string_imports(tree: ast.Module) -> Iterator[ast.Call]:
    """Calls of importlib.import_module, import_module or __import__."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in {"import_module", "__import__"}:
                yield node


def _children(path: Path, tree: ast.Module) -> Iterator[tuple[int, str | None]]:
    """(line, module) of every ``-m MODULE`` in a list or tuple (a child process's command);
    module None where it is no string the test can read."""
    for node in ast.walk(tree):
        if isinstance(node, ast.List | ast.Tuple):
            items = node.elts
            for flag, target in zip(items, items[1:], strict=False):
                if isinstance(flag, ast.Constant) and flag.value == "-m":
                    if isinstance(target, ast.Constant) and isinstance(target.value, str):
                        yield target.lineno, target.value
                    elif isinstance(target, ast.Name) and target.id == "__name__":
                        yield target.lineno, _module_of(path)
                    else:
                        yield target.lineno, None


def _run_targets(module: str) -> list[str]:
    """What ``python -m module`` runs: a module itself, or what a package's __main__ imports
    (``-m reacthuman``: reacthuman.cli)."""
    folder = PACKAGE.parent.joinpath(*module.split("."))
    main = folder / "__main__.py"
    if main.is_file():
        tree = ast.parse(main.read_text())
        return [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
    assert folder.with_suffix(".py").is_file(), f"python -m {module}: no such module in src/"
    return [module]


def test_modules_are_imported_by_string_only_in_the_registries() -> None:
    """importlib.import_module and __import__ hide an import from the layer contract: they
    are allowed only where STRING_IMPORTS says why."""
    found = {
        f"{path.relative_to(PACKAGE)}:{call.lineno}"
        for path, tree in _sources()
        for call in _string_imports(tree)
        if str(path.relative_to(PACKAGE)) not in STRING_IMPORTS
    }
    assert found == set(), "import these with an import statement, or add to STRING_IMPORTS"
    for place in STRING_IMPORTS:  # a stale entry would allow a new string import unseen
        assert any(_string_imports(ast.parse((PACKAGE / place).read_text()))), place


Child = tuple[str, int, str]  # the module starting it, the line, the module run


class _WithChildren(GraphBuilder):
    """The import graph plus, for each ``python -m reacthuman.X`` child a module starts, an
    import of what X runs by that module: a child runs code its parent's layer may not import."""

    def __init__(self, children: list[Child]) -> None:
        self.children = children

    def build(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        graph = super().build(*args, **kwargs)
        for parent, line, child in self.children:
            for imported in _run_targets(child):
                graph.add_import(
                    importer=parent,
                    imported=imported,
                    line_number=line,
                    line_contents=f"-m {child}",
                )
        return graph


def _lint_with(children: list[Child], monkeypatch) -> int:
    """lint_imports's exit status with ``children`` counted as imports."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(settings, "_config", {**settings._config})  # configure() is undone
    settings.configure(GRAPH_BUILDER=_WithChildren(children))
    return lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)


def test_child_processes_are_held_to_the_import_contracts(monkeypatch) -> None:
    """A ``python -m`` child of a reacthuman module is a reacthuman module it may import: named
    by a literal (or __name__), and the contracts hold with each child as an import."""
    found = [(path, line, m) for path, tree in _sources() for line, m in _children(path, tree)]
    unreadable = [f"{path.relative_to(PACKAGE)}:{line}" for path, line, m in found if m is None]
    assert unreadable == [], "write a child's module as a literal so the contract can check it"
    children = [
        (_module_of(path), line, m)
        for path, line, m in found
        if m is not None and m.split(".")[0] == "reacthuman"
    ]
    assert {"reacthuman.pool.worker", "reacthuman.episode_host"} <= {m for *_, m in children}
    assert _lint_with(children, monkeypatch) == 0


@pytest.mark.parametrize(
    ("parent", "child", "kept"),
    [
        ("reacthuman.cli.bench", "reacthuman", True),  # the command starting itself
        ("reacthuman.scoring.run", "reacthuman", False),  # scoring may not run the command
        ("reacthuman.brain.run", "reacthuman.sim.bench", False),
    ],
)
def test_a_child_that_its_parent_may_not_import_breaks_the_contract(
    monkeypatch, parent: str, child: str, kept: bool
) -> None:
    """The check above can fail: one child command added to a module breaks the contract
    when the module's layer may not import the child."""
    assert (_lint_with([(parent, 1, child)], monkeypatch) == 0) == kept


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


# A module a reader takes in at once: at most this many lines, but for data tables (one
# entry after another, read by lookup, not through).
MAX_MODULE_LINES = 500
DATA_TABLES = {"sim/visuals.py": "each catalogue object's visual model, one builder a model"}


def test_every_module_is_short_enough_to_read_whole() -> None:
    long = {
        path.relative_to(PACKAGE).as_posix(): n
        for path in PACKAGE.rglob("*.py")
        if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert {name: n for name, n in long.items() if name not in DATA_TABLES} == {}, (
        f"split these by job (at most {MAX_MODULE_LINES} lines a module)"
    )
    assert set(DATA_TABLES) <= set(long), "a data table back under the limit: drop it here"
