"""The merge's equality proof compares each tensor as it is written, and trusts that only where the written model's
own parse finds the tensor at the range compared, in the file compared (core/model/merge/earlycompare.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from onnxpack.core.errors import OnnxpackError
from onnxpack.core.model.extdata.extreader import ExternalDataReader
from onnxpack.core.model.extdata.extresolve import resolve_external_data
from onnxpack.core.model.merge import earlycompare, proof
from onnxpack.core.model.merge import merge as merge_mod
from onnxpack.core.model.merge.merge import merge_model
from onnxpack.core.model.modelfile import load_structure
from tests import factory


def _files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _spy_skips(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    """The indices the proof after the write did not read again, per call."""
    skips: list[tuple[int, ...]] = []
    real = proof.first_different

    def spy(*args: Any, **kw: Any) -> Any:
        skips.append(tuple(sorted(kw.get("skip", ()))))
        return real(*args, **kw)

    monkeypatch.setattr(proof, "first_different", spy)
    return skips


def _instances(monkeypatch: pytest.MonkeyPatch) -> list[earlycompare.EarlyComparison]:
    """Every EarlyComparison made from now on (to look at the files it holds)."""
    made: list[earlycompare.EarlyComparison] = []
    real_init = earlycompare.EarlyComparison.__init__

    def init(self: earlycompare.EarlyComparison, *args: Any, **kw: Any) -> None:
        real_init(self, *args, **kw)
        made.append(self)

    monkeypatch.setattr(earlycompare.EarlyComparison, "__init__", init)
    return made


@pytest.mark.parametrize("layout", ["single", "external"])
def test_a_tensor_written_wrong_is_compared_again_and_named(tmp_path: Path, layout: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A tensor whose written bytes differ when compared at once is compared again after the write, where the
    difference is said; nothing is left behind and the source is untouched."""
    src = factory.external_model(tmp_path / "m", n=4096)
    before = factory.snapshot(tmp_path / "m")
    real = ExternalDataReader.copy_to_fd

    def corrupting(self: ExternalDataReader, ref: Any, fd: int, *args: Any, **kw: Any) -> int:
        start = os.lseek(fd, 0, os.SEEK_CUR)
        n = real(self, ref, fd, *args, **kw)
        if ref.ref.name == "W2":
            os.pwrite(fd, b"\xff", start + 100)  # one byte of one weight, before the merge says it wrote it
        return n

    monkeypatch.setattr(ExternalDataReader, "copy_to_fd", corrupting)
    skips = _spy_skips(monkeypatch)
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(OnnxpackError) as e:
        merge_model(src, out / "o.onnx", layout=layout)
    assert e.value.code == "MERGE_NOT_EQUAL" and "'W2'" in e.value.message
    assert len(skips) == 1 and len(skips[0]) == 1  # W1 was equal at once; W2 was read again, and differed
    assert _files_in(out) == []
    assert factory.snapshot(tmp_path / "m") == before


