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

from ..atomic import check_free_space, make_temp_dir
from ..childproc import ChildProcess
from ..errors import InputError, OnnxpackError
from ..findings import Finding, Severity
from ..model.modelfile import refuse_non_bundle, refuse_non_previous, require_regular_file
from ..model.streamhash import HashWorker
from ..progress import CancelToken, ProgressCallback, check_cancel, report
from .manifest import MANIFEST_NAME, MANIFEST_SCHEMA, MAX_MANIFEST_BYTES, loads_strict, schema_errors
from .signing import MAX_SIGNATURE_BYTES, SIGNATURE_NAME, verify_signature
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
#: The most bytes of inputs a bundle's recipe may make a smoke re-run hold (the dim search's own cap): a recipe
#: is untrusted, so its dims and input files are bounded before anything is allocated.
MAX_RECIPE_INPUT_BYTES = 1 << 30
#: numpy's (and so the smoke run's) highest array rank.
_MAX_RANK = 64
_NPY_MAGIC = b"\x93NUMPY"
_NPY_HEADER_MAX = 1 << 17  # numpy's own cap on a header it parses is 10,000 bytes by default; stay above it
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
    # onnxpack names the model NAME.onnx and lists exactly one file as the model: a README.txt (or anything
    # else) passed off as the model is a contradiction, not a release.
    if not str(model["entry"]).lower().endswith(".onnx"):
        rep.problems.append(_problem("MANIFEST_INCONSISTENT",
                                     f"The manifest's model entry {model['entry']!r} is not an .onnx file",
                                     str(model["entry"])))
    models = sorted(p for p, fs in listed.items() if fs.role == "model")
    if len(models) > 1:
        rep.problems.append(_problem("MANIFEST_INCONSISTENT",
                                     f"The manifest lists {len(models)} files as the model ({', '.join(models)})"))


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
    roles: tuple[str, ...] = _SMOKE_ROLES,
) -> None:
    total = sum(m.size for _fs, m in to_hash.values())
    done = 0
    report(progress, "verify", 0, total)
    # SHA-256 on a second core while this one reads and checks the CRC-32 (both release the GIL).
    with HashWorker("onnxpack-verify-sha256") as worker:
        for path, (fs, m) in sorted(to_hash.items()):
            h = hashlib.sha256()
            out: BinaryIO | None = None
            if extract_to is not None and fs.role in roles and path != in_place:
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
        # the recipe's input files are extracted (and their headers judged) by plain verify too
        recipe_files = {n: m for n, m in _recipe_files(_recorded_recipe(doc)).items()
                        if m in to_hash and to_hash[m][0].role == "smoke-input"}
        roles = _SMOKE_ROLES if smoke else ("smoke-input",)
        if smoke and not rep.problems:
            from ..runtime.smoke import start_child

            child = start_child()  # imports onnxruntime while the members are hashed
        if (smoke or recipe_files) and not rep.problems:
            tmp = make_temp_dir("verify")
            check_free_space(tmp, sum(m.size for name, (fs, m) in to_hash.items()
                                      if fs.role in roles and name != in_place))
        _hash_members(f, to_hash, rep, tmp, progress, cancel, in_place, roles)
        _check_sums(f, doc, to_hash, rep)
        if signed is not None:
            _compare_signed(f, signed, scan, to_hash, rep)
        if rep.ok and _recorded_recipe(doc) is not None:
            _judge_recipe(doc, path, to_hash, tmp, recipe_files, rep)
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


