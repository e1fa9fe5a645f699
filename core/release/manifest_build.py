"""Assemble a bundle's manifest.json (schema in manifest.py) from what the pipeline read, wrote and proved."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import onnx

from ..checks.compat import check_target, oldest_ort, ort_package_version
from ..checks.validate import Validation
from ..findings import Finding
from .manifest import MANIFEST_SCHEMA, iso_utc, tool_info
from .zipwriter import EntryRecord

__all__ = ["assemble_manifest", "compatibility_of", "inspection_facts", "interface_of"]


def interface_of(model: onnx.ModelProto) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Inputs (with optional ones: initializer-backed or of optional type) and outputs, symbolic dims kept."""
    from ..checks.inspection import describe_type

    inits = {t.name for t in model.graph.initializer}

    def value(vi: onnx.ValueInfoProto, optional: bool) -> dict[str, Any]:
        elem, shape = describe_type(vi.type)
        has_shape = vi.type.WhichOneof("value") in ("tensor_type", "sparse_tensor_type", "optional_type")
        return {"name": vi.name, "elem_type": elem, "shape": shape if has_shape else None, "optional": optional}

    inputs = [value(v, v.name in inits or v.type.WhichOneof("value") == "optional_type") for v in model.graph.input]
    outputs = [value(v, False) for v in model.graph.output]
    return inputs, outputs


def _opsets_of(model: onnx.ModelProto) -> dict[str, int]:
    """The bundled model's opsets, as inspect reports them (a retargeted copy has lower ones than its source)."""
    from ..checks.inspection import domain_name

    out: dict[str, int] = {}
    for op in model.opset_import:
        d = domain_name(op.domain)
        out[d] = max(out.get(d, 0), int(op.version))
    return out


def inspection_facts(val: Validation, model: onnx.ModelProto, layout: str, align: int | None) -> dict[str, Any]:
    """The manifest's ``inspection`` record of the bundled model."""
    insp = val.inspection
    inputs, outputs = interface_of(model)
    return {
        "ir_version": int(model.ir_version),
        "opsets": _opsets_of(model),
        "producer_name": insp.producer_name,
        "producer_version": insp.producer_version,
        "domain": insp.domain,
        "model_version": int(model.model_version),
        "doc_string": insp.doc_string,
        "metadata": dict(insp.metadata),
        "inputs": inputs,
        "outputs": outputs,
        "layout": layout,
        "alignment": align,
        "initializers": {**insp.initializers.to_dict(), "sparse_count": insp.sparse_initializer_count},
        "operators": {f"{o['domain']}:{o['op_type']}": o["count"] for o in insp.operators},
    }


def compatibility_of(val: Validation, model: onnx.ModelProto, target: str | None) -> dict[str, Any]:
    """The manifest's ``compatibility`` record: oldest ONNX Runtime, and the verdict for ``target``."""
    compat = oldest_ort(int(model.ir_version), _opsets_of(model), model)
    verdict = check_target(compat, target, model) if target else None
    checked_with = ort_package_version()
    if checked_with is None:  # no package metadata (some frozen builds): ask the module itself
        import onnxruntime

        checked_with = str(onnxruntime.__version__)
    return {
        "oldest_ort": compat.oldest.version if compat.oldest else None,
        "target_ort": verdict.target if verdict else None,
        "target_ok": verdict.loads if verdict else None,
        "checked_with_ort": checked_with,
        "details": {**compat.to_dict(), "target": verdict.to_dict() if verdict else None},
    }


def assemble_manifest(
    *,
    val: Validation,
    model: onnx.ModelProto,
    layout: str,
    align: int | None,
    name: str,
    version: str,
    epoch: int | None,
    records: Sequence[EntryRecord],
    hashes: dict[Path, tuple[int, str]],
    sources: list[Path],
    model_path: Path,
    data_dir: Path,
    smoke: dict[str, Any] | None,
    ort_format: dict[str, Any] | None,
    findings: list[Finding],
    fixes: list[dict[str, Any]],
    target_ort: str | None,
) -> dict[str, Any]:
    """The manifest of the ZIP members in ``records`` (``release`` left None: the caller diffs it)."""
    roles = {
        f"{name}.onnx": "model",
        f"{name}.onnx.data": "external-data",
        f"{name}.ort": "ort-model",
        f"{name}.required_operators.config": "ort-config",
    }
    files = []
    for rec in records:
        role = roles.get(rec.name) or ("smoke-output" if rec.name.startswith("smoke/outputs/") else "smoke-input")
        files.append({"path": rec.name, "role": role, "size": rec.size, "sha256": rec.sha256})
    prov_files = []
    for p in sources:
        size, sha = hashes[p]
        rel = p.name if p == model_path else os.path.relpath(p, data_dir).replace(os.sep, "/")
        prov_files.append(
            {"path": rel, "role": "model" if p == model_path else "external-data", "size": size, "sha256": sha}
        )
    # Without SOURCE_DATE_EPOCH the newest modification time of the source files stands in for it, so the
    # same input gives the same bundle, byte for byte (the wall clock would make every run differ).
    created = epoch if epoch is not None else max(int(p.stat().st_mtime) for p in sources)
    manifest: dict[str, Any] = {
        "schema": MANIFEST_SCHEMA,
        "tool": tool_info(),
        "created": iso_utc(created),
        "created_from": "SOURCE_DATE_EPOCH" if epoch is not None else "source-mtime",
        "model": {
            "name": name,
            "version": version,
            "layout": layout,
            "entry": f"{name}.onnx",
            "data": f"{name}.onnx.data" if layout == "external" else None,
            "ort_entry": f"{name}.ort" if ort_format is not None else None,
            "alignment": align,
            "model_version": int(model.model_version),
            "loadable_from_memory": layout == "single",
        },
        "files": files,
        "inspection": inspection_facts(val, model, layout, align),
        "compatibility": compatibility_of(val, model, target_ort),
        "smoke": smoke,
        "ort_format": ort_format,
        "provenance": {"layout": val.inspection.layout, "model": model_path.name, "files": prov_files},
        "findings": [f.to_dict() for f in findings],
        "fixes": list(fixes),
        "release": None,
    }
    return manifest
