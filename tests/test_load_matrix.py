"""The load matrix: a bundle's shipped model loaded the ways apps load it, each giving the reference outputs bit for
bit (issue 37 item 1), recorded per model in the manifest, said in README.txt, and its failures named with a remedy."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import onnx
import pytest

from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.manifest import load_release_schema, load_schema, model_views
from onnxpack.core.runtime.smokefindings import load_findings

from .factory import add_model, save_with_external

ALL = ["path", "other-cwd", "bytes", "symlink", "non-ascii"]


def _modes(rows: list[dict]) -> dict[str, bool]:
    return {r["mode"]: r["ok"] for r in rows}


def test_a_self_contained_model_loads_every_way(tmp_path: Path):
    onnx.save(add_model(), tmp_path / "m.onnx")
    res = build_bundle(BundleOptions(tmp_path / "m.onnx", tmp_path / "out", "1.0.0"))
    rows = res.manifest["smoke"]["loads"]
    expected = dict.fromkeys(ALL, True)
    if sys.platform == "win32":
        expected.pop("symlink", None)  # not run where links need a privilege
    assert {m: ok for m, ok in _modes(rows).items() if m in expected} == expected
    assert any(f.code == "SMOKE_LOADS_OK" for f in res.findings)
    readme = zipfile.ZipFile(res.zip_path).read("README.txt").decode()
    assert "Proven ways to load m.onnx" in readme and "by its path: yes" in readme


def test_kept_external_data_cannot_load_from_bytes_and_says_what_to_do(tmp_path: Path):
    save_with_external(add_model(), tmp_path / "src" / "m.onnx")
    res = build_bundle(BundleOptions(tmp_path / "src" / "m.onnx", tmp_path / "out", "1.0.0", layout="keep"))
    rows = {r["mode"]: r for r in res.manifest["smoke"]["loads"]}
    assert rows["path"]["ok"] and rows["other-cwd"]["ok"] and rows["non-ascii"]["ok"]
    assert rows["bytes"]["ok"] is False and rows["bytes"]["expected"] is True
    assert "session.model_external_initializers_file_folder_path" in rows["bytes"]["remedy"]
    assert rows["bytes-folder"]["ok"], rows["bytes-folder"]  # the remedy, proven
    assert "/tmp" not in rows["bytes"]["error"]  # no private folder names: the same input gives the same bundle
    assert any(f.code == "SMOKE_LOAD_FROM_BYTES" for f in res.findings)
    readme = zipfile.ZipFile(res.zip_path).read("README.txt").decode()
    assert "from bytes (commit_from_memory, CreateSessionFromArray, a buffer): NO." in readme
    import jsonschema

    jsonschema.validate(res.manifest, load_schema(), cls=jsonschema.Draft202012Validator)


def test_every_model_of_a_release_has_its_matrix(tmp_path: Path):
    folder = tmp_path / "models"
    save_with_external(add_model(), folder / "a" / "m.onnx")
    (folder / "b").mkdir()
    onnx.save(add_model(8), folder / "b" / "m.onnx")
    (folder / "config.json").write_text("{}", encoding="utf-8")
    res = build_bundle(BundleOptions(folder, tmp_path / "out", "1.0.0"))
    import jsonschema

    jsonschema.validate(res.manifest, load_release_schema(), cls=jsonschema.Draft202012Validator)
    for view in model_views(res.manifest):
        assert _modes(view["smoke"]["loads"])["path"] is True, view["model"]["entry"]


def test_a_failing_mode_is_a_warning_naming_it_with_the_remedy():
    rows = [{"mode": "path", "ok": True}, {"mode": "symlink", "ok": False, "error": "boom", "expected": False},
            {"mode": "non-ascii", "ok": False, "error": "x", "expected": False, "differs": True}]
    found = load_findings(rows, "m.onnx")
    codes = [(f.code, f.severity.value) for f in found]
    assert ("SMOKE_LOAD_FAILED", "warning") in codes and ("SMOKE_LOADS_OK", "info") in codes
    link = next(f for f in found if "symbolic link" in f.message)
    assert "boom" in link.message and "real path" in link.hint
    assert rows[1]["remedy"] == link.hint  # the manifest's row says what the app must do
    assert any("differ" in f.message and "non-ascii" in f.message for f in found)


@pytest.mark.parametrize("mode", ["path", "other-cwd", "bytes", "bytes-folder", "symlink", "non-ascii"])
def test_each_mode_has_its_own_words(mode: str):
    (f,) = [x for x in load_findings([{"mode": mode, "ok": False, "error": "e", "expected": False}], "m")
            if x.code == "SMOKE_LOAD_FAILED"]
    assert f"({mode})" not in f.message  # a mode of its own variant, not the generic text


def test_sequence_and_map_outputs_compare_by_content():
    """A classifier's seq(map) output (onnxruntime's logreg_iris) is a list of dicts: compared by its elements, not
    by the addresses of Python objects (every mode failed on it before)."""
    import numpy as np

    from onnxpack.core.runtime.loadmatrix import _same

    a = [np.array([1, 0], dtype=np.int64), [{0: 0.25, 1: 0.75}, {0: 0.5, 1: 0.5}]]
    b = [np.array([1, 0], dtype=np.int64), [{0: 0.25, 1: 0.75}, {0: 0.5, 1: 0.5}]]
    assert _same(a, b)
    assert not _same(a, [a[0], [{0: 0.25, 1: 0.7}, {0: 0.5, 1: 0.5}]])
    assert not _same([np.zeros((2, 1), np.float32)], [np.zeros((1, 2), np.float32)])  # same bytes, other shape


def test_a_large_graph_is_loaded_by_path_and_from_bytes_only(tmp_path: Path):
    """Above FULL_MATRIX_MAX_NODES the modes that only move the files are left out (each is one more session of a
    graph that is slow to create); the model decides, not the machine, so the manifest is the same everywhere."""
    from onnx import TensorProto, helper

    from onnxpack.core.runtime.loadmatrix import FULL_MATRIX_MAX_NODES

    n = FULL_MATRIX_MAX_NODES + 1
    nodes = [helper.make_node("Neg", [f"t{i}"], [f"t{i + 1}"]) for i in range(n)]
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("t0", TensorProto.FLOAT, [1, 4])],
                              [helper.make_tensor_value_info(f"t{n}", TensorProto.FLOAT, [1, 4])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), tmp_path / "chain.onnx")
    res = build_bundle(BundleOptions(tmp_path / "chain.onnx", tmp_path / "out", "1.0.0"))
    assert _modes(res.manifest["smoke"]["loads"]) == {"path": True, "bytes": True}


def test_the_matrix_never_gives_the_shipped_files_a_second_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The bundle's proof reads the shipped files beside the smoke run and refuses a file with two links (security.md
    rule 1): the matrix copies them into its own folder, and links only to its copies."""
    import numpy as np

    from onnxpack.core.runtime import loadmatrix

    model = tmp_path / "src" / "m.onnx"
    save_with_external(add_model(), model)
    data = {p.name: p for p in model.parent.iterdir() if p != model}
    links: list[int] = []
    real = loadmatrix._Matrix.attempt

    def attempt(self, mode, load, expected_failure=False):  # type: ignore[no-untyped-def]
        links.extend(p.stat().st_nlink for p in (model, *data.values()))
        return real(self, mode, load, expected_failure)

    monkeypatch.setattr(loadmatrix._Matrix, "attempt", attempt)
    import onnxruntime as ort

    x = np.ones((1, 64), dtype=np.float32)
    sess = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    feeds = {sess.get_inputs()[0].name: x}
    rows = loadmatrix.load_matrix(loadmatrix.Shipped("m.onnx", model, data),
                                  loadmatrix.Reference(feeds, sess.run(None, feeds), ort.SessionOptions),
                                  str(tmp_path))  # fmt: skip
    assert _modes(rows)["path"] and _modes(rows)["non-ascii"]
    assert links and set(links) == {1}


