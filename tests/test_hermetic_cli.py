"""A hermetic command line (issue 38 item 5): ``main(argv, env)`` changes no environment it was not asked to, parses
argv once and nothing before that, and a command starts one child."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from onnxpack import cli
from onnxpack.cli import Environment, ExitStatus, main
from onnxpack.core.child import childproc
from onnxpack.core.runtime.loadcost import LOAD_COST_TARGET


def _env(**variables: str) -> Environment:
    return Environment(stdout=io.StringIO(), stderr=io.StringIO(), vars=dict(variables))


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every child process started while the test runs."""
    made: list[Any] = []

    class Recorded(childproc.ChildProcess):
        def __init__(self, target: str, preload: tuple[str, ...] = childproc.PRELOAD, **kw: Any) -> None:
            super().__init__(target, preload, **kw)
            made.append(self)

    monkeypatch.setattr(childproc, "ChildProcess", Recorded)
    return made


def test_main_leaves_the_process_environment_as_it_found_it(tmp_path: Path, sample_model: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The variables the console script sets for its own process (run: BLAS threads, ORT telemetry) are not set by
    main(), nor anything else, whatever the command, its outcome, or the variables in env."""
    for name in ("OPENBLAS_NUM_THREADS", "ORT_DISABLE_TELEMETRY", "SOURCE_DATE_EPOCH"):
        monkeypatch.delenv(name, raising=False)
    before = dict(os.environ)
    out = tmp_path / "out"
    runs = [
        ["--version"], ["inspect", str(sample_model), "--json"], ["check", str(tmp_path / "missing.onnx")],
        ["inspect", "--no-such-flag"],
        ["bundle", str(sample_model), "-o", str(out), "--version", "1.0.0", "-q"],
        ["verify", str(out / "victory-1.0.0.zip"), "-q"],
    ]  # fmt: skip
    statuses = [main(argv, _env(SOURCE_DATE_EPOCH="1700000000")) for argv in runs]
    assert statuses == [ExitStatus.OK, ExitStatus.OK, ExitStatus.USAGE, ExitStatus.USAGE, ExitStatus.OK,
                        ExitStatus.OK]  # fmt: skip
    assert dict(os.environ) == before


def test_the_console_script_sets_its_own_process_variables_unless_the_user_did(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.setenv("ORT_DISABLE_TELEMETRY", "0")  # the user's choice is kept
    cli.configure_process()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1" and os.environ["ORT_DISABLE_TELEMETRY"] == "0"


def test_debugging_is_asked_for_in_env_not_read_from_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """ONNXPACK_DEBUG (re-raise an internal error) comes from the environment main() was given."""

    def broken(args: Any, env: Environment) -> int:
        raise RuntimeError("a bug")

    from onnxpack.cli import cmd_keygen

    monkeypatch.setitem(cmd_keygen.HANDLERS, "keygen", broken)
    monkeypatch.setenv("ONNXPACK_DEBUG", "1")  # the process's: not main()'s
    env = _env()
    assert main(["keygen", "-o", "keys"], env) == ExitStatus.INTERNAL
    assert "Internal error: RuntimeError: a bug" in env.stderr.getvalue()  # type: ignore[attr-defined]
    with pytest.raises(RuntimeError, match="a bug"):
        main(["keygen", "-o", "keys"], _env(ONNXPACK_DEBUG="1"))


def test_argv_is_parsed_once_and_words_after_double_dash_are_not_flags(tmp_path: Path, started: list[Any],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing reads argv before the parser: a model named `--json` is a file (the error is text, not JSON), a bundle
    named `--smoke` starts no smoke child; the parser runs once per command line."""
    calls: list[str] = []
    parse = cli._Parser.parse_known_args

    def counted(self: Any, args: Any = None, namespace: Any = None) -> Any:
        calls.append(self.prog)
        return parse(self, args, namespace)

    monkeypatch.setattr(cli._Parser, "parse_known_args", counted)
    monkeypatch.chdir(tmp_path)
    env = _env()
    assert main(["inspect", "--", "--json"], env) == ExitStatus.USAGE
    assert env.stdout.getvalue() == "" and "error:" in env.stderr.getvalue()  # type: ignore[attr-defined]
    assert calls == ["onnxpack", "onnxpack inspect"]
    calls.clear()
    assert main(["verify", "--", "--smoke"], _env()) == ExitStatus.USAGE and started == []
    assert calls == ["onnxpack", "onnxpack verify"]
    env = _env()
    assert main(["inspect", "--json", "--no-such-flag"], env) == ExitStatus.USAGE  # --json read, then the error
    assert json.loads(env.stdout.getvalue())["error"]["code"] == "USAGE"  # type: ignore[attr-defined]


def test_bundle_reads_its_output_flag_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """-o is read by the command line alone (it looks at the disk); the spec only writes it back."""
    from onnxpack.cli import cmd_bundle
    from onnxpack.core.release.flaggroups import BUNDLE_SPEC

    read: list[str] = []
    resolve = cmd_bundle.output_file_or_folder

    def counted(value: str, *rest: Any) -> Any:
        read.append(value)
        return resolve(value, *rest)

    monkeypatch.setattr(cmd_bundle, "output_file_or_folder", counted)
    args = cli.build_parser().parse_args(["bundle", "m.onnx", "-o", str(tmp_path / "r.zip"), "--version", "1.0.0"])
    opts = cmd_bundle.options_from_args(args, _env())
    assert read == [str(tmp_path / "r.zip")] and (opts.out_dir, opts.zip_name) == (tmp_path, "r.zip")
    assert "out_dir" not in BUNDLE_SPEC.fields_from_values(vars(args))


def test_a_bundle_starts_one_child(tmp_path: Path, sample_model: Path, started: list[Any]) -> None:
    """main() starts the command's child once its arguments are parsed; the bundle adopts it and starts no other."""
    env = _env(SOURCE_DATE_EPOCH="1700000000")
    assert main(["bundle", str(sample_model), "-o", str(tmp_path), "--version", "1.0.0", "-q"], env) == ExitStatus.OK
    # (besides it, where the smoke child cannot measure the end user's load itself (no peak reset: not Linux), a
    # process of its own does: core/runtime/loadcost.py, never forked, which main() starts too and the bundle adopts:
    # core/child/childproc.py start_ahead)
    smoke = [c for c in started if c.target != LOAD_COST_TARGET]
    assert [c.target for c in smoke] == [childproc.SMOKE_TARGET]
    from onnxpack.core.child.childhandles import can_reset_peak

    assert not can_reset_peak() or len(started) == 1, [c.target for c in started]
    assert all(c.proc is None and c.tmp is None for c in started)  # stopped, their folders removed
    started.clear()
    assert main(["smoke", str(sample_model), "-q"], _env()) == ExitStatus.OK
    assert [c.target for c in started] == [childproc.SMOKE_TARGET]


def test_a_signed_bundle_starts_its_one_child_once_the_secrets_are_hidden(tmp_path: Path, sample_model: Path,
                                                                          started: list[Any],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A command naming a variable that holds a secret starts no early child (it would hold the secret): the engine
    starts the one child after hiding it."""
    hidden: list[frozenset[str]] = []
    monkeypatch.setattr(childproc, "_HIDDEN", set())  # what this test hides stays in it
    real = childproc.ChildProcess

    class Seen(real):  # type: ignore[misc, valid-type]
        def __init__(self, target: str, preload: tuple[str, ...] = childproc.PRELOAD) -> None:
            hidden.append(childproc.hidden_vars())
            super().__init__(target, preload)

    monkeypatch.setattr(childproc, "ChildProcess", Seen)
    argv = ["bundle", str(sample_model), "-o", str(tmp_path), "--version", "1.0.0", "--sign-key",
            str(tmp_path / "missing.key"), "--sign-key-password-env", "TEST_ONLY_PASSWORD", "-q"]
    assert main(argv, _env()) != ExitStatus.OK  # the key is missing: refused, after the child was started
    assert len(started) == 1 and hidden == [frozenset({"TEST_ONLY_PASSWORD"})]
