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
from ..childproc import ChildProcess
from ..findings import FIXED_BY_RETARGET, Finding, Severity
from ..model.extdata import raw_data_size_finding
from ..model.modelfile import PROTOBUF_LIMIT
from ..model.tensors import cached_walks, iter_graphs, iter_tensors, uses_external_data
from ..progress import STEPS, CancelToken, ProgressCallback, check_cancel, report
from ..units import format_bytes
from .checker_child import CHECK_TIMEOUT, ChildOutcome, check_structure
from .compat import CompatResult, TargetVerdict, check_target, parse_version, released_limits
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
_REEXPORT = "Re-export the model from its source framework."
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
        engine (core/release/bundle.py) and the GUI (gui/state.py) both ask this one function.
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
            out.append(Finding.error("TENSOR_TOO_LARGE", f"Tensor {ref.label} is 2 GiB or more", _REEXPORT, ref.name))
    return out


def _duplicate_initializers(model: ModelProto) -> list[Finding]:
    out: list[Finding] = []
    for label, graph, _nodes in iter_graphs(model):
        if graph is None:
            continue
        seen: dict[str, int] = {}
        for name in [t.name for t in graph.initializer] + [s.values.name for s in graph.sparse_initializer]:
            seen[name] = seen.get(name, 0) + 1
        for name, n in seen.items():
            if n > 1:
                out.append(
                    Finding.error(
                        "DUPLICATE_INITIALIZER",
                        f"Initializer {name!r} is defined {n} times in {label}; ONNX Runtime only warns and "
                        "silently uses the last one",
                        "Remove the duplicates (keep the intended tensor) and re-export.",
                        name,
                        count=n, model=label,
                    )
                )
    return out


def _alignment_findings(insp: Inspection) -> list[Finding]:
    table = insp.external
    refs = table.external_refs if table is not None else []
    if not refs:
        return []
    unaligned = [r for r in refs if r.offset is not None and not r.aligned_4k]
    if not unaligned:
        return [
            Finding.info(
                "EXTDATA_ALIGNED",
                f"All {len(refs)} external tensors start at 4 KiB-aligned offsets "
                f"({sum(r.aligned_64k for r in refs)} also at 64 KiB)",
                "",
                total=len(refs), aligned64=sum(r.aligned_64k for r in refs),
            )
        ]
    return [
        Finding.info(
            "EXTDATA_UNALIGNED",
            f"{len(unaligned)} of {len(refs)} external tensors start at offsets not aligned to 4 KiB "
            f"(e.g. {unaligned[0].ref.name!r} at {unaligned[0].offset}); ONNX Runtime may then read them into "
            "memory instead of memory-mapping them",
            "Harmless; `onnxpack merge --layout external` writes a 64 KiB-aligned data file.",
            unaligned[0].ref.name,
            unaligned=len(unaligned), total=len(refs), tensor=unaligned[0].ref.name, offset=unaligned[0].offset,
        )
    ]


def _size_findings(insp: Inspection) -> list[Finding]:
    if insp.is_ort or (insp.layout != "external" and insp.fits_single_file):
        return []  # (the size itself is not needed: it may cost a serialization, core/checks/inspection.py)
    if insp.merged_size is None:
        return []
    approx = "" if insp.merged_size_exact else "about "
    name = insp.location.model.name
    if insp.fits_single_file:
        if insp.layout == "external":
            return [
                Finding.info(
                    "MERGE_FITS",
                    f"Merged into one file, {name} would be {approx}{insp.merged_size} bytes, under the 2 GiB "
                    "protobuf limit",
                    "`onnxpack merge` writes the self-contained single file.",
                    model=name, bytes=insp.merged_size, approx=not insp.merged_size_exact,
                )
            ]
        return []
    return [
        Finding.info(
            "MERGE_TOO_LARGE",
            f"Merged into one file, {name} would be {approx}{insp.merged_size} bytes "
            f"({format_bytes(insp.merged_size)}), above protobuf's 2 GiB limit; it must keep external data",
            "onnxpack keeps it as .onnx + one aligned .data file (`onnxpack merge --layout external`).",
            model=name, bytes=insp.merged_size, approx=not insp.merged_size_exact,
        )
    ]


