"""The `onnxpack` command line: a thin layer over the engine (``main(argv, env) -> ExitStatus``)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from onnxpack.core import __version__, classcodes, errorcodes
from onnxpack.core.errors import OnnxpackError, from_os_error

from .env import Environment, ExitStatus
from .output import emit_error

if TYPE_CHECKING:
    from onnxpack.core.childproc import ChildProcess

__all__ = ["Environment", "ExitStatus", "build_parser", "main", "run"]

# One module per group of subcommands; each defines ``register(subparsers)``.
_COMMAND_MODULES = ("cmd_inspect", "cmd_merge", "cmd_smoke", "cmd_bundle", "cmd_verify", "cmd_keygen")
# Which module registers which command: a run imports only its own command's module (``onnxpack smoke``
# need not import the bundle or inspect machinery); ``--help`` and unknown commands import them all.
# tests/test_cli_main.py checks this table against what the modules really register.
COMMANDS = {
    "inspect": "cmd_inspect",
    "check": "cmd_inspect",
    "merge": "cmd_merge",
    "smoke": "cmd_smoke",
    "ort": "cmd_smoke",
    "bundle": "cmd_bundle",
    "verify": "cmd_verify",
    "keygen": "cmd_keygen",
}


#: The commands whose work runs in a child process, and its entry point ("": the onnx checker's tasks only). main()
#: starts it before the command's module and the engine are imported, so that its imports overlap theirs (a child
#: forked that early is a copy of a process that has imported little); the command finds it as ``args.early_child``.
#: (core.childproc's SMOKE_TARGET and PRELOAD, spelled out: importing it costs ~20 ms that `inspect` need not pay;
#: tests/test_cli_main.py checks they are the same.)
_SMOKE_CHILD = ("onnxpack.core.runtime.smoke_child:child_main", ("onnx", "onnxruntime"))
EARLY_CHILDREN = {"bundle": _SMOKE_CHILD, "smoke": _SMOKE_CHILD, "verify": _SMOKE_CHILD}  # verify: with --smoke
#: Commands whose child runs only the onnx checker: started early only where children do not fork (one forked
#: after the inspection has onnx imported already: check of the sample 0.180 s -> 0.168 s, and less CPU).
_EARLY_CHECKER = ("check",)


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors through our error path (exit 2, no traceback)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise errorcodes.USAGE.error(variant="argparse", prog=self.prog, message=message)


def _command_of(argv: Sequence[str] | None) -> str | None:
    """The command word of ``argv`` (top-level options take no value, so it is the first non-option)."""
    for a in argv or ():
        if not a.startswith("-"):
            return a if a in COMMANDS else None
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The full parser; given ``argv`` naming a known command, only that command's module is loaded."""
    import importlib

    parser = _Parser(
        prog="onnxpack",
        description="Inspect, validate, merge, smoke-run and bundle ONNX models for release.",
    )
    parser.add_argument("--version", action="version", version=f"onnxpack {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    command = _command_of(argv)
    for name in _COMMAND_MODULES if command is None else (COMMANDS[command],):
        module = importlib.import_module(f"{__name__}.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None, env: Environment | None = None) -> ExitStatus:
    """Run one command; never raises (errors become messages and exit codes)."""
    env = env or Environment.from_process()
    # numpy's BLAS would start a thread pool when onnx imports it: a process of one thread can fork its children
    # (see onnxpack.core.childproc.start_method), and nothing here multiplies matrices.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # ONNX Runtime's telemetry (1.29+: a device id and an event store in the user's cache folder, uploads) stays off
    # in this process and its children unless the user set it (core.childproc.ORT_TELEMETRY_VAR, not imported here).
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    args_list = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args_list
    child = None
    try:
        child = _early_child(args_list)
        parser = build_parser(args_list)
        try:
            # argparse prints --help/--version to sys.stdout; send it to this command's stdout.
            with contextlib.redirect_stdout(env.stdout):
                args = parser.parse_args(args_list)
        except SystemExit as e:  # --help / --version
            return ExitStatus(int(e.code or 0))
        if not getattr(args, "handler", None):
            parser.print_help(env.stdout)
            return ExitStatus.USAGE
        args.early_child = child
        return ExitStatus(args.handler(args, env))
    except OnnxpackError as e:
        emit_error(env, e, as_json)
        return ExitStatus(e.exit_status)
    except BrokenPipeError:
        # The reader went away (`onnxpack … | head`): stop quietly, as other command-line tools do. Point
        # stdout at devnull so the interpreter's final flush does not raise again.
        _silence_stdout(env)
        return ExitStatus.BROKEN_PIPE
    except KeyboardInterrupt:
        env.stderr.write("Interrupted.\n")
        return ExitStatus.CANCELLED
    except Exception as e:  # last line of defence: a clear message, never a traceback
        if os.environ.get("ONNXPACK_DEBUG"):
            raise
        path_error = from_os_error(e) if isinstance(e, OSError) else None
        if path_error is not None:  # a name too long, a read-only disk: the user's path, not a bug
            emit_error(env, path_error, as_json)
            return ExitStatus(path_error.exit_status)
        err = classcodes.INTERNAL.error(variant="unexpected", exception=type(e).__name__, error=str(e))
        emit_error(env, err, as_json)
        return ExitStatus(err.exit_status)
    finally:
        if child is not None:  # the command's own (it stops it when done; stopping twice is harmless)
            child.discard()


def _early_child(argv: Sequence[str]) -> ChildProcess | None:
    """The child process of the command in ``argv`` (see :data:`EARLY_CHILDREN`), started now; None if it has none
    or asks for help."""
    command = _command_of(argv)
    if command is None or any(a in ("-h", "--help") for a in argv):
        return None  # (--version after the command word is bundle's release version, not the program's)
    if any(a.startswith("--sig") for a in argv):  # signs (or an abbreviation of a signing flag): the command starts
        return None  # its child once the variables holding secrets are hidden from children (not forked with them)
    from onnxpack.core.childproc import ChildProcess, start_method

    if command in _EARLY_CHECKER and start_method() != "fork":
        return ChildProcess("", ("onnx",))
    if command not in EARLY_CHILDREN or (command == "verify" and "--smoke" not in argv):
        return None
    target, preload = EARLY_CHILDREN[command]
    return ChildProcess(target, preload)


def _silence_stdout(env: Environment) -> None:
    if env.stdout is not sys.stdout:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def run() -> None:
    """Console-script entry point: the exit status of :func:`main`, once every child process is reaped."""
    status = int(main())
    from onnxpack.core.childproc import reap_children

    reap_children()
    import gc

    gc.freeze()  # the process ends now: its final collections need not walk what onnx and numpy made (~40 ms)
    sys.exit(status)
