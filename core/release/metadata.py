"""Release metadata a receiver asks for (licence, authors, homepage, class labels), checked before bundling."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import InputError

__all__ = ["ReleaseInfo", "check_labels", "read_labels_file"]

MAX_LABELS = 100_000


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
                raise InputError(f"--license {self.license!r} is not an SPDX licence expression ({e})",
                                 "Use an identifier from https://spdx.org/licenses/ such as MIT, Apache-2.0 or "
                                 "CC-BY-4.0 (combine with AND/OR), or LicenseRef-NAME for your own.",
                                 code="ABOUT_LICENSE") from None  # fmt: skip
        authors = [a.strip() for a in self.authors]
        if any(not a for a in authors):
            raise InputError("An --author is empty",
                             "Give each author's name (and e-mail), e.g. 'Ada <ada@example.org>'.",
                             code="ABOUT_AUTHOR")  # fmt: skip
        homepage = self.homepage.strip() if self.homepage is not None else None
        if homepage is not None:
            parts = urlsplit(homepage)
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise InputError(f"--homepage {homepage!r} is not an http(s) address",
                                 "Give the full address, e.g. https://example.org/model.",
                                 code="ABOUT_HOMEPAGE")  # fmt: skip
        labels = None
        if self.labels is not None:
            labels = [label.strip() for label in self.labels]
            if not labels or any(not label for label in labels):
                raise InputError("The class labels contain an empty label",
                                 "Give one non-empty label per class, in output order.",
                                 code="ABOUT_LABELS")  # fmt: skip
            if len(labels) > MAX_LABELS:
                raise InputError(f"{len(labels)} labels (at most {MAX_LABELS})", "Check the labels file.",
                                 code="ABOUT_LABELS")  # fmt: skip
        return ReleaseInfo(lic, authors, homepage, labels)

    def to_dict(self) -> dict[str, Any]:
        return {"license": self.license, "authors": list(self.authors), "homepage": self.homepage,
                "labels": None if self.labels is None else list(self.labels)}  # fmt: skip


def read_labels_file(path: Path | str) -> list[str]:
    """One label per line (UTF-8, blank lines at the end ignored)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise InputError(f"Cannot read the labels file {path}: {e.strerror}", "Give a text file, one label per line.",
                         code="ABOUT_LABELS") from None  # fmt: skip
    except UnicodeDecodeError:
        raise InputError(f"The labels file {path} is not UTF-8 text", "Save it as UTF-8, one label per line.",
                         code="ABOUT_LABELS") from None  # fmt: skip
    return text.rstrip("\r\n").splitlines()


def check_labels(labels: list[str], outputs: list[dict[str, Any]]) -> None:
    """Refuse labels whose count matches no output's last dimension (where the model fixes one)."""
    fixed = [(o["name"], o["shape"][-1]) for o in outputs if o.get("shape") and isinstance(o["shape"][-1], int)]
    if not fixed or any(dim == len(labels) for _name, dim in fixed):
        return  # symbolic last dimensions cannot be checked
    desc = ", ".join(f"{n!r} ends in {d}" for n, d in fixed)
    raise InputError(f"{len(labels)} class labels, but no output has {len(labels)} classes ({desc})",
                     "Give one label per class of the output, in order (or pass --allow-unmatched-labels to keep "
                     "them).",
                     code="ABOUT_LABELS")  # fmt: skip
