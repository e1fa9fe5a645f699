"""`verify`: tampered bundles and hostile archives fail, naming the problem; --smoke re-runs the recipe."""

from __future__ import annotations

import io
import json
import stat
import struct
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from onnxpack.core.errors import InputError
from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.verify.verify import read_bundle_manifest, verify_bundle
from onnxpack.core.release.zipcheck import Member, iter_member, scan_archive
from onnxpack.core.release.zipwriter import DeterministicZip
from tests import factory


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bundle without a smoke record (fast): the external-data test model."""
    root = tmp_path_factory.mktemp("verify")
    model = factory.external_model(root / "model")
    out = root / "out"
    out.mkdir()
    return build_bundle(BundleOptions(model, out, "1.0.0", run_smoke=False, source_date_epoch=0)).zip_path


@pytest.fixture(scope="module")
def smoke_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("verify-smoke")
    return build_bundle(BundleOptions(None, out, "1.0.0", source_date_epoch=0)).zip_path


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def _rewrite(src: Path, dst: Path, mutate: Callable[[dict[str, bytes]], None]) -> Path:
    """Copy ``src`` into a clean new archive after ``mutate`` changed its members."""
    members = _members(src)
    mutate(members)
    with open(dst, "wb") as f, DeterministicZip(f) as z:
        for name in sorted(members):
            z.write_bytes(name, members[name])
    return dst


def _edit_manifest(edit: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, bytes]], None]:
    def mutate(m: dict[str, bytes]) -> None:
        doc = json.loads(m["manifest.json"])
        edit(doc)
        m["manifest.json"] = json.dumps(doc).encode()

    return mutate


def _codes(path: Path, **kw: Any) -> list[str]:
    rep = verify_bundle(path, **kw)
    assert not rep.ok
    return [p.code for p in rep.problems if p.severity.value == "error"]


def test_intact_bundle_verifies(bundle: Path) -> None:
    rep = verify_bundle(bundle)
    assert rep.ok, rep.problems
    doc = rep.to_dict()
    assert doc["schema"] == "onnxpack.verify/1" and doc["ok"] is True
    assert {f["status"] for f in doc["files"]} == {"ok"}
    assert read_bundle_manifest(bundle)["model"]["name"] == "model"


def test_flipped_byte_names_the_file(bundle: Path, tmp_path: Path) -> None:
    data = bytearray(bundle.read_bytes())
    with zipfile.ZipFile(bundle) as zf:
        info = zf.getinfo("model.onnx")
    pos = info.header_offset + 30 + len(info.filename) + len(info.extra) + info.file_size // 2
    data[pos] ^= 0x01
    bad = tmp_path / "flipped.zip"
    bad.write_bytes(bytes(data))
    rep = verify_bundle(bad)
    assert [(p.code, p.subject) for p in rep.problems] == [("FILE_HASH", "model.onnx")]
    assert "model.onnx" in rep.problems[0].message


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda m: m.__setitem__("evil.dll", b"MZ"), [("FILE_EXTRA", "evil.dll")]),
        (lambda m: m.pop("README.txt"), [("FILE_MISSING", "README.txt")]),
        (lambda m: m.__setitem__("renamed.onnx", m.pop("model.onnx")),
         [("FILE_MISSING", "model.onnx"), ("FILE_EXTRA", "renamed.onnx")]),
        (lambda m: m.__setitem__("model.onnx", m["model.onnx"] + b"\0"), [("FILE_SIZE", "model.onnx")]),
        (lambda m: m.pop("manifest.json"), [("MANIFEST_MISSING", "manifest.json")]),
    ],
    ids=["added", "removed", "renamed", "grown", "no-manifest"],
)
def test_tampered_members(bundle: Path, tmp_path: Path, mutate: Any, expected: list[tuple[str, str]]) -> None:
    bad = _rewrite(bundle, tmp_path / "bad.zip", mutate)
    rep = verify_bundle(bad)
    assert [(p.code, p.subject) for p in rep.problems] == expected
    assert not rep.ok


def _set_sha(doc: dict[str, Any]) -> None:
    next(f for f in doc["files"] if f["path"] == "model.onnx")["sha256"] = "0" * 64


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (_set_sha, "FILE_HASH"),
        (lambda d: d.__setitem__("surprise", 1), "MANIFEST_SCHEMA"),
        (lambda d: d["model"].__setitem__("version", "one"), "MANIFEST_SCHEMA"),
        (lambda d: d["files"].append({"path": "manifest.json", "role": "readme", "size": 1, "sha256": "0" * 64}),
         "MANIFEST_SELF"),
        (lambda d: d["files"].append({"path": "../x", "role": "readme", "size": 1, "sha256": "0" * 64}),
         "MANIFEST_SCHEMA"),
        (lambda d: d["files"].append(dict(d["files"][0])), "MANIFEST_DUPLICATE"),
        (lambda d: d["model"].__setitem__("entry", "other.onnx"), "MANIFEST_INCONSISTENT"),
    ],
    ids=["sha", "extra-key", "bad-version", "lists-itself", "outside", "duplicate", "inconsistent"],
)
def test_edited_manifest(bundle: Path, tmp_path: Path, edit: Any, code: str) -> None:
    bad = _rewrite(bundle, tmp_path / "bad.zip", _edit_manifest(edit))
    assert code in _codes(bad)


@pytest.mark.parametrize(
    "text",
    ['{"schema": "onnxpack.manifest/1", "schema": "onnxpack.manifest/1"}', '{"x": NaN}', '{"x": Infinity}',
     "[1, 2", "\ufeff{}", '{"size": 1' + "0" * 400 + "}", '{"size": -1' + "0" * 30 + "}", '{"x": 1e400}'],
    ids=["duplicate-key", "nan", "infinity", "truncated", "bom", "huge-int", "huge-negative", "float-overflow"],
)
def test_manifest_strict_json(bundle: Path, tmp_path: Path, text: str) -> None:
    bad = _rewrite(bundle, tmp_path / "bad.zip", lambda m: m.__setitem__("manifest.json", text.encode()))
    assert _codes(bad) == ["MANIFEST_JSON"]
    with pytest.raises(InputError) as e:
        read_bundle_manifest(bad)
    assert e.value.code == "MANIFEST_JSON"


def test_smoke_rerun_exact_and_across_versions(smoke_bundle: Path, tmp_path: Path) -> None:
    rep = verify_bundle(smoke_bundle, smoke=True)
    assert rep.ok, rep.problems
    assert rep.smoke is not None and rep.smoke["comparison"] == "exact"
    # the recorded digest no longer matches: same ONNX Runtime version -> exact comparison fails
    wrong = _rewrite(smoke_bundle, tmp_path / "wrong.zip",
                     _edit_manifest(lambda d: d["smoke"]["outputs"][0].__setitem__("sha256", "0" * 64)))
    assert _codes(wrong, smoke=True) == ["SMOKE_MISMATCH"]
    # recorded with another ORT version: compared numerically with the reference values, within tolerance
    def other_ort(d: dict[str, Any]) -> None:
        d["smoke"]["ort_version"] = "1.0.0"
        d["smoke"]["outputs"][0]["sha256"] = "0" * 64

    other = _rewrite(smoke_bundle, tmp_path / "other.zip", _edit_manifest(other_ort))
    rep = verify_bundle(other, smoke=True)
    assert rep.ok, rep.problems
    assert rep.smoke is not None and rep.smoke["comparison"] == "tolerance"
    assert [p.code for p in rep.problems] == ["SMOKE_WITHIN_TOLERANCE"]
    assert rep.smoke["outputs"][0]["max_abs"] == 0.0


def test_verify_smoke_skipped_for_tampered_bundle(smoke_bundle: Path, tmp_path: Path) -> None:
    bad = _rewrite(smoke_bundle, tmp_path / "bad.zip", lambda m: m.__setitem__("x.txt", b"x"))
    rep = verify_bundle(bad, smoke=True)
    assert [p.code for p in rep.problems] == ["FILE_EXTRA", "SMOKE_SKIPPED"] and rep.smoke is None


def test_unreadable_inputs(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        verify_bundle(tmp_path / "missing.zip")
    with pytest.raises(InputError, match="not a regular file"):
        verify_bundle(tmp_path)
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip at all")
    assert _codes(junk) == ["ZIP_NOT_ZIP"]


# -- hostile archives (security.md rule 7) ---------------------------------------------------------


def _zip(entries: list[tuple[str | zipfile.ZipInfo, bytes]], prefix: bytes = b"", compress: bool = False) -> bytes:
    buf = io.BytesIO()
    buf.write(prefix)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about duplicate names
        with zipfile.ZipFile(buf, "a" if prefix else "w",
                             zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED) as zf:
            for name, data in entries:
                zf.writestr(name, data)
    return buf.getvalue()


def _scan_codes(data: bytes) -> list[str]:
    return [p.code for p in scan_archive(io.BytesIO(data), len(data)).problems]


def _patch_headers(data: bytes, offset_local: int, offset_cd: int, fmt: str, value: int) -> bytes:
    """Set a field in the first entry's local header and in its central-directory record."""
    out = bytearray(data)
    cd = out.index(b"PK\x01\x02")
    struct.pack_into(fmt, out, offset_local, value)
    struct.pack_into(fmt, out, cd + offset_cd, value)
    return bytes(out)


