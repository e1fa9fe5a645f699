"""The README's two fresh-machine commands stay true: CI runs exactly the README's test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```(?:sh|bash)\n(.*?)\n```", text, flags=re.S)


def test_readme_opens_with_run_and_test_commands() -> None:
    cmds = _commands()
    assert len(cmds) >= 2
    run, test = cmds[0], cmds[1]
    assert "pip install" in run and "onnxpack bundle" in run
    assert "pip install" in test and "pytest" in test


def test_ci_runs_the_readme_test_command() -> None:
    test = _commands()[1]
    # The part after the install step is what CI runs, verbatim, after installing into a fresh venv.
    check_part = test.split('pip install -e ".[dev]" && ', 1)[1].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert check_part in ci
    assert 'pip install --quiet -e ".[dev]"' in ci
