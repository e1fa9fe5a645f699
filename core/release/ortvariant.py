"""The bundle's ORT-format stage: convert the merged copy with onnxruntime's converter, check it against the .onnx
and add NAME.ort (and its operator config) to the ZIP."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..findings import Finding, Severity
from ..progress import CancelToken, ProgressCallback
from . import codes
from .members import Member, Role
from .plan import BundlePlan
from .zipwriter import DeterministicZip

__all__ = ["OrtVariant", "add_ort_variant"]


@dataclass(frozen=True)
class OrtVariant:
    """The manifest's ``ort_format`` record, the members written and the converter's warnings."""

    doc: dict[str, Any]
    members: tuple[Member, ...]
    findings: tuple[Finding, ...]


def add_ort_variant(plan: BundlePlan, merged: Path, work: Path, z: DeterministicZip,
                    progress: ProgressCallback | None, cancel: CancelToken | None) -> OrtVariant:
    """Convert ``merged`` (the copy), check it against the .onnx, add it to ``z``."""
    from ..runtime.ortformat import ORT_NONDETERMINISM, convert_to_ort
    from ..runtime.smoke import SmokeOptions

    options = plan.opts.smoke if plan.opts.smoke is not None else SmokeOptions()
    conv = convert_to_ort(merged, work / "ort", options=options, progress=progress, cancel=cancel)
    if not conv.ok:
        errs = [f for f in conv.findings if f.severity is Severity.ERROR]
        if not errs:
            raise codes.ORT_FORMAT_MISMATCH.error(variant="outputs")
        raise codes.ORT_FORMAT_MISMATCH.error(detail=errs[0].message)
    entry = plan.ort_entry
    with open(conv.ort_model, "rb") as f:
        members = [Member(Role.ORT_MODEL, z.write_stream(entry, conv.ort_model.stat().st_size, f.read, cancel=cancel,
                                                         stage="ort"))]  # fmt: skip
    config = None
    if conv.config is not None:
        config = f"{plan.name}.required_operators.config"
        members.append(Member(Role.ORT_CONFIG, z.write_bytes(config, conv.config.read_bytes())))
    doc = {
        "ok": True,
        "entry": entry,
        "config": config,
        "optimization_style": conv.optimization_style,
        # The rest of the bundle repeats byte for byte; the .ort member (and so its digest here) cannot.
        "byte_reproducible": False,
        "nondeterminism": ORT_NONDETERMINISM,
        "atol": conv.compare.atol,
        "rtol": conv.compare.rtol,
        "outputs": [
            {k: r.get(k) for k in ("name", "bitwise_equal", "max_abs", "max_rel", "within_tolerance")}
            for r in conv.compare.outputs
        ],
    }
    return OrtVariant(doc, tuple(members), tuple(f for f in conv.findings if f.severity is Severity.WARNING))