def test_the_reference_runs_own_load_by_path_proves_that_mode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The smoke run's own session was the shipped layout loaded by its path with an app's options
    (session.open_by_path): the matrix records that mode from it and never creates the same session again."""
    import numpy as np
    import onnxruntime as ort

    from onnxpack.core.runtime import loadmatrix

    model = tmp_path / "m.onnx"
    onnx.save(add_model(), model)
    loaded: list[str] = []
    real = loadmatrix._Matrix.run

    def run(self, source, so=None):  # type: ignore[no-untyped-def]
        loaded.append(source if isinstance(source, str) else "<bytes>")
        return real(self, source, so)

    monkeypatch.setattr(loadmatrix._Matrix, "run", run)
    sess = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    feeds = {sess.get_inputs()[0].name: np.ones((1, 64), dtype=np.float32)}
    ref = loadmatrix.Reference(feeds, sess.run(None, feeds), ort.SessionOptions)
    rows = loadmatrix.load_matrix(loadmatrix.Shipped("m.onnx", model, {}), ref, str(tmp_path), path_proven=True)
    assert _modes(rows)["path"] is True and len(rows) == len(loaded) + 1  # every mode but "path" was loaded
    assert not any(Path(s).is_absolute() and Path(s).parent.name == "bundle" for s in loaded)
    loaded.clear()
    rows = loadmatrix.load_matrix(loadmatrix.Shipped("m.onnx", model, {}), ref, str(tmp_path))
    assert _modes(rows)["path"] is True and len(rows) == len(loaded)  # without it, loaded like the others



def test_the_matrix_sessions_wait_without_spinning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The smoke child's matrix sessions (two at a time) have their idle threads block, not spin: a spinning pool
    burns the core the other session needs (docs/performance.md). Nothing else of their options differs from an
    app's, and the reference load (the end user's, measured) keeps ONNX Runtime's defaults."""
    import numpy as np
    import onnxruntime as ort

    from onnxpack.core.runtime import loadmatrix, smoke_child
    from onnxpack.core.runtime.session import OpenedSession

    model = tmp_path / "m.onnx"
    onnx.save(add_model(), model)
    seen: list[tuple[str, int, int]] = []
    real = loadmatrix._Matrix.run

    def run(self, source, so=None):  # type: ignore[no-untyped-def]
        opts = so or self.ref.options()
        seen.append((opts.get_session_config_entry(loadmatrix.NO_SPINNING[0]), opts.intra_op_num_threads,
                     int(opts.graph_optimization_level)))
        return real(self, source, opts)

    monkeypatch.setattr(loadmatrix._Matrix, "run", run)
    sess = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    feeds = {sess.get_inputs()[0].name: np.ones((1, 64), dtype=np.float32)}
    primary = OpenedSession(sess, 0.0, "by path")
    rows = smoke_child._loads({}, {"path": str(model), "window": None, "file_name": "m.onnx"}, primary, feeds,
                              sess.run(None, feeds))
    assert all(r["ok"] for r in rows) and len(seen) == len(rows) - 1  # every mode but "path" (the reference's own)
    plain = ort.SessionOptions()
    assert set(seen) == {("0", plain.intra_op_num_threads, int(plain.graph_optimization_level))}
    with pytest.raises(RuntimeError):  # an app's options name no such entry: ONNX Runtime's default, spinning
        plain.get_session_config_entry(loadmatrix.NO_SPINNING[0])
