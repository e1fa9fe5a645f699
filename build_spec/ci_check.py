"""Check a frozen onedir build, the same way on Linux (.ci/freeze) and Windows (.github/workflows/windows.yml).

    python build_spec/ci_check.py DIST/onnxpack --copy-to "PARENT WITH SPACES/フリーズ テスト" [--zip OUT.zip]

1. both executables are there; no QtWebEngine/Quick/QML (or other forbidden) file got in;
2. the folder fits the size budget;
3. on Windows, each executable's ProductVersion/FileVersion equals ``core.__version__``;
4. the folder is copied to a path with spaces and Japanese characters and BOTH executables run
   ``--self-test REPORT.json`` there with a scrubbed environment (no PYTHONPATH, PYTHONHOME,
   QT_PLUGIN_PATH, VIRTUAL_ENV, ...: only PATH/HOME/LANG and QT_QPA_PLATFORM=offscreen); each must exit 0,
   report ``ok`` and ``frozen``, the right version, and the GUI's start-up must fit its budget;
5. ``onnxpack --version`` prints the version, and the self-test's onnx/onnxruntime/numpy/PySide6 versions are the
   ones pinned in requirements/dev.txt (so the size budget is always measured on the locked versions);
6. the copied CLI bundles the sample model and ``verify --smoke`` accepts the bundle (same scrubbed environment);
   it converts the sample it ships to ORT format (``ort``: onnxruntime's converter, whose flatbuffers code the
   spec ships as files, and a smoke run of the .ort), proves the sample on the onnxruntime it carries
   (``check --prove-ort VERSION``: no Python, no download) and refuses another release with PROVE_NO_PYTHON;
7. on Windows the VC++ runtime DLLs sit at the top of ``_internal/``, and under Wine the GUI self-test passes again
   with Wine's own VC++ runtime disabled (a Windows without the redistributable);
8. optionally the folder is zipped (sorted, deterministic) with a ``.sha256`` file beside it.
``--reports DIR`` keeps the self-test reports and the bundle/verify JSON there.
Exit status 0 only when everything passed. Stdlib only (runs before or without the project installed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import freeze_config as cfg
from version_info import package_version

__all__ = [
    "check_load_cost", "check_ort", "check_prove", "folder_size", "forbidden_files", "locked_versions", "main",
    "other_release", "scrubbed_env", "shipped_sample", "windows_file_version", "wine_version", "zip_folder",
]  # fmt: skip

MIB = 1024 * 1024
LOCK = Path(__file__).resolve().parent.parent / "requirements" / "dev.txt"
LOCKED_PACKAGES = {"onnx": "onnx", "onnxruntime": "onnxruntime", "numpy": "numpy", "PySide6": "pyside6-essentials"}


def locked_versions(lock: Path = LOCK) -> dict[str, set[str]]:
    """``{normalised name: {version, ...}}`` of the pins in a requirements lock (several when markers fork)."""
    pins: dict[str, set[str]] = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", line)
        if m:
            pins.setdefault(re.sub(r"[-_.]+", "-", m.group(1)).lower(), set()).add(m.group(2))
    return pins


def folder_size(folder: Path) -> int:
    """Bytes of every file in ``folder`` (symlinks counted as links, not followed)."""
    total = 0
    for dirpath, _dirs, files in os.walk(folder):
        for name in files:
            total += os.lstat(os.path.join(dirpath, name)).st_size
    return total


def forbidden_files(folder: Path) -> list[str]:
    found = []
    for dirpath, _dirs, files in os.walk(folder):
        for name in files:
            rel = Path(dirpath, name).relative_to(folder).as_posix()
            if cfg.is_forbidden(rel):
                found.append(rel)
    return sorted(found)


def scrubbed_env(home: Path) -> dict[str, str]:
    """What `env -i PATH=... HOME=... LANG=... QT_QPA_PLATFORM=offscreen` gives (plus what Windows needs)."""
    env = {"HOME": str(home), "LANG": "C.UTF-8", "QT_QPA_PLATFORM": "offscreen"}
    if sys.platform == "win32":
        root = os.environ.get("SYSTEMROOT", r"C:\Windows")
        env.update(SYSTEMROOT=root, WINDIR=root, PATH=f"{root}\\System32;{root}", USERPROFILE=str(home),
                   APPDATA=str(home / "AppData" / "Roaming"), LOCALAPPDATA=str(home / "AppData" / "Local"),
                   TEMP=str(home / "Temp"), TMP=str(home / "Temp"))  # fmt: skip
        for key in ("APPDATA", "LOCALAPPDATA", "TEMP"):
            Path(env[key]).mkdir(parents=True, exist_ok=True)
    else:
        env["PATH"] = "/usr/bin:/bin"
    return env


def windows_file_version(exe: Path) -> dict[str, str]:
    """ProductVersion/FileVersion strings of a Windows executable's version resource (version.dll)."""
    import ctypes
    from ctypes import wintypes

    ver = ctypes.windll.version  # type: ignore[attr-defined]
    size = ver.GetFileVersionInfoSizeW(str(exe), None)
    if not size:
        return {}
    buf = ctypes.create_string_buffer(size)
    if not ver.GetFileVersionInfoW(str(exe), 0, size, buf):
        return {}
    ptr, length = ctypes.c_void_p(), wintypes.UINT()
    if not ver.VerQueryValueW(buf, "\\VarFileInfo\\Translation", ctypes.byref(ptr), ctypes.byref(length)):
        return {}
    lang, codepage = ctypes.cast(ptr, ctypes.POINTER(wintypes.WORD * 2)).contents
    result = {}
    for key in ("ProductVersion", "FileVersion", "OriginalFilename"):
        sub = f"\\StringFileInfo\\{lang:04x}{codepage:04x}\\{key}"
        if ver.VerQueryValueW(buf, sub, ctypes.byref(ptr), ctypes.byref(length)) and length.value:
            result[key] = ctypes.wstring_at(ptr, length.value - 1)
    return result


