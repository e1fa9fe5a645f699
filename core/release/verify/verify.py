"""Verify a release bundle: archive safety, manifest schema, every file's size and SHA-256, optional re-run.

Order of work (security.md rules 7 and 8): the archive structure is judged first, without reading
any member (:mod:`core.zipcheck`); only a structurally clean archive has its manifest read (size
capped, strict JSON, schema-checked) and its members hashed. Every extra, missing and mismatched file
is reported, order-independently. ``smoke=True`` re-runs the recorded recipe on the model as it is stored in the
archive (a stored single-file model is read in place, after its SHA-256 matched; the archive must not change
until the run ends), or else on the model extracted into a temporary folder of its own (removed afterwards),
and compares the outputs' digests: exactly with
the same ONNX Runtime version; with another version, numerically against the reference outputs
stored in the bundle, within a reported tolerance.

The steps live in :mod:`.verify_manifest` (the manifest and the members), :mod:`.verify_signed` (``model.sig``),
:mod:`.verify_recipe` (the recorded recipe, bounded) and :mod:`.verify_smoke` (the re-run); this module runs them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from ... import classcodes
from ...child.childproc import ChildProcess
from ...model.modelfile import is_torch_member, refuse_non_bundle, refuse_non_previous
from ...progress import CancelToken, ProgressCallback, check_cancel
from .. import codes
from ..manifest import MANIFEST_NAME, MAX_MANIFEST_BYTES, RELEASE_SCHEMA, model_views
from ..zipcheck import ArchiveScan, scan_archive
from .verify_manifest import SMOKE_ROLES, Extraction, ToHash, check_listing, check_sums, hash_members, open_bundle
from .verify_manifest import read_manifest as _read_manifest
from .verify_recipe import judge_recipe, recipe_files, recorded_recipe
from .verify_report import VERIFY_SCHEMA, FileStatus, VerifyReport
from .verify_signed import TrustedSigners, check_signature, compare_signed, signature_declared
from .verify_smoke import InPlace, Rerun, identity, in_place_model
from .verify_smoke import rerun_smoke as _rerun_smoke

__all__ = [
    "VERIFY_SCHEMA",
    "FileStatus",
    "VerifyReport",
    "read_bundle_manifest",
    "verify_bundle",
]


def verify_bundle(
    path: Path | str,
    *,
    smoke: bool = False,
    key: Path | str | None = None,
    trust: list[Path] | None = None,
    sigstore: tuple[str, str] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    child: ChildProcess | None = None,
) -> VerifyReport:
    """Check ``path`` (a NAME-VERSION.zip made by ``onnxpack bundle``); see the module docstring.

    With ``key`` (the publisher's PEM public key) or ``trust`` (the root/CA certificates trusted for certificate
    signing) the signature ``model.sig`` is checked right after the archive's safety checks and before anything
    else is trusted; it must sign exactly the archive's other members. ``child``: a smoke child started earlier
    (the command line's, :func:`core.runtime.smoke.start_child`), adopted for ``smoke`` and stopped before this
    returns."""
    path = Path(path)
    try:
        f, size = open_bundle(path)
    except BaseException:
        if child is not None:
            child.discard()
        raise
    run = _Verification(path, f, smoke, TrustedSigners(key, tuple(trust or ()), sigstore), progress, cancel, child)
    try:
        run.run(size)
        return run.rep
    finally:
        f.close()
        run.clean_up()


@dataclass
class _Verification:
    """One run of :func:`verify_bundle`: the open bundle, what was asked, and what the run holds until it ends (the
    temporary folder members are extracted to, the smoke run's child process)."""

    path: Path
    f: BinaryIO
    smoke: bool
    signers: TrustedSigners
    progress: ProgressCallback | None
    cancel: CancelToken | None
    child: ChildProcess | None = None  # the smoke run's (given, or started when the bundle is sound so far)
    rep: VerifyReport = field(init=False)
    tmp: Path | None = None

    def __post_init__(self) -> None:
        self.rep = VerifyReport(self.path)

    def clean_up(self) -> None:
        if self.child is not None:
            self.child.discard()
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def run(self, size: int) -> None:
        scan = self._scan(size)
        if scan is None:
            return  # never read members of a structurally unsafe archive
        check_cancel(self.cancel)
        signed = check_signature(self.f, scan, self.signers, self.rep)
        if self.signers.checking and signed is None:
            return  # an invalid or missing signature: nothing in the archive can be trusted
        doc = _read_manifest(self.f, scan, self.rep, signed.actual if signed is not None else None)
        self.rep.manifest = doc
        signature_declared(doc, scan, self.rep)
        if doc is None:
            return
        to_hash = check_listing(doc, scan, self.rep)
        views = model_views(doc)  # each model of a release as a one-model manifest (schema 1: the manifest itself)
        in_place = {v["model"]["entry"]: in_place_model(v, to_hash) for v in views} if self.smoke else {}
        # the recipe's input files are extracted (and their headers judged) by plain verify too
        inputs = [{n: m for n, m in recipe_files(recorded_recipe(v)).items()
                   if m in to_hash and to_hash[m][0].role == "smoke-input"} for v in views]  # fmt: skip
        placed = {e for e in in_place.values() if e is not None}
        extraction = self._prepare(to_hash, any(inputs), placed)
        hash_members(self.f, to_hash, self.rep, extraction, self.progress, self.cancel)
        check_sums(self.f, doc, to_hash, self.rep)
        if signed is not None:
            compare_signed(self.f, signed, scan, to_hash, self.rep)
        for view, files in zip(views, inputs, strict=True):
            if self.rep.ok and recorded_recipe(view) is not None:
                judge_recipe(view, self.path, to_hash, self.tmp, files, self.rep)
        if self.smoke:
            runs = [self._rerun(v, to_hash, in_place.get(v["model"]["entry"])) for v in views]
            if doc.get("schema") == RELEASE_SCHEMA:
                self.rep.smoke = _release_smoke(views, runs)

    def _scan(self, size: int) -> ArchiveScan | None:
        """The archive's structure (None when it is not safe to read)."""
        scan = scan_archive(self.f, size)
        if any(p.code == codes.ZIP_NOT_ZIP.name for p in scan.problems):
            refuse_non_bundle(self.path)  # a model or a manifest.json given instead of a bundle: a usage error
        elif MANIFEST_NAME not in scan.by_name() and any(is_torch_member(m) for m in scan.by_name()):
            refuse_non_bundle(self.path)  # a PyTorch checkpoint (a ZIP holding archive/data.pkl): a usage error too
        self.rep.archive = {"size": size, "entries": len(scan.members), "zip64": scan.zip64}
        self.rep.problems.extend(scan.problems)
        return None if scan.problems else scan

    def _prepare(self, to_hash: ToHash, has_inputs: bool, in_place: set[str]) -> Extraction:
        """Start the smoke run's child (it imports onnxruntime while the members are hashed) and make the folder
        the members are extracted to, when the bundle is sound so far; say what is extracted."""
        from ...atomic import check_free_space, make_temp_dir

        roles = SMOKE_ROLES if self.smoke else ("smoke-input",)
        if self.smoke and not self.rep.problems and self.child is None:
            from ...runtime.smoke import start_child

            self.child = start_child()
        if (self.smoke or has_inputs) and not self.rep.problems:
            self.tmp = make_temp_dir("verify")
            check_free_space(self.tmp, sum(m.size for name, (fs, m) in to_hash.items()
                                           if fs.role in roles and name not in in_place))  # fmt: skip
        return Extraction(self.tmp, roles, frozenset(in_place))

    def _rerun(self, doc: dict[str, Any], to_hash: ToHash, in_place: str | None) -> dict[str, Any] | None:
        if self.tmp is None or not self.rep.ok:
            if not any(p.code == codes.SMOKE_SKIPPED.name for p in self.rep.problems):
                self.rep.problems.append(codes.SMOKE_SKIPPED.finding())
            return None
        extracted = {name for name, (fs, _m) in to_hash.items() if fs.role in SMOKE_ROLES}
        at = None
        if in_place is not None:
            member = to_hash[in_place][1]
            at = InPlace(self.path, (member.data_offset, member.size), identity(os.fstat(self.f.fileno())))
        child, self.child = self.child, None  # one smoke run per child: the next model's run starts its own
        rerun = Rerun(doc, self.tmp, extracted, self.progress, self.cancel, at, child)
        try:
            self.rep.smoke = _rerun_smoke(rerun, self.rep.problems)
        finally:
            if child is not None:
                child.discard()
        return self.rep.smoke


def _release_smoke(views: list[dict[str, Any]], runs: list[dict[str, Any] | None]) -> dict[str, Any]:
    """The report's smoke section of a release: each model's re-run; ``ok`` when every one ran and passed."""
    models = [{"model": v["model"]["entry"], **(r or {"ran": False, "ok": False})}
              for v, r in zip(views, runs, strict=True)]
    first = next((r for r in runs if r is not None), None) or {}
    return {**first, "ran": all(m["ran"] for m in models), "ok": all(m["ok"] for m in models), "models": models}


def read_bundle_manifest(path: Path | str, *, cancel: CancelToken | None = None) -> dict[str, Any]:
    """The schema-valid manifest of a bundle ZIP, or of a ``manifest.json`` file (for ``--previous``).

    For a ZIP, the archive structure and the manifest are checked (the members are not hashed);
    any problem raises InputError naming it.
    """
    path = Path(path)
    f, size = open_bundle(path)
    try:
        head = f.read(4)
        f.seek(0)
        if head != b"PK\x03\x04" and head != b"PK\x05\x06":
            refuse_non_previous(path)  # a model given as --previous: say what --previous takes
            if size > MAX_MANIFEST_BYTES:
                raise classcodes.INPUT.error(variant="not_bundle_or_manifest", path=str(path))
            from ..manifest import parse_manifest

            return parse_manifest(f.read(), path.name)
        rep = VerifyReport(path)
        scan = scan_archive(f, size)
        rep.problems.extend(scan.problems)
        doc = None if scan.problems else _read_manifest(f, scan, rep)
        check_cancel(cancel)
        if doc is None:
            first = rep.problems[0] if rep.problems else codes.MANIFEST_MISSING.finding(MANIFEST_NAME)
            raise classcodes.INPUT.error(variant="manifest_unreadable", file=path.name, message=first.message,
                                         repeats=first)
        return doc
    finally:
        with contextlib.suppress(OSError):
            f.close()
