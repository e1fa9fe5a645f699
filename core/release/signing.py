"""Signed bundles: an OpenSSF model-signing signature (``model.sig``) over every member of the ZIP, made and checked
from the members' SHA-256 without extracting anything.

The signature is the one ``model-signing`` writes for a folder (a Sigstore bundle holding a DSSE-signed in-toto
statement of every file's SHA-256, "files" serialization, ``model.sig`` itself ignored), so an extracted bundle
verifies with ``model_signing.verifying.Config().use_elliptic_key_verifier(...).verify(folder, folder/model.sig)``
and a folder signed by ``model-signing`` and zipped verifies here. The library is an optional dependency (the
``sign`` extra: ``pip install '.[sign]'`` in the checkout); everything here imports it lazily and says how to get it
when it is missing.
Only building the statement from digests we already have (instead of letting the library re-read 2 GB of files)
uses the library's internal ``_signing``/``manifest`` modules; ``tests/test_signing.py`` proves the interop both ways.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from .. import __version__, classcodes, errorcodes
from ..boundedread import read_bounded
from ..errors import InputError
from . import codes

__all__ = [
    "METHOD_CERTIFICATE",
    "METHOD_KEY",
    "METHOD_SIGSTORE",
    "SIGNATURE_NAME",
    "SIGSTORE_HOSTS",
    "KeyInfo",
    "SignedContents",
    "available",
    "first_unreachable",
    "generate_key_pair",
    "installed",
    "key_file_warning",
    "load_public_key",
    "prepare_sigstore",
    "read_signing_key",
    "sign_digests",
    "verify_signature",
]

SIGNATURE_NAME = "model.sig"
METHOD_KEY = "model-signing/elliptic-key"
METHOD_CERTIFICATE = "model-signing/certificate"
METHOD_SIGSTORE = "model-signing/sigstore"
#: What Sigstore keyless signing and its verification talk to (trust root, certificate authority, log, login).
SIGSTORE_HOSTS = ("tuf-repo-cdn.sigstore.dev", "fulcio.sigstore.dev", "rekor.sigstore.dev", "oauth2.sigstore.dev")
MAX_SIGNATURE_BYTES = 1 << 20
#: A PEM key or certificate (chain) file larger than this is not read: a P-521 key is under 400 bytes, a long
#: chain a few dozen KiB (``/dev/zero`` or a FIFO given as a key is refused, not read without end).
MAX_PEM_BYTES = 1 << 20
# onnxpack is not published on a package index: the extra is installed from what onnxpack was installed from.
_INSTALL_HINT = codes.SIGNING_UNAVAILABLE.remedy(version=__version__)


def available() -> bool:
    """True when the model-signing library can be imported."""
    try:
        import model_signing  # noqa: F401
    except ImportError:
        return False
    return True


def installed() -> bool:
    """True when model-signing is installed (found without importing it: a GUI asks this at start-up)."""
    import importlib.util

    return importlib.util.find_spec("model_signing") is not None


def _require() -> None:
    if getattr(sys, "frozen", False) and not available():
        raise codes.SIGNING_UNAVAILABLE.error(variant="frozen")
    if not available():
        raise codes.SIGNING_UNAVAILABLE.error(version=__version__)  # its hint: _INSTALL_HINT


@dataclass(frozen=True)
class KeyInfo:
    """A usable signing key: where it is, its public key's fingerprint, and a warning about its file if any."""

    path: Path
    public_key_sha256: str  # SHA-256 of the PEM public key (model-signing's key hint)
    curve: str
    warning: str | None
    certificate: Path | None = None  # certificate signing: the signing certificate (PEM) of this key...
    chain: tuple[Path, ...] = ()  # ...and the intermediate/root certificates that go into the signature
    certificate_sha256: str | None = None  # SHA-256 of the signing certificate (DER)
    subject: str | None = None  # its subject, e.g. "CN=Release team,O=Example"

    @property
    def method(self) -> str:
        return METHOD_CERTIFICATE if self.certificate is not None else METHOD_KEY


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
        raise classcodes.INPUT.error(variant="key_password_unset", env_var=env_var)
    return value.encode("utf-8")


