"""Resolve a model's external data references under the rules of security.md, without reading tensor bytes."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path

from onnx import ModelProto, TensorProto

from ...findings import Finding
from ...progress import CancelToken, check_cancel
from .. import codes
from ..skeleton import INLINE_KEY, inline_source
from ..tensors import TensorRef, dtype_name, expected_nbytes, iter_tensors, uses_external_data
from .extlocation import FileCheck, check_location
from .extref import KNOWN_KEYS, ExternalRef, ExternalTable

__all__ = ["raw_data_size_finding", "resolve_external_data"]


def resolve_external_data(
    model: ModelProto,
    data_dir: Path,
    *,
    verify_checksums: bool = True,
    cancel: CancelToken | None = None,
) -> ExternalTable:
    """Check every external reference of ``model`` against files under ``data_dir``.

    Never reads tensor bytes; reads whole files only to verify a ``checksum`` key when present
    and ``verify_checksums`` is true. Returns every reference and every finding (errors too).
    """
    resolver = _Resolver(data_dir, verify_checksums, cancel)
    refs: list[ExternalRef] = []
    for tref in iter_tensors(model):
        check_cancel(cancel)
        er = resolver.tensor(tref)
        if er is not None:
            refs.append(er)
    resolver.suggest_renamed(refs)
    _check_overlaps(refs, resolver.findings)
    sizes = {loc: fc.size for loc, fc in resolver.files.items() if fc.path is not None}
    return ExternalTable(refs, resolver.findings, sizes)


@dataclass
class _Resolver:
    """What resolving one model's references gathers: the findings, and each data file checked once."""

    data_dir: Path
    verify_checksums: bool
    cancel: CancelToken | None
    findings: list[Finding] = field(default_factory=list)
    files: dict[str, FileCheck] = field(default_factory=dict)  # by location
    model_sizes: dict[Path, int] = field(default_factory=dict)  # the model files holding inline ranges

    def tensor(self, tref: TensorRef) -> ExternalRef | None:
        """The reference of one tensor (None when its data is not external); its findings are recorded."""
        t = tref.tensor
        if not uses_external_data(t):
            if len(t.external_data) > 0:
                self.findings.append(codes.EXTDATA_IGNORED.finding(tref.name, label=tref.label))
            return None
        errors: list[Finding] = []
        kv = _entries(tref, errors)
        source = inline_source(kv[INLINE_KEY]) if INLINE_KEY in kv else None
        if source is not None:
            er = _resolve_inline(tref, kv, source, self.model_sizes)
            self.findings.extend(er.errors)
            return er
        er = self._external(tref, kv, errors)
        er.errors = errors
        self.findings.extend(errors)
        return er

    def suggest_renamed(self, refs: list[ExternalRef]) -> None:
        """Name the data-like files beside each data file not found (a renamed ``model.onnx.data``), of at least the
        size the model's ranges in it need (FileCheck.suggest_renamed), in place of its EXTDATA_MISSING finding."""
        taken = {fc.path.name for fc in self.files.values() if fc.path is not None}
        for location, fc in self.files.items():
            before = fc.finding
            if before is None or before.code != codes.EXTDATA_MISSING.name:
                continue
            ends = [(r.offset or 0) + n for r in refs if r.location == location and not r.inline
                    for n in (r.length if r.length is not None else r.expected_length,) if n is not None]  # fmt: skip
            fc.suggest_renamed(self.data_dir, max(ends, default=None), taken)
            after = fc.finding
            if after is not None and after is not before:
                self.findings[:] = [after if f is before else f for f in self.findings]

    def _external(self, tref: TensorRef, kv: dict[str, str], errors: list[Finding]) -> ExternalRef:
        unknown = sorted(k for k in kv if k not in KNOWN_KEYS)
        # ONNX Runtime refuses a model with an external_data key it does not know ("model format error"; onnx only
        # warns): what either refuses, we refuse.
        errors += [codes.EXTDATA_UNKNOWN_KEY.finding(tref.name, label=tref.label, key=k) for k in unknown]
        location = kv.get("location")
        offset = _parse_int(tref, "offset", kv["offset"], errors) if "offset" in kv else 0
        length = _parse_int(tref, "length", kv["length"], errors) if "length" in kv else None
        er = ExternalRef(tref, location, offset if "offset" in kv else None, length, kv.get("checksum"), unknown)
        er.expected_length = expected_nbytes(tref.tensor)
        errors += _content_problems(tref)
        if location is None:
            errors.append(codes.EXTDATA_NO_LOCATION.finding(tref.name, label=tref.label))
        else:
            self._place(er, location, offset, errors)
        return er

    def _place(self, er: ExternalRef, location: str, offset: int | None, errors: list[Finding]) -> None:
        """Check the location, its file, the tensor's range in it and its checksum."""
        if location not in self.files:  # (a location already in ``files`` passed the lexical rules)
            lex = check_location(er.ref, location)
            if lex is not None:
                errors.append(lex)
                return
        fc = self.files.get(location)
        if fc is None:
            fc = self.files[location] = FileCheck(self.data_dir, location)
            if fc.finding is not None:
                self.findings.append(fc.finding)
        if fc.path is None or offset is None or errors:
            return
        er.path = fc.path
        errors += _range_problems(er, location, offset, fc.size)
        if er.checksum is not None and self.verify_checksums and not errors:
            check_cancel(self.cancel)
            errors += _checksum_problems(er, location, fc, self.cancel)


