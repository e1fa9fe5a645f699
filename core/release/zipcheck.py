"""Hostile-ZIP-aware reader: parse the central directory ourselves and read members with caps.

Python's ``zipfile`` is fine for writing but not for judging an untrusted archive (security.md
rule 7): it returns the last of two duplicate names, rewrites ``../x`` on extract, tolerates data
before the first entry, and never notices overlapping entries (the "better zip bomb"). So this
module parses the end record(s), the central directory and every local header by hand (struct
layouts from PKWARE's APPNOTE.TXT 6.3.10), accounts for every byte of the file, and reads member
data itself with zlib, capping output at the declared size and checking the CRC.
"""

from __future__ import annotations

import stat
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from ..findings import Finding
from ..names import component_problem, folded
from ..progress import CancelToken, check_cancel
from . import codes

__all__ = [
    "MAX_ENTRIES",
    "MAX_MEMBER_SIZE",
    "MAX_RATIO",
    "ArchiveScan",
    "Member",
    "check_member_name",
    "iter_member",
    "scan_archive",
]

#: Caps applied before any member is read.
MAX_ENTRIES = 10_000
MAX_CD_BYTES = 16 * 2**20
MAX_MEMBER_SIZE = 2**40  # 1 TiB declared uncompressed size
MAX_RATIO = 100  # uncompressed/compressed, for members whose declared size exceeds RATIO_FLOOR
RATIO_FLOOR = 2**20
CHUNK = 8 * 2**20

_EOCD = 0x06054B50
_Z64_LOCATOR = 0x07064B50
_Z64_EOCD = 0x06064B50
_CDH = 0x02014B50
_LFH = 0x04034B50
_DD = 0x08074B50
_ZIP64_EXTRA = 0x0001
_UNICODE_PATH_EXTRA = 0x7075  # Info-ZIP: a second name some tools prefer over the header's
_FLAG_ENCRYPTED = 0x0001
_FLAG_DESCRIPTOR = 0x0008
_FLAG_STRONG = 0x0040
_FLAG_UTF8 = 0x0800
_FLAG_CD_ENCRYPTED = 0x2000
_STORED, _DEFLATED = 0, 8
_DOS_DIR = 0x10
_DOS_REPARSE = 0x400  # NTFS reparse point (symlink/junction)


@dataclass
class Member:
    """One central-directory entry, with where its bytes really are."""

    name: str
    method: int
    flags: int
    crc: int
    compressed_size: int
    size: int
    header_offset: int
    data_offset: int = 0
    end_offset: int = 0  # end of data (and data descriptor)
    mode: int | None = None  # Unix mode (upper half of the external attributes) when it is set, whatever the host


@dataclass
class ArchiveScan:
    """The result of :func:`scan_archive`: members in directory order, and every problem found."""

    size: int
    members: list[Member] = field(default_factory=list)
    problems: list[Finding] = field(default_factory=list)
    zip64: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    def by_name(self) -> dict[str, Member]:
        return {m.name: m for m in self.members}


def check_member_name(name: str) -> str | None:
    """Why ``name`` is not acceptable as a bundle member path (None when it is)."""
    if not name:
        return "is empty"
    if "\\" in name:
        return "contains a backslash"
    if name.startswith("/"):
        return "is an absolute path"
    if len(name) >= 2 and name[1] == ":" and name[0].isascii() and name[0].isalpha():
        return "starts with a drive letter"
    parts = name.split("/")
    if any(p == ".." for p in parts):
        return "contains a '..' component"
    for p in parts:
        why = component_problem(p)
        if why is not None:
            return why
    return None


def _read_at(f: BinaryIO, offset: int, n: int) -> bytes:
    f.seek(offset)
    return f.read(n)


def _zip64_values(extra: bytes, wanted: list[str], values: dict[str, int]) -> bool:
    """Fill ``values`` from a ZIP64 extra field (fields present only for the 0xFFFFFFFF ones)."""
    pos = 0
    while pos + 4 <= len(extra):
        tag, length = struct.unpack_from("<HH", extra, pos)
        body = extra[pos + 4 : pos + 4 + length]
        if tag == _ZIP64_EXTRA:
            off = 0
            for key in wanted:
                width = 4 if key == "disk" else 8
                if off + width > len(body):
                    return False
                values[key] = int.from_bytes(body[off : off + width], "little")
                off += width
            return True
        pos += 4 + length
    return not wanted


