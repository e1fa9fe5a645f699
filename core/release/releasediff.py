"""The diff of a release of several files against the previous release: models added, removed, changed (each
model's interface, runtime and content as versions.diff_manifests judges one model), assets added, removed, changed.

A model or asset removed is major (the app reads it by its path); a model added minor; an asset added or changed
patch. A schema-1 previous release is a release of its one model at its entry's file name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from .manifest import RELEASE_SCHEMA, model_views
from .versions import Change, ReleaseDiff, diff_manifests, parse_semver

__all__ = ["diff_releases", "release_identity"]


def release_identity(doc: Mapping[str, Any]) -> tuple[str, str]:
    """(name, version) of a manifest of either schema."""
    if doc.get("schema") == RELEASE_SCHEMA:
        return str(doc["bundle"]["name"]), str(doc["bundle"]["version"])
    return str(doc["model"]["name"]), str(doc["model"]["version"])


def _models(doc: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {str(v["model"]["entry"]): v for v in model_views(doc)}


def _match(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, str]:
    """Current model path → previous model path: the same path, or else the same file name when that is unique on
    both sides (a single-model release bundled again as a folder)."""
    pairs = {p: p for p in new if p in old}
    by_name_old: dict[str, list[str]] = {}
    for p in old:
        if p not in pairs.values():
            by_name_old.setdefault(PurePosixPath(p).name, []).append(p)
    for p in new:
        if p in pairs:
            continue
        cands = by_name_old.get(PurePosixPath(p).name, [])
        if len(cands) == 1 and sum(PurePosixPath(q).name == PurePosixPath(p).name for q in new if q not in pairs) == 1:
            pairs[p] = cands[0]
    return pairs


def diff_releases(previous: Mapping[str, Any], models: Sequence[Mapping[str, Any]],
                  assets: Sequence[Mapping[str, Any]], *, source: str = "") -> ReleaseDiff:
    """Diff the previous release with this one (``models``: each model's schema-1 view; ``assets``: the manifest's
    asset records)."""
    name, version = release_identity(previous)
    diff = ReleaseDiff(name, parse_semver(version, "the previous version"), source)
    old = _models(previous)
    new = {str(m["model"]["entry"]): dict(m) for m in models}
    pairs = _match(old, new)
    for path, view in sorted(new.items()):
        if path not in pairs:
            diff.changes.append(Change("model_added", path, "minor", f"model {path} added"))
            continue
        inner = diff_manifests(old[pairs[path]], view, source=source)
        for c in inner.changes:
            diff.changes.append(Change(c.kind, f"{path}: {c.subject}", c.impact, f"{path}: {c.message}", c.before,
                                       c.after))  # fmt: skip
    for path in sorted(set(old) - set(pairs.values())):
        diff.changes.append(Change("model_removed", path, "major", f"model {path} removed: an app that loads it "
                                   "fails"))  # fmt: skip
    old_assets = {a["path"]: a for a in previous.get("assets", [])} if previous.get("schema") == RELEASE_SCHEMA else {}
    new_assets = {a["path"]: a for a in assets}
    for path in sorted(new_assets.keys() - old_assets.keys()):
        diff.changes.append(Change("asset_added", path, "patch", f"asset {path} added"))
    for path in sorted(old_assets.keys() - new_assets.keys()):
        diff.changes.append(Change("asset_removed", path, "major", f"asset {path} removed: an app that reads it "
                                   "fails"))  # fmt: skip
    for path in sorted(old_assets.keys() & new_assets.keys()):
        if old_assets[path]["sha256"] != new_assets[path]["sha256"]:
            diff.changes.append(Change("asset_changed", path, "patch", f"asset {path} changed",
                                       old_assets[path]["sha256"], new_assets[path]["sha256"]))  # fmt: skip
    return diff
