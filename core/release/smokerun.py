"""The bundle's smoke stage: run the merged model (and, to compare, the original) and record the run, its inputs
and reference outputs for ``verify --smoke``; the equality record of the proofs that it is the source model."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import classcodes
from ..child.childproc import ChildProcess
from ..errors import RuntimeFailure
from ..findings import Finding, Severity
from ..model import codes as model_codes
from ..model.layout import Layout
from ..model.merge.proof import FILE_METHOD, WeightsProof
from ..model.modelfile import ModelLocation, Window
from ..progress import CancelToken, ProgressCallback
from . import codes
from .fixes import Fixed
from .members import Role
from .plan import BundlePlan
from .sources import SourceWatch

if TYPE_CHECKING:
    from ..checks.inspection import Inspection
    from ..runtime.smoke import KnownModel, SmokeResult

__all__ = [
    "MAX_REFERENCE_BYTES",
    "SmokeTarget",
    "Smoked",
    "equality",
    "json_copy",
    "run_smoke",
    "same_file_proof",
    "smoke_or_retarget_refusal",
]

#: Reference outputs are stored in the bundle (for cross-version verification) up to this total size.
MAX_REFERENCE_BYTES = 16 * 2**20
#: Up to this size (the model and its data files) the shipped model is loaded the ways apps load it (the load
#: matrix: six more sessions); a larger one is smoke-run once and the matrix is left out, saying so.
LOAD_MATRIX_MAX_BYTES = 256 * 2**20


def _total_size(target: SmokeTarget) -> int:
    """The shipped model's size with its data files (the model's window when read in place)."""
    size = target.window[1] if target.window is not None else os.stat(target.path).st_size
    if not target.inline:
        size += sum(p.stat().st_size for p in target.data_dir.rglob("*") if p.is_file() and p != target.path)
    return size


@dataclass(frozen=True)
class SmokeTarget:
    """The merged model to run: ``window`` of ``path`` (its ZIP entry ``entry``, in place), else the copy ``path``;
    its data files in ``data_dir``; ``inline``: it has none (the single-file layout). ``source_files``: the source
    model's files, which the comparison run reads and which are never written. ``by_path``: the model as the end user
    has it (extracted, or the copy), which the smoke child loads by its path and measures (KnownModel.by_path);
    ``source_by_path``: the source, which it then loads by its path and measures too, once ``answers`` says so
    (KnownModel.source_by_path, SmokeRun.answers)."""

    path: Path
    window: Window | None
    entry: str
    data_dir: Path
    inline: bool
    source_files: tuple[Path, ...]
    by_path: Path | None = None
    source_by_path: Path | None = None
    answers: Callable[[Any], Any] | None = None

    def known(self) -> KnownModel:
        """The merged model for the smoke run: written by us, so not parsed again in this process."""
        from ..runtime.smoke import KnownModel

        return KnownModel(ModelLocation(self.path, self.data_dir), (self.path,), self.window, self.entry, self.inline,
                          "bundled", self.by_path, self.source_by_path)  # fmt: skip

    def source(self, location: ModelLocation) -> KnownModel:
        """The source model at ``location``, validated by the bundle's inspection (parsed in the child only)."""
        from ..runtime.smoke import KnownModel

        return KnownModel(location, self.source_files, role="original")


@dataclass(frozen=True)
class Smoked:
    """The manifest's smoke record (without ``equal``), the per-output comparison (None when the original was not
    run), extra bundle members (reference outputs, the user's input files), the run's findings, and the end user's
    load of the shipped model and of the source as the smoke child measured them (SmokeTarget.by_path and
    source_by_path), else None."""

    doc: dict[str, Any]
    rows: list[dict[str, Any]] | None
    extra: Mapping[str, tuple[Role, bytes]] = field(default_factory=dict)
    findings: tuple[Finding, ...] = ()
    shipped_load: dict[str, Any] | None = None
    source_load: dict[str, Any] | None = None


def json_copy(d: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(d))
    assert isinstance(out, dict)
    return out


def _refuse_failed(run: SmokeResult, model: str) -> None:
    if run.ok:
        return
    failed = codes.SMOKE_FAILED.finding(detail=run.error) if run.error else codes.SMOKE_FAILED.finding(variant="failed")
    errs = [f for f in run.findings if f.severity is Severity.ERROR] or [failed]
    raise classcodes.REFUSED.error(variant="smoke_failed", model=model, message=errs[0].message,
                                   hint=errs[0].hint or None, repeats=errs[0])


