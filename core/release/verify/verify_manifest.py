"""Verify's reading of a bundle: its manifest (capped, strict, schema-checked) and its members against the list."""

from __future__ import annotations

import datetime as _dt
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from ... import classcodes
from ...errors import InputError
from ...model.layout import Layout
from ...model.merge.streamhash import HashWorker
from ...model.modelfile import require_regular_file
from ...progress import CancelToken, ProgressCallback, report
from .. import codes
from ..manifest import (
    MANIFEST_NAME,
    MANIFEST_SCHEMA,
    MAX_MANIFEST_BYTES,
    SCHEMAS,
    loads_strict,
    model_views,
    schema_errors,
)
from ..signing import SIGNATURE_NAME
from ..zipcheck import ArchiveScan, Member, check_member_name, iter_member
from .verify_report import FileStatus, VerifyReport

__all__ = [
    "SMOKE_ROLES",
    "Extraction",
    "ToHash",
    "check_listing",
    "check_prove_ort",
    "check_sums",
    "hash_members",
    "open_bundle",
    "read_manifest",
]

#: Roles extracted for a re-run of the smoke test.
SMOKE_ROLES = ("model", "external-data", "smoke-input", "smoke-output")
#: The most schema violations reported one by one (the rest are counted).
_MAX_LISTED_VIOLATIONS = 20
#: A SHA256SUMS larger than this is not read: one line per member (core/release/zipcheck.py's MAX_ENTRIES), each a
#: digest and a portable name, stays far below it.
MAX_SUMS_BYTES = 16 * 2**20

#: The listed members whose bytes are hashed: ``{path: (its status, its member)}``.
ToHash = dict[str, tuple[FileStatus, Member]]


def open_bundle(path: Path) -> tuple[BinaryIO, int]:
    """``path`` opened for reading (the caller closes it), and its size; a missing or odd file is an InputError."""
    st = require_regular_file(path, bundle=True)
    try:
        f = open(path, "rb")  # noqa: SIM115  (closed by the caller)
    except OSError as e:
        raise classcodes.INPUT.error(variant="bundle_unopenable", path=str(path), reason=e.strerror) from None
    return f, st.st_size


def read_manifest(f: BinaryIO, scan: ArchiveScan, rep: VerifyReport,
                  digests: dict[str, str] | None = None) -> dict[str, Any] | None:  # fmt: skip
    """The manifest, checked; with ``digests`` also records the SHA-256 of the bytes read (signature check)."""
    member = scan.by_name().get(MANIFEST_NAME)
    if member is None:
        rep.problems.append(codes.MANIFEST_MISSING.finding(MANIFEST_NAME))
        return None
    if member.size > MAX_MANIFEST_BYTES:
        rep.problems.append(codes.MANIFEST_TOO_LARGE.finding(MANIFEST_NAME, variant="declared", file=MANIFEST_NAME,
                                                             size=member.size, limit=MAX_MANIFEST_BYTES))
        return None
    try:
        data = b"".join(iter_member(f, member))
    except ValueError as e:
        rep.problems.append(codes.ZIP_DAMAGED.finding(MANIFEST_NAME, variant="read", path=MANIFEST_NAME, detail=str(e)))
        return None
    if digests is not None:
        digests[MANIFEST_NAME] = hashlib.sha256(data).hexdigest()
    try:
        doc = loads_strict(data)
    except InputError as e:
        rep.problems.append(codes.MANIFEST_JSON.finding(MANIFEST_NAME, variant="read", detail=e.message))
        return None
    return _schema_checked(doc, rep)


def _schema_checked(doc: Any, rep: VerifyReport) -> dict[str, Any] | None:
    if not isinstance(doc, dict) or doc.get("schema") not in SCHEMAS:
        found = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
        rep.problems.append(codes.MANIFEST_SCHEMA.finding(MANIFEST_NAME, variant="verify_foreign", file=MANIFEST_NAME,
                                                          found=found, expected=MANIFEST_SCHEMA))
        return None
    errors = schema_errors(doc) or _time_errors(doc)
    for err in errors[:_MAX_LISTED_VIOLATIONS]:
        rep.problems.append(codes.MANIFEST_SCHEMA.finding(MANIFEST_NAME, variant="violation", file=MANIFEST_NAME,
                                                          problem=err))
    if len(errors) > _MAX_LISTED_VIOLATIONS:
        more = len(errors) - _MAX_LISTED_VIOLATIONS
        rep.problems.append(codes.MANIFEST_SCHEMA.finding(MANIFEST_NAME, variant="more", file=MANIFEST_NAME,
                                                          more=more))
    return doc if not errors else None


