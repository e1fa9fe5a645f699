"""What a release folder holds: its models (found by content), their external data, the other files as assets, and
what is left out; every name checked for collisions and portability before anything is written.

The app's paths are the contract: every file keeps its path relative to the folder, under the folder's own name
(``models/victory_classifier.onnx``, as ``zip -r models/`` would store it). A model's external-data files belong to
that model (merged into it, or kept beside it); a data-like file that no model references is left out and named.
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..checks.inspection import Inspection, inspect_model
from ..errors import Cancelled, OnnxpackError
from ..findings import Finding
from ..model.modelfile import FileKind, sniff
from ..names import component_problem, folded
from ..progress import CancelToken, check_cancel
from . import foldercodes as codes

__all__ = [
    "MAX_RELEASE_PATH",
    "AssetFile",
    "FolderModel",
    "ReleaseTree",
    "asset_role",
    "scan_assets",
    "scan_folder",
]

#: The longest member path a release may hold. Windows' MAX_PATH is 260 characters for the whole path; extracted into
#: a typical folder (``C:\Users\<name>\AppData\Local\<App>\``, about 40-60 characters) this leaves about 200.
MAX_RELEASE_PATH = 200

#: Folders and files never shipped: version control, caches, OS litter (hidden names starting with "." too).
_LITTER_DIRS = frozenset({"__pycache__", "__MACOSX", "node_modules", "$RECYCLE.BIN", "System Volume Information"})
_LITTER_FILES = frozenset({"Thumbs.db", "ehthumbs.db", "desktop.ini", "Desktop.ini"})
#: Names exporters give external-data files (onnx, PyTorch, Optimum, transformers.js chunks, diffusers).
_DATA_NAME = re.compile(r"(?i).*(\.data|\.onnx_data(_\d+)?|\.onnx\.data_\d+|\.extdata)$|weights\.pb")
#: Members onnxpack writes at the top of a bundle; the app's folder may not be named like them.
_OWN_NAMES = frozenset({"readme.txt", "sha256sums", "manifest.json", "model.sig", "smoke"})


@dataclass(frozen=True)
class FolderModel:
    """A model of the release: its file, its path in the bundle, its inspection and its external-data files."""

    path: Path
    member: str  # its path in the bundle: PREFIX/REL
    inspection: Inspection
    data: tuple[Path, ...]


@dataclass(frozen=True)
class AssetFile:
    """A file the app reads beside its models (label map, tokenizer, config, ...), shipped as it is."""

    path: Path
    member: str
    size: int
    role: str  # label-map, tokenizer, config, other


@dataclass(frozen=True)
class ReleaseTree:
    """What a release holds, checked: the folder (its name is the bundle's top folder), the models, the assets, the
    files left out (member path, why) and the findings about them."""

    root: Path
    prefix: str
    models: tuple[FolderModel, ...]
    assets: tuple[AssetFile, ...]
    skipped: tuple[tuple[str, str], ...]
    findings: tuple[Finding, ...]

    def to_dict(self) -> dict[str, object]:
        return {"root": self.prefix, "models": [m.member for m in self.models],
                "assets": [a.member for a in self.assets],
                "skipped": [{"path": p, "reason": r} for p, r in self.skipped]}  # fmt: skip


def asset_role(name: str) -> str:
    """What an asset is to the app, by the names exporters give them."""
    low = name.lower()
    if low.endswith(".label_map.json") or low in ("labels.txt", "label_map.json", "classes.txt", "labels.json"):
        return "label-map"
    if (low.startswith(("tokenizer", "vocab", "merges", "special_tokens_map", "added_tokens", "spiece"))
            or low.endswith((".spm", ".tiktoken")) or low == "sentencepiece.bpe.model"):
        return "tokenizer"
    if low.endswith((".json", ".yaml", ".yml", ".toml", ".ini", ".cfg")) and (
            "config" in low or "settings" in low or low in ("model_index.json", "genai_config.json")):
        return "config"
    return "other"


def _member(prefix: str, rel: str) -> str:
    return f"{prefix}/{rel}" if prefix else rel


def _litter(name: str, is_dir: bool) -> str | None:
    if name.startswith("."):
        return "hidden"
    if is_dir and name in _LITTER_DIRS:
        return "cache or system folder"
    if not is_dir and (name in _LITTER_FILES or name.endswith("~") or name.startswith("~$")):
        return "system or editor file"
    return None


def _excluded(rel: str, patterns: Sequence[str]) -> str | None:
    name = rel.rsplit("/", 1)[-1]
    for pat in patterns:
        if fnmatch.fnmatchcase(rel, pat) or fnmatch.fnmatchcase(name, pat) or fnmatch.fnmatchcase(rel, pat + "/*"):
            return f"excluded by --exclude {pat}"
    return None


def _walk(root: Path, prefix: str, patterns: Sequence[str], leave_out: Sequence[Path], skipped: list[tuple[str, str]],
          cancel: CancelToken | None) -> Iterator[tuple[Path, str, os.stat_result]]:
    """Every regular file under ``root`` to ship, as (path, path relative to root, stat); links and special files
    are refused."""
    stack = [(root, "")]
    while stack:
        folder, rel_dir = stack.pop()
        check_cancel(cancel)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as e:
            raise codes.RELEASE_UNREADABLE.error(path=str(folder), reason=e.strerror or str(e)) from None
        subdirs = []
        for entry in entries:
            rel = f"{rel_dir}{entry.name}"
            path = Path(entry.path)
            if any(path == p for p in leave_out):
                skipped.append((_member(prefix, rel), "the output folder"))
                continue
            is_link = entry.is_symlink()
            is_dir = not is_link and entry.is_dir(follow_symlinks=False)
            why = _litter(entry.name, is_dir) or _excluded(rel, patterns)
            if why is not None:
                skipped.append((_member(prefix, rel) + ("/" if is_dir else ""), why))
                continue
            if is_link:
                raise codes.RELEASE_LINK.error(path=_member(prefix, rel), target=os.readlink(path))
            st = entry.stat(follow_symlinks=False)
            if is_dir:
                subdirs.append((path, rel + "/"))
            elif stat.S_ISREG(st.st_mode):
                yield path, rel, st
            else:
                raise codes.RELEASE_SPECIAL.error(path=_member(prefix, rel))
        stack.extend(reversed(subdirs))


def _looks_like_model(path: Path, size: int) -> bool:
    """An .onnx file, or a file whose content is a serialized ModelProto: ir_version (field 1) first, then a field of
    ModelProto (exporters write ir_version first). The parse decides for a .onnx file; others must look the part."""
    if path.suffix.lower() == ".onnx":
        return True
    if size < 16 or size >= 2**31:
        return False
    try:
        if sniff(path) is not FileKind.ONNX:
            return False
        with open(path, "rb") as f:
            head = f.read(3)
    except OSError:
        return False
    return head[0] == 0x08 and 3 <= head[1] <= 20 and head[2] in (0x12, 0x1A, 0x22, 0x28, 0x32, 0x3A, 0x42)


def _model_error(member: str, e: OnnxpackError) -> OnnxpackError:
    """``e`` naming the model by its path in the release (two models may share a file name in two folders)."""
    err = codes.RELEASE_MODEL_FAILED.error(model=member, message=e.message, hint=e.hint or None)
    err.code, err.details, err.exit_status = e.code, e.details, e.exit_status
    return err


def _inspect(path: Path, member: str, cancel: CancelToken | None) -> Inspection | None:
    try:
        return inspect_model(path, cancel=cancel)
    except Cancelled:
        raise
    except OnnxpackError as e:
        if path.suffix.lower() != ".onnx":
            return None  # looked like a model and is not one: an asset
        raise _model_error(member, e) from None


def _data_of(model: Inspection, member: str, root: Path) -> tuple[Path, ...]:
    """The model's external-data files, each inside the release folder and present."""
    table = model.external
    out: set[Path] = set()
    for f in table.findings if table is not None else ():
        if f.code == "EXTDATA_MISSING":
            raise codes.RELEASE_DATA_MISSING.error(model=member, location=f.subject)
    for ref in table.external_refs if table is not None else ():
        if ref.path is None:
            continue  # refused with its own finding by the model's validation
        where = Path(os.path.abspath(ref.path))
        if not where.is_relative_to(root):
            raise codes.RELEASE_DATA_OUTSIDE.error(model=member, location=ref.location, folder=root.name)
        if not where.is_file():
            raise codes.RELEASE_DATA_MISSING.error(model=member, location=ref.location)
        out.add(where)
    return tuple(sorted(out))


def _check_names(members: Sequence[str]) -> None:
    """Refuse names that cannot be extracted everywhere or that collide on case-insensitive file systems."""
    files: dict[str, str] = {}
    folders: dict[str, str] = {}
    for m in members:
        for part in m.split("/"):
            why = component_problem(part)
            if why is not None:
                raise codes.RELEASE_PATH.error(path=m, why=why)
        if len(m) > MAX_RELEASE_PATH:
            raise codes.RELEASE_PATH.error(variant="long", path=m, length=len(m), limit=MAX_RELEASE_PATH)
        key = folded(m)
        if key in files:
            raise codes.RELEASE_COLLISION.error(first=files[key], second=m)
        files[key] = m
        parts = m.split("/")
        for i in range(1, len(parts)):
            folder = "/".join(parts[:i])
            folders.setdefault(folded(folder), folder)
    for key, m in files.items():  # a file and a folder of one name ("Labels" and "labels/en.txt") collide too
        if key in folders:
            raise codes.RELEASE_COLLISION.error(first=m, second=folders[key] + "/")


def _skipped_finding(skipped: Sequence[tuple[str, str]]) -> Finding | None:
    if not skipped:
        return None
    examples = ", ".join(p for p, _ in skipped[:3]) + (", ..." if len(skipped) > 3 else "")
    return codes.RELEASE_SKIPPED.finding(count=len(skipped), examples=examples)


def scan_folder(root: Path, *, exclude: Sequence[str] = (), leave_out: Sequence[Path] = (),
                cancel: CancelToken | None = None) -> ReleaseTree:
    """The release that folder ``root`` holds (see the module docstring); refuses what cannot ship."""
    root = Path(os.path.abspath(root))
    prefix = root.name
    if prefix.casefold() in _OWN_NAMES:
        raise codes.RELEASE_PATH.error(variant="own", path=prefix)
    skipped: list[tuple[str, str]] = []
    files = list(_walk(root, prefix, exclude, [Path(os.path.abspath(p)) for p in leave_out], skipped, cancel))
    models: list[FolderModel] = []
    data: set[Path] = set()
    for path, rel, st in files:
        if not _looks_like_model(path, st.st_size):
            continue
        member = _member(prefix, rel)
        insp = _inspect(path, member, cancel)
        if insp is None or insp.model is None:
            continue  # an .ort file or a look-alike: shipped as an asset
        own = _data_of(insp, member, root)
        models.append(FolderModel(path, member, insp, own))
        data.update(own)
    if not models:
        raise codes.RELEASE_NO_MODEL.error(folder=str(root))
    model_paths = {m.path for m in models}
    findings: list[Finding] = []
    assets: list[AssetFile] = []
    for path, rel, st in files:
        if path in model_paths or path in data:
            continue
        member = _member(prefix, rel)
        if _DATA_NAME.fullmatch(path.name):
            skipped.append((member, "external data no model references"))
            findings.append(codes.RELEASE_DATA_UNREFERENCED.finding(member, path=member))
            continue
        assets.append(AssetFile(path, member, st.st_size, asset_role(path.name)))
    _check_names([*(m.member for m in models), *(_member(prefix, _rel(root, p)) for p in sorted(data)),
                  *(a.member for a in assets)])
    note = _skipped_finding(skipped)
    if note is not None:
        findings.append(note)
    return ReleaseTree(root, prefix, tuple(models), tuple(assets), tuple(skipped), tuple(findings))


def _rel(root: Path, path: Path) -> str:
    return PurePosixPath(*path.relative_to(root).parts).as_posix()


def scan_assets(model: Path, assets: Sequence[Path], cancel: CancelToken | None = None) -> ReleaseTree:
    """A single model with the files given by --asset beside it: each must lie in the model's folder (or below)."""
    model = Path(os.path.abspath(model))
    root = model.parent
    prefix = root.name
    member = _member(prefix, model.name)
    insp = _inspect(model, member, cancel)
    assert insp is not None
    own = _data_of(insp, member, root)
    out: list[AssetFile] = []
    for given in assets:
        path = Path(os.path.abspath(given))
        if path == model:
            raise codes.RELEASE_ASSET.error(variant="model", path=str(given))
        if not path.is_relative_to(root):
            raise codes.RELEASE_ASSET.error(path=str(given), folder=str(root))
        if path.is_symlink():
            raise codes.RELEASE_LINK.error(path=str(given), target=os.readlink(path))
        try:
            st = os.stat(path)
        except OSError:
            st = None
        if st is None or not stat.S_ISREG(st.st_mode):
            raise codes.RELEASE_ASSET.error(variant="missing", path=str(given))
        if path in own:
            continue  # the model's own data file: it belongs to the model already
        out.append(AssetFile(path, _member(prefix, _rel(root, path)), st.st_size, asset_role(path.name)))
    unique = {a.member: a for a in out}
    models = (FolderModel(model, member, insp, own),)
    _check_names([member, *(_member(prefix, _rel(root, p)) for p in own), *unique])
    return ReleaseTree(root, prefix, models, tuple(sorted(unique.values(), key=lambda a: a.member)), (), ())
