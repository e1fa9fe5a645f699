"""Safe output: temp file/folder beside the destination (O_EXCL), fsync, os.replace; no partial files.

Rules from security.md (rule 9): never modify an input, refuse outputs equal to or inside an input,
write into a new temporary file beside the destination, then rename it into place; a cancelled or
failed run leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import shutil
import stat
import sys
import tempfile
import time
import weakref
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, cast

from . import errorcodes
from .errors import OutputError

__all__ = [
    "WritebackPacer",
    "atomic_dir",
    "atomic_file",
    "check_free_space",
    "check_output_path",
    "make_temp_dir",
    "output_error_from_oserror",
    "output_folder",
    "pending_path",
    "plain_file_fd",
    "refuse_inside_inputs",
    "remove_stale_temporaries",
    "replace_with_retry",
    "scratch_file",
    "temp_name",
]

# Temporary names carry the owner's process id, so that a later run can prove the owner is gone and remove
# what a killed run (kill -9, power loss) left behind; and they have a fixed length of at most 34 bytes,
# so an output name of up to 255 bytes (the usual limit of one path component) still gets a temporary.
_TEMP = re.compile(r"^\.?onnxpack-([a-z]+)-(\d{1,10})-[0-9a-z_]{8}$")


def temp_name(kind: str, *, hidden: bool = True) -> str:
    """``.onnxpack-KIND-PID-RANDOM``: a temporary's name that says which process owns it."""
    return f"{'.' if hidden else ''}onnxpack-{kind}-{os.getpid()}-{os.urandom(4).hex()}"


def make_temp_dir(kind: str, parent: Path | None = None) -> Path:
    """A new private folder named by :func:`temp_name` in ``parent`` (default: the system's temporary folder),
    after removing what dead runs left there."""
    base = Path(parent) if parent is not None else Path(tempfile.gettempdir())
    remove_stale_temporaries(base)
    for _ in range(100):
        path = base / temp_name(kind, hidden=parent is not None)
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(base))


def _process_alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (when unsure: yes, so nothing is removed wrongly)."""
    if pid == os.getpid():
        return True
    if sys.platform == "win32":
        import ctypes

        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if handle:
            kernel32.CloseHandle(handle)
            return True
        return bool(ctypes.get_last_error() == 5)  # ERROR_ACCESS_DENIED: it exists
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: someone else's live process
        return True
    return True


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Remove onnxpack temporaries in ``folder`` whose owning process no longer exists; return them.

    Only names made by :func:`temp_name` are considered, and only when their process id is not alive on
    this machine. A folder shared by several machines may keep another machine's temporaries until a run
    there cleans them.
    """
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        m = _TEMP.match(entry.name)
        if m is None or _process_alive(int(m.group(2))):
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


def plain_file_fd(fileobj: object) -> int | None:
    """The descriptor of ``fileobj`` when it is an ordinary binary file on disk (not a ZIP entry, a
    compressor or another wrapper whose fileno() is not where its bytes go), else None."""
    if type(fileobj) not in (io.BufferedWriter, io.FileIO):
        return None
    try:
        fd = int(fileobj.fileno())  # type: ignore[attr-defined]
        return fd if stat.S_ISREG(os.fstat(fd).st_mode) else None
    except (OSError, ValueError):
        return None


def _load_sync_file_range() -> Any:
    # Written by hand because Python's os module does not expose sync_file_range(2) (Linux only) and
    # no maintained package wraps it; posix_fadvise(DONTNEED) also starts writeback but then drops the
    # pages from the cache, and the smoke run reads the merged file right after.
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        fn = ctypes.CDLL(None, use_errno=True).sync_file_range
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


#: The libc function, looked up by the first pacer (not at import: `inspect` need not pay for importing ctypes).
_SYNC_FILE_RANGE: Any = ...
_SYNC_FILE_RANGE_WRITE = 2  # <linux/fs.h>: start writeback of the range's dirty pages, do not wait


