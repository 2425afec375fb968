"""The ``reacthuman`` command: one module per verb, each an ``add_parser`` and its handlers.

Every verb is a thin layer over the library: parse arguments, call one function, print what a
person needs, and turn expected failures (:class:`CliError`, a store that cannot be opened)
into a one-line error and exit status 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from reacthuman import __version__
from reacthuman.cli import (
    bench,
    bench_sim,
    billiards,
    calibrate_gaits,
    catalogue,
    decide,
    g1,
    observe,
    probes,
    replay,
    report,
    scenes,
    score,
)
from reacthuman.cli.common import CliError

# In the order `reacthuman --help` lists them.
VERBS = (
    scenes,
    observe,
    decide,
    score,
    report,
    bench_sim,
    calibrate_gaits,
    catalogue,
    bench,
    replay,
    g1,
    billiards,
    probes,
)

__all__ = ["CliError", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reacthuman",
        description="ReactHuman: do multimodal LLMs react to sudden household hazards like a "
        "competent person? Generate scenes, simulate, decide, score.",
    )
    parser.add_argument("--version", action="version", version=f"reacthuman {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for verb in VERBS:
        verb.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from pydantic import ValidationError

    from reacthuman.documents import first_problem
    from reacthuman.out_folder import OutFolderError
    from reacthuman.sqlite_store import StoreError

    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except (CliError, StoreError, OutFolderError) as exc:
        print(f"reacthuman: error: {exc}", file=sys.stderr)
        return 1
    except ValidationError as exc:  # bad input a verb did not name itself: one line, no dump
        print(f"reacthuman: error: {exc.title}: {first_problem(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("reacthuman: interrupted", file=sys.stderr)
        return 130
