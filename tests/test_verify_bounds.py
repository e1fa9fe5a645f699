"""Issue 39 items 5 and 11: plain `verify` stays bounded and linear on a hostile SHA256SUMS (a bounded number of
findings per kind, "and N more"), the manifest schema's patterns end at the end of the string (no "1.0.0\\n"),
``created`` is a real time, and the prove_ort section is cross-checked (no "ok": true over failed releases)."""

from __future__ import annotations

import hashlib
import json
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from onnxpack.core.findings import Finding
from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.checksums import MAX_LISTED_PER_KIND, sha256sums_problems
from onnxpack.core.release.manifest import schema_errors
from onnxpack.core.release.verify.verify import verify_bundle
from onnxpack.core.release.verify.verify_report import MAX_FINDINGS_PER_CODE, BoundedFindings
from onnxpack.core.release.zipwriter import DeterministicZip


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("verify-bounds")
    return build_bundle(BundleOptions(None, out, "1.0.0", run_smoke=False, source_date_epoch=0)).zip_path


def _rewrite(src: Path, dst: Path, edit: Callable[[dict[str, Any]], Any] | None = None,
             sums: bytes | None = None) -> Path:
    """A clean copy of ``src`` with its manifest changed by ``edit`` and its SHA256SUMS replaced by ``sums`` (listed
    with its own size and SHA-256, as a consistent forgery would)."""
    with zipfile.ZipFile(src) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    doc = json.loads(members["manifest.json"])
    if edit is not None:
        edit(doc)
    if sums is not None:
        members["SHA256SUMS"] = sums
        for entry in doc["files"]:
            if entry["path"] == "SHA256SUMS":
                entry["size"], entry["sha256"] = len(sums), hashlib.sha256(sums).hexdigest()
    members["manifest.json"] = json.dumps(doc).encode()
    with open(dst, "wb") as f, DeterministicZip(f) as z:
        for name in sorted(members):
            z.write_bytes(name, members[name])
    return dst


def _errors(rep: Any) -> list[tuple[str, str]]:
    return [(p.code, p.message) for p in rep.problems if p.severity.value == "error"]


# -- item 5: SHA256SUMS -------------------------------------------------------------------------------------


def test_hostile_sha256sums_gives_bounded_findings_in_linear_time(bundle: Path, tmp_path: Path) -> None:
    """A 2 MB SHA256SUMS of a million malformed lines (before: a million findings, 30 s, 2.1 GiB, 284 MB of JSON;
    after: 20 findings and a count, under a second)."""
    crafted = _rewrite(bundle, tmp_path / "b.zip", sums=b"x\n" * 1_000_000)
    start = time.perf_counter()
    rep = verify_bundle(crafted)
    took = time.perf_counter() - start
    sums = [p for p in rep.problems if p.code == "CHECKSUMS_MISMATCH"]
    assert not rep.ok
    assert MAX_LISTED_PER_KIND < len(sums) <= MAX_LISTED_PER_KIND + 5, len(sums)
    assert any("and 999,980 more lines that are not" in p.message for p in sums), sums[-1].message
    assert len(json.dumps(rep.to_dict())) < 100_000
    assert took < 20, took  # linear: ~1 s here


def test_sha256sums_problems_are_bounded_per_kind() -> None:
    files = [{"path": f"f{i}", "role": "readme", "sha256": "0" * 64} for i in range(100)]
    data = "".join(f"{'1' * 64}  f{i}\n" for i in range(100)).encode() + b"junk\n" * 50
    problems = sha256sums_problems(data, files)
    assert len(problems) == 2 * MAX_LISTED_PER_KIND + 2
    assert problems[-2:] == ["SHA256SUMS: and 30 more lines that are not '<sha256>  <file>'",
                             "SHA256SUMS: and 80 more files with another SHA-256 than the manifest's"]
    good = "".join(f"{'0' * 64}  f{i}\n" for i in range(100)).encode()
    assert sha256sums_problems(good, files) == []


