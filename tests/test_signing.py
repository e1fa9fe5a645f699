"""Signed bundles (model-signing): keygen, bundle --sign-key, verify --key, tampering, interop both ways, and the
release metadata (licence, authors, homepage, labels)."""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from onnxpack.cli import Environment, main
from onnxpack.core.errors import InputError
from onnxpack.core.release import signing
from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.metadata import ReleaseInfo, check_labels
from onnxpack.core.release.verify.verify import verify_bundle
from onnxpack.core.release.zipwriter import DeterministicZip
from tests import factory

model_signing = pytest.importorskip("model_signing")  # installed by requirements/dev.txt (onnxpack[sign])


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, Environment(stdout=out, stderr=err, vars={"SOURCE_DATE_EPOCH": "1700000000"}))
    return int(code), out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("keys")
    private, public = signing.generate_key_pair(root, "publisher")
    other_private, other_public = signing.generate_key_pair(root, "other")
    return {"private": private, "public": public, "other_private": other_private, "other_public": other_public}


def _bundle(out: Path, key: Path | None, version: str = "1.0.0", **about: Any) -> Path:
    model = factory.external_model(out / "model")
    return build_bundle(BundleOptions(model, out / "out", version, run_smoke=False, source_date_epoch=0, sign_key=key,
                                      about=ReleaseInfo(**about) if about else None)).zip_path  # fmt: skip


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory, keys: dict[str, Path]) -> Path:
    return _bundle(tmp_path_factory.mktemp("signed"), keys["private"])


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def _write(members: dict[str, bytes], dst: Path) -> Path:
    with open(dst, "wb") as f, DeterministicZip(f) as z:
        for name in sorted(members):
            z.write_bytes(name, members[name])
    return dst


def _errors(path: Path, **kw: Any) -> list[tuple[str, str]]:
    rep = verify_bundle(path, **kw)
    return [(p.code, p.subject) for p in rep.problems if p.severity.value == "error"]


# --- keys -----------------------------------------------------------------------------------------------------
def test_keygen_writes_a_private_key_only_its_owner_reads(tmp_path: Path) -> None:
    code, out, err = _run(["keygen", "-o", str(tmp_path / "k"), "--name", "rm"])
    assert code == 0, err
    private, public = tmp_path / "k" / "rm.key", tmp_path / "k" / "rm.pub"
    assert b"PRIVATE KEY" in private.read_bytes() and b"PUBLIC KEY" in public.read_bytes()
    if os.name == "posix":
        assert stat.S_IMODE(private.stat().st_mode) == 0o600
    info = signing.read_signing_key(private)
    assert info.public_key_sha256 == signing.load_public_key(public) and info.public_key_sha256 in out
    assert info.warning is None and str(private) in out
    code, _out, err = _run(["keygen", "-o", str(tmp_path / "k"), "--name", "rm"])
    assert code == 1 and "already exists" in err and private.read_bytes().startswith(b"-----BEGIN PRIVATE KEY")


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_a_key_others_can_read_is_warned_about(tmp_path: Path, keys: dict[str, Path]) -> None:
    key = tmp_path / "open.key"
    shutil.copyfile(keys["private"], key)
    key.chmod(0o644)
    result = build_bundle(BundleOptions(factory.external_model(tmp_path / "m"), tmp_path / "out", "1.0.0",
                                        run_smoke=False, sign_key=key))  # fmt: skip
    assert [f.code for f in result.findings if f.code == "SIGNING_KEY_READABLE"] == ["SIGNING_KEY_READABLE"]


def test_unusable_keys_are_refused_before_any_work(tmp_path: Path, keys: dict[str, Path]) -> None:
    out = tmp_path / "out"
    code, _o, err = _run(["bundle", "-o", str(out), "--version", "1.0.0", "--sign-key", str(keys["public"])])
    assert code == 2 and "not a usable PEM private key" in err and "NAME.key" in err
    assert not out.exists()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    rsa_key = tmp_path / "rsa.key"
    rsa_key.write_bytes(rsa.generate_private_key(65537, 2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))  # fmt: skip
    with pytest.raises(InputError, match="elliptic-curve") as e:
        signing.read_signing_key(rsa_key)
    assert e.value.code == "SIGNING_KEY"
    with pytest.raises(InputError, match="Cannot read the signing key"):
        signing.read_signing_key(tmp_path / "missing.key")


