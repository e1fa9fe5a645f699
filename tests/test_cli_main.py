"""The dispatcher: help and version go to the given stdout, usage errors exit 2 without a traceback."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest

from onnxpack.cli import Environment, ExitStatus, main
from onnxpack.core import __version__

ROOT = Path(__file__).resolve().parent.parent


def _env() -> Environment:
    return Environment(stdout=io.StringIO(), stderr=io.StringIO(), vars={})


def test_help_and_version_go_to_env_stdout() -> None:
    env = _env()
    assert main(["--help"], env) == ExitStatus.OK
    out = env.stdout.getvalue()  # type: ignore[attr-defined]
    for command in ("inspect", "check", "merge", "smoke", "ort", "bundle", "verify"):
        assert command in out
    env = _env()
    assert main(["--version"], env) == ExitStatus.OK
    assert __version__ in env.stdout.getvalue()  # type: ignore[attr-defined]


def test_no_command_prints_help_and_exits_2() -> None:
    env = _env()
    assert main([], env) == ExitStatus.USAGE
    assert "usage" in env.stdout.getvalue().lower()  # type: ignore[attr-defined]


def test_unknown_option_is_a_usage_error_with_hint() -> None:
    env = _env()
    assert main(["inspect", "--no-such-flag", "x.onnx"], env) == ExitStatus.USAGE
    err = env.stderr.getvalue()  # type: ignore[attr-defined]
    assert "error:" in err and "hint:" in err and "Traceback" not in err


def test_json_usage_error_is_a_json_document() -> None:
    import json

    env = _env()
    assert main(["inspect", "--json"], env) == ExitStatus.USAGE
    doc = json.loads(env.stdout.getvalue())  # type: ignore[attr-defined]
    assert doc["ok"] is False and doc["error"]["code"] == "USAGE"


def test_broken_pipe_stops_quietly() -> None:
    """`onnxpack … | head` closes the pipe early: no 'internal error', exit 141 (128 + SIGPIPE)."""

    class ClosedPipe(io.StringIO):
        def write(self, s: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    err = io.StringIO()
    env = Environment(stdout=ClosedPipe(), stderr=err, vars={})
    assert main(["inspect", str(ROOT / "resources" / "sample")], env) == ExitStatus.BROKEN_PIPE
    assert err.getvalue() == ""


def test_broken_pipe_in_a_real_pipeline() -> None:
    import subprocess
    import sys

    # `head -c 0` exits at once, so every write of ours meets a closed pipe.
    cmd = f'"{sys.executable}" -m onnxpack.cli inspect "{ROOT / "resources" / "sample"}"; echo "status=$?" >&2'
    r = subprocess.run(f"({cmd}) | head -c 0", shell=True, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert "status=141" in r.stderr
    assert "Internal error" not in r.stderr and "Traceback" not in r.stderr


def test_command_table_matches_what_the_modules_run() -> None:
    """onnxpack.cli.commands.COMMANDS (which module runs which command) names every command, right: each module
    handles exactly the commands the table gives it, and each has the engine's flags."""
    import importlib

    from onnxpack.cli.commands import COMMANDS
    from onnxpack.core.release.flaggroups import COMMAND_SPECS

    assert set(COMMANDS) == set(COMMAND_SPECS)
    for module_name in {c.module for c in COMMANDS.values()}:
        handled = set(importlib.import_module(f"onnxpack.cli.{module_name}").HANDLERS)
        assert handled == {name for name, c in COMMANDS.items() if c.module == module_name}, module_name


