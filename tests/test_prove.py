"""--prove-ort (core/runtime/prove.py): releases resolved from the committed table, wheels checked against its SHA-256,
one cached environment per release, outputs compared with the reference run; no network / no wheel / a bad hash are
clear errors. The real-release test needs PyPI and skips, saying why, without it."""

from __future__ import annotations

import hashlib
import json
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import onnx
import pytest

from onnxpack.cli import main
from onnxpack.core.errors import InputError, OnnxpackError, RuntimeFailure
from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.manifest import schema_errors
from onnxpack.core.release.verify.verify import verify_bundle
from onnxpack.core.runtime import wheels, wheeltable
from onnxpack.core.runtime.prove import ensure_release, parse_prove_spec, resolve_releases
from tests.test_prove_index import FakeIndex, loosen, make_wheel
from tests.test_retarget import ir10_model

EPOCH = 1_700_000_000
OLD = "1.16.3"  # the older release proven for real


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ONNXPACK_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeIndex]:
    """A stand-in table and index: 9.9.9 (its wheel on the index is not the one the table knows) and 9.9.8 (a wheel
    for no interpreter here)."""
    loosen(monkeypatch)
    idx = FakeIndex()
    monkeypatch.setenv("ONNXPACK_PYPI_URL", idx.url)
    monkeypatch.setattr(wheels, "_DOCS", {})
    good = make_wheel(tmp_path, "onnxruntime", "9.9.9", {"onnxruntime/__init__.py": ""})
    table = {"onnxruntime": {"9.9.9": {"py3-none-any": hashlib.sha256(b"something else").hexdigest()},
                             "9.9.8": {"cp27-cp27m-win32": "0" * 64}},
             "numpy": {"2.99.0": {"py3-none-any": "1" * 64}}}
    monkeypatch.setattr(wheeltable, "table", lambda: table)
    idx.serve_wheel("onnxruntime", "9.9.9", good)
    yield idx
    idx.server.shutdown()
    idx.server.server_close()


def test_spec_parsing() -> None:
    assert parse_prove_spec(" 1.16.3, 1.20 ,auto") == ["1.16.3", "1.20", "auto"]
    with pytest.raises(InputError) as e:
        parse_prove_spec("1.16.3,latest-ish")
    assert e.value.code == "BAD_PROVE_ORT"
    with pytest.raises(InputError):
        parse_prove_spec(" , ")


