"""Shared output helpers for the command line: JSON, tables, findings, errors, progress bar."""

from __future__ import annotations

import json
import time
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from onnxpack.core import errorcodes
from onnxpack.core.errors import InputError, OnnxpackError
from onnxpack.core.findings import Finding, Severity
from onnxpack.core.progress import STEPS, ProgressCallback, ProgressEvent
from onnxpack.core.units import format_bytes

from .env import Environment

__all__ = [
    "display_width",
    "emit_error",
    "emit_json",
    "format_bytes",
    "output_file_or_folder",
    "plural",
    "print_findings",
    "print_table",
    "progress_reporter",
]

_MARK = {Severity.ERROR: "ERROR", Severity.WARNING: "WARN ", Severity.INFO: "info "}


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """``n`` and the noun as a person writes them: "1 tensor", "2 tensors", "0 errors"."""
    return f"{n} {singular if n == 1 else plural_form or singular + 's'}"


#: Name endings that say "a file" (of another kind than the command writes): `-o` refuses them as a folder name.
_FILE_SUFFIXES = frozenset({".onnx", ".ort", ".data", ".json", ".txt", ".zip", ".tar", ".gz", ".tgz", ".7z", ".npy",
                            ".npz", ".pb", ".key", ".pub", ".pem", ".config"})  # fmt: skip


def output_file_or_folder(
    value: str, command: str, ext: str | None, what: tuple[str] | tuple[str, str], note: str = ""
) -> tuple[Path, str | None]:
    """What ``-o VALUE`` means, the same for every command: an existing folder means "write inside it"; a path ending
    in ``ext`` (the one file the command writes, e.g. ".zip") means "this file"; a path that does not exist and has
    no file-like ending is a new folder. Returns (folder, file name or None); anything else is refused
    (OUTPUT_AMBIGUOUS, a usage error) saying what ``-o`` takes. ``what`` names the files the command writes into a
    folder (as data, e.g. ``("NAME.key", "NAME.pub")``): the one file ending in ``ext``, else two; ``note`` ends the
    hint."""
    path = Path(value)
    if path.is_dir():
        return path, None
    if ext is not None and path.name.lower().endswith(ext) and len(path.name) > len(ext):
        from onnxpack.core.model.codes import OUTPUT_BAD_NAME
        from onnxpack.core.names import component_problem

        why = component_problem(path.name)
        if why is not None:  # a name that means another file on Windows or displays as something else
            raise OUTPUT_BAD_NAME.error(variant="cli", value=value, why=why, ext=ext, command=command,
                                        raised_as=InputError)
        return path.parent, path.name
    tail = "_ext" if ext else "_keygen" if note == "keygen" else ""  # errorcodes.OUTPUT_AMBIGUOUS's variants
    files: dict[str, Any] = dict(zip(("what", "other"), what, strict=False))
    if path.exists() or path.is_symlink():
        raise errorcodes.OUTPUT_AMBIGUOUS.error(variant=tail[1:], value=value, command=command, ext=ext, **files)
    if path.suffix.lower() in _FILE_SUFFIXES:
        raise errorcodes.OUTPUT_AMBIGUOUS.error(variant="name" + tail, value=value, command=command, ext=ext, **files)
    return path, None


def emit_json(env: Environment, doc: Any) -> None:
    env.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n")


def emit_error(env: Environment, err: OnnxpackError, as_json: bool) -> None:
    if as_json:
        emit_json(env, {"schema": "onnxpack.error/1", "ok": False, "error": err.to_dict()})
    env.stderr.write(f"error: {err.message}\n")
    if err.hint:
        env.stderr.write(f"hint: {err.hint}\n")


def display_width(text: str) -> int:
    """The columns ``text`` takes in a terminal: East Asian wide and fullwidth characters (勝利モデル.onnx) count 2,
    combining marks (a macOS file name's decomposed dakuten) and invisible format characters 0, any other 1."""
    if text.isascii():  # (no ASCII character is wide, combining or a format character: a table of 900 rows)
        return len(text)
    width = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return width


def _pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (str.ljust counts characters, not columns)."""
    return text + " " * max(0, width - display_width(text))


def print_table(env: Environment, headers: Sequence[str], rows: Sequence[Sequence[Any]], indent: str = "  ") -> None:
    """Columns aligned by the width they take on screen, so Japanese (double-width) names line up."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(display_width(r[i]) for r in cells) for i in range(len(headers))]
    for n, r in enumerate(cells):
        env.stdout.write(indent + "  ".join(_pad(c, w) for c, w in zip(r, widths, strict=True)).rstrip() + "\n")
        if n == 0:
            env.stdout.write(indent + "  ".join("-" * w for w in widths) + "\n")


