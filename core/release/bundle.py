"""The release pipeline: inspect → validate → merge → smoke + equality proof → (ORT format) → NAME-VERSION.zip.

One progress stream (stages "inspect", "validate", "merge", "smoke", "ort", "zip"), cancellable at any
point; nothing is left behind on failure: the ZIP is written through ``atomic_file`` and the private
work folder (``.onnxpack-work-PID-*`` inside the output folder) is always removed.

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
import io
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import onnx

from ..atomic import (
    atomic_file,
    check_free_space,
    check_output_path,
    make_temp_dir,
    output_error_from_oserror,
    output_folder,
    pending_path,
    refuse_inside_inputs,
)
from ..checks.validate import VALIDATE_STEPS, CheckerRun, Validation, apply_checker, run_checker_child, validate_model
from ..childproc import SMOKE_TARGET, ChildProcess
from ..errors import Cancelled, InputError, InternalError, OutputError, RefusedError, RuntimeFailure
from ..filehash import sha256_file
from ..findings import Finding, Severity
from ..model.extdata import resolve_external_data
from ..model.loaded import LoadedModel
from ..model.merge import plan_merge
from ..model.modelfile import Window, locate_model
from ..model.proof import METHOD, RangeKey, TensorHasher, WeightsProof, prove_same_model
from ..model.streamhash import SequentialHasher, read_in_order
from ..names import bundle_file_name, check_bundle_name, default_bundle_name
from ..progress import STEPS, CancelToken, ProgressCallback, ProgressEvent, check_cancel, report
from ..resources import SAMPLE_MODEL, resource_path
from . import codes
from .checksums import CHECKSUMS_NAME, CHECKSUMS_ROLE, sha256sums
from .manifest import MANIFEST_NAME, dumps_manifest, schema_errors
from .manifest_build import assemble_manifest, compatibility_of, interface_of
from .metadata import ReleaseInfo, check_labels
from .options import BundleOptions, cli_command
from .readme import receiver_readme
from .versions import ReleaseDiff, check_new_version, diff_manifests, encode_model_version, parse_semver
from .zipwriter import DeterministicZip, source_date_epoch

__all__ = [
    "BUNDLE_SCHEMA",
    "BundleOptions",
    "BundleResult",
    "build_bundle",
    "cli_command",
    "compatibility_of",
    "default_name",
    "interface_of",
    "source_files_of",
]

if TYPE_CHECKING:  # signing is imported when a bundle is signed (issue 28 §2: what a small bundle imports)
    from .signing import KeyInfo, SigstoreSigner

T = TypeVar("T")
BUNDLE_SCHEMA = "onnxpack.bundle/1"
#: Reference outputs are stored in the bundle (for cross-version verification) up to this total size.
MAX_REFERENCE_BYTES = 16 * 2**20
#: Up to this model size the bundle also compares the outputs of the source and the merged model (two sessions).
COMPARE_AUTO_BYTES = 256 * 2**20
#: Up to this model file size (the .onnx itself: the checker reads no external data) the onnx checker runs in the
#: smoke child, before its job, instead of in a child of its own.
SHARED_CHILD_BYTES = 64 * 2**20


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": BUNDLE_SCHEMA,
            "ok": True,
            "bundle": str(self.zip_path),
            "size": self.zip_size,
            "name": self.manifest["model"]["name"],
            "version": self.manifest["model"]["version"],
            "layout": self.manifest["model"]["layout"],
            "files": self.files,
            "smoke": self.smoke,
            "equal": self.equal,
            "release": self.release,
            "findings": [f.to_dict() for f in self.findings],
            "manifest": self.manifest,
        }


# -- small helpers ----------------------------------------------------------------------------------


def default_name(model: Path | None) -> str:
    """The bundle name used when --name is not given: the model file's stem (core.names.default_bundle_name)."""
    return default_bundle_name(model if model is not None else resource_path(*SAMPLE_MODEL))




def _hash_files(paths: list[Path], out: dict[Path, tuple[int, str]], cancel: CancelToken | None) -> None:
    for p in paths:
        try:
            digest = sha256_file(p, cancel)
        except Cancelled:
            return
        out[p] = (digest.size, digest.hexdigest)


class _Background(Generic[T]):
    """Run ``fn(stop_token)`` in a daemon thread; ``join`` returns its result (or raises its error) and
    stops it when the caller's ``cancel`` is set; ``stop`` asks it to end and waits."""

    def __init__(self, fn: Callable[[CancelToken], T], cancel: CancelToken | None, name: str) -> None:
        self._stop = CancelToken()
        self._cancel = cancel
        self._result: list[T] = []
        self._error: list[BaseException] = []

        def run() -> None:
            try:
                self._result.append(fn(self._stop))
            except BaseException as e:  # re-raised by join()
                self._error.append(e)

        self._thread = threading.Thread(target=run, name=name, daemon=True)
        self._thread.start()

    def join(self) -> T:
        while self._thread.is_alive():
            self._thread.join(0.1)
            if self._cancel is not None and self._cancel.cancelled:
                self.stop()
                check_cancel(self._cancel)
        if self._error:
            raise self._error[0]
        return self._result[0]

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        self._stop.cancel()
        self._thread.join()