def test_no_network_is_a_clear_error(cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ONNXPACK_PYPI_URL", "https://127.0.0.1:9")  # nothing listens there
    newest = resolve_releases(["newest"], None)[0]  # the newest known release with a wheel for this interpreter
    with pytest.raises(RuntimeFailure) as e:
        ensure_release(newest)
    assert e.value.code == "PROVE_NETWORK" and "Cannot reach the package index" in e.value.message
    onnx.save(ir10_model(), tmp_path / "m.onnx")
    code = main(["bundle", str(tmp_path / "m.onnx"), "-o", str(tmp_path / "out"), "--version", "1.0.0",
                 "--prove-ort", newest, "-q"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err and "Cannot reach the package index" in err
    assert not (tmp_path / "out" / "m-1.0.0.zip").exists()


def test_wrong_hash_and_missing_wheel(cache: Path, index: FakeIndex) -> None:
    with pytest.raises(RuntimeFailure) as e:
        ensure_release("9.9.9")
    assert e.value.code == "PROVE_WHEEL_HASH" and "does not match the SHA-256 of the official wheel" in e.value.message
    assert not [p for p in (cache / "ort-releases" / "wheels").rglob("*") if p.is_file()]  # the bad download is deleted
    with pytest.raises(InputError) as e2:
        ensure_release("9.9.8")
    assert e2.value.code == "PROVE_NO_WHEEL" and "cp27" in e2.value.message
    with pytest.raises(InputError) as e3:
        ensure_release("9.9.7")
    assert e3.value.code == "PROVE_NO_RELEASE"
    assert resolve_releases(["9.9", "newest"], None) == ["9.9.9"]  # the one with a wheel for this interpreter
    assert resolve_releases(["9.9.9", "1.16.3", "9.9", "1.20.1"], None) == ["1.16.3", "1.20.1", "9.9.9"]  # sorted, once
    notes: list[str] = []  # auto: a claimed release without a wheel here is replaced by the next one, and said so
    assert resolve_releases(["auto"], "9.8", notes=notes) == ["9.9.9"]
    assert len(notes) == 1 and "claims ONNX Runtime 9.8" in notes[0] and "9.9.9" in notes[0]


def _pypi_or_skip() -> None:
    try:
        urllib.request.urlopen("https://pypi.org/pypi/onnxruntime/json", timeout=15).close()
    except OSError as e:
        pytest.skip(f"PyPI is unreachable ({e}); --prove-ort on a real release needs it")


@pytest.mark.slow
def test_prove_a_retargeted_model_on_a_real_old_release(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """bundle --target-ort 1.16 --fix-ir --prove-ort 1.16.3 with the official wheel (cached in the user's cache
    folder): the retargeted model loads and its outputs agree with the installed onnxruntime's; the source model,
    IR 10, is refused by 1.16.3 with ORT's own message."""
    _pypi_or_skip()
    try:
        ensure_release(OLD)
    except InputError as e:
        if e.code == "PROVE_NO_WHEEL":
            pytest.skip(e.message)
        raise
    onnx.save(ir10_model(), tmp_path / "m.onnx")
    r = build_bundle(BundleOptions(model=tmp_path / "m.onnx", out_dir=tmp_path / "out", version="1.0.0",
                                   target_ort="1.16", fix_ir=True, prove_ort=OLD, source_date_epoch=EPOCH))
    section = r.manifest["prove_ort"]
    assert schema_errors(r.manifest) == []
    (rel,) = section["releases"]
    assert (rel["version"], rel["loaded"], rel["ok"], section["ok"]) == (OLD, True, True, True)
    assert rel["wheel"].startswith(f"onnxruntime-{OLD}-") and len(rel["wheel_sha256"]) == 64
    assert rel["numpy"].startswith("1.")  # ORT < 1.19 needs numpy 1
    assert rel["max_abs_diff"] is not None and rel["max_abs_diff"] <= section["atol"]  # bitwise depends on the CPU
    with zipfile.ZipFile(r.zip_path) as zf:
        assert f"  {OLD}: loads it, " in zf.read("README.txt").decode()
    assert verify_bundle(r.zip_path).ok
    # the model as exported: 1.16.3 refuses it, in its own words
    code = main(["check", str(tmp_path / "m.onnx"), "--prove-ort", OLD, "--json", "-q"])
    doc = json.loads(capsys.readouterr().out)
    f = next(f for f in doc["findings"] if f["code"] == "PROVE_ORT_NOT_LOADED")
    assert code == 1 and "Unsupported model IR version: 10" in f["message"] and "--fix-ir" in f["hint"]


def test_prove_refusal_is_an_onnxpack_error(cache: Path, index: FakeIndex, tmp_path: Path) -> None:
    onnx.save(ir10_model(), tmp_path / "m.onnx")
    with pytest.raises(OnnxpackError) as e:
        build_bundle(BundleOptions(model=tmp_path / "m.onnx", out_dir=tmp_path / "out", version="1.0.0",
                                   prove_ort="9.9.8", source_date_epoch=EPOCH))
    assert e.value.code == "PROVE_NO_WHEEL"


def test_the_manifest_section_is_checked_by_the_schema(tmp_path: Path) -> None:
    from onnxpack.core.runtime.prove import ProveReport, ReleaseProof

    onnx.save(ir10_model(), tmp_path / "m.onnx")
    r = build_bundle(BundleOptions(model=tmp_path / "m.onnx", out_dir=tmp_path / "out", version="1.0.0",
                                   source_date_epoch=EPOCH))
    ref = ReleaseProof("1.32.0", None, None, "2.1.3", True, None)
    old = ReleaseProof(OLD, f"onnxruntime-{OLD}-cp311-cp311-x.whl", "a" * 64, "1.26.4", False,
                       "Unsupported model IR version: 10, max supported IR version: 9")
    manifest = dict(r.manifest, prove_ort=ProveReport(ref, [old], OLD, {}).to_dict())
    assert schema_errors(manifest) == []
    assert manifest["prove_ort"]["ok"] is False and manifest["prove_ort"]["releases"][0]["loaded"] is False
    bad = json.loads(json.dumps(manifest))
    bad["prove_ort"]["releases"][0]["loaded"] = "yes"
    bad["prove_ort"]["releases"][0]["wheel_sha256"] = "not a hash"
    assert len(schema_errors(bad)) >= 2


def test_inputs_too_large_to_make_are_refused_before_allocating(tmp_path: Path) -> None:
    """A fixed shape beyond the memory limit is PROVE_INPUTS naming the size, never an allocation or a traceback."""
    from onnx import TensorProto, helper

    from onnxpack.core.runtime.prove import _inputs_for

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1 << 20, 1 << 20])  # 4 TiB of float32
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1 << 20, 1 << 20])
    model = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]))
    with pytest.raises(InputError, match="would take") as err:
        _inputs_for(model, None, 0, tmp_path)
    assert err.value.code == "PROVE_INPUTS"
    assert list(tmp_path.iterdir()) == []