def read_signing_key(path: Path | str, password_env: str | None = None, *, certificate: Path | str | None = None,
                     chain: Sequence[Path | str] = ()) -> KeyInfo:  # fmt: skip
    """Load and check a PEM elliptic-curve private key (P-256/P-384/P-521), never keeping or printing it; with
    ``certificate``, also its signing certificate (must match the key and allow signing) and ``chain``."""
    _require()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    path = Path(path)
    try:
        data = read_bounded(path, MAX_PEM_BYTES)
    except OSError as e:
        raise classcodes.INPUT.error(variant="signing_key_unreadable", path=str(path), reason=e.strerror) from None
    try:
        key = serialization.load_pem_private_key(data, _password(password_env))
    except TypeError:
        raise codes.SIGNING_KEY.error(variant="encrypted", path=str(path)) from None
    except ValueError as e:
        raise codes.SIGNING_KEY.error(path=str(path), reason=str(e)) from None
    finally:
        del data
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.key_size not in (256, 384, 521):
        raise codes.SIGNING_KEY.error(variant="curve", path=str(path))
    info = KeyInfo(path, _fingerprint(key.public_key()), key.curve.name, key_file_warning(path))
    if certificate is None:
        if chain:
            raise errorcodes.USAGE.error(variant="chain_without_certificate")
        return info
    if password_env:  # model-signing's certificate signer loads the key without a password
        raise codes.SIGNING_KEY.error(variant="certificate", path=str(path))
    cert = _load_certificate(Path(certificate), "signing certificate")
    if _fingerprint(cert.public_key()) != info.public_key_sha256:
        raise codes.SIGNING_CERTIFICATE.error(variant="other_key", certificate=str(certificate), path=str(path))
    if not _can_sign(cert):
        raise codes.SIGNING_CERTIFICATE.error(variant="cannot_sign", certificate=str(certificate))
    chain_paths = tuple(Path(c) for c in chain)
    for c in chain_paths:
        _load_certificate(c, "certificate chain file")
    from cryptography.hazmat.primitives import serialization

    return KeyInfo(path, info.public_key_sha256, info.curve, info.warning, Path(certificate), chain_paths,
                   hashlib.sha256(cert.public_bytes(serialization.Encoding.DER)).hexdigest(),
                   cert.subject.rfc4514_string())  # fmt: skip


def _load_certificate(path: Path, what: str) -> Any:
    from cryptography import x509

    try:
        certs = x509.load_pem_x509_certificates(read_bounded(path, MAX_PEM_BYTES))
    except OSError as e:
        raise codes.SIGNING_CERTIFICATE.error(variant="unreadable", what=what, path=str(path),
                                              reason=e.strerror) from None
    except ValueError as e:
        raise codes.SIGNING_CERTIFICATE.error(what=what, path=str(path), reason=str(e)) from None
    return certs[0]


def _can_sign(cert: Any) -> bool:
    """model-signing's own rule: digitalSignature key usage, or codeSigning extended key usage."""
    from cryptography import x509
    from cryptography.x509.oid import ExtendedKeyUsageOID

    try:
        if cert.extensions.get_extension_for_class(x509.KeyUsage).value.digital_signature:
            return True
    except x509.ExtensionNotFound:
        pass
    try:
        return ExtendedKeyUsageOID.CODE_SIGNING in cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    except x509.ExtensionNotFound:
        return False


def load_public_key(path: Path | str) -> str:
    """Check a PEM public key file; returns its fingerprint (SHA-256 of the PEM public key)."""
    _require()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    path = Path(path)
    try:
        key = serialization.load_pem_public_key(read_bounded(path, MAX_PEM_BYTES))
    except OSError as e:
        raise classcodes.INPUT.error(variant="public_key_unreadable", path=str(path), reason=e.strerror) from None
    except ValueError as e:
        raise codes.SIGNING_KEY.error(variant="public", path=str(path), reason=str(e)) from None
    if not isinstance(key, ec.EllipticCurvePublicKey):
        raise codes.SIGNING_KEY.error(variant="public_curve", path=str(path))
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
    from model_signing._signing import sign_certificate, sign_ec_key, signing

    if SIGNATURE_NAME in digests:
        raise ValueError("the signature cannot sign itself")
    signer: Any
    if key.certificate is not None:
        signer = sign_certificate.Signer(key.path, key.certificate, list(key.chain))
    else:
        # The bytes: model-signing annotates the password as str, but hands it to cryptography's
        # load_pem_private_key, which takes bytes only (a str failed with a TypeError).
        password: Any = _password(password_env)
        signer = sign_ec_key.Signer(key.path, password)
    signature: Any = signer.sign(signing.Payload(_statement_manifest(name, digests)))
    return str(signature.bundle.to_json()).encode("utf-8")


