"""Issue 28 §2: one child runs a small model's onnx checker (a task) and then its smoke run (the job).

Behaviour only (speed is benchmarks/realmodels.py --sample-pairs): the checker and the smoke run still happen in a
child process with a time limit, a native crash or a time-out there is still a finding or an error (never the
caller's crash), cancellation still stops it, and a large model file still gets a checker child of its own. Both
start methods are covered: "exec" (POSIX) and multiprocessing's "spawn" (Windows, frozen apps).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import onnxpack.core.checks.checker_child as checker_mod
import onnxpack.core.child.childproc as childproc
from onnxpack.core.checks.checker_child import check_structure, run_in_child
from onnxpack.core.child.childproc import SMOKE_TARGET, ChildProcess
from onnxpack.core.errors import Cancelled, RefusedError
from onnxpack.core.progress import CancelToken
from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.runtime.loadcost import LOAD_COST_TARGET
from onnxpack.core.runtime.smoke import smoke_test

METHODS = ["spawn"] + (["exec"] if os.name == "posix" else []) + (["fork"] if sys.platform.startswith("linux") else [])


@pytest.fixture(params=METHODS)
def method(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(childproc, "START_METHOD", request.param)
    yield request.param


# Tasks: module-level, so that the child finds them by name.
def _crash(work: str, *_: Any) -> None:
    import ctypes

    ctypes.string_at(0)  # a real native crash


def _sleep(work: str, seconds: float) -> str:
    time.sleep(seconds)
    return "slept"


def _cwd(work: str) -> tuple[str, str]:
    return os.getcwd(), work


def _imported(work: str, names: list[str]) -> list[str]:
    return [n for n in names if n in sys.modules]


def test_the_smoke_child_imports_what_its_job_needs_before_the_job(method: str, sample_model: Path) -> None:
    """The waiting smoke child has imported its module's IMPORT_AHEAD already (off a small model's critical path),
    and the job still runs in it."""
    from onnxpack.core.runtime.smoke_child import IMPORT_AHEAD

    child = ChildProcess(SMOKE_TARGET)
    try:
        assert "numpy.random" in IMPORT_AHEAD
        assert run_in_child(_imported, list(IMPORT_AHEAD), timeout=60, child=child).value == list(IMPORT_AHEAD)
        run = smoke_test(sample_model, child=child)
        assert run.ok and run.outputs
    finally:
        child.discard()


def test_the_checker_runs_as_a_task_then_the_smoke_job_in_the_same_child(method: str, sample_model: Path) -> None:
    child = ChildProcess(SMOKE_TARGET)
    try:
        pid = child.proc.pid
        outcome = check_structure(sample_model, timeout=120, child=child)
        assert outcome.ok and outcome.value == {"checker": None, "inference": None}
        assert child.usable and child.proc.pid == pid  # the same process waits for its job
        cwd, work = run_in_child(_cwd, timeout=60, child=child).value
        assert os.path.realpath(cwd) == os.path.realpath(work)  # a task runs in the child's private folder
        run = smoke_test(sample_model, child=child)
        assert run.ok and run.outputs
        assert child.proc is None  # the job ended the child
    finally:
        child.discard()


def test_a_native_crash_in_a_task_is_an_outcome_and_the_smoke_run_gets_a_new_child(
    method: str, sample_model: Path
) -> None:
    child = ChildProcess(SMOKE_TARGET)
    try:
        outcome = run_in_child(_crash, timeout=60, child=child)
        assert outcome.status == "crashed" and "died" in outcome.detail
        assert not child.usable
        assert smoke_test(sample_model, child=child).ok  # a child of its own
    finally:
        child.discard()


def test_a_task_that_runs_too_long_stops_the_child(method: str) -> None:
    child = ChildProcess(SMOKE_TARGET, preload=())
    start = time.monotonic()
    outcome = run_in_child(_sleep, 60.0, timeout=1.0, child=child)
    assert outcome.status == "timeout"
    assert time.monotonic() - start < 30
    assert child.proc is None and child.tmp is None  # stopped, its private folder removed
    child.discard()


def test_cancel_while_a_task_runs_raises_and_discard_stops_the_child(method: str) -> None:
    child = ChildProcess(SMOKE_TARGET, preload=())
    tmp = child.tmp
    assert tmp is not None
    token = CancelToken()
    threading.Timer(0.5, token.cancel).start()
    start = time.monotonic()
    with pytest.raises(Cancelled):
        run_in_child(_sleep, 60.0, timeout=120, cancel=token, child=child)
    assert time.monotonic() - start < 10
    child.discard()
    assert child.proc is None and not Path(tmp).exists()  # stopped (and reaped), its private folder removed


def test_a_child_that_has_its_job_takes_no_task(method: str) -> None:
    child = ChildProcess(SMOKE_TARGET, preload=())
    try:
        child.send_job({"nothing": True})  # the target fails on it and the child ends
        assert not child.send_task(childproc.target_name(_sleep), 0.0)
        outcome = run_in_child(_sleep, 0.0, timeout=60, child=child)  # so the call gets a child of its own
        assert outcome.ok and outcome.value == "slept"
    finally:
        child.discard()


def _opts(model: Path, out: Path) -> BundleOptions:
    return BundleOptions(model=model, out_dir=out, version="1.0.0", source_date_epoch=1700000000)


def test_a_small_model_is_bundled_with_one_child(
    sample_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where children are exec'd or spawned, the checker runs in the smoke child: one import of onnx, not two."""
    monkeypatch.setattr(childproc, "START_METHOD", "exec")
    started: list[str] = []

    class Counted(ChildProcess):
        def __init__(self, target: str, preload: tuple[str, ...] = childproc.PRELOAD, **kw: Any) -> None:
            if target != LOAD_COST_TARGET:  # the end user's load is measured in a fresh process of its own
                started.append(target)
            super().__init__(target, preload, **kw)

    def no_separate_child(*a: Any, **k: Any) -> Any:
        raise AssertionError("the checker started a child of its own")

    monkeypatch.setattr(childproc, "ChildProcess", Counted)  # build_bundle starts it (childproc.child_for)
    monkeypatch.setattr("multiprocessing.get_context", no_separate_child)  # (children exec here)
    result = build_bundle(_opts(sample_model, tmp_path / "out"))
    assert started == [SMOKE_TARGET]
    assert not any(f.code.startswith("CHECKER") for f in result.findings)  # the checker ran, in that child
    assert result.smoke is not None and result.equal is not None
    assert not list((tmp_path / "out").glob(".onnxpack-*"))


