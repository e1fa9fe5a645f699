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
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from .atomic import check_free_space, make_temp_dir
from .childproc import ChildProcess
from .errors import InputError
from .findings import Finding, Severity
from .manifest import MANIFEST_NAME, MANIFEST_SCHEMA, MAX_MANIFEST_BYTES, loads_strict, schema_errors
from .modelfile import refuse_non_bundle, refuse_non_previous, require_regular_file
from .progress import CancelToken, ProgressCallback, check_cancel, report
from .signing import MAX_SIGNATURE_BYTES, SIGNATURE_NAME, verify_signature
from .streamhash import HashWorker
from .zipcheck import ArchiveScan, Member, check_member_name, iter_member, scan_archive

__all__ = [
    "VERIFY_SCHEMA",
    "FileStatus",
    "VerifyReport",
    "read_bundle_manifest",
    "verify_bundle",
]

VERIFY_SCHEMA = "onnxpack.verify/1"
#: Roles extracted for a re-run of the smoke test.
_SMOKE_ROLES = ("model", "external-data", "smoke-input", "smoke-output")
#: Tolerance used when the recorded run came from another ONNX Runtime version.
CROSS_VERSION_ATOL = 1e-4
CROSS_VERSION_RTOL = 1e-3
_HINT_TAMPER = "The bundle was modified after it was built. Get it again from its publisher, or rebuild it."


def _problem(code: str, message: str, subject: str = "", hint: str = _HINT_TAMPER, **params: Any) -> Finding:
    return Finding.error(code, message, hint, subject, **params)


@dataclass
class FileStatus:
    """One file listed in the manifest or present in the archive, and what verification found."""

    path: str
    role: str | None
    size: int | None  # as listed in the manifest
    sha256: str | None  # as listed in the manifest
    actual_size: int | None = None
    actual_sha256: str | None = None
    status: str = "unchecked"  # ok | missing | extra | size-mismatch | hash-mismatch | damaged | unchecked

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "role": self.role,
            "size": self.size,
            "sha256": self.sha256,
            "actual_size": self.actual_size,
            "actual_sha256": self.actual_sha256,
            "status": self.status,
        }


@dataclass
class VerifyReport:
    """Outcome of :func:`verify_bundle`; ``ok`` when no error-level problem was found."""

    path: Path
    problems: list[Finding] = field(default_factory=list)
    manifest: dict[str, Any] | None = None
    files: list[FileStatus] = field(default_factory=list)
    archive: dict[str, Any] = field(default_factory=dict)
    smoke: dict[str, Any] | None = None
    #: "unsigned", "signed-not-checked" or "valid" (an invalid or missing signature is a problem instead).
    signature: dict[str, Any] = field(default_factory=lambda: {"status": "unsigned"})

    @property
    def ok(self) -> bool:
        return not any(p.severity is Severity.ERROR for p in self.problems)

    def to_dict(self) -> dict[str, Any]:
        model = (self.manifest or {}).get("model") or {}
        return {
            "schema": VERIFY_SCHEMA,
            "ok": self.ok,
            "bundle": str(self.path),
            "model": {"name": model.get("name"), "version": model.get("version")} if self.manifest else None,
            "archive": self.archive,
            "files": [f.to_dict() for f in self.files],
            "problems": [p.to_dict() for p in self.problems],
            "smoke": self.smoke,
            "signature": self.signature,
            "manifest": self.manifest,
        }


def _open_bundle(path: Path) -> tuple[BinaryIO, int]:
    st = require_regular_file(path, "Bundle", "Give the path of a NAME-VERSION.zip bundle.")
    try:
        f = open(path, "rb")  # noqa: SIM115  (closed by the caller)
    except OSError as e:
        raise InputError(f"Cannot open bundle {path}: {e.strerror}", "Check its permissions.") from None
    return f, st.st_size