def _info(name: str, mode: int, host: int = 3) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = host
    info.external_attr = mode << 16
    return info


@pytest.mark.parametrize(
    ("entries", "code"),
    [
        ([("../x", b"a")], "ZIP_BAD_NAME"),
        ([("a/../../x", b"a")], "ZIP_BAD_NAME"),
        ([("/etc/passwd", b"a")], "ZIP_BAD_NAME"),
        ([("a\\b.txt", b"a")], "ZIP_BAD_NAME"),
        ([("C:x.txt", b"a")], "ZIP_BAD_NAME"),
        ([("x\x01y", b"a")], "ZIP_BAD_NAME"),
        ([("dir/", b"")], "ZIP_DIRECTORY"),
        ([("same.txt", b"a"), ("same.txt", b"b")], "ZIP_DUPLICATE"),
        ([("README.txt", b"a"), ("readme.TXT", b"b")], "ZIP_DUPLICATE"),
        ([("caf\u00e9.txt", b"a"), ("cafe\u0301.txt", b"b")], "ZIP_DUPLICATE"),
        ([(_info("link", stat.S_IFLNK | 0o777), b"/etc/passwd")], "ZIP_SYMLINK"),
        ([(_info("fifo", stat.S_IFIFO | 0o644), b"")], "ZIP_SPECIAL"),
        # "version made by" other than Unix: unzip still honours the mode (host 30 extracts a real symlink)
        ([(_info("lnk", stat.S_IFLNK | 0o777, host=5), b"/etc/passwd")], "ZIP_SYMLINK"),
        ([(_info("lnk", stat.S_IFLNK | 0o777, host=16), b"/etc/passwd")], "ZIP_SYMLINK"),
        ([(_info("lnk", stat.S_IFLNK | 0o777, host=30), b"/etc/passwd")], "ZIP_SYMLINK"),
        ([(_info("dev", stat.S_IFCHR | 0o644, host=0), b"")], "ZIP_SPECIAL"),
        ([("victory.onnx", b"a"), ("victory.onnx/out.npy", b"b")], "ZIP_NAME_CONFLICT"),
        ([("a/b/Victory.ONNX/x", b"a"), ("A/B/victory.onnx", b"b")], "ZIP_NAME_CONFLICT"),
    ],
    ids=["dotdot", "nested-dotdot", "absolute", "backslash", "drive", "control", "directory", "duplicate",
         "case-fold", "nfc", "symlink", "fifo", "symlink-host5", "symlink-host16", "symlink-host30", "device-host0",
         "file-and-folder", "file-and-folder-folded"],
)
def test_hostile_names_and_members(entries: list[tuple[Any, bytes]], code: str) -> None:
    assert code in _scan_codes(_zip(entries))


