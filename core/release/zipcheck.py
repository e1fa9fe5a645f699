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
import unicodedata
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from ..findings import Finding
from ..names import component_problem
from ..progress import CancelToken, check_cancel

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


def _bad(code: str, message: str, subject: str = "") -> Finding:
    return Finding.error(
        code,
        message,
        "Do not use this archive: it was damaged or crafted. Get the bundle again from its publisher.",
        subject,
    )


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


def _fold(name: str) -> str:
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


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
        scan.problems.append(_bad("ZIP_NOT_ZIP", "The file is not a ZIP archive (no end-of-central-directory record)"))
        return None
    eocd_pos = size - tail_len + idx
    if eocd_pos + 22 > size:
        scan.problems.append(_bad("ZIP_TRUNCATED", "The ZIP end record is truncated"))
        return None
    (_sig, disk, cd_disk, n_disk, n_total, cd_size, cd_offset, comment_len) = struct.unpack_from("<IHHHHIIH", tail, idx)
    if eocd_pos + 22 + comment_len != size:
        extra = size - (eocd_pos + 22 + comment_len)
        scan.problems.append(
            _bad(
                "ZIP_TRAILING_DATA",
                f"{abs(extra)} byte(s) {'after' if extra > 0 else 'missing from'} the end of the ZIP end record",
            )
        )
        return None
    cd_end_expected = eocd_pos
    loc_pos = eocd_pos - 20
    if loc_pos >= 0 and _read_at(f, loc_pos, 4) == struct.pack("<I", _Z64_LOCATOR):
        scan.zip64 = True
        _s, z64_disk, z64_off, n_disks = struct.unpack("<IIQI", _read_at(f, loc_pos, 20))
        rec = _read_at(f, z64_off, 56) if z64_off + 56 <= loc_pos else b""
        if len(rec) != 56 or struct.unpack_from("<I", rec)[0] != _Z64_EOCD or z64_disk != 0 or n_disks > 1:
            scan.problems.append(_bad("ZIP_BAD_END", "The ZIP64 end record is missing or damaged"))
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
                scan.problems.append(_bad("ZIP_BAD_END", f"The ZIP64 end record is damaged: it says {z64[what]} for "
                                          f"the {what}, the ZIP end record {old}"))
                return None
        if z64_off + 12 + rec_size != loc_pos:
            scan.problems.append(
                _bad("ZIP_TRAILING_DATA", "Unaccounted bytes between the ZIP64 end record and its locator")
            )
            return None
        cd_end_expected = z64_off
    if disk != 0 or cd_disk != 0 or n_disk != n_total:
        scan.problems.append(_bad("ZIP_MULTIDISK", "The archive claims to span several disks"))
        return None
    if n_total > MAX_ENTRIES or cd_size > MAX_CD_BYTES:
        scan.problems.append(
            _bad("ZIP_TOO_LARGE", f"The archive declares {n_total} entries / {cd_size} directory bytes")
        )
        return None
    if cd_offset + cd_size != cd_end_expected:
        gap = cd_end_expected - (cd_offset + cd_size)
        scan.problems.append(
            _bad(
                "ZIP_GAP" if gap > 0 else "ZIP_OVERLAP",
                f"The central directory does not end where the end record starts ({gap:+d} bytes)",
            )
        )
        return None
    return cd_offset, cd_size, n_total


def _parse_directory(f: BinaryIO, cd: bytes, n_total: int, scan: ArchiveScan) -> None:
    pos = 0
    for _ in range(n_total):
        if pos + 46 > len(cd) or struct.unpack_from("<I", cd, pos)[0] != _CDH:
            scan.problems.append(_bad("ZIP_BAD_DIRECTORY", "The central directory is damaged (bad entry header)"))
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
            scan.problems.append(_bad("ZIP_BAD_DIRECTORY", "The central directory is truncated"))
            return
        try:
            name = raw_name.decode("utf-8") if flags & _FLAG_UTF8 else raw_name.decode("cp437")
        except UnicodeDecodeError:
            scan.problems.append(_bad("ZIP_BAD_NAME", f"Member name {raw_name!r} is not valid UTF-8", repr(raw_name)))
            continue
        wanted = [k for k, v in (("size", usize), ("csize", csize), ("offset", offset)) if v == 0xFFFFFFFF]
        if disk == 0xFFFF:
            wanted.append("disk")
        values: dict[str, int] = {"size": usize, "csize": csize, "offset": offset, "disk": disk}
        tags = _extra_tags(extra)
        if tags is None or not _zip64_values(extra, wanted, values):
            scan.problems.append(_bad("ZIP_BAD_DIRECTORY", f"Member {name!r} has a damaged extra field", name))
            continue
        m = Member(name, method, flags, crc, values["csize"], values["size"], values["offset"])
        if ext_attr >> 16:
            # The upper half is a Unix mode whenever it is set, whatever "version made by" claims: Info-ZIP's
            # unzip honours S_IFLNK from hosts other than Unix too (host 30 extracts as a real symlink).
            m.mode = ext_attr >> 16
        scan.members.append(m)
        _check_entry(m, ext_attr, made_by, tags, values["disk"], scan)
    if pos != len(cd):
        scan.problems.append(_bad("ZIP_BAD_DIRECTORY", "The central directory has unaccounted bytes"))


