"""Issue 26 item 4: words that say what they mean — plurals as a person writes them, a stage that comes back after
another says so, and the ORT_OLDEST note names ONNX Runtime's limits as that release's, not the model's."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from onnxpack.cli import Environment, main
from onnxpack.cli.output import plural, progress_reporter
from onnxpack.core.checks.validate import validate_model
from onnxpack.core.progress import STEPS, ProgressEvent
from tests import factory

SAMPLE = Path(__file__).resolve().parent.parent / "resources" / "sample" / "victory.onnx"


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), Environment(stdout=out, stderr=err, vars={"SOURCE_DATE_EPOCH": "1700000000"}))
    return int(code), out.getvalue(), err.getvalue()


def _one_tensor_model(folder: Path) -> Path:
    """Y = X + W, W the only (external) tensor."""
    w = numpy_helper.from_array(np.arange(64, dtype=np.float32), "W")
    x, y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [64]) for n in "XY")
    graph = helper.make_graph([helper.make_node("Add", ["X", "W"], ["Y"])], "g", [x], [y], initializer=[w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return factory.save_with_external(model, folder / "one.onnx")


def test_plural() -> None:
    assert [plural(n, "tensor") for n in (0, 1, 2)] == ["0 tensors", "1 tensor", "2 tensors"]
    assert plural(1, "bundle exists", "bundles exist") == "1 bundle exists"
    assert plural(3, "bundle exists", "bundles exist") == "3 bundles exist"


def test_one_tensor_is_one_tensor_everywhere(tmp_path: Path) -> None:
    model = _one_tensor_model(tmp_path / "m")
    code, out, err = _run("merge", str(model), "-o", str(tmp_path / "merged.onnx"), "-q")
    assert code == 0 and "1 external tensor," in out and "(s)" not in out, err
    code, out, _ = _run("merge", str(model), "-o", str(tmp_path / "ext.onnx"), "--layout", "external", "-q")
    assert code == 0 and "; 1 tensor," in out and "(s)" not in out
    code, out, _ = _run("inspect", str(model))
    assert code == 0 and "External data (1 tensor)" in out and "1 initializer," in out and "1 node:" in out
    code, out, _ = _run("check", str(model), "-q")
    assert code == 0 and "(s)" not in out and "0 errors" in out
    code, out, err = _run("bundle", str(model), "-o", str(tmp_path / "b"), "--version", "1.0.0", "-q")
    assert code == 0 and "same structure and 1 tensor (" in out, err
    code, out, _ = _run("smoke", str(model), "-q", "--runs", "1")
    assert code == 0 and "median of 1 run " in out


def test_a_stage_that_comes_back_says_it_continues() -> None:
    err = io.StringIO()
    lines = progress_reporter(Environment(stdout=io.StringIO(), stderr=err, vars={}))
    assert lines is not None
    lines(ProgressEvent("validate", 0, 4, "inspecting", STEPS))
    lines(ProgressEvent("merge", 0, 100))
    lines(ProgressEvent("validate", 3, 4, "waiting for the onnx checker", STEPS))
    text = [ln.split("] ", 1)[1] for ln in err.getvalue().splitlines()]
    assert text == ["validate: inspecting", "merge: 100 B",
                    "validate, continued: waiting for the onnx checker (step 3 of 4)"]  # fmt: skip


def _titles(err: str) -> list[str]:
    return [ln.split("] ", 1)[1].split(":")[0] for ln in err.splitlines()]


def test_bundle_progress_reads_in_order(tmp_path: Path) -> None:
    """Whenever the onnx checker's verdict comes in (before the merge ends, after it, or after the smoke run when it
    has a child of its own), no stage seems to start twice and the stages read in the order they run."""
    code, _, err = _run("bundle", "-o", str(tmp_path), "--version", "1.0.0")
    assert code == 0
    titles = _titles(err)
    repeated = [t for i, t in enumerate(titles) if t in titles[:i] and titles[i - 1] != t]
    assert repeated == [], err
    assert titles.index("inspect") < titles.index("validate") < titles.index("merge") < titles.index("smoke")
    if "validate, continued" in titles:  # the checker was still at work when the merge ended
        assert titles.index("merge") < titles.index("validate, continued")
    assert "step 3/4" not in err


def test_bundle_says_validate_continues_when_it_waits_for_the_checker(tmp_path: Path, monkeypatch: Any) -> None:
    """The checker held until the bundle asks for its verdict after the merge (a slow machine, a large model): the
    wait reads "validate, continued", between the merge and the smoke run. Held by an event, not by timing."""
    from onnxpack.core.child import childproc
    from onnxpack.core.release import gate

    monkeypatch.setattr(childproc, "START_METHOD", "exec")  # the sample's checker shares the smoke child
    asked = threading.Event()
    real_check, real_verdict = gate.run_checker_child, gate.CheckerGate.verdict

    def held_check(*args: Any, **kwargs: Any) -> Any:
        assert asked.wait(60), "the bundle never asked for the checker's verdict"
        return real_check(*args, **kwargs)

    def verdict(self: Any) -> Any:
        asked.set()
        return real_verdict(self)

    monkeypatch.setattr(gate, "run_checker_child", held_check)
    monkeypatch.setattr(gate.CheckerGate, "verdict", verdict)
    code, _, err = _run("bundle", "-o", str(tmp_path), "--version", "1.0.0")
    assert code == 0, err
    titles = _titles(err)
    assert titles.index("merge") < titles.index("validate, continued") < titles.index("smoke"), err
    assert "validate, continued: waiting for the onnx checker (step 3 of 4)" in err


def test_ort_oldest_names_the_runtime_limits_as_the_runtimes(tmp_path: Path) -> None:
    """The issue's case: a model of opset 20 read "1.18 (IR 10, ai.onnx opset 21; …)" as if 21 were its opset."""
    model = factory.save_with_external(factory.add_model(opset=20, ir=9), tmp_path / "m" / "model.onnx")
    note = next(f for f in validate_model(model, run_checker=False).findings if f.code == "ORT_OLDEST")
    v = note.params["version"]
    assert note.message.startswith(f"Oldest ONNX Runtime that loads model.onnx: {v} (ORT {v} reads models up to IR "
                                   f"{note.params['ir']}, ai.onnx opset {note.params['opset']}; ")


