"""Assets a model constrains, checked against it: a label map's class count against the classifier's outputs.

Which model an asset describes: ``NAME.label_map.json`` the model ``NAME.onnx`` beside it (the desktop app this
product was designed from writes ``{"label_map": {"defeat": 0, ...}, "idx_to_label": {"0": "defeat", ...}}``); a
``labels.txt`` / ``classes.txt`` / ``label_map.json`` / ``labels.json`` every model in its folder; a Hugging Face
``config.json``'s ``id2label`` the models in its folder, when its ``architectures`` name a classification head (every
config has a default two-label ``id2label``, which means nothing for a language model).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from ..boundedread import read_bounded
from ..findings import Finding
from . import foldercodes as codes
from .folder import AssetFile

__all__ = ["MAX_LABEL_FILE_BYTES", "check_label_assets", "label_count"]

#: A label map above this size is not read (a real one is a few KiB; even 100,000 classes fit).
MAX_LABEL_FILE_BYTES = 16 * 2**20


class _Unreadable(Exception):
    pass


def _read(asset: AssetFile) -> bytes:
    try:
        return read_bounded(asset.path, MAX_LABEL_FILE_BYTES)
    except OSError as e:  # not a regular file, too large, unreadable (core/boundedread.py)
        raise _Unreadable(e.strerror or str(e)) from None


def _json(data: bytes) -> Any:
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise _Unreadable(f"not UTF-8 JSON ({type(e).__name__})") from None


def _count_mapping(value: Any) -> int | None:
    if isinstance(value, dict) and value:
        return len(value)
    if isinstance(value, list) and value:
        return len(value)
    return None


def label_count(asset: AssetFile) -> int | None:
    """The number of classes the asset names, or None when it names none (a config without a classification head).
    Raises _Unreadable when a label map cannot be read."""
    name = PurePosixPath(asset.member).name.lower()
    data = _read(asset)
    if name.endswith(".txt"):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise _Unreadable("not UTF-8 text") from None
        return len([line for line in text.rstrip("\r\n").splitlines()]) or None
    doc = _json(data)
    if name == "config.json":
        heads = doc.get("architectures") if isinstance(doc, dict) else None
        if not (isinstance(heads, list) and any(isinstance(h, str) and "Classification" in h for h in heads)):
            return None
        return _count_mapping(doc.get("id2label"))
    if isinstance(doc, dict):
        for key in ("idx_to_label", "id2label", "label_map", "labels", "classes"):
            n = _count_mapping(doc.get(key))
            if n is not None:
                return n
        return None
    return _count_mapping(doc)


def _described(asset: AssetFile, models: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[str]:
    """The models (their paths in the bundle) the asset describes."""
    path = PurePosixPath(asset.member)
    name = path.name.lower()
    if name.endswith(".label_map.json"):
        stem = path.name[: -len(".label_map.json")]
        own = str(path.parent / f"{stem}.onnx")
        return [m for m in models if m == own]
    if name in ("labels.txt", "classes.txt", "label_map.json", "labels.json", "config.json"):
        return [m for m in models if PurePosixPath(m).parent == path.parent]
    return []


def check_label_assets(assets: Sequence[AssetFile], outputs: Mapping[str, Sequence[Mapping[str, Any]]],
                       allow: bool) -> list[Finding]:
    """Each label map's class count against the outputs of the models it describes (``outputs``: model path in the
    bundle → its outputs as the manifest lists them). A mismatch is an error (raised) unless ``allow``; then it is
    recorded as the error finding it is."""
    findings: list[Finding] = []
    for asset in assets:
        if asset.role not in ("label-map", "config"):
            continue
        described = _described(asset, outputs)
        if not described:
            continue
        try:
            count = label_count(asset)
        except _Unreadable as e:
            if asset.role == "config":
                continue  # a config that is no label map: nothing to check
            finding = codes.RELEASE_LABELS.finding(asset.member, variant="unreadable", asset=asset.member,
                                                   reason=str(e))  # fmt: skip
            if not allow:
                raise codes.RELEASE_LABELS.error(variant="unreadable", asset=asset.member, reason=str(e)) from None
            findings.append(finding)
            continue
        if count is None:
            continue
        for model in described:
            findings.extend(_judge(asset, model, count, outputs[model], allow))
    return findings


def _judge(asset: AssetFile, model: str, count: int, outputs: Sequence[Mapping[str, Any]],
           allow: bool) -> list[Finding]:
    fixed = [(o["name"], o["shape"][-1]) for o in outputs if o.get("shape") and isinstance(o["shape"][-1], int)]
    if not fixed:
        return []  # symbolic last dimensions cannot be checked
    matching = [name for name, dim in fixed if dim == count]
    if matching:
        return [codes.RELEASE_LABELS_OK.finding(asset.member, asset=asset.member, count=count, model=model,
                                                output=matching[0])]  # fmt: skip
    desc = ", ".join(f"{n!r}: {d}" for n, d in fixed)
    if not allow:
        raise codes.RELEASE_LABELS.error(asset=asset.member, count=count, model=model, outputs=desc)
    return [codes.RELEASE_LABELS.finding(asset.member, asset=asset.member, count=count, model=model, outputs=desc)]