def _check_entry(m: Member, ext_attr: int, made_by: int, tags: list[int], disk: int, scan: ArchiveScan) -> None:
    name = m.name
    why = check_member_name(name)
    if why is not None:
        code = "ZIP_DIRECTORY" if name.endswith("/") and check_member_name(name.rstrip("/")) is None else "ZIP_BAD_NAME"
        scan.problems.append(_bad(code, f"Member name {name!r} {why}", name))
    if _UNICODE_PATH_EXTRA in tags:
        scan.problems.append(_bad("ZIP_BAD_NAME", f"Member {name!r} carries a second (Unicode path) name", name))
    if disk != 0:
        scan.problems.append(_bad("ZIP_MULTIDISK", f"Member {name!r} starts on another disk", name))
    if m.flags & (_FLAG_ENCRYPTED | _FLAG_STRONG | _FLAG_CD_ENCRYPTED):
        scan.problems.append(_bad("ZIP_ENCRYPTED", f"Member {name!r} is encrypted", name))
    if m.method not in (_STORED, _DEFLATED):
        scan.problems.append(
            _bad("ZIP_COMPRESSION", f"Member {name!r} uses compression method {m.method} (only stored/deflate)", name)
        )
    if m.mode is not None and stat.S_IFMT(m.mode):
        kind = stat.S_IFMT(m.mode)
        if stat.S_ISLNK(m.mode):
            scan.problems.append(_bad("ZIP_SYMLINK", f"Member {name!r} is a symbolic link", name))
        elif stat.S_ISDIR(m.mode):
            scan.problems.append(_bad("ZIP_DIRECTORY", f"Member {name!r} is a directory entry", name))
        elif kind != stat.S_IFREG:
            scan.problems.append(_bad("ZIP_SPECIAL", f"Member {name!r} is a special file (mode {oct(m.mode)})", name))
    if made_by >> 8 in (0, 10, 11, 14, 19) and ext_attr & _DOS_REPARSE:  # DOS/NTFS/VFAT attributes
        scan.problems.append(_bad("ZIP_SYMLINK", f"Member {name!r} is a reparse point (link)", name))
    elif made_by >> 8 in (0, 10, 11, 14) and ext_attr & _DOS_DIR:
        scan.problems.append(_bad("ZIP_DIRECTORY", f"Member {name!r} is a directory entry", name))
    if m.size > MAX_MEMBER_SIZE:
        scan.problems.append(
            _bad("ZIP_TOO_LARGE", f"Member {name!r} declares {m.size} bytes (cap {MAX_MEMBER_SIZE})", name)
        )
    if m.method == _STORED and m.size != m.compressed_size:
        scan.problems.append(
            _bad(
                "ZIP_BAD_SIZE", f"Stored member {name!r} declares {m.size} bytes but occupies {m.compressed_size}", name
            )
        )
    if m.method == _DEFLATED and m.size > RATIO_FLOOR and m.size > MAX_RATIO * max(m.compressed_size, 1):
        scan.problems.append(
            _bad(
                "ZIP_RATIO",
                f"Member {name!r} would expand {m.compressed_size} bytes to {m.size} "
                f"(ratio above {MAX_RATIO}: a zip bomb?)",
                name,
            )
        )


