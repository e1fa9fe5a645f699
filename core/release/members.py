"""A bundle's members as the ZIP writer wrote them: each entry's record and the role it was written for."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from .checksums import CHECKSUMS_ROLE
from .zipwriter import EntryRecord

__all__ = ["Member", "Role"]


class Role(str, enum.Enum):
    """``files[].role`` in the manifest (manifest.ROLES), and the two members the manifest cannot list."""

    MODEL = "model"
    EXTERNAL_DATA = "external-data"
    ORT_MODEL = "ort-model"
    ORT_CONFIG = "ort-config"
    SMOKE_INPUT = "smoke-input"
    SMOKE_OUTPUT = "smoke-output"
    ASSET = "asset"  # a file the app reads beside its models (a release folder's label map, tokenizer, config)
    README = "readme"
    CHECKSUMS = CHECKSUMS_ROLE
    MANIFEST = "manifest"  # listed in the result only: the manifest cannot list itself
    SIGNATURE = "signature"  # listed in the result only: it signs every other member


@dataclass(frozen=True)
class Member:
    """One member written: its role and what the ZIP writer recorded (name, size, SHA-256)."""

    role: Role
    record: EntryRecord

    @property
    def path(self) -> str:
        return self.record.name

    def to_dict(self) -> dict[str, Any]:
        """The manifest's ``files`` entry."""
        return {"path": self.record.name, "role": self.role.value, "size": self.record.size,
                "sha256": self.record.sha256}  # fmt: skip
