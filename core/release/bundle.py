"""The release pipeline: inspect → validate → merge → smoke + equality proof → (ORT format) → NAME-VERSION.zip.

One progress stream (the stages of core/release/stages.py, declared once), cancellable at any
point; nothing is left behind on failure: the ZIP is written through ``atomic_file`` and the private
work folder (``.onnxpack-work-PID-*`` inside the output folder) is always removed.

A plan is computed once from the options (plan.py: :class:`BundlePlan`, frozen); then each stage returns a frozen
record carrying its own findings: the validate stage and its gate (gate.py), the retarget stage (fixes.py), the merge
(here: the members it wrote, with their roles), the smoke run and the proofs (smokerun.py, here), --prove-ort
(proveort.py), the ORT variant (ortvariant.py), the release diff and the last members (finish.py). The manifest is
assembled once from those records (manifest_build.py).

Speed: the merged model streams straight into its (uncompressed) ZIP entry through a hashing sink,
so the weights are read once and written once and memory stays bounded. When a smoke run or the ORT
conversion needs the merged model as a file, the same bytes are *teed* into a temporary copy in the
work folder while they stream into the ZIP (one read, two writes); the smoke run then compares the
original with that copy, and the copy is deleted with the work folder. The provenance record's SHA-256
of each source data file is computed from the chunks the merge reads (core.streamhash) when the
tensors are read in file order; other files (and the small model file) are hashed in a background
thread while the merge runs.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import errorcodes, steps
from ..atomic import (
    atomic_file,
    check_output_path,
    make_temp_dir,
    output_error_from_oserror,
    output_folder,
    refuse_inside_inputs,
)
from ..child.childproc import SMOKE_TARGET, ChildProcess, child_for
from ..errors import InputError
from ..findings import Finding
from ..progress import STEPS, CancelToken, ProgressCallback, check_cancel, report
from .finish import Release, release_of, write_manifest
from .gate import Checked, CheckerGate, check_model, gate, start_checker
from .manifest_build import (
    ManifestParts,
    compatibility_of,
    interface_of,
    signature_section,
)
from .modelstage import ModelDone, Run, model_stage
from .options import BundleOptions, cli_command
from .plan import BundlePlan, default_name, make_plan
from .smokerun import json_copy
from .sources import source_files_of
from .zipwriter import DeterministicZip

__all__ = [
    "BUNDLE_SCHEMA",
    "BundleOptions",
    "BundleResult",
    "build_bundle",
    "cli_command",
    "compatibility_of",
    "default_name",
    "interface_of",
    "json_copy",
    "signature_section",
    "source_files_of",
]

BUNDLE_SCHEMA = "onnxpack.bundle/1"
#: The gate under its former name (tests/test_gui_state.py compares the GUI's gate with the engine's here).
_gate = gate


@dataclass
class BundleResult:
    """What ``build_bundle`` wrote and proved."""

    zip_path: Path
    manifest: dict[str, Any]
    files: list[dict[str, Any]]
    smoke: dict[str, Any] | None
    equal: dict[str, Any] | None
    release: dict[str, Any] | None
    findings: list[Finding] = field(default_factory=list)
    zip_size: int = 0
    prove_timings: dict[str, Any] | None = None  # --prove-ort's load/run times: the JSON result's, never the ZIP's

    def to_dict(self) -> dict[str, Any]:
        """``onnxpack.bundle/1`` (docs/json-schemas.md); for a release of several files its name and version, and
        its models' layouts joined by ``+``."""
        from .manifest import model_views
        from .releasediff import release_identity

        name, version = release_identity(self.manifest)
        return {
            "schema": BUNDLE_SCHEMA,
            "ok": True,
            "bundle": str(self.zip_path),
            "size": self.zip_size,
            "name": name,
            "version": version,
            "layout": "+".join(sorted({str(v["model"]["layout"]) for v in model_views(self.manifest)})),
            "files": self.files,
            "smoke": self.smoke,
            "equal": self.equal,
            "release": self.release,
            "findings": [f.to_dict() for f in self.findings],
            "manifest": self.manifest,
            **({"prove_ort_timings": self.prove_timings} if self.prove_timings is not None else {}),
        }


@contextlib.contextmanager
def _work_dir(out_dir: Path, zip_name: str) -> Iterator[Path]:
    try:
        path = make_temp_dir("work", out_dir)
    except OSError as e:  # read-only folder, no permission, ...
        raise output_error_from_oserror(e, out_dir / zip_name) from None
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# -- the pipeline -------------------------------------------------------------------------------------------------