def _check_sums(f: BinaryIO, doc: dict[str, Any], to_hash: dict[str, tuple[FileStatus, Member]],
                rep: VerifyReport) -> None:  # fmt: skip
    """SHA256SUMS (core/release/checksums.py), when the manifest lists one and its bytes are the listed ones, must give
    every other listed file with the manifest's SHA-256: what `sha256sum -c` checks is what verify checks."""
    from .checksums import CHECKSUMS_ROLE, sha256sums_problems

    for fs, member in to_hash.values():
        if fs.role != CHECKSUMS_ROLE or fs.status != "ok":
            continue
        try:
            data = b"".join(iter_member(f, member))
        except ValueError as e:
            rep.problems.append(_problem("ZIP_DAMAGED", f"{fs.path} cannot be read: {e}", fs.path))
            continue
        for problem in sha256sums_problems(data, doc["files"]):
            rep.problems.append(_problem("CHECKSUMS_MISMATCH", problem, fs.path, detail=problem))


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
    from ..runtime.smoke import SmokeOptions, SmokeResult, smoke_test

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

    from ..runtime.smoke_child import compare_values

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
        # the bundle's reference file is judged by its header before it is loaded (a header may claim any shape)
        _input_file_bytes(root / rec["reference"], None, f"reference values {rec['reference']}")
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


# --------------------------------------------------------------------------- the recipe, bounded before it runs


def _recorded_recipe(doc: dict[str, Any]) -> dict[str, Any] | None:
    smoke = doc.get("smoke")
    recipe = smoke.get("recipe") if isinstance(smoke, dict) else None
    return recipe if isinstance(recipe, dict) else None


def _recipe_files(recipe: dict[str, Any] | None) -> dict[str, str]:
    """``{input name: member}`` of the recipe's file inputs."""
    out: dict[str, str] = {}
    for name, e in ((recipe or {}).get("inputs") or {}).items():
        if isinstance(e, dict) and e.get("source") == "file" and isinstance(e.get("file"), str):
            out[str(name)] = e["file"]
    return out


def _itemsize(elem: str) -> int:
    """Bytes per element of an ONNX element type name (``FLOAT``...); 8 for strings (an object pointer each) and
    for types numpy has no dtype for (an upper bound for every ONNX type)."""
    import numpy as np
    import onnx

    try:
        return int(np.dtype(onnx.helper.tensor_dtype_to_np_dtype(onnx.TensorProto.DataType.Value(elem))).itemsize)
    except (KeyError, TypeError, ValueError):
        return 8


Interface = list[tuple[str, str, list[int | str | None]]]


def _model_interface(model: Any) -> Interface:
    """The inputs a smoke run feeds: ``(name, element type name, shape)``; inputs backed by an initializer are
    not fed (their default is used) and non-tensor inputs cannot be generated."""
    from onnx import TensorProto

    inits = {t.name for t in model.graph.initializer}
    out: Interface = []
    for vi in model.graph.input:
        if vi.name in inits or not vi.type.HasField("tensor_type"):
            continue
        tt = vi.type.tensor_type
        shape: list[int | str | None] = []
        for d in tt.shape.dim:
            if d.HasField("dim_value") and d.dim_value >= 0:
                shape.append(int(d.dim_value))
            else:
                shape.append(d.dim_param or None)
        try:
            elem = str(TensorProto.DataType.Name(tt.elem_type))
        except ValueError:
            elem = "UNDEFINED"
        out.append((vi.name, elem, shape))
    return out


def _manifest_interface(doc: dict[str, Any]) -> Interface:
    """The model's inputs as the manifest's inspection records them (when the model cannot be read in place)."""
    out: Interface = []
    for v in ((doc.get("inspection") or {}).get("inputs") or []):
        if not isinstance(v, dict):
            continue
        shape = [d if isinstance(d, (int, str)) and not isinstance(d, bool) else None for d in v.get("shape") or []]
        out.append((str(v.get("name")), str(v.get("elem_type")), shape))
    return out


