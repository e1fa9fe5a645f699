"""Where a tensor's external data is: the rules on its location string, and the checks of the file it names."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from ...codes import Code
from ...findings import Finding
from ...names import component_problem
from ...progress import CancelToken
from ...units import format_bytes
from .. import codes
from ..tensors import TensorRef
from .extref import sha1_file

__all__ = ["DATA_SUFFIXES", "FileCheck", "check_location", "renamed_candidates"]

_DRIVE = re.compile(r"^[A-Za-z]:")
#: The command EXTDATA_HARDLINK's remedy suggests (a parameter: the registry's templates name only onnxpack's flags).
_COPY_COMMAND = "cp --no-preserve=links"
#: The endings of the files exporters write external data to (onnx ``*.data``/``*.onnx.data``, Optimum and
#: torch.onnx ``*.onnx_data``, older exporters' ``*.bin`` and ``*.pb``): what a renamed data file is looked for as.
DATA_SUFFIXES = (".data", ".onnx_data", ".bin", ".pb")
#: At most this many entries of a folder are looked at for a renamed data file (a hostile folder of a million
#: files costs a bounded scan), and at most this many candidates are named.
_SCAN_LIMIT = 10_000
_NAMED_LIMIT = 3


def check_location(ref: TensorRef, location: str) -> Finding | None:
    """Lexical rules on the location string (no filesystem access)."""
    def bad(code: Code, why: str = "", variant: str | None = None) -> Finding:
        return code.finding(ref.name, variant=variant, label=ref.label, file=location, why=why)

    if not location:
        return bad(codes.EXTDATA_NO_LOCATION, variant="empty")
    if "\x00" in location:
        return bad(codes.EXTDATA_BAD_LOCATION, "contains a NUL character")
    if location.startswith(("/", "\\")) or _DRIVE.match(location):
        return bad(codes.EXTDATA_ABSOLUTE)
    parts = re.split(r"[\\/]", location)
    if ".." in parts:
        return bad(codes.EXTDATA_OUTSIDE_DIR)
    if ".." in location:
        # Not a parent-folder component, but onnx (1.23) refuses every location containing '..' ("points outside
        # the directory") while onnxruntime accepts it: what either refuses, we refuse.
        return bad(
            codes.EXTDATA_BAD_LOCATION,
            "contains '..' inside a name, which onnx refuses in any location (ONNX Runtime accepts it)", "dotdot",
        )
    if ":" in location:
        return bad(codes.EXTDATA_BAD_LOCATION, "contains ':' (an NTFS alternate data stream on Windows)")
    why = _component_problem(parts)
    if why is not None:
        return bad(codes.EXTDATA_BAD_LOCATION, why)
    # onnxruntime treats the location "*/_ORT_MEM_ADDR_/*" as a raw process-memory address of an
    # in-memory initializer; in a file from outside it would make ORT read arbitrary memory.
    if "_ORT_MEM_ADDR_" in location:
        return bad(
            codes.EXTDATA_BAD_LOCATION,
            "is onnxruntime's in-memory marker '_ORT_MEM_ADDR_', which must never appear in a model file",
            "ort_memory",
        )
    return None


def _component_problem(parts: list[str]) -> str | None:
    """The same name rule as bundle members (core/names.py): Windows device names open devices in any
    folder, trailing dots/spaces are stripped (naming another file), control and bidi characters deceive."""
    for i, p in enumerate(parts):
        if p == "." and i < len(parts) - 1:
            continue  # './data.bin', 'sub/./data.bin': the same folder (onnx and onnxruntime accept it)
        why = component_problem(p)
        if why is not None:
            return why
    return None


def renamed_candidates(folder: Path, needed: int | None, taken: set[str]) -> tuple[list[tuple[str, int]], bool]:
    """The data-like files in ``folder`` that a missing data file may have been renamed to: regular files (not links,
    checked with lstat, never opened) ending in :data:`DATA_SUFFIXES`, not in ``taken`` (the files the model names
    that exist), with an honest name, at least ``needed`` bytes long (the end of the model's last range in the
    missing file, when known). Returns ``(name, size)`` pairs, those of exactly ``needed`` bytes only when there
    are some, and whether that exact size is what they share."""
    found: list[tuple[str, int]] = []
    try:
        with os.scandir(folder) as entries:
            for n, entry in enumerate(entries):
                if n >= _SCAN_LIMIT:
                    break
                name = entry.name
                if name in taken or not name.lower().endswith(DATA_SUFFIXES) or component_problem(name) is not None:
                    continue
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode) and (needed is None or st.st_size >= needed):
                    found.append((name, st.st_size))
    except OSError:
        return [], False
    exact = [c for c in found if c[1] == needed]
    return sorted(exact or found), bool(exact)


class FileCheck:
    """Filesystem checks on one external data file, done once per location."""

    def __init__(self, base: Path, location: str) -> None:
        self.location = location
        self.path: Path | None = None
        self.size = 0
        self.finding: Finding | None = None
        self._sha1: str | None = None
        self._check(base)

    def _fail(self, code: Code, variant: str | None = None, **params: Any) -> None:
        self.finding = code.finding(self.location, variant=variant, file=self.location, **params)

    def _check(self, base: Path) -> None:
        parts = [p for p in re.split(r"[\\/]", self.location) if p]
        cur = base
        for i, part in enumerate(parts):
            cur = cur / part
            try:
                st = os.lstat(cur)
            except FileNotFoundError:
                self._fail(codes.EXTDATA_MISSING, looked_for=str(cur))
                return
            except OSError as e:
                self._fail(codes.EXTDATA_UNREADABLE, detail=e.strerror)
                return
            if not self._component_ok(st, cur, part, last=i == len(parts) - 1):
                return
        real_base = os.path.realpath(base)
        real = os.path.realpath(cur)
        if os.path.commonpath([real_base, real]) != real_base:
            self._fail(codes.EXTDATA_OUTSIDE_DIR, "resolved", real=real)
            return
        self.path = cur

    def _component_ok(self, st: os.stat_result, cur: Path, part: str, *, last: bool) -> bool:
        """Whether one component of the path (``cur``, lstat ``st``) may be followed; records the finding if not."""
        if stat.S_ISLNK(st.st_mode):
            self._fail(codes.EXTDATA_SYMLINK, path=str(cur))
        elif not last:
            if stat.S_ISDIR(st.st_mode):
                return True
            self._fail(codes.EXTDATA_MISSING, "component", part=part)
        elif stat.S_ISDIR(st.st_mode):
            self._fail(codes.EXTDATA_NOT_REGULAR, "folder")
        elif not stat.S_ISREG(st.st_mode):
            self._fail(codes.EXTDATA_NOT_REGULAR)
        elif st.st_nlink > 1:
            self._fail(codes.EXTDATA_HARDLINK, links=st.st_nlink, copy=_COPY_COMMAND)
        else:
            self.size = st.st_size
            return True
        return False

    def suggest_renamed(self, base: Path, needed: int | None, taken: set[str]) -> None:
        """When this file was not found, name the data-like files beside where it was looked for (a renamed
        ``model.onnx.data``): the EXTDATA_MISSING finding becomes its "renamed" variant (one file of the size the
        model needs) or "renamed_maybe" (others that could hold it)."""
        f = self.finding
        if f is None or f.code != codes.EXTDATA_MISSING.name or "variant" in f.params:
            return
        looked_for = Path(str(f.params.get("looked_for", "")))
        parts = [p for p in re.split(r"[\\/]", self.location) if p]
        if not parts or looked_for != base.joinpath(*parts):
            return  # a folder of the location is missing, not the file itself
        candidates, exact = renamed_candidates(looked_for.parent, needed, taken)
        if not candidates:
            return
        shown = candidates[:_NAMED_LIMIT]
        names = ", ".join(repr(name) for name, _size in shown)
        more = len(candidates) - len(shown)
        if exact and len(candidates) == 1:
            self._fail(codes.EXTDATA_MISSING, "renamed", looked_for=str(looked_for), found=shown[0][0],
                       size=format_bytes(needed))
        else:
            self._fail(codes.EXTDATA_MISSING, "renamed_maybe", looked_for=str(looked_for),
                       found=names + (f" (+{more})" if more else ""))

    def sha1(self, cancel: CancelToken | None = None) -> str:
        assert self.path is not None
        if self._sha1 is None:
            self._sha1 = sha1_file(self.path, cancel)
        return self._sha1
