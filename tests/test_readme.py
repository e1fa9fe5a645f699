"""The README's two fresh-machine commands stay true: CI runs exactly the README's test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```(?:sh|bash)\n(.*?)\n```", text, flags=re.S)


def test_readme_opens_with_run_and_test_commands() -> None:
    cmds = _commands()
    assert len(cmds) >= 2
    run, test = cmds[0], cmds[1]
    assert "pip install" in run and "onnxpack bundle" in run
    assert "pip install" in test and "pytest" in test


INSTALL_END = "editable_mode=strict && "


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run installs from the lock exactly as the README says, then runs the README's checks verbatim."""
    test = _commands()[1]
    install, checks = test.split(INSTALL_END, 1)
    install_part = install.split("&& . .venv/bin/activate && ", 1)[1] + INSTALL_END.removesuffix(" && ")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert checks.strip() in ci
    assert install_part.replace("pip install ", "pip install --quiet ") in ci


def test_every_install_uses_the_lock() -> None:
    """Nothing installs unpinned dependencies: the README, CI and the Windows workflow install from requirements/."""
    run, test = _commands()[:2]
    workflow = (ROOT / ".github" / "workflows" / "windows.yml").read_text(encoding="utf-8")
    for text in (run, test, (ROOT / ".ci" / "run").read_text(encoding="utf-8"), workflow):
        assert "--require-hashes -r requirements/" in text
        assert not re.search(r"pip install[^\n]*(-e|install) \.?\[dev\]", text)
        assert "--no-deps" in text


def test_the_locks_pin_every_package_with_hashes() -> None:
    for name in ("app.txt", "dev.txt"):
        text = (ROOT / "requirements" / name).read_text(encoding="utf-8")
        pins = re.findall(r"^([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?==\S+", text, flags=re.M)
        assert pins, name
        blocks = re.split(r"^(?=[A-Za-z0-9_.-]+(?:\[[^\]]*\])?==)", text, flags=re.M)[1:]
        assert all("--hash=sha256:" in b for b in blocks), name
        lowered = {p.lower() for p in pins}
        assert {"onnx", "onnxruntime", "numpy", "pyside6-essentials", "setuptools"} <= lowered, name
    dev = (ROOT / "requirements" / "dev.txt").read_text(encoding="utf-8")
    app = (ROOT / "requirements" / "app.txt").read_text(encoding="utf-8")
    app_pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", app, flags=re.M))
    dev_pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", dev, flags=re.M))
    assert {k: dev_pins.get(k) for k in app_pins} == app_pins  # the app runs on exactly what CI tested


def test_security_document_names_real_modules_and_tests() -> None:
    """docs/security.md says which module enforces each rule: every file it names exists, and the README links it."""
    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:core|tests|resources)/[\w./-]+\.(?:py|json))`", text))
    assert len(named) >= 15
    missing = sorted(p for p in named if not (ROOT / p).is_file())
    assert missing == []
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/security.md)" in readme
    assert "shared/reference/security.md" not in readme


def test_readme_opens_with_the_commands_then_your_model_and_your_app() -> None:
    """Issue 26 item 5: the two commands first, then in a few lines how to bundle one's own model and load it in an
    app; the build, CI, Wine and benchmark detail lives in docs/ (linked), not before the workflow."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    before_first_command = text.split("```sh", 1)[0]
    assert len([line for line in before_first_command.splitlines() if line.strip()]) <= 6
    opening = text.split("## The workflow", 1)[0]
    assert opening.count("```sh") == 2
    after_commands = opening.rsplit("```", 1)[1]
    assert "**Bundle your own model:**" in after_commands and "**Load it in your app:**" in after_commands
    assert len([line for line in after_commands.splitlines() if line.strip()]) <= 16
    assert "Python, JavaScript (Node.js), C++, Rust and C#" in after_commands
    for detail in ("Wine", "benchmarks/", "PyInstaller", "pyinstaller"):
        assert detail not in opening, detail
    for doc in ("docs/building.md", "docs/performance.md"):
        assert f"]({doc})" in text and (ROOT / doc).is_file()
    assert "### How a release of onnxpack itself is made" not in text
    assert "## How a release of onnxpack itself is made" in (ROOT / "docs" / "building.md").read_text(encoding="utf-8")


def test_a_dependency_required_with_extras_is_locked_with_them() -> None:
    """pip 23.2 (Python 3.11's own) refuses, in --require-hashes mode, the extras' requirement of a locked package
    (sigstore-rekor-types needs pydantic[email]) unless the lock pins it with those extras: it resolves it to the
    newest release on PyPI instead, and .ci/run's install failed as soon as pydantic 2.14.4 came out. Checked against
    the installed packages' metadata, which .ci/run installs from this very lock."""
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    dev = (ROOT / "requirements" / "dev.txt").read_text(encoding="utf-8")
    locked = {canonicalize_name(n): set(filter(None, (extras or "").split(","))) for n, extras in
              re.findall(r"^([A-Za-z0-9_.-]+)(?:\[([^\]]*)\])?==", dev, flags=re.M)}
    needed: dict[str, set[str]] = {}
    for dist in metadata.distributions():
        if canonicalize_name(dist.metadata["Name"]) not in locked:
            continue
        for text in dist.requires or []:
            req = Requirement(text)
            if req.extras and not (req.marker and "extra" in str(req.marker)):
                needed.setdefault(canonicalize_name(req.name), set()).update(req.extras)
    assert needed, "no locked package requires another with extras any more: drop the sed in requirements/lock"
    for name, extras in needed.items():
        assert name in locked and extras <= locked[name], f"lock {name}[{','.join(sorted(extras))}]==… in dev.txt"