def _read_manifest(
    f: BinaryIO, scan: ArchiveScan, report_: VerifyReport, digests: dict[str, str] | None = None
) -> dict[str, Any] | None:
    """The manifest, checked; with ``digests`` also records the SHA-256 of the bytes read (signature check)."""
    member = scan.by_name().get(MANIFEST_NAME)
    if member is None:
        report_.problems.append(
            _problem(
                "MANIFEST_MISSING",
                f"The archive has no {MANIFEST_NAME}",
                MANIFEST_NAME,
                "This is not an onnxpack bundle, or its manifest was removed.",
            )
        )
        return None
    if member.size > MAX_MANIFEST_BYTES:
        report_.problems.append(
            _problem(
                "MANIFEST_TOO_LARGE",
                f"{MANIFEST_NAME} declares {member.size} bytes (cap {MAX_MANIFEST_BYTES})",
                MANIFEST_NAME,
            )
        )
        return None
    try:
        data = b"".join(iter_member(f, member))
    except ValueError as e:
        report_.problems.append(_problem("ZIP_DAMAGED", f"{MANIFEST_NAME} cannot be read: {e}", MANIFEST_NAME))
        return None
    if digests is not None:
        digests[MANIFEST_NAME] = hashlib.sha256(data).hexdigest()
    try:
        doc = loads_strict(data)
    except InputError as e:
        report_.problems.append(_problem("MANIFEST_JSON", e.message, MANIFEST_NAME))
        return None
    if not isinstance(doc, dict) or doc.get("schema") != MANIFEST_SCHEMA:
        found = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
        report_.problems.append(
            _problem(
                "MANIFEST_SCHEMA",
                f"{MANIFEST_NAME} has schema {found!r}, expected {MANIFEST_SCHEMA!r}",
                MANIFEST_NAME,
                "This bundle was made by another tool or a newer onnxpack.",
            )
        )
        return None
    errors = schema_errors(doc)
    for err in errors[:20]:
        report_.problems.append(_problem("MANIFEST_SCHEMA", f"{MANIFEST_NAME}: {err}", MANIFEST_NAME))
    if len(errors) > 20:
        report_.problems.append(_problem("MANIFEST_SCHEMA", f"{MANIFEST_NAME}: {len(errors) - 20} more violations"))
    return doc if not errors else None


def _check_listing(doc: dict[str, Any], scan: ArchiveScan, rep: VerifyReport) -> dict[str, tuple[FileStatus, Member]]:
    """Match the manifest's file list with the archive (order-independent); return the files to hash."""
    members = scan.by_name()
    listed: dict[str, FileStatus] = {}
    folded: set[str] = set()
    for entry in doc["files"]:
        path = entry["path"]
        fs = FileStatus(path, entry["role"], entry["size"], entry["sha256"])
        if path == MANIFEST_NAME:
            rep.problems.append(_problem("MANIFEST_SELF", f"The manifest lists itself ({path!r})", path))
            continue
        why = check_member_name(path)
        if why is not None:
            rep.problems.append(
                _problem("MANIFEST_BAD_PATH", f"The manifest lists a path outside the bundle: {path!r} {why}", path)
            )
            continue
        key = path.casefold()
        if key in folded:
            rep.problems.append(_problem("MANIFEST_DUPLICATE", f"The manifest lists {path!r} twice", path))
            continue
        folded.add(key)
        listed[path] = fs
        rep.files.append(fs)
    to_hash: dict[str, tuple[FileStatus, Member]] = {}
    for path, fs in sorted(listed.items()):
        m = members.get(path)
        if m is None:
            fs.status = "missing"
            rep.problems.append(
                _problem("FILE_MISSING", f"{path} is listed in the manifest but not in the archive", path, path=path)
            )
        elif m.size != fs.size:
            fs.status, fs.actual_size = "size-mismatch", m.size
            rep.problems.append(_problem("FILE_SIZE", f"{path} has {m.size} bytes; the manifest says {fs.size}", path,
                                         path=path, size=m.size, listed=fs.size))  # fmt: skip
        else:
            to_hash[path] = (fs, m)
    for name in sorted(members):
        if name not in (MANIFEST_NAME, SIGNATURE_NAME) and name not in listed:
            fs = FileStatus(name, None, None, None, actual_size=members[name].size, status="extra")
            rep.files.append(fs)
            rep.problems.append(
                _problem("FILE_EXTRA", f"{name} is in the archive but not listed in the manifest", name, path=name)
            )
    _check_references(doc, listed, rep)
    return to_hash


