"""``reacthuman catalogue``: the object catalogue."""

from __future__ import annotations

import argparse
import json
from typing import Any

from reacthuman.cli.common import CliError, render_settings


def add_parser(commands: Any) -> None:
    cat = commands.add_parser(
        "catalogue",
        help="print the object catalogue",
        description="Print the 82-object catalogue (14 adversarial look-alikes).",
    )
    cat.add_argument("--json", action="store_true", help="machine-readable JSON list")
    cat.add_argument(
        "--markdown",
        action="store_true",
        help="the per-object label table (docs/scenes.md), as Markdown",
    )
    cat.add_argument("--file", help="validate and print this catalogue file instead")
    cat.add_argument(
        "--sheet",
        metavar="OUT",
        help="render every object as the close-up camera sees it, labelled, into the PNG OUT",
    )
    cat.add_argument(
        "--unlabelled",
        action="store_true",
        help="with --sheet: number the tiles and write the key to OUT.key.json (a blind reading)",
    )
    cat.add_argument(
        "--resolution",
        default="640x360",
        help="with --sheet: the frame the tiles are cut from, as the scenes render (640x360)",
    )
    cat.set_defaults(func=cmd_catalogue)


def cmd_catalogue(args: argparse.Namespace) -> int:
    from reacthuman.scenes.catalogue import CatalogueError, default_catalogue, load_catalogue

    try:
        catalogue = load_catalogue(args.file) if args.file else default_catalogue()
    except CatalogueError as exc:
        raise CliError(str(exc)) from None
    if args.unlabelled and not args.sheet:
        raise CliError("--unlabelled needs --sheet OUT")
    if args.sheet:
        return _sheet(catalogue, args)
    if args.json:
        print(json.dumps([o.model_dump(mode="json") for o in catalogue.objects], indent=2))
        return 0
    if args.markdown:
        print(_catalogue_markdown(catalogue))
        return 0
    print(
        f"{len(catalogue)} objects, {len(catalogue.adversarial)} adversarial "
        f"(catalogue {catalogue.version})\n"
    )
    print(f"  {'name':<28}{'mass kg':>8}  {'hazards':<32}{'looks like'}")
    for obj in catalogue.objects:
        hazards = obj.hazards.active() + ([] if obj.graspable else ["large"])
        looks = obj.looks_like + (f"  [imitates {obj.imitates}]" if obj.imitates else "")
        print(f"  {obj.name:<28}{obj.mass_kg:>8.3g}  {', '.join(hazards) or '-':<32}{looks}")
    return 0


def _sheet(catalogue, args: argparse.Namespace) -> int:
    from pathlib import Path

    from reacthuman.sim.catalogue_sheet import write_catalogue_sheet

    settings = render_settings(args.resolution)
    out = Path(args.sheet)
    if out.suffix.lower() != ".png":
        raise CliError(f"--sheet writes a PNG; name it *.png, got {out}")
    write_catalogue_sheet(catalogue, out, settings, labelled=not args.unlabelled)
    print(f"wrote {out} ({len(catalogue)} objects)")
    return 0


def _catalogue_markdown(catalogue) -> str:
    """The per-object label table docs/scenes.md publishes: what each object looks like, what it
    is, the label rule's verdict, and the families that stage it."""
    from reacthuman.scenes.families import REGISTRY
    from reacthuman.scenes.labels import rule_in_words
    from reacthuman.scenes.samplers import pinnable_objects

    users: dict[str, list[str]] = {}
    for family in REGISTRY:
        for name in pinnable_objects(family, catalogue):
            users.setdefault(name, []).append(family.value)
    lines = [
        "| object | looks like | material | mass (kg) | label | families |",
        "|---|---|---|---|---|---|",
    ]
    for obj in catalogue.objects:
        name = f"{obj.name} (imitates {obj.imitates})" if obj.imitates else obj.name
        lines.append(
            f"| {name} | {obj.looks_like} | {obj.material} | {obj.mass_kg:g} | "
            f"{rule_in_words(obj)} | {', '.join(users.get(obj.name, [])) or '-'} |"
        )
    return "\n".join(lines)
