"""Validate a model: external-data rules, checker and shape inference (isolated), duplicates, sizes, runtime compat."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

import onnx
import onnx.defs
from onnx import ModelProto

from .. import __version__
from .. import steps as step_codes
from ..child.childproc import ChildProcess
from ..findings import FIXED_BY_RETARGET, Finding, Severity
from ..model.extdata.extresolve import raw_data_size_finding
from ..model.layout import Layout
from ..model.modelfile import PROTOBUF_LIMIT
from ..model.tensors import cached_walks, iter_graphs, iter_tensors, uses_external_data
from ..progress import STEPS, CancelToken, ProgressCallback, check_cancel, report
from ..units import format_bytes
from . import codes
from .checker_child import CHECK_TIMEOUT, ChildOutcome, check_structure
from .compat import (
    CompatResult,
    OrtRelease,
    ReleasedLimits,
    TargetVerdict,
    check_target,
    parse_version,
    released_limits,
)
from .inspection import Inspection, domain_name, inspect_model

__all__ = [
    "CHECK_SCHEMA",
    "FIXED_BY_RETARGET",
    "VALIDATE_STEPS",
    "CheckerRun",
    "Validation",
    "apply_checker",
    "run_checker_child",
    "validate_model",
]

CHECK_SCHEMA = "onnxpack.check/1"
_ORT_BUILTIN_DOMAINS = ("com.microsoft", "com.microsoft.nchwc", "com.microsoft.experimental")
VALIDATE_STEPS = 4  # progress steps of validate_model: inspect, structure, findings, the onnx checker


@dataclass
class Validation:
    """Result of `onnxpack check`: the inspection plus every finding."""

    inspection: Inspection
    findings: list[Finding]
    compat: CompatResult | None
    target: TargetVerdict | None = None
    checker: dict[str, Any] = field(default_factory=lambda: {"status": "not run", "seconds": 0.0,
                                                             "onnx_checker": "not run", "shape_inference": "not run"})

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)

    def bundle_gate(self, fix_ir: bool) -> tuple[list[Finding], list[Finding]]:
        """The bundle gate: the findings a bundle records and, among them, the errors that refuse it.

        With ``fix_ir`` (``bundle --fix-ir``) and a target that retargeting reaches (lowering ir_version, or
        retargeting opsets and IR features: ``TargetVerdict.fixable``), the target's findings are dropped. The
        engine (core/release/bundle.py) and the GUI (gui/model/state.py) both ask this one function.
        """
        findings = list(self.findings)
        if fix_ir and self.target is not None and self.target.fixable:
            findings = [f for f in findings if f.code not in FIXED_BY_RETARGET]
        return findings, [f for f in findings if f.severity is Severity.ERROR]

    def to_dict(self) -> dict[str, Any]:
        """The ``onnxpack.check/1`` JSON document (docs/json-schemas.md)."""
        return {
            "schema": CHECK_SCHEMA,
            "ok": self.ok,
            "onnxpack_version": __version__,
            "summary": {
                "errors": self.count(Severity.ERROR),
                "warnings": self.count(Severity.WARNING),
                "info": self.count(Severity.INFO),
            },
            "findings": [f.to_dict() for f in self.findings],
            "compat": self.compat.to_dict() if self.compat else None,
            "target": self.target.to_dict() if self.target else None,
            "checker": dict(self.checker),
            "inspection": self.inspection.to_dict(),
        }


def _tensor_findings(model: ModelProto) -> list[Finding]:
    """Inline tensors whose data doesn't match dims × element size (ORT refuses them at load)."""
    out: list[Finding] = []
    for ref in iter_tensors(model):
        t = ref.tensor
        if uses_external_data(t) or not t.HasField("raw_data"):
            continue
        mismatch = raw_data_size_finding(ref, len(t.raw_data))
        if mismatch is not None:
            out.append(mismatch)
        if len(t.raw_data) >= PROTOBUF_LIMIT:
            out.append(codes.TENSOR_TOO_LARGE.finding(ref.name, tensor=ref.label))
    return out


