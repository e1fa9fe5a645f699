"""One model's stages in a bundle being written: retarget, merge (streamed into its ZIP entry), smoke run beside the
proof that the bundled model is the source bit for bit, --prove-ort, the ORT variant and the smoke files; its record.

A bundle of one model (bundle.py) and a release of several (folderbundle.py) both run these, each model into its own
entry of the one ZIP. Speed: the merged model streams straight into its (uncompressed) ZIP entry through a hashing
sink, so the weights are read once and written once and memory stays bounded; when a smoke run or the ORT conversion
needs the merged model as a file, the same bytes are teed into a copy in the work folder. The provenance record's
SHA-256 of each source data file comes from the chunks the merge reads (core.streamhash) when the tensors are read in
file order; other files are hashed in a background thread while the merge runs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from .. import classcodes, steps
from ..atomic import (
    check_free_space,
    pending_path,
)
from ..background import Background
from ..child.childproc import ChildProcess
from ..errors import Cancelled, OnnxpackError, RuntimeFailure
from ..filecopy import copy_range
from ..filehash import sha256_file
from ..findings import Finding
from ..model.layout import KEEP, Layout
from ..model.merge.merge import MergePlan, plan_merge
from ..model.merge.proof import RangeKey, TensorHasher, WeightsProof, prove_same_model
from ..model.merge.streamhash import SequentialHasher, read_in_order
from ..progress import STEPS, CancelToken, ProgressCallback, check_cancel, report
from ..runtime import loadcost
from . import codes
from .endload import MeasuredLoads, load_cost, shipped_file, source_by_path
from .fixes import Fixed, apply_fixes
from .gate import Checked, CheckerGate
from .manifest_build import (
    ModelFacts,
    Provenance,
    model_facts,
)
from .members import Member, Role
from .ortvariant import OrtVariant, add_ort_variant
from .plan import BundlePlan
from .smokerun import SmokeTarget, equality, run_smoke, same_file_proof, smoke_or_retarget_refusal
from .sources import SourceWatch, source_files_of
from .zipwriter import DeterministicZip

__all__ = ["COMPARE_AUTO_BYTES", "ModelDone", "Proven", "Run", "hash_sources", "model_stage"]

#: Up to this model size the bundle also compares the outputs of the source and the merged model (two sessions).
COMPARE_AUTO_BYTES = 256 * 2**20


# -- hashing the sources beside the merge -------------------------------------------------------------------------


def _hash_files(paths: list[Path], out: dict[Path, tuple[int, str]], cancel: CancelToken | None) -> None:
    for p in paths:
        try:
            digest = sha256_file(p, cancel)
        except Cancelled:
            return
        out[p] = (digest.size, digest.hexdigest)


def hash_sources(paths: list[Path]) -> Callable[[CancelToken], dict[Path, tuple[int, str]]]:
    def run(stop: CancelToken) -> dict[Path, tuple[int, str]]:
        out: dict[Path, tuple[int, str]] = {}
        try:
            _hash_files(paths, out, stop)
        except OSError as e:
            raise classcodes.INPUT.error(variant="hash_unreadable", file=e.filename, reason=e.strerror) from None
        return out

    return run


@dataclass(frozen=True)
class Run:
    """Where a bundle run reports, what cancels it, and what it writes: the ZIP, its private work folder."""

    progress: ProgressCallback | None
    cancel: CancelToken | None
    zip_path: Path
    work: Path


@dataclass(frozen=True)
class _Merged:
    """The merge stage's record: the plan it followed, the members it wrote, the source hashes from its own reads
    (the files read in order, and each tensor's for the equality proof), and the folder of the merged copy."""

    plan: MergePlan
    members: tuple[Member, ...]
    streamed_hashes: Mapping[Path, tuple[int, str]]
    source_digests: Mapping[RangeKey, str]
    copy: Path  # the merged model's copy in the work folder (teed when one is needed), its data file beside it
    same_file: WeightsProof | None = None  # the proof when the bundled model file is the source file (_same_file)
    teed: bool = False  # ``copy`` was written (beside the ZIP entry, from the same buffers)
    copy_needed: bool = False  # ``copy`` is read after the smoke run (--prove-ort, the ORT variant)

    @property
    def copy_dir(self) -> Path:
        return self.copy.parent


@dataclass(frozen=True)
class Proven:
    """The smoke stage's record with the proofs': the smoke record (its ``equal`` included), the members it adds
    (reference outputs, input files) by name with their role, its findings, and --prove-ort's report."""

    smoke: dict[str, Any] | None = None
    equal: dict[str, Any] | None = None
    extra: Mapping[str, tuple[Role, bytes]] = field(default_factory=dict)
    findings: tuple[Finding, ...] = ()
    prove: Any = None  # --prove-ort's ProveReport: the manifest's prove_ort record, and the times of its runs


@dataclass(frozen=True)
class _Placement:
    """The merge planned, and where the smoke run and the proofs read its result: ``in_place`` in its stored ZIP
    entry, or (``need_copy``) a copy teed into the work folder. ``tee``: the copy is written either way (``need_copy``,
    or the file the end user's load is measured on: see :func:`_place`)."""

    merge: MergePlan
    in_place: bool
    need_copy: bool
    tee: bool
    verbatim: bool = False  # the bundled file should be the source file byte for byte (:func:`_verbatim`)


def _verbatim(plan: BundlePlan, checked: Checked, fixed: Fixed, merge: MergePlan) -> bool:
    """Whether the bundled model file should come out as the source file byte for byte: a self-contained source, no
    fix, bundled as one file of the source's size (a merge of a self-contained file writes what protobuf writes, which
    is what nearly every exporter wrote). Then its end user's load is measured on the source file itself, not on a
    copy teed beside the entry (1.4 GB more written for GPT-2 medium), and its tensors are not hashed one by one
    (the proof is the file's SHA-256). Only a prediction: :func:`_same_file` decides, and :func:`_not_verbatim`
    makes up for a wrong one."""
    if checked.val.inspection.layout is not Layout.SINGLE or merge.layout is not Layout.SINGLE:
        return False
    if fixed.fixes or fixed.retarget is not None or fixed.source.model is not checked.val.inspection.model:
        return False
    try:
        return plan.location.model.stat().st_size == merge.model_size
    except OSError:
        return False


def _place(plan: BundlePlan, checked: Checked, fixed: Fixed, run: Run) -> _Placement:
    opts = plan.opts
    # The skeleton and ranges validated above: the model is not read again (the plan owns the skeleton from here).
    merge = plan_merge(fixed.source, layout=opts.layout, data_location=posixpath.basename(plan.data_entry),
                       cancel=run.cancel)  # fmt: skip
    # The smoke run and the proof read the merged model where it ships: in place in its stored ZIP entry. A
    # temporary copy (the same bytes, teed) is written only when that is impossible: deflated, the external layout,
    # or the ORT converter, which needs a file of its own.
    in_place = opts.run_smoke and merge.layout is Layout.SINGLE and not opts.compress and not opts.ort_format
    need_copy = opts.ort_format or (opts.run_smoke and not in_place) or bool(opts.prove_ort)
    if opts.ort_format and not merge.fits_single_file:
        raise codes.ORT_FORMAT_TOO_LARGE.error()
    # A copy beside the ZIP: the work copy, or the file the end user's load is measured on. That one is teed too,
    # written from the buffers the entry is written from while the merge goes on, not extracted from the entry after
    # it (a kernel copy of the whole file, on the bundle's critical path: 0.6-0.7 s for GPT-2 medium's 1.4 GB).
    # Not for a file that should come out as the source byte for byte: the source is that file already.
    verbatim = _verbatim(plan, checked, fixed, merge)
    measured = in_place and opts.load_cost and not verbatim
    # (room for the copy either way: a wrong prediction extracts it after the write, _not_verbatim)
    copy = need_copy or (in_place and opts.load_cost)
    check_free_space(run.zip_path.parent, merge.total_size * (2 if copy else 1) + (1 << 20))
    return _Placement(merge, in_place, need_copy, need_copy or measured, verbatim)


@dataclass(frozen=True)
class ModelDone:
    """One model's stages done, in the bundle being written: the merge it followed, the fixes, the gate's findings,
    the smoke run and proofs, the ORT variant, the members it wrote (model, data, ORT variant, smoke files, in that
    order), the manifest's facts about it, and the watch over its source files."""

    layout: Layout  # of the bundled .onnx
    align: int | None  # of its data file (the external layout)
    fixed: Fixed
    gated: tuple[Finding, ...]
    proven: Proven
    ort: OrtVariant | None
    members: tuple[Member, ...]
    facts: ModelFacts
    watch: SourceWatch
    data: str | None = None  # its (first) data file's path in the bundle, when it has one


def model_stage(plan: BundlePlan, checked: Checked, checker: CheckerGate, run: Run, f: BinaryIO,
                z: DeterministicZip, child: ChildProcess | None) -> ModelDone:
    """Retarget, merge (streamed into ``z``), smoke-run and prove one model, add its ORT variant and smoke files.
    With --layout keep its files are shipped as they are instead of merged (core/release/keep.py)."""
    opts, progress, cancel = plan.opts, run.progress, run.cancel
    if opts.layout == KEEP:
        from .keep import keep_stage

        return keep_stage(plan, checked, checker, run, f, z, child)
    fixed = apply_fixes(plan, checked.val, progress, cancel)
    check_cancel(cancel)
    placed = _place(plan, checked, fixed, run)
    merge = placed.merge
    sources = [plan.location.model, *source_files_of(checked.val)]
    watch = SourceWatch.of(sources)
    streamed = read_in_order(merge.read_order) & set(sources)  # hashed from the merge's own reads
    hasher = Background(hash_sources([p for p in sources if p not in streamed]), cancel, "onnxpack-provenance")
    (run.work / "merged").mkdir()
    # The smoke child (started by build_bundle) has imported onnxruntime by the time the model is written.
    try:
        # 3. merge, streamed into the ZIP (and teed into the work copy when it will be run)
        merged = _merge(plan, placed, z, streamed, run)
        if not (opts.run_smoke and checker.separate and checker.pending):
            checker.verdict()  # in already, or the smoke child is busy with it: the gate first
        merged = dataclasses.replace(merged, same_file=_same_file(plan, checked, merged, hasher))
        if placed.verbatim and merged.same_file is None:
            merged = _not_verbatim(plan, placed, merged, f, z, run)
        # 4. smoke run of the merged copy; meanwhile the proof that it is the source model, bit for bit
        target = (_smoke_target(plan, merged, f, z, sources) if placed.in_place
                  else _copy_target(plan, merged, sources))  # fmt: skip
        proven = _proofs(plan, fixed, merged, target, watch, run, child, checker)
        gated = checker.verdict()
        # 5. ORT-format variant
        ort = add_ort_variant(plan, merged.copy, run.work, z, progress, cancel) if opts.ort_format else None
        extra = [Member(role, z.write_bytes(path, data)) for path, (role, data) in sorted(proven.extra.items())]
        provenance = _provenance(plan, checked, sources, merged, hasher, cancel)
    finally:
        hasher.stop()
    facts = model_facts(checked.val, fixed.source.model, merge.layout, _align(merge), provenance, opts.target_ort)
    members = (*merged.members, *(ort.members if ort is not None else ()), *extra)
    data = plan.data_entry if merge.layout is Layout.EXTERNAL else None
    return ModelDone(merge.layout, _align(merge), fixed, gated, proven, ort, members, facts, watch, data)


def _align(merge: MergePlan) -> int | None:
    return merge.align if merge.layout is Layout.EXTERNAL else None


def _merge(plan: BundlePlan, placed: _Placement, z: DeterministicZip, streamed: set[Path], run: Run) -> _Merged:
    """Stream the merged model into the ZIP (teed into the work copy when ``placed.tee``), hashing the sources from
    its own reads."""
    merge, tee, progress, cancel = placed.merge, placed.tee, run.progress, run.cancel
    copy_dir = run.work / "merged"
    report(progress, "merge", 0, merge.total_size)
    with contextlib.ExitStack() as stack:
        reader = stack.enter_context(merge.open_reader())
        seq = stack.enter_context(SequentialHasher(reader, streamed, cancel))
        reader.observer = seq
        # the source side of the equality proof, from the merge's own reads (not needed for the source file itself)
        if plan.opts.run_smoke and not placed.verbatim:
            reader.tensor_observer = stack.enter_context(TensorHasher())
        model_copy, data_copy = (copy_dir / posixpath.basename(e) for e in (plan.model_entry, plan.data_entry))
        model_tee = stack.enter_context(open(model_copy, "xb")) if tee else None
        members: list[Member] = []
        if merge.layout is Layout.SINGLE:
            with z.entry(plan.model_entry, merge.model_size, tee=model_tee, cancel=cancel) as sink:
                merge.write_single(sink, progress=progress, cancel=cancel, reader=reader)
        else:
            data_tee = stack.enter_context(open(data_copy, "xb")) if tee else None
            structure = io.BytesIO()
            with z.entry(plan.data_entry, merge.data_size, tee=data_tee, cancel=cancel) as sink:
                merge.write_external(structure, sink, progress=progress, cancel=cancel, reader=reader)
            members.append(Member(Role.EXTERNAL_DATA, z.records[-1]))
            with z.entry(plan.model_entry, merge.model_size, tee=model_tee, cancel=cancel) as sink:
                sink.write(structure.getbuffer())
        members.append(Member(Role.MODEL, z.records[-1]))
        streamed_hashes = seq.finish()  # reads the tails after the last tensors
        digests = reader.tensor_observer.finish() if isinstance(reader.tensor_observer, TensorHasher) else {}
    return _Merged(merge, tuple(members), streamed_hashes, digests, model_copy, teed=tee,
                   copy_needed=placed.need_copy)


def _not_verbatim(plan: BundlePlan, placed: _Placement, merged: _Merged, f: BinaryIO, z: DeterministicZip,
                  run: Run) -> _Merged:
    """A file predicted to come out as the source (:func:`_verbatim`) that did not (a source protobuf would write
    otherwise, same size): what the prediction left out is made now. Each source tensor is hashed for the
    fingerprint, read again; and when the end user's load is measured, the entry is copied out to the work copy (in
    the kernel), the file it is measured on."""
    merge = placed.merge
    digests: dict[RangeKey, str] = dict(merged.source_digests)
    if plan.opts.run_smoke:
        with merge.open_reader() as reader, TensorHasher() as hasher:
            reader.tensor_observer = hasher
            for ref in merge.read_order:
                for _chunk in reader.iter_chunks(ref, cancel=run.cancel):
                    pass
            digests.update(hasher.finish())
    teed = merged.teed
    if placed.in_place and plan.opts.load_cost and not teed:
        offset = _stored_model_offset(plan, f, z)
        with open(pending_path(f), "rb") as src, open(merged.copy, "xb") as dst:
            if copy_range(src, dst.fileno(), offset, merge.model_size, cancel=run.cancel) != merge.model_size:
                raise classcodes.INTERNAL.error(variant="entry_not_stored")
        teed = True
    return dataclasses.replace(merged, source_digests=digests, teed=teed)


def _copy_target(plan: BundlePlan, merged: _Merged, sources: list[Path]) -> SmokeTarget:
    """The merged model's copy in the work folder."""
    return SmokeTarget(merged.copy, None, plan.model_entry, merged.copy_dir, merged.plan.layout is Layout.SINGLE,
                       tuple(sources))  # fmt: skip


def _stored_model_offset(plan: BundlePlan, f: BinaryIO, z: DeterministicZip) -> int:
    """Where the model's stored entry, the last one written, starts in the ZIP file being written (flushed, so that
    it can be read back through :func:`pending_path`)."""
    f.flush()
    rec = z.records[-1]
    if rec.name != plan.model_entry or rec.data_offset is None:
        raise classcodes.INTERNAL.error(variant="entry_not_stored")
    return rec.data_offset


def _smoke_target(plan: BundlePlan, merged: _Merged, f: BinaryIO, z: DeterministicZip,
                  sources: list[Path]) -> SmokeTarget:
    """The merged model in place: its stored entry, read back from the ZIP file while it is still being written."""
    offset = _stored_model_offset(plan, f, z)
    return SmokeTarget(pending_path(f), (offset, merged.plan.model_size), plan.model_entry, merged.copy_dir,
                       True, tuple(sources))  # fmt: skip (in place = the single-file layout)


def _proofs(plan: BundlePlan, fixed: Fixed, merged: _Merged, target: SmokeTarget, watch: SourceWatch, run: Run,
            child: ChildProcess | None, checker: CheckerGate) -> Proven:
    """The smoke run with the equality proof (unless --no-smoke), then --prove-ort's releases.

    The onnx checker may still be at work on a large model (in a child of its own): the smoke run goes on beside it
    (no isolation is lost: ONNX Runtime runs in its own child either way), and when it fails, the checker's verdict is
    awaited first: its refusal, if any, is the first thing to fix, and is what is raised. --prove-ort's releases
    run only after that verdict.
    """
    proven = Proven()
    if plan.opts.run_smoke:
        try:
            proven = _smoke_and_proof(plan, fixed, merged, target, watch, run, child)
        except OnnxpackError:
            checker.verdict()
            raise
    checker.verdict()
    if not plan.opts.prove_ort:
        return proven
    from .proveort import prove_ort  # 4b. the bundled model on each named ONNX Runtime release

    report_ = prove_ort(plan, checker.checked, merged.copy, fixed.source.model, proven.smoke, run.progress, run.cancel)
    return Proven(proven.smoke, proven.equal, proven.extra, proven.findings, report_)


def _same_file(plan: BundlePlan, checked: Checked, merged: _Merged,
               hasher: Background[dict[Path, tuple[int, str]]]) -> WeightsProof | None:
    """:func:`same_file_proof` of the bundled model: the source's SHA-256 is provenance's (from the merge's reads, or
    the hashing thread's for a file with no tensor to stream), the entry's the ZIP writer's."""
    model = plan.location.model
    entry = next(m.record for m in merged.members if m.role is Role.MODEL)
    source = merged.streamed_hashes.get(model) or hasher.join().get(model)
    return same_file_proof(checked.val.inspection, merged.plan.layout, source, (entry.size, entry.sha256))


def _smoke_and_proof(plan: BundlePlan, fixed: Fixed, merged: _Merged, target: SmokeTarget,
                     watch: SourceWatch, run: Run, child: ChildProcess | None) -> Proven:
    """Smoke-run the merged model while a thread proves, tensor by tensor, that it is the source model.

    When the bundled file is the source file byte for byte, that is the proof: no tensor is hashed again, and the
    original is run too only when --compare-outputs always asks for it (its outputs could not differ). On Linux the
    smoke run also measures the end user's load of the shipped layout and of the source (core/release/endload.py):
    the proof's hashing waits for the first, and the second waits for the proof.
    """
    opts, merge, same = plan.opts, merged.plan, merged.same_file
    in_child = opts.load_cost and loadcost.can_reset_peak()
    proof: Background[WeightsProof]  # (below) the source's measured load waits for it
    loads = MeasuredLoads(run.progress, in_child, lambda: proof.join())

    def prove(stop: CancelToken) -> WeightsProof:
        if same is not None:
            return same
        loads.wait(stop)
        try:
            return prove_same_model(merge.model, merge.table, merged.source_digests, target.path, merged.copy_dir,
                                    stop, target.window)  # fmt: skip
        except RuntimeFailure as e:
            if e.code == "MERGE_NOT_EQUAL":  # compared with the source read again: one that changed since explains it
                watch.check()
            raise

    proof = Background(prove, run.cancel, "onnxpack-proof")
    cost = contextlib.ExitStack()
    # the file the end user's load is measured on (the copy teed by the merge when the smoke run reads the entry, or
    # the source file itself when the bundled file is it byte for byte: _verbatim)
    shipped = (shipped_file(target, merged.copy if merged.teed else None,
                            plan.location.model if same is not None else None)
               if opts.load_cost else None)  # fmt: skip
    try:
        # elsewhere, the load-cost processes import onnxruntime while the smoke run goes on (loadcost.py); one
        # process when the shipped file is the source byte for byte (one load measures both)
        measured = (cost.enter_context(loadcost.started(1 if same is not None else None))
                    if opts.load_cost and not in_child else None)  # fmt: skip
        smoked_target = target
        if in_child:
            # the source is loaded after the run unless it is the shipped file itself (then that load is its)
            smoked_target = dataclasses.replace(target, by_path=shipped, answers=loads.answer,
                                                source_by_path=source_by_path(plan) if same is None else None)
        auto = same is None and merge.total_size <= COMPARE_AUTO_BYTES
        compare = opts.compare_outputs if opts.compare_outputs is not None else auto
        try:  # a converted model is never shipped unproven: its outputs are compared, whatever its size
            smoked = run_smoke(plan, smoked_target, run.work, compare or fixed.converted, child, watch, loads.progress,
                               run.cancel)  # fmt: skip
        except RuntimeFailure as e:
            refusal = smoke_or_retarget_refusal(plan, fixed, e)
            if refusal is e:
                raise
            raise refusal from None
        finally:
            loads.done()
        if proof.running:
            report(run.progress, "smoke", 1, 1, steps.COMPARING_HASHES, unit=STEPS)
        weights = proof.join()
        if shipped is not None:
            smoked = load_cost(plan, merge.layout, target, smoked, run, measured, shipped, same is not None)
        report(run.progress, "smoke", 1, 1, steps.DONE, unit=STEPS)
    finally:
        loads.done()
        proof.stop()
        cost.close()
        if shipped is not None and shipped == merged.copy and not merged.copy_needed:  # (its disk space back now)
            shipped.unlink(missing_ok=True)
    equal = equality(plan.location.model.name, plan.model_entry, weights, smoked.rows)
    return Proven({**smoked.doc, "equal": equal}, equal, smoked.extra, smoked.findings)


def _provenance(plan: BundlePlan, checked: Checked, sources: list[Path], merged: _Merged,
                hasher: Background[dict[Path, tuple[int, str]]], cancel: CancelToken | None) -> Provenance:
    """The sources' sizes and SHA-256: from the merge's reads, the hashing thread, or (read out of order after all)
    now."""
    hashes = {**hasher.join(), **merged.streamed_hashes}
    late = [p for p in sources if p not in hashes]
    if late:
        hashes.update(hash_sources(late)(cancel or CancelToken()))
        check_cancel(cancel)
    loc = plan.location
    return Provenance(checked.val.inspection.layout, loc.model, loc.data_dir, tuple(sources), hashes)