def _hash_sources(paths: list[Path]) -> Callable[[CancelToken], dict[Path, tuple[int, str]]]:
    def run(stop: CancelToken) -> dict[Path, tuple[int, str]]:
        out: dict[Path, tuple[int, str]] = {}
        try:
            _hash_files(paths, out, stop)
        except OSError as e:
            raise InputError(f"Cannot read {e.filename} for hashing: {e.strerror}", "Check the model folder.") from None
        return out

    return run


def _errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity is Severity.ERROR]


def _until_checker(progress: ProgressCallback | None) -> ProgressCallback | None:
    """``progress`` without validate_model's final "done": in a bundle the checker is still running (beside the
    merge), so the Validate stage stays at "checker" until its verdict is in, and its count never goes back."""
    if progress is None:
        return None

    def forward(event: ProgressEvent) -> None:
        if not (event.stage == "validate" and event.finished):
            progress(event)

    return forward


def _refuse(message: str, hint: str, code: str, params: dict[str, Any] | None = None) -> RefusedError:
    return RefusedError(message, hint, code=code, params=params)


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


# -- the pipeline -------------------------------------------------------------------------------------


@dataclass
class _State:
    opts: BundleOptions
    progress: ProgressCallback | None
    cancel: CancelToken | None
    findings: list[Finding] = field(default_factory=list)
    fixes: list[dict[str, Any]] = field(default_factory=list)
    about: ReleaseInfo | None = None  # checked
    key: KeyInfo | None = None  # checked; the key itself is never kept
    sigstore: SigstoreSigner | None = None  # prepared Sigstore keyless signer
    retarget: Any = None  # core.retarget.RetargetResult when --fix-ir retargeted the model
    prove_releases: list[str] = field(default_factory=list)  # --prove-ort resolved, their environments ready
    prove_notes: list[str] = field(default_factory=list)  # how --prove-ort auto was resolved, when not as claimed
    prove: Any = None  # core.prove.ProveReport
    #: (size, mtime_ns, ctime_ns, inode) of every source file when the bundle started reading it.
    source_stats: dict[Path, tuple[int, int, int, int]] = field(default_factory=dict)

    def check_sources_unchanged(self) -> None:
        """Raise when a source file changed while it was being bundled (its bytes may be half old, half new)."""
        changed = [p for p, before in self.source_stats.items() if _file_stat(p) != before]
        if changed:
            raise codes.SOURCE_CHANGED.error(files=", ".join(p.name for p in changed))


