"""The CI stages run on their own on a fresh machine: .ci/windows brings its own build tools and never hides a
failing pip behind `|| true`."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "build_spec"))
from pick_requirements import pick  # type: ignore[import-not-found]  # noqa: E402

sys.path.pop(0)


def test_pick_copies_the_locked_entries_with_their_hashes() -> None:
    text = (ROOT / "requirements" / "app.txt").read_text(encoding="utf-8")
    out = pick(text, {"setuptools", "wheel", "packaging"})
    entries = re.findall(r"^([a-z0-9_.-]+)==(\S+) \\$", out, re.MULTILINE)
    assert sorted(n for n, _ in entries) == ["packaging", "setuptools", "wheel"]
    for name, version in entries:
        assert f"{name}=={version} \\" in text  # the lock's own pin
    assert out.count("--hash=sha256:") >= 3 and "#" not in out
    assert not out.rstrip().endswith("\\")  # pip reads the last entry as complete


def test_pick_refuses_a_package_the_lock_lacks() -> None:
    with pytest.raises(SystemExit, match="not pinned in the lock: nosuchpkg"):
        pick("wheel==1.0 \\\n    --hash=sha256:00\n", {"wheel", "nosuchpkg"})


def test_windows_stage_never_swallows_a_pip_failure() -> None:
    script = (ROOT / ".ci" / "windows").read_text(encoding="utf-8")
    joined = script.replace("\\\n", " ")
    for line in joined.splitlines():
        if re.search(r"\bpip\b.*\b(download|wheel|install)\b", line) and not line.lstrip().startswith("#"):
            assert "|| true" not in line, line
    assert "build_spec/pick_requirements.py requirements/app.txt setuptools wheel packaging" in script