def test_encrypted_key_takes_its_password_from_the_environment(tmp_path: Path, monkeypatch: Any) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = tmp_path / "enc.key"
    key.write_bytes(ec.generate_private_key(ec.SECP384R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"s3cret")))  # fmt: skip
    with pytest.raises(InputError, match="encrypted"):
        signing.read_signing_key(key)
    with pytest.raises(InputError, match="ONNXPACK_KEY_PW"):
        signing.read_signing_key(key, "ONNXPACK_KEY_PW")
    monkeypatch.setenv("ONNXPACK_KEY_PW", "s3cret")
    assert signing.read_signing_key(key, "ONNXPACK_KEY_PW").curve == "secp384r1"


# --- signing and verifying ------------------------------------------------------------------------------------
def test_signed_bundle_verifies_with_the_key_and_says_so_without(signed: Path, keys: dict[str, Path]) -> None:
    members = _members(signed)
    assert "model.sig" in members
    manifest = json.loads(members["manifest.json"])
    assert manifest["signature"]["public_key_sha256"] == signing.load_public_key(keys["public"])
    assert manifest["signature"]["method"] == signing.METHOD_KEY
    assert "model.sig" not in {f["path"] for f in manifest["files"]}
    private_body = b"".join(keys["private"].read_bytes().splitlines()[1:-1])
    assert not any(private_body in data for data in members.values())  # the private key never travels

    rep = verify_bundle(signed, key=keys["public"])
    assert rep.ok and rep.signature["status"] == "valid", rep.problems
    rep = verify_bundle(signed)
    assert rep.ok and rep.signature["status"] == "signed-not-checked"
    code, out, _err = _run(["verify", str(signed), "--key", str(keys["public"])])
    assert code == 0 and "signature: valid" in out
    code, out, _err = _run(["verify", str(signed)])
    assert code == 0 and "signed, not checked" in out
    assert "--key PUBLISHER.pub" in members["README.txt"].decode()


def test_wrong_key_is_caught_first(signed: Path, keys: dict[str, Path]) -> None:
    assert _errors(signed, key=keys["other_public"]) == [("SIGNATURE_INVALID", "model.sig")]
    code, out, _err = _run(["verify", str(signed), "--key", str(keys["other_public"]), "--json"])
    doc = json.loads(out)
    assert code == 1 and not doc["ok"] and doc["problems"][0]["code"] == "SIGNATURE_INVALID"


def test_stripped_signature_is_caught_with_or_without_key(signed: Path, tmp_path: Path, keys: dict[str, Path]) -> None:
    members = _members(signed)
    del members["model.sig"]
    stripped = _write(members, tmp_path / "stripped.zip")
    assert _errors(stripped, key=keys["public"]) == [("SIGNATURE_MISSING", "model.sig")]
    assert ("SIGNATURE_MISSING", "model.sig") in _errors(stripped)


def test_signature_from_another_bundle_names_the_files(signed: Path, tmp_path: Path, keys: dict[str, Path]) -> None:
    other = _bundle(tmp_path, keys["private"], "1.0.1")  # same key, another release
    members = _members(signed)
    members["model.sig"] = _members(other)["model.sig"]
    swapped = _write(members, tmp_path / "swapped.zip")
    errors = _errors(swapped, key=keys["public"])
    assert ("SIGNATURE_MISMATCH", "manifest.json") in errors
    assert all(code == "SIGNATURE_MISMATCH" for code, _s in errors)