def _npy_header(head: bytes) -> tuple[tuple[int, ...], Any, int]:
    """``(shape, dtype, header length)`` of the .npy whose first bytes are ``head`` (raises ValueError)."""
    import io

    from numpy.lib import format as npformat

    fh = io.BytesIO(head)
    version = npformat.read_magic(fh)  # type: ignore[no-untyped-call]
    # numpy's own header reader (public for versions 1.0 and 2.0; the one behind them also reads 3.0)
    reader: Any = getattr(npformat, "_read_array_header", None)
    if reader is None:
        raise ValueError("this numpy cannot read .npy headers")
    shape, _fortran, dtype = reader(fh, version, max_header_size=_NPY_HEADER_MAX)
    return tuple(int(d) for d in shape), dtype, fh.tell()


def _npy_bytes(head: bytes, stored: int, what: str) -> int:
    """Bytes the array of a .npy of ``stored`` bytes takes once loaded, from its header alone (raises ValueError
    saying why it cannot be loaded safely)."""
    shape, dtype, header = _npy_header(head)
    if dtype.hasobject:
        raise ValueError(f"{what} holds Python objects (a pickle), which are never loaded")
    if len(shape) > _MAX_RANK:
        raise ValueError(f"{what} has rank {len(shape)}, above {_MAX_RANK}")
    count = 1
    for d in shape:
        count *= d
    nbytes = count * max(int(dtype.itemsize), 0)
    if nbytes > MAX_RECIPE_INPUT_BYTES:
        raise ValueError(f"{what} declares a {list(shape)} {dtype} array of {nbytes} bytes, above the "
                         f"{MAX_RECIPE_INPUT_BYTES} bytes a recipe may make a smoke run load")
    if header + nbytes != stored:
        raise ValueError(f"{what} declares {nbytes} bytes of array data but holds {stored - header}")
    return nbytes


def _input_file_bytes(path: Path, member: str | None, what: str) -> int:
    """Bytes the recipe's input file ``path`` loads into memory, judged from its headers and sizes before anything
    is loaded (raises ValueError saying why it cannot be loaded safely)."""
    size = path.stat().st_size
    with open(path, "rb") as fh:
        head = fh.read(_NPY_HEADER_MAX)
        if head.startswith(_NPY_MAGIC):
            return _npy_bytes(head, size, what)
        if not head.startswith(b"PK"):  # an ONNX TensorProto: parsed whole, so its size is what it takes
            if size > MAX_RECIPE_INPUT_BYTES:
                raise ValueError(f"{what} has {size} bytes, above {MAX_RECIPE_INPUT_BYTES}")
            return size
        fh.seek(0)
        scan = scan_archive(fh, size)  # the .npz is a ZIP: judged by the same rules as a bundle
        bad = [p for p in scan.problems if p.code != "ZIP_RATIO"]  # the sizes are bounded below instead
        if bad:
            raise ValueError(f"{what} is not a sound .npz archive: {bad[0].message}")
        loads: dict[str, int] = {}
        for m in scan.members:
            label = f"{what} member {m.name!r} (stored {m.compressed_size} bytes, {m.size} unpacked)"
            if m.size > MAX_RECIPE_INPUT_BYTES + _NPY_HEADER_MAX:
                raise ValueError(f"{label} unpacks above the {MAX_RECIPE_INPUT_BYTES} bytes a recipe may make a "
                                 "smoke run load")
            first = b""
            for chunk in iter_member(fh, m):
                first += chunk
                if len(first) >= _NPY_HEADER_MAX:
                    break
            loads[m.name.removesuffix(".npy")] = _npy_bytes(first, m.size, label)
        chosen = [loads[member]] if member in loads else list(loads.values())
        return max(chosen, default=0)


