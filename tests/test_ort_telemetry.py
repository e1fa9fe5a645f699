"""ONNX Runtime's telemetry stays off wherever onnxpack runs it.

Since 1.29, ONNX Runtime on Linux and macOS writes a device id and an event store into the user's cache folder
(``$XDG_CACHE_HOME/Microsoft/DeveloperTools/.onnxruntime``) and uploads events, unless ``ORT_DISABLE_TELEMETRY=1``
is set before it starts. onnxpack promises to write nothing outside the output folder, and a release manager's model
is nobody else's business: every child and subprocess gets the variable unless the user set it.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

import onnxpack.core.child.childproc as childproc
from onnxpack.cli import Environment, main
from onnxpack.core.checks.checker_child import run_in_child
from onnxpack.core.child.childproc import ORT_TELEMETRY_VAR, ChildProcess, child_environ

METHODS = ["spawn"] + (["exec"] if os.name == "posix" else []) + (["fork"] if sys.platform.startswith("linux") else [])


def _value(work: str, name: str) -> str | None:
    return os.environ.get(name)


@pytest.mark.parametrize("method", METHODS)
def test_every_child_starts_with_the_telemetry_off(method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(childproc, "START_METHOD", method)
    monkeypatch.delenv(ORT_TELEMETRY_VAR, raising=False)
    child = ChildProcess("", preload=())
    try:
        assert run_in_child(_value, ORT_TELEMETRY_VAR, timeout=120, child=child).value == "1"
    finally:
        child.discard()
    assert run_in_child(_value, ORT_TELEMETRY_VAR, timeout=120).value == "1"
    assert child_environ()[ORT_TELEMETRY_VAR] == "1"  # --prove-ort's releases, the ORT-format converter, pip
    monkeypatch.setenv(ORT_TELEMETRY_VAR, "0")  # the user's own choice is kept
    assert run_in_child(_value, ORT_TELEMETRY_VAR, timeout=120).value == "0"
    assert child_environ()[ORT_TELEMETRY_VAR] == "0"


def test_a_bundle_leaves_nothing_in_the_users_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sample_model: Path
) -> None:
    """The real thing: the sample bundled and verified with a smoke run (ONNX Runtime in children), the cache folder
    and the home folder pointed at empty folders: they stay empty."""
    monkeypatch.delenv(ORT_TELEMETRY_VAR, raising=False)  # (main() leaves it unset: only the children get it)
    cache, home = tmp_path / "cache", tmp_path / "home"
    cache.mkdir()
    home.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setenv("HOME", str(home))
    out, err = io.StringIO(), io.StringIO()
    env = Environment(stdout=out, stderr=err, vars={"SOURCE_DATE_EPOCH": "1700000000"})
    assert main(["bundle", str(sample_model), "-o", str(tmp_path / "out"), "--version", "1.0.0", "-q"], env) == 0
    assert main(["verify", str(tmp_path / "out" / "victory-1.0.0.zip"), "--smoke", "-q"], env) == 0, err.getvalue()
    assert sorted(p.relative_to(tmp_path) for p in (*cache.rglob("*"), *home.rglob("*"))) == []