def _extra_tags(extra: bytes) -> list[int] | None:
    tags, pos = [], 0
    while pos < len(extra):
        if pos + 4 > len(extra):
            return None
        tag, length = struct.unpack_from("<HH", extra, pos)
        if pos + 4 + length > len(extra):
            return None
        tags.append(tag)
        pos += 4 + length
    return tags


def _find_end(f: BinaryIO, size: int, scan: ArchiveScan) -> tuple[int, int, int] | None:
    """Locate the end record(s); return (cd_offset, cd_size, entries) and where the CD must end."""
    tail_len = min(size, 22 + 65535)
    tail = _read_at(f, size - tail_len, tail_len)
    idx = tail.rfind(struct.pack("<I", _EOCD))
    if idx < 0 or size < 22:
        scan.problems.append(codes.ZIP_NOT_ZIP.finding())
        return None
    eocd_pos = size - tail_len + idx
    if eocd_pos + 22 > size:
        scan.problems.append(codes.ZIP_TRUNCATED.finding())
        return None
    (_sig, disk, cd_disk, n_disk, n_total, cd_size, cd_offset, comment_len) = struct.unpack_from("<IHHHHIIH", tail, idx)
    if eocd_pos + 22 + comment_len != size:
        extra = size - (eocd_pos + 22 + comment_len)
        variant = None if extra > 0 else "missing"
        scan.problems.append(codes.ZIP_TRAILING_DATA.finding(variant=variant, count=abs(extra)))
        return None
    cd_end_expected = eocd_pos
    loc_pos = eocd_pos - 20
    if loc_pos >= 0 and _read_at(f, loc_pos, 4) == struct.pack("<I", _Z64_LOCATOR):
        scan.zip64 = True
        _s, z64_disk, z64_off, n_disks = struct.unpack("<IIQI", _read_at(f, loc_pos, 20))
        rec = _read_at(f, z64_off, 56) if z64_off + 56 <= loc_pos else b""
        if len(rec) != 56 or struct.unpack_from("<I", rec)[0] != _Z64_EOCD or z64_disk != 0 or n_disks > 1:
            scan.problems.append(codes.ZIP_BAD_END.finding())
            return None
        classic = {"this disk": (disk, 0xFFFF), "directory disk": (cd_disk, 0xFFFF),
                   "entries on this disk": (n_disk, 0xFFFF), "entries": (n_total, 0xFFFF),
                   "directory size": (cd_size, 0xFFFFFFFF), "directory offset": (cd_offset, 0xFFFFFFFF)}
        (_s, rec_size, _vm, _vn, disk, cd_disk, n_disk, n_total, cd_size, cd_offset) = struct.unpack("<IQHHIIQQQQ", rec)
        z64 = {"this disk": disk, "directory disk": cd_disk, "entries on this disk": n_disk, "entries": n_total,
               "directory size": cd_size, "directory offset": cd_offset}
        # Each value of the classic record is either the ZIP64 one or the "see ZIP64" marker (all ones): readers
        # that trust one record would otherwise see another archive than readers that trust the other.
        for what, (old, marker) in classic.items():
            if old not in (marker, z64[what]):
                scan.problems.append(codes.ZIP_BAD_END.finding(variant="field", value=z64[what], field=what, old=old))
                return None
        if z64_off + 12 + rec_size != loc_pos:
            scan.problems.append(codes.ZIP_TRAILING_DATA.finding(variant="locator"))
            return None
        cd_end_expected = z64_off
    if disk != 0 or cd_disk != 0 or n_disk != n_total:
        scan.problems.append(codes.ZIP_MULTIDISK.finding())
        return None
    if n_total > MAX_ENTRIES or cd_size > MAX_CD_BYTES:
        scan.problems.append(codes.ZIP_TOO_LARGE.finding(entries=n_total, bytes=cd_size))
        return None
    if cd_offset + cd_size != cd_end_expected:
        gap = cd_end_expected - (cd_offset + cd_size)
        scan.problems.append((codes.ZIP_GAP if gap > 0 else codes.ZIP_OVERLAP).finding(variant="end", gap=f"{gap:+d}"))
        return None
    return cd_offset, cd_size, n_total


