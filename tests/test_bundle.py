"""The release pipeline: round trip with verify, determinism, layouts, fixes, release diff, cancellation."""

from __future__ import annotations

import io
import json
import time
import zipfile
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from onnxpack.core.errors import Cancelled, InputError, OnnxpackError, RefusedError
from onnxpack.core.progress import CancelToken, ProgressEvent
from onnxpack.core.release.bundle import BundleOptions, build_bundle, cli_command
from onnxpack.core.release.manifest import load_schema, schema_errors
from onnxpack.core.release.verify.verify import verify_bundle
from onnxpack.core.runtime.smoke import SmokeOptions
from tests import factory

EPOCH = 1_700_000_000


def _schema_check(manifest: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(load_schema())
    jsonschema.validate(manifest, load_schema(), cls=jsonschema.Draft202012Validator)
    assert schema_errors(manifest) == []


def _members(zip_path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(zip_path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def _opts(model: Path | None, out: Path, version: str = "1.0.0", **kw: Any) -> BundleOptions:
    kw.setdefault("source_date_epoch", EPOCH)
    return BundleOptions(model=model, out_dir=out, version=version, **kw)


@pytest.fixture(scope="module")
def sample_bundle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    out = tmp_path_factory.mktemp("sample-bundle")
    result = build_bundle(_opts(None, out))
    return out, result


def test_sample_round_trip(sample_bundle: tuple[Path, Any], sample_model: Path) -> None:
    out, result = sample_bundle
    assert result.zip_path == out / "victory-1.0.0.zip"
    assert [p.name for p in out.iterdir()] == ["victory-1.0.0.zip"]  # no work folder or temp file left
    members = _members(result.zip_path)
    assert sorted(members) == ["README.txt", "SHA256SUMS", "manifest.json", "smoke/outputs/output.npy",
                               "victory.onnx"]
    manifest = json.loads(members["manifest.json"])
    _schema_check(manifest)
    assert manifest == result.manifest
    assert (manifest["model"]["layout"], manifest["model"]["loadable_from_memory"]) == ("single", True)
    assert manifest["created"] == "2023-11-14T22:13:20Z" and manifest["created_from"] == "SOURCE_DATE_EPOCH"
    assert manifest["inspection"]["inputs"] == [
        {"name": "input", "elem_type": "FLOAT", "shape": ["batch_size", 3, 64, 128], "optional": False}
    ]
    assert manifest["inspection"]["opsets"] == {"ai.onnx": 17}
    assert manifest["compatibility"]["oldest_ort"] == "1.12"
    prov = manifest["provenance"]
    assert prov["layout"] == "external"
    assert [f["path"] for f in prov["files"]] == ["victory.onnx", "victory.onnx.data"]
    assert prov["files"][1]["size"] == (sample_model.parent / "victory.onnx.data").stat().st_size
    # the bundled model is self-contained and equals the original with its data loaded
    merged = onnx.load_from_string(members["victory.onnx"])
    original = onnx.load(str(sample_model))
    assert merged.SerializeToString() == original.SerializeToString()
    smoke = manifest["smoke"]
    assert smoke["equal"] == result.equal and smoke["equal"]["bitwise"] is True
    assert smoke["recipe"]["dims"] == {"batch_size": 1}
    ref = np.load(io.BytesIO(members["smoke/outputs/output.npy"]))
    assert ref.shape == (1, 3)
    readme = members["README.txt"].decode()
    for needle in ("input: FLOAT [batch_size, 3, 64, 128]", "InferenceSession", "Ort::Session", "commit_from_file",
                   "commit_from_memory", "onnxpack verify victory-1.0.0.zip"):
        assert needle in readme
    report = verify_bundle(result.zip_path)
    assert report.ok, report.problems
    assert {f.path: f.status for f in report.files} == {
        "README.txt": "ok", "SHA256SUMS": "ok", "smoke/outputs/output.npy": "ok", "victory.onnx": "ok"
    }
    assert result.to_dict()["schema"] == "onnxpack.bundle/1"


def test_deterministic_bytes(tmp_path: Path) -> None:
    """Without the end user's load cost (measured times: --no-load-cost) every byte repeats."""
    first = build_bundle(_opts(None, tmp_path / "a", load_cost=False))
    again = build_bundle(_opts(None, tmp_path / "b", load_cost=False))
    assert again.zip_path.read_bytes() == first.zip_path.read_bytes()


def test_only_the_load_cost_differs_between_runs(tmp_path: Path, sample_bundle: tuple[Path, Any]) -> None:
    """With it, the members other than the manifest, README.txt (which say the measured times) and SHA256SUMS
    repeat, and so does the manifest without ``smoke.load_cost``."""
    again = build_bundle(_opts(None, tmp_path))
    a, b = _members(sample_bundle[1].zip_path), _members(again.zip_path)
    said = {"manifest.json", "README.txt", "SHA256SUMS"}
    assert {k: v for k, v in a.items() if k not in said} == {k: v for k, v in b.items() if k not in said}

    def without(doc: dict[str, Any]) -> dict[str, Any]:
        doc = json.loads(json.dumps(doc))
        del doc["smoke"]["load_cost"]
        doc["files"] = [f for f in doc["files"] if f["path"] not in said]
        return doc

    assert without(json.loads(a["manifest.json"])) == without(json.loads(b["manifest.json"]))


def test_deterministic_without_source_date_epoch(
    tmp_path: Path, ext_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No SOURCE_DATE_EPOCH: `created` comes from the sources' mtime, so the bytes still repeat."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    zips = []
    for n in range(2):
        out = tmp_path / f"out{n}"
        r = build_bundle(_opts(ext_model, out, "0.1.0", name="adder", source_date_epoch=None, load_cost=False))
        zips.append(r.zip_path.read_bytes())
        assert r.manifest["created_from"] == "source-mtime"
        newest = max(p.stat().st_mtime for p in ext_model.parent.iterdir())
        assert r.manifest["created"].startswith(time.strftime("%Y-%m-%dT%H:%M", time.gmtime(newest)))
        _schema_check(r.manifest)
    assert zips[0] == zips[1]


def test_external_layout_compressed_keeps_data_beside(tmp_path: Path, ext_model: Path) -> None:
    before = factory.snapshot(ext_model.parent)
    out = tmp_path / "out"
    out.mkdir()
    r = build_bundle(_opts(ext_model, out, "0.3.0", name="adder", layout="external", compress=True))
    assert factory.snapshot(ext_model.parent) == before
    members = _members(r.zip_path)
    assert {"adder.onnx", "adder.onnx.data"} <= set(members)
    with zipfile.ZipFile(r.zip_path) as zf:
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in zf.infolist())
    m = r.manifest["model"]
    assert (m["layout"], m["data"], m["alignment"], m["loadable_from_memory"]) == (
        "external", "adder.onnx.data", 65536, False
    )
    readme = members["README.txt"].decode()
    assert "must stay in the same folder" in readme and "cannot be loaded from memory" in readme
    _schema_check(r.manifest)
    report = verify_bundle(r.zip_path, smoke=True)
    assert report.ok, report.problems
    assert report.smoke is not None and report.smoke["comparison"] == "exact"


def _recipe_model(folder: Path) -> Path:
    """Needs a recipe: X's symbolic dim must be even (Reshape to [2, -1]) and W comes from a file."""
    nodes = [
        helper.make_node("Reshape", ["X", "shape"], ["r"]),
        helper.make_node("ReduceSum", ["r"], ["s"], keepdims=0),
        helper.make_node("Add", ["W", "s"], ["t"]),
        helper.make_node("Add", ["t", "B"], ["Y"]),
    ]
    graph = helper.make_graph(
        nodes, "recipe",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["n"]),
         helper.make_tensor_value_info("W", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [4])],
        initializer=[helper.make_tensor("shape", TensorProto.INT64, [2], [2, -1]),
                     onnx.numpy_helper.from_array(np.arange(8, dtype=np.float32), "B8")],
    )
    graph.initializer[1].CopyFrom(onnx.numpy_helper.from_array(np.arange(4, dtype=np.float32) * 0.5, "B"))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return factory.save_with_external(model, folder / "recipe.onnx", threshold=16)


def test_model_needing_a_recipe_verifies_with_smoke(tmp_path: Path) -> None:
    model = _recipe_model(tmp_path / "m")
    w = tmp_path / "inputs" / "w.npy"
    w.parent.mkdir()
    np.save(w, np.array([1, 2, 3, 4], dtype=np.float32))
    out = tmp_path / "out"
    out.mkdir()
    smoke = SmokeOptions(dims={"n": 6}, inputs={"W": str(w)})
    r = build_bundle(_opts(model, out, smoke=smoke))
    recipe = r.manifest["smoke"]["recipe"]
    assert recipe["dims"]["n"] == 6
    assert recipe["inputs"]["W"]["source"] == "file" and recipe["inputs"]["W"]["file"] == "smoke/inputs/00.npy"
    assert "smoke/inputs/00.npy" in _members(r.zip_path)
    w.unlink()  # verify must not need the user's file: it is in the bundle
    report = verify_bundle(r.zip_path, smoke=True)
    assert report.ok, report.problems
    assert report.smoke is not None and report.smoke["outputs"][0]["equal"] is True
    assert list(out.iterdir()) == [r.zip_path]


def test_cancel_leaves_nothing(tmp_path: Path, ext_model: Path) -> None:
    for stage in ("validate", "merge", "smoke", "zip"):
        out = tmp_path / stage
        out.mkdir()
        token = CancelToken()

        def progress(ev: ProgressEvent, stage: str = stage, token: CancelToken = token) -> None:
            if ev.stage == stage:
                token.cancel()

        with pytest.raises(Cancelled):
            build_bundle(_opts(ext_model, out), progress=progress, cancel=token)
        assert list(out.iterdir()) == [], stage


def test_each_stage_counts_forward_and_finishes_once(tmp_path: Path, ext_model: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The Validate stage stays at the checker (it runs beside the merge) until its verdict is in: its count never
    goes back (it went "4 of 4 done" then "0 of 1"), and a stage once done stays done. The checker's verdict is held
    back until the bundle says it waits for it (as on a large model), so that the wait is always there to be seen,
    however fast or loaded the machine."""
    import threading

    from onnxpack.core.release import gate

    events: list[ProgressEvent] = []
    waiting = threading.Event()
    real = gate.run_checker_child

    def slow_checker(*a: Any, **k: Any) -> Any:
        waiting.wait(60)  # (a bundle that never says it waits fails below, after a minute at most)
        return real(*a, **k)

    def progress(e: ProgressEvent) -> None:
        events.append(e)
        if e.stage == "validate" and e.message == "waiting for the onnx checker":
            waiting.set()

    monkeypatch.setattr(gate, "run_checker_child", slow_checker)
    build_bundle(_opts(ext_model, tmp_path / "out"), progress=progress)
    for stage in ("inspect", "validate", "merge", "smoke", "zip"):
        mine = [e for e in events if e.stage == stage]
        assert mine, stage
        fractions = [e.fraction for e in mine if e.total > 0]
        assert fractions == sorted(fractions), (stage, [(e.done, e.total, e.message) for e in mine])
        first_done = next(i for i, e in enumerate(mine) if e.finished)
        assert all(e.finished for e in mine[first_done:]), (stage, [(e.done, e.total, e.message) for e in mine])
    validate = [(e.done, e.total, e.message) for e in events if e.stage == "validate"]
    assert validate[-2:] == [(3, 4, "waiting for the onnx checker"), (4, 4, "done")]
    assert events.index(next(e for e in events if e.stage == "validate" and e.finished)) > events.index(
        next(e for e in events if e.stage == "merge")
    )


def test_refusals_leave_nothing(tmp_path: Path, ext_model: Path, sample_bundle: tuple[Path, Any]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (ext_model.parent / "model.onnx.data").unlink()
    with pytest.raises(OnnxpackError) as e:
        build_bundle(_opts(ext_model, out, run_smoke=False))
    assert e.value.code == "BUNDLE_FINDINGS" and e.value.exit_status == 1 and "EXTDATA_MISSING" in e.value.message
    assert list(out.iterdir()) == []
    for version in ("1.0", "v1.0.0"):
        with pytest.raises(InputError, match="semantic version"):
            build_bundle(_opts(None, out, version))
    with pytest.raises(InputError, match="Bundle name"):
        build_bundle(_opts(None, out, name="../evil"))
    with pytest.raises(InputError, match="semantic version"):  # a created output folder is removed again
        build_bundle(_opts(None, tmp_path / "new" / "dist", "x"))
    (ext_model.parent / "model.onnx.data").write_bytes(b"")
    with pytest.raises(OnnxpackError):
        build_bundle(_opts(ext_model, tmp_path / "new" / "dist", run_smoke=False))
    assert not (tmp_path / "new").exists()
    existing = sample_bundle[1].zip_path
    with pytest.raises(OnnxpackError) as e:
        build_bundle(_opts(None, existing.parent, run_smoke=False))
    assert e.value.code == "OUTPUT_EXISTS" and "--force" in (e.value.hint or "")


def _bundle_of(model: onnx.ModelProto, folder: Path, out: Path, version: str, **kw: Any) -> Any:
    path = factory.save_with_external(model, folder / "m.onnx")
    out.mkdir(exist_ok=True)
    return build_bundle(_opts(path, out, version, name="m", run_smoke=False, **kw))


def test_release_diff_previous_bundle(tmp_path: Path) -> None:
    v1 = _bundle_of(factory.add_model(), tmp_path / "a", tmp_path / "out1", "1.4.2")

    def renamed() -> onnx.ModelProto:
        m = factory.add_model()
        m.graph.input[0].name = "image"
        m.graph.node[0].input[0] = "image"
        return m

    with pytest.raises(RefusedError) as e:
        _bundle_of(renamed(), tmp_path / "b", tmp_path / "out2", "1.4.2", previous=v1.zip_path)
    assert e.value.exit_status == 1 and e.value.code == "VERSION_NOT_GREATER" and "2.0.0" in (e.value.hint or "")
    assert list((tmp_path / "out2").iterdir()) == []
    v2 = _bundle_of(renamed(), tmp_path / "b", tmp_path / "out2", "1.5.0", previous=v1.zip_path)
    rel = v2.manifest["release"]
    assert (rel["previous_version"], rel["bump"], rel["suggested_version"]) == ("1.4.2", "major", "2.0.0")
    assert [c["kind"] for c in rel["changes"]] == ["input_renamed", "content_changed"]
    assert "VERSION_UNDERBUMP" in [f["code"] for f in v2.manifest["findings"]]
    _schema_check(v2.manifest)
    # the previous release given as its manifest.json; the same model again is a "none" change
    prev_manifest = tmp_path / "manifest.json"
    prev_manifest.write_bytes(_members(v1.zip_path)["manifest.json"])
    v3 = _bundle_of(factory.add_model(), tmp_path / "a", tmp_path / "out3", "1.4.2", previous=prev_manifest,
                    allow_version_not_greater=True)
    assert (v3.manifest["release"]["bump"], v3.manifest["release"]["forced"]) == ("none", True)


def test_set_model_version_and_fix_ir(tmp_path: Path) -> None:
    r = _bundle_of(factory.add_model(ir=10), tmp_path / "a", tmp_path / "out", "1.2.3", set_model_version=True,
                   target_ort="1.14", fix_ir=True)
    bundled = onnx.load_from_string(_members(r.zip_path)["m.onnx"])
    assert (bundled.model_version, bundled.ir_version) == (1_002_003, 8)
    assert [f["code"] for f in r.manifest["fixes"]] == ["IR_LOWERED", "MODEL_VERSION_SET"]
    comp = r.manifest["compatibility"]
    assert (comp["target_ort"], comp["target_ok"]) == ("1.14", True)
    assert r.manifest["inspection"]["ir_version"] == 8
    # without --fix-ir the target check refuses the model
    with pytest.raises(OnnxpackError) as e:
        _bundle_of(factory.add_model(ir=10), tmp_path / "b", tmp_path / "out2", "1.2.3", target_ort="1.14")
    assert "ORT_TARGET_UNSUPPORTED" in e.value.message and "--fix-ir" in (e.value.hint or "")


def test_ort_format_variant(tmp_path: Path, ext_model: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    r = build_bundle(_opts(ext_model, out, ort_format=True, run_smoke=False))
    members = _members(r.zip_path)
    assert members["model.ort"][4:8] == b"ORTM"
    assert r.manifest["model"]["ort_entry"] == "model.ort"
    assert r.manifest["ort_format"]["ok"] is True
    assert verify_bundle(r.zip_path).ok


def test_cli_command_round_trip(tmp_path: Path) -> None:
    opts = BundleOptions(model=Path("my model.onnx"), out_dir=tmp_path, version="2.0.0-rc.1", name="m",
                         target_ort="1.17", fix_ir=True, compress=True, force=True,
                         smoke=SmokeOptions(dims={"batch": 4}, inputs={"sr": "16000"}, seed=3))
    cmd = cli_command(opts)
    assert cmd.startswith("onnxpack bundle 'my model.onnx' -o ")
    for part in ("--version 2.0.0-rc.1", "--fix-ir", "--compress", "--dim batch=4", "--input sr=16000",
                 "--seed 3", "--target-ort 1.17"):
        assert part in cmd
    assert "--no-smoke" in cli_command(BundleOptions(model=None, out_dir=tmp_path, version="1.0.0", run_smoke=False))


def test_checker_failure_found_while_merging_leaves_nothing(tmp_path: Path) -> None:
    model = factory.add_model()
    model.graph.node[1].op_type = "NoSuchOperator"  # structure reads fine; the onnx checker rejects it
    path = factory.save_with_external(model, tmp_path / "m" / "bad.onnx")
    out = tmp_path / "out"
    with pytest.raises(OnnxpackError) as e:
        build_bundle(_opts(path, out))
    assert e.value.code == "BUNDLE_FINDINGS" and "NoSuchOperator" in e.value.message
    assert not out.exists()


@pytest.mark.parametrize("smoke", [False, True])
def test_source_changed_while_bundling_is_named(tmp_path: Path, smoke: bool) -> None:
    """Issue 16 item 12: a source rewritten mid-run is reported as such, never as a bug in the merge."""
    model = factory.external_model(tmp_path / "model")
    data = model.with_name("model.onnx.data")
    out = tmp_path / "out"
    touched: list[str] = []

    def progress(ev: ProgressEvent) -> None:
        after_merge = ev.stage == "smoke" if smoke else ev.message == "waiting for the onnx checker"
        if after_merge and not touched:  # the merge has read the data; now "the exporter" rewrites it
            time.sleep(0.05)  # file times have the kernel's tick as resolution; a real export takes longer
            blob = bytearray(data.read_bytes())
            blob[0] ^= 0xFF
            data.write_bytes(bytes(blob))
            touched.append(ev.stage)

    with pytest.raises(OnnxpackError) as ei:
        build_bundle(BundleOptions(model, out, "1.0.0", run_smoke=smoke), progress=progress)
    assert touched and ei.value.code == "SOURCE_CHANGED"
    assert "model.onnx.data changed while it was being bundled" in ei.value.message
    assert ei.value.exit_status == 1
    assert not (out / "model-1.0.0.zip").exists()


def test_readme_python_snippet_feeds_every_input_and_runs(tmp_path: Path) -> None:
    """Issue 13 item 11: the receiver's snippet feeds every input of a two-input model, and it really runs."""
    import re
    import subprocess
    import sys

    x = helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT, ["batch", 4])
    ids = helper.make_tensor_value_info("token:ids", TensorProto.INT64, ["batch", 4])
    y = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 4])
    cast = helper.make_node("Cast", ["token:ids"], ["f"], to=TensorProto.FLOAT)
    graph = helper.make_graph([cast, helper.make_node("Add", ["pixel_values", "f"], ["logits"])], "two", [x, ids], [y])
    src = tmp_path / "two" / "two.onnx"
    src.parent.mkdir()
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(src))
    r = build_bundle(BundleOptions(src, tmp_path / "out", "1.0.0", run_smoke=False))
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(r.zip_path) as zf:
        zf.extractall(unpacked)
    readme = (unpacked / "README.txt").read_text(encoding="utf-8")
    for needle in ('"pixel_values": np.zeros((1, 4), dtype=np.float32),  # set batch',
                   '"token:ids": np.zeros((1, 4), dtype=np.int64),  # set batch',
                   'ort::inputs!["pixel_values" => pixel_values, "token:ids" => token_ids]',
                   "new DenseTensor<long>(new int[] { 1, 4 })", "Microsoft.ML.OnnxRuntime"):
        assert needle in readme, needle
    block = re.search(r"^Python \(pip install onnxruntime numpy\):\n((?:    .*\n)+)", readme, re.M)
    assert block is not None
    code = "\n".join(line[4:] for line in block.group(1).splitlines()) + "\nprint(logits.shape)\n"
    ran = subprocess.run([sys.executable, "-c", code], cwd=unpacked, capture_output=True, text=True, timeout=120,
                         check=False)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "(1, 4)"


def test_member_roles_are_the_ones_the_zip_writer_was_told(tmp_path: Path) -> None:
    """Issue 31 item 4: each member's role is the one its stage wrote it for (not rebuilt from its name), and every
    role a manifest lists is one of the schema's; the manifest is the only member it does not list."""
    from onnxpack.core.release.manifest import ROLES
    from onnxpack.core.release.members import Role

    assert {r.value for r in Role} - {"manifest", "signature"} == set(ROLES)
    r = build_bundle(BundleOptions(None, tmp_path, "1.0.0", layout="external", source_date_epoch=1))
    roles = {f["path"]: f["role"] for f in r.files}
    assert roles == {**{f["path"]: f["role"] for f in r.manifest["files"]}, "manifest.json": "manifest"}
    assert {roles[r.manifest["model"]["entry"]], roles[r.manifest["model"]["data"]]} == {"model", "external-data"}
    assert [f["path"] for f in r.manifest["files"]] == sorted(f["path"] for f in r.manifest["files"])