def test_oversized_sha256sums_is_not_read(bundle: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from onnxpack.core.release.verify import verify_manifest

    monkeypatch.setattr(verify_manifest, "MAX_SUMS_BYTES", 1000)
    crafted = _rewrite(bundle, tmp_path / "b.zip", sums=b"y" * 2000)
    problems = [p.message for p in verify_bundle(crafted).problems if p.code == "CHECKSUMS_MISMATCH"]
    assert problems == ["SHA256SUMS has 2,000 bytes, more than a bundle's SHA256SUMS can need (1,000); it was not "
                        "read"]


def test_findings_are_bounded_per_code() -> None:
    found = BoundedFindings()
    for i in range(10_000):
        found.append(Finding.error("FILE_MISSING", f"f{i} is missing", subject=f"f{i}"))
        if i == 3:
            found.append(Finding.error("FILE_EXTRA", "x is extra", subject="x"))
    found.extend([Finding.error("FILE_SIZE", "size")] * 3)
    codes = [f.code for f in found]
    assert codes.count("FILE_MISSING") == MAX_FINDINGS_PER_CODE
    assert codes.count("FILE_EXTRA") == 1 and codes.count("FILE_SIZE") == 3
    omitted = [f for f in found if f.code == "FINDINGS_OMITTED"]
    assert len(omitted) == 1 and omitted[0].severity.value == "info"
    assert f"{10_000 - MAX_FINDINGS_PER_CODE:,} more FILE_MISSING findings" in omitted[0].message
    assert codes.index("FINDINGS_OMITTED") < codes.index("FILE_SIZE")  # where the first omitted one was


def test_a_manifest_of_many_missing_files_gives_bounded_findings(bundle: Path, tmp_path: Path) -> None:
    def many(doc: dict[str, Any]) -> None:
        doc["files"] += [{"path": f"ghost{i}.txt", "role": "readme", "size": 1, "sha256": "0" * 64}
                         for i in range(5000)]

    rep = verify_bundle(_rewrite(bundle, tmp_path / "b.zip", many))
    codes = [p.code for p in rep.problems]
    assert codes.count("FILE_MISSING") == MAX_FINDINGS_PER_CODE
    assert any(p.code == "FINDINGS_OMITTED" and "4,950 more FILE_MISSING" in p.message for p in rep.problems)
    assert not rep.ok


# -- item 11: patterns, times, prove_ort ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "value"),
    [(("model", "name"), "victory\n"), (("model", "version"), "1.0.0\n"), (("created",), "2024-01-02T03:04:05Z\n"),
     (("files", 0, "sha256"), "0" * 64 + "\n")],
    ids=["name", "version", "created", "sha256"],
)
def test_a_trailing_line_feed_does_not_pass_a_pattern(bundle: Path, tmp_path: Path, where: tuple[Any, ...],
                                                      value: str) -> None:  # fmt: skip
    def edit(doc: dict[str, Any]) -> None:
        node = doc
        for key in where[:-1]:
            node = node[key]
        node[where[-1]] = value

    rep = verify_bundle(_rewrite(bundle, tmp_path / "b.zip", edit))
    assert "MANIFEST_SCHEMA" in [c for c, _m in _errors(rep)]


def test_patterns_keep_json_schema_meaning() -> None:
    from onnxpack.core.release.manifest import _pattern

    assert _pattern("^https?://").search("https://example.org/x\n")  # unanchored end: a search, as in JSON Schema
    assert not _pattern("^[0-9]+$").search("12\n")
    assert _pattern("^[$]+$").search("$$") and not _pattern("^[$]+$").search("$$\n")
    assert _pattern(r"^a\$$").search("a$")


@pytest.mark.parametrize("created", ["9999-99-99T99:99:99Z", "2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z"])
def test_an_impossible_time_is_refused(bundle: Path, tmp_path: Path, created: str) -> None:
    rep = verify_bundle(_rewrite(bundle, tmp_path / "b.zip", lambda d: d.__setitem__("created", created)))
    assert [c for c, _m in _errors(rep)] == ["MANIFEST_SCHEMA"]
    assert "is not a real UTC time" in _errors(rep)[0][1]