def _duplicate_initializers(model: ModelProto) -> list[Finding]:
    out: list[Finding] = []
    for label, graph, _nodes in iter_graphs(model):
        if graph is None:
            continue
        seen: dict[str, int] = {}
        for name in [t.name for t in graph.initializer] + [s.values.name for s in graph.sparse_initializer]:
            seen[name] = seen.get(name, 0) + 1
        out += [codes.DUPLICATE_INITIALIZER.finding(name, name=name, count=n, model=label)
                for name, n in seen.items() if n > 1]
    return out


def _unused_initializers(model: ModelProto, name: str) -> list[Finding]:
    """The main graph's initializers that no node reads (in any graph: a subgraph may read its parent's) and no
    output names: ONNX Runtime drops them at load, but they still take room in the release."""
    if not model.graph.initializer:
        return []
    pending = {t.name for t in model.graph.initializer} - {o.name for o in model.graph.output}
    for _label, _graph, nodes in iter_graphs(model):
        for node in nodes:  # until every initializer is read (a full walk of a huge graph is not free)
            if not pending:
                break
            pending.difference_update(node.input)
    unused = [t.name for t in model.graph.initializer if t.name in pending]
    if not unused:
        return []
    names = ", ".join(repr(n) for n in unused[:3])
    variant = "one" if len(unused) == 1 else "more" if len(unused) > 3 else None
    return [codes.INITIALIZER_UNUSED.finding(unused[0], variant=variant, count=len(unused), model=name, names=names,
                                             more=len(unused) - 3)]


def _alignment_findings(insp: Inspection) -> list[Finding]:
    table = insp.external
    refs = table.external_refs if table is not None else []
    if not refs:
        return []
    unaligned = [r for r in refs if r.offset is not None and not r.aligned_4k]
    if not unaligned:
        return [codes.EXTDATA_ALIGNED.finding(total=len(refs), aligned64=sum(r.aligned_64k for r in refs))]
    first = unaligned[0]
    return [codes.EXTDATA_UNALIGNED.finding(first.ref.name, unaligned=len(unaligned), total=len(refs),
                                            tensor=first.ref.name, offset=first.offset)]


def _size_findings(insp: Inspection) -> list[Finding]:
    if insp.is_ort or (insp.layout is not Layout.EXTERNAL and insp.fits_single_file):
        return []  # (the size itself is not needed: it may cost a serialization, core/checks/inspection.py)
    if insp.merged_size is None:
        return []
    size = insp.merged_size
    approx = not insp.merged_size_exact
    name = insp.location.model.name
    variant = "approx" if approx else None
    if insp.fits_single_file:
        if insp.layout is Layout.EXTERNAL:
            return [codes.MERGE_FITS.finding(variant=variant, model=name, bytes=size, approx=approx,
                                             readable=format_bytes(size))]
        return []
    return [codes.MERGE_TOO_LARGE.finding(variant=variant, model=name, bytes=size, approx=approx,
                                          readable=format_bytes(size))]


def _external_tensor_size_findings(insp: Inspection) -> list[Finding]:
    """Security.md rule 6: each tensor embedded in a single file must itself stay under 2 GiB."""
    if insp.external is None:
        return []
    return [codes.TENSOR_NOT_EMBEDDABLE.finding(r.ref.name, tensor=r.ref.label, bytes=r.data_length)
            for r in insp.external.refs if r.data_length is not None and r.data_length >= PROTOBUF_LIMIT]


def _unreleased(insp: Inspection, newest: ReleasedLimits) -> list[str]:
    """What ``insp``'s model declares beyond every ONNX release (IR version, opsets), each with the newest."""
    unreleased = []
    if insp.ir_version is not None and insp.ir_version > newest.ir:
        unreleased.append(f"IR version {insp.ir_version} (newest: {newest.ir})")
    for domain, version in sorted(insp.opsets.items()):
        limit = newest.opset_limit(domain)
        if limit is not None and version > limit:
            unreleased.append(f"{domain_name(domain) or 'ai.onnx'} opset {version} (newest: {limit})")
    return unreleased