def test_a_large_model_file_gets_a_checker_child_of_its_own(
    sample_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    given: list[Any] = []
    real = checker_mod.check_structure

    def spy(path: Path, **kw: Any) -> Any:
        given.append(kw.get("child"))
        return real(path, **kw)

    monkeypatch.setattr(childproc, "START_METHOD", "exec")
    monkeypatch.setattr("onnxpack.core.release.gate.SHARED_CHILD_BYTES", 0)
    monkeypatch.setattr("onnxpack.core.checks.validate.check_structure", spy)
    result = build_bundle(_opts(sample_model, tmp_path / "out"))
    assert given == [None] and result.smoke is not None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is Linux's")
def test_where_children_fork_the_checker_gets_one_of_its_own_and_it_is_stopped(
    sample_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child forked after the inspection has onnx imported already: it checks at once, beside the smoke child."""
    monkeypatch.setattr(childproc, "START_METHOD", "fork")
    started: list[ChildProcess] = []

    class Counted(ChildProcess):
        def __init__(self, target: str, preload: tuple[str, ...] = childproc.PRELOAD, **kw: Any) -> None:
            super().__init__(target, preload, **kw)
            if target != LOAD_COST_TARGET:  # the end user's load is measured in a fresh process of its own
                started.append(self)

    monkeypatch.setattr(childproc, "ChildProcess", Counted)  # build_bundle starts it (childproc.child_for)
    monkeypatch.setattr("onnxpack.core.release.gate.ChildProcess", Counted)
    result = build_bundle(_opts(sample_model, tmp_path / "out"))
    assert [c.target for c in started] == [SMOKE_TARGET, ""]
    assert all(c.proc is None and c.tmp is None for c in started)  # both stopped, their folders removed
    assert result.manifest["smoke"] is not None
    assert not any(f.code.startswith("CHECKER") for f in result.findings)  # the checker ran, in its child


def _crash_check(work: str, model_path: str) -> dict[str, Any]:
    _crash(work)
    return {}


def test_a_checker_crash_in_the_shared_child_refuses_the_bundle(
    sample_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checker_mod, "_check_task", _crash_check)  # the child runs it by this name
    with pytest.raises(RefusedError) as e:
        build_bundle(_opts(sample_model, tmp_path / "out"))
    assert "CHECKER_CRASHED" in e.value.message
    assert not (tmp_path / "out" / "victory-1.0.0.zip").exists()
    assert not list((tmp_path / "out").glob(".onnxpack-*"))


def test_a_given_child_is_adopted_and_stopped(sample_model: Path, tmp_path: Path) -> None:
    child = ChildProcess(SMOKE_TARGET)
    result = build_bundle(_opts(sample_model, tmp_path / "out"), child=child)
    assert result.smoke is not None
    assert child.proc is None and child.tmp is None


def _raise(work: str) -> None:
    raise ValueError("boom")


def test_a_task_without_a_child_gets_one_of_its_own(method: str) -> None:
    """``onnxpack check``'s checker: one child for the one task, under either start method."""
    ok = run_in_child(_sleep, 0.0, timeout=60)
    assert ok.status == "ok" and ok.value == "slept" and ok.exitcode == 0
    cwd, work = run_in_child(_cwd, timeout=60).value
    assert os.path.realpath(cwd) == os.path.realpath(work) and not Path(work).exists()
    crashed = run_in_child(_crash, timeout=60)
    assert crashed.status == "crashed" and "signal" in crashed.detail
    err = run_in_child(_raise, timeout=60)
    assert err.status == "error" and "ValueError: boom" in err.detail
    assert run_in_child(_sleep, 60.0, timeout=1.0).status == "timeout"


@pytest.mark.skipif(os.name != "posix", reason="the exec start method is POSIX's")
def test_an_exec_child_starts_in_its_private_folder_not_the_callers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -c`` imports from its current folder first: a model folder holding an ``onnxpack/`` of its own (or a
    ``numpy/``) must not be it."""
    monkeypatch.setattr(childproc, "START_METHOD", "exec")
    for name in ("onnxpack", "numpy"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("raise SystemExit('imported from the model folder')\n")
    monkeypatch.chdir(tmp_path)
    child = ChildProcess(SMOKE_TARGET, preload=("numpy",))
    try:
        outcome = run_in_child(_cwd, timeout=60, child=child)
        assert outcome.ok, outcome.detail
        cwd, work = outcome.value
        assert os.path.realpath(cwd) == os.path.realpath(work) != str(tmp_path)
    finally:
        child.discard()


def _slow_check(work: str, model_path: str) -> dict[str, Any]:
    time.sleep(60)
    return {"checker": None, "inference": None}


def test_cancel_while_the_shared_child_checks_stops_it_and_leaves_nothing(
    sample_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checker_mod, "_check_task", _slow_check)  # the child runs it by this name
    children: list[ChildProcess] = []

    class Kept(ChildProcess):
        def __init__(self, target: str, preload: tuple[str, ...] = childproc.PRELOAD) -> None:
            super().__init__(target, preload)
            children.append(self)

    monkeypatch.setattr(childproc, "ChildProcess", Kept)  # build_bundle starts it (childproc.child_for)
    token = CancelToken()
    threading.Timer(2.0, token.cancel).start()
    start = time.monotonic()
    with pytest.raises(Cancelled):
        build_bundle(_opts(sample_model, tmp_path / "out"), cancel=token)
    assert time.monotonic() - start < 20
    assert len(children) == 1 and children[0].proc is None and children[0].tmp is None  # stopped, folder removed
    out = tmp_path / "out"
    assert not out.exists() or list(out.iterdir()) == []  # the folder it made is gone too


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_stopped_exec_child_is_reaped_later_never_left_a_zombie(monkeypatch: pytest.MonkeyPatch) -> None:
    """discard() does not wait for the kernel to tear the child down; the next child or reap_children() does."""
    monkeypatch.setattr(childproc, "START_METHOD", "exec")
    child = ChildProcess(SMOKE_TARGET, preload=())
    pid = child.proc.pid
    child.discard()
    assert child.proc is None
    childproc.reap_children()
    assert not Path(f"/proc/{pid}").exists()  # neither running nor a zombie
    assert childproc._DYING == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is Linux's")
def test_only_a_process_of_one_thread_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread (numpy's BLAS pool, the desktop app's workers) may hold a lock that a fork would copy locked: then
    the child is exec'd instead."""
    monkeypatch.setattr(childproc, "START_METHOD", None)
    assert 2**20 < childproc._resident_bytes() < 2**40  # this process's own, read from /proc
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert not childproc._one_thread() and childproc.start_method() == "exec"
    finally:
        stop.set()
        worker.join()
    monkeypatch.setattr(childproc, "_one_thread", lambda: True)
    monkeypatch.setattr(childproc, "_resident_bytes", lambda: 100 * 2**20)
    assert childproc.start_method() == "fork"
    # a process holding a large model's structure would have its pages copied as both go on: it execs
    monkeypatch.setattr(childproc, "_resident_bytes", lambda: childproc.FORK_MAX_RESIDENT + 1)
    assert childproc.start_method() == "exec"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is Linux's")
def test_a_fork_child_keeps_none_of_the_parents_files_and_ends_with_its_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only its own pipe ends and the standard descriptors: a file the parent has open is not the child's, and
    when the parent's end of the job pipe closes (the parent died or gave up) the waiting child exits at once."""
    monkeypatch.setattr(childproc, "START_METHOD", "fork")
    held = open(tmp_path / "parent.txt", "w")  # noqa: SIM115 - held open across the fork on purpose
    try:
        child = ChildProcess("", preload=())
        pid = child.proc.pid
        outcome = run_in_child(_open_fds, timeout=60, child=child)
        assert outcome.ok, outcome.detail
        assert held.fileno() not in outcome.value, outcome.value
        assert len(set(outcome.value) - {0, 1, 2}) <= 3, outcome.value  # its two pipe ends, and the listing's own
        child._job_send.close()  # what the parent's death does to the pipe
        child.proc.join(10)
        assert child.proc.exitcode == 0 and not Path(f"/proc/{pid}").exists()
        child.discard()
    finally:
        held.close()


def _open_fds(work: str) -> list[int]:
    return sorted(int(n) for n in os.listdir("/proc/self/fd"))


def _slow_refusing_check(work: str, model_path: str) -> dict[str, Any]:
    time.sleep(1.5)
    return {"checker": "injected: the checker refuses this model", "inference": None}


def _slow_passing_check(work: str, model_path: str) -> dict[str, Any]:
    time.sleep(1.5)
    return {"checker": None, "inference": None}


def test_the_smoke_run_goes_on_beside_a_slow_checker(
    sample_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checker in a child of its own that is still at work when the merge ends does not hold the smoke run back;
    its verdict still comes before the bundle is written."""
    from onnxpack.core.progress import ProgressEvent

    monkeypatch.setattr(childproc, "START_METHOD", "exec")
    monkeypatch.setattr("onnxpack.core.release.gate.SHARED_CHILD_BYTES", 0)  # the checker gets a child of its own
    monkeypatch.setattr(checker_mod, "_check_task", _slow_passing_check)
    events: list[ProgressEvent] = []
    result = build_bundle(_opts(sample_model, tmp_path / "out"), progress=events.append)
    first_smoke = next(i for i, e in enumerate(events) if e.stage == "smoke")
    checker_done = next(i for i, e in enumerate(events) if e.stage == "validate" and e.done == e.total)
    first_zip = next(i for i, e in enumerate(events) if e.stage == "zip")
    assert first_smoke < checker_done < first_zip
    assert result.manifest["smoke"] is not None and result.zip_path.is_file()


def test_a_smoke_failure_beside_the_checker_defers_to_the_checkers_refusal(
    sample_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both fail: the checker's refusal is the first thing to fix, so it is what is raised; nothing is written."""
    from onnxpack.core.errors import OnnxpackError
    from onnxpack.core.runtime import smoke as smoke_mod

    monkeypatch.setattr(childproc, "START_METHOD", "exec")
    monkeypatch.setattr("onnxpack.core.release.gate.SHARED_CHILD_BYTES", 0)
    monkeypatch.setattr(checker_mod, "_check_task", _slow_refusing_check)
    monkeypatch.setattr(smoke_mod, "_TEST_HOOK", {"action": "raise", "when": "session"})
    out = tmp_path / "out"
    with pytest.raises(OnnxpackError) as e:
        build_bundle(_opts(sample_model, out))
    assert e.value.code == "BUNDLE_FINDINGS" and "injected: the checker refuses" in e.value.message
    assert not out.exists() or list(out.iterdir()) == []


def _asking_target(conn: Any, job: dict[str, Any]) -> None:
    from onnxpack.core.child.childask import ask_parent

    first = ask_parent({"n": 1})
    second = ask_parent("again")
    conn.send(("result", [first, second]))


def _not_asking_target(conn: Any, job: dict[str, Any]) -> None:
    from onnxpack.core.child.childask import ask_parent

    try:
        ask_parent("may I?")
    except EOFError:
        conn.send(("result", "refused"))
        return
    conn.send(("result", "answered"))


@pytest.mark.parametrize("fork", [True, False])
def test_a_job_asks_its_parent_and_waits_for_the_answer(fork: bool) -> None:
    """core/child/childask.py: a child whose ``answers`` is set runs a job that may ask; each question is answered on
    the job pipe, in order, in a forked and in a fresh process; a job that may not ask gets EOFError, not a hang."""
    from onnxpack.core.runtime.childrun import run_in_child as run_job

    asked: list[Any] = []
    child = ChildProcess(childproc.target_name(_asking_target), preload=(), fork=fork)
    child.answers = lambda q: asked.append(q) or f"answer {len(asked)}"
    assert run_job(_asking_target, {}, timeout=60, what="asking", child=child) == ["answer 1", "answer 2"]
    assert asked == [{"n": 1}, "again"]
    plain = ChildProcess(childproc.target_name(_not_asking_target), preload=(), fork=fork)
    assert run_job(_not_asking_target, {}, timeout=60, what="asking", child=plain) == "refused"


def test_an_exec_child_imports_no_more_of_onnxpack_than_its_start() -> None:
    """An exec'd child starts with core/child/childmain.py (a load-cost child imports onnxruntime and its own target
    only): none of the engine's registries, atomic writes or process handling comes before its imports."""
    import subprocess

    code = ("import sys; from onnxpack.core.child.childmain import exec_main; "
            "print(sorted(m for m in sys.modules if m.startswith('onnxpack')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(["onnxpack", "onnxpack.core", "onnxpack.core.child", "onnxpack.core.child.childask",
                               "onnxpack.core.child.childmain"])


def _answer_and_end(conn: Any, job: dict[str, Any]) -> None:
    conn.send(("result", {"ran": True}))


def test_a_result_written_just_before_the_child_ends_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """run_in_child: a child that sends its result and exits between the parent's poll (nothing yet) and its look at
    the process (gone) has ended well: its result is read, not reported as a crash (seen once on Linux:
    SMOKE_CRASH "exited with status 0" for a release's model whose run had passed)."""
    from onnxpack.core.runtime import childrun

    real = childrun._receive
    polls: list[int] = []

    def late(conn: Any) -> Any:
        if not polls:  # the first poll "misses" the result: it comes as the child ends
            polls.append(1)
            deadline = time.monotonic() + 30
            while child.proc.is_alive() and time.monotonic() < deadline:
                time.sleep(0.01)
            return None
        return real(conn)

    child = ChildProcess(childproc.target_name(_answer_and_end), preload=())
    monkeypatch.setattr(childrun, "_receive", late)
    assert childrun.run_in_child(_answer_and_end, {}, timeout=60, what="ending", child=child) == {"ran": True}
