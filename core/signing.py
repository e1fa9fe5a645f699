"""Signed bundles: an OpenSSF model-signing signature (``model.sig``) over every member of the ZIP, made and checked
from the members' SHA-256 without extracting anything.

The signature is the one ``model-signing`` writes for a folder (a Sigstore bundle holding a DSSE-signed in-toto
statement of every file's SHA-256, "files" serialization, ``model.sig`` itself ignored), so an extracted bundle
verifies with ``model_signing.verifying.Config().use_elliptic_key_verifier(...).verify(folder, folder/model.sig)``
and a folder signed by ``model-signing`` and zipped verifies here. The library is an optional dependency
(``pip install 'onnxpack[sign]'``); everything here imports it lazily and says how to get it when it is missing.
Only building the statement from digests we already have (instead of letting the library re-read 2 GB of files)
uses the library's internal ``_signing``/``manifest`` modules; ``tests/test_signing.py`` proves the interop both ways.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from .errors import InputError, OutputError

__all__ = [
    "METHOD_KEY",
    "SIGNATURE_NAME",
    "KeyInfo",
    "SignedContents",
    "available",
    "generate_key_pair",
    "key_file_warning",
    "load_public_key",
    "read_signing_key",
    "sign_digests",
    "verify_signature",
]

SIGNATURE_NAME = "model.sig"
METHOD_KEY = "model-signing/elliptic-key"
MAX_SIGNATURE_BYTES = 1 << 20
_INSTALL_HINT = "Install the signing support: pip install 'onnxpack[sign]' (the OpenSSF model-signing library)."


def available() -> bool:
    """True when the model-signing library can be imported."""
    try:
        import model_signing  # noqa: F401
    except ImportError:
        return False
    return True


def _require() -> None:
    if getattr(sys, "frozen", False) and not available():
        raise InputError(
            "This build of onnxpack cannot sign or check signatures (model-signing is not included)",
            "Use the pip-installed onnxpack with the signing support: pip install 'onnxpack[sign]'.",
            code="SIGNING_UNAVAILABLE",
        )
    if not available():
        raise InputError("Signing needs the model-signing library, which is not installed", _INSTALL_HINT,
                         code="SIGNING_UNAVAILABLE")  # fmt: skip


@dataclass(frozen=True)
class KeyInfo:
    """A usable signing key: where it is, its public key's fingerprint, and a warning about its file if any."""

    path: Path
    public_key_sha256: str  # SHA-256 of the PEM public key (model-signing's key hint)
    curve: str
    warning: str | None


def _fingerprint(public_key: Any) -> str:
    from cryptography.hazmat.primitives import serialization

    pem = public_key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(pem).hexdigest()


def key_file_warning(path: Path) -> str | None:
    """A warning when a private key file can be read by other users (POSIX permissions; Windows has ACLs)."""
    if os.name != "posix":
        return None
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        return (f"The private key {path} can be read by other users (mode {stat.filemode(mode)}): "
                f"run chmod 600 {path}")  # fmt: skip
    return None


def _password(env_var: str | None) -> bytes | None:
    if not env_var:
        return None
    value = os.environ.get(env_var)
    if value is None:
        raise InputError(f"The environment variable {env_var} that should hold the key's password is not set",
                         f"Set {env_var}, or drop the password option for an unencrypted key.")  # fmt: skip
    return value.encode("utf-8")


def read_signing_key(path: Path | str, password_env: str | None = None) -> KeyInfo:
    """Load and check a PEM elliptic-curve private key (P-256/P-384/P-521), never keeping or printing it."""
    _require()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"Cannot read the signing key {path}: {e.strerror}",
                         "Give the private key file (PEM) made by 'onnxpack keygen' or openssl.") from None  # fmt: skip
    try:
        key = serialization.load_pem_private_key(data, _password(password_env))
    except TypeError:
        raise InputError(f"The signing key {path} is encrypted",
                         "Put its password in an environment variable and name it with --sign-key-password-env.",
                         code="SIGNING_KEY") from None  # fmt: skip
    except ValueError as e:
        raise InputError(f"{path} is not a usable PEM private key ({e})",
                         "Give the private key made by 'onnxpack keygen' (NAME.key), not the public key.",
                         code="SIGNING_KEY") from None  # fmt: skip
    finally:
        del data
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.key_size not in (256, 384, 521):
        raise InputError(f"{path} is not an elliptic-curve P-256/P-384/P-521 key, which model-signing requires",
                         "Make one with 'onnxpack keygen' or 'openssl ecparam -name prime256v1 -genkey'.",
                         code="SIGNING_KEY")  # fmt: skip
    return KeyInfo(path, _fingerprint(key.public_key()), key.curve.name, key_file_warning(path))


def load_public_key(path: Path | str) -> str:
    """Check a PEM public key file; returns its fingerprint (SHA-256 of the PEM public key)."""
    _require()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    path = Path(path)
    try:
        key = serialization.load_pem_public_key(path.read_bytes())
    except OSError as e:
        raise InputError(f"Cannot read the public key {path}: {e.strerror}",
                         "Give the publisher's public key file (NAME.pub).") from None  # fmt: skip
    except ValueError as e:
        raise InputError(f"{path} is not a PEM public key ({e})",
                         "Give the public key (NAME.pub), never the private key.", code="SIGNING_KEY") from None
    if not isinstance(key, ec.EllipticCurvePublicKey):
        raise InputError(f"{path} is not an elliptic-curve public key", "model-signing keys are P-256/384/521.",
                         code="SIGNING_KEY")  # fmt: skip
    return _fingerprint(key)