def test_any_changed_member_is_named_even_with_a_consistent_manifest(signed: Path, tmp_path: Path,
                                                                     keys: dict[str, Path]) -> None:  # fmt: skip
    import hashlib

    members = _members(signed)
    members["README.txt"] = members["README.txt"] + b"\nRun setup.exe first.\n"
    doc = json.loads(members["manifest.json"])
    for f in doc["files"]:  # the attacker also fixes the manifest's hashes
        if f["path"] == "README.txt":
            f["size"], f["sha256"] = len(members["README.txt"]), hashlib.sha256(members["README.txt"]).hexdigest()
    assert not verify_bundle(_write({**members, "manifest.json": json.dumps(doc).encode()}, tmp_path / "t.zip")).ok
    from onnxpack.core.release.checksums import sha256sums  # SHA256SUMS caught that; the attacker rewrites it too

    members["SHA256SUMS"] = sha256sums(doc["files"])
    for f in doc["files"]:
        if f["path"] == "SHA256SUMS":
            f["size"], f["sha256"] = len(members["SHA256SUMS"]), hashlib.sha256(members["SHA256SUMS"]).hexdigest()
    members["manifest.json"] = json.dumps(doc).encode()
    tampered = _write(members, tmp_path / "tampered.zip")
    assert verify_bundle(tampered).ok  # without the key only the manifest's own hashes are checked...
    errors = _errors(tampered, key=keys["public"])  # ...the signature names every changed file
    assert sorted(errors) == [("SIGNATURE_MISMATCH", "README.txt"), ("SIGNATURE_MISMATCH", "SHA256SUMS"),
                              ("SIGNATURE_MISMATCH", "manifest.json")]
    members = _members(signed)
    members["extra.dll"] = b"MZ"
    assert ("SIGNATURE_MISMATCH", "extra.dll") in _errors(_write(members, tmp_path / "added.zip"), key=keys["public"])
    members = _members(signed)
    members["model.sig"] = members["model.sig"].replace(b'"sig"', b'"sig_"', 1)
    assert _errors(_write(members, tmp_path / "garbled.zip"), key=keys["public"])[0][0] == "SIGNATURE_INVALID"


def test_unsigned_bundle(tmp_path: Path, keys: dict[str, Path]) -> None:
    plain = _bundle(tmp_path, None)
    assert verify_bundle(plain).signature == {"status": "unsigned"}
    assert _errors(plain, key=keys["public"]) == [("SIGNATURE_MISSING", "model.sig")]


# --- interoperability with model-signing itself ---------------------------------------------------------------
def test_extracted_bundle_verifies_with_model_signing(signed: Path, tmp_path: Path, keys: dict[str, Path]) -> None:
    folder = tmp_path / "extracted"
    with zipfile.ZipFile(signed) as zf:
        zf.extractall(folder)
    model_signing.verifying.Config().use_elliptic_key_verifier(public_key=keys["public"]).verify(
        folder, folder / "model.sig")
    (folder / "README.txt").write_text("changed", encoding="utf-8")
    with pytest.raises(ValueError, match=r"README\.txt"):
        model_signing.verifying.Config().use_elliptic_key_verifier(public_key=keys["public"]).verify(
            folder, folder / "model.sig")


def test_folder_signed_by_model_signing_is_accepted(signed: Path, tmp_path: Path, keys: dict[str, Path]) -> None:
    members = _members(signed)
    del members["model.sig"]
    folder = tmp_path / "folder"
    for name, data in members.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    hashing = model_signing.hashing.Config().set_ignored_paths(paths=["model.sig"])
    model_signing.signing.Config().use_elliptic_key_signer(private_key=keys["private"]).set_hashing_config(
        hashing).sign(folder, folder / "model.sig")
    members["model.sig"] = (folder / "model.sig").read_bytes()
    rezipped = _write(members, tmp_path / "by-model-signing.zip")
    rep = verify_bundle(rezipped, key=keys["public"])
    assert rep.ok and rep.signature["status"] == "valid", rep.problems


def test_frozen_app_without_model_signing_says_what_to_do(monkeypatch: Any) -> None:
    monkeypatch.setattr(signing, "available", lambda: False)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    with pytest.raises(InputError) as e:
        signing.read_signing_key("any.key")
    assert e.value.code == "SIGNING_UNAVAILABLE" and "pip install '.[sign]'" in (e.value.hint or "")


