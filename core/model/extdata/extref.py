"""The records of external data: each reference (:class:`ExternalRef`), all of a model's (:class:`ExternalTable`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import classcodes
from ...findings import Finding, Severity
from ...progress import CancelToken
from ..layout import Layout
from ..tensors import TensorRef, dtype_name

__all__ = ["CHUNK", "KNOWN_KEYS", "ExternalRef", "ExternalTable", "sha1_file"]

#: The read size of external data (bytes).
CHUNK = 8 * 1024 * 1024
#: The external_data keys ONNX defines (any other is refused: core/model/extdata/extresolve.py).
KNOWN_KEYS = frozenset({"location", "offset", "length", "checksum"})


@dataclass
class ExternalRef:
    """One tensor whose data is stored outside the .onnx file, with what we found about it."""

    ref: TensorRef
    location: str | None
    offset: int | None
    length: int | None  # as declared (None when absent)
    checksum: str | None
    unknown_keys: list[str]
    path: Path | None = None  # the validated file (None if invalid)
    data_length: int | None = None  # effective length (declared, or file size - offset)
    expected_length: int | None = None  # dims × element size
    errors: list[Finding] = field(default_factory=list)
    inline: bool = False  # a raw_data range inside the model file itself (core/model/skeleton.py), not external data

    @property
    def ok(self) -> bool:
        return self.path is not None and not self.errors and self.data_length is not None

    @property
    def aligned_4k(self) -> bool:
        return (self.offset is not None and self.offset % 4096 == 0) or self.offset in (None, 0)

    @property
    def aligned_64k(self) -> bool:
        return (self.offset is not None and self.offset % 65536 == 0) or self.offset in (None, 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tensor": self.ref.name,
            "where": f"{self.ref.where} in {self.ref.graph}",
            "data_type": dtype_name(self.ref.tensor.data_type),
            "dims": [int(d) for d in self.ref.tensor.dims],
            "location": self.location,
            "offset": self.offset,
            "length": self.length,
            "effective_length": self.data_length,
            "expected_length": self.expected_length,
            "checksum": self.checksum,
            "aligned_4k": self.aligned_4k,
            "aligned_64k": self.aligned_64k,
            "unknown_keys": self.unknown_keys,
            "valid": self.ok,
        }


@dataclass
class ExternalTable:
    """All external references of a model, plus the findings of resolving them."""

    refs: list[ExternalRef]  # every reference, the ranges inside the model file (``inline``) included
    findings: list[Finding]
    files: dict[str, int]  # relative location -> size in bytes, for valid external files

    @property
    def external_refs(self) -> list[ExternalRef]:
        """The references to data outside the model file (what makes the layout "external")."""
        return [r for r in self.refs if not r.inline]

    @property
    def layout(self) -> Layout:
        """The model's layout as its tensors say: external when any keeps its data outside the model file."""
        return Layout.EXTERNAL if self.external_refs else Layout.SINGLE

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    def raise_if_invalid(self) -> None:
        """Raise ExternalDataError naming the first error (after listing how many there are)."""
        errs = [f for f in self.findings if f.severity is Severity.ERROR]
        if errs:
            first = errs[0]
            raise classcodes.EXTERNAL_DATA.error(variant="first" if len(errs) == 1 else "first_of_many",
                                                 message=first.message, more=len(errs) - 1, hint=first.hint,
                                                 repeats=first)


def sha1_file(path: Path, cancel: CancelToken | None = None) -> str:
    """SHA-1 hex digest of a whole file, read in chunks."""
    from ...filehash import hash_file  # (only a checksum key needs it: plain inspection does not import it)

    return hash_file(path, "sha1", cancel).hexdigest