def test_the_desktop_app_writes_english_plurals_too(qapp: object, tmp_path: Path) -> None:
    """"1 bundle exists already", not "1 bundle(s) exist already": English has a catalogue of its %n plurals."""
    import subprocess

    from PySide6.QtCore import QCoreApplication

    from onnxpack.gui import i18n
    from resources.i18n.update_translations import HERE, tool  # type: ignore[import-not-found]

    qm = tmp_path / "en.qm"
    subprocess.run([tool("lrelease"), "-silent", str(HERE / "onnxpack_en.ts"), "-qm", str(qm)], check=True, timeout=120)
    assert qm.read_bytes() == (HERE / "onnxpack_en.qm").read_bytes(), "run resources/i18n/update_translations.py"

    def tr(source: str, n: int) -> str:
        return QCoreApplication.translate("MainWindow", source, "", n)

    try:
        assert i18n.install_translators(qapp, "en") is True  # type: ignore[arg-type]
        assert tr("%n bundle(s) exist already: %1", 1) == "1 bundle exists already: %1"
        assert tr("%n bundle(s) exist already: %1", 2) == "2 bundles exist already: %1"
        assert tr("%n row(s) were bundled already: %1", 1) == "1 row was bundled already: %1"
        assert tr("Skip them and bundle the other %n model(s)?", 3) == "Skip them and bundle the other 3 models?"
        assert tr("Bundling is off for this model: %n error finding(s) must be fixed first.", 1) == (
            "Bundling is off for this model: 1 error finding must be fixed first.")
        i18n.install_translators(qapp, "ja")  # type: ignore[arg-type]
        assert tr("%n bundle(s) exist already: %1", 1) == "既存のバンドルが 1 件あります: %1"
    finally:
        i18n.install_translators(qapp, "en")  # type: ignore[arg-type]