def _check_references(doc: dict[str, Any], listed: dict[str, FileStatus], rep: VerifyReport) -> None:
    """The manifest's pointers (model entry, data file, ORT file, reference outputs) name listed files."""
    model = doc["model"]
    wanted: list[tuple[str | None, str]] = [(model["entry"], "model")]
    if model.get("data"):
        wanted.append((model["data"], "external-data"))
    if model.get("ort_entry"):
        wanted.append((model["ort_entry"], "ort-model"))
    smoke = doc.get("smoke") or {}
    for out in smoke.get("outputs", []):
        if out.get("reference"):
            wanted.append((out["reference"], "smoke-output"))
    for path, role in wanted:
        fs = listed.get(path or "")
        if fs is None or fs.role != role:
            rep.problems.append(
                _problem(
                    "MANIFEST_INCONSISTENT",
                    f"The manifest points to {path!r} as {role}, but lists no such file",
                    path or "",
                )
            )
    if model["layout"] == "external" and not model.get("data"):
        rep.problems.append(
            _problem("MANIFEST_INCONSISTENT", "The manifest says 'external' layout but names no data file")
        )


def _safe_target(root: Path, member: str) -> Path:
    target = (root / member).resolve()
    if not target.is_relative_to(root.resolve()):  # names were validated; this is belt and braces
        raise InputError(f"Member {member!r} would extract outside the temporary folder", _HINT_TAMPER)
    return target


def _hash_members(
    f: BinaryIO,
    to_hash: dict[str, tuple[FileStatus, Member]],
    rep: VerifyReport,
    extract_to: Path | None,
    progress: ProgressCallback | None,
    cancel: CancelToken | None,
    in_place: str | None = None,
) -> None:
    total = sum(m.size for _fs, m in to_hash.values())
    done = 0
    report(progress, "verify", 0, total)
    # SHA-256 on a second core while this one reads and checks the CRC-32 (both release the GIL).
    with HashWorker("onnxpack-verify-sha256") as worker:
        for path, (fs, m) in sorted(to_hash.items()):
            h = hashlib.sha256()
            out: BinaryIO | None = None
            if extract_to is not None and fs.role in _SMOKE_ROLES and path != in_place:
                target = _safe_target(extract_to, path)
                target.parent.mkdir(parents=True, exist_ok=True)
                out = open(target, "xb")  # noqa: SIM115
            damaged: str | None = None
            try:
                for chunk in iter_member(f, m, cancel):  # each chunk is a fresh bytes object
                    worker.update(h, chunk)
                    if out is not None:
                        out.write(chunk)
                    done += len(chunk)
                    report(progress, "verify", done, total)
            except ValueError as e:
                damaged = str(e)
            finally:
                worker.wait()
                if out is not None:
                    out.close()
            _judge(fs, m, h, damaged, rep, path)


def _judge(fs: FileStatus, m: Member, h: Any, damaged: str | None, rep: VerifyReport, path: str) -> None:
    """Record one member's size, digest and status."""
    fs.actual_size = m.size
    fs.actual_sha256 = h.hexdigest()
    if fs.actual_sha256 != fs.sha256:
        fs.status = "hash-mismatch"
        rep.problems.append(
            _problem("FILE_HASH", f"{path}: SHA-256 is {fs.actual_sha256}, the manifest says {fs.sha256}", path,
                     path=path, actual=fs.actual_sha256, listed=fs.sha256)
        )
    elif damaged is not None:
        fs.status = "damaged"
        rep.problems.append(_problem("ZIP_DAMAGED", f"{path} cannot be read intact: {damaged}", path))
    else:
        fs.status = "ok"