def _release_findings(insp: Inspection, compat: CompatResult, name: str) -> list[Finding]:
    """The model's IR version and opsets against ONNX's releases and the ONNX Runtime releases that load them."""
    out: list[Finding] = []
    if insp.ir_version is not None and insp.ir_version < 3:
        out.append(codes.IR_TOO_OLD.finding(model=name, ir=insp.ir_version))
    newest = released_limits()
    unreleased = _unreleased(insp, newest)
    if unreleased:
        out.append(codes.VERSION_UNRELEASED.finding(model=name, declared=", ".join(unreleased), onnx=newest.onnx))
    # A warning, not an error: current ONNX Runtime releases still run such models (onnx's own opset 1-6
    # test models), and the smoke run shows whether the installed one does.
    out += [codes.OPSET_TOO_OLD.finding(model=name, detail=t) for t in compat.too_old]
    if compat.oldest is not None:
        out.append(_oldest_finding(compat.oldest, name, "ai.onnx.ml" in insp.opsets))
    elif compat.newer_than_known and not unreleased:
        out.append(codes.ORT_NEWER_THAN_KNOWN.finding(model=name, version=compat.newest_known.version,
                                                      detail="; ".join(compat.blockers)))
    if compat.oldest_if_ir_lowered is not None and compat.lowered_ir is not None:
        out.append(codes.IR_LOWERABLE.finding(model=name, min_ir=compat.min_ir, ir=insp.ir_version,
                                              lowered=compat.lowered_ir, version=compat.oldest_if_ir_lowered.version))
    return out


def _oldest_finding(rel: OrtRelease, name: str, uses_ml: bool) -> Finding:
    """ORT_OLDEST: the ai.onnx.ml opset only when the model uses it; where the release's limits come from."""
    variant = "_".join(w for w, on in (("ml", uses_ml), ("derived", rel.derived)) if on) or None
    return codes.ORT_OLDEST.finding(variant=variant, model=name, version=rel.version, ir=rel.ir, opset=rel.opset,
                                    derived=rel.derived, ml_opset=rel.ml_opset if uses_ml else None)


def _domain_findings(insp: Inspection, compat: CompatResult, model: ModelProto, name: str) -> list[Finding]:
    """Operator domains outside the opset table: ORT's contrib ops, model-local functions, custom ops, missing."""
    out: list[Finding] = []
    local_domains = {f.domain for f in model.functions}
    used = {str(o["domain"]) for o in insp.operators}  # every node's domain (main graph, subgraphs, functions)
    for d in compat.other_domains:
        if d not in used and d not in local_domains:
            continue  # only imported (a quantizer's or paddle2onnx's leftover): nothing to load, nothing to say
        if d in _ORT_BUILTIN_DOMAINS:
            code = codes.DOMAIN_CONTRIB
        elif d in local_domains:
            code = codes.DOMAIN_LOCAL_FUNCTIONS
        else:
            code = codes.DOMAIN_CUSTOM
        out.append(code.finding(d, model=name, domain=d))
    out += [codes.OPSET_MISSING.finding(d, model=name, domain=d)
            for d in sorted(used - set(insp.opsets) - local_domains - {""})]
    return out


def _version_findings(insp: Inspection, compat: CompatResult) -> list[Finding]:
    model = insp.model
    name = insp.location.model.name
    assert model is not None
    return _release_findings(insp, compat, name) + _domain_findings(insp, compat, model, name)


def _target_findings(verdict: TargetVerdict) -> list[Finding]:
    subject, version, detail = f"ORT {verdict.target}", verdict.target, verdict.reason
    if verdict.loads is True:
        return [codes.ORT_TARGET_OK.finding(subject, version=version, detail=detail)]
    if verdict.loads is None:
        return [codes.ORT_TARGET_UNKNOWN.finding(subject, version=version, detail=detail)]
    return [_unsupported(verdict, subject)]


