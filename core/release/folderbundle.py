"""A release of several files in one bundle: every model of a folder (or a model with --asset) through the whole
pipeline, and the files the app reads beside them, at their paths; manifest schema 2.

Order: every model is inspected and validated, and the label maps checked against the models' outputs, before the
ZIP is opened (a broken model costs no merge of the others); then each model is retargeted, merged into its entry
(its path in the folder), smoke-run and proven in turn, as a single-model bundle does (bundle.model_stage); then the
assets are streamed in and the manifest, README.txt and SHA256SUMS written. An error names its model and stops the
release; nothing is left behind. A release of small models (:data:`PARALLEL_MAX_BYTES` in all) runs two models at a
time, one per core (core/release/folderparallel.py: the bytes are the same); a larger one runs them one after
another: each smoke run, proof and merge already uses the machine's memory for its own model, and a release's models
are often of one size (an encoder and decoders).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .. import errorcodes, steps
from ..atomic import atomic_file, check_output_path
from ..child.childproc import SMOKE_TARGET, ChildProcess, child_for
from ..errors import Cancelled, InputError, OnnxpackError
from ..findings import Finding
from ..progress import STEPS, CancelToken, ProgressCallback, check_cancel, report
from . import codes, foldercodes
from .assets import check_label_assets
from .bundle import BundleResult, _parts, _work_dir
from .finish import Release, write_manifest
from .folder import AssetFile, _model_error
from .gate import Checked, check_model, start_checker
from .keep import full_reader
from .manifest import MODEL_SECTIONS, RELEASE_SCHEMA, iso_utc, tool_info
from .manifest_build import assemble_manifest, interface_of
from .members import Member, Role
from .modelstage import ModelDone, Run, model_stage
from .plan import BundlePlan
from .releasediff import diff_releases, release_identity
from .sources import SourceWatch, source_files_of
from .versions import check_new_version
from .zipwriter import DeterministicZip

__all__ = ["build_release"]

_T = TypeVar("_T")


def named(plan: BundlePlan, step: Callable[[], _T]) -> _T:
    """``step()`` for one model of the release; its error names the model by its path in the bundle."""
    try:
        return step()
    except Cancelled:
        raise
    except OnnxpackError as e:
        if plan.entry is None or plan.entry in e.message:
            raise
        raise _model_error(plan.entry, e) from None


def build_release(plan: BundlePlan, out_dir: Path, child: ChildProcess, progress: ProgressCallback | None,
                  cancel: CancelToken | None) -> BundleResult:
    """Write OUT_DIR/NAME-VERSION.zip holding every model and asset of ``plan.tree``; see the module docstring."""
    tree = plan.tree
    assert tree is not None
    opts = plan.opts
    zip_path = out_dir / plan.zip_name
    check_output_path(zip_path, plan.read_files, overwrite=opts.force)
    previous: dict[str, Any] | None = None
    if opts.previous is not None:
        from .verify.verify import read_bundle_manifest

        previous = read_bundle_manifest(opts.previous, cancel=cancel)
    plans = plan.model_plans()
    checked: list[Checked] = []
    for i, mp in enumerate(plans):
        report(progress, "inspect", i, len(plans), steps.MODEL_OF, unit=STEPS, index=i + 1, count=len(plans),
               entry=mp.entry)
        checked.append(named(mp, lambda mp=mp: check_model(mp, progress, cancel)))  # type: ignore[misc]
    sources = [p for c in checked for p in source_files_of(c.val)]
    check_output_path(zip_path, [*plan.read_files, *sources], overwrite=opts.force)
    outputs = {mp.model_entry: interface_of(c.val.inspection.model)[1] for mp, c in zip(plans, checked, strict=True)
               if c.val.inspection.model is not None}  # fmt: skip
    labels = check_label_assets(tree.assets, outputs, opts.allow_unmatched_labels)
    prepared = _Prepared(plans, checked, tuple(labels), previous)
    try:
        with _work_dir(out_dir, zip_path.name) as work:
            return _write(plan, prepared, work, zip_path, child, progress, cancel)
    except InputError:
        if not zip_path.parent.is_dir():
            raise errorcodes.OUTPUT_WRITE.error(variant="bundle_vanished", output=str(zip_path)) from None
        raise


@dataclass(frozen=True)
class _Prepared:
    """What is known before the ZIP is opened: each model's plan and validation, the label checks, --previous."""

    plans: list[BundlePlan]
    checked: list[Checked]
    labels: tuple[Finding, ...]
    previous: dict[str, Any] | None