def wine_version() -> str | None:
    """Wine's version when this Windows process runs under Wine (ntdll exports ``wine_get_version``), else None."""
    if sys.platform != "win32":
        return None
    import ctypes

    try:
        get = ctypes.windll.ntdll.wine_get_version  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return None
    get.restype = ctypes.c_char_p
    return (get() or b"").decode("ascii", "replace")


def zip_folder(folder: Path, out: Path) -> str:
    """ZIP ``folder`` (as its own top-level folder, sorted entries) and write ``out.sha256``; returns the digest."""
    entries = sorted(p for p in folder.rglob("*") if p.is_file() or p.is_symlink())
    tmp = out.with_name(out.name + ".part")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
        for path in entries:
            arc = f"{folder.name}/{path.relative_to(folder).as_posix()}"
            info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            if path.is_symlink():
                info.create_system = 3
                info.external_attr = 0o120777 << 16
                zf.writestr(info, os.readlink(path))
                continue
            info.create_system = 3
            info.external_attr = (0o100755 if os.access(path, os.X_OK) else 0o100644) << 16
            with open(path, "rb") as src, zf.open(info, "w", force_zip64=True) as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
    os.replace(tmp, out)
    h = hashlib.sha256()
    with open(out, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    digest = h.hexdigest()
    Path(f"{out}.sha256").write_text(f"{digest}  {out.name}\n", encoding="utf-8")
    return digest


class _Checks:
    def __init__(self) -> None:
        self.failed: list[str] = []

    def check(self, ok: bool, what: str) -> bool:
        print(f"{'PASS' if ok else 'FAIL'}  {what}", flush=True)
        if not ok:
            self.failed.append(what)
        return ok


def _run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float) -> tuple[int, str]:
    """Run ``cmd`` and return its exit status and its stdout followed by its stderr. The output goes to files, not
    pipes: under Wine the desktop process a GUI executable starts (``explorer.exe /desktop``) can inherit a pipe's
    write end and keep it open after the executable has exited, so reading a pipe to its end waited for the time-out
    (seen once: the GUI self-test wrote its report, ok, and exited; the check timed out 10 minutes later)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.run(cmd, env=env, cwd=cwd, stdout=out, stderr=err, timeout=timeout)
        except subprocess.TimeoutExpired:
            return -1, f"timed out after {timeout:.0f} s"
        out.seek(0)
        err.seek(0)
        text = out.read().decode("utf-8", errors="replace") + err.read().decode("utf-8", errors="replace")
    return proc.returncode, text


def check_load_cost(c: _Checks, bundle_doc: dict) -> bool:
    """The bundle measured the end user's load of both layouts by path: on Linux in the frozen app's smoke child (a
    fork of it, or a re-run of its own executable), on Windows in its load-cost processes (a re-run per layout)."""
    cost = (bundle_doc.get("smoke") or {}).get("load_cost") or {}
    sides = [cost.get(k) or {} for k in ("shipped", "source")]
    measured = all(isinstance(s.get("load_s"), (int, float)) and (s.get("peak_bytes") or 0) > 0 for s in sides)
    return c.check(measured, "onnxpack bundle measured the end user's load of the shipped and the source layout"
                   + ("" if measured else f": {json.dumps(cost)[:400]}"))


def _json_of(output: str) -> dict:
    """The JSON document the command printed (stdout comes first; the progress lines on stderr follow it)."""
    try:
        doc, _end = json.JSONDecoder().raw_decode(output, output.index("{"))
    except ValueError:
        return {}
    return doc if isinstance(doc, dict) else {}


def shipped_sample(folder: Path) -> Path | None:
    """The sample model's folder the built app ships (``_internal/resources/sample``), None when it is missing."""
    for candidate in [*sorted(folder.glob("*/resources/sample")), folder / "resources" / "sample"]:
        if (candidate / "victory.onnx").is_file():
            return candidate
    return None