def _entries(tref: TensorRef, errors: list[Finding]) -> dict[str, str]:
    """The tensor's external_data as a dict (the last of a repeated key wins, and is an error)."""
    kv: dict[str, str] = {}
    for entry in tref.tensor.external_data:
        if entry.key in kv:
            errors.append(codes.EXTDATA_DUPLICATE_KEY.finding(tref.name, label=tref.label, key=entry.key))
        kv[entry.key] = entry.value
    return kv


def _parse_int(ref: TensorRef, key: str, raw: str, errors: list[Finding]) -> int | None:
    text = raw.strip()
    if not text.isdigit() or not text.isascii():
        errors.append(codes.EXTDATA_BAD_KEY.finding(ref.name, label=ref.label, key=key, raw=raw))
        return None
    if len(text) > 20 or int(text) >= 2**64:  # no file is that large; and later arithmetic must stay finite
        shown = f"{text[:24]}{'...' if len(text) > 24 else ''}"
        errors.append(codes.EXTDATA_OUT_OF_RANGE.finding(ref.name, variant="key", label=ref.label, key=key,
                                                         shown=shown))
        return None
    return int(text)


def _has_inline_data(t: TensorProto) -> bool:
    return t.HasField("raw_data") or any(
        len(values) for values in (t.float_data, t.int32_data, t.int64_data, t.double_data, t.uint64_data,
                                   t.string_data)
    )  # fmt: skip


def _content_problems(tref: TensorRef) -> list[Finding]:
    """What the tensor itself says against external data: a STRING type, or inline data besides."""
    t = tref.tensor
    out = []
    if dtype_name(t.data_type) == "STRING":
        out.append(codes.EXTDATA_STRING.finding(tref.name, label=tref.label))
    if _has_inline_data(t):
        out.append(codes.EXTDATA_ALSO_INLINE.finding(tref.name, label=tref.label))
    return out