def _external_tensor_size_findings(insp: Inspection) -> list[Finding]:
    """Security.md rule 6: each tensor embedded in a single file must itself stay under 2 GiB."""
    out: list[Finding] = []
    if insp.external is None:
        return out
    for r in insp.external.refs:
        n = r.data_length
        if n is not None and n >= PROTOBUF_LIMIT:
            out.append(
                Finding.info(
                    "TENSOR_NOT_EMBEDDABLE",
                    f"Tensor {r.ref.label} holds {n} bytes (≥ 2 GiB): it can only ever live in external data",
                    "Keep the external-data layout for this model.",
                    r.ref.name,
                    tensor=r.ref.label, bytes=n,
                )
            )
    return out


def _version_findings(insp: Inspection, compat: CompatResult) -> list[Finding]:
    out: list[Finding] = []
    model = insp.model
    name = insp.location.model.name
    assert model is not None
    if insp.ir_version is not None and insp.ir_version < 3:
        out.append(
            Finding.error(
                "IR_TOO_OLD",
                f"{name} has IR version {insp.ir_version}; ONNX Runtime needs IR 3 or newer",
                "Convert the model with a current exporter or onnx.version_converter.",
                model=name, ir=insp.ir_version,
            )
        )
    newest = released_limits()
    unreleased = []
    if insp.ir_version is not None and insp.ir_version > newest.ir:
        unreleased.append(f"IR version {insp.ir_version} (newest: {newest.ir})")
    for domain, version in sorted(insp.opsets.items()):
        limit = newest.opset_limit(domain)
        if limit is not None and version > limit:
            unreleased.append(f"{domain_name(domain) or 'ai.onnx'} opset {version} (newest: {limit})")
    if unreleased:
        out.append(
            Finding.error(
                "VERSION_UNRELEASED",
                f"{name} declares {', '.join(unreleased)}, beyond every ONNX release onnxpack knows (onnx "
                f"{newest.onnx}); no ONNX Runtime release loads it",
                "Re-export the model with a released exporter and opset. If a newer ONNX has been released since, "
                "update onnxpack.",
                model=name, declared=", ".join(unreleased), onnx=newest.onnx,
            )
        )
    for t in compat.too_old:
        # A warning, not an error: current ONNX Runtime releases still run such models (onnx's own opset 1-6
        # test models), and the smoke run shows whether the installed one does.
        out.append(
            Finding.warning(
                "OPSET_TOO_OLD",
                f"{name} uses {t}",
                "The smoke run shows whether the installed ONNX Runtime runs it; to be safe on other releases, "
                "convert it to a newer opset (onnx.version_converter.convert_version) and re-check.",
                model=name, detail=t,
            )
        )
    if compat.oldest is not None:
        rel = compat.oldest
        src = "ORT's official table"
        if rel.derived:
            src = "limits measured on that release, not from ORT's official table"
        out.append(
            Finding.info(
                "ORT_OLDEST",
                f"Oldest ONNX Runtime that loads {name}: {rel.version} (ORT {rel.version} reads models up to IR "
                f"{rel.ir}, ai.onnx opset {rel.opset}"
                + (f", ai.onnx.ml opset {rel.ml_opset}" if "ai.onnx.ml" in insp.opsets else "")  # only what it uses
                + f"; {src})",
                "",
                model=name, version=rel.version, ir=rel.ir, opset=rel.opset, derived=rel.derived,
                ml_opset=rel.ml_opset if "ai.onnx.ml" in insp.opsets else None,
            )
        )
    elif compat.newer_than_known and not unreleased:
        out.append(
            Finding.warning(
                "ORT_NEWER_THAN_KNOWN",
                f"{name} needs more than ONNX Runtime {compat.newest_known.version}, the newest release onnxpack "
                f"knows: {'; '.join(compat.blockers)}",
                "Only a newer ONNX Runtime can load it; the smoke run shows whether the installed one does. "
                "To reach older runtimes, re-export with a lower opset.",
                model=name, version=compat.newest_known.version, detail="; ".join(compat.blockers),
            )
        )
    if compat.oldest_if_ir_lowered is not None and compat.lowered_ir is not None:
        rel = compat.oldest_if_ir_lowered
        out.append(
            Finding.info(
                "IR_LOWERABLE",
                f"{name} uses nothing newer than IR {compat.min_ir}: lowering ir_version from {insp.ir_version} to "
                f"{compat.lowered_ir} would let ONNX Runtime {rel.version} (and newer) load it",
                "`onnxpack bundle --fix-ir` lowers ir_version in the released copy.",
                model=name, min_ir=compat.min_ir, ir=insp.ir_version, lowered=compat.lowered_ir, version=rel.version,
            )
        )
    local_domains = {f.domain for f in model.functions}
    used = {str(o["domain"]) for o in insp.operators}  # every node's domain (main graph, subgraphs, functions)
    for d in compat.other_domains:
        if d not in used and d not in local_domains:
            continue  # only imported (a quantizer's or paddle2onnx's leftover): nothing to load, nothing to say
        if d in _ORT_BUILTIN_DOMAINS:
            out.append(
                Finding.info(
                    "DOMAIN_CONTRIB",
                    f"{name} uses ONNX Runtime contrib operators (domain {d!r}); they ship with standard ORT "
                    "packages but are not covered by the opset table",
                    "The smoke run proves the installed ORT has them.",
                    d,
                    model=name, domain=d,
                )
            )
        elif d in local_domains:
            out.append(
                Finding.info(
                    "DOMAIN_LOCAL_FUNCTIONS",
                    f"{name} imports domain {d!r}, defined by its own model-local functions",
                    "",
                    d,
                    model=name, domain=d,
                )
            )
        else:
            out.append(
                Finding.warning(
                    "DOMAIN_CUSTOM",
                    f"{name} uses operators of the non-standard domain {d!r}; ONNX Runtime needs a custom-op "
                    "library registered for them",
                    "Ship the custom-op library with the model, or re-export without custom operators.",
                    d,
                    model=name, domain=d,
                )
            )
    for d in sorted(used - set(insp.opsets) - {f.domain for f in model.functions} - {""}):
        out.append(
            Finding.error(
                "OPSET_MISSING",
                f"{name} uses operators of domain {d!r} but does not import that operator set",
                _REEXPORT,
                d,
                model=name, domain=d,
            )
        )
    return out


