"""The files a bundle reads (the model and its external data), and the watch that they do not change meanwhile."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from ..checks.validate import Validation
from . import codes

__all__ = ["SourceWatch", "file_size", "source_files_of"]


def source_files_of(val: Validation) -> list[Path]:
    """The external-data files a validated model reads (the model file itself not included), sorted."""
    table = val.inspection.external
    files: set[Path] = set()
    if table is not None:
        files.update(r.path for r in table.external_refs if r.path is not None)
    return sorted(files)


def file_size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _file_stat(path: Path) -> tuple[int, int, int, int] | None:
    """What changes when a file is rewritten or replaced (timestamps have the kernel's coarse resolution)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


@dataclass(frozen=True)
class SourceWatch:
    """(size, mtime_ns, ctime_ns, inode) of every source file when the bundle started reading it."""

    stats: Mapping[Path, tuple[int, int, int, int]]

    @classmethod
    def of(cls, paths: list[Path]) -> SourceWatch:
        return cls(MappingProxyType({p: s for p in paths if (s := _file_stat(p)) is not None}))

    def check(self) -> None:
        """Raise when a source file changed while it was being bundled (its bytes may be half old, half new)."""
        changed = [p for p, before in self.stats.items() if _file_stat(p) != before]
        if changed:
            raise codes.SOURCE_CHANGED.error(files=", ".join(p.name for p in changed))
