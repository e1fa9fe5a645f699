"""Assemble a bundle's manifest.json (schema in manifest.py) once, from the records the bundle's stages return."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import onnx

from ..checks.compat import check_target, oldest_ort, ort_package_version
from ..checks.validate import Validation
from ..findings import Finding
from ..model.layout import Layout
from .manifest import MANIFEST_SCHEMA, iso_utc, tool_info
from .members import Member

if TYPE_CHECKING:
    from .signing import KeyInfo, SigstoreSigner

__all__ = [
    "ManifestParts",
    "ModelFacts",
    "Provenance",
    "assemble_manifest",
    "compatibility_of",
    "inspection_facts",
    "interface_of",
    "model_facts",
    "signature_section",
]


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


def inspection_facts(val: Validation, model: onnx.ModelProto, layout: Layout, align: int | None) -> dict[str, Any]:
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


@dataclass(frozen=True)
class Provenance:
    """The source files read (the model first, then its external data) and their sizes and SHA-256."""

    layout: str  # the source's layout as inspected
    model: Path
    data_dir: Path
    files: tuple[Path, ...]
    hashes: Mapping[Path, tuple[int, str]]

    def to_dict(self) -> dict[str, Any]:
        """The manifest's ``provenance`` record."""
        prov_files = []
        for p in self.files:
            size, sha = self.hashes[p]
            rel = p.name if p == self.model else os.path.relpath(p, self.data_dir).replace(os.sep, "/")
            role = "model" if p == self.model else "external-data"
            prov_files.append({"path": rel, "role": role, "size": size, "sha256": sha})
        return {"layout": self.layout, "model": self.model.name, "files": prov_files}

    def newest_mtime(self) -> int:
        return max(int(p.stat().st_mtime) for p in self.files)


@dataclass(frozen=True)
class ModelFacts:
    """The manifest's records of the bundled model: what a release diff compares (versions.diff_manifests)."""

    inspection: dict[str, Any]
    compatibility: dict[str, Any]
    provenance: Provenance

    def sections(self) -> dict[str, Any]:
        return {"inspection": self.inspection, "compatibility": self.compatibility,
                "provenance": self.provenance.to_dict()}  # fmt: skip


def model_facts(val: Validation, model: onnx.ModelProto, layout: Layout, align: int | None, provenance: Provenance,
                target_ort: str | None) -> ModelFacts:
    """The inspection, compatibility and provenance records of the bundled ``model``."""
    return ModelFacts(inspection_facts(val, model, layout, align), compatibility_of(val, model, target_ort), provenance)


@dataclass(frozen=True)
class ManifestParts:
    """Everything the manifest says but its list of files, from the stages' records."""

    name: str
    version: str
    layout: Layout  # of the bundled .onnx: SINGLE or EXTERNAL
    align: int | None
    model_version: int
    epoch: int | None  # SOURCE_DATE_EPOCH; None: ``created`` is the sources' newest modification time
    created: int
    facts: ModelFacts
    smoke: dict[str, Any] | None
    ort_format: dict[str, Any] | None
    findings: tuple[Finding, ...]
    fixes: tuple[Mapping[str, Any], ...]
    release: dict[str, Any] | None
    #: The optional sections, in this order when present: ``about``, ``prove_ort``, ``signature``.
    about: dict[str, Any] | None = None
    prove_ort: dict[str, Any] | None = None
    signature: dict[str, Any] | None = None
    #: The data file's path in the bundle (the external layout); None: NAME.onnx.data.
    data: str | None = None


def assemble_manifest(parts: ManifestParts, members: Sequence[Member]) -> dict[str, Any]:
    """The manifest listing ``members`` (sorted by path)."""
    name, layout = parts.name, parts.layout
    entry = layout.model_name(name)
    manifest: dict[str, Any] = {
        "schema": MANIFEST_SCHEMA,
        "tool": tool_info(),
        "created": iso_utc(parts.created),
        "created_from": "SOURCE_DATE_EPOCH" if parts.epoch is not None else "source-mtime",
        "model": {
            "name": name,
            "version": parts.version,
            "layout": layout,
            "entry": entry,
            "data": (parts.data or Layout.data_name(entry)) if layout is Layout.EXTERNAL else None,
            "ort_entry": Layout.ORT.model_name(name) if parts.ort_format is not None else None,
            "alignment": parts.align,
            "model_version": parts.model_version,
            "loadable_from_memory": layout is Layout.SINGLE,
        },
        "files": [m.to_dict() for m in sorted(members, key=lambda m: m.path)],
        "inspection": parts.facts.inspection,
        "compatibility": parts.facts.compatibility,
        "smoke": parts.smoke,
        "ort_format": parts.ort_format,
        "provenance": parts.facts.provenance.to_dict(),
        "findings": [f.to_dict() for f in parts.findings],
        "fixes": [dict(f) for f in parts.fixes],
        "release": parts.release,
    }
    optional = {"about": parts.about, "prove_ort": parts.prove_ort, "signature": parts.signature}
    manifest.update((k, v) for k, v in optional.items() if v is not None)
    return manifest


def signature_section(key: KeyInfo | SigstoreSigner) -> dict[str, Any]:
    """The manifest's ``signature``: how the bundle is signed and by which key (the signature is model.sig); a
    Sigstore signer's identity is only known once it has logged in, so it is in model.sig, not here."""
    import importlib.metadata

    from .signing import SIGNATURE_NAME, SigstoreSigner

    doc: dict[str, Any] = {"method": key.method, "file": SIGNATURE_NAME,
                           "library": f"model-signing {importlib.metadata.version('model-signing')}",
                           "covers": "every member of the archive except the signature itself"}  # fmt: skip
    if isinstance(key, SigstoreSigner):
        return doc
    doc["public_key_sha256"] = key.public_key_sha256
    if key.certificate is not None:
        doc.update(certificate_sha256=key.certificate_sha256, certificate_subject=key.subject)
    return doc