def _statement_manifest(name: str, digests: dict[str, str]) -> Any:
    from model_signing import manifest
    from model_signing._hashing import hashing

    serialization = manifest._FileSerialization("sha256", False, [Path(SIGNATURE_NAME)])
    items = [manifest.FileManifestItem(path=PurePosixPath(p), digest=hashing.Digest("sha256", bytes.fromhex(d)))
             for p, d in sorted(digests.items())]  # fmt: skip
    return manifest.Manifest(name, items, serialization)


def sign_digests(name: str, digests: dict[str, str], key: KeyInfo, password_env: str | None = None) -> bytes:
    """The ``model.sig`` bytes for members ``{path: sha256 hex}`` (every member but the signature itself)."""
    _require()
    from model_signing._signing import sign_ec_key, signing

    if SIGNATURE_NAME in digests:
        raise ValueError("the signature cannot sign itself")
    password = _password(password_env)
    signer = sign_ec_key.Signer(key.path, password.decode("utf-8") if password else None)
    signature: Any = signer.sign(signing.Payload(_statement_manifest(name, digests)))
    return str(signature.bundle.to_json()).encode("utf-8")


@dataclass
class SignedContents:
    """What a valid signature vouches for: the signer's key fingerprint and ``{path: sha256}`` of the members."""

    public_key_sha256: str
    digests: dict[str, str]
    serialization: dict[str, Any]


class _Text:
    """A path-like holding text: model-signing's ``Signature.read`` only calls ``read_text`` on its argument, and
    a bundle's signature is a ZIP member, never a file (verify writes nothing)."""

    def __init__(self, text: str) -> None:
        self._text = text

    def read_text(self, encoding: str = "utf-8") -> str:
        return self._text


def verify_signature(data: bytes, public_key: Path | str) -> SignedContents:
    """Check ``model.sig`` bytes against a public key; returns what it signs. Raises InputError(SIGNATURE_INVALID)."""
    fingerprint = load_public_key(public_key)
    from model_signing._signing import sign_ec_key, sign_sigstore_pb

    bad = "The signature does not verify with this public key"
    hint = ("The bundle was signed with another key, or model.sig was altered. Check that you have the publisher's "
            "public key; otherwise get the bundle again.")  # fmt: skip
    if len(data) > MAX_SIGNATURE_BYTES:
        raise InputError(f"{SIGNATURE_NAME} is {len(data)} bytes (cap {MAX_SIGNATURE_BYTES})", hint,
                         code="SIGNATURE_INVALID")  # fmt: skip
    try:
        signature = sign_sigstore_pb.Signature.read(_Text(data.decode("utf-8")))  # type: ignore[arg-type]
    except Exception as e:  # the library raises whatever its parsers raise on garbage
        raise InputError(f"{SIGNATURE_NAME} is not a model-signing signature ({type(e).__name__}: {e})", hint,
                         code="SIGNATURE_INVALID") from None  # fmt: skip
    try:
        signed = sign_ec_key.Verifier(Path(public_key)).verify(signature)
    except Exception as e:  # cryptography's InvalidSignature, ValueError, KeyError on a malformed statement
        raise InputError(f"{bad} ({type(e).__name__}{': ' + str(e) if str(e) else ''})", hint,
                         code="SIGNATURE_INVALID") from None  # fmt: skip
    digests: dict[str, str] = {}
    for rd in signed.resource_descriptors():
        if rd.digest.algorithm != "sha256":
            raise InputError(f"{SIGNATURE_NAME} signs {rd.identifier} with {rd.digest.algorithm}, not SHA-256 files",
                             "Sign the folder with model-signing's default (file) serialization.",
                             code="SIGNATURE_UNSUPPORTED")  # fmt: skip
        digests[str(rd.identifier)] = rd.digest.digest_hex
    return SignedContents(fingerprint, digests, dict(signed.serialization_type))


def generate_key_pair(out_dir: Path | str, name: str = "onnxpack-signing", *, force: bool = False) -> tuple[Path, Path]:
    """Write ``NAME.key`` (P-256 private key, PEM, readable by the owner only) and ``NAME.pub`` into ``out_dir``."""
    _require()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    out = Path(out_dir)
    private, public = out / f"{name}.key", out / f"{name}.pub"
    for p in (private, public):
        if p.exists() and not force:
            raise OutputError(f"{p} already exists", "Choose another --name or folder, or pass --force to replace it.",
                              code="OUTPUT_EXISTS")  # fmt: skip
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"Cannot create {out}: {e.strerror}", "Choose a folder you can write to.") from None
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())  # fmt: skip
    pub = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    for target, data, mode in ((private, pem, 0o600), (public, pub, 0o644)):
        tmp = target.with_name(target.name + ".part")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, target)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            raise OutputError(f"Cannot write {target}: {e.strerror}", "Choose a folder you can write to.") from None
    return private, public