def first_unreachable(hosts: Sequence[str] = SIGSTORE_HOSTS, timeout: float = 5.0) -> str | None:
    """The first of ``hosts`` that does not accept an HTTPS connection within ``timeout`` ("host: reason"), or None.
    Asked before any Sigstore work, so an offline machine gets one clear sentence instead of a library traceback
    after a long wait."""
    import socket

    for host in hosts:
        try:
            with socket.create_connection((host, 443), timeout=timeout):
                pass
        except OSError as e:
            return f"{host}: {e.strerror or type(e).__name__}"
    return None


def _require_sigstore_network() -> None:
    problem = first_unreachable()
    if problem is not None:
        raise codes.SIGSTORE_UNREACHABLE.error(problem=problem)


@dataclass
class SigstoreSigner:
    """A prepared Sigstore keyless signer (checked before the bundle is built; the login happens when signing)."""

    signer: Any

    @property
    def method(self) -> str:
        return METHOD_SIGSTORE


def prepare_sigstore(identity_token_env: str | None = None) -> SigstoreSigner:
    """Check the network and build model-signing's Sigstore signer: an identity token from ``identity_token_env``
    (CI), ambient credentials (GitHub Actions and the like), or a login link printed on the terminal."""
    _require()
    token = None
    if identity_token_env:
        token = os.environ.get(identity_token_env)
        if not token:
            raise errorcodes.USAGE.error(variant="identity_token_unset", env_var=identity_token_env)
    _require_sigstore_network()
    from model_signing._signing import sign_sigstore

    try:
        return SigstoreSigner(sign_sigstore.Signer(identity_token=token, force_oob=True))
    except Exception as e:  # the trust root is fetched here: TUF, network and certificate errors alike
        raise codes.SIGSTORE_FAILED.error(error=f"{type(e).__name__}: {e}") from None


def sign_digests_sigstore(name: str, digests: dict[str, str], prepared: SigstoreSigner) -> bytes:
    """``model.sig`` made by Sigstore keyless signing (a short-lived certificate for the login identity)."""
    from model_signing._signing import signing

    try:
        signature: Any = prepared.signer.sign(signing.Payload(_statement_manifest(name, digests)))
    except Exception as e:  # login refused, network gone, the log unavailable
        raise codes.SIGSTORE_FAILED.error(variant="signing", error=f"{type(e).__name__}: {e}") from None
    return str(signature.bundle.to_json()).encode("utf-8")


def _verify_sigstore(text: str, identity: str, issuer: str) -> Any:
    _require_sigstore_network()
    from model_signing._signing import sign_sigstore

    signature = sign_sigstore.Signature.read(_Text(text))  # type: ignore[arg-type]
    return sign_sigstore.Verifier(identity=identity, oidc_issuer=issuer).verify(signature)


@dataclass
class SignedContents:
    """What a valid signature vouches for: the signer's key fingerprint and ``{path: sha256}`` of the members."""

    public_key_sha256: str
    digests: dict[str, str]
    serialization: dict[str, Any]
    method: str = METHOD_KEY
    subject: str | None = None  # certificate signing: the signing certificate's subject


class _Text:
    """A path-like holding text: model-signing's ``Signature.read`` only calls ``read_text`` on its argument, and
    a bundle's signature is a ZIP member, never a file (verify writes nothing)."""

    def __init__(self, text: str) -> None:
        self._text = text

    def read_text(self, encoding: str = "utf-8") -> str:
        return self._text


