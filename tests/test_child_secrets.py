"""The environment variables that hold a signing key's password or an identity token never reach a child process.

The children run native code (the onnx checker, ONNX Runtime) on models nobody here wrote; a hostile model that
gets code to run there must not find the password of the release's signing key in its environment. Every start
method is covered: "fork" (never used while secrets are hidden), "exec" (the child's environment is filtered, so
not even its initial environment holds them) and "spawn" (Windows: the child drops them before it imports anything).
"""

from __future__ import annotations

import io
import os
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

import onnxpack.core.child.childproc as childproc
from onnxpack.cli import Environment, main
from onnxpack.core.checks.checker_child import run_in_child
from onnxpack.core.child.childproc import ChildProcess, child_environ, hide_from_children

SECRET = "ONNXPACK_TEST_SECRET"
METHODS = ["spawn"] + (["exec"] if os.name == "posix" else []) + (["fork"] if sys.platform.startswith("linux") else [])


@pytest.fixture(autouse=True)
def _secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SECRET, "hunter2")  # (conftest gives each test an empty set of hidden variables)


def _environ(work: str, name: str) -> tuple[str | None, str | None]:
    """In the child: the variable as ``os.environ`` has it, and as the process was started with it (Linux)."""
    initial = None
    try:
        with open("/proc/self/environ", "rb") as f:
            for entry in f.read().split(b"\0"):
                if entry.startswith(name.encode() + b"="):
                    initial = entry.split(b"=", 1)[1].decode()
    except OSError:
        pass
    return os.environ.get(name), initial


@pytest.mark.parametrize("method", METHODS)
def test_a_hidden_variable_never_reaches_a_child(method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(childproc, "START_METHOD", method)
    seen = run_in_child(_environ, SECRET, timeout=120).value
    assert seen[0] == "hunter2"  # the control: without hiding, a child has it
    hide_from_children(SECRET, None, "")
    assert childproc.start_method() != "fork"  # a copy of this process would hold it
    for child in (ChildProcess("", preload=()), None):  # a waiting child, and one started for the task
        try:
            if child is not None:
                assert SECRET in child.hidden
            outcome = run_in_child(_environ, SECRET, timeout=120, child=child)
            assert outcome.status == "ok", outcome.detail
            in_environ, initial = outcome.value
            assert in_environ is None
            if method != "spawn":  # spawn: the child removes it first thing; its start block had it (Windows)
                assert initial is None
        finally:
            if child is not None:
                child.discard()
    assert os.environ[SECRET] == "hunter2"  # this process keeps it (the signing step reads it)
    assert SECRET not in child_environ() and "PATH" in child_environ()


def _encrypted_key(path: Path, password: bytes) -> Path:
    """An encrypted private key at ``path``, its public key beside it (``.pub.pem``)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    private = ec.generate_private_key(ec.SECP256R1())
    path.write_bytes(private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(password)))  # fmt: skip
    path.with_suffix(".pub.pem").write_bytes(private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))  # fmt: skip
    return path


def _record_children(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, frozenset[str], str]]:
    """Each child started from now on: its target, the variables hidden from it, its start method."""
    started: list[tuple[str, frozenset[str], str]] = []
    real_init = ChildProcess.__init__

    def init(self: ChildProcess, target: str, *args: Any, **kwargs: Any) -> None:
        started.append((target, childproc.hidden_vars(), childproc.start_method()))
        real_init(self, target, *args, **kwargs)

    monkeypatch.setattr(ChildProcess, "__init__", init)
    return started


def test_a_signed_bundle_starts_no_child_that_holds_the_key_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sample_model: Path
) -> None:
    """`bundle --sign-key K --sign-key-password-env VAR`: the command line starts no early child (it would have been
    forked with VAR), and every child the bundle starts hides VAR and execs instead of forking."""
    monkeypatch.setattr(childproc, "START_METHOD", "fork")  # where the command line would fork
    monkeypatch.setenv(SECRET, "s3cret")
    started = _record_children(monkeypatch)
    key = _encrypted_key(tmp_path / "k.pem", b"s3cret")
    out, err = io.StringIO(), io.StringIO()
    code = main(["bundle", str(sample_model), "-o", str(tmp_path / "out"), "--version", "1.0.0", "--sign-key", str(key),
                 "--sign-key-password-env", SECRET], Environment(stdout=out, stderr=err, vars={}))  # fmt: skip
    assert code == 0, err.getvalue()
    assert started, "the bundle started no child"
    assert all(SECRET in hidden and method != "fork" for _, hidden, method in started), started
    bundle = tmp_path / "out" / "victory-1.0.0.zip"
    with zipfile.ZipFile(bundle) as z:
        assert "model.sig" in z.namelist()
    # Signed with the encrypted key (model-signing was once handed its password as str: a TypeError).
    code = main(["verify", str(bundle), "--key", str(key.with_suffix(".pub.pem"))],
                Environment(stdout=out, stderr=err, vars={}))  # fmt: skip
    assert code == 0, err.getvalue()


def test_a_callers_child_started_before_the_secret_was_named_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sample_model: Path
) -> None:
    from onnxpack.core.child.childproc import SMOKE_TARGET
    from onnxpack.core.release.bundle import BundleOptions, build_bundle
    from onnxpack.core.runtime.loadcost import LOAD_COST_TARGET

    monkeypatch.setenv(SECRET, "s3cret")
    early = ChildProcess(SMOKE_TARGET)  # started before anyone said SECRET holds a password
    started = _record_children(monkeypatch)
    opts = BundleOptions(model=sample_model, out_dir=tmp_path / "out", version="1.0.0",
                         sign_key=_encrypted_key(tmp_path / "k.pem", b"s3cret"), sign_key_password_env=SECRET)
    result = build_bundle(opts, child=early)
    assert result.zip_path.is_file() and result.manifest["smoke"] is not None
    assert early.proc is None
    # The smoke run had a child of its own, started with the variable hidden: the early one was not used.
    # (the end user's load is measured in a fresh process of its own, with the variable hidden too)
    assert all(SECRET in hidden for _, hidden, _ in started), started
    assert [t for t, _, _ in started if t != LOAD_COST_TARGET] == [SMOKE_TARGET], started


def test_the_command_line_starts_its_early_child_unless_the_bundle_signs() -> None:
    """main() starts the smoke child of `bundle` before it imports the engine, also with bundle's own `--version`
    (once taken for the program's --version, which left every bundle without it); not when the arguments (as parsed:
    an abbreviated flag too) name a variable holding a secret: that child would be forked before it is hidden."""
    from onnxpack.cli import _early_child, build_parser

    def early(argv: list[str]) -> Any:
        return _early_child(build_parser().parse_args(argv))  # (--help and --version end in the parser: no child)

    base = ["bundle", "m.onnx", "-o", "out", "--version", "1.0.0"]
    child = early(base)
    try:
        assert child is not None and child.usable
    finally:
        if child is not None:
            child.discard()
        childproc.discard_ahead()  # the load-cost child started beside it
    for signing in (["--sign-key", "k.pem", "--sign-key-password-env", SECRET], ["--sign-key-pass", SECRET],
                    ["--sigstore-identity-token-env=" + SECRET]):  # fmt: skip
        assert early([*base, *signing]) is None