# --- release metadata -----------------------------------------------------------------------------------------
def test_release_metadata_lands_in_manifest_and_readme(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, text, err = _run(["bundle", "-o", str(out), "--version", "1.0.0", "--no-smoke", "--license", "apache-2.0",
                            "--author", "Ada <ada@example.org>", "--author", "小林", "--homepage",
                            "https://example.org/victory", "--labels", "victory,defeat,other", "--json"])  # fmt: skip
    assert code == 0, err
    about = json.loads(text)["manifest"]["about"]
    assert about == {"license": "Apache-2.0", "authors": ["Ada <ada@example.org>", "小林"],
                     "homepage": "https://example.org/victory", "labels": ["victory", "defeat", "other"]}  # fmt: skip
    readme = _members(out / "victory-1.0.0.zip")["README.txt"].decode()
    assert "License: Apache-2.0 (SPDX)" in readme and "2: other" in readme and "小林" in readme


@pytest.mark.parametrize(
    ("flags", "code", "words"),
    [
        (["--license", "Not-A-License"], "ABOUT_LICENSE", "SPDX"),
        (["--homepage", "example.org"], "ABOUT_HOMEPAGE", "http"),
        (["--author", " "], "ABOUT_AUTHOR", "author"),
        (["--labels", "a,,b"], "ABOUT_LABELS", "empty"),
        (["--labels", "a,b,c,d"], "ABOUT_LABELS", "no output has 4 classes"),
    ],
)
def test_bad_metadata_is_refused(tmp_path: Path, flags: list[str], code: str, words: str) -> None:
    out = tmp_path / "out"
    status, text, _err = _run(["bundle", "-o", str(out), "--version", "1.0.0", "--no-smoke", *flags, "--json"])
    doc = json.loads(text)
    assert status == 2 and doc["error"]["code"] == code and words in doc["error"]["message"]
    assert not any(out.glob("*.zip"))


def test_labels_file_and_force(tmp_path: Path) -> None:
    labels = tmp_path / "labels.txt"
    labels.write_text("cat\ndog\n", encoding="utf-8")
    status, _t, _e = _run(["bundle", "-o", str(tmp_path / "o"), "--version", "1.0.0", "--no-smoke",
                           "--labels-file", str(labels)])  # fmt: skip
    assert status == 2
    status, _t, err = _run(["bundle", "-o", str(tmp_path / "o"), "--version", "1.0.0", "--no-smoke",
                            "--labels-file", str(labels), "--allow-unmatched-labels"])  # fmt: skip
    assert status == 0, err
    check_labels(["a", "b"], [{"name": "y", "shape": ["batch", "n"]}])  # symbolic: nothing to check


# --- certificate signing (offline, with the release team's own CA) ----------------------------------------------
def _ca_and_leaf(root: Path, key: Path, *, can_sign: bool = True) -> tuple[Path, Path]:
    """A self-signed CA and a signing certificate for ``key`` issued by it (PEM files)."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Example Release CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(1).not_valid_before(now - datetime.timedelta(days=1))
          .not_valid_after(now + datetime.timedelta(days=365))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
          .sign(ca_key, hashes.SHA256()))  # fmt: skip
    leaf_key = serialization.load_pem_private_key(key.read_bytes(), None)
    usage = x509.KeyUsage(can_sign, False, False, False, False, False, False, False, False)
    leaf = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Release team")]))
            .issuer_name(ca_name).public_key(leaf_key.public_key()).serial_number(2)
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(usage, critical=True).sign(ca_key, hashes.SHA256()))  # fmt: skip
    ca_path, leaf_path = root / "ca.pem", root / "leaf.pem"
    ca_path.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    leaf_path.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    return ca_path, leaf_path


def test_certificate_signing_verifies_against_the_trusted_ca(tmp_path: Path, keys: dict[str, Path]) -> None:
    ca, leaf = _ca_and_leaf(tmp_path, keys["private"])
    out = tmp_path / "out"
    code, _t, err = _run(["bundle", "-o", str(out), "--version", "1.0.0", "--no-smoke", "--sign-key",
                          str(keys["private"]), "--sign-certificate", str(leaf), "--sign-chain", str(ca)])  # fmt: skip
    assert code == 0, err
    zip_path = out / "victory-1.0.0.zip"
    sig = json.loads(_members(zip_path)["manifest.json"])["signature"]
    assert sig["method"] == signing.METHOD_CERTIFICATE and sig["certificate_subject"] == "CN=Release team"
    rep = verify_bundle(zip_path, trust=[ca])
    assert rep.ok and rep.signature["status"] == "valid" and rep.signature["subject"] == "CN=Release team"
    code, text, _e = _run(["verify", str(zip_path), "--trust", str(ca)])
    assert code == 0 and "valid, by CN=Release team (certificate)" in text
    (tmp_path / "other").mkdir()
    other_ca, _other_leaf = _ca_and_leaf(tmp_path / "other", keys["other_private"])
    assert _errors(zip_path, trust=[other_ca]) == [("SIGNATURE_INVALID", "model.sig")]
    errors = verify_bundle(zip_path, key=keys["public"]).problems
    assert errors[0].code == "SIGNATURE_INVALID" and "--trust" in (errors[0].hint or "")
    # interop: model-signing's own certificate verifier accepts the extracted bundle
    folder = tmp_path / "extracted"
    with zipfile.ZipFile(zip_path) as zf:
        zf.extractall(folder)
    model_signing.verifying.Config().use_certificate_verifier(certificate_chain=[ca]).verify(
        folder, folder / "model.sig")


def test_certificate_must_match_the_key_and_allow_signing(tmp_path: Path, keys: dict[str, Path]) -> None:
    _ca, leaf = _ca_and_leaf(tmp_path, keys["private"])
    with pytest.raises(InputError, match="not the certificate of the key") as e:
        signing.read_signing_key(keys["other_private"], certificate=leaf)
    assert e.value.code == "SIGNING_CERTIFICATE"
    (tmp_path / "n").mkdir()
    _ca, no_sign = _ca_and_leaf(tmp_path / "n", keys["private"], can_sign=False)
    with pytest.raises(InputError, match="does not allow signing"):
        signing.read_signing_key(keys["private"], certificate=no_sign)
    code, _t, err = _run(["bundle", "-o", str(tmp_path / "o"), "--version", "1.0.0", "--sign-certificate", str(leaf)])
    assert code == 2 and "without its private key" in err


# --- Sigstore keyless: an option that needs the network, and says so -------------------------------------------
def test_sigstore_offline_says_so_before_any_work(tmp_path: Path, monkeypatch: Any, signed: Path) -> None:
    monkeypatch.setattr(signing, "first_unreachable", lambda *a, **k: "tuf-repo-cdn.sigstore.dev: no route")
    out = tmp_path / "out"
    code, text, _e = _run(["bundle", "-o", str(out), "--version", "1.0.0", "--sign-sigstore", "--json"])
    doc = json.loads(text)
    assert code == 2 and doc["error"]["code"] == "SIGSTORE_UNREACHABLE"
    assert "tuf-repo-cdn.sigstore.dev" in doc["error"]["message"] and "--sign-key" in doc["error"]["hint"]
    assert not out.exists()
    code, text, _e = _run(["verify", str(signed), "--sigstore-identity", "rm@example.org", "--json"])
    assert code == 2 and json.loads(text)["error"]["code"] == "SIGSTORE_UNREACHABLE"


def test_sigstore_option_conflicts_and_token(tmp_path: Path, keys: dict[str, Path]) -> None:
    code, _t, err = _run(["bundle", "-o", str(tmp_path / "o"), "--version", "1.0.0", "--sign-sigstore",
                          "--sign-key", str(keys["private"])])  # fmt: skip
    assert code == 2 and "Choose one way to sign" in err
    code, _t, err = _run(["bundle", "-o", str(tmp_path / "o"), "--version", "1.0.0", "--sign-sigstore",
                          "--sigstore-identity-token-env", "ONNXPACK_NO_SUCH_TOKEN"])  # fmt: skip
    assert code == 2 and "ONNXPACK_NO_SUCH_TOKEN" in err


def test_unreachable_host_is_named_quickly() -> None:
    assert signing.first_unreachable(("onnxpack-test.invalid",), timeout=2).startswith("onnxpack-test.invalid:")


def test_a_signed_bundle_never_forks_its_checker(tmp_path: Path, keys: dict[str, Path],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A forked child is a copy of the process that read the private key: the checker of a signed bundle runs in a
    child that was not forked from it."""
    import onnxpack.core.child.childproc as childproc
    import onnxpack.core.release.gate as gate_mod

    monkeypatch.setattr(childproc, "START_METHOD", "fork")
    made: list[str] = []

    class Recorded(childproc.ChildProcess):
        def __init__(self, target: str, preload: tuple[str, ...] = childproc.PRELOAD) -> None:
            made.append(target)
            super().__init__(target, preload)

    monkeypatch.setattr(gate_mod, "ChildProcess", Recorded)
    _bundle(tmp_path / "signed", keys["private"])
    assert made == []  # no checker child forked here (the checker's own, if any, is started by the checker)
    _bundle(tmp_path / "unsigned", None)
    assert made == [""]  # the same bundle unsigned: its checker's child is forked
