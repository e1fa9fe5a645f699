"""The `onnxpack` command line: a thin layer over the engine (``main(argv, env) -> ExitStatus``)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from onnxpack.core import __version__, classcodes, errorcodes
from onnxpack.core.errors import OnnxpackError, from_os_error

from .commands import COMMANDS
from .env import Environment, ExitStatus
from .output import emit_error

if TYPE_CHECKING:
    from onnxpack.core.child.childproc import ChildProcess

__all__ = ["Environment", "ExitStatus", "build_parser", "configure_process", "main", "run"]

#: The commands whose work runs in a child process, and its entry point ("": the onnx checker's tasks only). main()
#: starts it once the arguments are parsed, before the command's module and the engine are imported, so that its
#: imports overlap theirs; the command finds it as ``args.early_child`` and is the only one to start it. Where it is
#: forked, onnx (and numpy) are imported first: the command needs them anyway, and the copy then has them too, so
#: the two processes never both import them (the child imports ONNX Runtime while the parent imports the engine).
#: (core.child.childproc's SMOKE_TARGET and PRELOAD, spelled out: `inspect` need not pay for importing it;
#: tests/test_cli_main.py checks they are the same.)
_SMOKE_CHILD = ("onnxpack.core.runtime.smoke_child:child_main", ("onnx", "onnxruntime"))
#: A bundle's load-cost child (core.runtime.loadcost's LOAD_COST_TARGET, spelled out for the same reason): a fresh
#: process (never forked: its own memory is measured), started first thing unless --no-smoke, --no-load-cost or
#: --layout keep, or where the smoke child measures the loads itself (Linux: can_reset_peak), so that its Python start
#: and onnxruntime import overlap the parent's imports; the bundle adopts it (core.child.childproc.start_ahead).
_LOAD_COST_CHILD = ("onnxpack.core.runtime.loadcost:child_main", ("onnxruntime",))
EARLY_CHILDREN = {"bundle": _SMOKE_CHILD, "smoke": _SMOKE_CHILD, "verify": _SMOKE_CHILD}  # verify: with --smoke
#: Commands whose child runs only the onnx checker: started early only where children do not fork (one forked
#: after the inspection has onnx imported already is as quick, and costs less CPU: docs/performance.md).
_EARLY_CHECKER = ("check",)
#: Flags naming environment variables that hold secrets: a command given one starts its child itself, once those
#: variables are hidden from children (core.child.childproc.hide_from_children; never forked with them).
_SECRET_VARIABLE_FLAGS = ("sign_key_password_env", "sigstore_identity_token_env")


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors through our error path (exit 2, no traceback), as JSON when the arguments
    read before the error asked for it."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self._namespace = namespace if namespace is not None else argparse.Namespace()
        return super().parse_known_args(args, self._namespace)

    def error(self, message: str) -> None:  # type: ignore[override]
        as_json = bool(getattr(getattr(self, "_namespace", None), "json", False))
        raise _UsageError(errorcodes.USAGE.error(variant="argparse", prog=self.prog, message=message), as_json)


class _UsageError(OnnxpackError):
    """A usage error argparse found (the registry's USAGE, as worded), and whether the arguments read before it asked
    for JSON."""

    def __init__(self, error: OnnxpackError, as_json: bool) -> None:
        super().__init__(error.message, error.hint, code=error.code, details=error.details, params=error.params)
        self.exit_status = error.exit_status
        self.as_json = as_json


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser, from the command table and the engine's flag groups (no command's module is imported).
    ``only``: just that command's flags (every command is still listed): what :func:`main` parses needs no more."""
    from onnxpack.core.release.flaggroups import COMMAND_SPECS

    from .flags import add_spec

    parser = _Parser(
        prog="onnxpack",
        description="Inspect, validate, merge, smoke-run and bundle ONNX models for release.",
    )
    parser.add_argument("--version", action="version", version=f"onnxpack {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, command in COMMANDS.items():
        p = sub.add_parser(name, help=command.help, description=command.description)
        if only is None or name == only:
            add_spec(p, COMMAND_SPECS[name])
    return parser


def main(argv: Sequence[str] | None = None, env: Environment | None = None) -> ExitStatus:
    """Run one command; never raises (errors become messages and exit codes). Changes nothing global it was not
    asked to: no environment variable (the console script sets the process's own: :func:`run`)."""
    env = env or Environment.from_process()
    status = _command(argv, env)
    try:
        env.stdout.flush()  # a block-buffered stdout meets a reader that went away here, not at the interpreter's exit
    except BrokenPipeError:
        _silence_stdout(env)
        return ExitStatus.BROKEN_PIPE
    return status


def _command(argv: Sequence[str] | None, env: Environment) -> ExitStatus:
    """:func:`main`'s work: every outcome an exit status (stdout not flushed yet)."""
    args: argparse.Namespace | None = None
    child = None
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        # the command is the first word that is no option (the top level's options take no value)
        named = next((w for w in words if not w.startswith("-")), None)
        parser = build_parser(named if named in COMMANDS else None)
        try:
            # argparse prints --help/--version to sys.stdout; send it to this command's stdout.
            with contextlib.redirect_stdout(env.stdout):
                args = parser.parse_args(words)
        except SystemExit as e:  # --help / --version
            return ExitStatus(int(e.code or 0))
        if args.command is None:
            parser.print_help(env.stdout)
            return ExitStatus.USAGE
        child = _early_child(args)
        args.early_child = child
        module = _import_command(COMMANDS[args.command].module)
        return ExitStatus(module.HANDLERS[args.command](args, env))
    except OnnxpackError as e:
        emit_error(env, e, _as_json(args, e))
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
        if env.vars.get("ONNXPACK_DEBUG"):
            raise
        path_error = from_os_error(e) if isinstance(e, OSError) else None
        if path_error is not None:  # a name too long, a read-only disk: the user's path, not a bug
            emit_error(env, path_error, _as_json(args, path_error))
            return ExitStatus(path_error.exit_status)
        err = classcodes.INTERNAL.error(variant="unexpected", exception=type(e).__name__, error=str(e))
        emit_error(env, err, _as_json(args, err))
        return ExitStatus(err.exit_status)
    finally:
        if child is not None:  # the command's own (it stops it when done; stopping twice is harmless)
            child.discard()
        if "onnxpack.core.child.childproc" in sys.modules:  # a child started ahead that the command never adopted
            sys.modules["onnxpack.core.child.childproc"].discard_ahead()


#: Set by :func:`run`, the console script, whose process runs one command and ends: see :func:`_import_command`.
_ONE_COMMAND_PROCESS = False


def _import_command(name: str) -> Any:
    """The command's module (see :func:`_import_paused`)."""
    return _import_paused(f"{__name__}.{name}")


def _import_paused(name: str) -> Any:
    """Import ``name``. In the console script's process the collector is paused while it imports (onnx, numpy,
    the engine: some 300 000 objects that live as long as the process, which the collector's young-generation passes
    walked over and over, 40-50 ms of a 0.25 s `inspect`), and what the imports made is then frozen out of its way
    (:func:`run` freezes again at the end, for the same reason). A caller of :func:`main` keeps its collector as it
    was."""
    import importlib

    if not _ONE_COMMAND_PROCESS:
        return importlib.import_module(name)
    import gc

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return importlib.import_module(name)
    finally:
        if was_enabled:
            gc.freeze()
            gc.enable()


def _as_json(args: argparse.Namespace | None, err: OnnxpackError) -> bool:
    """Whether an error is told as a JSON document: --json was given (read by the parser, even when the parse failed
    after it)."""
    if isinstance(err, _UsageError):
        return err.as_json
    return bool(getattr(args, "json", False))


def _early_child(args: argparse.Namespace) -> ChildProcess | None:
    """The child process of the parsed command (see :data:`EARLY_CHILDREN`), started now; None if it has none, or
    starts its own (it names variables holding secrets)."""
    command = args.command
    if any(getattr(args, name, None) for name in _SECRET_VARIABLE_FLAGS):
        return None
    if command not in EARLY_CHILDREN and command not in _EARLY_CHECKER:
        return None
    from onnxpack.core.child.childhandles import can_reset_peak
    from onnxpack.core.child.childproc import ChildProcess, start_ahead, start_method

    if command in _EARLY_CHECKER:
        return ChildProcess("", ("onnx",)) if start_method() != "fork" else None
    if command == "verify" and not args.smoke:
        return None
    if command == "bundle" and not args.no_smoke and not args.no_load_cost and args.layout != "keep" \
            and not can_reset_peak():  # (keep ships the source's files; on Linux the smoke child measures the loads)
        start_ahead(*_LOAD_COST_CHILD, fork=False)
    target, preload = EARLY_CHILDREN[command]
    if start_method() == "fork" and "onnx" in preload:
        _import_paused("onnx")  # see EARLY_CHILDREN
    return ChildProcess(target, preload)


def _silence_stdout(env: Environment) -> None:
    if env.stdout is not sys.stdout:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def configure_process() -> None:
    """What the console script sets for its own process (and its children), unless the user set it: numpy's BLAS
    starts no thread pool when onnx imports it (a process of one thread can fork its children: see
    onnxpack.core.child.childproc.start_method; nothing here multiplies matrices), and ONNX Runtime's telemetry (1.29+:
    a device id and an event store in the user's cache folder, uploads) stays off
    (core.child.childproc.ORT_TELEMETRY_VAR, not imported here). :func:`main` leaves the environment of a process that
    calls it alone."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")


def run() -> None:
    """Console-script entry point: the exit status of :func:`main`, once every child process is reaped."""
    global _ONE_COMMAND_PROCESS
    configure_process()
    _ONE_COMMAND_PROCESS = True
    status = int(main())
    if "onnxpack.core.child.childproc" in sys.modules:  # (no child was started by a command that never imported it)
        from onnxpack.core.child.childproc import reap_children

        reap_children()
    import gc

    gc.freeze()  # the process ends now: its final collections need not walk what onnx and numpy made
    _exit(status)


def _exit(status: int) -> None:
    """End the console script's process with ``status``: what Python's exit runs for others (the ``atexit`` handlers:
    logging's flush, multiprocessing's children), the output flushed, and then at once (``os._exit``), without
    tearing down every module onnx and numpy imported (about 10 ms of a 0.2 s ``inspect``: docs/performance.md).
    Where another thread still runs, or the flush fails (a closed pipe), Python's own exit says and does the rest."""
    import atexit
    import threading

    run_exitfuncs = getattr(atexit, "_run_exitfuncs", None)  # (CPython's; elsewhere Python's exit does it all)
    if threading.active_count() > 1 or run_exitfuncs is None:
        sys.exit(status)  # (Python's exit waits for the thread)
    run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(status)
    os._exit(status)
