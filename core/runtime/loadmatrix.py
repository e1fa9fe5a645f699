"""The load matrix (runs in the smoke child): the shipped model loaded the ways apps load it, each run once on the
smoke run's inputs, its outputs compared bit for bit with the reference run's.

The model's files are laid out as they ship (the model file and its external-data files at their locations beside
it, hard links where the file system allows, else copies) in a private temporary folder, and loaded:

* ``path``: by its absolute path (Python ``InferenceSession(path)``, ``ort``'s ``commit_from_file``);
* ``other-cwd``: by a relative path from another working directory;
* ``bytes``: from its bytes, the working directory an empty folder (``commit_from_memory``,
  ``CreateSessionFromArray``, a JS buffer, C# ``byte[]``): a model with external data then fails, because ONNX
  Runtime looks for the data relative to the working directory (ORT#6696) -- recorded with its remedy;
* ``bytes-folder``: from its bytes with the session option naming the model's folder
  (``session.model_external_initializers_file_folder_path``), the remedy for external data (only with external data);
* ``symlink``: through a symbolic link whose target lies in another folder under another name, as a Hugging Face
  cache snapshot links to its blobs (ORT#27353); not run where the OS refuses links;
* ``non-ascii``: from a folder whose name has Japanese characters and a space (ORT#27724, #14063 on Windows).

Every session uses the reference run's options (one thread count, the same optimizations), so a difference in the
outputs is a difference in what was loaded.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["FOLDER_OPTION", "MODES", "NON_ASCII_FOLDER", "load_matrix"]

MODES = ("path", "other-cwd", "bytes", "bytes-folder", "symlink", "non-ascii")
#: ONNX Runtime's session option naming the folder external data is read from (a model loaded from bytes).
FOLDER_OPTION = "session.model_external_initializers_file_folder_path"
NON_ASCII_FOLDER = "モデル フォルダ"

def _place(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


@contextlib.contextmanager
def _cwd(path: str) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def _fingerprint(value: Any) -> tuple[Any, ...]:
    """What makes two outputs the same bit for bit: a tensor's type, shape and bytes; a sequence's or map's
    elements, canonically (outputfacts.digest)."""
    from .outputfacts import digest

    if isinstance(value, np.ndarray):
        return value.dtype.str, value.shape, digest(value)
    return type(value).__name__, digest(value)


def _same(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(_fingerprint(x) == _fingerprint(y) for x, y in zip(a, b, strict=True))


def _row(mode: str, ok: bool, error: str | None = None, expected: bool = False, differs: bool = False
         ) -> dict[str, Any]:
    row: dict[str, Any] = {"mode": mode, "ok": ok}
    if not ok:
        row.update(error=(error or "")[:400], expected=expected)
        if differs:
            row["differs"] = True
    return row


def load_matrix(name: str, model_file: Path | bytes, data: dict[str, Path], feeds: dict[str, Any],
                reference: list[Any], options: Callable[[], Any], work: str) -> list[dict[str, Any]]:
    """Each mode's row: ``{"mode", "ok"}``, and when not ok its ``error`` and whether the failure is ``expected``
    (from bytes with external data) or the outputs ``differs`` (the parent adds the ``remedy``: smokefindings).
    ``model_file``: the shipped model's file, or its bytes;
    ``data``: its external-data files by location; ``options``: a new SessionOptions as the reference run's."""
    import onnxruntime as ort

    root = Path(tempfile.mkdtemp(prefix="onnxpack-loads-", dir=work))
    try:
        shipped = root / "bundle" / name
        shipped.parent.mkdir(parents=True)
        if isinstance(model_file, bytes):
            shipped.write_bytes(model_file)
        else:
            _place(model_file, shipped)
        for location, src in data.items():
            _place(src, shipped.parent / location)
        empty = root / "empty"
        empty.mkdir()

        def run(source: str | bytes, so: Any = None) -> list[Any]:
            session = ort.InferenceSession(source, sess_options=so or options(), providers=["CPUExecutionProvider"])
            return list(session.run(None, feeds))

        rows: list[dict[str, Any]] = []

        def attempt(mode: str, load: Callable[[], list[Any]], expected_failure: bool = False) -> None:
            try:
                outputs = load()
            except Exception as e:  # any failure of ONNX Runtime is this mode's result
                text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                # the private folder's name differs per run; a manifest is the same for the same input
                text = text.replace(str(root) + os.sep, "").replace(str(root), "")
                rows.append(_row(mode, False, text, expected=expected_failure))
                return
            if _same(outputs, reference):
                rows.append(_row(mode, True))
            else:
                rows.append(_row(mode, False, "the outputs differ from the reference run's", differs=True))

        attempt("path", lambda: run(str(shipped)))
        other = root / "elsewhere"
        other.mkdir()
        with _cwd(str(other)):
            attempt("other-cwd", lambda: run(os.path.relpath(shipped, other)))
        body = shipped.read_bytes()
        with _cwd(str(empty)):
            attempt("bytes", lambda: run(body), expected_failure=bool(data))
            if data:
                def with_folder() -> list[Any]:
                    so = options()
                    so.add_session_config_entry(FOLDER_OPTION, str(shipped.parent))
                    return run(body, so)

                attempt("bytes-folder", with_folder)
        _symlinked(root, shipped, data, attempt, run)
        local = root / NON_ASCII_FOLDER / name
        _place(shipped, local)
        for location in data:
            _place(shipped.parent / location, local.parent / location)
        attempt("non-ascii", lambda: run(str(local)))
        return rows
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _symlinked(root: Path, shipped: Path, data: dict[str, Path], attempt: Callable[..., None],
               run: Callable[..., list[Any]]) -> None:
    """A Hugging Face cache's shape: ``snapshot/NAME`` and its data files are links to ``blobs/<n>``."""
    blobs, snapshot = root / "blobs", root / "snapshot"
    blobs.mkdir()
    try:
        for i, (rel, src) in enumerate([(shipped.name, shipped), *((loc, shipped.parent / loc) for loc in data)]):
            blob = blobs / f"blob{i}"
            _place(src, blob)
            link = snapshot / rel
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.path.relpath(blob, link.parent), link)
    except (OSError, NotImplementedError):
        return  # no symbolic links here (Windows without the privilege): the mode is not run
    attempt("symlink", lambda: run(str(snapshot / shipped.name)))