def print_findings(env: Environment, findings: Sequence[Finding]) -> None:
    if not findings:
        env.stdout.write("  no findings\n")
        return
    for f in sorted(findings, key=lambda f: -f.severity.rank):
        env.stdout.write(f"  {_MARK[f.severity]} {f.code}: {f.message}\n")
        if f.hint:
            env.stdout.write(f"         hint: {f.hint}\n")


def progress_reporter(env: Environment, quiet: bool = False) -> ProgressCallback | None:
    """Progress on stderr: a one-line bar on a terminal, else one line per stage (CI logs); None with --quiet."""
    if quiet:
        return None
    return _TerminalBar(env) if env.stderr_isatty else _StageLines(env)


def _amount(ev: ProgressEvent) -> str:
    if ev.total <= 0:
        return ""
    if ev.unit == STEPS:
        return f"step {min(ev.done, ev.total)}/{ev.total}"
    return f"{format_bytes(ev.done)}/{format_bytes(ev.total)}"


# Hand-written rather than tqdm/rich: the bar is thirty lines, must mix byte and step stages and messages in
# one line, and another dependency would ship in the frozen executable for it.
class _TerminalBar:
    """Redraws one line (\r) at most ten times a second; a finished stage keeps its line."""

    def __init__(self, env: Environment) -> None:
        self.env = env
        self.last = 0.0
        self.stage: str | None = None

    def __call__(self, ev: ProgressEvent) -> None:
        now = time.monotonic()
        finished = ev.finished
        if ev.stage == self.stage and now - self.last < 0.1 and not finished:
            return
        if self.stage is not None and ev.stage != self.stage:
            self.env.stderr.write("\n")  # the previous stage ended without a final event: keep its line
        self.stage, self.last = ev.stage, now
        width = 24
        if ev.total > 0:
            filled = int(ev.fraction * width)
            bar = f"[{'#' * filled}{'.' * (width - filled)}] {ev.fraction * 100:5.1f}%"
        else:
            bar = f"[{'.' * width}]   ...%"
        text = "  ".join(t for t in (f"{ev.stage:<8} {bar}", _amount(ev), ev.message) if t)
        self.env.stderr.write(f"\r{text}\x1b[K")
        if finished:
            self.env.stderr.write("\n")
            self.stage = None
        self.env.stderr.flush()


class _StageLines:
    """Without a terminal: a line when a stage starts, and every 10 s while a long stage runs."""

    HEARTBEAT = 10.0

    def __init__(self, env: Environment) -> None:
        self.env = env
        self.start = time.monotonic()
        self.stage: str | None = None
        self.seen: set[str] = set()
        self.last = 0.0

    def __call__(self, ev: ProgressEvent) -> None:
        now = time.monotonic()
        finished = ev.finished
        if ev.stage == self.stage and (finished or now - self.last < self.HEARTBEAT):
            return  # the end of a stage is told by the next stage's line (or the result)
        if ev.stage != self.stage and ev.stage in self.seen and finished:
            return  # a stage that wrapped another one (bundle's inspect around validate) ended
        # A stage that comes back after another one (bundle's validate waits for the onnx checker after the merge)
        # says so, rather than seeming to run again out of order.
        title = f"{ev.stage}, continued" if ev.stage in self.seen and ev.stage != self.stage else ev.stage
        self.seen.add(ev.stage)
        self.stage, self.last = ev.stage, now
        if ev.total <= 0:
            detail = ev.message
        elif ev.unit == STEPS:  # the words first, the count after them: "checker (step 3 of 4)"
            count = f"step {min(ev.done, ev.total)} of {ev.total}" if ev.done > 0 else ""
            detail = f"{ev.message} ({count})" if ev.message and count else ev.message or count
        elif ev.done <= 0:
            detail = "  ".join(t for t in (format_bytes(ev.total), ev.message) if t)
        else:
            detail = "  ".join(t for t in (f"{ev.fraction * 100:.0f}%  {_amount(ev)}", ev.message) if t)
        self.env.stderr.write(f"onnxpack [{now - self.start:6.1f} s] {title}{': ' + detail if detail else ''}\n")
        self.env.stderr.flush()
