"""A scene set on disk: written atomically, replaced only where it holds nothing a set did not
write, and read back with every file checked (never a link out of the set, ``safe_files``).

Layout of a set directory (the released dataset's)::

    set.json                      manifest: generator, parameters, scene list, skipped seeds
    <family>/<scene_id>/spec.json       the SceneSpec
    <family>/<scene_id>/metadata.json   label, speed band, adversarial flag, safety label
    authored.json                 what became of each description (``scenes author``)
    .reacthuman.json              the marker: the verb that wrote the set (``out_folder``)
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TypeVar

from pydantic import (
    BaseModel,
    ValidationError,
)

from reacthuman.documents import first_problem
from reacthuman.out_folder import MARKER_FILE, OutFolderError, claim, marker_text, read_marker
from reacthuman.safe_files import DOCUMENT_LIMIT, UnsafeFile, read_inside, read_regular
from reacthuman.scenes.set_models import (
    Scene,
    SceneMetadata,
    SetError,
    SetManifest,
    metadata_for,
)
from reacthuman.scenes.spec import SceneSpec


def _dump(model: BaseModel) -> str:
    return json.dumps(model.model_dump(mode="json"), indent=2) + "\n"


SET_VERBS = ("scenes generate", "scenes author")  # the verbs whose --out is a scene set
SET_FILES = ("set.json", "authored.json", MARKER_FILE)  # a set's top folder, beside its scenes
SCENE_FILES = ("spec.json", "metadata.json")


def foreign_entry(out: Path) -> str | None:
    """None when everything in ``out`` is what a set wrote: its files (``SET_FILES``, with
    set.json a manifest) and the manifest's scene folders holding only ``SCENE_FILES``;
    else the first entry that is not, in a few words. A file merely named set.json is no
    set: replacing the folder would delete what is beside it."""
    manifest_path = out / "set.json"
    if manifest_path.is_symlink() or not manifest_path.is_file():
        return "no set.json"
    try:
        manifest = SetManifest.model_validate_json(manifest_path.read_bytes())
    except (OSError, ValidationError):
        return "its set.json is no scene set's manifest"
    listed = set(manifest.scenes)
    families = {entry.split("/")[0] for entry in listed}
    for path in sorted(out.iterdir()):
        if path.is_symlink():
            return f"{path.name} is a symbolic link"
        if path.name in SET_FILES and path.is_file():
            continue
        if path.name not in families or not path.is_dir():
            return f"it holds {path.name}"
        for scene in sorted(path.iterdir()):
            entry = f"{path.name}/{scene.name}"
            if scene.is_symlink() or not scene.is_dir() or entry not in listed:
                return f"it holds {entry}"
            for file in sorted(scene.iterdir()):
                if file.is_symlink() or not file.is_file() or file.name not in SCENE_FILES:
                    return f"it holds {entry}/{file.name}"
    return None


def check_set_folder(out: str | Path, verb: str = "scenes generate") -> None:
    """``out`` may take a set from ``verb``: missing, empty, or a set (marked, or an older
    version's) holding nothing a set did not write, so that replacing it deletes only the
    set. Raises SetError; the CLI calls it before any work, ``write_set`` again."""
    out = Path(out)
    try:
        claim(out, verb, "scene set", accepts=SET_VERBS, legacy=foreign_entry)
    except OutFolderError as exc:
        raise SetError(str(exc)) from None
    if read_marker(out) is not None:
        why = foreign_entry(out)
        if why is not None:
            raise SetError(
                f"--out {out}: a scene set, but {why}, which no set wrote; refusing to replace "
                "it: move that out, or choose a new folder"
            )


def write_set(
    out: str | Path,
    manifest: SetManifest,
    scenes: list[Scene],
    extra: dict[str, str] | None = None,
    verb: str = "scenes generate",
) -> Path:
    """Write a set atomically: into a temporary sibling, then renamed over ``out``.

    A scene set at ``out`` is replaced, and only one holding nothing but what a set wrote
    (``check_set_folder``); any other non-empty folder is left alone and refused, so a typo
    never deletes someone's files. ``extra``: more files for the set's top folder, by name
    (authoring's record), written with it. ``verb`` goes into the set's marker.
    """
    out = Path(out)
    check_set_folder(out, verb)
    parent = out.parent if str(out.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=parent))
    except OSError as exc:
        raise SetError(f"{out}: cannot write here: {exc.strerror}") from None
    try:
        for scene in scenes:
            folder = staging / scene.spec.family.value / scene.spec.scene_id
            folder.mkdir(parents=True)
            (folder / "spec.json").write_text(scene.spec.to_json())
            (folder / "metadata.json").write_text(_dump(scene.metadata))
        for name, text in (extra or {}).items():
            (staging / name).write_text(text)
        (staging / "set.json").write_text(_dump(manifest))
        (staging / MARKER_FILE).write_text(marker_text(verb))
        os.chmod(staging, 0o755)
        if out.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=parent))
            os.replace(out, retired / "set")
            os.replace(staging, out)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            os.replace(staging, out)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise SetError(f"{out}: cannot write the set: {exc}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out


class SetReadError(SetError):
    """Reading a set found problems; ``problems`` lists each with its file."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(f"{len(problems)} problem(s): " + "; ".join(problems[:5]))
        self.problems = problems


def load_spec(path: str | Path, root: str | Path | None = None) -> SceneSpec:
    """Read and validate one spec file; errors name the file and the field. ``root``: the
    folder it must not lead out of (a set's or a scene's, ``safe_files``); without one the
    file is one a person named, and a link to it is followed."""
    path = Path(path)
    try:
        data = (
            read_regular(path, DOCUMENT_LIMIT)
            if root is None
            else read_inside(path, Path(root), DOCUMENT_LIMIT)
        )
        return SceneSpec.from_json(data)  # not UTF-8: a ValidationError
    except OSError as exc:
        raise SetError(f"{path}: cannot read: {exc.strerror}") from None
    except UnsafeFile as exc:
        raise SetError(str(exc)) from None
    except ValidationError as exc:
        raise SetError(f"{path}: invalid spec: {first_problem(exc)}") from None


Document = TypeVar("Document", bound=BaseModel)


def read_document(path: Path, root: Path, model: type[Document], what: str) -> Document:
    """A JSON file of the set at ``root`` as ``model`` (``safe_files``: never a link out of
    the set); SetError naming the file and its first problem, ``what`` it should have been."""
    try:
        return model.model_validate_json(read_inside(path, root, DOCUMENT_LIMIT))
    except OSError as exc:
        raise SetError(f"{path}: cannot read: {exc.strerror}") from None
    except UnsafeFile as exc:
        raise SetError(str(exc)) from None
    except ValidationError as exc:
        raise SetError(f"{path}: invalid {what}: {first_problem(exc)}") from None


def read_manifest(path: str | Path) -> SetManifest:
    """A set's set.json; SetError naming the file and its first problem."""
    root = Path(path)
    if not (root / "set.json").is_file():
        raise SetError(f"{root}: not a scene set (no set.json)")
    return read_document(root / "set.json", root, SetManifest, "manifest")


def read_scene(path: str | Path, entry: str) -> Scene:
    """One scene of the set at ``path`` (``entry``: its ``<family>/<scene_id>`` in set.json):
    its spec and metadata, checked against each other, neither leading out of the set
    (``safe_files``); SetError naming the file and the problem."""
    root = Path(path)
    folder = root / entry
    spec = load_spec(folder / "spec.json", root)
    meta_path = folder / "metadata.json"
    metadata = read_document(meta_path, root, SceneMetadata, "metadata")
    # Simulated labels cannot be recomputed without simulating; intended ones can.
    pin = spec.generator.pin
    if (metadata.authored is None) != (pin is None) or (
        metadata.authored is not None
        and pin is not None
        and metadata.authored.severity != pin.severity
    ):
        raise SetError(
            f"{meta_path}: an authored scene's metadata and spec go together "
            "(provenance without a pinned spec, a pinned spec without provenance, or "
            "two severities)"
        )
    expected = metadata_for(spec, authored=metadata.authored)
    if metadata.label_source == "simulated":
        expected = expected.model_copy(
            update={
                k: getattr(metadata, k)
                for k in (
                    "label",
                    "safety",
                    "reaches_observer",
                    "label_source",
                    "moment",
                    "twin",
                    "views",
                )
            }
        )
    if metadata != expected:
        differing = [
            k for k in SceneMetadata.model_fields if getattr(metadata, k) != getattr(expected, k)
        ]
        raise SetError(f"{meta_path}: disagrees with its spec in {', '.join(differing)}")
    if entry != f"{spec.family.value}/{spec.scene_id}":
        raise SetError(f"{folder}: holds scene {spec.scene_id} of {spec.family.value}")
    return Scene(spec=spec, metadata=metadata)


def read_scenes(
    path: str | Path, limit: int | None = None
) -> tuple[SetManifest, list[Scene], list[str]]:
    """The first ``limit`` scenes that set.json lists (all without one), each read on its
    own: a scene that cannot be read is named in the problems (its file and why) and the
    others are kept. Scenes past ``limit`` are never read. What a run over a set uses
    (``observe``, ``bench``); ``read_set`` checks a whole set strictly."""
    root = Path(path)
    manifest = read_manifest(root)
    scenes: list[Scene] = []
    problems: list[str] = []
    for entry in manifest.scenes if limit is None else manifest.scenes[:limit]:
        try:
            scenes.append(read_scene(root, entry))
        except SetError as exc:
            problems.append(str(exc))
    return manifest, scenes, problems


def read_set(path: str | Path) -> tuple[SetManifest, list[Scene]]:
    """Read a set and check every spec, every metadata file and their agreement.

    Metadata must match what the label rule gives for the spec (a hand-edited label is an
    error, not a silent change of ground truth).
    """
    root = Path(path)
    manifest, scenes, problems = read_scenes(root)
    listed = set(manifest.scenes)
    for spec_file in sorted(root.glob("*/*/spec.json")):
        entry = f"{spec_file.parent.parent.name}/{spec_file.parent.name}"
        if entry not in listed:
            problems.append(f"{spec_file}: not listed in set.json")
    if problems:
        raise SetReadError(problems)
    return manifest, scenes