def _file_size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _file_stat(path: Path) -> tuple[int, int, int, int] | None:
    """What changes when a file is rewritten or replaced (timestamps have the kernel's coarse resolution)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


def _apply_fixes(st: _State, val: Validation, version_model: int | None) -> LoadedModel:
    """The model to merge: the validated one, or with ir_version lowered / model_version set in a copy of its
    skeleton (the weights stay where they are; nothing is written)."""
    opts = st.opts
    insp = val.inspection
    loaded = insp.loaded
    model = loaded.model
    new_ir: int | None = None
    retargeted: onnx.ModelProto | None = None
    if opts.fix_ir:
        assert val.target is not None  # validated(): --fix-ir comes with --target-ort
        if val.target.loads is True:
            st.findings.append(codes.FIX_IR_NOT_NEEDED.finding(version=val.target.target))
        elif val.target.retarget is not None and val.target.release is not None:
            retargeted = _retarget(st, model, val.target.release)
        elif val.target.fix_by_lowering_ir is not None:
            new_ir = val.target.fix_by_lowering_ir
        else:
            raise codes.FIX_IR_NOT_POSSIBLE.error(version=val.target.target, reason=val.target.reason)
    if new_ir is None and version_model is None and retargeted is None:
        return loaded
    fixed = onnx.ModelProto()
    fixed.CopyFrom(retargeted if retargeted is not None else model)
    if new_ir is not None:
        st.fixes.append(
            {
                "code": "IR_LOWERED",
                "message": f"ir_version lowered from {model.ir_version} to {new_ir} "
                f"so that ONNX Runtime {opts.target_ort} loads the model",
                "before": int(model.ir_version),
                "after": new_ir,
            }
        )
        fixed.ir_version = new_ir
    if version_model is not None:
        st.fixes.append(
            {
                "code": "MODEL_VERSION_SET",
                "message": f"model_version set to {version_model} "
                f"(MAJOR*1000000 + MINOR*1000 + PATCH of {opts.version})",
                "before": int(model.model_version),
                "after": version_model,
            }
        )
        fixed.model_version = version_model
    # The copy's own references (same validated ranges; their SHA-1 checksums were verified above).
    return LoadedModel(loaded.location, fixed, resolve_external_data(fixed, loaded.location.data_dir))


def _retarget(st: _State, model: onnx.ModelProto, rel: Any) -> onnx.ModelProto:
    """--fix-ir beyond ir_version (core/checks/retarget.py): the retargeted skeleton, its changes in the manifest's
    fixes."""
    from ..checks.retarget import retarget_model

    report(st.progress, "validate", 0, 0, f"retargeting for ONNX Runtime {rel.version}", unit=STEPS)
    res = retarget_model(model, rel.version, rel.ir, {"ai.onnx": rel.opset, "ai.onnx.ml": rel.ml_opset},
                         cancel=st.cancel)
    if not res.possible or res.model is None:
        raise codes.FIX_IR_NOT_POSSIBLE.error(version=rel.version, reason="; ".join(res.blockers[:4]),
                                              hint=res.hint or None)
    st.fixes += res.fixes()
    st.retarget = res
    return res.model


def _prepare_prove(st: _State, val: Validation) -> list[str]:
    """--prove-ort's releases (``auto``: the oldest the bundled model will claim, or the target, plus the newest),
    each release's wheel downloaded, checked and installed into its cached environment."""
    from ..runtime.prove import ensure_release, parse_prove_spec, resolve_releases

    assert st.opts.prove_ort is not None
    items = parse_prove_spec(st.opts.prove_ort)
    claimed = st.opts.target_ort if st.opts.target_ort and st.opts.fix_ir else (
        val.compat.oldest.version if val.compat is not None and val.compat.oldest is not None else st.opts.target_ort)
    releases = resolve_releases(items, claimed, st.cancel, st.prove_notes)
    for v in releases:
        ensure_release(v, st.progress, st.cancel)
    return releases