def test_a_command_run_loads_only_its_own_module(tmp_path: Path) -> None:
    """Building the parser imports no command's module; `onnxpack merge …` then imports its own only, not the bundle,
    smoke or inspect commands (start-up time)."""
    import subprocess
    import sys

    loaded = "print(sorted(m for m in sys.modules if m.startswith('onnxpack.cli.cmd_')))"
    code = "import sys; from onnxpack.cli import build_parser; build_parser()\n"
    out = subprocess.run([sys.executable, "-c", code + loaded], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout  # fmt: skip
    assert out.strip() == "[]"
    missing = str(tmp_path / "missing.onnx")
    code = f"import sys; from onnxpack.cli import main; main(['merge', {missing!r}, '-o', {str(tmp_path)!r}])\n"
    out = subprocess.run([sys.executable, "-c", code + loaded], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout  # fmt: skip
    assert out.strip().splitlines()[-1] == "['onnxpack.cli.cmd_merge']"


def test_unknown_command_lists_every_command() -> None:
    env = _env()
    assert main(["frobnicate", "x.onnx"], env) == ExitStatus.USAGE
    err = env.stderr.getvalue()  # type: ignore[attr-defined]
    for command in ("inspect", "check", "merge", "smoke", "ort", "bundle", "verify"):
        assert command in err


def test_the_command_child_starts_before_the_command_and_is_always_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bundle, smoke, check and verify --smoke get their child process first thing (it imports onnx while the engine
    is imported), bundle its load-cost child too; the command adopts them; they are stopped however the run ends,
    and --help starts none."""
    from onnxpack.cli import _LOAD_COST_CHILD, EARLY_CHILDREN
    from onnxpack.core.child import childproc

    monkeypatch.setattr(childproc, "START_METHOD", "exec")  # check's child is started early where children exec
    made: list[Any] = []

    class Recorded(childproc.ChildProcess):
        def __init__(self, target: str, preload: tuple[str, ...] = childproc.PRELOAD, *, fork: bool = True) -> None:
            super().__init__(target, preload, fork=fork)
            made.append(self)

    monkeypatch.setattr(childproc, "ChildProcess", Recorded)
    env = _env()
    assert main(["bundle", "--help"], env) == ExitStatus.OK and made == []
    missing = str(tmp_path / "missing.onnx")
    for argv in (["bundle", missing, "-o", str(tmp_path / "out"), "--version", "1.0.0"], ["check", missing],
                 ["smoke", missing], ["verify", missing, "--smoke"]):
        made.clear()
        assert main(argv, env) != ExitStatus.OK
        load_cost = [(c.target, c.preload) for c in made] == [_LOAD_COST_CHILD, EARLY_CHILDREN["bundle"]]
        assert len(made) == 1 or (argv[0] == "bundle" and load_cost), argv
        assert all(c.proc is None and c.tmp is None for c in made), argv  # stopped, its folder removed
    made.clear()
    assert main(["bundle", "--no-such-flag"], env) == ExitStatus.USAGE and made == []  # parsed first: no child
    assert main(["inspect", missing], env) != ExitStatus.OK and made == []  # inspect needs no child
    assert main(["verify", missing], env) != ExitStatus.OK and made == []  # nor verify without --smoke


def test_the_early_smoke_child_is_the_engines() -> None:
    from onnxpack.cli import _LOAD_COST_CHILD, EARLY_CHILDREN
    from onnxpack.core.child.childproc import PRELOAD, SMOKE_TARGET
    from onnxpack.core.runtime.loadcost import LOAD_COST_TARGET

    assert set(EARLY_CHILDREN.values()) == {(SMOKE_TARGET, PRELOAD)}
    assert _LOAD_COST_CHILD == (LOAD_COST_TARGET, ("onnxruntime",))  # what loadcost.started() asks for


def test_the_command_line_turns_off_the_telemetry_the_engine_names(monkeypatch: Any) -> None:
    """The console script (run) spells ORT_DISABLE_TELEMETRY itself (importing core.child.childproc costs `inspect` ~20
    ms): the same name; main() itself leaves the environment alone (see test_hermetic_cli.py)."""
    from onnxpack.cli import configure_process
    from onnxpack.core.child.childproc import ORT_TELEMETRY_VAR

    monkeypatch.delenv(ORT_TELEMETRY_VAR, raising=False)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    configure_process()
    assert os.environ[ORT_TELEMETRY_VAR] == "1" and os.environ["OPENBLAS_NUM_THREADS"] == "1"


@pytest.mark.parametrize("argv", [
    ["inspect", "m.onnx", "--json", "--data-dir", "d"],
    ["check", "m.onnx", "--target-ort", "1.17"],
    ["bundle", "m.onnx", "-o", "out", "--version", "1.0.0"],
    ["merge", "m.onnx", "-o", "out"],
    ["smoke", "m.onnx"],
    ["verify", "r.zip", "--smoke"],
])
def test_the_parser_of_the_named_command_reads_the_line_as_the_full_one(argv: list[str]) -> None:
    """main() gives the parser the flags of the command on the line only (start-up time): the same reading."""
    from onnxpack.cli import build_parser

    assert vars(build_parser(argv[0]).parse_args(argv)) == vars(build_parser().parse_args(argv))


def test_every_command_is_listed_whichever_is_named() -> None:
    for argv in (["inspect", "--help"], ["bundle", "--help"]):
        env = _env()
        assert main(argv, env) == ExitStatus.OK
        assert f"usage: onnxpack {argv[0]}" in env.stdout.getvalue()  # type: ignore[attr-defined]
    env = _env()
    assert main(["inspect", "m.onnx", "--no-smoke"], env) == ExitStatus.USAGE  # another command's flag: refused
    assert "--no-smoke" in env.stderr.getvalue()  # type: ignore[attr-defined]


def test_the_console_script_imports_the_command_with_the_collector_paused(monkeypatch: Any) -> None:
    """run() (one command per process) pauses the collector while the command's module imports and freezes what the
    imports made; a caller of main() keeps its collector as it was, unfrozen."""
    import gc
    import importlib

    import onnxpack.cli as cli

    seen: list[tuple[str, bool]] = []
    real = importlib.import_module

    def spy(name: str, package: str | None = None) -> Any:
        seen.append((name, gc.isenabled()))
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", spy)
    sample = str(ROOT / "resources" / "sample")
    frozen = gc.get_freeze_count()
    assert main(["inspect", sample], _env()) == ExitStatus.OK
    assert seen == [("onnxpack.cli.cmd_inspect", True)] and gc.isenabled() and gc.get_freeze_count() == frozen
    monkeypatch.setattr(cli, "_ONE_COMMAND_PROCESS", True)
    try:
        assert main(["inspect", sample], _env()) == ExitStatus.OK
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
    assert seen[1] == ("onnxpack.cli.cmd_inspect", False) and gc.isenabled()


def _run_console_script(tmp_path: Path, before: str, argv: list[str]) -> Any:
    """The console script's entry point (``onnxpack.cli:run``) in a fresh interpreter, ``before`` run first."""
    import subprocess
    import sys

    code = f"import sys\n{before}\nsys.argv = {['onnxpack', *argv]!r}\nfrom onnxpack.cli import run\nrun()\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)


def test_the_console_script_ends_at_once_after_what_an_exit_runs(tmp_path: Path) -> None:
    """The process ends without tearing its modules down (os._exit), but only after what Python's exit runs for
    others: the atexit handlers, the flushed output; the exit status is the command's."""
    mark = tmp_path / "atexit-ran"
    before = f"import atexit\natexit.register(lambda: open({str(mark)!r}, 'w').write('ran'))\nprint('buffered', end='')"
    done = _run_console_script(tmp_path, before, ["inspect", str(ROOT / "resources" / "sample" / "victory.onnx")])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("buffered") and "victory.onnx" in done.stdout
    assert mark.read_text() == "ran"
    missing = _run_console_script(tmp_path, "", ["inspect", str(tmp_path / "none.onnx")])
    assert missing.returncode == 2 and "No such file" in missing.stderr and "Traceback" not in missing.stderr


def test_the_console_script_waits_for_a_thread_still_running(tmp_path: Path) -> None:
    """Where another thread still runs, the process ends as Python ends it: after that thread."""
    mark = tmp_path / "thread-done"
    before = (f"import threading, time\n"
              f"threading.Thread(target=lambda: (time.sleep(0.5), open({str(mark)!r}, 'w').write('done'))).start()")
    done = _run_console_script(tmp_path, before, ["--version"])
    assert done.returncode == 0, done.stderr
    assert mark.read_text() == "done"