def _time_errors(doc: dict[str, Any]) -> list[str]:
    """The schema's timestamp pattern takes any digits ("9999-99-99T99:99:99Z"): ``created`` must be a real time."""
    try:
        _dt.datetime.strptime(doc["created"], "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return [f"manifest.created: {doc['created'][:80]!r} is not a real UTC time"]
    return []


#: The most contradictions of the prove_ort section worded one by one.
_MAX_LISTED_CONTRADICTIONS = 5


def _release_contradictions(r: dict[str, Any]) -> list[str]:
    """How one release of the prove_ort section contradicts itself (core/runtime/prove.py's ReleaseProof.to_dict)."""
    out: list[str] = []
    outputs = [o for o in r["outputs"] if isinstance(o, dict)]
    ran = r["loaded"] and not r["message"]
    ok = ran and all(o["within_tolerance"] is True for o in outputs)
    equal = ran and all(o["bitwise_equal"] is True for o in outputs)
    label = f"release {str(r['version'])[:40]}"
    if r["ok"] is not ok:
        out.append(f"{label} says ok {str(r['ok']).lower()}, its own record {str(ok).lower()}")
    if r["outputs_bitwise_equal"] is not equal:
        out.append(f"{label} says outputs_bitwise_equal {str(r['outputs_bitwise_equal']).lower()}, its outputs "
                   f"{str(equal).lower()}")
    for o in outputs:
        if o["bitwise_equal"] is True and (o["within_tolerance"] is not True or o["max_abs"] not in (None, 0)):
            out.append(f"{label}: output {str(o['name'])[:80]!r} is bitwise equal with a difference")
    diffs = [float(o["max_abs"]) for o in outputs if isinstance(o["max_abs"], (int, float))]
    if r["max_abs_diff"] != max(diffs, default=None):
        out.append(f"{label}: max_abs_diff {r['max_abs_diff']} is not its outputs' largest difference")
    return out


def check_prove_ort(doc: dict[str, Any], rep: VerifyReport) -> None:
    """The prove_ort section (bundle --prove-ort, schema-checked) must agree with itself, and record a proof that
    passed: bundle refuses to write one where a release failed, so an "ok" over failed releases is forged."""
    proof = doc.get("prove_ort")
    if not isinstance(proof, dict):
        return
    contradictions: list[str] = []
    failed: list[str] = []
    for r in proof["releases"]:
        contradictions += _release_contradictions(r)
        if not (r["ok"] is True and r["loaded"] is True and not r["message"]):
            failed.append(str(r["version"])[:40])
    everyone = not failed and not contradictions
    if proof["ok"] is not everyone and not contradictions:
        contradictions.append(f"ok is {str(proof['ok']).lower()}, but "
                              + ("every release passed" if everyone else f"{len(failed)} release(s) failed"))
    if contradictions:
        more = len(contradictions) - _MAX_LISTED_CONTRADICTIONS
        detail = "; ".join(contradictions[:_MAX_LISTED_CONTRADICTIONS]) + (f"; and {more:,} more" if more > 0 else "")
        rep.problems.append(codes.MANIFEST_INCONSISTENT.finding(MANIFEST_NAME, variant="prove_ort", detail=detail))
    elif failed or proof["ok"] is not True:
        shown = ", ".join(failed[:_MAX_LISTED_CONTRADICTIONS]) + (" …" if len(failed) > _MAX_LISTED_CONTRADICTIONS
                                                                  else "")
        if failed:
            rep.problems.append(codes.MANIFEST_INCONSISTENT.finding(MANIFEST_NAME, variant="prove_failed",
                                                                    releases=shown))
        else:
            rep.problems.append(codes.MANIFEST_INCONSISTENT.finding(MANIFEST_NAME, variant="prove_not_ok"))


def check_listing(doc: dict[str, Any], scan: ArchiveScan, rep: VerifyReport) -> ToHash:
    """Match the manifest's file list with the archive (order-independent); return the files to hash."""
    members = scan.by_name()
    listed = _listed(doc, rep)
    to_hash: ToHash = {}
    for path, fs in sorted(listed.items()):
        m = members.get(path)
        if m is None:
            fs.status = "missing"
            rep.problems.append(codes.FILE_MISSING.finding(path, path=path))
        elif m.size != fs.size:
            fs.status, fs.actual_size = "size-mismatch", m.size
            rep.problems.append(codes.FILE_SIZE.finding(path, path=path, size=m.size, listed=fs.size))
        else:
            to_hash[path] = (fs, m)
    for name in sorted(members):
        if name not in (MANIFEST_NAME, SIGNATURE_NAME) and name not in listed:
            fs = FileStatus(name, None, None, None, actual_size=members[name].size, status="extra")
            rep.files.append(fs)
            rep.problems.append(codes.FILE_EXTRA.finding(name, path=name))
    _check_references(doc, listed, rep)
    for view in model_views(doc):  # each model of a release
        check_prove_ort(view, rep)
    return to_hash


def _listed(doc: dict[str, Any], rep: VerifyReport) -> dict[str, FileStatus]:
    """The manifest's files by path; the manifest itself, paths outside the bundle and repeats are problems."""
    listed: dict[str, FileStatus] = {}
    folded: set[str] = set()
    for entry in doc["files"]:
        path = entry["path"]
        fs = FileStatus(path, entry["role"], entry["size"], entry["sha256"])
        if path == MANIFEST_NAME:
            rep.problems.append(codes.MANIFEST_SELF.finding(path, path=path))
            continue
        why = check_member_name(path)
        if why is not None:
            rep.problems.append(codes.MANIFEST_BAD_PATH.finding(path, path=path, why=why))
            continue
        key = path.casefold()
        if key in folded:
            rep.problems.append(codes.MANIFEST_DUPLICATE.finding(path, path=path))
            continue
        folded.add(key)
        listed[path] = fs
        rep.files.append(fs)
    return listed


def _pointers(doc: dict[str, Any]) -> list[tuple[str | None, str]]:
    """The files the manifest points to, with the role each must be listed with (every model's of a release)."""
    wanted: list[tuple[str | None, str]] = []
    for view in model_views(doc):
        model = view["model"]
        wanted.append((model["entry"], "model"))
        if model.get("data"):
            wanted.append((model["data"], "external-data"))
        if model.get("ort_entry"):
            wanted.append((model["ort_entry"], "ort-model"))
        smoke = view.get("smoke") or {}
        wanted += [(out["reference"], "smoke-output") for out in smoke.get("outputs", []) if out.get("reference")]
    wanted += [(a["path"], "asset") for a in doc.get("assets", [])]
    return wanted


def _check_references(doc: dict[str, Any], listed: dict[str, FileStatus], rep: VerifyReport) -> None:
    """The manifest's pointers (model entries, data files, ORT files, reference outputs, assets) name listed files;
    a release's assets are listed with their size and SHA-256."""
    for path, role in _pointers(doc):
        fs = listed.get(path or "")
        if fs is None or fs.role != role:
            rep.problems.append(codes.MANIFEST_INCONSISTENT.finding(path or "", path=path, role=role))
    for asset in doc.get("assets", []):
        fs = listed.get(asset["path"])
        if fs is not None and (fs.size, fs.sha256) != (asset["size"], asset["sha256"]):
            rep.problems.append(codes.MANIFEST_INCONSISTENT.finding(asset["path"], path=asset["path"], role="asset"))
    views = model_views(doc)
    for view in views:
        model = view["model"]
        if model["layout"] == Layout.EXTERNAL and not model.get("data"):
            rep.problems.append(codes.MANIFEST_INCONSISTENT.finding(variant="no_data"))
        # onnxpack names a model NAME.onnx (or keeps its .onnx name in a release): a README.txt (or anything else)
        # passed off as the model is a contradiction, not a release.
        if not str(model["entry"]).lower().endswith(".onnx"):
            rep.problems.append(codes.MANIFEST_INCONSISTENT.finding(str(model["entry"]), variant="entry",
                                                                    entry=model["entry"]))  # fmt: skip
    models = sorted(p for p, fs in listed.items() if fs.role == "model")
    if len(models) != len(views):
        rep.problems.append(codes.MANIFEST_INCONSISTENT.finding(variant="models", count=len(models),
                                                                models=", ".join(models)))  # fmt: skip


@dataclass(frozen=True)
class Extraction:
    """Which hashed members are also written out, and where: members of ``roles`` into the folder ``to`` (None:
    nothing is extracted), except ``in_place`` (the model the smoke run reads in the archive itself)."""

    to: Path | None = None
    roles: tuple[str, ...] = SMOKE_ROLES
    in_place: frozenset[str] = frozenset()

    def target(self, fs: FileStatus) -> Path | None:
        """Where ``fs`` is extracted to (None: it is only hashed)."""
        if self.to is None or fs.role not in self.roles or fs.path in self.in_place:
            return None
        target = (self.to / fs.path).resolve()
        if not target.is_relative_to(self.to.resolve()):  # names were validated; this is belt and braces
            raise classcodes.INPUT.error(variant="member_escapes", member=fs.path)
        return target


def hash_members(f: BinaryIO, to_hash: ToHash, rep: VerifyReport, extraction: Extraction,
                 progress: ProgressCallback | None, cancel: CancelToken | None) -> None:  # fmt: skip
    """Hash every listed member (and extract those ``extraction`` names); record each one's status."""
    total = sum(m.size for _fs, m in to_hash.values())
    done = 0
    report(progress, "verify", 0, total)
    # SHA-256 on a second core while this one reads and checks the CRC-32 (both release the GIL).
    with HashWorker("onnxpack-verify-sha256") as worker:
        for _path, (fs, m) in sorted(to_hash.items()):
            h = hashlib.sha256()
            target = extraction.target(fs)
            if target is not None:
                target.parent.mkdir(parents=True, exist_ok=True)
            out: BinaryIO | None = open(target, "xb") if target is not None else None  # noqa: SIM115
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
            _judge(fs, m, h.hexdigest(), damaged, rep)


def _judge(fs: FileStatus, m: Member, sha256: str, damaged: str | None, rep: VerifyReport) -> None:
    """Record one member's size, digest and status."""
    fs.actual_size = m.size
    fs.actual_sha256 = sha256
    if fs.actual_sha256 != fs.sha256:
        fs.status = "hash-mismatch"
        rep.problems.append(codes.FILE_HASH.finding(fs.path, path=fs.path, actual=fs.actual_sha256, listed=fs.sha256))
    elif damaged is not None:
        fs.status = "damaged"
        rep.problems.append(codes.ZIP_DAMAGED.finding(fs.path, path=fs.path, detail=damaged))
    else:
        fs.status = "ok"


def check_sums(f: BinaryIO, doc: dict[str, Any], to_hash: ToHash, rep: VerifyReport) -> None:
    """SHA256SUMS (core/release/checksums.py), when the manifest lists one and its bytes are the listed ones, must give
    every other listed file with the manifest's SHA-256: what `sha256sum -c` checks is what verify checks."""
    from ..checksums import CHECKSUMS_ROLE, sha256sums_problems

    for fs, member in to_hash.values():
        if fs.role != CHECKSUMS_ROLE or fs.status != "ok":
            continue
        if member.size > MAX_SUMS_BYTES:  # a line per file of at most MAX_ENTRIES members: never this large
            rep.problems.append(codes.CHECKSUMS_MISMATCH.finding(fs.path, variant="too_large", path=fs.path,
                                                                 size=member.size, limit=MAX_SUMS_BYTES))
            continue
        try:
            data = b"".join(iter_member(f, member))
        except ValueError as e:
            rep.problems.append(codes.ZIP_DAMAGED.finding(fs.path, variant="read", path=fs.path, detail=str(e)))
            continue
        for problem in sha256sums_problems(data, doc["files"]):
            rep.problems.append(codes.CHECKSUMS_MISMATCH.finding(fs.path, detail=problem))