def _prove(st: _State, merged: Path, model: onnx.ModelProto, smoke_doc: dict[str, Any] | None) -> Any:
    """Run the bundled model on every --prove-ort release; refuse the bundle when one does not load it or its
    outputs differ beyond the tolerance."""
    from ..runtime.prove import prove_model

    recipe = (smoke_doc or {}).get("recipe") or {}
    report_ = prove_model(merged, model, st.prove_releases, requested=st.opts.prove_ort or "",
                          dims={k: int(v) for k, v in (recipe.get("dims") or {}).items()},
                          seed=int(recipe.get("seed", 0)), progress=st.progress, cancel=st.cancel,
                          notes=st.prove_notes)
    bad = [r for r in report_.releases if not r.ok]
    if bad:
        detail = "; ".join(
            f"{r.version}: " + (f"did not load it: {r.message}" if not r.loaded else r.message or
                                "outputs differ: " + ", ".join(f"{o['name']} (max abs diff {o['max_abs']})"
                                                               for o in r.outputs if not o["within_tolerance"]))
            for r in bad)
        raise codes.PROVE_ORT_FAILED.error(versions=", ".join(r.version for r in bad), detail=detail)
    return report_


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
    stopped before this returns. Without one, one is started here, first thing.
    """
    try:
        opts = options.validated()  # every check of the options alone (core/release/options.py)
        if child is None:  # its onnx and onnxruntime imports overlap the inspection and the merge
            child = ChildProcess(SMOKE_TARGET)
        return _bundle(opts, progress, cancel, child)
    finally:
        if child is not None:
            child.discard()


def _bundle(
    opts: BundleOptions, progress: ProgressCallback | None, cancel: CancelToken | None, child: ChildProcess
) -> BundleResult:
    st = _State(opts, progress, cancel)
    version = parse_semver(opts.version)
    model_path = opts.model if opts.model is not None else resource_path(*SAMPLE_MODEL)
    loc = locate_model(model_path, opts.data_dir)
    name = check_bundle_name(opts.name if opts.name is not None else default_name(loc.model))
    epoch = opts.source_date_epoch if opts.source_date_epoch is not None else source_date_epoch()
    version_model = encode_model_version(version) if opts.set_model_version else None
    if version_model is not None and (version.prerelease or version.build):
        st.findings.append(codes.MODEL_VERSION_TAGS.finding("model_version", model_version=version_model,
                                                            version=str(version)))
    # Metadata and the signing key are checked before any work: a typo must not cost a 2 GB merge.
    st.about = opts.about  # normalized by validated()
    if opts.sign_key is not None:
        from .signing import read_signing_key

        st.key = read_signing_key(opts.sign_key, opts.sign_key_password_env, certificate=opts.sign_certificate,
                                  chain=list(opts.sign_chain))
        if st.key.warning:
            st.findings.append(codes.SIGNING_KEY_READABLE.finding("sign_key", warning=st.key.warning))
    if opts.sign_sigstore:
        from .signing import prepare_sigstore

        st.sigstore = prepare_sigstore(opts.sigstore_identity_token_env)
    # Nothing a bundle writes (a .zip, its work folder) is ever read as a model, so it may go into the model's own
    # folder (`bundle . -o dist`, `bundle model.onnx -o .`): only the files it reads are protected.
    refuse_inside_inputs(Path(opts.out_dir), _read_files(opts, loc))  # before the folder is created
    with output_folder(Path(opts.out_dir)) as out_dir:
        return _pipeline(st, loc, name, version, version_model, epoch, out_dir, child)


def _pipeline(
    st: _State, loc: Any, name: str, version: Any, version_model: int | None, epoch: int | None, out_dir: Path,
    child: ChildProcess,
) -> BundleResult:
    opts, progress, cancel = st.opts, st.progress, st.cancel
    zip_path = out_dir / (opts.zip_name or bundle_file_name(name, version))
    check_output_path(zip_path, _read_files(opts, loc), overwrite=opts.force)  # fail fast, before any work
    previous: dict[str, Any] | None = None
    if opts.previous is not None:
        from .verify import read_bundle_manifest

        previous = read_bundle_manifest(opts.previous, cancel=cancel)

    # 1-2. inspect + validate. The onnx checker (a child process) runs in the background while the merge
    # streams; its verdict is awaited before anything is smoke-run or published. For a model file up to
    # SHARED_CHILD_BYTES it runs in the smoke child, before the smoke job: one process and one import of onnx and
    # onnxruntime instead of two (issue 28 §2; for the sample that was most of the time). A larger file, which the
    # checker parses whole, gets a child of its own, so the smoke child never holds that parse.
    report(progress, "inspect", 0, 1, f"reading {loc.model.name}", unit=STEPS)
    val = validate_model(
        loc.model,
        opts.data_dir,
        target_ort=opts.target_ort,
        run_checker=False,
        progress=_until_checker(progress),
        cancel=cancel,
    )
    report(progress, "inspect", 1, 1, "done", unit=STEPS)
    if val.inspection.model is None:
        raise InputError(
            f"{loc.model.name} is an ORT-format model; bundles are built from the .onnx model",
            "Give the original .onnx (use --ort-format to add an .ort variant).",
            code="MODEL_IS_ORT",
        )
    _gate(val, opts)
    if opts.prove_ort:  # the wheels and environments before any work: no network or no wheel fails fast
        st.prove_releases = _prepare_prove(st, val)
    if st.about is not None and st.about.labels is not None and not opts.allow_unmatched_labels:
        check_labels(st.about.labels, interface_of(val.inspection.model)[1])
    check_output_path(zip_path, [*_read_files(opts, loc), *source_files_of(val)], overwrite=opts.force)

    shared = child if _file_size(loc.model) <= SHARED_CHILD_BYTES else None

    def full_check(stop: CancelToken) -> CheckerRun:  # reads the model file in a child, never the skeleton
        return run_checker_child(val.inspection, cancel=stop, child=shared)

    checker = _Background(full_check, cancel, "onnxpack-checker")
    try:
        with _work_dir(out_dir, zip_path.name) as work:
            return _build(st, val, checker, loc, name, version, version_model, epoch, zip_path, previous, work,
                          child if opts.run_smoke else None)
    finally:
        checker.stop()


def _read_files(opts: BundleOptions, loc: Any) -> list[Path]:
    """The files a bundle run reads besides the external data: the model, the previous release, the signing key."""
    return [loc.model, *(p for p in (opts.previous, opts.sign_key, opts.sign_certificate) if p is not None)]


def _gate(val: Validation, opts: BundleOptions) -> list[Finding]:
    """The validation findings that go into the manifest; raise when any is an error."""
    findings, errors = val.bundle_gate(opts.fix_ir)
    if errors:
        listing = "; ".join(f"{f.code}: {f.message}" for f in errors[:3])
        more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
        listed = [{"code": f.code, "message": f.message, "params": f.message_params()} for f in errors[:3]]
        raise codes.BUNDLE_FINDINGS.error(listing=listing + more, hint=errors[0].hint or None, findings=listed,
                                          more=max(0, len(errors) - 3))
    return findings


def source_files_of(val: Validation) -> list[Path]:
    """The external-data files a validated model reads (the model file itself not included), sorted."""
    table = val.inspection.external
    files: set[Path] = set()
    if table is not None:
        files.update(r.path for r in table.external_refs if r.path is not None)
    return sorted(files)


def _build(
    st: _State,
    val: Validation,
    checker: _Background[CheckerRun],
    loc: Any,
    name: str,
    version: Any,
    version_model: int | None,
    epoch: int | None,
    zip_path: Path,
    previous: dict[str, Any] | None,
    work: Path,
    child: ChildProcess | None,
) -> BundleResult:
    opts, progress, cancel = st.opts, st.progress, st.cancel
    source = _apply_fixes(st, val, version_model)
    model = source.model
    check_cancel(cancel)
    data_name = f"{name}.onnx.data"
    # The skeleton and ranges validated above: the model is not read again (the plan owns the skeleton from here).
    plan = plan_merge(source, layout=opts.layout, data_location=data_name, cancel=cancel)
    # The smoke run and the proof read the merged model where it ships: in place in its stored ZIP entry. A
    # temporary copy (the same bytes, teed) is written only when that is impossible: deflated, the external layout,
    # or the ORT converter, which needs a file of its own.
    in_place = opts.run_smoke and plan.layout == "single" and not opts.compress and not opts.ort_format
    need_copy = opts.ort_format or (opts.run_smoke and not in_place) or bool(opts.prove_ort)
    if opts.ort_format and not plan.fits_single_file:
        raise codes.ORT_FORMAT_TOO_LARGE.error()
    check_free_space(zip_path.parent, plan.total_size * (2 if need_copy else 1) + (1 << 20))
    model_entry = f"{name}.onnx"
    sources = [loc.model, *source_files_of(val)]
    st.source_stats = {p: s for p in sources if (s := _file_stat(p)) is not None}
    streamed = read_in_order(plan.read_order) & set(sources)  # hashed from the merge's own reads
    hasher = _Background(_hash_sources([p for p in sources if p not in streamed]), cancel, "onnxpack-provenance")
    streamed_hashes: dict[Path, tuple[int, str]] = {}
    source_digests: dict[RangeKey, str] = {}
    copy_dir = work / "merged"
    copy_dir.mkdir()
    # The smoke child (started by build_bundle) has imported onnxruntime by the time the model is written.
    try:
        with (
            atomic_file(zip_path, overwrite=opts.force) as f,
            DeterministicZip(f, epoch=epoch, compress=opts.compress) as z,
        ):
            # 3. merge, streamed into the ZIP (and teed into the work copy when it will be run)
            report(progress, "merge", 0, plan.total_size)
            with contextlib.ExitStack() as stack:
                reader = stack.enter_context(plan.open_reader())
                seq = stack.enter_context(SequentialHasher(reader, streamed, cancel))
                reader.observer = seq
                if opts.run_smoke:  # the source side of the equality proof, from the merge's own reads
                    reader.tensor_observer = stack.enter_context(TensorHasher())
                tee = stack.enter_context(open(copy_dir / model_entry, "xb")) if need_copy else None
                if plan.layout == "single":
                    with z.entry(model_entry, plan.model_size, tee=tee, cancel=cancel) as sink:
                        plan.write_single(sink, progress=progress, cancel=cancel, reader=reader)
                else:
                    data_tee = stack.enter_context(open(copy_dir / data_name, "xb")) if need_copy else None
                    structure = io.BytesIO()
                    with z.entry(data_name, plan.data_size, tee=data_tee, cancel=cancel) as sink:
                        plan.write_external(structure, sink, progress=progress, cancel=cancel, reader=reader)
                    with z.entry(model_entry, plan.model_size, tee=tee, cancel=cancel) as sink:
                        sink.write(structure.getbuffer())
                streamed_hashes = seq.finish()  # reads the tails after the last tensors
                if isinstance(reader.tensor_observer, TensorHasher):
                    source_digests = reader.tensor_observer.finish()
            report(progress, "validate", VALIDATE_STEPS - 1, VALIDATE_STEPS, "waiting for the onnx checker",
                   unit=STEPS)  # fmt: skip
            apply_checker(val, checker.join())
            st.findings = _gate(val, opts) + st.findings
            report(progress, "validate", VALIDATE_STEPS, VALIDATE_STEPS, "done", unit=STEPS)
            # 4. smoke run of the merged copy; meanwhile the proof that it is the source model, bit for bit
            smoke_doc: dict[str, Any] | None = None
            equal: dict[str, Any] | None = None
            refs: dict[str, bytes] = {}
            if opts.run_smoke:
                merged, window = copy_dir / model_entry, None
                if in_place:
                    f.flush()  # the entry's bytes are read back from the ZIP file while it is still being written
                    merged = pending_path(f)
                    offset = z.records[-1].data_offset
                    if z.records[-1].name != model_entry or offset is None:
                        raise InternalError("Internal error: the model entry is not stored", "Please report this bug.",
                                            code="INTERNAL")
                    window = (offset, plan.model_size)

                def prove(stop: CancelToken) -> WeightsProof:
                    return prove_same_model(plan.model, plan.table, source_digests, merged, copy_dir, stop, window)

                proof = _Background(prove, cancel, "onnxpack-proof")
                try:
                    compare = opts.compare_outputs
                    if compare is None:
                        compare = plan.total_size <= COMPARE_AUTO_BYTES
                    converted = st.retarget is not None and st.retarget.opset_method == "version_converter"
                    try:  # a converted model is never shipped unproven: its outputs are compared, whatever its size
                        smoke_doc, outputs_equal, refs = _smoke(st, loc, merged, window, model_entry, copy_dir, work,
                                                                compare or converted, child)
                    except RuntimeFailure as e:
                        if not (converted and e.code == "MERGE_NOT_EQUAL"):
                            raise
                        raise codes.RETARGET_NOT_EQUAL.error(
                            version=opts.target_ort, model=loc.model.name, detail=e.message.split(": ", 1)[-1],
                            hint=st.retarget.hint or None,
                        ) from None
                    if proof.running:
                        report(progress, "smoke", 1, 1, "comparing the tensor hashes", unit=STEPS)
                    weights = proof.join()
                    report(progress, "smoke", 1, 1, "done", unit=STEPS)
                finally:
                    proof.stop()
                equal = _equality(loc, model_entry, weights, outputs_equal)
                smoke_doc["equal"] = equal
            if opts.prove_ort:  # 4b. the bundled model on each named ONNX Runtime release
                st.prove = _prove(st, copy_dir / model_entry, model, smoke_doc)
            # 5. ORT-format variant
            ort_doc = None
            if opts.ort_format:
                ort_doc = _ort_variant(st, copy_dir / model_entry, name, work, z)
            for path, data in sorted(refs.items()):
                z.write_bytes(path, data)
            provenance_hashes = {**hasher.join(), **streamed_hashes}
            late = [p for p in sources if p not in provenance_hashes]  # read out of order after all
            if late:
                provenance_hashes.update(_hash_sources(late)(cancel or CancelToken()))
                check_cancel(cancel)
            manifest = _manifest(
                st,
                val,
                model,
                plan,
                name,
                version,
                epoch,
                z,
                provenance_hashes,
                sources,
                smoke_doc,
                ort_doc,
                previous,
                loc,
            )
            st.check_sources_unchanged()  # the hashes above describe what was read only if nothing moved
            readme = receiver_readme(manifest).encode("utf-8")
            report(progress, "zip", 0, 2, "writing README.txt and manifest.json", unit=STEPS)
            check_cancel(cancel)
            readme_rec = z.write_bytes("README.txt", readme)
            manifest["files"].append(
                {"path": readme_rec.name, "role": "readme", "size": readme_rec.size, "sha256": readme_rec.sha256}
            )
            sums = z.write_bytes(CHECKSUMS_NAME, sha256sums(manifest["files"]))  # `sha256sum -c`, without onnxpack
            manifest["files"].append(
                {"path": sums.name, "role": CHECKSUMS_ROLE, "size": sums.size, "sha256": sums.sha256}
            )
            manifest["files"].sort(key=lambda e: e["path"])
            problems = schema_errors(manifest)
            if problems:  # a bug in onnxpack, never the user's fault
                raise InternalError(
                    "Internal error: the manifest does not match its schema: " + "; ".join(problems[:3]),
                    "Please report this bug.",
                    code="INTERNAL",
                )
            manifest_rec = z.write_bytes(MANIFEST_NAME, dumps_manifest(manifest))
            sig_rec = None
            if st.key is not None or st.sigstore is not None:  # last member: it signs every other one, manifest too
                digests = {e["path"]: e["sha256"] for e in manifest["files"]}
                digests[manifest_rec.name] = manifest_rec.sha256
                from .signing import SIGNATURE_NAME, sign_digests, sign_digests_sigstore

                signature = (sign_digests(name, digests, st.key, opts.sign_key_password_env) if st.key is not None
                             else sign_digests_sigstore(name, digests, st.sigstore))  # type: ignore[arg-type]
                sig_rec = z.write_bytes(SIGNATURE_NAME, signature)
            report(progress, "zip", 2, 2, "done", unit=STEPS)
            check_cancel(cancel)  # last chance: the ZIP is renamed into place only after this
    except InputError:
        if not zip_path.parent.is_dir():  # the output folder was removed under us: not a problem of the input
            raise OutputError(f"Cannot write {zip_path}: the output folder was removed while the bundle was made; "
                              "nothing was written", "Keep the output folder in place until the bundle is done, then "
                              "run it again.", code="OUTPUT_WRITE") from None
        raise
    finally:
        hasher.stop()
        if child is not None:
            child.discard()
    # The manifest cannot list itself; the result (what the user is told was written) does.
    files = [dict(e) for e in manifest["files"]]
    files.append({"path": manifest_rec.name, "role": "manifest", "size": manifest_rec.size,
                  "sha256": manifest_rec.sha256})
    if sig_rec is not None:
        files.append({"path": sig_rec.name, "role": "signature", "size": sig_rec.size, "sha256": sig_rec.sha256})
    return BundleResult(
        zip_path, manifest, files, smoke_doc, equal, manifest["release"], st.findings, zip_path.stat().st_size
    )


def _smoke(
    st: _State,
    loc: Any,
    merged: Path,
    window: Window | None,
    entry: str,
    data_dir: Path,
    work: Path,
    compare: bool,
    child: ChildProcess | None,
) -> tuple[dict[str, Any], list[dict[str, Any]] | None, dict[str, bytes]]:
    """Smoke-run the merged model (``window`` of ``merged``: its ZIP entry ``entry`` in place; else the copy);
    with ``compare`` also the original, requiring bitwise-equal outputs.

    Returns the manifest's smoke record (without ``equal``), the per-output comparison (None without
    ``compare``), and extra bundle members (the reference outputs, and the user's input files so that
    ``verify --smoke`` can repeat the run).
    """
    from ..runtime.smoke import SmokeOptions, compare_models, smoke_test

    options = st.opts.smoke if st.opts.smoke is not None else SmokeOptions()
    saved = work / "outputs"
    rows: list[dict[str, Any]] | None = None
    if compare:
        res = compare_models(
            loc.model,
            merged,
            data_dir=loc.data_dir,
            other_data_dir=data_dir,
            options=options,
            save_outputs_to=saved,
            progress=st.progress,
            cancel=st.cancel,
            other_window=window,
            other_name=entry,
            child=child,
        )
        run, findings = res.original, res.findings
    else:
        run = smoke_test(merged, data_dir, options=options, save_outputs_to=saved, progress=st.progress,
                         cancel=st.cancel, window=window, name=entry, child=child)
        findings = run.findings
    if not run.ok:
        why = run.error or "the smoke run failed"
        errs = _errors(run.findings) or [Finding.error("SMOKE_FAILED", why, detail=why)]
        raise _refuse(
            f"The smoke run of {loc.model.name} failed: {errs[0].message}",
            errs[0].hint or "Give the sizes/inputs the model needs with --dim/--input, or pass --no-smoke.",
            errs[0].code,
            errs[0].message_params(),
        )
    if compare:
        if not res.bitwise_equal:
            st.check_sources_unchanged()  # a source that changed under us explains it, and is no bug of ours
            bad = [r for r in res.outputs if not r["bitwise_equal"]]
            detail = ", ".join(f"{r['name']} (max abs diff {r['max_abs']})" for r in bad) or "no outputs to compare"
            raise RuntimeFailure(
                f"The merged model does not give bitwise the same outputs as {loc.model.name}: {detail}",
                "This is a bug in onnxpack's merge; please report it. Nothing was written.",
                code="MERGE_NOT_EQUAL",
            )
        rows = [{"name": r["name"], "bitwise_equal": r["bitwise_equal"]} for r in res.outputs]
    st.findings += [f for f in findings if f.severity is not Severity.INFO or f.code.startswith("SMOKE")]
    extra: dict[str, bytes] = {}
    recipe = json_copy(run.recipe)
    for i, (_inp, entry) in enumerate(sorted(recipe.get("inputs", {}).items())):
        if isinstance(entry, dict) and entry.get("source") == "file":
            src = Path(entry["file"])
            member = f"smoke/inputs/{i:02d}{''.join(src.suffixes[-1:]).lower() or '.bin'}"
            extra[member] = src.read_bytes()
            entry["file"] = member
    outputs = []
    ref_total = sum(Path(p).stat().st_size for p in run.saved_outputs.values())
    for o in run.outputs:
        ref = None
        saved_path = run.saved_outputs.get(o["name"])
        if saved_path is not None and ref_total <= MAX_REFERENCE_BYTES:
            ref = f"smoke/outputs/{Path(saved_path).name}"
            extra[ref] = Path(saved_path).read_bytes()
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
    smoke_doc = {
        "ok": True,
        "ort_version": run.ort_version,
        "provider": run.provider,
        "outputs": outputs,
        "recipe": recipe,
    }
    return smoke_doc, rows, extra


def _equality(loc: Any, entry: str, weights: WeightsProof, outputs: list[dict[str, Any]] | None) -> dict[str, Any]:
    """The manifest's equality record: which proofs were made and what they cover."""
    methods = [METHOD] + (["outputs"] if outputs is not None else [])
    return {
        "ok": True,
        "bitwise": True,
        "methods": methods,
        "compared": f"{loc.model.name} (original) vs the bundled {entry}",
        "weights": weights.to_dict(),
        "outputs": outputs or [],
    }


