"""Output folders (issue 53): a verb writes only into a folder that is new, empty or its own,
refuses anyone else's with one line before any work, deletes nothing it did not write, and
never writes through a symbolic link out of its folder."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from helpers import C, D, row, run_cli

THESIS = "\\documentclass{article} my thesis, not a scene set\n"


def snapshot(root: Path) -> dict[str, bytes | str]:
    """Every entry below ``root`` (links not followed): a file's bytes, a link's target."""
    found: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            found[name] = f"-> {path.readlink()}"
        elif path.is_file():
            found[name] = path.read_bytes()
        else:
            found[name] = "folder"
    return found


def someone_elses(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "thesis.tex").write_text(THESIS)
    return folder


def a_run_with_scores(folder: Path) -> Path:
    from reacthuman.scoring.results import ResultsStore

    store = ResultsStore(folder / "results.sqlite")
    store.put(row(0, "oracle", C, C))
    store.put(row(1, "oracle", D, C))
    store.close()
    return folder


def refused(done, out: Path) -> None:
    """One line on stderr naming the folder, exit 1, no traceback."""
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith(f"reacthuman: error: --out {out}: "), lines[0]
    assert "refusing" in lines[0] and "choose a new" in lines[0]


@pytest.fixture(scope="module")
def probes_file(observed, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("probes") / "probes.jsonl"
    done = run_cli("probes", "generate", str(observed), "--out", str(path))
    assert done.returncode == 0, done.stderr
    return path


def verb_args(verb: str, out: Path, observed: Path, probes: Path, tmp: Path) -> list[str]:
    """Arguments with which ``verb`` would do its work and write into ``out``."""
    if verb == "decide":
        return ["decide", str(observed), "--brain", "oracle", "--store", str(tmp / "r.sqlite")]
    if verb == "score":
        decisions = tmp / "decisions"
        decide = ["decide", str(observed), "--brain", "oracle", "--store", str(tmp / "r.sqlite")]
        assert run_cli(*decide, "--out", str(decisions), "--quiet").returncode == 0
        return ["score", "--observations", str(observed), "--decisions", str(decisions)]
    if verb == "report":
        return ["report", str(a_run_with_scores(tmp / "run"))]
    if verb == "probes score":
        return ["probes", "score", str(probes)]
    if verb == "billiards bench":
        return ["billiards", "bench", "--tables", "1", "--horizons", "1"]
    if verb == "scenes generate":
        return ["scenes", "generate", "--family", "object_drop", "--seed", "0", "--quiet"]
    raise AssertionError(verb)


@pytest.mark.parametrize(
    "verb",
    ["decide", "score", "report", "probes score", "billiards bench", "scenes generate"],
)
def test_every_verb_refuses_a_folder_it_did_not_make_and_writes_nothing(
    verb, observed, probes_file, tmp_path
):
    # Was: each wrote its files beside the user's (scenes generate only refused for want
    # of a set.json).
    out = someone_elses(tmp_path / "theirs")
    args = verb_args(verb, out, observed, probes_file, tmp_path)
    done = run_cli(*args, "--out", str(out))
    refused(done, out)
    assert snapshot(out) == {"thesis.tex": THESIS.encode()}


def test_observe_refuses_a_folder_it_did_not_make_before_simulating(tmp_path, default_set):
    from reacthuman.scenes.set_files import write_set

    _manifest, scenes = default_set
    one = tmp_path / "one"
    write_set(one, _manifest.model_copy(update={"scenes": _manifest.scenes[:1]}), scenes[:1])
    out = someone_elses(tmp_path / "theirs")
    done = run_cli("observe", str(one), "--out", str(out), "--quiet")
    refused(done, out)
    assert snapshot(out) == {"thesis.tex": THESIS.encode()}


def test_scenes_generate_keeps_a_folder_holding_a_stray_set_json(tmp_path):
    # Was: the whole folder was replaced because it held a file named set.json, and the
    # thesis beside it went too.
    out = someone_elses(tmp_path / "theirs")
    (out / "set.json").write_text('{"my": "own set.json"}\n')
    before = snapshot(out)
    for verb in (["generate", "--family", "object_drop", "--seed", "0"], ["author", "a pan"]):
        done = run_cli("scenes", *verb, "--out", str(out))
        refused(done, out)
        assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs"]  # no staging left


def test_a_rerun_of_generate_replaces_its_own_set_byte_for_byte(tmp_path):
    from reacthuman.out_folder import MARKER_FILE, read_marker

    out = tmp_path / "set"
    args = ["scenes", "generate", "--family", "object_drop", "--per-family", "2", "--quiet"]
    assert run_cli(*args, "--out", str(out)).returncode == 0
    first = snapshot(out)
    marker = read_marker(out)
    assert marker is not None and marker.verb == "scenes generate"
    again = run_cli(*args, "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert snapshot(out) == first  # specs, metadata, manifest and marker: the same bytes
    assert sum(name.endswith("spec.json") for name in first) == 2 and MARKER_FILE in first


def test_replacing_a_set_never_deletes_what_the_set_did_not_write(tmp_path):
    out = tmp_path / "set"
    args = ["scenes", "generate", "--family", "object_drop", "--seed", "0", "--quiet"]
    assert run_cli(*args, "--out", str(out)).returncode == 0
    (out / "notes.txt").write_text("my notes on the set\n")
    before = snapshot(out)
    done = run_cli(*args, "--out", str(out))
    assert done.returncode == 1 and "notes.txt" in done.stderr and "Traceback" not in done.stderr
    assert snapshot(out) == before


def test_a_set_an_older_version_wrote_is_replaced_only_when_it_holds_nothing_else(tmp_path):
    from reacthuman.out_folder import MARKER_FILE, read_marker

    out = tmp_path / "set"
    args = ["scenes", "generate", "--family", "object_drop", "--seed", "0", "--quiet"]
    assert run_cli(*args, "--out", str(out)).returncode == 0
    (out / MARKER_FILE).unlink()  # as a version without the marker left it
    assert run_cli(*args, "--out", str(out)).returncode == 0
    marker = read_marker(out)
    assert marker is not None and marker.verb == "scenes generate"
    (out / MARKER_FILE).unlink()
    (out / "object_drop" / "thesis.tex").write_text(THESIS)
    before = snapshot(out)
    refused(run_cli(*args, "--out", str(out)), out)
    assert snapshot(out) == before


def test_bench_refuses_a_foreign_results_sqlite_beside_a_users_scores(tmp_path):
    # Was: any results.sqlite made the folder a run: the store got the run's table, and a
    # finished bench replaced scores.csv and report/.
    out = tmp_path / "mine"
    out.mkdir()
    with sqlite3.connect(out / "results.sqlite") as db:
        db.execute("CREATE TABLE notes (text TEXT)")
        db.execute("INSERT INTO notes VALUES ('my own database')")
    db.close()
    (out / "scores.csv").write_text("my own scores\n")
    before = snapshot(out)
    # --brain nonsense: were the folder taken, bench would stop at it, after the check.
    done = run_cli("bench", "--direct", "--brain", "nonsense", "--out", str(out))
    refused(done, out)
    assert snapshot(out) == before


def test_a_run_a_bench_made_is_still_resumed(tmp_path):
    from reacthuman.cli.bench import check_run_folder
    from reacthuman.out_folder import mark

    run = a_run_with_scores(mark(tmp_path / "run", "bench"))
    (run / "report").mkdir()
    check_run_folder(run)  # its own: taken
    legacy = a_run_with_scores(tmp_path / "old")  # an older bench's, no marker: taken
    (legacy / "scores.csv").write_text("scene_id,brain\n")
    check_run_folder(legacy)


def test_bench_refuses_a_run_whose_episodes_link_out_of_it(tmp_path):
    # Was: a symlinked episodes/heuristic put the run's files outside it.
    from reacthuman.cli.bench import check_run_folder
    from reacthuman.cli.common import CliError
    from reacthuman.out_folder import mark

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    run = a_run_with_scores(mark(tmp_path / "run", "bench"))
    (run / "episodes").mkdir()
    (run / "episodes" / "heuristic").symlink_to(outside, target_is_directory=True)
    with pytest.raises(CliError, match="episodes/heuristic is a symbolic link"):
        check_run_folder(run)
    assert list(outside.iterdir()) == []


def test_episode_files_are_never_written_through_a_link(observed, tmp_path):
    """The run folder's writers (observations, decisions) refuse a linked episode folder
    even where no check ran before them (a node of a graph launched by hand)."""
    from reacthuman.brain.client import Decision
    from reacthuman.layout import brain_folder, find_scenes
    from reacthuman.observation import Observation
    from reacthuman.out_folder import OutFolderError
    from reacthuman.run_folder import episode_folder, write_decision, write_observations

    source = brain_folder(find_scenes(observed)[0])
    observation = Observation.model_validate_json((source / "observation.json").read_text())
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    run = tmp_path / "run"
    (run / "episodes").mkdir(parents=True)
    (run / "episodes" / "heuristic").symlink_to(outside, target_is_directory=True)
    folder = episode_folder(run, "heuristic", observation.scene_id)
    with pytest.raises(OutFolderError, match="heuristic: a symbolic link inside"):
        write_observations([folder], observation, {}, run)
    decision = Decision(scene_id=observation.scene_id, brain="heuristic", r1_reason="test")
    with pytest.raises(OutFolderError, match="heuristic: a symbolic link inside"):
        write_decision(folder, decision, run)
    assert list(outside.iterdir()) == []


def test_a_bench_report_is_never_written_through_a_linked_report_folder(tmp_path):
    from reacthuman.out_folder import OutFolderError
    from reacthuman.scoring.report import write_report

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "report.md").write_text("my own report\n")
    run = a_run_with_scores(tmp_path / "run")
    (run / "report").symlink_to(outside, target_is_directory=True)
    with pytest.raises(OutFolderError, match="report: a symbolic link inside"):
        write_report([row(0, "oracle", C, C)], run / "report", "t", root=run)
    assert snapshot(outside) == {"report.md": b"my own report\n"}


def test_a_rerun_of_decide_refuses_a_scene_folder_linked_out_of_it(observed, tmp_path):
    out = tmp_path / "decisions"
    args = ["decide", str(observed), "--brain", "oracle", "--store", str(tmp_path / "r.sqlite")]
    assert run_cli(*args, "--out", str(out), "--quiet").returncode == 0
    family = sorted(p for p in out.iterdir() if p.is_dir())[0]
    outside = tmp_path / "elsewhere"
    family.rename(outside)
    family.symlink_to(outside, target_is_directory=True)
    before = snapshot(outside)
    done = run_cli(*args, "--out", str(out), "--quiet")
    assert done.returncode == 1 and "is a symbolic link" in done.stderr, done.stderr
    assert snapshot(outside) == before


def test_report_refuses_a_run_whose_plots_link_out_of_it(tmp_path):
    run = tmp_path / "run"
    decisions = tmp_path / "decisions"
    decisions.mkdir()
    observations = tmp_path / "observations"
    observations.mkdir()
    scored = run_cli(
        "score", "--observations", str(observations), "--decisions", str(decisions),
        "--out", str(run),
    )  # fmt: skip
    assert (run / "results.sqlite").is_file(), scored.stderr
    a_run_with_scores(run)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (run / "plots").symlink_to(outside, target_is_directory=True)
    done = run_cli("report", str(run))
    assert done.returncode == 1 and "plots is a symbolic link" in done.stderr, done.stderr
    assert list(outside.iterdir()) == []
    assert not (run / "report.md").exists()


def test_a_score_run_takes_a_rescore_and_its_report(observed, tmp_path):
    """Resuming stays as it was: score twice into its folder, then report into it."""
    run = tmp_path / "run"
    decisions = tmp_path / "decisions"
    decide = ["decide", str(observed), "--brain", "oracle", "--store", str(tmp_path / "r.sqlite")]
    assert run_cli(*decide, "--out", str(decisions), "--quiet").returncode == 0
    score = ["score", "--observations", str(observed), "--decisions", str(decisions)]
    for _ in range(2):
        done = run_cli(*score, "--out", str(run))
        assert done.returncode == 0, done.stderr
    done = run_cli("report", str(run))
    assert done.returncode == 0, done.stderr
    assert (run / "report.md").is_file() and (run / "scores.csv").is_file()
