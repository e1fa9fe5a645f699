"""Issue 29 items 3, 4 and the smaller verify findings: a bundle's recipe is bounded before anything is allocated
(dims, .npz/.npy headers and sizes), plain verify reports a recipe that could not be repeated safely, a negative
model_version bundles, and the manifest/ZIP contradictions plain verify used to accept."""

from __future__ import annotations

import hashlib
import io
import json
import struct
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest

from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.verify import verify as verify_mod
from onnxpack.core.release.verify import verify_recipe
from onnxpack.core.release.verify.verify import verify_bundle
from onnxpack.core.release.zipwriter import DeterministicZip
from tests import factory


@pytest.fixture(scope="module")
def sample_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("faults-verify")
    return build_bundle(BundleOptions(None, out, "1.0.0", source_date_epoch=0)).zip_path


def _rewrite(src: Path, dst: Path, edit: Any = None, extra: dict[str, bytes] | None = None,
             compress: bool = False) -> Path:
    """A clean new archive of ``src``'s members, the manifest changed by ``edit(doc)``, plus ``extra`` members
    (listed in the manifest as smoke inputs)."""
    with zipfile.ZipFile(src) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    doc = json.loads(members["manifest.json"])
    for name, blob in (extra or {}).items():
        members[name] = blob
        doc["files"].append({"path": name, "role": "smoke-input", "size": len(blob),
                             "sha256": hashlib.sha256(blob).hexdigest()})
    if edit is not None:
        edit(doc)
    if "SHA256SUMS" in members:  # kept in step with the manifest, as a consistent rewrite would
        from onnxpack.core.release.checksums import sha256sums

        members["SHA256SUMS"] = sums = sha256sums(doc["files"])
        for entry in doc["files"]:
            if entry["path"] == "SHA256SUMS":
                entry["size"], entry["sha256"] = len(sums), hashlib.sha256(sums).hexdigest()
    members["manifest.json"] = json.dumps(doc).encode()
    with open(dst, "wb") as f, DeterministicZip(f, compress=compress) as z:
        for name in sorted(members):
            z.write_bytes(name, members[name])
    return dst


def _errors(rep: Any) -> list[tuple[str, str]]:
    return [(p.code, p.message) for p in rep.problems if p.severity.value == "error"]


def _set(*path: str, value: Any) -> Any:
    def edit(doc: dict[str, Any]) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


# ------------------------------------------------------------------------------------------- item 3: dims


def test_recipe_dims_are_bounded_by_plain_verify(sample_bundle: Path, tmp_path: Path) -> None:
    """dims {batch_size: 12000}: 1.18 GB of input for the sample (before: plain verify passed, --smoke grew the
    process tree past 6 GB)."""
    crafted = _rewrite(sample_bundle, tmp_path / "b.zip", _set("smoke", "recipe", "dims", "batch_size", value=12000))
    errs = _errors(verify_bundle(crafted))
    assert [c for c, _m in errs] == ["SMOKE_FAILED"]
    assert "cannot be repeated" in errs[0][1] and "1179648000 bytes" in errs[0][1]