def _proof(**release: Any) -> dict[str, Any]:
    """A prove_ort section as core/runtime/prove.py's ProveReport.to_dict writes it: one release, bitwise equal."""
    old = {"version": "1.20.1", "wheel": "onnxruntime-1.20.1-cp311-cp311-x.whl", "wheel_sha256": "a" * 64,
           "numpy": "1.26.4", "loaded": True, "message": None, "ok": True, "outputs_bitwise_equal": True,
           "max_abs_diff": 0.0,
           "outputs": [{"name": "y", "bitwise_equal": True, "within_tolerance": True, "max_abs": 0.0, "max_rel": 0.0}],
           "load_s": 0.1, "run_s": 0.01}
    old.update(release)
    return {"schema": "onnxpack.prove/1", "requested": "1.20.1", "ok": True, "reference_ort": "1.32.0", "atol": 1e-5,
            "rtol": 1e-4, "comparison": "bitwise, else numpy.allclose(atol, rtol) with the largest difference recorded",
            "inputs": {}, "notes": [], "releases": [old]}


def _with_proof(proof: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    return lambda doc: doc.__setitem__("prove_ort", proof)


def test_a_consistent_proof_verifies(bundle: Path, tmp_path: Path) -> None:
    rep = verify_bundle(_rewrite(bundle, tmp_path / "b.zip", _with_proof(_proof())))
    assert rep.ok, rep.problems


@pytest.mark.parametrize(
    ("release", "top_ok", "words"),
    [({"loaded": False, "message": "Invalid tensor data type 24"}, True, "says ok true, its own record false"),
     ({"loaded": False, "message": "Invalid tensor data type 24", "ok": False, "outputs_bitwise_equal": False},
      True, "ok is true, but 1 release(s) failed"),
     ({"outputs": [{"name": "y", "bitwise_equal": False, "within_tolerance": False, "max_abs": 3.0,
                    "max_rel": 1.0}]}, True, "says ok true"),
     ({"outputs": [{"name": "y", "bitwise_equal": True, "within_tolerance": True, "max_abs": 3.0, "max_rel": 1.0}],
       "max_abs_diff": 3.0}, True, "bitwise equal with a difference"),
     ({"max_abs_diff": 7.0}, True, "max_abs_diff 7.0"),
     ({}, False, "ok is false, but every release passed")],
    ids=["ok-over-unloaded", "top-ok-over-failed", "ok-over-difference", "equal-with-difference", "max-diff",
         "false-over-passed"],
)
def test_a_forged_proof_is_refused(bundle: Path, tmp_path: Path, release: dict[str, Any], top_ok: bool,
                                   words: str) -> None:  # fmt: skip
    proof = _proof(**release)
    proof["ok"] = top_ok
    rep = verify_bundle(_rewrite(bundle, tmp_path / "b.zip", _with_proof(proof)))
    errors = _errors(rep)
    assert [c for c, _m in errors] == ["MANIFEST_INCONSISTENT"], errors
    assert words in errors[0][1]


def test_a_failed_proof_recorded_as_failed_is_still_refused(bundle: Path, tmp_path: Path) -> None:
    proof = _proof(loaded=False, message="Invalid tensor data type 24", ok=False, outputs_bitwise_equal=False)
    proof["ok"] = False
    errors = _errors(verify_bundle(_rewrite(bundle, tmp_path / "b.zip", _with_proof(proof))))
    assert [c for c, _m in errors] == ["MANIFEST_INCONSISTENT"]
    assert "records a failed proof (failed: 1.20.1)" in errors[0][1]


def test_schema_errors_still_take_unanchored_patterns(bundle: Path) -> None:
    with zipfile.ZipFile(bundle) as zf:
        doc = json.loads(zf.read("manifest.json"))
    doc["about"] = {"license": None, "authors": [], "homepage": "https://example.org/victory", "labels": None}
    assert schema_errors(doc) == []
    doc["about"]["homepage"] = "ftp://example.org/victory"
    assert len(schema_errors(doc)) == 1
