"""Progress on stderr: a bar on a terminal (bytes as bytes, steps as steps), stage lines without one, --quiet."""

from __future__ import annotations

import io
import json
from pathlib import Path

from onnxpack.cli import Environment, main
from onnxpack.cli.output import progress_reporter
from onnxpack.core.progress import STEPS, ProgressEvent

SAMPLE = Path(__file__).resolve().parent.parent / "resources" / "sample" / "victory.onnx"


def _run(*argv: str, tty: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = int(main(list(argv), Environment(stdout=out, stderr=err, vars={}, stderr_isatty=tty)))
    return code, out.getvalue(), err.getvalue()


def test_terminal_bar_counts_steps_as_steps_and_bytes_as_bytes() -> None:
    err = io.StringIO()
    bar = progress_reporter(Environment(stdout=io.StringIO(), stderr=err, vars={}, stderr_isatty=True))
    assert bar is not None
    bar(ProgressEvent("validate", 4, 4, "done", STEPS))
    bar(ProgressEvent("merge", 3 << 20, 3 << 20))
    bar(ProgressEvent("smoke", 0, 0, "running the original"))
    text = err.getvalue()
    assert "step 4/4" in text and "4 B" not in text
    assert "3.0 MiB/3.0 MiB" in text
    assert "running the original" in text and "0 B/0 B" not in text and "100.0% 0 B" not in text


def test_bundle_without_a_terminal_prints_one_line_per_stage(tmp_path: Path) -> None:
    code, out, err = _run("bundle", "-o", str(tmp_path / "o"), "--version", "1.0.0", "--json")
    assert code == 0 and json.loads(out)["ok"] is True  # stdout stays one JSON document
    lines = err.splitlines()
    stages = [ln.split("] ", 1)[1].split(":")[0] for ln in lines]
    assert all(ln.startswith("onnxpack [") for ln in lines), lines
    for stage in ("inspect", "validate", "merge", "smoke", "zip"):
        assert stage in stages, lines
    assert len(lines) <= 12, lines  # a line per stage (validate twice: it waits on the checker later), no flood
    assert not any(" B/" in ln and "step" in ln for ln in lines)


def test_quiet_silences_progress_of_every_long_command(tmp_path: Path) -> None:
    runs = [
        ("check", str(SAMPLE)),
        ("smoke", str(SAMPLE)),
        ("merge", str(SAMPLE), "-o", str(tmp_path / "m.onnx")),
        ("bundle", "-o", str(tmp_path / "b"), "--version", "1.0.0"),
    ]
    for argv in runs:
        code, out, err = _run(*argv, "--quiet")
        assert code == 0 and err == "" and out, (argv, err)
    code, out, err = _run("smoke", str(SAMPLE))
    assert code == 0 and "] smoke" in err  # without --quiet, smoke reports too
