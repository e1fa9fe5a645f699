"""The merge's proof reads each large tensor back from the written file while the write goes on (RangeFollower)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest

from onnxpack.core.errors import OnnxpackError
from onnxpack.core.model.extdata.extresolve import resolve_external_data
from onnxpack.core.model.merge import proof
from onnxpack.core.model.merge.merge import merge_model, plan_merge
from onnxpack.core.model.merge.streamhash import RangeFollower
from onnxpack.core.model.modelfile import load_structure
from tests import factory

MIB = 1 << 20


def test_ranges_are_read_back_from_the_file_as_it_grows(tmp_path: Path) -> None:
    path = tmp_path / "growing.bin"
    blocks = [bytes([i]) * (MIB + 3 * i) for i in range(1, 4)]
    with open(path, "wb", buffering=0) as f, RangeFollower(path, threads=2) as follow:
        offset = 0
        f.write(b"x" * 10)  # a header the follower is never told about
        offset += 10
        for block in blocks:
            f.write(block)
            follow(offset, len(block))  # told once its bytes are in the file
            offset += len(block)
        follow(0, 10)  # under 1 MiB: left to the proof, which hashes it after its parse
        got = follow.digests()
        renamed = follow.digests(tmp_path / "final.bin")
    want, start = {}, 10
    for block in blocks:
        want[(path, start, len(block))] = hashlib.sha256(block).hexdigest()
        start += len(block)
    assert got == want
    assert renamed == {(tmp_path / "final.bin", o, n): d for (_p, o, n), d in want.items()}


def test_a_range_past_the_end_of_the_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "short.bin"
    path.write_bytes(b"\0" * (2 * MIB))
    with RangeFollower(path, threads=1) as follow:
        follow(MIB, 2 * MIB)
        with pytest.raises(OSError, match="ended at byte"):
            follow.digests()


def _big_model(folder: Path) -> Path:
    """An external-data model with two tensors of 1 MiB and more (the follower's), and a small one (the proof's)."""
    return factory.external_model(folder, n=MIB // 4 + 16)


def test_a_digest_read_back_counts_only_for_the_range_the_parse_finds(tmp_path: Path) -> None:
    plan = plan_merge(_big_model(tmp_path / "src"))
    digests = proof.hash_model_tensors(plan.table)
    merged = tmp_path / "out" / "m.onnx"
    merged.parent.mkdir()
    onnx.save(onnx.load(str(plan.source)), merged)  # onnx inlines the external data
    table = resolve_external_data(load_structure(merged), merged.parent)
    big = [k for r in table.refs if (k := proof._key(r)) is not None and k[2] >= MIB]
    assert len(big) == 2
    wrong = hashlib.sha256(b"not the tensor").hexdigest()
    # a digest for a range one byte off is not the tensor's: ignored, the tensor is hashed after the parse
    off_by_one = {(p, o + 1, n): wrong for p, o, n in big}
    assert proof.prove_same_model(plan.model, plan.table, digests, merged, merged.parent, known=off_by_one).tensors == 3
    # the exact range's digest is taken as read: a wrong one fails the proof, naming the tensor
    with pytest.raises(OnnxpackError) as e:
        proof.prove_same_model(plan.model, plan.table, digests, merged, merged.parent, known={big[0]: wrong})
    assert e.value.code == "MERGE_NOT_EQUAL" and "tensor" in e.value.message


@pytest.mark.parametrize("layout", ["single", "external"])
def test_the_merge_proof_hashes_the_large_tensors_as_they_are_written(tmp_path: Path, layout: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    src = _big_model(tmp_path / "src")
    seen: list[dict[str, int]] = []
    real = proof.hash_model_tensors

    def spy(table: Any, cancel: Any = None, chunk: int = proof.CHUNK, threads: Any = None, known: Any = None) -> Any:
        if known is not None:  # the proof's call, after the write
            big = {k for r in table.refs if (k := proof._key(r)) is not None and k[2] >= MIB}
            seen.append({"big": len(big), "read_back": len(big & set(known)), "stray": len(set(known) - big)})
        return real(table, cancel, chunk, threads, known)

    monkeypatch.setattr(proof, "hash_model_tensors", spy)
    out = tmp_path / "out" / "m.onnx"
    out.parent.mkdir()
    result = merge_model(src, out, layout=layout)
    assert result.layout.value == layout
    assert seen == [{"big": 2, "read_back": 2, "stray": 0}]
    a, b = onnx.load(str(src)), onnx.load(str(out))
    for x, y in zip(a.graph.initializer, b.graph.initializer, strict=True):
        assert np.array_equal(onnx.numpy_helper.to_array(x), onnx.numpy_helper.to_array(y))


def test_a_failed_read_back_fails_the_merge_and_leaves_no_file(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    src = _big_model(tmp_path / "src")

    def broken(self: RangeFollower, offset: int, length: int) -> str:
        raise OSError("the disk went away")

    monkeypatch.setattr(RangeFollower, "_hash", broken)
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(OnnxpackError):
        merge_model(src, out / "m.onnx")
    assert list(out.iterdir()) == []