def _target_findings(verdict: TargetVerdict) -> list[Finding]:
    subject = f"ORT {verdict.target}"
    if verdict.loads is True:
        return [Finding.info("ORT_TARGET_OK", f"Target: ONNX Runtime {verdict.target} loads the model; "
                             f"{verdict.reason}", "", subject,
                             version=verdict.target, detail=verdict.reason)]
    if verdict.loads is None:
        return [Finding.warning("ORT_TARGET_UNKNOWN", verdict.reason,
                                "Smoke-run the model with that ONNX Runtime release to be sure.", subject,
                                version=verdict.target, detail=verdict.reason)]
    if verdict.retarget is not None and verdict.retarget.possible:
        hint = (f"`onnxpack bundle --target-ort {verdict.target} --fix-ir` retargets the released copy "
                f"({verdict.retarget.summary()}); add --prove-ort {verdict.target} to run it on that release.")
    elif verdict.fix_by_lowering_ir is not None:
        hint = (f"`onnxpack bundle --target-ort {verdict.target} --fix-ir` writes ir_version "
                f"{verdict.fix_by_lowering_ir}.")
    elif verdict.retarget is not None and verdict.retarget.hint:
        hint = verdict.retarget.hint
    else:
        hint = "Re-export for a lower opset / IR, or require a newer ONNX Runtime."
    return [Finding.error("ORT_TARGET_UNSUPPORTED", f"Target: {verdict.reason}", hint, subject,
                          version=verdict.target, detail=verdict.reason)]