def test_recipe_dims_are_bounded_before_the_smoke_run(sample_bundle: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    crafted = _rewrite(sample_bundle, tmp_path / "b.zip", _set("smoke", "recipe", "dims", "batch_size", value=12000))
    ran: list[Any] = []
    monkeypatch.setattr(verify_mod, "_rerun_smoke", lambda *a, **k: ran.append(a))
    rep = verify_bundle(crafted, smoke=True)
    assert not ran and rep.smoke is None
    assert "SMOKE_SKIPPED" in [p.code for p in rep.problems]


def test_a_compressed_model_is_bounded_from_the_manifests_interface(tmp_path: Path) -> None:
    """A deflated model cannot be read in place: plain verify bounds the recipe with the interface the manifest
    records (verify --smoke reads the extracted model itself)."""
    built = build_bundle(BundleOptions(None, tmp_path / "out", "1.0.0", compress=True, source_date_epoch=0)).zip_path
    doc = json.loads(zipfile.ZipFile(built).read("manifest.json"))
    assert verify_recipe.manifest_interface(doc) == [("input", "FLOAT", ["batch_size", 3, 64, 128])]
    crafted = _rewrite(built, tmp_path / "b.zip", _set("smoke", "recipe", "dims", "batch_size", value=12000),
                       compress=True)
    assert zipfile.ZipFile(crafted).getinfo("victory.onnx").compress_type == zipfile.ZIP_DEFLATED
    errs = _errors(verify_bundle(crafted))
    assert [c for c, _m in errs] == ["SMOKE_FAILED"]
    assert verify_recipe.recipe_problem(json.loads(zipfile.ZipFile(crafted).read("manifest.json")), {},
                                       verify_recipe.manifest_interface(doc)) is not None


@pytest.mark.parametrize(("edit", "where"), [
    (_set("smoke", "recipe", "runs", value=0), "runs"),
    (_set("smoke", "recipe", "seed", value=-1), "seed"),
    (_set("smoke", "recipe", "dims", "batch_size", value=-5), "dims.batch_size"),
    (_set("smoke", "recipe", "dims", "batch_size", value=1.5), "dims.batch_size"),
    (_set("smoke", "recipe", "dims", "batch_size", value=True), "dims.batch_size"),
    (_set("smoke", "recipe", "dims", "batch_size", value=2**62), "dims.batch_size"),
])
def test_recipes_that_cannot_be_repeated_fail_plain_verify(sample_bundle: Path, tmp_path: Path, edit: Any,
                                                           where: str) -> None:
    """before: all passed plain verify; 1.5 and true silently became 1 and verify --smoke then passed"""
    errs = _errors(verify_bundle(_rewrite(sample_bundle, tmp_path / "b.zip", edit)))
    assert errs and all(c == "MANIFEST_SCHEMA" for c, _m in errs)
    assert any(f"recipe.{where}" in m for _c, m in errs), errs


def test_a_value_range_wider_than_a_float_is_refused(sample_bundle: Path, tmp_path: Path) -> None:
    crafted = _rewrite(sample_bundle, tmp_path / "b.zip", _set("smoke", "recipe", "ranges", value={
        "input": [-1e308, 1e308]}))
    errs = _errors(verify_bundle(crafted))
    assert [c for c, _m in errs] == ["SMOKE_FAILED"] and "wider than a float" in errs[0][1]


# ------------------------------------------------------------------------------- item 3: .npz / .npy files


def _npy(header_shape: tuple[int, ...], data: bytes, dtype: str = "<f4") -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": dtype, "fortran_order": False, "shape": header_shape})
    return buf.getvalue() + data


def _npz(members: dict[str, bytes], compress: bool = False) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED) as z:
        for name, blob in members.items():
            z.writestr(name, blob)
    return buf.getvalue()


def _with_input_file(sample_bundle: Path, dst: Path, blob: bytes, fmt: str, member: str | None) -> Path:
    name = f"smoke/inputs/00.{fmt}"

    def edit(doc: dict[str, Any]) -> None:
        doc["smoke"]["recipe"]["inputs"]["input"] = {
            "source": "file", "file": name, "format": fmt, "member": member,
            "sha256": hashlib.sha256(blob).hexdigest(), "dtype": "float32", "shape": [1, 3, 64, 128]}

    return _rewrite(sample_bundle, dst, edit, {name: blob})


def test_an_npy_header_that_lies_about_its_shape_is_refused_unloaded(sample_bundle: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The header says 12000×3×64×128 float32 (1.18 GB): np.load would allocate that before reading 0 bytes."""
    loads: list[Any] = []
    monkeypatch.setattr(np, "load", lambda *a, **k: loads.append(a))
    blob = _npz({"input.npy": _npy((12000, 3, 64, 128), b"")})
    rep = verify_bundle(_with_input_file(sample_bundle, tmp_path / "b.zip", blob, "npz", "input"))
    errs = _errors(rep)
    assert [c for c, _m in errs] == ["SMOKE_FAILED"] and "1179648000 bytes" in errs[0][1], errs
    assert not loads


def test_an_npz_member_that_unpacks_beyond_the_cap_is_refused(sample_bundle: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A deflated member: judged by its stored vs unpacked size before it is unpacked (the cap made small here:
    the real one is 1 GiB)."""
    monkeypatch.setattr(verify_recipe, "MAX_RECIPE_INPUT_BYTES", 1 << 20)
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.zeros((4, 3, 64, 128), np.float32))  # 393,216 bytes: under the cap
    blob = _npz({"input.npy": buf.getvalue()}, compress=True)
    assert len(blob) < 10_000
    big = _npz({"input.npy": _npy((32, 3, 64, 128), bytes(32 * 3 * 64 * 128 * 4))}, compress=True)  # 3 MB
    assert len(big) < 10_000
    rep = verify_bundle(_with_input_file(sample_bundle, tmp_path / "b.zip", big, "npz", "input"))
    errs = _errors(rep)
    assert [c for c, _m in errs] == ["SMOKE_FAILED"] and "unpacks above" in errs[0][1], errs
    # the same file under the cap passes (4 × 3 × 64 × 128 float32 = 393,216 bytes)
    rep = verify_bundle(_with_input_file(sample_bundle, tmp_path / "ok.zip", blob, "npz", "input"))
    assert rep.ok, rep.problems


def test_a_pickled_npy_input_is_refused_unloaded(sample_bundle: Path, tmp_path: Path) -> None:
    blob = _npy((1,), b"\x80\x04N.", dtype="|O")
    errs = _errors(verify_bundle(_with_input_file(sample_bundle, tmp_path / "b.zip", blob, "npy", None)))
    assert [c for c, _m in errs] == ["SMOKE_FAILED"] and "pickle" in errs[0][1]