class WritebackPacer:
    """Start the kernel's writeback of a file's new bytes while later bytes are still being written.

    Writing a large file into the page cache and then fsyncing it costs the copy *plus* the whole
    writeback; starting the writeback of each step as it is written lets the disk work while the copy
    goes on, and the final fsync (still required, rule 9) has little left to wait for (benchmarks/merge.py;
    docs/performance.md). Call the pacer after each
    large write; it is a no-op off Linux, on a descriptor that is not a regular file, or when the
    call fails (it is only a hint; fsync reports real errors).
    """

    def __init__(self, fd: int | None, step: int = 16 * 2**20) -> None:
        global _SYNC_FILE_RANGE
        if _SYNC_FILE_RANGE is ...:
            _SYNC_FILE_RANGE = _load_sync_file_range()
        self._fd = fd if _SYNC_FILE_RANGE is not None else None
        self._step = step
        self._started = 0
        if self._fd is not None:
            try:
                self._started = os.lseek(self._fd, 0, os.SEEK_CUR)
            except OSError:
                self._fd = None

    @property
    def active(self) -> bool:
        """True when the pacer really starts writeback (Linux, a seekable descriptor)."""
        return self._fd is not None

    def __call__(self, force: bool = False) -> None:
        """Start writeback of everything written since the last started step, if a step is complete."""
        if self._fd is None:
            return
        try:
            pos = os.lseek(self._fd, 0, os.SEEK_CUR)
        except OSError:
            self._fd = None
            return
        n = pos - self._started
        if n >= self._step or (force and n > 0):
            _SYNC_FILE_RANGE(self._fd, self._started, n, _SYNC_FILE_RANGE_WRITE)
            self._started = pos


def refuse_inside_inputs(out: Path, inputs: Iterable[Path]) -> Path:
    """Refuse an output (file or folder, existing or not) that is an input or lies inside an input folder."""
    out_abs = Path(os.path.realpath(out))
    for inp in inputs:
        in_abs = Path(os.path.realpath(inp))
        if out_abs == in_abs:
            raise errorcodes.OUTPUT_IS_INPUT.error(str(out), output=out, input=inp)
        if in_abs.is_dir() and out_abs.is_relative_to(in_abs) and inp.is_dir():
            raise errorcodes.OUTPUT_INSIDE_INPUT.error(str(out), output=out, input=inp)
    return out_abs


def check_output_path(out: Path, inputs: Iterable[Path], *, overwrite: bool = True) -> Path:
    """Refuse an output that is one of the inputs, lies inside an input folder, holds an input, or is a link."""
    _refuse_symlink(out)  # never followed: a dangling link would make us write wherever it points
    out_abs = refuse_inside_inputs(out, inputs)
    if out_abs.exists() and out_abs.is_dir():
        raise errorcodes.OUTPUT_IS_DIR.error(str(out), output=out)
    if out_abs.exists() and not overwrite:
        raise errorcodes.OUTPUT_EXISTS.error(str(out), output=out)
    if not out_abs.parent.is_dir():
        raise errorcodes.OUTPUT_NO_FOLDER.error(str(out.parent), folder=out.parent)
    return out_abs


def check_free_space(folder: Path, needed: int) -> None:
    """Raise before writing when ``folder``'s file system cannot hold ``needed`` more bytes."""
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return  # unknown: ENOSPC mid-write is still handled
    if needed > free:
        raise errorcodes.OUTPUT_NO_SPACE.error(str(folder), folder=folder, needed=needed, free=free)


def output_error_from_oserror(e: OSError, target: Path) -> OutputError:
    if e.errno == errno.ENOSPC:
        error = errorcodes.OUTPUT_NO_SPACE.error(str(target), variant="disk_full", output=target)
    else:
        error = errorcodes.OUTPUT_WRITE.error(str(target), output=target, reason=e.strerror or e)
    return cast(OutputError, error)  # both codes are of kind OutputError


def replace_with_retry(src: Path, dst: Path) -> None:
    """os.replace, retried briefly on Windows where virus scanners hold new files open."""
    for attempt in range(10):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if sys.platform != "win32" or attempt == 9:
                raise
            time.sleep(0.1 * (attempt + 1))


def _tmp_name(dest: Path) -> Path:
    remove_stale_temporaries(dest.parent)
    return dest.with_name(temp_name("tmp"))