def run_smoke(plan: BundlePlan, target: SmokeTarget, work: Path, compare: bool, child: ChildProcess | None,
              watch: SourceWatch, progress: ProgressCallback | None, cancel: CancelToken | None) -> Smoked:
    """Smoke-run the merged model; with ``compare`` also the original, requiring bitwise-equal outputs."""
    from ..runtime.smoke import SmokeOptions, compare_models, smoke_test

    loc = plan.location
    options = plan.opts.smoke if plan.opts.smoke is not None else SmokeOptions()
    # the shipped model is also loaded the ways apps load it (core/runtime/loadmatrix.py), within its size cap
    options = dataclasses.replace(options, load_matrix=_total_size(target) <= LOAD_MATRIX_MAX_BYTES)
    saved = work / "outputs"
    rows: list[dict[str, Any]] | None = None
    if compare:
        # The shipped model first (its runs are the smoke record's), then the source, once: its outputs are compared.
        res = compare_models(target.known(), target.source(loc), options=dataclasses.replace(options, compare_runs=1),
                             save_outputs_to=saved, progress=progress, cancel=cancel, child=child,
                             answers=target.answers)  # fmt: skip
        run, findings = res.original, res.findings
    else:
        run = smoke_test(target.known(), options=options, save_outputs_to=saved, progress=progress, cancel=cancel,
                         child=child, answers=target.answers)  # fmt: skip
        findings = run.findings
    _refuse_failed(run, loc.model.name)
    if compare:
        if not res.bitwise_equal:
            watch.check()  # a source that changed under us explains it, and is no bug of ours
            bad = [r for r in res.outputs if not r["bitwise_equal"]]
            if not bad:
                raise model_codes.MERGE_NOT_EQUAL.error(loc.model.name, variant="no_outputs", model=loc.model.name)
            worst = max((r["max_abs"] for r in bad if r["max_abs"] is not None), default=None)
            raise model_codes.MERGE_NOT_EQUAL.error(loc.model.name, variant="outputs", model=loc.model.name,
                                                    outputs=", ".join(r["name"] for r in bad), max_abs=worst)
        rows = [{"name": r["name"], "bitwise_equal": r["bitwise_equal"]} for r in res.outputs]
    kept = tuple(f for f in findings if f.severity is not Severity.INFO or f.code.startswith("SMOKE"))
    extra: dict[str, tuple[Role, bytes]] = {}
    recipe = _recipe(run, extra, plan.smoke_dir)
    outputs = _outputs(run, extra, plan.smoke_dir)
    doc = {"ok": True, "ort_version": run.ort_version, "provider": run.provider, "outputs": outputs, "recipe": recipe}
    if run.loads is not None:
        doc["loads"] = run.loads
    return Smoked(doc, rows, extra, kept, run.load_measured, run.source_load_measured)


def same_file_proof(source: Inspection, bundled: Layout, source_hash: tuple[int, str] | None,
                    entry_hash: tuple[int, str]) -> WeightsProof | None:
    """The proof that the bundled model file is the source file byte for byte, when it is: a single file without
    external data, bundled as it is (no fix changed it), with the same size and SHA-256. ``tensors`` and
    ``tensor_bytes`` are the inspection's count of the source's tensors."""
    if source.layout is not Layout.SINGLE or bundled is not Layout.SINGLE or source_hash != entry_hash:
        return None
    count = source.initializers.count + source.constants.count
    return WeightsProof(count, source.initializers.bytes + source.constants.bytes, entry_hash[1], FILE_METHOD)


def smoke_or_retarget_refusal(plan: BundlePlan, fixed: Fixed, e: RuntimeFailure) -> Exception:
    """A converted model's outputs that differ are onnx.version_converter's doing, not the merge's: refuse it as
    such (any other failure is ``e`` itself)."""
    variant = e.params.get("variant")
    if not (fixed.converted and e.code == "MERGE_NOT_EQUAL" and variant in ("outputs", "no_outputs")):
        return e
    assert fixed.retarget is not None
    return codes.RETARGET_NOT_EQUAL.error(variant=None if variant == "outputs" else variant,
                                          version=plan.opts.target_ort, model=plan.location.model.name,
                                          outputs=e.params.get("outputs", ""), max_abs=e.params.get("max_abs"),
                                          hint=fixed.retarget.hint or None)


def _recipe(run: SmokeResult, extra: dict[str, tuple[Role, bytes]], folder: str) -> dict[str, Any]:
    """The run's recipe, its input files as bundle members (added to ``extra``) so ``verify --smoke`` can repeat it."""
    recipe = json_copy(run.recipe)
    for i, (_inp, entry) in enumerate(sorted(recipe.get("inputs", {}).items())):
        if isinstance(entry, dict) and entry.get("source") == "file":
            src = Path(entry["file"])
            member = f"{folder}/inputs/{i:02d}{''.join(src.suffixes[-1:]).lower() or '.bin'}"
            extra[member] = (Role.SMOKE_INPUT, src.read_bytes())
            entry["file"] = member
    return recipe


def _outputs(run: SmokeResult, extra: dict[str, tuple[Role, bytes]], folder: str) -> list[dict[str, Any]]:
    """The run's outputs; their values as reference members (added to ``extra``) up to MAX_REFERENCE_BYTES."""
    outputs = []
    ref_total = sum(Path(p).stat().st_size for p in run.saved_outputs.values())
    for o in run.outputs:
        ref = None
        saved_path = run.saved_outputs.get(o["name"])
        if saved_path is not None and ref_total <= MAX_REFERENCE_BYTES:
            ref = f"{folder}/outputs/{Path(saved_path).name}"
            extra[ref] = (Role.SMOKE_OUTPUT, Path(saved_path).read_bytes())
        outputs.append(
            {
                "name": o["name"],
                "elem_type": o.get("elem_type", ""),
                "shape": o.get("shape"),
                "finite": o.get("finite"),
                "sha256": o["sha256"],
                "reference": ref,
            }
        )
    return outputs


def equality(source_name: str, entry: str, weights: WeightsProof, outputs: list[dict[str, Any]] | None
             ) -> dict[str, Any]:
    """The manifest's equality record: which proofs were made and what they cover."""
    methods = [weights.method] + (["outputs"] if outputs is not None else [])
    return {
        "ok": True,
        "bitwise": True,
        "methods": methods,
        "compared": f"{source_name} (original) vs the bundled {entry}",
        "weights": weights.to_dict(),
        "outputs": outputs or [],
    }
