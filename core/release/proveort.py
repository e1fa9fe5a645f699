"""The bundle's prove-ort stage: the bundled model on each --prove-ort ONNX Runtime release (core/runtime/prove.py),
refused when one does not load it or its outputs differ beyond the tolerance."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import onnx

from ..progress import CancelToken, ProgressCallback
from . import codes
from .gate import Checked
from .plan import BundlePlan

if TYPE_CHECKING:
    from ..runtime.prove import ProveReport, ReleaseProof

__all__ = ["prove_ort"]


def _why(r: ReleaseProof) -> str:
    if not r.loaded:
        return f"did not load it: {r.message}"
    return r.message or "outputs differ: " + ", ".join(
        f"{o['name']} (max abs diff {o['max_abs']})" for o in r.outputs if not o["within_tolerance"])


def prove_ort(plan: BundlePlan, checked: Checked, merged: Path, model: onnx.ModelProto,
              smoke_doc: dict[str, Any] | None, progress: ProgressCallback | None,
              cancel: CancelToken | None) -> ProveReport:
    """Run the bundled model (the copy ``merged``) on every --prove-ort release, with the smoke run's sizes and
    seed; refuse the bundle when one fails."""
    from ..runtime.prove import prove_model

    recipe = (smoke_doc or {}).get("recipe") or {}
    report_ = prove_model(merged, model, list(checked.prove_releases), requested=plan.opts.prove_ort or "",
                          dims={k: int(v) for k, v in (recipe.get("dims") or {}).items()},
                          seed=int(recipe.get("seed", 0)), progress=progress, cancel=cancel,
                          notes=list(checked.prove_notes))  # fmt: skip
    bad = [r for r in report_.releases if not r.ok]
    if bad:
        detail = "; ".join(f"{r.version}: " + _why(r) for r in bad)
        raise codes.PROVE_ORT_FAILED.error(versions=", ".join(r.version for r in bad), detail=detail)
    return report_