def test_encrypted_and_unknown_compression() -> None:
    data = _zip([("a.txt", b"hello")])
    assert _scan_codes(_patch_headers(data, 6, 8, "<H", 0x0001)) == ["ZIP_ENCRYPTED"]
    assert _scan_codes(_patch_headers(data, 8, 10, "<H", 99)) == ["ZIP_COMPRESSION"]


def test_zip_bomb_ratio_refused_before_reading() -> None:
    assert _scan_codes(_zip([("zeros.bin", bytes(16 << 20))], compress=True)) == ["ZIP_RATIO"]


def test_data_outside_the_structure() -> None:
    good = _zip([("a.txt", b"hello"), ("b.txt", b"world")])
    assert _scan_codes(good) == []
    assert _scan_codes(good + b"appended") == ["ZIP_TRAILING_DATA"]
    assert _scan_codes(_zip([("a.txt", b"hello")], prefix=b"MZ-stub" * 10)) == ["ZIP_LEADING_DATA"]
    shifted = b"junk" + good  # offsets not adjusted: the directory is not where the end record says
    assert _scan_codes(shifted) == ["ZIP_GAP"]


def test_overlapping_entries() -> None:
    """Entry b's local header lies inside entry a's data (the 'better zip bomb' construction)."""
    inner = _zip([("b", b"payload")])
    inner_cd = inner.index(b"PK\x01\x02")
    inner_local, inner_entry = inner[:inner_cd], inner[inner_cd:-22]
    outer = _zip([("a", inner_local)])
    cd = outer.index(b"PK\x01\x02")
    a_entry = outer[cd:-22]
    b_entry = bytearray(inner_entry)
    struct.pack_into("<I", b_entry, 42, 30 + 1)  # b's local header = a's data start
    directory = a_entry + bytes(b_entry)
    eocd = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 2, 2, len(directory), cd, 0)
    data = outer[:cd] + directory + eocd
    assert _scan_codes(data) == ["ZIP_OVERLAP"]