def _refuse_symlink(dest: Path) -> None:
    if os.path.islink(dest):
        raise errorcodes.OUTPUT_IS_SYMLINK.error(str(dest), output=dest)


def _commit(tmp: Path, dest: Path, overwrite: bool) -> None:
    """Move the finished temporary to ``dest``; without ``overwrite`` never replace a file that appeared since
    the check (two runs writing the same name at once: the second fails as "exists")."""
    _refuse_symlink(dest)
    if overwrite:
        replace_with_retry(tmp, dest)
        return
    if sys.platform == "win32":
        os.rename(tmp, dest)  # fails when dest exists
        return
    try:
        os.link(tmp, dest)  # atomic, and fails when dest exists
    except FileExistsError:
        raise errorcodes.OUTPUT_EXISTS.error(str(dest), variant="raced", output=dest) from None
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        if os.path.lexists(dest):  # a file system without hard links: the best possible check
            raise errorcodes.OUTPUT_EXISTS.error(str(dest), variant="raced", output=dest) from None
        os.rename(tmp, dest)
        return
    os.unlink(tmp)


_PENDING: weakref.WeakKeyDictionary[Any, Path] = weakref.WeakKeyDictionary()


def pending_path(f: BinaryIO) -> Path:
    """The temporary file behind an :func:`atomic_file` while it is written (e.g. to read back what it holds)."""
    return _PENDING[f]


@contextlib.contextmanager
def atomic_file(dest: Path, *, overwrite: bool = True) -> Iterator[BinaryIO]:
    """Yield a new binary file beside ``dest``; on success fsync and rename it to ``dest``.

    On any exception (including :class:`~core.errors.Cancelled`) the temporary file is removed and
    ``dest`` is untouched. OSErrors become :class:`OutputError` with a hint. A symbolic link at ``dest``
    is refused, never followed; without ``overwrite`` an existing ``dest`` is never replaced.
    """
    _refuse_symlink(dest)
    tmp = _tmp_name(dest)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
    except OSError as e:
        raise output_error_from_oserror(e, dest) from None
    f = os.fdopen(fd, "wb")
    _PENDING[f] = tmp
    try:
        try:
            yield f
            f.flush()
            os.fsync(f.fileno())
        finally:
            f.close()
        _commit(tmp, dest, overwrite)
    except OSError as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise output_error_from_oserror(e, dest) from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


@contextlib.contextmanager
def scratch_file(path: Path) -> Iterator[BinaryIO]:
    """A new binary file in a private work folder, readable back through :func:`pending_path` while it is written:
    no fsync, no rename (the work folder goes at the end); removed on any exception."""
    f = open(path, "xb")  # noqa: SIM115 - closed below
    _PENDING[f] = path
    try:
        with f:
            yield f
    except BaseException:
        with contextlib.suppress(OSError):
            path.unlink()
        raise


@contextlib.contextmanager
def atomic_dir(dest: Path) -> Iterator[Path]:
    """Yield a new empty folder beside ``dest``; on success rename it to ``dest`` (which must not exist)."""
    if os.path.lexists(dest):
        raise errorcodes.OUTPUT_EXISTS.error(str(dest), variant="folder", output=dest)
    tmp = _tmp_name(dest)
    try:
        tmp.mkdir()
    except OSError as e:
        raise output_error_from_oserror(e, dest) from None
    try:
        yield tmp
        replace_with_retry(tmp, dest)
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise output_error_from_oserror(e, dest) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


@contextlib.contextmanager
def output_folder(out_dir: Path) -> Iterator[Path]:
    """Create the output folder (and missing parents) if needed; remove what was created on failure.

    Every command that writes creates a missing output folder (bundle -o, merge -o, ort -o, smoke
    --save-outputs): one behaviour, and nothing left behind when the run fails.
    """
    created: list[Path] = []
    for folder in [out_dir, *out_dir.parents]:
        if folder.exists():
            break
        created.append(folder)
    if out_dir.exists() and not out_dir.is_dir():
        raise errorcodes.OUTPUT_NO_FOLDER.error(str(out_dir), variant="file", folder=out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise output_error_from_oserror(e, out_dir) from None
    try:
        yield out_dir
    except BaseException:
        for folder in created:  # innermost first; only succeeds while empty
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
