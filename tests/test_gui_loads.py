"""GUI (issue 37 item 3): the Result tab shows each model's load matrix (the ways apps load it, from the manifest's
smoke.loads) in English and Japanese: the ways that passed, an expected refusal (from bytes with kept external data)
said as expected with its remedy, a failure as a warning with what to do instead; for one model, each model of a
release and a verified bundle opened in the app. And a release's Progress tab says which model of how many runs."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from onnxpack.core.resources import SAMPLE_MODEL, resource_path
from onnxpack.gui import i18n
from onnxpack.gui.model.state import ItemState
from tests.gui_helpers import make_window, wait_state

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SAMPLE_WAYS = ["by its path", "from another working directory", "from bytes", "through a symbolic link",
               "from a Japanese folder name with a space"]


def _bundle(out: Path, model: Path | None = None, progress: Any = None, **kw: Any) -> Any:
    from onnxpack.core.release.bundle import BundleOptions, build_bundle

    return build_bundle(BundleOptions(model or resource_path(*SAMPLE_MODEL), out, "1.0.0", **kw), progress=progress)


def _table(box: Any) -> list[list[str]]:
    t = box.table
    return [[t.cell_text(r, c) for c in range(2)] for r in range(t.rowCount())]


def _release(tmp_path: Path) -> Path:
    root = tmp_path / "victory"
    sample = resource_path(*SAMPLE_MODEL)
    for lang in ("en", "ja"):
        (root / lang).mkdir(parents=True)
        for f in sample.parent.glob(sample.name + "*"):
            shutil.copy(f, root / lang / f.name)
    return root


def test_the_samples_ways_to_load_in_english_and_japanese(qapp: Any, tmp_path: Path) -> None:
    from onnxpack.gui.widgets.run_panel import ResultPanel

    i18n.install_translators(qapp, "en")  # English with its plurals, as the app starts
    panel = ResultPanel()
    panel.show_result(_bundle(tmp_path / "out"))
    box = panel.loads_box
    try:
        assert not box.isHidden() and box.title() == "Ways to load it"
        rows = _table(box)
        assert [r[0] for r in rows] == SAMPLE_WAYS  # no "with its folder set": the sample ships as one file
        assert box.kinds == ["ok"] * 5
        assert {r[1] for r in rows} == {"passed: the same outputs, bit for bit"}
        assert "5 ways passed, each giving the reference outputs bit for bit" in box.note.text()
        assert "commit_from_memory" in box.table.item(2, box.WAY).toolTip()
        assert panel.warnings.isHidden()
        i18n.install_translators(qapp, "ja")
        panel.retranslate()
        rows = _table(box)
        assert box.title() == "読み込み方の確認"
        assert [r[0] for r in rows] == ["パスで", "別の作業フォルダから", "バイト列から", "シンボリックリンク経由で",
                                        "日本語と空白を含むフォルダ名から"]
        assert {r[1] for r in rows} == {"成功：出力はビット単位で同一"}
        assert "5 通りが成功" in box.note.text()
    finally:
        i18n.install_translators(qapp, "en")


def test_kept_external_data_is_refused_from_bytes_as_expected_with_its_remedy(qapp: Any, tmp_path: Path) -> None:
    from onnxpack.gui.widgets.run_panel import ResultPanel

    i18n.install_translators(qapp, "en")
    panel = ResultPanel()
    panel.show_result(_bundle(tmp_path / "out", layout="keep"))
    box = panel.loads_box
    try:
        rows = _table(box)
        ways = [r[0] for r in rows]
        assert ways == [*SAMPLE_WAYS[:3], "from bytes with its folder set", *SAMPLE_WAYS[3:]]
        assert box.kinds == ["ok", "ok", "expected", "ok", "ok", "ok"]  # not an error, not a warning
        text = rows[2][1]
        assert text.startswith("refused, as expected: its weights are in a data file")
        assert "How to fix: Load the model by its path; or, from bytes, set the session option " \
               "session.model_external_initializers_file_folder_path" in text
        assert "not a fault of the bundle" in box.note.text()
        assert panel.warnings.isHidden()  # an expected refusal is no warning
        i18n.install_translators(qapp, "ja")
        panel.retranslate()
        text = _table(box)[2][1]
        assert text.startswith("想定どおり読み込めません") and "対処法：" in text
        fix = text.split("対処法：", 1)[1]
        assert "session.model_external_initializers_file_folder_path" in fix and not fix.isascii()
        assert _table(box)[3][0] == "バイト列から（フォルダを指定）"
    finally:
        i18n.install_translators(qapp, "en")


def test_a_failed_way_is_a_warning_with_what_to_do_instead(qapp: Any) -> None:
    from onnxpack.core.runtime import codes
    from onnxpack.gui.loads_view import LoadsBox

    remedy = codes.SMOKE_LOAD_FAILED.remedy("symlink")
    i18n.install_translators(qapp, "en")
    box = LoadsBox()
    smoke = {"ort_version": "1.22.0", "loads": [
        {"mode": "path", "ok": True},
        {"mode": "symlink", "ok": False, "error": "No such file", "expected": False, "remedy": remedy},
        {"mode": "non-ascii", "ok": False, "error": "", "expected": False, "differs": True,
         "remedy": codes.SMOKE_LOAD_FAILED.remedy("differs")}]}
    try:
        box.show_loads([("m.onnx", smoke)])
        assert box.kinds == ["ok", "failed", "failed"]
        assert _table(box)[1][1] == f"FAILED: No such file\nHow to fix: {remedy}"
        assert _table(box)[2][1].startswith("FAILED: the outputs differ from the reference run's.")
        assert "2 ways FAILED" in box.note.text() and "1 way passed" in box.note.text()
        i18n.install_translators(qapp, "ja")
        box.retranslate()
        assert _table(box)[1][1].startswith("失敗：No such file\n対処法：")
        assert not _table(box)[1][1].split("対処法：", 1)[1].isascii()
    finally:
        i18n.install_translators(qapp, "en")


def test_each_model_of_a_release_and_its_progress_model_by_model(qapp: Any, tmp_path: Path) -> None:
    """The Result tab: each model's ways to load, the model named on its first row. The Progress tab fed the
    engine's own reports of the run: which model of how many, never "Inspect 1 of 1" for the last model alone."""
    from onnxpack.gui.widgets.run_panel import ResultPanel, RunPanel

    i18n.install_translators(qapp, "en")
    events: list[Any] = []
    result = _bundle(tmp_path / "out", _release(tmp_path), events.append, name="victory")
    panel = ResultPanel()
    panel.show_result(result)
    box = panel.loads_box
    assert box.title() == "Ways to load each model"
    rows = _table(box)
    assert len(rows) == 12 and box.kinds == ["ok"] * 10
    # each model's path on a row across the table, its ways below it
    assert rows[0] == ["victory/en/victory.onnx", ""] and rows[6] == ["victory/ja/victory.onnx", ""]
    assert box.table.columnSpan(0, 0) == 2 and [r[0] for r in rows[7:]] == SAMPLE_WAYS

    run = RunPanel()
    run.start("victory 1.0.0 — 2 models")

    def detail(stage: str) -> str:
        return run.rows[stage][3].text()

    seen: dict[str, Any] = {}
    for ev in events:
        run.on_progress(ev)
        if ev.message == "model 1 of 2: victory/en/victory.onnx":
            seen["first"] = (detail("inspect"), run.header.plain_text())
        elif ev.message == "model 2 of 2: victory/ja/victory.onnx":
            seen["second"] = (run.stage_state("inspect"), detail("inspect"), run.rows["inspect"][2].value())
        elif ev.stage == "merge" and ev.done == 0 and "merge_1" in seen:
            seen["merge_2"] = (detail("merge"), run.stage_state("smoke"), detail("smoke"), run.header.plain_text())
        elif ev.stage == "merge" and ev.done == 0:
            seen["merge_1"] = (run.stage_state("inspect"), detail("inspect"), run.header.plain_text())
        elif ev.message == "run 2/3 of bundled victory/ja/victory.onnx":
            seen["smoke_2"] = (detail("smoke"), run.rows["smoke"][2].value())
    assert seen["first"][0] == "model 1 of 2: victory/en/victory.onnx"
    assert "Model 1 of 2: victory/en/victory.onnx" in seen["first"][1]
    # model 1 inspected: the stage is partly done (half its bar), then model 2's inspection runs
    assert seen["second"][0] == "running" and seen["second"][1] == "model 2 of 2: victory/ja/victory.onnx"
    assert seen["second"][2] == 500
    assert seen["merge_1"][0] == "done" and seen["merge_1"][1] == "each of the 2 models"
    assert "Model 1 of 2: victory/en/victory.onnx\nNow: Merge" in seen["merge_1"][2]
    assert seen["merge_2"][0].startswith("model 2 of 2")
    assert seen["merge_2"][1:3] == ("partly", "done for model 1 of 2")
    assert "Model 2 of 2: victory/ja/victory.onnx" in seen["merge_2"][3]
    assert seen["smoke_2"][0].startswith("model 2 of 2 · 3 of 7 · ")  # model 2's own count, not model 1's
    assert seen["smoke_2"][1] > 500
    run.finish("done")
    assert all(run.stage_state(s) == "done" for s in ("inspect", "validate", "merge", "smoke", "zip"))
    assert detail("smoke") == "each of the 2 models" and detail("zip") == "2 of 2"
    try:
        i18n.install_translators(qapp, "ja")
        run.retranslate()
        assert detail("smoke") == "2 個のモデルすべて"
        again = RunPanel()
        again.start("victory")
        stop = next(i for i, e in enumerate(events) if e.message == "run 2/3 of bundled victory/ja/victory.onnx")
        for ev in events[: stop + 1]:
            again.on_progress(ev)
        assert "2 個中 2 個目のモデル：victory/ja/victory.onnx" in again.header.plain_text()
        assert again.rows["smoke"][3].text().startswith("2 個中 2 個目のモデル · 3 / 7")
        assert again.rows["merge"][2].format() == "100 % — 完了"  # model 2's merge done: the last model's
        assert again.rows["merge"][3].text() == "2 個のモデルすべて" and again.state_text("partly") == "一部完了"
    finally:
        i18n.install_translators(qapp, "en")