def _write(plan: BundlePlan, prepared: _Prepared, work: Path, zip_path: Path, first_child: ChildProcess,
           progress: ProgressCallback | None, cancel: CancelToken | None) -> BundleResult:
    plans, checked, labels, previous = prepared.plans, prepared.checked, prepared.labels, prepared.previous
    tree = plan.tree
    assert tree is not None
    opts = plan.opts
    asset_watch = SourceWatch.of([a.path for a in tree.assets])
    with (
        atomic_file(zip_path, overwrite=opts.force) as f,
        DeterministicZip(f, epoch=plan.epoch, compress=opts.compress) as z,
    ):
        if _in_parallel(plans, checked):
            from .folderparallel import write_models_in_parallel

            done = write_models_in_parallel(plans, checked, work, zip_path, z, first_child, progress, cancel)
        else:
            done = _write_models(prepared, work, zip_path, f, z, first_child, progress, cancel)
        assets = _write_assets(tree.assets, z, progress, cancel)
        views = [_model_view(mp, d) for mp, d in zip(plans, done, strict=True)]
        asset_docs = [{"path": a.member, "role": a.role, "size": m.record.size, "sha256": m.record.sha256}
                      for a, m in zip(tree.assets, assets, strict=True)]  # fmt: skip
        release = _release(plan, previous, views, asset_docs)
        findings = (*plan.findings, *tree.findings, *labels, *release.findings)
        for d in done:
            d.watch.check()
        asset_watch.check()
        report(progress, "zip", 0, 2, steps.WRITING_MANIFEST, unit=STEPS)
        check_cancel(cancel)
        created = plan.epoch if plan.epoch is not None else _newest_mtime(plan, done)

        def assemble(members: Sequence[Member]) -> dict[str, Any]:
            return _manifest(plan, created, views, asset_docs, findings, release, members)

        payload = [m for d in done for m in d.members] + assets
        written = write_manifest(plan, assemble, payload, z)
        report(progress, "zip", 2, 2, steps.DONE, unit=STEPS)
        check_cancel(cancel)
    every = [*findings, *(x for d, mp in zip(done, plans, strict=True) for x in _of_model(mp, d))]
    first = done[0].proven
    timings = {mp.model_entry: d.proven.prove.timings() for mp, d in zip(plans, done, strict=True)
               if d.proven.prove is not None}  # fmt: skip
    return BundleResult(zip_path, written.manifest, [m.to_dict() for m in written.members], first.smoke,
                        first.equal, release.doc, every, zip_path.stat().st_size, timings or None)


#: A release whose models (with their data) are at most this large in all runs them two at a time, one per core
#: (core/release/folderparallel.py); a larger one one after another, each using the machine's memory for its own.
PARALLEL_MAX_BYTES = 256 * 2**20


def _in_parallel(plans: list[BundlePlan], checked: list[Checked]) -> bool:
    """Two models at once: several models, two cores or more, all of them small (:data:`PARALLEL_MAX_BYTES`)."""
    if len(plans) < 2 or (os.cpu_count() or 1) < 2:
        return False
    return sum(c.val.inspection.total_size for c in checked) <= PARALLEL_MAX_BYTES


def _write_models(prepared: _Prepared, work: Path, zip_path: Path, f: Any, z: DeterministicZip,
                  first_child: ChildProcess, progress: ProgressCallback | None,
                  cancel: CancelToken | None) -> list[ModelDone]:
    """Each model retargeted, merged into ``z``, smoke-run and proven, one after another (the next model's child
    imports onnxruntime while this model runs)."""
    plans, checked = prepared.plans, prepared.checked
    opts = plans[0].opts
    done: list[ModelDone] = []
    children = [first_child]
    try:
        for i, (mp, ch) in enumerate(zip(plans, checked, strict=True)):
            if i + 1 < len(plans):
                children.append(child_for(SMOKE_TARGET, None, opts.sign_key_password_env,
                                          opts.sigstore_identity_token_env))  # fmt: skip
            child = children[i]
            checker = start_checker(mp, ch, child, progress, cancel)
            try:
                mwork = work / f"model-{i}"
                mwork.mkdir()
                run = Run(progress, cancel, zip_path, mwork)
                smoke_child = child if opts.run_smoke else None
                done.append(named(mp, lambda: model_stage(mp, ch, checker, run, f, z, smoke_child)))  # noqa: B023
            finally:
                checker.stop()
                child.discard()
    finally:
        for c in children:
            c.discard()
    return done