def verify_bundle(
    path: Path | str,
    *,
    smoke: bool = False,
    key: Path | str | None = None,
    trust: list[Path] | None = None,
    sigstore: tuple[str, str] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
) -> VerifyReport:
    """Check ``path`` (a NAME-VERSION.zip made by ``onnxpack bundle``); see the module docstring.

    With ``key`` (the publisher's PEM public key) or ``trust`` (the root/CA certificates trusted for certificate
    signing) the signature ``model.sig`` is checked right after the archive's safety checks and before anything
    else is trusted; it must sign exactly the archive's other members."""
    trust = list(trust or [])
    checking = key is not None or bool(trust) or sigstore is not None
    path = Path(path)
    rep = VerifyReport(path)
    f, size = _open_bundle(path)
    tmp: Path | None = None
    child: ChildProcess | None = None
    try:
        scan = scan_archive(f, size)
        if any(p.code == "ZIP_NOT_ZIP" for p in scan.problems):
            refuse_non_bundle(path)  # a model or a manifest.json given instead of a bundle: a usage error
        rep.archive = {"size": size, "entries": len(scan.members), "zip64": scan.zip64}
        rep.problems.extend(scan.problems)
        if scan.problems:
            return rep  # never read members of a structurally unsafe archive
        check_cancel(cancel)
        signed = _check_signature(f, scan, key, trust, sigstore, rep)
        if checking and signed is None:
            return rep  # an invalid or missing signature: nothing in the archive can be trusted
        doc = _read_manifest(f, scan, rep, signed.actual if signed is not None else None)
        if doc is None:
            _signature_declared(None, scan, rep)
            return rep
        rep.manifest = doc
        _signature_declared(doc, scan, rep)
        to_hash = _check_listing(doc, scan, rep)
        in_place = _in_place_model(doc, to_hash) if smoke else None
        if smoke and not rep.problems:
            from .smoke import start_child
            from .smoke_child import child_main

            child = start_child(child_main)  # imports onnxruntime while the members are hashed
            tmp = make_temp_dir("verify")
            check_free_space(tmp, sum(m.size for name, (fs, m) in to_hash.items()
                                      if fs.role in _SMOKE_ROLES and name != in_place))
        _hash_members(f, to_hash, rep, tmp, progress, cancel, in_place)
        if signed is not None:
            _compare_signed(f, signed, scan, to_hash, rep)
        if smoke:
            if tmp is None or not rep.ok:
                rep.problems.append(
                    Finding.warning(
                        "SMOKE_SKIPPED",
                        "The smoke run was skipped because the bundle failed verification",
                        "Fix the problems above first.",
                    )
                )
            else:
                extracted = {name for name, (fs, _m) in to_hash.items() if fs.role in _SMOKE_ROLES}
                window = None
                if in_place is not None:
                    member = to_hash[in_place][1]
                    window = (path, (member.data_offset, member.size), _identity(os.fstat(f.fileno())))
                rep.smoke = _rerun_smoke(doc, tmp, extracted, rep.problems, progress, cancel, window, child)
        return rep
    finally:
        f.close()
        if child is not None:
            child.discard()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


@dataclass
class _Signed:
    contents: Any  # core.signing.SignedContents
    actual: dict[str, str] = field(default_factory=dict)  # member -> SHA-256 computed here


def _check_signature(f: BinaryIO, scan: ArchiveScan, key: Path | str | None, trust: list[Path],
                     sigstore: tuple[str, str] | None, rep: VerifyReport) -> _Signed | None:  # fmt: skip
    """Read ``model.sig`` and, with a key or trusted certificates, check it cryptographically; record the status in
    ``rep.signature``."""
    member = scan.by_name().get(SIGNATURE_NAME)
    if member is None:
        if key is not None or trust or sigstore is not None:
            rep.problems.append(_problem("SIGNATURE_MISSING",
                                         f"The bundle has no {SIGNATURE_NAME}, so it is not signed "
                                         "(or its signature was removed)", SIGNATURE_NAME,
                                         "Ask the publisher for a signed bundle; without one, you cannot tell who "
                                         "made it.", variant="absent"))  # fmt: skip
        return None
    if key is None and not trust and sigstore is None:
        rep.signature = {"status": "signed-not-checked",
                         "hint": "Pass --key PUBLISHER.pub (or --trust CA.pem) to check the signature."}  # fmt: skip
        return None
    if member.size > MAX_SIGNATURE_BYTES:
        rep.problems.append(_problem("SIGNATURE_INVALID", f"{SIGNATURE_NAME} declares {member.size} bytes "
                                     f"(cap {MAX_SIGNATURE_BYTES})", SIGNATURE_NAME))  # fmt: skip
        return None
    try:
        data = b"".join(iter_member(f, member))
        contents = verify_signature(data, key, trust=trust, sigstore=sigstore)
    except ValueError as e:
        rep.problems.append(_problem("ZIP_DAMAGED", f"{SIGNATURE_NAME} cannot be read: {e}", SIGNATURE_NAME))
        return None
    except InputError as e:
        if e.code in ("SIGNATURE_INVALID", "SIGNATURE_UNSUPPORTED"):
            rep.problems.append(_problem(e.code, e.message, SIGNATURE_NAME, e.hint or _HINT_TAMPER))
            return None
        raise  # an unreadable public key, no model-signing: the user's input, not the bundle
    rep.signature = {"status": "checking", "method": contents.method, "public_key_sha256": contents.public_key_sha256,
                     "subject": contents.subject, "serialization": contents.serialization}  # fmt: skip
    return _Signed(contents)


