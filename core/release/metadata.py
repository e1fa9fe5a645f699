"""Release metadata a receiver asks for (licence, authors, homepage, class labels), checked before bundling."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..boundedread import read_bounded
from . import codes

__all__ = ["ReleaseInfo", "check_labels", "read_labels_file"]

MAX_LABELS = 100_000
#: A labels file larger than this is not read (room for MAX_LABELS labels of ~160 bytes); ``/dev/zero``, a FIFO or a
#: folder is refused by name instead of read without end.
MAX_LABELS_FILE_BYTES = 16 << 20


@dataclass
class ReleaseInfo:
    """``bundle --license/--author/--homepage/--labels``; ``to_dict`` is the manifest's ``about`` section."""

    license: str | None = None  # an SPDX licence expression
    authors: list[str] = field(default_factory=list)
    homepage: str | None = None
    labels: list[str] | None = None

    @property
    def empty(self) -> bool:
        return self.license is None and not self.authors and self.homepage is None and self.labels is None

    def normalized(self) -> ReleaseInfo:
        """The same, checked: a known SPDX expression (canonical case), http(s) homepage, non-empty names/labels."""
        lic = None
        if self.license is not None:
            from packaging.licenses import InvalidLicenseExpression, canonicalize_license_expression

            try:
                lic = str(canonicalize_license_expression(self.license))
            except InvalidLicenseExpression as e:
                raise codes.ABOUT_LICENSE.error(license=self.license, reason=str(e)) from None
        authors = [a.strip() for a in self.authors]
        if any(not a for a in authors):
            raise codes.ABOUT_AUTHOR.error()
        homepage = self.homepage.strip() if self.homepage is not None else None
        if homepage is not None:
            parts = urlsplit(homepage)
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise codes.ABOUT_HOMEPAGE.error(homepage=homepage)
        labels = None
        if self.labels is not None:
            labels = [label.strip() for label in self.labels]
            if not labels or any(not label for label in labels):
                raise codes.ABOUT_LABELS.error()
            if len(labels) > MAX_LABELS:
                raise codes.ABOUT_LABELS.error(variant="count", count=len(labels), limit=MAX_LABELS)
        return ReleaseInfo(lic, authors, homepage, labels)

    def to_dict(self) -> dict[str, Any]:
        return {"license": self.license, "authors": list(self.authors), "homepage": self.homepage,
                "labels": None if self.labels is None else list(self.labels)}  # fmt: skip


def read_labels_file(path: Path | str) -> list[str]:
    """One label per line (UTF-8, blank lines at the end ignored)."""
    path = Path(path)
    try:
        text = read_bounded(path, MAX_LABELS_FILE_BYTES).decode("utf-8-sig")
    except OSError as e:
        raise codes.ABOUT_LABELS.error(variant="unreadable", file=str(path), reason=e.strerror) from None
    except UnicodeDecodeError:
        raise codes.ABOUT_LABELS.error(variant="encoding", file=str(path)) from None
    return text.rstrip("\r\n").splitlines()


def check_labels(labels: list[str], outputs: list[dict[str, Any]]) -> None:
    """Refuse labels whose count matches no output's last dimension (where the model fixes one)."""
    fixed = [(o["name"], o["shape"][-1]) for o in outputs if o.get("shape") and isinstance(o["shape"][-1], int)]
    if not fixed or any(dim == len(labels) for _name, dim in fixed):
        return  # symbolic last dimensions cannot be checked
    desc = ", ".join(f"{n!r}: {d}" for n, d in fixed)
    raise codes.ABOUT_LABELS.error(variant="unmatched", count=len(labels), outputs=desc)