def _of_model(plan: BundlePlan, d: ModelDone) -> list[Finding]:
    """The model's findings, each naming the model (two models may share a file name in two folders)."""
    own = (*d.gated, *d.fixed.findings, *d.proven.findings, *(d.ort.findings if d.ort else ()))
    entry = plan.model_entry
    return [Finding(x.severity, x.code, x.message if entry in x.message else f"{entry}: {x.message}", x.hint,
                    x.subject or entry, x.params) for x in own]  # fmt: skip


def _write_assets(assets: Sequence[AssetFile], z: DeterministicZip, progress: ProgressCallback | None,
                  cancel: CancelToken | None) -> list[Member]:
    """Stream each asset into its entry, as it is (its SHA-256 is the ZIP writer's)."""
    out: list[Member] = []
    total = sum(a.size for a in assets)
    done = 0
    for a in assets:
        check_cancel(cancel)
        report(progress, "zip", done, max(total, 1), steps.ADDING, member=a.member)
        try:
            with open(a.path, "rb") as src:
                record = z.write_stream(a.member, a.size, full_reader(src, a.member), cancel=cancel)
        except OSError as e:
            raise foldercodes.RELEASE_UNREADABLE.error(path=a.member, reason=e.strerror or str(e)) from None
        done += a.size
        out.append(Member(Role.ASSET, record))
    return out


def _model_view(plan: BundlePlan, d: ModelDone) -> dict[str, Any]:
    """The model's sections of the manifest (what schema 1 says of its one model), at its path in the bundle."""
    parts = _parts(plan, d, Release())
    doc = assemble_manifest(parts, d.members)
    model = dict(doc["model"])
    model["entry"] = plan.model_entry
    model["data"] = d.data
    model["ort_entry"] = plan.ort_entry if model["ort_entry"] is not None else None
    view = {k: doc[k] for k in MODEL_SECTIONS if k in doc}
    view["model"] = model
    return view


def _release(plan: BundlePlan, previous: dict[str, Any] | None, views: list[dict[str, Any]],
             assets: list[dict[str, Any]]) -> Release:
    if previous is None:
        return Release()
    opts = plan.opts
    diff = diff_releases(previous, views, assets, source=Path(opts.previous or "").name)
    findings = check_new_version(plan.version, diff, force=opts.allow_version_not_greater)
    was = release_identity(previous)[0]
    if was != plan.name:
        findings.append(codes.RELEASE_NAME_CHANGED.finding("name", previous=was, name=plan.name))
    return Release(diff.to_dict(), tuple(findings))


def _newest_mtime(plan: BundlePlan, done: list[ModelDone]) -> int:
    """What dates the release without SOURCE_DATE_EPOCH: the newest modification time of its source files."""
    tree = plan.tree
    assert tree is not None
    stamps = [d.facts.provenance.newest_mtime() for d in done]
    for a in tree.assets:
        try:
            stamps.append(int(os.stat(a.path).st_mtime))
        except OSError:
            continue
    return max(stamps)


def _manifest(plan: BundlePlan, created: int, views: list[dict[str, Any]], assets: list[dict[str, Any]],
              findings: Sequence[Finding], release: Release, members: Sequence[Member]) -> dict[str, Any]:
    tree = plan.tree
    assert tree is not None
    doc: dict[str, Any] = {
        "schema": RELEASE_SCHEMA,
        "tool": tool_info(),
        "created": iso_utc(created),
        "created_from": "SOURCE_DATE_EPOCH" if plan.epoch is not None else "source-mtime",
        "bundle": {"name": plan.name, "version": str(plan.version), "root": tree.prefix,
                   "models": [v["model"]["entry"] for v in views]},
        "files": [m.to_dict() for m in sorted(members, key=lambda m: m.path)],
        "models": views,
        "assets": assets,
        "skipped": [{"path": p, "reason": r} for p, r in tree.skipped],
        "findings": [f.to_dict() for f in findings],
        "release": release.doc,
    }  # fmt: skip
    if plan.about is not None:
        doc["about"] = plan.about.to_dict()
    signer = plan.key if plan.key is not None else plan.sigstore
    if signer is not None:
        from .manifest_build import signature_section

        doc["signature"] = signature_section(signer)
    return doc
