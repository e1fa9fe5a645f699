"""Children started ahead (core/child/childproc.py start_ahead): the command line starts a bundle's load-cost child
first thing, and the load-cost code adopts it instead of starting its own."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from onnxpack.cli import Environment, main
from onnxpack.core.child import childproc
from onnxpack.core.child.childproc import ChildProcess, discard_ahead, start_ahead
from onnxpack.core.runtime.loadcost import LOAD_COST_TARGET

#: (the load-cost target without the onnxruntime import: these tests need the process, not the library)
NO_IMPORTS: tuple[str, ...] = ()


@pytest.fixture(autouse=True)
def _none_left() -> object:
    yield
    discard_ahead()


def test_a_child_started_ahead_is_adopted_by_the_same_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(childproc, "START_METHOD", "exec")
    start_ahead(LOAD_COST_TARGET, NO_IMPORTS, fork=False)
    ahead = childproc._AHEAD[0]
    pid, tmp = ahead.proc.pid, ahead.tmp
    other = ChildProcess(LOAD_COST_TARGET, ("json",), fork=False)  # other imports: a child of its own
    try:
        assert other.proc.pid != pid and [ahead] == childproc._AHEAD
    finally:
        other.discard()
    child = ChildProcess(LOAD_COST_TARGET, NO_IMPORTS, fork=False)
    try:
        assert child.proc.pid == pid and child.tmp == tmp and child.usable
        assert childproc._AHEAD == []
        again = ChildProcess(LOAD_COST_TARGET, NO_IMPORTS, fork=False)  # adopted once only
        assert again.proc.pid != pid
        again.discard()
    finally:
        child.discard()


def test_a_forked_child_is_never_adopted_where_a_fresh_process_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(childproc, "START_METHOD", "fork")
    start_ahead(LOAD_COST_TARGET, NO_IMPORTS)  # forked: a copy of this process
    ahead = childproc._AHEAD[0]
    pid = ahead.proc.pid
    assert ahead.forked
    fresh = ChildProcess(LOAD_COST_TARGET, NO_IMPORTS, fork=False)
    try:
        assert not fresh.forked and fresh.proc.pid != pid and [ahead] == childproc._AHEAD
    finally:
        fresh.discard()
    copy = ChildProcess(LOAD_COST_TARGET, NO_IMPORTS)  # a fork would do: it is adopted
    try:
        assert copy.proc.pid == pid
        assert ahead.proc is None and ahead.tmp is None  # the adopter owns it: stopping the old handle stops nothing
        ahead.discard()
        assert copy.usable
    finally:
        copy.discard()


def test_a_child_started_before_a_secret_was_hidden_is_not_adopted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(childproc, "START_METHOD", "exec")
    monkeypatch.setattr(childproc, "_HIDDEN", set())
    start_ahead(LOAD_COST_TARGET, NO_IMPORTS, fork=False)
    ahead = childproc._AHEAD[0]
    childproc.hide_from_children("ONNXPACK_TEST_AHEAD_SECRET")
    child = ChildProcess(LOAD_COST_TARGET, NO_IMPORTS, fork=False)
    try:
        assert child.proc.pid != ahead.proc.pid and "ONNXPACK_TEST_AHEAD_SECRET" in child.hidden
    finally:
        child.discard()
    discard_ahead()
    assert ahead.proc is None and ahead.tmp is None and childproc._AHEAD == []  # stopped, its folder removed


@pytest.mark.parametrize("reset", [None, False])
def test_the_bundle_adopts_the_load_cost_child_the_command_line_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sample_model: Path, reset: bool | None
) -> None:
    """Where a process cannot reset its peak (``reset`` False: Windows, macOS), the command line starts the load-cost
    child ahead and the bundle adopts it; where it can (Linux, ``None``: as this machine is), the smoke child measures
    both loads and no load-cost child is started at all."""
    from onnxpack.core.child import childhandles
    from onnxpack.core.runtime import loadcost

    if reset is not None:
        monkeypatch.setattr(childhandles, "can_reset_peak", lambda: reset)
        monkeypatch.setattr(loadcost, "can_reset_peak", lambda: reset)
    in_smoke_child = childhandles.can_reset_peak()
    started: list[tuple[str, bool]] = []
    real = childproc.ChildProcess.__init__

    def record(self: ChildProcess, target: str, preload: tuple[str, ...] = childproc.PRELOAD, *,
               fork: bool = True) -> None:
        adopted = bool(childproc._AHEAD)
        real(self, target, preload, fork=fork)
        started.append((target, adopted and target == LOAD_COST_TARGET))

    monkeypatch.setattr(childproc.ChildProcess, "__init__", record)
    out, err = io.StringIO(), io.StringIO()
    code = main(["bundle", str(sample_model), "-o", str(tmp_path / "out"), "--version", "1.0.0"],
                Environment(stdout=out, stderr=err, vars={}))
    assert code == 0, err.getvalue()
    assert childproc._AHEAD == []
    loads = [adopted for target, adopted in started if target == LOAD_COST_TARGET]
    if in_smoke_child:
        assert loads == [], started
    else:  # started ahead by the command line, then adopted by the bundle
        assert loads[:2] == [False, True], started
    with zipfile.ZipFile(tmp_path / "out" / "victory-1.0.0.zip") as z:
        cost = json.loads(z.read("manifest.json"))["smoke"]["load_cost"]
    assert cost["shipped"]["load_s"] >= 0 and cost["source"]["load_s"] >= 0, cost


@pytest.mark.parametrize("method", ["fork", "exec"])
def test_the_command_line_imports_onnx_before_it_forks_its_smoke_child(method: str) -> None:
    """Forked, the smoke child is a copy of a process that has imported onnx (the two never both import it); where
    children exec, the command line does not wait for onnx before it starts the child."""
    import subprocess
    import sys

    code = ("import sys; from onnxpack.core.child import childproc; from onnxpack import cli; "
            f"childproc.START_METHOD = {method!r}; "
            "child = cli._early_child(cli.build_parser().parse_args(['smoke', 'm.onnx'])); "
            "print('onnx' in sys.modules, child.forked); child.discard()")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == (["True", "True"] if method == "fork" else ["False", "False"])


@pytest.mark.parametrize("reset", [True, False])
@pytest.mark.parametrize("flags", [[], ["--no-load-cost"], ["--no-smoke"], ["--layout", "keep"]])
def test_the_command_line_starts_the_load_cost_child_only_where_the_bundle_measures_it(
    flags: list[str], reset: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only for a bundle that measures the load cost in load-cost processes: not where the smoke child measures it
    (``reset``: the process can reset its peak, Linux)."""
    from onnxpack import cli
    from onnxpack.core.child import childhandles

    monkeypatch.setattr(childproc, "START_METHOD", "exec")
    monkeypatch.setattr(childhandles, "can_reset_peak", lambda: reset)
    child = cli._early_child(cli.build_parser().parse_args(["bundle", "m.onnx", "-o", "out", "--version", "1", *flags]))
    try:
        ahead = [(c.target, c.forked) for c in childproc._AHEAD]
        assert ahead == ([(LOAD_COST_TARGET, False)] if not flags and not reset else []), flags
    finally:
        if child is not None:
            child.discard()