def _parse_directory(f: BinaryIO, cd: bytes, n_total: int, scan: ArchiveScan) -> None:
    pos = 0
    for _ in range(n_total):
        if pos + 46 > len(cd) or struct.unpack_from("<I", cd, pos)[0] != _CDH:
            scan.problems.append(codes.ZIP_BAD_DIRECTORY.finding())
            return
        (
            _s,
            made_by,
            _need,
            flags,
            method,
            _t,
            _d,
            crc,
            csize,
            usize,
            n_len,
            e_len,
            c_len,
            disk,
            _ia,
            ext_attr,
            offset,
        ) = struct.unpack_from("<IHHHHHHIIIHHHHHII", cd, pos)
        raw_name = cd[pos + 46 : pos + 46 + n_len]
        extra = cd[pos + 46 + n_len : pos + 46 + n_len + e_len]
        pos += 46 + n_len + e_len + c_len
        if pos > len(cd):
            scan.problems.append(codes.ZIP_BAD_DIRECTORY.finding(variant="truncated"))
            return
        try:
            name = raw_name.decode("utf-8") if flags & _FLAG_UTF8 else raw_name.decode("cp437")
        except UnicodeDecodeError:
            scan.problems.append(codes.ZIP_BAD_NAME.finding(repr(raw_name), variant="encoding", raw=raw_name))
            continue
        wanted = [k for k, v in (("size", usize), ("csize", csize), ("offset", offset)) if v == 0xFFFFFFFF]
        if disk == 0xFFFF:
            wanted.append("disk")
        values: dict[str, int] = {"size": usize, "csize": csize, "offset": offset, "disk": disk}
        tags = _extra_tags(extra)
        if tags is None or not _zip64_values(extra, wanted, values):
            scan.problems.append(codes.ZIP_BAD_DIRECTORY.finding(name, variant="extra", name=name))
            continue
        m = Member(name, method, flags, crc, values["csize"], values["size"], values["offset"])
        if ext_attr >> 16:
            # The upper half is a Unix mode whenever it is set, whatever "version made by" claims: Info-ZIP's
            # unzip honours S_IFLNK from hosts other than Unix too (host 30 extracts as a real symlink).
            m.mode = ext_attr >> 16
        scan.members.append(m)
        _check_entry(m, ext_attr, made_by, tags, values["disk"], scan)
    if pos != len(cd):
        scan.problems.append(codes.ZIP_BAD_DIRECTORY.finding(variant="unaccounted"))


def _check_entry(m: Member, ext_attr: int, made_by: int, tags: list[int], disk: int, scan: ArchiveScan) -> None:
    """Judge one central-directory entry: its name, where it starts, how it is stored, what kind of file it is."""
    scan.problems.extend(_name_problems(m.name, tags))
    scan.problems.extend(_storage_problems(m, disk))
    scan.problems.extend(_kind_problems(m, ext_attr, made_by))
    scan.problems.extend(_size_problems(m))


def _name_problems(name: str, tags: list[int]) -> list[Finding]:
    out = []
    why = check_member_name(name)
    if why is not None:
        if name.endswith("/") and check_member_name(name.rstrip("/")) is None:
            out.append(codes.ZIP_DIRECTORY.finding(name, variant="name", name=name, why=why))
        else:
            out.append(codes.ZIP_BAD_NAME.finding(name, name=name, why=why))
    if _UNICODE_PATH_EXTRA in tags:
        out.append(codes.ZIP_BAD_NAME.finding(name, variant="unicode_path", name=name))
    return out


def _storage_problems(m: Member, disk: int) -> list[Finding]:
    """Where the entry starts, whether it is encrypted, its compression method."""
    name, out = m.name, []
    if disk != 0:
        out.append(codes.ZIP_MULTIDISK.finding(name, variant="member", name=name))
    if m.flags & (_FLAG_ENCRYPTED | _FLAG_STRONG | _FLAG_CD_ENCRYPTED):
        out.append(codes.ZIP_ENCRYPTED.finding(name, name=name))
    if m.method not in (_STORED, _DEFLATED):
        out.append(codes.ZIP_COMPRESSION.finding(name, name=name, method=m.method))
    return out


def _size_problems(m: Member) -> list[Finding]:
    """Declared sizes above the cap, or that the stored bytes cannot hold (or would hold only as a bomb)."""
    name, out = m.name, []
    if m.size > MAX_MEMBER_SIZE:
        out.append(codes.ZIP_TOO_LARGE.finding(name, variant="member", name=name, size=m.size, cap=MAX_MEMBER_SIZE))
    if m.method == _STORED and m.size != m.compressed_size:
        out.append(codes.ZIP_BAD_SIZE.finding(name, name=name, size=m.size, stored=m.compressed_size))
    if m.method == _DEFLATED and m.size > RATIO_FLOOR and m.size > MAX_RATIO * max(m.compressed_size, 1):
        out.append(codes.ZIP_RATIO.finding(name, name=name, stored=m.compressed_size, size=m.size, ratio=MAX_RATIO))
    return out