def _signature_declared(doc: dict[str, Any] | None, scan: ArchiveScan, rep: VerifyReport) -> None:
    """A manifest that says the bundle is signed while model.sig is gone: the signature was stripped."""
    declared = (doc or {}).get("signature")
    if declared and SIGNATURE_NAME not in scan.by_name():
        rep.problems.append(_problem("SIGNATURE_MISSING",
                                     f"The manifest says the bundle is signed, but {SIGNATURE_NAME} is missing: "
                                     "the signature was removed", SIGNATURE_NAME, variant="stripped"))  # fmt: skip
    elif declared and rep.signature.get("public_key_sha256") not in (None, declared.get("public_key_sha256")):
        rep.problems.append(_problem("SIGNATURE_KEY", "The manifest names another signing key than the one that "
                                     "signed the bundle", SIGNATURE_NAME))  # fmt: skip


def _compare_signed(f: BinaryIO, signed: _Signed, scan: ArchiveScan, to_hash: dict[str, tuple[FileStatus, Member]],
                    rep: VerifyReport) -> None:  # fmt: skip
    """Every member but the signature must be signed with exactly its SHA-256, and nothing else may be signed."""
    for name, (fs, _m) in to_hash.items():
        if fs.actual_sha256 is not None:
            signed.actual[name] = fs.actual_sha256
    members = [n for n in scan.by_name() if n != SIGNATURE_NAME]
    expected = signed.contents.digests
    problems = []
    for name in sorted(members):
        actual = signed.actual.get(name)
        if actual is None and name in expected:  # not hashed above (listed with another size, or unlisted)
            h = hashlib.sha256()
            try:
                for chunk in iter_member(f, scan.by_name()[name]):
                    h.update(chunk)
                actual = h.hexdigest()
            except ValueError:
                actual = "unreadable"
        if name not in expected:
            problems.append(_problem("SIGNATURE_MISMATCH", f"{name} is not covered by the signature (added after "
                                     "signing)", name, path=name, variant="unsigned"))  # fmt: skip
        elif actual is not None and actual != expected[name]:
            problems.append(_problem("SIGNATURE_MISMATCH", f"{name} is not the file that was signed (SHA-256 "
                                     f"{actual}, signed {expected[name]})", name, path=name, variant="changed",
                                     actual=actual, signed=expected[name]))  # fmt: skip
    for name in sorted(set(expected) - set(members)):
        problems.append(_problem("SIGNATURE_MISMATCH", f"{name} was signed but is missing from the archive", name,
                                 path=name, variant="removed"))  # fmt: skip
    rep.problems[:0] = problems  # the signature's verdict comes first
    rep.signature["status"] = "invalid" if problems else "valid"


def _in_place_model(doc: dict[str, Any], to_hash: dict[str, tuple[FileStatus, Member]]) -> str | None:
    """The model entry when the smoke run can read it in place: one self-contained file, stored uncompressed."""
    entry = doc.get("model", {}).get("entry")
    found = to_hash.get(entry) if isinstance(entry, str) else None
    if found is None or doc["model"].get("layout") != "single" or found[1].method != 0 or found[0].role != "model":
        return None
    return str(entry)