def build_bundle(
    options: BundleOptions,
    *,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    child: ChildProcess | None = None,
) -> BundleResult:
    """Run the whole pipeline and write ``OUT_DIR/NAME-VERSION.zip``; see the module docstring.

    ``child``: a :class:`ChildProcess` for the smoke run (``SMOKE_TARGET``) that the caller started before it
    imported this module (the command line does), so that its imports overlap the parent's; it is adopted and
    stopped before this returns. Without one (or when it was started before the variables holding a signing key's
    password or an identity token were hidden from children), one is started here, first thing.
    """
    try:
        valid = options.validated()  # every check of the options alone (core/release/options.py)
        opts = valid.options
        # Its onnx and onnxruntime imports overlap the inspection and the merge.
        child = child_for(SMOKE_TARGET, child, opts.sign_key_password_env, opts.sigstore_identity_token_env)
        plan = make_plan(valid)
        # Nothing a bundle writes (a .zip, its work folder) is ever read as a model, so it may go into the model's
        # own folder (`bundle . -o dist`, `bundle model.onnx -o .`): only the files it reads are protected.
        refuse_inside_inputs(Path(opts.out_dir), plan.read_files)  # before the folder is created
        with output_folder(Path(opts.out_dir)) as out_dir:
            if plan.tree is not None:  # a release of several files: core/release/folderbundle.py
                from .folderbundle import build_release

                return build_release(plan, out_dir, child, progress, cancel)
            return _pipeline(plan, out_dir, child, progress, cancel)
    finally:
        if child is not None:
            child.discard()


def _pipeline(plan: BundlePlan, out_dir: Path, child: ChildProcess, progress: ProgressCallback | None,
              cancel: CancelToken | None) -> BundleResult:
    opts = plan.opts
    zip_path = out_dir / plan.zip_name
    check_output_path(zip_path, plan.read_files, overwrite=opts.force)  # fail fast, before any work
    previous: dict[str, Any] | None = None
    if opts.previous is not None:
        from .verify.verify import read_bundle_manifest

        previous = read_bundle_manifest(opts.previous, cancel=cancel)
    # 1-2. inspect + validate. The onnx checker (a child process) runs in the background while the merge
    # streams; its verdict is awaited before anything is smoke-run or published.
    checked = check_model(plan, progress, cancel)
    check_output_path(zip_path, [*plan.read_files, *source_files_of(checked.val)], overwrite=opts.force)
    checker = start_checker(plan, checked, child, progress, cancel)
    try:
        with _work_dir(out_dir, zip_path.name) as work:
            run = Run(progress, cancel, zip_path, work)
            return _build(plan, checked, checker, previous, run, child if opts.run_smoke else None)
    finally:
        checker.stop()


def _build(plan: BundlePlan, checked: Checked, checker: CheckerGate, previous: dict[str, Any] | None,
           run: Run, child: ChildProcess | None) -> BundleResult:
    opts, progress, cancel = plan.opts, run.progress, run.cancel
    try:
        with (
            atomic_file(run.zip_path, overwrite=opts.force) as f,
            DeterministicZip(f, epoch=plan.epoch, compress=opts.compress) as z,
        ):
            done = model_stage(plan, checked, checker, run, f, z, child)
            release = release_of(plan, previous, done.facts)
            parts = _parts(plan, done, release)
            done.watch.check()  # the hashes above describe what was read only if nothing moved
            report(progress, "zip", 0, 2, steps.WRITING_MANIFEST, unit=STEPS)
            check_cancel(cancel)
            written = write_manifest(plan, parts, done.members, z)
            report(progress, "zip", 2, 2, steps.DONE, unit=STEPS)
            check_cancel(cancel)  # last chance: the ZIP is renamed into place only after this
    except InputError:
        if not run.zip_path.parent.is_dir():  # the output folder was removed under us: not a problem of the input
            raise errorcodes.OUTPUT_WRITE.error(variant="bundle_vanished", output=str(run.zip_path)) from None
        raise
    finally:
        if child is not None:
            child.discard()
    proven = done.proven
    return BundleResult(run.zip_path, written.manifest, [m.to_dict() for m in written.members], proven.smoke,
                        proven.equal, release.doc, list(parts.findings), run.zip_path.stat().st_size,
                        proven.prove and proven.prove.timings())


def _parts(plan: BundlePlan, done: ModelDone, release: Release) -> ManifestParts:
    """Everything the manifest says but its files, from the stages' records."""
    fixed, proven, ort, facts = done.fixed, done.proven, done.ort, done.facts
    findings = (*done.gated, *plan.findings, *fixed.findings, *proven.findings, *(ort.findings if ort else ()),
                *release.findings)  # fmt: skip
    # Without SOURCE_DATE_EPOCH the newest modification time of the source files stands in for it, so the
    # same input gives the same bundle, byte for byte (the wall clock would make every run differ).
    created = plan.epoch if plan.epoch is not None else facts.provenance.newest_mtime()
    return ManifestParts(
        name=plan.name, version=str(plan.version), layout=done.layout, align=done.align,
        model_version=int(fixed.source.model.model_version), epoch=plan.epoch, created=created, facts=facts,
        smoke=proven.smoke, ort_format=ort.doc if ort is not None else None, findings=findings, fixes=fixed.fixes,
        release=release.doc, about=plan.about.to_dict() if plan.about is not None else None,
        prove_ort=proven.prove and proven.prove.to_dict(), signature=_signature(plan), data=done.data,
    )  # fmt: skip


def _signature(plan: BundlePlan) -> dict[str, Any] | None:
    """The manifest's ``signature`` record (None when the bundle is not signed)."""
    signer = plan.key if plan.key is not None else plan.sigstore
    return signature_section(signer) if signer is not None else None