def _kind_problems(m: Member, ext_attr: int, made_by: int) -> list[Finding]:
    """A link, a folder or a special file, by its Unix mode or its DOS/NTFS attributes."""
    name, out = m.name, []
    if m.mode is not None and stat.S_IFMT(m.mode):
        if stat.S_ISLNK(m.mode):
            out.append(codes.ZIP_SYMLINK.finding(name, name=name))
        elif stat.S_ISDIR(m.mode):
            out.append(codes.ZIP_DIRECTORY.finding(name, name=name))
        elif stat.S_IFMT(m.mode) != stat.S_IFREG:
            out.append(codes.ZIP_SPECIAL.finding(name, name=name, mode=oct(m.mode)))
    if made_by >> 8 in (0, 10, 11, 14, 19) and ext_attr & _DOS_REPARSE:  # DOS/NTFS/VFAT attributes
        out.append(codes.ZIP_SYMLINK.finding(name, variant="reparse", name=name))
    elif made_by >> 8 in (0, 10, 11, 14) and ext_attr & _DOS_DIR:
        out.append(codes.ZIP_DIRECTORY.finding(name, name=name))
    return out


def _check_local_headers(f: BinaryIO, scan: ArchiveScan, cd_offset: int) -> None:
    for m in scan.members:
        head = _read_at(f, m.header_offset, 30) if m.header_offset + 30 <= cd_offset else b""
        if len(head) != 30 or struct.unpack_from("<I", head)[0] != _LFH:
            scan.problems.append(codes.ZIP_BAD_HEADER.finding(m.name, name=m.name))
            continue
        (_s, _v, flags, method, _t, _d, crc, csize, usize, n_len, e_len) = struct.unpack("<IHHHHHIIIHH", head)
        raw = _read_at(f, m.header_offset + 30, n_len + e_len)
        raw_name, extra = raw[:n_len], raw[n_len:]
        expected = m.name.encode("utf-8") if m.flags & _FLAG_UTF8 else m.name.encode("cp437", "replace")
        values = {"size": usize, "csize": csize}
        wanted = [k for k, v in (("size", usize), ("csize", csize)) if v == 0xFFFFFFFF]
        tags = _extra_tags(extra)
        if tags is None or not _zip64_values(extra, wanted, values):
            scan.problems.append(codes.ZIP_BAD_HEADER.finding(m.name, variant="extra", name=m.name))
            continue
        if _UNICODE_PATH_EXTRA in tags:
            scan.problems.append(codes.ZIP_BAD_NAME.finding(m.name, variant="unicode_path", name=m.name))
        mismatch = []
        if raw_name != expected:
            mismatch.append(f"name {raw_name!r}")
        if method != m.method:
            mismatch.append(f"method {method}")
        if (flags ^ m.flags) & (_FLAG_ENCRYPTED | _FLAG_DESCRIPTOR | _FLAG_UTF8):
            mismatch.append(f"flags {flags:#x}")
        if not flags & _FLAG_DESCRIPTOR and (crc, values["csize"], values["size"]) != (
            m.crc,
            m.compressed_size,
            m.size,
        ):
            mismatch.append("CRC or sizes")
        if mismatch:
            scan.problems.append(codes.ZIP_HEADER_MISMATCH.finding(m.name, name=m.name, fields=", ".join(mismatch)))
            continue
        m.data_offset = m.header_offset + 30 + n_len + e_len
        m.end_offset = m.data_offset + m.compressed_size
        if flags & _FLAG_DESCRIPTOR:
            sig = _read_at(f, m.end_offset, 4)
            width = 16 if ("csize" in wanted or m.compressed_size >= 0xFFFFFFFF) else 8
            m.end_offset += 4 + width + (4 if sig == struct.pack("<I", _DD) else 0)
        if m.end_offset > cd_offset:
            scan.problems.append(codes.ZIP_OVERLAP.finding(m.name, variant="directory", name=m.name))