def verify_signature(data: bytes, public_key: Path | str | None = None, *, trust: Sequence[Path | str] = (),
                     sigstore: tuple[str, str] | None = None) -> SignedContents:  # fmt: skip
    """Check ``model.sig`` bytes against the publisher's public key, (certificate signing) the trusted root/CA
    certificates ``trust``, or (Sigstore keyless) the signer's ``(identity, OIDC issuer)``; returns what it signs.
    Raises InputError(SIGNATURE_INVALID)."""
    if public_key is None and not trust and sigstore is None:
        raise ValueError("verify_signature needs a public key, trusted certificates or a Sigstore identity")
    if sigstore is not None:
        return _sigstore_contents(data, *sigstore)
    fingerprint = load_public_key(public_key) if public_key is not None else ""
    for t in trust:
        _load_certificate(Path(t), "trusted certificate")
    from model_signing._signing import sign_certificate, sign_ec_key, sign_sigstore_pb

    if len(data) > MAX_SIGNATURE_BYTES:
        raise codes.SIGNATURE_INVALID.error(variant="size", file=SIGNATURE_NAME, size=len(data),
                                            cap=MAX_SIGNATURE_BYTES)  # fmt: skip
    try:
        signature: Any = sign_sigstore_pb.Signature.read(_Text(data.decode("utf-8")))  # type: ignore[arg-type]
    except Exception as e:  # the library raises whatever its parsers raise on garbage
        raise codes.SIGNATURE_INVALID.error(variant="format", file=SIGNATURE_NAME,
                                            error=f"{type(e).__name__}: {e}") from None  # fmt: skip
    has_chain = bool(signature.bundle.verification_material.x509_certificate_chain)
    if has_chain and not trust:
        raise codes.SIGNATURE_INVALID.error(variant="certificate", file=SIGNATURE_NAME)
    if not has_chain and public_key is None:
        raise codes.SIGNATURE_INVALID.error(variant="bare_key", file=SIGNATURE_NAME)
    subject = None
    try:
        if has_chain:
            from cryptography import x509

            signed = sign_certificate.Verifier([Path(t) for t in trust]).verify(signature)
            leaf = x509.load_der_x509_certificate(
                signature.bundle.verification_material.x509_certificate_chain.certificates[0].raw_bytes)
            fingerprint, subject = _fingerprint(leaf.public_key()), leaf.subject.rfc4514_string()
        else:
            signed = sign_ec_key.Verifier(Path(str(public_key))).verify(signature)
    except Exception as e:  # cryptography's InvalidSignature, OpenSSL's X509StoreContextError, ValueError, ...
        raise codes.SIGNATURE_INVALID.error(variant=None if public_key is not None else "certificates",
                                            error=f"{type(e).__name__}{': ' + str(e) if str(e) else ''}") from None
    return _contents(signed, fingerprint, METHOD_CERTIFICATE if has_chain else METHOD_KEY, subject)


def _contents(signed: Any, fingerprint: str, method: str, subject: str | None) -> SignedContents:
    """What a verified model-signing manifest vouches for; only SHA-256 per file can be compared with a bundle."""
    digests: dict[str, str] = {}
    for rd in signed.resource_descriptors():
        if rd.digest.algorithm != "sha256":
            raise codes.SIGNATURE_UNSUPPORTED.error(file=SIGNATURE_NAME, identifier=str(rd.identifier),
                                                    algorithm=str(rd.digest.algorithm))
        digests[str(rd.identifier)] = rd.digest.digest_hex
    return SignedContents(fingerprint, digests, dict(signed.serialization_type), method, subject)


def _sigstore_contents(data: bytes, identity: str, issuer: str) -> SignedContents:
    try:
        signed = _verify_sigstore(data.decode("utf-8"), identity, issuer)
    except InputError:
        raise
    except Exception as e:
        raise codes.SIGNATURE_INVALID.error(variant="sigstore", identity=identity, issuer=issuer,
                                            error=f"{type(e).__name__}: {e}") from None
    return _contents(signed, "", METHOD_SIGSTORE, identity)


def generate_key_pair(out_dir: Path | str, name: str = "onnxpack-signing", *, force: bool = False) -> tuple[Path, Path]:
    """Write ``NAME.key`` (P-256 private key, PEM, readable by the owner only) and ``NAME.pub`` into ``out_dir``."""
    _require()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    out = Path(out_dir)
    private, public = out / f"{name}.key", out / f"{name}.pub"
    for p in (private, public):
        if p.exists() and not force:
            raise errorcodes.OUTPUT_EXISTS.error(variant="key", output=str(p))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise classcodes.OUTPUT.error(variant="create", path=str(out), reason=e.strerror) from None
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
            raise classcodes.OUTPUT.error(variant="write", path=str(target), reason=e.strerror) from None
    return private, public