def _unsupported(verdict: TargetVerdict, subject: str) -> Finding:
    """ORT_TARGET_UNSUPPORTED with its remedy: retargeting, lowering ir_version, the exporter's, or the registered."""
    version, detail = verdict.target, verdict.reason
    if verdict.retarget is not None and verdict.retarget.possible:
        return codes.ORT_TARGET_UNSUPPORTED.finding(subject, variant="retarget", version=version, detail=detail,
                                                    summary=verdict.retarget.summary())
    if verdict.fix_by_lowering_ir is not None:
        return codes.ORT_TARGET_UNSUPPORTED.finding(subject, variant="lower_ir", version=version, detail=detail,
                                                    ir=verdict.fix_by_lowering_ir)
    # the exporter's own setting (retarget.exporter_hint), worded at run time from the model's producer
    hint = str(verdict.retarget.hint) if verdict.retarget is not None and verdict.retarget.hint else None
    return codes.ORT_TARGET_UNSUPPORTED.finding(subject, hint=hint, version=version, detail=detail)


#: How the checker child ended, when it did not report: the finding's code.
_CHILD_ENDED = {"crashed": codes.CHECKER_CRASHED, "timeout": codes.CHECKER_TIMEOUT, "error": codes.CHECKER_FAILED}


def _checker_findings(insp: Inspection, outcome: ChildOutcome) -> list[Finding]:
    name = insp.location.model.name
    ended = _CHILD_ENDED.get(outcome.status)
    if ended is not None:
        return [ended.finding(name, model=name, detail=outcome.detail)]
    out: list[Finding] = []
    value = outcome.value or {}
    if value.get("checker"):
        out.append(codes.ONNX_CHECKER.finding(name, model=name, detail=value["checker"].strip()))
    msg = value.get("inference")
    if msg:
        partial = "external" in msg.lower() and "tensor" in msg.lower()
        code = codes.SHAPE_INFERENCE_PARTIAL if partial else codes.SHAPE_INFERENCE
        out.append(code.finding(name, model=name, detail=msg.strip()))
    return out


def _step_results(outcome: ChildOutcome) -> dict[str, str]:
    """What became of each step in the child: passed, failed, partial (shape inference), or how the child ended."""
    if not outcome.ok:
        return {"onnx_checker": outcome.status, "shape_inference": outcome.status}
    value = outcome.value or {}
    inference = value.get("inference") or ""
    partial = "external" in inference.lower() and "tensor" in inference.lower()
    return {
        "onnx_checker": "failed" if value.get("checker") else "passed",
        "shape_inference": ("partial" if partial else "failed") if inference else "passed",
    }


def _checker_skip_reason(insp: Inspection) -> str | None:
    known_opset = onnx.defs.onnx_opset_version()
    if insp.ir_version is not None and insp.ir_version > onnx.IR_VERSION:
        return f"IR version {insp.ir_version} is newer than this onnx checker knows ({onnx.IR_VERSION})"
    v = insp.opsets.get("ai.onnx")
    if v is not None and v > known_opset:
        return f"ai.onnx opset {v} is newer than this onnx checker knows ({known_opset})"
    return None