def other_release(carried: str) -> str:
    """A release of onnxruntime the frozen app does not carry (it must refuse to prove on it by itself)."""
    return "1.20.1" if carried != "1.20.1" else "1.20.0"


def check_ort(c: _Checks, cli: list[str], sample: Path, parent: Path, env: dict[str, str], timeout: float) -> dict:
    """``onnxpack ort SAMPLE``: onnxruntime's converter writes a .ort, which then runs like the .onnx."""
    out = parent / "ort out 出力"
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    rc, output = _run([*cli, "ort", str(sample), "-o", str(out), "--json"], env, parent, timeout)
    doc = _json_of(output)
    names = sorted(p.name for p in out.iterdir()) if out.is_dir() else []
    if not c.check(rc == 0 and doc.get("ok") is True and any(n.endswith(".ort") for n in names),
                   f"onnxpack ort (the sample) exit {rc}, ok={doc.get('ok')} -> {names}, "
                   f"{time.perf_counter() - start:.1f} s"):  # fmt: skip
        print(output[-4000:], flush=True)
    shutil.rmtree(out, ignore_errors=True)
    return doc


def check_prove(c: _Checks, cli: list[str], sample: Path, carried: str | None, parent: Path, env: dict[str, str],
                timeout: float) -> dict:
    """``onnxpack check SAMPLE --prove-ort CARRIED`` proves the sample on the onnxruntime the app carries (without
    Python or a download); another release is refused, naming the carried one (``env`` has no ONNXPACK_PYTHON)."""
    if not c.check(bool(carried), f"the frozen CLI names the onnxruntime it carries ({carried})"):
        return {}
    assert carried is not None
    start = time.perf_counter()
    rc, output = _run([*cli, "check", str(sample), "--prove-ort", carried, "--json"], env, parent, timeout)
    doc = _json_of(output)
    proven = [f for f in doc.get("findings") or [] if isinstance(f, dict) and f.get("code") == "PROVE_ORT_OK"
              and f.get("subject") == f"ORT {carried}"]  # fmt: skip
    if not c.check(rc == 0 and doc.get("ok") is True and len(proven) == 1,
                   f"onnxpack check --prove-ort {carried} (the sample, on the carried onnxruntime) exit {rc}, "
                   f"{len(proven)} PROVE_ORT_OK, {time.perf_counter() - start:.1f} s"):  # fmt: skip
        print(output[-4000:], flush=True)
    other = other_release(carried)
    rc, output = _run([*cli, "check", str(sample), "--prove-ort", other, "--json"], env, parent, timeout)
    error = _json_of(output).get("error") or {}
    if not c.check(rc == 2 and error.get("code") == "PROVE_NO_PYTHON" and f"--prove-ort {carried}" in str(
                       error.get("hint")),
                   f"onnxpack check --prove-ort {other} (not carried) exit {rc}: {error.get('code')}, the hint names "
                   f"--prove-ort {carried}"):  # fmt: skip
        print(output[-4000:], flush=True)
    return doc


