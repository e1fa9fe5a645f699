"""Outputs under faulty conditions (issue 16): read-only folders, long names, links, races, killed runs."""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from onnxpack.cli import Environment, main
from onnxpack.core import atomic
from onnxpack.core.errors import OutputError
from onnxpack.core.release import bundle as bundle_mod
from tests import factory


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), Environment(stdout=out, stderr=err, vars={}))
    return int(status), out.getvalue(), err.getvalue()


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if "onnxpack-" in p.name)


def test_read_only_output_folder_is_a_clear_error(ext_model: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 4: EROFS while creating the work folder (root ignores chmod, so the file system's answer is faked)."""
    def read_only(kind: str, parent: Path | None = None) -> Path:
        raise OSError(errno.EROFS, "Read-only file system", str(parent))

    monkeypatch.setattr(bundle_mod, "make_temp_dir", read_only)
    out = tmp_path / "out"
    out.mkdir()
    status, _, stderr = run("bundle", str(ext_model), "-o", str(out), "--version", "1.0.0", "--no-smoke")
    assert status == 1, stderr  # refused: the output cannot be written there
    assert "Read-only file system" in stderr and "Internal error" not in stderr
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("command", ["inspect", "check", "smoke", "merge", "bundle", "verify"])
def test_a_name_longer_than_the_file_system_allows(command: str, tmp_path: Path) -> None:
    """Item 5: a path component over 255 bytes, as input, is an error with a hint, not an internal error."""
    long_input = tmp_path / ("a" * 300 + (".zip" if command == "verify" else ".onnx"))
    argv = [command, str(long_input)]
    if command == "merge":
        argv += ["-o", str(tmp_path / "m.onnx")]
    elif command == "bundle":
        argv += ["-o", str(tmp_path / "out"), "--version", "1.0.0", "--no-smoke"]
    status, stdout, stderr = run(*argv, "--json")
    assert status == 2, stderr
    error = json.loads(stdout)["error"]
    assert error["code"] in ("PATH_ENAMETOOLONG", "INPUT"), error
    assert "Internal error" not in stderr


def test_long_output_names_get_a_temporary_too(ext_model: Path, tmp_path: Path) -> None:
    """Item 5: temporary names have a fixed length, so an output name of 250 bytes works; 300 is refused."""
    out = tmp_path / ("b" * 245 + ".onnx")
    status, _, stderr = run("merge", str(ext_model), "-o", str(out))
    assert status == 0, stderr
    assert out.is_file()
    status, _, stderr = run("merge", str(ext_model), "-o", str(tmp_path / ("c" * 300 + ".onnx")))
    assert status == 2 and "255 bytes" in stderr


def test_dangling_symlink_at_the_output_is_never_followed(ext_model: Path, tmp_path: Path) -> None:
    """Item 9: merge -o out/l.onnx where l.onnx -> elsewhere must not write elsewhere, even with --force."""
    out = tmp_path / "out"
    out.mkdir()
    target = tmp_path / "elsewhere" / "target.onnx"
    target.parent.mkdir()
    (out / "l.onnx").symlink_to(target)
    for extra in ([], ["--force"]):
        status, stdout, _ = run("merge", str(ext_model), "-o", str(out / "l.onnx"), "--json", *extra)
        assert status == 1 and json.loads(stdout)["error"]["code"] == "OUTPUT_IS_SYMLINK"
        assert not target.exists() and (out / "l.onnx").is_symlink()
    (out / "model-1.0.0.zip").symlink_to(target)
    status, stdout, _ = run("bundle", str(ext_model), "-o", str(out), "--version", "1.0.0", "--no-smoke", "--json")
    assert status == 1 and json.loads(stdout)["error"]["code"] == "OUTPUT_IS_SYMLINK"
    assert not target.exists() and (out / "model-1.0.0.zip").is_symlink()


def test_an_output_that_appears_while_writing_is_not_replaced(tmp_path: Path) -> None:
    """Item 10: two runs writing the same name at once: the later one fails as "exists" unless --force."""
    dest = tmp_path / "m.onnx"
    with pytest.raises(OutputError) as ei, atomic.atomic_file(dest, overwrite=False) as f:
        f.write(b"ours")
        dest.write_bytes(b"the other run's")  # the other run finished first
    assert ei.value.code == "OUTPUT_EXISTS"
    assert dest.read_bytes() == b"the other run's"
    assert _temporaries(tmp_path) == []
    with atomic.atomic_file(dest, overwrite=True) as f:  # --force replaces it
        f.write(b"ours")
    assert dest.read_bytes() == b"ours"


def test_next_run_removes_what_dead_runs_left(ext_model: Path, tmp_path: Path) -> None:
    """Item 8: temporaries of a process that no longer exists are removed; a live owner's are kept."""
    out = tmp_path / "out"
    out.mkdir()
    dead = _dead_pid()
    (out / f".onnxpack-tmp-{dead}-0123abcd").write_bytes(b"partial")
    (out / f".onnxpack-work-{dead}-89abcdef").mkdir()
    (out / f".onnxpack-work-{dead}-89abcdef" / "big.onnx").write_bytes(b"x" * 100)
    live = f".onnxpack-tmp-{os.getppid()}-fedcba98"
    (out / live).write_bytes(b"someone else's, still running")
    (out / "notes.onnxpack-tmp-x").write_bytes(b"not ours by name")
    status, _, stderr = run("bundle", str(ext_model), "-o", str(out), "--version", "1.0.0", "--no-smoke")
    assert status == 0, stderr
    assert _temporaries(out) == sorted([live, "notes.onnxpack-tmp-x"])


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_kill_9_of_a_real_bundle_leaves_nothing_after_the_next_run(tmp_path: Path) -> None:
    """Item 8: kill -9 the real command while it writes; the next run into that folder cleans up."""
    model = factory.save_with_external(factory.add_model(n=8 * 1024 * 1024), tmp_path / "big" / "model.onnx")
    out = tmp_path / "out"
    out.mkdir()
    argv = [sys.executable, "-m", "onnxpack.cli", "bundle", str(model), "-o", str(out), "--no-smoke"]
    proc = subprocess.Popen([*argv, "--version", "1.0.0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not _temporaries(out) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    killed = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    if not killed:
        pytest.fail("the bundle finished before it could be killed; use a larger model")
    assert _temporaries(out), "the killed run should have left its temporaries (else this test proves nothing)"
    done = subprocess.run([*argv, "--version", "1.0.1"], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert _temporaries(out) == []
    assert sorted(p.name for p in out.iterdir()) == ["model-1.0.1.zip"]
