"""Verify's check of ``model.sig``: read and checked before anything else is trusted, then compared member by member."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from ...errors import InputError
from .. import codes
from ..signing import MAX_SIGNATURE_BYTES, SIGNATURE_NAME, verify_signature
from ..zipcheck import ArchiveScan, iter_member
from .verify_manifest import ToHash
from .verify_report import VerifyReport, reported

__all__ = ["Signed", "TrustedSigners", "check_signature", "compare_signed", "signature_declared"]


@dataclass(frozen=True)
class TrustedSigners:
    """Whom the bundle must be signed by: the publisher's public ``key``, the root/CA certificates ``trust``ed for
    certificate signing, or the Sigstore ``(identity, OIDC issuer)``; none of them: the signature is not checked."""

    key: Path | str | None = None
    trust: tuple[Path, ...] = ()
    sigstore: tuple[str, str] | None = None

    @property
    def checking(self) -> bool:
        return self.key is not None or bool(self.trust) or self.sigstore is not None


@dataclass
class Signed:
    """A signature that verified: what it signs, and the SHA-256 of each member as computed here."""

    contents: Any  # core.signing.SignedContents
    actual: dict[str, str] = field(default_factory=dict)  # member -> SHA-256 computed here


def check_signature(f: BinaryIO, scan: ArchiveScan, signers: TrustedSigners, rep: VerifyReport) -> Signed | None:
    """Read ``model.sig`` and, with a key or trusted certificates, check it cryptographically; record the status in
    ``rep.signature``."""
    member = scan.by_name().get(SIGNATURE_NAME)
    if member is None:
        if signers.checking:
            rep.problems.append(codes.SIGNATURE_MISSING.finding(SIGNATURE_NAME, variant="absent"))
        return None
    if not signers.checking:
        rep.signature = {"status": "signed-not-checked",
                         "hint": "Pass --key PUBLISHER.pub (or --trust CA.pem) to check the signature."}  # fmt: skip
        return None
    if member.size > MAX_SIGNATURE_BYTES:
        rep.problems.append(codes.SIGNATURE_INVALID.finding(SIGNATURE_NAME, variant="declared", file=SIGNATURE_NAME,
                                                            size=member.size, cap=MAX_SIGNATURE_BYTES))
        return None
    try:
        data = b"".join(iter_member(f, member))
        contents = verify_signature(data, signers.key, trust=signers.trust, sigstore=signers.sigstore)
    except ValueError as e:
        rep.problems.append(codes.ZIP_DAMAGED.finding(SIGNATURE_NAME, variant="read", path=SIGNATURE_NAME,
                                                      detail=str(e)))
        return None
    except InputError as e:
        if e.code in ("SIGNATURE_INVALID", "SIGNATURE_UNSUPPORTED"):
            rep.problems.append(reported(e, SIGNATURE_NAME))
            return None
        raise  # an unreadable public key, no model-signing: the user's input, not the bundle
    rep.signature = {"status": "checking", "method": contents.method, "public_key_sha256": contents.public_key_sha256,
                     "subject": contents.subject, "serialization": contents.serialization}  # fmt: skip
    return Signed(contents)


def signature_declared(doc: dict[str, Any] | None, scan: ArchiveScan, rep: VerifyReport) -> None:
    """A manifest that says the bundle is signed while model.sig is gone: the signature was stripped."""
    declared = (doc or {}).get("signature")
    if declared and SIGNATURE_NAME not in scan.by_name():
        rep.problems.append(codes.SIGNATURE_MISSING.finding(SIGNATURE_NAME, variant="stripped"))
    elif declared and rep.signature.get("public_key_sha256") not in (None, declared.get("public_key_sha256")):
        rep.problems.append(codes.SIGNATURE_KEY.finding(SIGNATURE_NAME))


def _sha256(f: BinaryIO, scan: ArchiveScan, name: str) -> str:
    """The SHA-256 of member ``name`` ("unreadable" when it cannot be read intact)."""
    h = hashlib.sha256()
    try:
        for chunk in iter_member(f, scan.by_name()[name]):
            h.update(chunk)
    except ValueError:
        return "unreadable"
    return h.hexdigest()


def compare_signed(f: BinaryIO, signed: Signed, scan: ArchiveScan, to_hash: ToHash, rep: VerifyReport) -> None:
    """Every member but the signature must be signed with exactly its SHA-256, and nothing else may be signed."""
    for name, (fs, _m) in to_hash.items():
        if fs.actual_sha256 is not None:
            signed.actual[name] = fs.actual_sha256
    members = [n for n in scan.by_name() if n != SIGNATURE_NAME]
    expected = signed.contents.digests
    problems = []
    for name in sorted(members):
        actual = signed.actual.get(name)
        if actual is None and name in expected:  # not hashed above (listed with another size, or unlisted)
            actual = _sha256(f, scan, name)
        if name not in expected:
            problems.append(codes.SIGNATURE_MISMATCH.finding(name, variant="unsigned", path=name))
        elif actual is not None and actual != expected[name]:
            problems.append(codes.SIGNATURE_MISMATCH.finding(name, variant="changed", path=name, actual=actual,
                                                             signed=expected[name]))  # fmt: skip
    for name in sorted(set(expected) - set(members)):
        problems.append(codes.SIGNATURE_MISMATCH.finding(name, variant="removed", path=name))
    rep.problems[:0] = problems  # the signature's verdict comes first
    rep.signature["status"] = "invalid" if problems else "valid"