def test_a_written_file_replaced_after_its_comparison_is_read_again(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """What was compared as written counts only for that file (device and inode): the same path holding another
    file by the time the proof parses it is compared anew, and its difference found."""
    src = factory.external_model(tmp_path / "m", n=4096)
    real = proof.prove_same_bytes

    def swap_then_prove(source: Any, table: Any, merged: Path, *args: Any, **kw: Any) -> Any:
        other = merged.with_name("other")
        shutil.copyfile(merged, other)
        data = bytearray(other.read_bytes())
        data[-200] ^= 1  # inside the last tensor written (W2's bytes end before the graph's tail)
        other.write_bytes(data)
        os.replace(other, merged)
        return real(source, table, merged, *args, **kw)

    monkeypatch.setattr(proof, "prove_same_bytes", swap_then_prove)
    skips = _spy_skips(monkeypatch)
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(OnnxpackError) as e:
        merge_model(src, out / "o.onnx", layout="single")
    assert e.value.code == "MERGE_NOT_EQUAL"
    assert skips == [()]  # nothing compared as written was trusted: another inode
    assert _files_in(out) == []


@pytest.mark.parametrize("layout", ["single", "external"])
def test_a_pair_counts_only_at_the_range_the_parse_finds(tmp_path: Path, layout: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The pairs found equal while writing are used only where source range and written range are exactly those the
    proof finds: a pair off by one byte, or of another length, is not."""
    src = factory.external_model(tmp_path / "m", n=4096)
    seen: list[frozenset[Any]] = []
    real_finish = earlycompare.EarlyComparison.finish

    def finish(self: earlycompare.EarlyComparison) -> Any:
        got = real_finish(self)
        seen.append(frozenset(got))
        return got

    monkeypatch.setattr(earlycompare.EarlyComparison, "finish", finish)
    skips = _spy_skips(monkeypatch)
    merge_model(src, tmp_path / "o.onnx", layout=layout)
    pairs = seen[0]
    assert len(pairs) == 2 and len(skips[0]) == 2

    written = tmp_path / "o.onnx" if layout == "single" else tmp_path / "o.onnx.data"
    plan = merge_mod.plan_merge(src)
    model = load_structure(tmp_path / "o.onnx")
    table = resolve_external_data(model, tmp_path, verify_checksums=False)
    want, got = proof._contents(plan.model, plan.table), proof._contents(model, table)
    assert proof._compared_already(want, got, pairs) == set(skips[0])
    shifted = {(s, (d, i, off + 1, n)) for s, (d, i, off, n) in pairs}
    shorter = {(s, (d, i, off, n - 1)) for s, (d, i, off, n) in pairs}
    other_source = {((s[0], s[1] + 4, s[2]), w) for s, w in pairs}
    for wrong in (shifted, shorter, other_source):
        assert proof._compared_already(want, got, wrong) == set()
    assert written.exists()


def test_a_cancelled_merge_ends_the_comparison_thread(tmp_path: Path) -> None:
    """The thread ends with the comparison, and skips what is queued once cancelled."""
    from onnxpack.core.progress import CancelToken

    src = factory.external_model(tmp_path / "m", n=4096)
    plan = merge_mod.plan_merge(src)
    token = CancelToken()
    ref = next(r for r in plan.table.refs if r.data_length)
    with earlycompare.EarlyComparison(plan.table, token) as early:
        token.cancel()
        early.copied(ref, src.with_name("model.onnx.data"), ref.offset or 0)
        assert early.finish() == frozenset()
    import threading

    assert [t.name for t in threading.enumerate() if t.name == "onnxpack-proof-early"] == []


@pytest.mark.parametrize("layout", ["single", "external"])
def test_no_written_file_is_held_open_when_it_takes_its_name(tmp_path: Path, layout: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows renames no file another handle holds open: the comparison lets go of each written file before the
    merge gives it its final name."""
    from onnxpack.core import atomic

    made = _instances(monkeypatch)
    held: list[int] = []
    real_commit = atomic._commit

    def commit(tmp: Path, dest: Path, overwrite: bool) -> None:
        held.append(sum(len(e._files) for e in made))
        real_commit(tmp, dest, overwrite)

    monkeypatch.setattr(atomic, "_commit", commit)
    src = factory.external_model(tmp_path / "m", n=4096)
    merge_model(src, tmp_path / "o.onnx", layout=layout)
    assert len(made) == 1 and held == ([0] if layout == "single" else [0, 0])


@pytest.mark.parametrize("layout", ["single", "external"])
def test_a_cancelled_merge_lets_go_of_its_files_before_they_are_removed(tmp_path: Path, layout: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A merge cancelled while it writes removes its temporaries, which no comparison holds open by then (Windows
    removes no file held open: a partial file would stay)."""
    from onnxpack.core.errors import Cancelled
    from onnxpack.core.model.merge import mergewrite
    from onnxpack.core.progress import CancelToken, ProgressEvent

    monkeypatch.setattr(mergewrite, "_KERNEL_CHUNK", 1024)
    made = _instances(monkeypatch)
    held: list[int] = []
    real_unlink = Path.unlink

    def unlink(self: Path, missing_ok: bool = False) -> None:
        if self.name.startswith(".onnxpack-tmp"):
            held.append(sum(len(e._files) for e in made))
        real_unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", unlink)
    src = factory.external_model(tmp_path / "m", n=20000)
    token = CancelToken()

    def progress(ev: ProgressEvent) -> None:
        if ev.done > 100_000 and not token.cancelled:  # inside the second tensor, once the first is being compared
            import time

            deadline = time.monotonic() + 5
            while not any(e._files for e in made) and time.monotonic() < deadline:
                time.sleep(0.001)
            assert any(e._files for e in made)
            token.cancel()

    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(Cancelled):
        merge_model(src, out / "o.onnx", layout=layout, progress=progress, cancel=token)
    assert made and held and set(held) == {0}
    assert _files_in(out) == []


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_an_unexpected_failure_while_comparing_leaves_the_proof_to_compare(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A failure of the early comparison itself (a bug) prints no traceback and loses nothing: every tensor is then
    compared after the write, and the merge succeeds."""

    def broken(*args: Any) -> Any:
        raise TypeError("a bug")

    monkeypatch.setattr(earlycompare.EarlyComparison, "_compare", broken)
    skips = _spy_skips(monkeypatch)
    src = factory.external_model(tmp_path / "m", n=4096)
    merge_model(src, tmp_path / "o.onnx")
    assert skips == [()]  # nothing trusted: all compared after the write
    assert "Traceback" not in capsys.readouterr().err