def test_a_sound_npy_input_passes_plain_verify(sample_bundle: Path, tmp_path: Path) -> None:
    buf = io.BytesIO()
    np.save(buf, np.zeros((1, 3, 64, 128), np.float32))
    rep = verify_bundle(_with_input_file(sample_bundle, tmp_path / "b.zip", buf.getvalue(), "npy", None))
    assert rep.ok, rep.problems


# ------------------------------------------------------------------------------------ item 4: model_version


def test_a_negative_model_version_bundles_and_verifies(tmp_path: Path) -> None:
    """model_version is an int64 (the checker and ORT accept -1); before: bundle exited 3, "-1 is below the
    minimum 0" from the manifest schema."""
    m = factory.add_model()
    m.model_version = -1
    path = tmp_path / "neg.onnx"
    onnx.save(m, str(path))
    res = build_bundle(BundleOptions(path, tmp_path / "out", "1.0.0", run_smoke=False, source_date_epoch=0))
    rep = verify_bundle(res.zip_path)
    assert rep.ok, rep.problems
    assert rep.manifest is not None and rep.manifest["model"]["model_version"] == -1


# ------------------------------------------------------------------------------------------------ smaller


def test_a_readme_passed_off_as_the_model_is_refused(sample_bundle: Path, tmp_path: Path) -> None:
    def edit(doc: dict[str, Any]) -> None:
        doc["model"]["entry"] = "README.txt"
        for f in doc["files"]:
            if f["path"] == "README.txt":
                f["role"] = "model"

    errs = _errors(verify_bundle(_rewrite(sample_bundle, tmp_path / "b.zip", edit)))
    assert ("MANIFEST_INCONSISTENT", "The manifest's model entry 'README.txt' is not an .onnx file") in errs
    assert any(c == "MANIFEST_INCONSISTENT" and "2 files as models" in m for c, m in errs)


def _with_zip64_end(data: bytes, z64_entries_delta: int) -> bytes:
    """``data`` (a ZIP without ZIP64 records) with a ZIP64 end record and locator inserted before its end record;
    the ZIP64 record's entry count differs from the classic one by ``z64_entries_delta``."""
    eocd = data.rindex(b"PK\x05\x06")
    _sig, _d, _cd, _n_disk, n_total, cd_size, cd_offset, _c = struct.unpack_from("<IHHHHIIH", data, eocd)
    z64_off = cd_offset + cd_size
    assert z64_off == eocd
    n = n_total + z64_entries_delta
    rec = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n, n, cd_size, cd_offset)
    loc = struct.pack("<IIQI", 0x07064B50, 0, z64_off, 1)
    return data[:eocd] + rec + loc + data[eocd:]


def test_zip_and_zip64_end_records_must_agree(sample_bundle: Path, tmp_path: Path) -> None:
    data = sample_bundle.read_bytes()
    agree = tmp_path / "agree.zip"
    agree.write_bytes(_with_zip64_end(data, 0))
    rep = verify_bundle(agree)
    assert rep.ok and rep.archive["zip64"], rep.problems
    differ = tmp_path / "differ.zip"
    differ.write_bytes(_with_zip64_end(data, -1))  # before: accepted
    errs = _errors(verify_bundle(differ))
    assert [c for c, _m in errs] == ["ZIP_BAD_END"] and "entries" in errs[0][1]


def test_a_reference_output_with_a_lying_header_is_not_loaded(sample_bundle: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Across ONNX Runtime versions the stored reference values are loaded: their header is judged first."""
    lie = _npy((12000, 3, 64, 128), b"")
    ref = "smoke/outputs/output.npy"

    def other_ort(doc: dict[str, Any]) -> None:
        doc["smoke"]["ort_version"] = "1.0.0"
        doc["smoke"]["outputs"][0]["sha256"] = "0" * 64
        for f in doc["files"]:
            if f["path"] == ref:
                f["size"], f["sha256"] = len(lie), hashlib.sha256(lie).hexdigest()

    crafted = _rewrite(sample_bundle, tmp_path / "b.zip", other_ort)
    with zipfile.ZipFile(crafted) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    members[ref] = lie
    with open(crafted, "wb") as f, DeterministicZip(f) as z:
        for name in sorted(members):
            z.write_bytes(name, members[name])
    loaded: list[Any] = []
    real = np.load
    monkeypatch.setattr(np, "load", lambda p, *a, **k: loaded.append(p) or real(p, *a, **k))
    rep = verify_bundle(crafted, smoke=True)
    errs = _errors(rep)
    assert [c for c, _m in errs] == ["SMOKE_MISMATCH"] and "1179648000 bytes" in errs[0][1], errs
    assert not any(str(p).endswith("output.npy") and "smoke/outputs" in str(p) for p in loaded)
