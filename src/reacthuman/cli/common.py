"""What every verb of the ``reacthuman`` command shares: its one error type, argument types,
the observation-cache options and a model endpoint's options."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


class CliError(Exception):
    """An expected failure: printed as one line, exit status 1."""


def render_settings(resolution: str, frames: int = 5, window: float | None = None):
    """``--resolution``, ``--frames`` and ``--window`` as the simulator's RenderSettings, or a
    CliError naming the option that is wrong (before any work is done)."""
    from pydantic import ValidationError

    from reacthuman.sim.settings import RenderSettings, parse_resolution

    try:
        width, height = parse_resolution(resolution)
        RenderSettings(width=width, height=height)
    except ValidationError as exc:
        raise CliError(f"--resolution: {exc.errors()[0]['msg']}") from None
    except ValueError as exc:
        raise CliError(f"--resolution: {exc}") from None
    try:
        RenderSettings(width=width, height=height, frames=frames)
    except ValidationError as exc:
        raise CliError(f"--frames: {exc.errors()[0]['msg']}, got {frames}") from None
    try:
        return RenderSettings(width=width, height=height, frames=frames, window=window)
    except ValidationError as exc:
        raise CliError(f"--window: {exc.errors()[0]['msg']}, got {window}") from None


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def positive_int(text: str) -> int:
    value = non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be >= 1, got 0")
    return value


def rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1], got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be in [0, 1], got {value}")
    return value


def family_name(text: str) -> str:
    from reacthuman.scenes.spec import Family

    try:
        return Family(text).value
    except ValueError:
        known = ", ".join(f.value for f in Family)
        raise argparse.ArgumentTypeError(f"unknown family {text!r} (known: {known})") from None


def make_observer(cache: str | None):
    from reacthuman.sim.cache import ObservationCache
    from reacthuman.sim.observe import Observer
    from reacthuman.sim.settings import RenderSettings

    return Observer(RenderSettings(), ObservationCache(cache) if cache else None)


def prefill(observer, specs, jobs: int, quiet: bool) -> None:
    from tqdm import tqdm

    from reacthuman.sim.observe import observe_all

    with tqdm(
        total=len(specs), desc="simulating", unit="scene", disable=quiet, file=sys.stderr
    ) as bar:
        observe_all(specs, observer, None, lambda _r: bar.update(1), jobs=jobs)


def simulation_check(observer):
    """Simulate a candidate scene (through the observation cache) and validate it."""
    from reacthuman.sim.validate import SceneCheck

    return SceneCheck(observer)


def spec_path(target: Path) -> Path:
    return target / "spec.json" if target.is_dir() else target


def load_specs(target: Path) -> tuple[list, list[str]]:
    """The specs at ``target`` (a set folder, a scene folder or a spec file) and the set's
    scenes that could not be read, each named with its file and why: one bad scene is its
    own error, the others are run (``scenes.set_files.read_scenes``). CliError when ``target``
    itself cannot be read (no set.json or spec, an invalid manifest)."""
    from reacthuman.scenes.set_files import load_spec, read_scenes
    from reacthuman.scenes.set_models import SetError

    try:
        if target.is_dir() and (target / "set.json").is_file():
            _manifest, scenes, problems = read_scenes(target)
            return [scene.spec for scene in scenes], problems
        return [load_spec(spec_path(target))], []
    except SetError as exc:
        raise CliError(str(exc)) from None


def default_store() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "reacthuman" / "responses.sqlite"


def add_simulation_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cache",
        metavar="DIR",
        help="observation cache (default $REACTHUMAN_CACHE or ~/.cache/reacthuman/observations)",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=min(2, os.cpu_count() or 1),
        metavar="J",
        help="worker processes that simulate (default: up to 2, one per core)",
    )


def add_endpoint_options(parser: argparse.ArgumentParser, store_help: str) -> None:
    """``--base-url``, ``--api-key-env`` and ``--store``: where a ``--model`` is asked, with
    which key, and where its answers are kept."""
    parser.add_argument(
        "--base-url",
        default="https://openrouter.ai/api/v1",
        metavar="URL",
        help="endpoint (default OpenRouter; vLLM, Ollama, LM Studio work too)",
    )
    parser.add_argument(
        "--api-key-env",
        metavar="VAR",
        help="environment variable holding the key (default REACTHUMAN_API_KEY, "
        "OPENROUTER_API_KEY or OPENAI_API_KEY)",
    )
    parser.add_argument(
        "--store",
        metavar="FILE",
        help=f"response store (default ~/.cache/reacthuman/responses.sqlite){store_help}",
    )


def endpoint_key(args: argparse.Namespace) -> str | None:
    """The API key ``--api-key-env`` (or the default variables) holds; a note when none."""
    from reacthuman.brain.client import api_key_from_env

    key = api_key_from_env(args.api_key_env)
    if key is None:
        where = args.api_key_env or "REACTHUMAN_API_KEY, OPENROUTER_API_KEY or OPENAI_API_KEY"
        print(f"note: no API key in {where} (fine for local endpoints)", file=sys.stderr)
    return key
