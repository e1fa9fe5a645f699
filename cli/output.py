"""Shared output helpers for the command line: JSON, tables, findings, errors, progress bar."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from onnxpack.core.errors import OnnxpackError
from onnxpack.core.findings import Finding, Severity
from onnxpack.core.progress import ProgressCallback, ProgressEvent
from onnxpack.core.units import format_bytes

from .env import Environment

__all__ = [
    "add_json_flag",
    "emit_error",
    "emit_json",
    "format_bytes",
    "print_findings",
    "print_table",
    "progress_bar",
]

_MARK = {Severity.ERROR: "ERROR", Severity.WARNING: "WARN ", Severity.INFO: "info "}


def add_json_flag(parser: Any) -> None:
    parser.add_argument("--json", action="store_true", help="print a machine-readable JSON document on stdout")


def emit_json(env: Environment, doc: Any) -> None:
    env.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n")


def emit_error(env: Environment, err: OnnxpackError, as_json: bool) -> None:
    if as_json:
        emit_json(env, {"schema": "onnxpack.error/1", "ok": False, "error": err.to_dict()})
    env.stderr.write(f"error: {err.message}\n")
    if err.hint:
        env.stderr.write(f"hint: {err.hint}\n")


def print_table(env: Environment, headers: Sequence[str], rows: Sequence[Sequence[Any]], indent: str = "  ") -> None:
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    for n, r in enumerate(cells):
        env.stdout.write(indent + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() + "\n")
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


def progress_bar(env: Environment, enabled: bool = True) -> ProgressCallback | None:
    """A one-line progress bar on stderr when it is a terminal (None otherwise)."""
    if not (enabled and env.stderr_isatty):
        return None
    last = [0.0]

    def show(ev: ProgressEvent) -> None:
        now = time.monotonic()
        if now - last[0] < 0.1 and ev.done < ev.total:
            return
        last[0] = now
        width = 30
        filled = int(ev.fraction * width)
        env.stderr.write(
            f"\r{ev.stage:<8} [{'#' * filled}{'.' * (width - filled)}] {ev.fraction * 100:5.1f}% "
            f"{format_bytes(ev.done)}/{format_bytes(ev.total)}\x1b[K"
        )
        if ev.done >= ev.total:
            env.stderr.write("\n")
        env.stderr.flush()

    return show
