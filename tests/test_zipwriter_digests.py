"""Issue 40 item 2: a stored entry's SHA-256 and CRC-32 are computed on helper threads from the buffers written (the
CRC no longer by zipfile between the writes); the ZIP stays valid and the digests right, whatever buffers the caller
gives (immutable bytes not waited for, a reused bytearray waited for before write returns)."""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
import zlib

from onnxpack.core.release.zipwriter import DeterministicZip


def test_large_stored_entry_digests_from_bytes_and_a_reused_buffer() -> None:
    chunks = [os.urandom(3 << 20) for _ in range(3)]
    buf = io.BytesIO()
    with DeterministicZip(buf) as z:
        with z.entry("a.bin", sum(map(len, chunks))) as sink:
            for c in chunks:
                sink.write(c)
        reused = bytearray(2 << 20)
        with z.entry("b.bin", 2 * len(reused)) as sink:
            for fill in (1, 2):
                reused[:] = bytes([fill]) * len(reused)
                sink.write(reused)  # the caller overwrites its buffer right after: must be hashed as it was
            sink.write(b"")
        small = z.write_bytes("c.txt", b"small")
    whole_a, whole_b = b"".join(chunks), b"\x01" * (2 << 20) + b"\x02" * (2 << 20)
    a, b = z.records[0], z.records[1]
    assert a.sha256 == hashlib.sha256(whole_a).hexdigest() and b.sha256 == hashlib.sha256(whole_b).hexdigest()
    assert small.sha256 == hashlib.sha256(b"small").hexdigest()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as zf:
        assert zf.testzip() is None  # every CRC-32 checked
        assert zlib.crc32(whole_a) == zf.getinfo("a.bin").CRC and zf.read("b.bin") == whole_b
        assert a.data_offset is not None
    assert buf.getvalue()[a.data_offset:a.data_offset + len(whole_a)] == whole_a


def test_mixed_small_and_large_writes_keep_their_order() -> None:
    parts = [b"x" * 100, os.urandom(2 << 20), b"y" * 10, os.urandom(1 << 20), b"z"]
    buf = io.BytesIO()
    with DeterministicZip(buf) as z, z.entry("m.bin", sum(map(len, parts))) as sink:
        for p in parts:
            sink.write(p)
    whole = b"".join(parts)
    assert z.records[0].sha256 == hashlib.sha256(whole).hexdigest()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as zf:
        assert zf.testzip() is None and zf.read("m.bin") == whole


def test_a_deflated_entry_is_still_crc_checked_by_zipfile() -> None:
    data = os.urandom(1 << 20) * 2
    buf = io.BytesIO()
    with DeterministicZip(buf, compress=True) as z, z.entry("d.bin", len(data)) as sink:
        sink.write(data)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as zf:
        assert zf.testzip() is None and zf.read("d.bin") == data