def test_headers_disagreeing_with_directory() -> None:
    data = bytearray(_zip([("a.txt", b"hello")]))
    data[30] = ord("b")  # local header now names "b.txt"
    assert _scan_codes(bytes(data)) == ["ZIP_HEADER_MISMATCH"]


def test_member_reading_is_capped_at_the_declared_size() -> None:
    data = _zip([("z.bin", bytes(4096))], compress=True)
    scan = scan_archive(io.BytesIO(data), len(data))
    m = scan.by_name()["z.bin"]
    lying = Member(m.name, m.method, m.flags, m.crc, m.compressed_size, 100, m.header_offset, m.data_offset,
                   m.end_offset)
    with pytest.raises(ValueError, match="beyond its declared"):
        b"".join(iter_member(io.BytesIO(data), lying))
    bad_crc = Member(m.name, m.method, m.flags, m.crc ^ 1, m.compressed_size, m.size, m.header_offset,
                     m.data_offset, m.end_offset)
    with pytest.raises(ValueError, match="CRC"):
        b"".join(iter_member(io.BytesIO(data), bad_crc))


def test_hostile_archive_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "evil.zip"
    path.write_bytes(_zip([("../manifest.json", b"{}"), ("manifest.json", b"{}")]))
    rep = verify_bundle(path)
    assert "ZIP_BAD_NAME" in [p.code for p in rep.problems] and rep.manifest is None and rep.files == []
    with pytest.raises(InputError) as e:
        read_bundle_manifest(path)
    assert e.value.code == "ZIP_BAD_NAME"