def _checker_findings(insp: Inspection, outcome: ChildOutcome) -> list[Finding]:
    name = insp.location.model.name
    if outcome.status == "crashed":
        return [Finding.error(
            "CHECKER_CRASHED",
            f"The onnx checker crashed on {name} ({outcome.detail}); the model is malformed in a way that "
            "breaks native code",
            "Do not ship this model; re-export it. onnxpack itself was not affected.",
            name,
            model=name, detail=outcome.detail,
        )]
    if outcome.status == "timeout":
        return [Finding.error(
            "CHECKER_TIMEOUT",
            f"The onnx checker did not finish on {name} ({outcome.detail})",
            "The model may be pathological; re-export it, or check it on a faster machine.",
            name,
            model=name, detail=outcome.detail,
        )]
    if outcome.status == "error":
        return [Finding.error("CHECKER_FAILED", f"The onnx checker could not run on {name}: {outcome.detail}",
                              _REEXPORT, name, model=name, detail=outcome.detail)]
    out: list[Finding] = []
    value = outcome.value or {}
    if value.get("checker"):
        out.append(Finding.error(
            "ONNX_CHECKER",
            f"onnx checker rejects {name}: {value['checker'].strip()}",
            "Fix the model where the message points (or re-export it); ONNX Runtime may refuse it too.",
            name,
            model=name, detail=value["checker"].strip(),
        ))
    msg = value.get("inference")
    if msg:
        if "external" in msg.lower() and "tensor" in msg.lower():
            out.append(Finding.info(
                "SHAPE_INFERENCE_PARTIAL",
                f"Shape inference of {name} stopped where it needed the values of a large or external tensor: "
                f"{msg.strip()}",
                "Harmless: ONNX Runtime infers those shapes with the data at load time.",
                name,
                model=name, detail=msg.strip(),
            ))
        else:
            out.append(Finding.error(
                "SHAPE_INFERENCE",
                f"Shape inference fails on {name}: {msg.strip()}",
                "Types or shapes in the graph are inconsistent; ONNX Runtime runs the same inference at load "
                "time and will most likely refuse the model. Re-export it.",
                name,
                model=name, detail=msg.strip(),
            ))
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
) -> Validation:
    """Inspect and validate the model at ``path``; every problem becomes a Finding (never an exception).

    Exceptions are raised only when the input is unusable as a whole (missing, not a model: InputError /
    ModelFormatError), for a malformed ``target_ort`` (InputError) and on cancellation.
    ``path`` may be an :class:`Inspection` made with ``verify_checksums=True``: the model is then not read again.
    """
    if target_ort is not None:
        parse_version(target_ort)  # usage errors before any work
    steps = VALIDATE_STEPS
    report(progress, "validate", 0, steps, "inspecting", unit=STEPS)
    if isinstance(path, Inspection):
        insp = path
    else:
        insp = inspect_model(path, data_dir, cancel=cancel, verify_checksums=True, ort_timeout=checker_timeout)
    check_cancel(cancel)
    findings: list[Finding] = list(insp.findings)
    report(progress, "validate", 1, steps, "structure", unit=STEPS)
    if insp.model is None:  # ORT format: the session in inspect_model was the check
        val = Validation(insp, findings, None)
        if target_ort is not None:
            findings.append(Finding.warning(
                "ORT_TARGET_UNKNOWN",
                f"{insp.location.model.name} is an ORT-format model; its IR/opsets cannot be read, so "
                f"compatibility with ONNX Runtime {target_ort} is unknown",
                "ORT-format models generally load only in the ORT release that wrote them or newer.",
                variant="ort_format", model=insp.location.model.name, version=target_ort,
            ))
        val.checker = {"status": "not applicable", "seconds": 0.0, "onnx_checker": "not applicable",
                       "shape_inference": "not applicable"}
        report(progress, "validate", steps, steps, "done", unit=STEPS)
        return val

    model = insp.model
    assert insp.compat is not None
    with cached_walks(model, insp.walks):  # the inspection's walks of the model, not new ones
        findings += _duplicate_initializers(model)
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
    report(progress, "validate", 2, steps, "checker", unit=STEPS)

    if run_checker:
        apply_checker(val, run_checker_child(insp, timeout=checker_timeout, cancel=cancel))
    report(progress, "validate", steps, steps, "done", unit=STEPS)
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
        val.findings.append(Finding.warning(
            "CHECKER_SKIPPED", f"onnx checker and shape inference skipped: {run.skipped}",
            "Update onnxpack (and its onnx) to check this model.",
            detail=run.skipped,
        ))
        val.checker = {"status": "skipped", "seconds": 0.0, "onnx_checker": "skipped",
                       "shape_inference": "skipped", "reason": run.skipped}
        return
    val.checker = {"status": run.outcome.status, "seconds": run.seconds, **_step_results(run.outcome)}
    val.findings += _checker_findings(val.inspection, run.outcome)