def validate_model(
    path: str | os.PathLike[str] | Inspection,
    data_dir: str | os.PathLike[str] | None = None,
    *,
    target_ort: str | None = None,
    run_checker: bool = True,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    checker_timeout: float = CHECK_TIMEOUT,
    checker_child: ChildProcess | None = None,
) -> Validation:
    """Inspect and validate the model at ``path``; every problem becomes a Finding (never an exception).

    Exceptions are raised only when the input is unusable as a whole (missing, not a model: InputError /
    ModelFormatError), for a malformed ``target_ort`` (InputError) and on cancellation.
    ``path`` may be an :class:`Inspection` made with ``verify_checksums=True``: the model is then not read again.
    ``checker_child``: a :class:`ChildProcess` started earlier that runs the onnx checker as a task (its onnx imported
    while this one inspects); without one, the checker gets a child of its own.
    """
    if target_ort is not None:
        parse_version(target_ort)  # usage errors before any work
    steps = VALIDATE_STEPS
    report(progress, "validate", 0, steps, step_codes.INSPECTING, unit=STEPS)
    if isinstance(path, Inspection):
        insp = path
    else:
        insp = inspect_model(path, data_dir, cancel=cancel, verify_checksums=True, ort_timeout=checker_timeout)
    check_cancel(cancel)
    findings: list[Finding] = list(insp.findings)
    report(progress, "validate", 1, steps, step_codes.STRUCTURE, unit=STEPS)
    if insp.model is None:  # ORT format: the session in inspect_model was the check
        val = Validation(insp, findings, None)
        if target_ort is not None:
            findings.append(codes.ORT_TARGET_UNKNOWN.finding(
                variant="ort_format", model=insp.location.model.name,
                version=target_ort,
            ))
        val.checker = {"status": "not applicable", "seconds": 0.0, "onnx_checker": "not applicable",
                       "shape_inference": "not applicable"}
        report(progress, "validate", steps, steps, step_codes.DONE, unit=STEPS)
        return val

    model = insp.model
    assert insp.compat is not None
    with cached_walks(model, insp.walks):  # the inspection's walks of the model, not new ones
        findings += _duplicate_initializers(model)
        findings += _unused_initializers(model, insp.location.model.name)
        findings += _tensor_findings(model)
        findings += _alignment_findings(insp)
        findings += _size_findings(insp)
        findings += _external_tensor_size_findings(insp)
        findings += _version_findings(insp, insp.compat)
        val = Validation(insp, findings, insp.compat)
        if target_ort is not None:
            val.target = check_target(insp.compat, target_ort, model)
            findings += _target_findings(val.target)
    insp.walks = None  # the walks' lists are not kept with the result (the GUI keeps results for long)
    report(progress, "validate", 2, steps, step_codes.CHECKER, unit=STEPS)

    if run_checker:
        apply_checker(val, run_checker_child(insp, timeout=checker_timeout, cancel=cancel, child=checker_child))
    report(progress, "validate", steps, steps, step_codes.DONE, unit=STEPS)
    return val


@dataclass
class CheckerRun:
    """What the onnx checker child said (``outcome``), or why it did not run (``skipped``)."""

    outcome: ChildOutcome | None
    seconds: float
    skipped: str | None = None


def run_checker_child(insp: Inspection, *, timeout: float = CHECK_TIMEOUT,
                      cancel: CancelToken | None = None, child: ChildProcess | None = None) -> CheckerRun:
    """Run the onnx checker and shape inference on the model file in a child process (``child``: one waiting for
    its job, which runs the check first; see :func:`check_structure`).

    Reads only the inspection's location, IR and opsets (never its skeleton), so it may run in a background
    thread while another stage uses the skeleton; :func:`apply_checker` turns the result into findings.
    """
    skip = _checker_skip_reason(insp)
    if skip is not None:
        return CheckerRun(None, 0.0, skip)
    start = time.monotonic()
    outcome = check_structure(insp.location.model, timeout=timeout, cancel=cancel, child=child)
    return CheckerRun(outcome, round(time.monotonic() - start, 3))


def apply_checker(val: Validation, run: CheckerRun) -> None:
    """Record a :func:`run_checker_child` result in ``val`` (its ``checker`` entry and findings)."""
    if run.outcome is None:
        val.findings.append(codes.CHECKER_SKIPPED.finding(detail=run.skipped))
        val.checker = {"status": "skipped", "seconds": 0.0, "onnx_checker": "skipped",
                       "shape_inference": "skipped", "reason": run.skipped}
        return
    val.checker = {"status": run.outcome.status, "seconds": run.seconds, **_step_results(run.outcome)}
    val.findings += _checker_findings(val.inspection, run.outcome)