def test_the_progress_counts_the_releases_from_start_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"i of N" keeps its N: preparing, the reference run (0 of N) and the runs all count the N releases (the
    Progress tab once said "2 of 2" for one release, and "0 of 6" then "7 of 7" for six). Two stand-in releases run
    in this interpreter's own environment (no download)."""
    import sys

    import numpy as np

    from onnxpack.core.progress import STEPS, ProgressEvent
    from onnxpack.core.runtime import prove
    from onnxpack.core.runtime.releaseenvs import ReleaseEnv

    def here(version: str, *_: Any) -> ReleaseEnv:
        return ReleaseEnv(version, Path(sys.executable), "installed", "0" * 64, np.__version__)

    monkeypatch.setattr(prove, "ensure_release", here)
    model = ir10_model()
    model.ir_version = 8
    onnx.save(model, tmp_path / "m.onnx")
    events: list[ProgressEvent] = []
    rep = prove.prove_model(tmp_path / "m.onnx", model, ["9.9.1", "9.9.2"], progress=events.append)
    assert [p.version for p in rep.releases] == ["9.9.1", "9.9.2"]  # (each ran: its onnxruntime is not 9.9.x)
    counts = [(e.done, e.total) for e in events if e.stage == "prove" and e.unit == STEPS]
    assert counts == [(0, 2), (1, 2), (0, 2), (0, 2), (1, 2), (2, 2)], counts  # preparing; reference; runs; done


def test_a_frozen_app_proves_on_the_onnxruntime_it_carries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A frozen onnxpack has no Python to run the proof's script with: it runs it in a child of its own executable,
    for the reference and for the release it carries, with no environment made (it once refused: "cannot tell which
    onnxruntime it carries"). Another release needs ONNXPACK_PYTHON, refused before any run naming the carried one."""
    from onnxpack.core.checks.compat import ort_package_version
    from onnxpack.core.runtime import prove
    from onnxpack.core.runtime.releaseenvs import ReleaseEnv

    carried = ort_package_version()
    assert carried is not None
    made: list[str] = []

    def made_env(version: str, *_: Any) -> ReleaseEnv:
        made.append(version)
        return ReleaseEnv(version, Path(sys.executable), "installed", "0" * 64, "x")

    monkeypatch.setattr(prove, "_frozen", lambda: True)  # (sys.frozen would make multiprocessing run the app)
    monkeypatch.setattr(prove, "ensure_release", made_env)
    monkeypatch.delenv("ONNXPACK_PYTHON", raising=False)
    model = ir10_model()
    model.ir_version = 8
    onnx.save(model, tmp_path / "m.onnx")
    rep = prove.prove_model(tmp_path / "m.onnx", model, [carried], requested=carried)
    assert made == []  # no environment, no download
    assert rep.ok and rep.reference.version == carried
    [proof] = rep.releases
    assert proof.version == carried and proof.wheel is None and proof.equal
    assert any("this frozen onnxpack carries" in n for n in rep.notes)
    [finding] = prove.prove_findings(rep, "m.onnx")
    assert finding.code == "PROVE_ORT_OK" and "the one this frozen onnxpack carries" in finding.message
    # the same proof in a bundle's manifest is valid
    doc = rep.to_dict()
    assert doc["releases"][0]["wheel"] is None and doc["reference_ort"] == carried

    with pytest.raises(InputError) as e:
        prove.prove_model(tmp_path / "m.onnx", model, ["1.20.1", carried])
    assert e.value.code == "PROVE_NO_PYTHON" and made == []
    assert "1.20.1" in e.value.message and f"onnxruntime {carried} it carries" in e.value.message
    assert f"--prove-ort {carried}" in (e.value.hint or "") and "ONNXPACK_PYTHON" in (e.value.hint or "")
    # with ONNXPACK_PYTHON, the other release gets its environment; the carried one still needs none
    monkeypatch.setenv("ONNXPACK_PYTHON", sys.executable)
    rep = prove.prove_model(tmp_path / "m.onnx", model, ["1.20.1", carried])
    assert made == ["1.20.1"] and [p.wheel for p in rep.releases] == ["installed", None]


def test_a_frozen_apps_run_that_fails_is_that_runs_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A frozen app's child that gives no result in time fails that run with the reason, like another interpreter's
    (here the reference run: the proof stops there)."""
    from onnxpack.core.checks.compat import ort_package_version
    from onnxpack.core.runtime import childrun, prove

    monkeypatch.setattr(prove, "_frozen", lambda: True)
    # no result in time, whatever the machine: the child's messages never arrive (a forked child with onnxruntime
    # loaded can run this tiny model within any timeout short enough for a test)
    monkeypatch.setattr(childrun, "_receive", lambda conn: None)
    model = ir10_model()
    model.ir_version = 8
    onnx.save(model, tmp_path / "m.onnx")
    with pytest.raises(RuntimeFailure) as e:
        prove.prove_model(tmp_path / "m.onnx", model, [str(ort_package_version())], timeout=0.001)
    assert e.value.code == "PROVE_REFERENCE" and "The reference run did not finish within" in e.value.message