def _check_local_headers(f: BinaryIO, scan: ArchiveScan, cd_offset: int) -> None:
    for m in scan.members:
        head = _read_at(f, m.header_offset, 30) if m.header_offset + 30 <= cd_offset else b""
        if len(head) != 30 or struct.unpack_from("<I", head)[0] != _LFH:
            scan.problems.append(_bad("ZIP_BAD_HEADER", f"Member {m.name!r}: no local header at its offset", m.name))
            continue
        (_s, _v, flags, method, _t, _d, crc, csize, usize, n_len, e_len) = struct.unpack("<IHHHHHIIIHH", head)
        raw = _read_at(f, m.header_offset + 30, n_len + e_len)
        raw_name, extra = raw[:n_len], raw[n_len:]
        expected = m.name.encode("utf-8") if m.flags & _FLAG_UTF8 else m.name.encode("cp437", "replace")
        values = {"size": usize, "csize": csize}
        wanted = [k for k, v in (("size", usize), ("csize", csize)) if v == 0xFFFFFFFF]
        tags = _extra_tags(extra)
        if tags is None or not _zip64_values(extra, wanted, values):
            scan.problems.append(_bad("ZIP_BAD_HEADER", f"Member {m.name!r}: damaged local extra field", m.name))
            continue
        if _UNICODE_PATH_EXTRA in tags:
            scan.problems.append(
                _bad("ZIP_BAD_NAME", f"Member {m.name!r} carries a second (Unicode path) name", m.name)
            )
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
            scan.problems.append(
                _bad(
                    "ZIP_HEADER_MISMATCH",
                    f"Member {m.name!r}: local header disagrees with the central directory ({', '.join(mismatch)})",
                    m.name,
                )
            )
            continue
        m.data_offset = m.header_offset + 30 + n_len + e_len
        m.end_offset = m.data_offset + m.compressed_size
        if flags & _FLAG_DESCRIPTOR:
            sig = _read_at(f, m.end_offset, 4)
            width = 16 if ("csize" in wanted or m.compressed_size >= 0xFFFFFFFF) else 8
            m.end_offset += 4 + width + (4 if sig == struct.pack("<I", _DD) else 0)
        if m.end_offset > cd_offset:
            scan.problems.append(_bad("ZIP_OVERLAP", f"Member {m.name!r} extends into the central directory", m.name))


def _check_layout(scan: ArchiveScan, cd_offset: int) -> None:
    """Every byte before the central directory must belong to exactly one entry."""
    spans = sorted((m.header_offset, m.end_offset, m.name) for m in scan.members if m.end_offset)
    pos = 0
    for start, end, name in spans:
        if start < pos:
            scan.problems.append(_bad("ZIP_OVERLAP", f"Member {name!r} overlaps the previous entry", name))
        elif start > pos:
            what = "before the first entry" if pos == 0 else f"before member {name!r}"
            scan.problems.append(
                _bad("ZIP_LEADING_DATA" if pos == 0 else "ZIP_GAP", f"{start - pos} unaccounted byte(s) {what}", name)
            )
        pos = max(pos, end)
    if pos < cd_offset and len(spans) == len(scan.members):
        scan.problems.append(_bad("ZIP_GAP", f"{cd_offset - pos} unaccounted byte(s) before the central directory"))


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
        key = _fold(m.name)
        if key in seen:
            same = seen[key] == m.name
            scan.problems.append(
                _bad(
                    "ZIP_DUPLICATE",
                    f"Member name {m.name!r} appears twice"
                    if same
                    else f"Member names {seen[key]!r} and {m.name!r} are the same after case folding / normalisation",
                    m.name,
                )
            )
        else:
            seen[key] = m.name
    # A name that is a file and also the folder of another member ("m.onnx" and "m.onnx/x.npy") cannot be
    # extracted: whichever comes second fails, or replaces the first on some tools.
    folders = {"/".join(key.split("/")[:i]): name for key, name in seen.items() for i in range(1, key.count("/") + 1)}
    for key, name in seen.items():
        if key in folders:
            scan.problems.append(
                _bad("ZIP_NAME_CONFLICT", f"Member {name!r} is a file, but {folders[key]!r} uses it as a folder", name)
            )
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
    f.seek(m.data_offset)
    remaining_in = m.compressed_size
    produced = 0
    crc = 0
    d = zlib.decompressobj(-15) if m.method == _DEFLATED else None
    while remaining_in > 0 or (d is not None and d.unconsumed_tail):
        check_cancel(cancel)
        if d is not None and d.unconsumed_tail:
            data = d.unconsumed_tail
        else:
            data = f.read(min(CHUNK, remaining_in))
            if not data:
                raise ValueError("the archive is truncated")
            remaining_in -= len(data)
        if d is not None:
            try:
                # max_length bounds memory and output: never inflate past the declared size (+1 to detect it).
                data = d.decompress(data, min(CHUNK, m.size - produced + 1))
            except zlib.error as e:
                raise ValueError(f"the compressed data is damaged ({e})") from None
        produced += len(data)
        if produced > m.size:
            raise ValueError(f"it expands beyond its declared {m.size} bytes")
        crc = zlib.crc32(data, crc)
        if data:
            yield data
    if d is not None and not d.eof:
        rest = d.flush(m.size - produced + 1)
        produced += len(rest)
        if produced > m.size:
            raise ValueError(f"it expands beyond its declared {m.size} bytes")
        crc = zlib.crc32(rest, crc)
        if rest:
            yield rest
        if not d.eof:
            raise ValueError("the compressed data ends early")
    if produced != m.size:
        raise ValueError(f"it holds {produced} bytes, not the declared {m.size}")
    if crc != m.crc:
        raise ValueError("its CRC-32 does not match")