def test_a_verified_bundle_shows_the_ways_to_load_it_recorded_in_its_manifest(qtbot: Any, tmp_path: Path) -> None:
    result = _bundle(tmp_path / "made", layout="keep")
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([Path(result.zip_path)])
    wait_state(qtbot, item, ("verified", "verify_failed", "failed"))
    assert item.state is ItemState.VERIFIED
    w._select(item)
    box = w.result_panel.loads_box
    assert not box.isHidden()
    assert box.kinds == ["ok", "ok", "expected", "ok", "ok", "ok"]
    assert box.note.text().endswith("Recorded when the bundle was made.")
    assert "verified, not bundled" in w.result_panel.status.plain_text()
    # a release row: File → Bundle names the release
    (release,) = w.open_paths([_release(tmp_path)])
    wait_state(qtbot, release, ("ready", "invalid", "failed"))
    w._select(release)
    assert w.act_bundle.text() == "&Bundle selected release"
    w._select(item)
    assert w.act_bundle.text() == "&Bundle selected model"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_load_cost_states_ratios_only_beyond_the_noise(qtbot: Any, qapp: Any, language: str) -> None:
    """A small model's loads (milliseconds apart) are said to be alike, not "2.00x the time"; a large one's ratios
    are stated, in either language."""
    from onnxpack.gui.loads_view import LoadsBox

    def doc(shipped: tuple[float, int], source: tuple[float, int]) -> dict[str, Any]:
        return {"ort_version": "1.32.0", "time_ratio": round(shipped[0] / source[0], 2),
                "memory_ratio": round(shipped[1] / source[1], 2),
                "shipped": {"layout": "single", "load_s": shipped[0], "peak_bytes": shipped[1] * 2**20},
                "source": {"layout": "external", "load_s": source[0], "peak_bytes": source[1] * 2**20}}

    i18n.install_translators(qapp, language)
    try:
        box = LoadsBox()
        qtbot.addWidget(box)
        small = box.cost_text("m.onnx", doc((0.02, 59), (0.01, 59)))
        large = box.cost_text("m.onnx", doc((5.06, 2551), (2.36, 1611)))
        alike = box.tr("The shipped layout loads as the source does (the difference is within the measurement's "
                       "noise).")
    finally:
        i18n.install_translators(qapp, "en")
    assert "2.00" not in small and alike in small and alike not in large
    assert "2.14" in large and "1.58" in large
    assert (alike.isascii()) is (language == "en")