def _range_problems(er: ExternalRef, location: str, offset: int, size: int) -> list[Finding]:
    """The tensor's bytes within its file (``size`` bytes) and their count; sets ``er.data_length`` when in range."""
    tref = er.ref
    if offset > size:
        return [codes.EXTDATA_OUT_OF_RANGE.finding(tref.name, variant="offset", label=tref.label, offset=offset,
                                                   file=location, size=size)]  # fmt: skip
    eff = er.length if er.length is not None else size - offset
    if offset + eff > size:
        return [codes.EXTDATA_OUT_OF_RANGE.finding(tref.name, label=tref.label, start=offset, end=offset + eff,
                                                   file=location, size=size)]  # fmt: skip
    er.data_length = eff
    if er.expected_length is not None and eff != er.expected_length:
        t = tref.tensor
        return [codes.EXTDATA_LENGTH_MISMATCH.finding(tref.name, label=tref.label, length=eff,
                                                      dtype=dtype_name(t.data_type), dims=list(t.dims),
                                                      expected=er.expected_length)]  # fmt: skip
    return []


def _checksum_problems(er: ExternalRef, location: str, fc: FileCheck, cancel: CancelToken | None) -> list[Finding]:
    tref, checksum = er.ref, er.checksum
    assert checksum is not None
    if not re.fullmatch(r"[0-9a-fA-F]{40}", checksum):
        return [codes.EXTDATA_BAD_CHECKSUM.finding(tref.name, label=tref.label, checksum=checksum)]
    if fc.sha1(cancel) != checksum.lower():
        return [codes.EXTDATA_CHECKSUM_MISMATCH.finding(tref.name, label=tref.label, file=location, sha1=fc.sha1(),
                                                        checksum=checksum)]  # fmt: skip
    return []


def _resolve_inline(tref: TensorRef, kv: dict[str, str], source: Path, sizes: dict[Path, int]) -> ExternalRef:
    """A ``raw_data`` left in the model file by core/model/skeleton.py: the same range and length rules as external
    data.

    The skeleton reader wrote offset and length itself from the wire format, so they are integers within the
    file; they are checked again here because this is the one place where ranges are validated.
    """
    t = tref.tensor
    offset, length = int(kv["offset"]), int(kv["length"])
    er = ExternalRef(tref, kv.get("location"), offset, length, None, [], inline=True)
    er.expected_length = expected_nbytes(t)
    if source not in sizes:
        sizes[source] = source.stat().st_size
    if offset < 0 or length < 0 or offset + length > sizes[source]:
        er.errors.append(codes.EXTDATA_OUT_OF_RANGE.finding(
            tref.name, variant="inline", label=tref.label, start=offset, end=offset + length,
        ))
        return er
    er.path, er.data_length = source, length
    if dtype_name(t.data_type) == "STRING":
        er.errors.append(codes.TENSOR_SIZE_MISMATCH.finding(tref.name, variant="string", label=tref.label,
                                                            length=length))  # fmt: skip
    else:
        mismatch = raw_data_size_finding(tref, length)
        if mismatch is not None:
            er.errors.append(mismatch)
    return er


def raw_data_size_finding(tref: TensorRef, nbytes: int) -> Finding | None:
    """TENSOR_SIZE_MISMATCH when ``nbytes`` of raw_data are not dims × element size (ORT refuses them at load).

    For raw_data parsed inline (core/checks/validate.py) and for raw_data left in the file by the skeleton reader.
    """
    want = expected_nbytes(tref.tensor)
    if want is None or nbytes == want:
        return None
    t = tref.tensor
    return codes.TENSOR_SIZE_MISMATCH.finding(tref.name, label=tref.label, length=nbytes,
                                              dtype=dtype_name(t.data_type), dims=list(t.dims), expected=want)


def _check_overlaps(refs: list[ExternalRef], findings: list[Finding]) -> None:
    by_file: dict[Path, list[ExternalRef]] = {}
    for r in refs:
        if r.ok and r.path is not None and r.data_length:
            by_file.setdefault(r.path, []).append(r)
    for rs in by_file.values():
        rs.sort(key=lambda r: (r.offset or 0))
        for a, b in itertools.pairwise(rs):
            a_end = (a.offset or 0) + (a.data_length or 0)
            if (b.offset or 0) < a_end:
                findings.append(codes.EXTDATA_OVERLAP.finding(b.ref.name, tensor=b.ref.name, other=a.ref.name,
                                                              file=a.location))