def _recipe_problem(doc: dict[str, Any], files: dict[str, Path], interface: Interface | None) -> str | None:
    """Why the bundle's recorded smoke recipe cannot be repeated safely (None when it can): the input files'
    headers and sizes, and the inputs its dims make, bounded by :data:`MAX_RECIPE_INPUT_BYTES` before anything is
    allocated. ``files``: the recipe's input files, extracted; ``interface``: the model's inputs."""
    recipe = _recorded_recipe(doc)
    if recipe is None:
        return None
    for name, (lo, hi) in ((k, v) for k, v in (recipe.get("ranges") or {}).items() if isinstance(v, list)):
        span = float(hi) - float(lo)
        if span != span or span in (float("inf"), float("-inf")):
            return f"the value range of {name!r} [{lo}, {hi}] is wider than a float can hold"
    total = 0
    for name, path in sorted(files.items()):
        member = ((recipe.get("inputs") or {}).get(name) or {}).get("member")
        try:
            total += _input_file_bytes(path, member if isinstance(member, str) else None, f"input file {path.name}")
        except ValueError as e:
            return str(e)
        except OSError as e:
            return f"input file {path.name} cannot be read: {e.strerror}"
    dims = {str(k): v for k, v in (recipe.get("dims") or {}).items() if isinstance(v, int)}
    default = recipe.get("default_dim", 1)
    default = default if isinstance(default, int) and not isinstance(default, bool) else 1
    for name, elem, shape in interface or []:
        if name in files:
            continue
        if len(shape) > _MAX_RANK:
            return f"input {name!r} has rank {len(shape)}, above {_MAX_RANK}"
        count = 1
        resolved = []
        for axis, d in enumerate(shape):
            n = d if isinstance(d, int) else dims.get(d or f"{name}[{axis}]", default)
            resolved.append(n)
            count *= max(n, 0)
        total += count * _itemsize(elem)
        if total > MAX_RECIPE_INPUT_BYTES:
            return (f"its inputs would take more than {MAX_RECIPE_INPUT_BYTES} bytes (input {name!r} alone: "
                    f"{elem} {resolved}, {count * _itemsize(elem)} bytes)")
    return None


def _judge_recipe(doc: dict[str, Any], archive: Path, to_hash: dict[str, tuple[FileStatus, Member]],
                  tmp: Path | None, recipe_files: dict[str, str], rep: VerifyReport) -> None:
    """Report a recorded recipe that could not be repeated safely (plain verify too): its values, the members it
    names, its input files' headers and the size of the inputs its dims make for the model's interface (read from
    the model itself when it is stored uncompressed or extracted, else from the manifest's inspection)."""
    from ..runtime.smoke import SmokeOptions

    recipe = _recorded_recipe(doc)
    assert recipe is not None
    members = set(recipe_files.values()) if tmp is not None else set()
    try:
        SmokeOptions.from_recipe(recipe, base_dir=tmp, members=members)
    except InputError as e:  # the bundle's fault, never a usage error of the command line
        code = "RECIPE" if e.code == "USAGE" else e.code
        rep.problems.append(_problem(code, e.message, doc["model"]["entry"], e.hint or _HINT_TAMPER))
        return
    files = {n: tmp / m for n, m in recipe_files.items()} if tmp is not None else {}
    interface: Interface | None = None
    entry = doc["model"]["entry"]
    stored = to_hash.get(entry)
    with contextlib.suppress(OnnxpackError):
        from ..model.modelfile import load_structure

        if tmp is not None and (tmp / entry).is_file():
            interface = _model_interface(load_structure(tmp / entry))
        elif stored is not None and stored[1].method == 0:
            interface = _model_interface(load_structure(archive, (stored[1].data_offset, stored[1].size)))
    why = _recipe_problem(doc, files, interface if interface is not None else _manifest_interface(doc))
    if why is not None:
        rep.problems.append(_recipe_finding(doc, why))


def _recipe_finding(doc: dict[str, Any], why: str) -> Finding:
    return _problem("SMOKE_FAILED", f"The recorded smoke recipe cannot be repeated: {why}", doc["model"]["entry"],
                    "The bundle was altered, or made with smoke inputs larger than verify repeats (1 GiB): get it "
                    "again from its publisher, or rebuild it with smaller --dim values.", variant="recipe", detail=why)
