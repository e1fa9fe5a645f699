"""The one whole-file hasher (core/filehash.py) every stage uses: size and SHA-256, cancellable between chunks."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from onnxpack.core.errors import Cancelled
from onnxpack.core.filehash import CHUNK, hash_file, sha256_file
from onnxpack.core.progress import CancelToken


@pytest.mark.parametrize("size", [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 7])
def test_size_and_digest_match_hashlib(tmp_path: Path, size: int) -> None:
    data = bytes((i * 31 + 7) % 251 for i in range(size))
    p = tmp_path / "f.bin"
    p.write_bytes(data)
    d = sha256_file(p)
    assert (d.size, d.hexdigest) == (size, hashlib.sha256(data).hexdigest())


def test_a_set_cancel_token_stops_it(tmp_path: Path) -> None:
    p = tmp_path / "f.bin"
    p.write_bytes(b"x" * (2 * CHUNK))
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        sha256_file(p, token)


def test_no_other_whole_file_hasher_in_the_engine() -> None:
    """Four copies (inputs, prove, preview, bundle) became this one; a new stage uses it too."""
    core = Path(__file__).resolve().parent.parent / "core"
    pattern = "while chunk := f.read("
    offenders = [str(p.relative_to(core)) for p in core.rglob("*.py") if pattern in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_sha1_for_onnx_checksums(tmp_path: Path) -> None:
    from onnxpack.core.model.extdata.extref import sha1_file

    p = tmp_path / "w.bin"
    p.write_bytes(b"weights" * 1000)
    assert sha1_file(p) == hashlib.sha1(b"weights" * 1000).hexdigest()


@pytest.mark.parametrize(("offset", "length"), [(0, 5), (3, CHUNK), (CHUNK - 1, CHUNK + 2), (2 * CHUNK, 0)])
def test_a_byte_range_hashes_only_those_bytes(tmp_path: Path, offset: int, length: int) -> None:
    data = bytes((i * 31 + 7) % 251 for i in range(3 * CHUNK))
    p = tmp_path / "f.bin"
    p.write_bytes(data)
    d = hash_file(p, "sha256", offset=offset, length=length)
    assert (d.size, d.hexdigest) == (length, hashlib.sha256(data[offset:offset + length]).hexdigest())


def test_a_range_past_the_end_reads_what_is_there(tmp_path: Path) -> None:
    p = tmp_path / "f.bin"
    p.write_bytes(b"abcdef")
    d = hash_file(p, "sha256", offset=4, length=10)
    assert (d.size, d.hexdigest) == (2, hashlib.sha256(b"ef").hexdigest())