def _self_test(exe: Path, report: Path, env: dict[str, str], cwd: Path, timeout: float) -> tuple[int, dict, str]:
    start = time.perf_counter()
    rc, output = _run([str(exe), "--self-test", str(report)], env, cwd, timeout)
    wall = time.perf_counter() - start
    try:
        doc = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:  # also after a timeout: the run wrote no report
        doc = {"_error": f"no readable report: {e}"}
    doc["_wall_seconds"] = round(wall, 2)
    return rc, doc, output[-4000:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a frozen onnxpack onedir build.")
    parser.add_argument("dist", type=Path, help="the built folder (dist/onnxpack)")
    parser.add_argument("--copy-to", type=Path, default=None,
                        help="parent folder for the copy that is run (default: a temp folder with spaces and "
                             "Japanese characters)")  # fmt: skip
    parser.add_argument("--size-budget-mb", type=float, default=cfg.size_budget_mib(), help="MiB (default %(default)s)")
    parser.add_argument("--startup-budget", type=float, default=cfg.STARTUP_BUDGET_S, help="seconds")
    parser.add_argument("--expect-version", default=None, help="default: core.__version__")
    parser.add_argument("--zip", type=Path, default=None, help="also write this ZIP of the folder + .sha256")
    parser.add_argument("--summary", type=Path, default=None, help="write the results as JSON here")
    parser.add_argument("--reports", type=Path, default=None, help="keep the self-test reports and bundle JSON here")
    parser.add_argument("--timeout", type=float, default=600.0, help="per self-test, seconds")
    args = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):  # Japanese paths on a cp1252 console must not crash the check
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")

    dist = args.dist.resolve()
    version = args.expect_version or package_version()
    c = _Checks()
    summary: dict[str, object] = {"version": version, "platform": sys.platform}
    gui, cli = dist / cfg.exe_name(cfg.GUI_NAME), dist / cfg.exe_name(cfg.CLI_NAME)
    if not (
        c.check(gui.is_file(), f"GUI executable {gui.name}") & c.check(cli.is_file(), f"CLI executable {cli.name}")
    ):
        return 1

    bad = forbidden_files(dist)
    c.check(not bad, "no QtWebEngine/Quick/QML/Designer files" + (f": {bad[:10]}" if bad else ""))
    size = folder_size(dist)
    summary["size_mib"] = round(size / MIB, 1)
    c.check(size / MIB <= args.size_budget_mb,
            f"folder size {size / MIB:.1f} MiB ({size / 1e6:.1f} MB) <= {args.size_budget_mb:g} MiB")  # fmt: skip
    if size / 1e6 > cfg.SIZE_TARGET_MB:  # the target is in MB (10^6 bytes), the budget in MiB
        print(f"NOTE  {size / 1e6 - cfg.SIZE_TARGET_MB:.1f} MB above the {cfg.SIZE_TARGET_MB:g} MB target", flush=True)

    wine = wine_version()
    summary["wine"] = wine
    if sys.platform == "win32":
        for exe in (gui, cli):
            info = windows_file_version(exe)
            c.check(info.get("ProductVersion") == version and info.get("FileVersion") == version,
                    f"{exe.name} version resource {info} == {version}")  # fmt: skip
        internal = dist / "_internal"
        missing = [n for n in cfg.VC_RUNTIME_DLLS if not (internal / n).is_file()]
        c.check(not missing, f"VC++ runtime at the top of _internal/ ({', '.join(cfg.VC_RUNTIME_DLLS)})"
                + (f": missing {missing}" if missing else ""))  # fmt: skip
    reports = args.reports.resolve() if args.reports is not None else None
    if reports is not None:
        reports.mkdir(parents=True, exist_ok=True)

    own_tmp = None
    if args.copy_to is None:
        own_tmp = Path(tempfile.mkdtemp(prefix="onnxpack-ci-"))
        parent = own_tmp / "onnxpack ci" / "フリーズ テスト"
    else:
        parent = args.copy_to.resolve()
    try:
        copy = parent / dist.name
        if copy.exists():
            shutil.rmtree(copy)
        parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(dist, copy, symlinks=True)
        print(f"      copied to {copy}", flush=True)
        home = parent / "home dir ホーム"
        home.mkdir(exist_ok=True)
        env = scrubbed_env(home)
        results = {}
        for exe_base in (cfg.GUI_NAME, cfg.CLI_NAME):
            exe = copy / cfg.exe_name(exe_base)
            report = parent / f"self-test {exe_base} レポート.json"
            rc, doc, output = _self_test(exe, report, env, parent, args.timeout)
            results[exe_base] = doc
            ok = c.check(rc == 0 and doc.get("ok") is True and doc.get("frozen") is True,
                         f"{exe_base} --self-test exit {rc}, ok={doc.get('ok')}, frozen={doc.get('frozen')}, "
                         f"failed={doc.get('failed')}, {doc.get('_wall_seconds')} s")  # fmt: skip
            if not ok:
                print(output, flush=True)
            got = (doc.get("versions") or {}).get("onnxpack")
            c.check(got == version, f"{exe_base} reports onnxpack {got} (expected {version})")
            if reports is not None and report.is_file():
                shutil.copyfile(report, reports / f"self-test-{exe_base}.json")
        pins = locked_versions()
        frozen_versions = results[cfg.CLI_NAME].get("versions") or {}
        for key, dist_name in LOCKED_PACKAGES.items():
            got, want = frozen_versions.get(key), pins.get(dist_name, set())
            c.check(got in want, f"frozen {key} {got} is the locked version {sorted(want)} ({LOCK.name})")
        startup = results[cfg.GUI_NAME].get("startup_seconds")
        c.check(isinstance(startup, (int, float)) and startup <= args.startup_budget,
                f"{cfg.GUI_NAME} start-up to window shown {startup} s <= {args.startup_budget:g} s")  # fmt: skip
        summary["self_tests"] = results
        r = subprocess.run([str(copy / cfg.exe_name(cfg.CLI_NAME)), "--version"], env=env, cwd=parent,
                           capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=120)  # fmt: skip
        c.check(r.returncode == 0 and version in r.stdout, f"onnxpack --version -> {r.stdout.strip()!r}")

        # The main job, as a release manager runs it: bundle the sample, then verify the bundle with a smoke run.
        cli_copy = str(copy / cfg.exe_name(cfg.CLI_NAME))
        out = parent / "bundle out 出力"
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        rc, output = _run([cli_copy, "bundle", "-o", str(out), "--version", "1.0.0", "--json"], env, parent,
                          args.timeout)  # fmt: skip
        bundle_doc = _json_of(output)
        zips = sorted(out.glob("*.zip"))
        ok = c.check(rc == 0 and len(zips) == 1,
                     f"onnxpack bundle (the sample) exit {rc} -> {[z.name for z in zips]}, "
                     f"{time.perf_counter() - start:.1f} s")  # fmt: skip
        if not ok:
            print(output[-4000:], flush=True)
        if ok:
            check_load_cost(c, bundle_doc)
        if zips:
            start = time.perf_counter()
            rc, output = _run([cli_copy, "verify", str(zips[0]), "--smoke", "--json"], env, parent, args.timeout)
            verify_doc = _json_of(output)
            if not c.check(rc == 0, f"onnxpack verify --smoke {zips[0].name} exit {rc}, "
                                    f"{time.perf_counter() - start:.1f} s"):  # fmt: skip
                print(output[-4000:], flush=True)
            if reports is not None:
                for name, doc in (("bundle.json", bundle_doc), ("verify.json", verify_doc)):
                    (reports / name).write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")
        shutil.rmtree(out, ignore_errors=True)
        # The sample the app ships, converted to ORT format and proven on the onnxruntime the app carries.
        sample = shipped_sample(copy)
        if c.check(sample is not None, f"the app ships the sample model ({sample})"):
            assert sample is not None
            ort_doc = check_ort(c, [cli_copy], sample, parent, env, args.timeout)
            prove_doc = check_prove(c, [cli_copy], sample, frozen_versions.get("onnxruntime"), parent, env,
                                    args.timeout)
            if reports is not None:
                for name, doc in (("ort.json", ort_doc), ("check-prove.json", prove_doc)):
                    (reports / name).write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")

        if wine is not None:  # a Windows without the VC++ redistributable: Wine's built-in copies switched off
            report = parent / "self-test no-vcruntime.json"
            no_vc_env = {**env, "WINEDLLOVERRIDES": cfg.WINE_VC_RUNTIME_OFF}
            rc, doc, output = _self_test(copy / cfg.exe_name(cfg.GUI_NAME), report, no_vc_env, parent, args.timeout)
            if not c.check(rc == 0 and doc.get("ok") is True,
                           f"{cfg.GUI_NAME} --self-test with WINEDLLOVERRIDES={cfg.WINE_VC_RUNTIME_OFF}: exit {rc}, "
                           f"ok={doc.get('ok')}"):  # fmt: skip
                print(output, flush=True)
            summary["self_test_without_vc_runtime"] = doc
            if reports is not None and report.is_file():
                shutil.copyfile(report, reports / "self-test-no-vcruntime.json")
    finally:
        if own_tmp is not None:
            shutil.rmtree(own_tmp, ignore_errors=True)

    if args.zip is not None and not c.failed:
        digest = zip_folder(dist, args.zip.resolve())
        summary["zip"] = {"path": str(args.zip), "sha256": digest, "bytes": args.zip.stat().st_size}
        print(f"      {args.zip} ({args.zip.stat().st_size / MIB:.1f} MiB) sha256 {digest}", flush=True)
    summary["failed"] = c.failed
    if args.summary is not None:
        args.summary.write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
    print("frozen build checks passed" if not c.failed else f"frozen build checks FAILED ({len(c.failed)})")
    return 0 if not c.failed else 1


if __name__ == "__main__":
    sys.exit(main())
