"""Reproducibility of `--ort-format` bundles.

onnxruntime's converter lays out part of the .ort FlatBuffer (the kernel type-string resolver) in the
iteration order of an Abseil hash map, whose hash seed changes with every process (address-space layout
randomisation). The .ort bytes therefore differ from run to run while their content is identical. The
bundle says so in its manifest and README; everything else must still repeat byte for byte.
"""

from __future__ import annotations

import importlib
import inspect
import json
import zipfile
from pathlib import Path
from typing import Any

from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.verify.verify import verify_bundle
from onnxpack.core.runtime.ortformat import ORT_NONDETERMINISM, convert_to_ort
from tests import factory

EPOCH = 1_700_000_000


def _members(zip_path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(zip_path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def _fbs_class(name: str) -> Any:
    import onnxruntime.tools.ort_format_model  # noqa: F401  (puts ort_flatbuffers_py on sys.path)

    return getattr(importlib.import_module(f"ort_flatbuffers_py.fbs.{name}"), name)


_UNION = {"TypeInfo.Value": {1: "TensorTypeAndShape", 2: "SequenceType", 3: "MapType"}}


def _content(table: Any) -> Any:
    """Every field of a FlatBuffer table, read with ORT's generated classes: the layout-free content."""
    out: dict[str, Any] = {}
    cls = type(table)
    for name, fn in sorted(inspect.getmembers(cls, inspect.isfunction)):
        if not name[0].isupper() or name.startswith("GetRoot") or name == "Init" or name.endswith(
            ("Length", "IsNone", "AsNumpy", "BufferHasIdentifier")
        ):
            continue
        params = list(inspect.signature(fn).parameters)[1:]
        accessor = getattr(table, name)
        if params == ["j"]:
            if hasattr(table, name + "AsNumpy"):  # a vector of numbers (0 when absent)
                arr = getattr(table, name + "AsNumpy")()
                out[name] = "" if isinstance(arr, int) else arr.tobytes().hex()
            else:
                out[name] = [_value(accessor(j)) for j in range(getattr(table, name + "Length")())]
        elif params == []:
            value = accessor()
            union = _UNION.get(f"{cls.__name__}.{name}")
            if union is not None and value is not None:
                obj = _fbs_class(union[getattr(table, name + "Type")()])()
                obj.Init(value.Bytes, value.Pos)
                value = obj
            out[name] = _value(value)
    return out


def _value(v: Any) -> Any:
    if hasattr(v, "_tab"):
        return _content(v)
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else v


def ort_content(data: bytes) -> Any:
    session = _fbs_class("InferenceSession").GetRootAs(data, 0)
    return _content(session)


def test_converter_output_differs_only_in_layout(tmp_path: Path) -> None:
    """Two conversions of the same model: the config repeats exactly, the .ort content is the same."""
    model = factory.external_model(tmp_path / "m")
    results = [convert_to_ort(model, tmp_path / f"out{n}") for n in range(2)]
    assert all(r.ok for r in results)
    configs = [(r.out_dir / "required_operators.config").read_bytes() for r in results]
    assert configs[0] == configs[1]
    assert configs[0].decode("utf-8").splitlines()[:2] == ["# Generated from model/s:", "# - model.ort"]
    assert str(tmp_path).encode() not in configs[0]  # no temporary path
    orts = [r.ort_model.read_bytes() for r in results]
    assert len(orts[0]) == len(orts[1])
    assert ort_content(orts[0]) == ort_content(orts[1])  # bytes may differ, the content may not
    assert ort_content(orts[0])["Model"]["Graph"]["Nodes"]  # the walker did read the graph


def test_ort_format_bundles_repeat_except_the_ort_member(tmp_path: Path) -> None:
    model = factory.external_model(tmp_path / "m")
    zips = []
    for n in range(2):
        r = build_bundle(BundleOptions(model=model, out_dir=tmp_path / f"out{n}", version="1.0.0",
                                       source_date_epoch=EPOCH, ort_format=True, load_cost=False))
        ort = r.manifest["ort_format"]
        assert ort["byte_reproducible"] is False and ort["nondeterminism"] == ORT_NONDETERMINISM
        assert verify_bundle(r.zip_path, smoke=True).ok
        zips.append(_members(r.zip_path))
    a, b = zips
    assert sorted(a) == sorted(b) == sorted([
        "README.txt", "SHA256SUMS", "manifest.json", "model.onnx", "model.ort", "model.required_operators.config",
        "smoke/outputs/Y.npy",
    ])
    for member in a:
        if member not in ("model.ort", "manifest.json", "SHA256SUMS"):  # the .ort's digest, in these two
            assert a[member] == b[member], member
    assert b"byte-for-byte reproducible" in a["README.txt"]
    assert a["model.required_operators.config"].decode().splitlines()[:2] == [
        "# Generated from model/s:", "# - model.ort"
    ]
    # The .ort members hold the same model; the manifests differ only in the .ort member's digest (and so in that of
    # SHA256SUMS, whose model.ort line alone differs).
    assert ort_content(a["model.ort"]) == ort_content(b["model.ort"])
    sums = [[ln for ln in z["SHA256SUMS"].decode().splitlines() if not ln.endswith("  model.ort")] for z in zips]
    assert sums[0] == sums[1] and len(sums[0]) == len(a) - 3  # all but model.ort, the manifest and SHA256SUMS
    manifests = [json.loads(z["manifest.json"]) for z in zips]
    for m, z in zip(manifests, zips, strict=True):
        for f in m["files"]:
            if f["path"] in ("model.ort", "SHA256SUMS"):
                assert f["size"] == len(z[f["path"]])
                f["sha256"] = "<varies>"
    assert manifests[0] == manifests[1]