def _check_layout(scan: ArchiveScan, cd_offset: int) -> None:
    """Every byte before the central directory must belong to exactly one entry."""
    spans = sorted((m.header_offset, m.end_offset, m.name) for m in scan.members if m.end_offset)
    pos = 0
    for start, end, name in spans:
        if start < pos:
            scan.problems.append(codes.ZIP_OVERLAP.finding(name, name=name))
        elif start > pos:
            code = codes.ZIP_LEADING_DATA if pos == 0 else codes.ZIP_GAP
            scan.problems.append(code.finding(name, name=name, count=start - pos))
        pos = max(pos, end)
    if pos < cd_offset and len(spans) == len(scan.members):
        scan.problems.append(codes.ZIP_GAP.finding(variant="directory", count=cd_offset - pos))


def scan_archive(f: BinaryIO, size: int) -> ArchiveScan:
    """Check the structure of the ZIP in ``f`` (``size`` bytes) without reading any member data."""
    scan = ArchiveScan(size)
    end = _find_end(f, size, scan)
    if end is None:
        return scan
    cd_offset, cd_size, n_total = end
    cd = _read_at(f, cd_offset, cd_size)
    _parse_directory(f, cd, n_total, scan)
    seen: dict[str, str] = {}
    for m in scan.members:
        key = folded(m.name)
        if key in seen:
            same = seen[key] == m.name
            variant = None if same else "folded"
            scan.problems.append(codes.ZIP_DUPLICATE.finding(m.name, variant=variant, name=m.name, first=seen[key]))
        else:
            seen[key] = m.name
    # A name that is a file and also the folder of another member ("m.onnx" and "m.onnx/x.npy") cannot be
    # extracted: whichever comes second fails, or replaces the first on some tools.
    folders = {"/".join(key.split("/")[:i]): name for key, name in seen.items() for i in range(1, key.count("/") + 1)}
    for key, name in seen.items():
        if key in folders:
            scan.problems.append(codes.ZIP_NAME_CONFLICT.finding(name, name=name, folder=folders[key]))
    if not scan.problems:
        _check_local_headers(f, scan, cd_offset)
        if not scan.problems:
            _check_layout(scan, cd_offset)
    return scan


def iter_member(f: BinaryIO, m: Member, cancel: CancelToken | None = None) -> Iterator[bytes]:
    """Yield the uncompressed bytes of a checked member; never more than its declared size.

    Raises ValueError when the data does not decompress to exactly the declared size or the CRC
    differs (callers turn it into a finding).
    """
    produced = 0
    crc = 0
    for data in (_inflated(f, m, cancel) if m.method == _DEFLATED else _stored(f, m, cancel)):
        produced += len(data)
        if produced > m.size:
            raise ValueError(f"it expands beyond its declared {m.size} bytes")
        crc = zlib.crc32(data, crc)
        if data:
            yield data
    if produced != m.size:
        raise ValueError(f"it holds {produced} bytes, not the declared {m.size}")
    if crc != m.crc:
        raise ValueError("its CRC-32 does not match")


def _read_chunk(f: BinaryIO, remaining: int) -> bytes:
    data = f.read(min(CHUNK, remaining))
    if not data:
        raise ValueError("the archive is truncated")
    return data


def _stored(f: BinaryIO, m: Member, cancel: CancelToken | None) -> Iterator[bytes]:
    """The stored bytes of ``m`` as they are, in chunks."""
    f.seek(m.data_offset)
    remaining = m.compressed_size
    while remaining > 0:
        check_cancel(cancel)
        data = _read_chunk(f, remaining)
        remaining -= len(data)
        yield data


def _inflated(f: BinaryIO, m: Member, cancel: CancelToken | None) -> Iterator[bytes]:
    """The deflated bytes of ``m`` inflated, in chunks; never more than one byte past its declared size (what
    :func:`iter_member` needs to notice that it expands beyond it)."""
    f.seek(m.data_offset)
    remaining = m.compressed_size
    produced = 0
    d = zlib.decompressobj(-15)
    while remaining > 0 or d.unconsumed_tail:
        check_cancel(cancel)
        if d.unconsumed_tail:
            data = d.unconsumed_tail
        else:
            data = _read_chunk(f, remaining)
            remaining -= len(data)
        try:
            # max_length bounds memory and output: never inflate past the declared size (+1 to detect it).
            data = d.decompress(data, min(CHUNK, m.size - produced + 1))
        except zlib.error as e:
            raise ValueError(f"the compressed data is damaged ({e})") from None
        produced += len(data)
        yield data
    if not d.eof:
        yield d.flush(m.size - produced + 1)
        if not d.eof:
            raise ValueError("the compressed data ends early")