def json_copy(d: dict[str, Any]) -> dict[str, Any]:
    import json

    out = json.loads(json.dumps(d))
    assert isinstance(out, dict)
    return out


def _ort_variant(st: _State, merged: Path, name: str, work: Path, z: DeterministicZip) -> dict[str, Any]:
    """Convert the merged copy with onnxruntime's converter, check it against the .onnx, add it to the ZIP."""
    from ..runtime.ortformat import ORT_NONDETERMINISM, convert_to_ort
    from ..runtime.smoke import SmokeOptions

    options = st.opts.smoke if st.opts.smoke is not None else SmokeOptions()
    conv = convert_to_ort(merged, work / "ort", options=options, progress=st.progress, cancel=st.cancel)
    if not conv.ok:
        errs = _errors(conv.findings)
        detail = errs[0].message if errs else "the .ort model's outputs differ from the .onnx model's"
        raise codes.ORT_FORMAT_MISMATCH.error(detail=detail)
    entry = f"{name}.ort"
    with open(conv.ort_model, "rb") as f:
        z.write_stream(entry, conv.ort_model.stat().st_size, f.read, cancel=st.cancel, stage="ort")
    config = None
    if conv.config is not None:
        config = f"{name}.required_operators.config"
        z.write_bytes(config, conv.config.read_bytes())
    st.findings += [f for f in conv.findings if f.severity is Severity.WARNING]
    return {
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


def _manifest(
    st: _State,
    val: Validation,
    model: onnx.ModelProto,
    plan: Any,
    name: str,
    version: Any,
    epoch: int | None,
    z: DeterministicZip,
    hashes: dict[Path, tuple[int, str]],
    sources: list[Path],
    smoke_doc: dict[str, Any] | None,
    ort_doc: dict[str, Any] | None,
    previous: dict[str, Any] | None,
    loc: Any,
) -> dict[str, Any]:
    """The manifest (core/release/manifest_build.py) plus the release diff against ``previous``."""
    opts = st.opts
    manifest = assemble_manifest(
        val=val, model=model, layout=plan.layout, align=plan.align if plan.layout == "external" else None, name=name,
        version=str(version), epoch=epoch, records=z.records, hashes=hashes, sources=sources, model_path=loc.model,
        data_dir=loc.data_dir, smoke=smoke_doc, ort_format=ort_doc, findings=st.findings, fixes=st.fixes,
        target_ort=opts.target_ort,
    )
    if previous is not None:
        diff: ReleaseDiff = diff_manifests(previous, manifest, source=Path(opts.previous or "").name)
        st.findings += check_new_version(version, diff, force=opts.allow_version_not_greater)
        if previous["model"]["name"] != name:
            was = previous["model"]["name"]
            st.findings.append(codes.RELEASE_NAME_CHANGED.finding("name", previous=was, name=name))
        manifest["release"] = diff.to_dict()
        manifest["findings"] = [f.to_dict() for f in st.findings]
    if st.about is not None:
        manifest["about"] = st.about.to_dict()
    if st.prove is not None:
        manifest["prove_ort"] = st.prove.to_dict()
    if st.key is not None or st.sigstore is not None:
        manifest["signature"] = signature_section(st.key or st.sigstore)
    return manifest


def signature_section(key: KeyInfo | SigstoreSigner | None) -> dict[str, Any]:
    """The manifest's ``signature``: how the bundle is signed and by which key (the signature is model.sig); a
    Sigstore signer's identity is only known once it has logged in, so it is in model.sig, not here."""
    import importlib.metadata

    from .signing import SIGNATURE_NAME, SigstoreSigner

    assert key is not None
    doc: dict[str, Any] = {"method": key.method, "file": SIGNATURE_NAME,
                           "library": f"model-signing {importlib.metadata.version('model-signing')}",
                           "covers": "every member of the archive except the signature itself"}  # fmt: skip
    if isinstance(key, SigstoreSigner):
        return doc
    doc["public_key_sha256"] = key.public_key_sha256
    if key.certificate is not None:
        doc.update(certificate_sha256=key.certificate_sha256, certificate_subject=key.subject)
    return doc
