"""The bundle's retarget stage: the model to merge, with ir_version lowered, the opsets retargeted (--fix-ir) or
model_version set (--set-model-version) in a copy of its skeleton, and what was changed (the manifest's fixes)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import onnx

from .. import steps
from ..checks import codes as check_codes
from ..checks.compat import OrtRelease
from ..checks.validate import Validation
from ..findings import Finding
from ..model.extdata.extresolve import resolve_external_data
from ..model.loaded import LoadedModel
from ..progress import STEPS, CancelToken, ProgressCallback, report
from . import codes
from .plan import BundlePlan

if TYPE_CHECKING:
    from ..checks.retarget import RetargetResult

__all__ = ["Fixed", "apply_fixes"]


@dataclass(frozen=True)
class Fixed:
    """The model to merge (the validated one, or a fixed copy of its skeleton: the weights stay where they are)."""

    source: LoadedModel
    fixes: tuple[Mapping[str, Any], ...] = ()  # the manifest's ``fixes``
    findings: tuple[Finding, ...] = ()
    retarget: RetargetResult | None = None  # when --fix-ir retargeted the opsets

    @property
    def converted(self) -> bool:
        """Whether onnx.version_converter rewrote operators (its outputs must then be compared, whatever the size)."""
        return self.retarget is not None and self.retarget.opset_method == "version_converter"


@dataclass(frozen=True)
class _Retargeting:
    """What --fix-ir decided: lower ir_version to ``new_ir``, or the retargeted skeleton (or nothing to do)."""

    new_ir: int | None = None
    retarget: RetargetResult | None = None
    findings: tuple[Finding, ...] = ()


def apply_fixes(plan: BundlePlan, val: Validation, progress: ProgressCallback | None,
                cancel: CancelToken | None) -> Fixed:
    """The model to merge: the validated one, or with ir_version lowered / model_version set in a copy of its
    skeleton (the weights stay where they are; nothing is written)."""
    loaded = val.inspection.loaded
    model = loaded.model
    fix = _fix_ir(plan, val, progress, cancel) if plan.opts.fix_ir else _Retargeting()
    retargeted = fix.retarget.model if fix.retarget is not None else None
    if fix.new_ir is None and plan.version_model is None and retargeted is None:
        return Fixed(loaded, findings=fix.findings)
    fixes: list[Mapping[str, Any]] = list(fix.retarget.fixes()) if fix.retarget is not None else []
    fixed = onnx.ModelProto()
    fixed.CopyFrom(retargeted if retargeted is not None else model)
    if fix.new_ir is not None:
        fixes.append(
            {
                "code": check_codes.IR_LOWERED.name,
                "message": check_codes.IR_LOWERED.message(before=model.ir_version, after=fix.new_ir,
                                                          target=plan.opts.target_ort),
                "before": int(model.ir_version),
                "after": fix.new_ir,
            }
        )
        fixed.ir_version = fix.new_ir
    if plan.version_model is not None:
        fixes.append(
            {
                "code": check_codes.MODEL_VERSION_SET.name,
                "message": check_codes.MODEL_VERSION_SET.message(after=plan.version_model, version=plan.opts.version),
                "before": int(model.model_version),
                "after": plan.version_model,
            }
        )
        fixed.model_version = plan.version_model
    # The copy's own references (same validated ranges; their SHA-1 checksums were verified above).
    source = LoadedModel(loaded.location, fixed, resolve_external_data(fixed, loaded.location.data_dir))
    return Fixed(source, tuple(fixes), fix.findings, fix.retarget)


def _fix_ir(plan: BundlePlan, val: Validation, progress: ProgressCallback | None,
            cancel: CancelToken | None) -> _Retargeting:
    target = val.target
    assert target is not None  # validated(): --fix-ir comes with --target-ort
    if target.loads is True:
        return _Retargeting(findings=(codes.FIX_IR_NOT_NEEDED.finding(version=target.target),))
    if target.retarget is not None and target.release is not None:
        return _Retargeting(retarget=_retarget(val.inspection.loaded.model, target.release, progress, cancel))
    if target.fix_by_lowering_ir is not None:
        return _Retargeting(new_ir=target.fix_by_lowering_ir)
    raise codes.FIX_IR_NOT_POSSIBLE.error(version=target.target, reason=target.reason)


def _retarget(model: onnx.ModelProto, rel: OrtRelease, progress: ProgressCallback | None,
              cancel: CancelToken | None) -> RetargetResult:
    """--fix-ir beyond ir_version (core/checks/retarget.py): the retargeted skeleton, its changes in the manifest's
    fixes."""
    from ..checks.retarget import retarget_model

    report(progress, "validate", 0, 0, steps.RETARGETING, unit=STEPS, version=rel.version)
    res = retarget_model(model, rel.version, rel.ir, {"ai.onnx": rel.opset, "ai.onnx.ml": rel.ml_opset},
                         cancel=cancel)
    if not res.possible or res.model is None:
        raise codes.FIX_IR_NOT_POSSIBLE.error(version=rel.version, reason="; ".join(res.blockers[:4]),
                                              hint=res.hint or None)
    return res