def _identity(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _not_repeated(recorded: dict[str, Any]) -> dict[str, Any]:
    """The smoke section of a report whose recorded run could not be repeated."""
    return {"ran": False, "ok": False, "ort_version": None, "recorded_ort_version": recorded.get("ort_version"),
            "comparison": "none", "outputs": []}


def _rerun_smoke(
    doc: dict[str, Any],
    root: Path,
    members: set[str],
    problems: list[Finding],
    progress: ProgressCallback | None,
    cancel: CancelToken | None,
    in_place: tuple[Path, tuple[int, int], tuple[int, int, int, int]] | None = None,
    child: ChildProcess | None = None,
) -> dict[str, Any]:
    """Repeat the recorded smoke run on the extracted files (the model: in place in the archive when ``in_place``
    = (archive, its byte range, the archive's identity when it was hashed)) and compare with the recorded outputs."""
    from .smoke import SmokeOptions, SmokeResult, smoke_test

    entry = doc["model"]["entry"]

    def run(options: SmokeOptions, save_outputs_to: Path | None = None) -> SmokeResult:
        if in_place is None:
            return smoke_test(root / entry, options=options, save_outputs_to=save_outputs_to, progress=progress,
                              cancel=cancel, child=child)
        result = smoke_test(in_place[0], root, options=options, save_outputs_to=save_outputs_to, progress=progress,
                            cancel=cancel, window=in_place[1], name=entry, child=child)
        if _identity(os.stat(in_place[0])) != in_place[2]:
            raise InputError(f"{in_place[0].name} changed while its model was smoke-run",
                             "Make sure nothing writes the bundle while it is verified, and verify it again.",
                             code="BUNDLE_CHANGED")
        return result

    recorded = doc.get("smoke")
    if recorded is None:
        problems.append(
            Finding.warning(
                "SMOKE_NOT_RECORDED",
                "The bundle records no smoke run (built with --no-smoke); ran with default "
                "inputs, nothing to compare with",
                "Rebuild the bundle without --no-smoke to record one.",
            )
        )
        result = run(SmokeOptions())
        problems.extend(f for f in result.findings if f.severity is Severity.ERROR)
        return {
            "ran": True,
            "ok": result.ok,
            "ort_version": result.ort_version,
            "recorded_ort_version": None,
            "comparison": "none",
            "outputs": [],
            "run": result.to_dict(),
        }
    try:
        options = SmokeOptions.from_recipe(recorded["recipe"], base_dir=root, members=members)
    except InputError as e:  # an untrusted recipe: a problem of the bundle, not of the command line
        problems.append(_problem(e.code, e.message, doc["model"]["entry"], e.hint or _HINT_TAMPER))
        return _not_repeated(recorded)
    rerun_dir = root / ".rerun-outputs"
    try:
        result = run(options, rerun_dir)
    except InputError as e:  # the recipe's inputs cannot be used: the bundle's fault, reported as such
        if e.code == "BUNDLE_CHANGED":
            raise
        problems.append(_problem("SMOKE_FAILED", f"The recorded smoke recipe cannot be repeated: {e.message}",
                                 doc["model"]["entry"], _HINT_TAMPER, variant="recipe", detail=e.message))
        return _not_repeated(recorded)
    same_ort = result.ort_version == recorded["ort_version"]
    out: dict[str, Any] = {
        "ran": True,
        "ok": result.ok,
        "ort_version": result.ort_version,
        "recorded_ort_version": recorded["ort_version"],
        "comparison": "exact" if same_ort else "tolerance",
        "atol": None if same_ort else CROSS_VERSION_ATOL,
        "rtol": None if same_ort else CROSS_VERSION_RTOL,
        "outputs": [],
    }
    if not result.ok:
        errs = [f for f in result.findings if f.severity is Severity.ERROR]
        why = errs[0].message if errs else result.error or "unknown error"
        problems.append(
            _problem(
                "SMOKE_FAILED",
                "The recorded smoke run failed now: " + why,
                doc["model"]["entry"],
                "Check the ONNX Runtime installation; the model or recipe may need another runtime.",
                variant="now", detail=why,
            )
        )
        return out
    now = {o["name"]: o for o in result.outputs}
    for rec in recorded["outputs"]:
        name = rec["name"]
        cur = now.get(name)
        row: dict[str, Any] = {
            "name": name,
            "recorded_sha256": rec["sha256"],
            "sha256": cur["sha256"] if cur else None,
            "equal": False,
        }
        out["outputs"].append(row)
        if cur is None:
            problems.append(_problem("SMOKE_MISMATCH", f"Output {name} is missing from the re-run", name))
            continue
        row["equal"] = cur["sha256"] == rec["sha256"]
        if row["equal"]:
            continue
        if same_ort:
            problems.append(
                _problem(
                    "SMOKE_MISMATCH",
                    f"Output {name} differs from the recorded run (same ONNX Runtime "
                    f"{result.ort_version}): SHA-256 {cur['sha256']} vs {rec['sha256']}",
                    name,
                )
            )
            continue
        _compare_reference(root, rec, name, result.saved_outputs.get(name), row, problems)
    return out


def _compare_reference(
    root: Path, rec: dict[str, Any], name: str, saved: str | None, row: dict[str, Any], problems: list[Finding]
) -> None:
    """Another ORT version: compare numerically with the reference output stored in the bundle."""
    import numpy as np

    from .smoke_child import compare_values

    if not rec.get("reference") or saved is None:
        problems.append(
            _problem(
                "SMOKE_MISMATCH",
                f"Output {name} differs from the recorded run (another ONNX Runtime version) and "
                "the bundle holds no reference values to compare within a tolerance",
                name,
                "Re-run with the recorded ONNX Runtime version for an exact comparison.",
            )
        )
        return
    try:
        ref = np.load(root / rec["reference"], allow_pickle=False)
        cur = np.load(saved, allow_pickle=False)
    except (OSError, ValueError) as e:
        problems.append(_problem("SMOKE_MISMATCH", f"Output {name}: reference values unreadable ({e})", name))
        return
    cmp = compare_values(name, ref, cur, CROSS_VERSION_ATOL, CROSS_VERSION_RTOL)
    row.update(max_abs=cmp["max_abs"], max_rel=cmp["max_rel"], within_tolerance=cmp["within_tolerance"])
    if cmp["within_tolerance"]:
        problems.append(
            Finding.info(
                "SMOKE_WITHIN_TOLERANCE",
                f"Output {name} is within atol={CROSS_VERSION_ATOL:g}, "
                f"rtol={CROSS_VERSION_RTOL:g} of the recorded run (max abs diff {cmp['max_abs']}, max rel diff "
                f"{cmp['max_rel']}); digests differ because the ONNX Runtime version differs",
                "",
                name,
            )
        )
    else:
        detail = cmp["problem"] or f"max abs diff {cmp['max_abs']}, max rel diff {cmp['max_rel']}"
        problems.append(
            _problem(
                "SMOKE_MISMATCH",
                f"Output {name} differs from the recorded run beyond atol={CROSS_VERSION_ATOL:g}, "
                f"rtol={CROSS_VERSION_RTOL:g}: {detail}",
                name,
            )
        )


def read_bundle_manifest(path: Path | str, *, cancel: CancelToken | None = None) -> dict[str, Any]:
    """The schema-valid manifest of a bundle ZIP, or of a ``manifest.json`` file (for ``--previous``).

    For a ZIP, the archive structure and the manifest are checked (the members are not hashed);
    any problem raises InputError naming it.
    """
    path = Path(path)
    f, size = _open_bundle(path)
    try:
        head = f.read(4)
        f.seek(0)
        if head != b"PK\x03\x04" and head != b"PK\x05\x06":
            refuse_non_previous(path)  # a model given as --previous: say what --previous takes
            if size > MAX_MANIFEST_BYTES:
                raise InputError(f"{path} is neither a bundle ZIP nor a manifest.json", "Give OLD.zip or its manifest.")
            from .manifest import parse_manifest

            return parse_manifest(f.read(), path.name)
        rep = VerifyReport(path)
        scan = scan_archive(f, size)
        rep.problems.extend(scan.problems)
        doc = None if scan.problems else _read_manifest(f, scan, rep)
        check_cancel(cancel)
        if doc is None:
            first = rep.problems[0] if rep.problems else _problem("MANIFEST_MISSING", "no manifest")
            raise InputError(
                f"Cannot read the manifest of {path.name}: {first.message}",
                "Run `onnxpack verify` on it for details.",
                code=first.code,
                params=first.message_params(),
            )
        return doc
    finally:
        with contextlib.suppress(OSError):
            f.close()
