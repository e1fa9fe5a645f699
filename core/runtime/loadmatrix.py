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
outputs is a difference in what was loaded. The modes by an absolute path (``symlink``, ``non-ascii``) run in a
second thread beside those that change the working directory: ONNX Runtime lets go of the GIL while it creates and
runs a session, so a graph that is slow to create takes the two cores (measured: docs/performance.md). Their idle
intra-op threads wait without spinning (:data:`NO_SPINNING`): a spinning pool burns a core while its session is
created, so that two sessions at once took as long as one after the other; how a thread waits changes neither what is
loaded nor how it computes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["FOLDER_OPTION", "FULL_MATRIX_MAX_NODES", "MODES", "NON_ASCII_FOLDER", "NO_SPINNING", "Reference",
           "Shipped", "load_matrix", "node_count"]

MODES = ("path", "other-cwd", "bytes", "bytes-folder", "symlink", "non-ascii")
#: The modes that only move the model's files (another working directory, a link, a Japanese folder name) are run
#: for a graph of at most this many nodes (subgraphs included): each is one more session, and a large graph's session
#: takes a while to create (measured: docs/performance.md). The
#: model decides, never the machine's speed, so the same input gives the same manifest.
FULL_MATRIX_MAX_NODES = 500


def node_count(graph: Any) -> int:
    """The nodes of ``graph`` and of every subgraph in its nodes' attributes."""
    n = 0
    for node in graph.node:
        n += 1
        for a in node.attribute:
            if a.HasField("g"):
                n += node_count(a.g)
            n += sum(node_count(g) for g in a.graphs)
    return n
#: ONNX Runtime's session option by which idle intra-op threads block instead of spinning (the matrix's sessions:
#: four sessions of nudenet/320n with their runs on two threads 0.22 s spinning, 0.12 s not; docs/performance.md).
NO_SPINNING = ("session.intra_op.allow_spinning", "0")
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


@dataclass(frozen=True)
class Shipped:
    """The shipped model: its file name, its file or its bytes, its external-data files by location."""

    name: str
    model_file: Path | bytes
    data: dict[str, Path]


@dataclass(frozen=True)
class Reference:
    """The reference run: its inputs, its outputs, new SessionOptions as its (an app's: no folder option)."""

    feeds: dict[str, Any]
    outputs: list[Any]
    options: Callable[[], Any]


class _Matrix:
    """One load matrix in a private folder ``root``: each mode's row, in order."""

    def __init__(self, root: Path, model: Shipped, ref: Reference) -> None:
        self.root, self.model, self.ref = root, model, ref
        self.rows: list[dict[str, Any]] = []
        self.shipped = root / "bundle" / model.name
        self.shipped.parent.mkdir(parents=True)
        # Copies, never links, of the shipped files: the bundle's proof reads them beside this run, and a link would
        # give them a second name (a file with two links is refused as external data: security.md rule 1). The
        # matrix's other folders link to these copies.
        if isinstance(model.model_file, bytes):
            self.shipped.write_bytes(model.model_file)
        else:
            shutil.copyfile(model.model_file, self.shipped)
        for location, src in model.data.items():
            (self.shipped.parent / location).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, self.shipped.parent / location)

    def run(self, source: str | bytes, so: Any = None) -> list[Any]:
        import onnxruntime as ort

        session = ort.InferenceSession(source, sess_options=so or self.ref.options(),
                                       providers=["CPUExecutionProvider"])  # fmt: skip
        return list(session.run(None, self.ref.feeds))

    def attempt(self, mode: str, load: Callable[[], list[Any]], expected_failure: bool = False) -> None:
        try:
            outputs = load()
        except Exception as e:  # any failure of ONNX Runtime is this mode's result
            text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            # the private folder's name differs per run; a manifest is the same for the same input
            text = text.replace(str(self.root) + os.sep, "").replace(str(self.root), "")
            self.rows.append(_row(mode, False, text, expected=expected_failure))
            return
        if _same(outputs, self.ref.outputs):
            self.rows.append(_row(mode, True))
        else:
            self.rows.append(_row(mode, False, "the outputs differ from the reference run's", differs=True))

    def from_bytes(self, proven: bool) -> None:
        """From bytes, the working directory empty; with external data also with the folder option."""
        data = self.model.data
        given = self.model.model_file
        body = given if isinstance(given, bytes) else self.shipped.read_bytes()
        empty = self.root / "empty"
        empty.mkdir()
        with _cwd(str(empty)):
            if proven and not data:
                self.rows.append(_row("bytes", True))  # the reference run's own load
            else:
                self.attempt("bytes", lambda: self.run(body), expected_failure=bool(data))
            if data:
                def with_folder() -> list[Any]:
                    so = self.ref.options()
                    so.add_session_config_entry(FOLDER_OPTION, str(self.shipped.parent))
                    return self.run(body, so)

                self.attempt("bytes-folder", with_folder)

    def other_cwd(self) -> None:
        """By a relative path from another working directory."""
        other = self.root / "elsewhere"
        other.mkdir()
        with _cwd(str(other)):
            self.attempt("other-cwd", lambda: self.run(os.path.relpath(self.shipped, other)))

    def absolute(self) -> None:
        """The modes by an absolute path that only moves the files: through links, from a Japanese folder name.
        Nothing here depends on the working directory, so they run beside the modes that change it."""
        _symlinked(self.root, self.shipped, self.model.data, self.attempt, self.run)
        local = self.root / NON_ASCII_FOLDER / self.model.name
        _place(self.shipped, local)
        for location in self.model.data:
            _place(self.shipped.parent / location, local.parent / location)
        self.attempt("non-ascii", lambda: self.run(str(local)))


def load_matrix(model: Shipped, ref: Reference, work: str, *, full: bool = True, bytes_proven: bool = False,
                path_proven: bool = False) -> list[dict[str, Any]]:
    """Each mode's row: ``{"mode", "ok"}``, and when not ok its ``error`` and whether the failure is ``expected``
    (from bytes with external data) or the outputs ``differs`` (the parent adds the ``remedy``: smokefindings).
    ``full``: also the modes that only move the files (another working directory, a link, a Japanese folder name);
    without it (a large graph: FULL_MATRIX_MAX_NODES) only by path and from bytes. ``bytes_proven``: the
    reference run itself loaded the model's plain bytes (a self-contained model), which proves that mode;
    ``path_proven``: it loaded the shipped layout by its absolute path with these options (the end user's load:
    core/runtime/session.open_by_path), which proves that one: the same load again could only give the same
    session."""
    root = Path(tempfile.mkdtemp(prefix="onnxpack-loads-", dir=work))
    try:
        matrix = _Matrix(root, model, ref)
        if path_proven:
            matrix.rows.append(_row("path", True))  # the reference run's own load
        else:
            matrix.attempt("path", lambda: matrix.run(str(matrix.shipped)))
        if not full:
            matrix.from_bytes(bytes_proven)
        else:  # the absolute-path modes on another core meanwhile (ONNX Runtime lets go of the GIL in its sessions)
            with ThreadPoolExecutor(1, thread_name_prefix="onnxpack-loads") as pool:
                absolute = pool.submit(matrix.absolute)
                matrix.from_bytes(bytes_proven)
                matrix.other_cwd()
                absolute.result()
        order = {m: i for i, m in enumerate(MODES)}
        return sorted(matrix.rows, key=lambda r: order[r["mode"]])
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