def test_builtin_validator_agrees_with_jsonschema(bundle: Path) -> None:
    import copy

    import jsonschema

    from onnxpack.core.release.manifest import load_schema, schema_errors

    good = json.loads(_members(bundle)["manifest.json"])
    edits: list[Callable[[dict[str, Any]], Any]] = [
        lambda d: None,
        lambda d: d.__setitem__("created", "yesterday"),
        lambda d: d["files"][0].__setitem__("size", -1),
        lambda d: d["files"][0].__setitem__("size", True),
        lambda d: d["files"][0].__setitem__("role", "virus"),
        lambda d: d["files"][0].__setitem__("path", "a//b"),
        lambda d: d["files"][0].__setitem__("path", "C:/x"),
        lambda d: d["model"].__setitem__("name", ".hidden"),
        lambda d: d["model"].__setitem__("version", "1.0.0-rc.1+b.2"),
        lambda d: d["inspection"]["inputs"][0].__setitem__("shape", [1, "n", None]),
        lambda d: d["inspection"]["inputs"][0].__setitem__("shape", [1.5]),
        lambda d: d["inspection"]["opsets"].__setitem__("ai.onnx", "17"),
        lambda d: d.pop("provenance"),
        lambda d: d.__setitem__("files", []),
        lambda d: d["tool"].__setitem__("name", "other"),
    ]
    validator = jsonschema.Draft202012Validator(load_schema())
    for edit in edits:
        doc = copy.deepcopy(good)
        edit(doc)
        assert validator.is_valid(doc) == (schema_errors(doc) == []), doc


def test_smoke_recipe_can_only_name_members_of_the_bundle(smoke_bundle: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A crafted recipe must never make verify --smoke read a file outside the bundle (issue 16 A)."""
    import hashlib

    import numpy as np

    from onnxpack.core.runtime import smoke as smoke_mod

    doc = json.loads(_members(smoke_bundle)["manifest.json"])
    (name, entry), = doc["smoke"]["recipe"]["inputs"].items()
    outside = tmp_path / "outside.npy"
    np.save(outside, np.zeros(entry["shape"], np.float32))
    digest = hashlib.sha256(outside.read_bytes()).hexdigest()
    read: list[Path] = []
    real_load = smoke_mod.load_input_file
    monkeypatch.setattr(smoke_mod, "load_input_file", lambda spec: read.append(spec.file) or real_load(spec))

    for i, path in enumerate([str(outside), "/etc/passwd", "../outside.npy", "smoke/../../outside.npy"]):
        def file_input(d: dict[str, Any], path: str = path) -> None:
            d["smoke"]["recipe"]["inputs"][name] = {"source": "file", "file": path, "format": "npy", "member": None,
                                                    "sha256": digest, "dtype": "float32", "shape": entry["shape"]}

        crafted = _rewrite(smoke_bundle, tmp_path / f"file{i}.zip", _edit_manifest(file_input))
        assert _codes(crafted, smoke=True) == ["RECIPE_OUTSIDE_BUNDLE"], path
    for i, path in enumerate([str(outside), "/etc/passwd"]):
        def value_input(d: dict[str, Any], path: str = path) -> None:
            d["smoke"]["recipe"]["inputs"][name] = {"source": "value", "value": path}

        crafted = _rewrite(smoke_bundle, tmp_path / f"value{i}.zip", _edit_manifest(value_input))
        rep = verify_bundle(crafted, smoke=True)
        assert not rep.ok  # the literal text is no number: the run fails, and no file was read
    assert read == []



def test_huge_integer_inside_a_valid_manifest(bundle: Path, tmp_path: Path) -> None:
    """Issue 16 item 2: an integer of 400 digits where a size belongs is a clear problem, not an OverflowError."""
    def huge(doc: dict[str, Any]) -> None:
        doc["files"][0]["size"] = 10**400

    bad = _rewrite(bundle, tmp_path / "huge.zip", _edit_manifest(huge))
    assert _codes(bad) == ["MANIFEST_JSON"]
    from onnxpack.cli import Environment, main

    err = io.StringIO()
    status = main(["bundle", "-o", str(tmp_path / "out"), "--version", "1.0.1", "--previous", str(bad), "--no-smoke"],
                  Environment(stdout=io.StringIO(), stderr=err, vars={}))
    assert int(status) in (1, 2) and "out of range" in err.getvalue() and "Internal error" not in err.getvalue()
