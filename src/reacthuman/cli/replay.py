"""``reacthuman replay``: re-score episodes from their rosbag2 bags."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from reacthuman.cli.common import CliError


def add_parser(commands: Any) -> None:
    replay = commands.add_parser(
        "replay",
        help="re-score episodes from their rosbag2 bags",
        description="Re-score each episode from its bag alone (scene, ground truth, executed "
        "decision and outcome) and compare with the score recorded live.",
    )
    replay.add_argument(
        "bags", nargs="+", help="bag folders, their .mcap files, or folders holding bags"
    )
    replay.add_argument("--topics", action="store_true", help="list each bag's topics")
    replay.set_defaults(func=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    from reacthuman.ros.bag import BagError, find_bags, read_episode, rescore

    bags = []
    mismatched = 0
    for given in map(Path, args.bags):
        found = find_bags(given)
        if not found:  # each path named, never passed over without a word
            what = (
                "no such file or folder"
                if not given.exists()
                else (
                    "not an .mcap file or a bag folder"
                    if given.is_file()
                    else "no finished bags in it"
                )
            )
            print(f"reacthuman: error: {given}: {what}", file=sys.stderr)
            mismatched += 1
        bags += found
    if not bags:
        raise CliError(f"no finished rosbag2 episodes in {', '.join(args.bags)}")
    for path in bags:
        try:
            episode = read_episode(path)
        except BagError as exc:
            print(f"reacthuman: error: {exc}", file=sys.stderr)
            mismatched += 1
            continue
        row = rescore(episode)
        live = episode.score.row if episode.score is not None else None
        same = live == row
        mismatched += not same
        action = row.action.value if row.action is not None else "R1"
        verdict = "same as the live score" if same else "DIFFERS from the live score"
        if live is None:
            verdict = "no live score in the bag"
        print(
            f"{path}: {row.brain} {row.scene_id}: {action} (truth {row.true_action.value}), "
            f"SAA {row.saa:g}, safe {row.safe}, outcome "
            f"{row.outcome.value if row.outcome else '-'}; {verdict}"
        )
        if args.topics:
            for topic, count in sorted(episode.topics.items()):
                print(f"    {topic}: {count}")
    return 1 if mismatched else 0
