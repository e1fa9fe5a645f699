"""Issue 39's "Done when" re-run: hostile ``--target-app`` files, a hostile package index on 127.0.0.1 and
``--fix-ir`` mutants, each run through the real command line in a child process of its own.

    nice -n 19 .venv/bin/python -m benchmarks.fuzz_campaign39 --target-app 150 --index 57 --fix-ir 800 --jobs 2

Every run has a timeout (``--timeout``, 60 s: past it the run is a hang and its process group is killed) and its peak
memory is measured (``/usr/bin/time -f %M``: the largest RSS of the child and any child it waited for); a run over
1 GiB beyond the control run's peak (plus three times the input's size) is over the memory cap. Exit status 3 or a
traceback anywhere in the output is an internal error. Wrong results:

* ``--target-app``: files built with a known answer (the real dependency among decoys: comments, ``Condition``s that
  are false, environment markers no target meets, multi-line strings, look-alike packages, older releases) must
  derive that release (the minor in ``check --json``'s ``target.target_ort`` and the full version on stderr);
* the index: the official wheels of ORT 1.16.3 and numpy (from the local cache, their SHA-256 in the committed table)
  served over plain HTTP on 127.0.0.1 (the child loosens ``core.runtime.fetch.POLICY`` in-process, as the tests do:
  plain http to 127.0.0.1 with short deadlines); a forged "onnxruntime" re-exports the real one from this virtualenv
  and touches a marker: any ``bundle --prove-ort 1.16.3`` exit 0 while the index served a forged file is a forged
  proof, any marker is code execution; the cache's size after each run is reported;
* ``--fix-ir``: ``bundle --target-ort X --fix-ir`` exit 0 with a bundle ``verify`` rejects, or (target 1.16) a
  bundle whose manifest says ``target_ok`` that ORT 1.16.3 (the cached release environment) refuses to load.

Every bad case is listed with the command that reproduces it; ``--keep DIR`` keeps their inputs (default: a folder in
the system's temporary folder, printed at the end).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GIB = 1 << 30
ORT_OLD = "1.16.3"


# ------------------------------------------------------------------------------------------------ child side


def _child(argv: list[str]) -> int:
    """``--child cli ARGS``: onnxpack's command line (POLICY loosened when C39_LOOSE=1).
    ``--child fixir MODEL OUT TARGET RESULT``: bundle --fix-ir, then verify the bundle it wrote, in one process."""
    mode, *rest = argv
    if os.environ.get("C39_LOOSE") == "1":
        from onnxpack.core.runtime import fetch

        fetch.POLICY = fetch.Policy(schemes=frozenset({"http", "https"}), hosts=frozenset({"127.0.0.1"}),
                                    read_timeout=5.0, json_deadline=20.0, wheel_deadline=40.0)
    from onnxpack.cli import main

    if mode == "cli":
        return int(main(rest))
    model, out, target, result = rest
    import resource

    t0 = time.monotonic()
    rc = int(main(["bundle", model, "-o", out, "--version", "1.0.0", "--target-ort", target, "--fix-ir", "-q"]))
    doc: dict[str, Any] = {"bundle": rc, "bundle_s": time.monotonic() - t0,
                           "bundle_peak_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}
    zips = sorted(Path(out).glob("*.zip"))
    if rc == 0 and zips:
        t0 = time.monotonic()
        doc["verify"] = int(main(["verify", str(zips[0]), "-q"]))
        doc["verify_s"] = time.monotonic() - t0
        doc["zip"] = str(zips[0])
    Path(result).write_text(json.dumps(doc), encoding="utf-8")
    return 0


# ------------------------------------------------------------------------------------------------ running


@dataclass
class Run:
    surface: str
    label: str
    cmd: list[str]
    rc: int | None = None
    seconds: float = 0.0
    peak_kib: int = 0
    hung: bool = False
    internal: bool = False
    wrong: str = ""
    over: bool = False
    note: str = ""
    input_bytes: int = 0
    out: str = ""
    err: str = ""


def run_child(run: Run, timeout: float, env: dict[str, str] | None = None, cwd: Path | None = None) -> Run:
    fd, tfile = tempfile.mkstemp(prefix="c39time")
    os.close(fd)
    full = ["/usr/bin/time", "-f", "%M", "-o", tfile, sys.executable, "-m", "benchmarks.fuzz_campaign39", "--child",
            *run.cmd]
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    e.update(env or {})
    start = time.monotonic()
    proc = subprocess.Popen(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, cwd=cwd or ROOT,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        run.hung = True
    run.seconds = time.monotonic() - start
    run.rc = None if run.hung else proc.returncode
    err_text = err.decode("utf-8", "replace")
    run.out = out.decode("utf-8", "replace")[-200_000:]
    run.err = err_text if len(err_text) <= 40_000 else err_text[:20_000] + "\n…\n" + err_text[-20_000:]
    try:
        text = Path(tfile).read_text().strip().splitlines()
        run.peak_kib = int(text[-1]) if text and text[-1].isdigit() else 0
    except OSError:
        pass
    os.unlink(tfile)
    run.internal = run.rc == 3 or "Traceback (most recent call last)" in run.out + run.err
    return run


def repro(run: Run, env: dict[str, str] | None = None) -> str:
    pre = " ".join(f"{k}={shlex.quote(v)}" for k, v in (env or {}).items())
    return (f"cd {ROOT} && {pre + ' ' if pre else ''}PYTHONPATH=. .venv/bin/python -m benchmarks.fuzz_campaign39 "
            f"--child {shlex.join(run.cmd)}")


# ------------------------------------------------------------------------------------------------ --target-app

RELEASES = ["1.14.1", "1.15.1", "1.16.3", "1.17.1", "1.17.3", "1.18.0", "1.18.1", "1.19.2", "1.20.1", "1.21.0",
            "1.22.0"]
OLD = ["1.10.0", "1.11.0", "1.12.1", "1.13.1"]  # decoys: older than any answer, so a decoy taken would win
CRATES = {"2.0.0-rc.4": "1.18.1", "2.0.0-rc.6": "1.19.2", "2.0.0-rc.9": "1.20.0", "2.0.0-rc.10": "1.22.0",
          "2.0.0-rc.11": "1.23.2", "1.16.2": "1.16.0", "2.0.0-alpha.3": "1.16.3"}


def _j(doc: Any) -> str:
    return json.dumps(doc, indent=2)


def _known_answer(rnd: random.Random) -> tuple[str, str, str]:
    """(file name, text, expected version) with decoys around the real dependency."""
    v = rnd.choice(RELEASES)
    old = rnd.choice(OLD)
    kind = rnd.choice(["req", "pyproject", "uv", "cargo", "nuget", "csproj", "props", "npm", "pkgjson", "poetry"])
    pad = "\n" * rnd.randint(0, 50)
    if kind == "req":
        decoys = [f"# onnxruntime=={old}", f"onnxruntime=={old}; python_version < '3'",
                  f"onnxruntime-extensions=={old}", f"onnx=={old}", f"#onnxruntime=={old}",
                  f"numpy  # onnxruntime=={old}", f"onnxruntime=={old} ; sys_platform == 'os2'", "-r other.txt",
                  f"--index-url https://x/{old}"]
        real = rnd.choice([f"onnxruntime=={v}", f"onnxruntime>={v}", f"onnxruntime-gpu=={v} --hash=sha256:ab",
                           f"onnxruntime ~= {v}", f"ONNXRuntime_GPU>={v},<9", f"onnxruntime \\\n  =={v}"])
        lines = [*rnd.sample(decoys, rnd.randint(1, len(decoys))), real]
        rnd.shuffle(lines)
        return "requirements.txt", pad + "\r\n".join(lines) if rnd.random() < .2 else pad + "\n".join(lines) + "\n", v
    if kind == "pyproject":
        text = (f'[project]\nname = "app"\ndescription = """\nonnxruntime=={old}\n"""\n'
                f'dependencies = ["numpy", "onnxruntime>={v}", "onnxruntime-extensions=={old}"]\n'
                f'[project.optional-dependencies]\nold = ["onnxruntime=={old}; python_version < \'3\'"]\n'
                f'[tool.other]\nx = "onnxruntime=={old}"\n')
        return "pyproject.toml", pad + text, v
    if kind == "poetry":
        text = (f'[tool.poetry.dependencies]\npython = "^3.10"\nonnxruntime = {{version = "^{v}", optional = true}}\n'
                f'onnxruntime-extensions = "{old}"\n# onnxruntime = "{old}"\n')
        return "pyproject.toml", pad + text, v
    if kind == "uv":
        text = (f'version = 1\n{pad}[[package]]\nname = "onnxruntime-extensions"\nversion = "{old}"\n\n'
                f'[[package]]\nname = "onnxruntime"\nversion = "{v}"\ndescription = """\n[[package]]\n'
                f'name = "onnxruntime"\nversion = "{old}"\n"""\n')
        return "uv.lock", text, v
    if kind == "cargo":
        crate = rnd.choice(sorted(CRATES))
        text = (f'version = 3\n{pad}[[package]]\nname = "ort-fake"\nversion = "1.13.0"\n\n[[package]]\nname = "x"\n'
                f'version = "1.0.0"\ndescription = """\n[[package]]\nname = "ort"\nversion = "1.14.0"\n"""\n\n'
                f'[[package]]\nname = "ort"\nversion = "{crate}"\n')
        return "Cargo.lock", text, CRATES[crate]
    if kind == "nuget":
        deps = {"net8.0": {"Microsoft.ML.OnnxRuntime.Extensions": {"type": "Direct", "resolved": old},
                           "Microsoft.ML.OnnxRuntime": {"type": "Direct", "requested": f"[{old}, )", "resolved": v}}}
        return "packages.lock.json", _j({"version": 1, "description": f"Microsoft.ML.OnnxRuntime {old}",
                                         "dependencies": deps}), v
    if kind in ("csproj", "props"):
        tag = "PackageReference" if kind == "csproj" else "PackageVersion"
        items = [f'<!-- <{tag} Include="Microsoft.ML.OnnxRuntime" Version="{old}" /> -->',
                 f'<{tag} Include="Microsoft.ML.OnnxRuntime" Version="{old}" Condition="false" />',
                 f"<{tag} Include=\"Microsoft.ML.OnnxRuntime\" Version=\"{old}\" Condition=\"'a' == 'b'\" />",
                 f'<{tag} Include="Microsoft.ML.OnnxRuntimeGenAI" Version="{old}" />',
                 f'<{tag} Include="Microsoft.ML.OnnxRuntime.Gpu" Version="[{v}]" />']
        rnd.shuffle(items)
        name = "App.csproj" if kind == "csproj" else "Directory.Packages.props"
        text = (f'<Project Sdk="Microsoft.NET.Sdk">{pad}<ItemGroup Condition=" false ">\n<{tag} '
                f'Include="Microsoft.ML.OnnxRuntime" Version="{old}" /></ItemGroup>\n<ItemGroup>\n'
                + "\n".join(items) + "\n</ItemGroup>\n</Project>\n")
        return name, text, v
    if kind == "npm":
        return "package-lock.json", _j({"lockfileVersion": 3, "name": f"onnxruntime-web {old}", "packages": {
            "": {"dependencies": {"onnxruntime-web": f"^{old}"}}, "node_modules/onnxruntime-web-fake": {"version": old},
            "node_modules/onnxruntime-web": {"version": v}}}), v
    return "package.json", _j({"name": "app", "description": f"onnxruntime-node {old}", "dependencies": {
        "onnxruntime-node": rnd.choice([f"^{v}", f">={v} <2", f"~{v}", v, f"{v} || ^{v}"]),
        "onnxruntime-node-fake": old}, "scripts": {"x": f"npm i onnxruntime-node@{old}"}}), v


def _sparse(size: int) -> Callable[[Path], None]:
    def make(p: Path) -> None:
        with open(p, "wb") as f:
            f.truncate(size)
    return make


def _hostile_cases() -> list[tuple[str, str, Any, str | None]]:
    """(label, file name, text / bytes / maker, expected version when the file still names one by construction)."""
    d = "9" * 5000
    cases: list[tuple[str, str, Any, str | None]] = [
        ("dev-zero", "Cargo.lock", lambda p: p.symlink_to("/dev/zero"), None),
        ("dev-urandom", "requirements.txt", lambda p: p.symlink_to("/dev/urandom"), None),
        ("fifo", "Cargo.lock", lambda p: os.mkfifo(p), None),
        ("fifo-npm", "package-lock.json", lambda p: os.mkfifo(p), None),
        ("socket-ish-proc", "requirements.txt", lambda p: p.symlink_to("/proc/self/status"), None),
        ("symlink-loop", "uv.lock", lambda p: p.symlink_to(p), None),
        ("dangling", "uv.lock", lambda p: p.symlink_to(p.parent / "nowhere"), None),
        ("huge-sparse-1g", "Cargo.lock", _sparse(1 << 30), None),
        ("huge-sparse-npm", "package-lock.json", _sparse(3 << 30), None),
        ("just-over-cap-req", "requirements.txt", _sparse((4 << 20) + 1), None),
        ("json-deep", "package-lock.json", "[" * 100_000 + "]" * 100_000, None),
        ("json-deep-obj", "packages.lock.json", '{"a":' * 100_000 + "1" + "}" * 100_000, None),
        ("toml-deep", "uv.lock", "a = " + "[" * 50_000 + "]" * 50_000 + "\n", None),
        ("toml-deep-inline", "pyproject.toml", "a = " + "{b=" * 30_000 + "1" + "}" * 30_000 + "\n", None),
        ("toml-huge-int", "Cargo.lock", "a = 1" + d + "\n", None),
        ("json-huge-int", "package.json", '{"x": 1' + d + ', "dependencies": {"onnxruntime-node": "1.18.0"}}',
         "1.18.0"),
        ("digits-req", "requirements.txt", f"onnxruntime==1.{d}\n", None),
        ("digits-uv", "uv.lock", f'[[package]]\nname = "onnxruntime"\nversion = "1.{d}"\n', None),
        ("digits-csproj", "App.csproj", f'<Project><ItemGroup><PackageReference Include="Microsoft.ML.OnnxRuntime" '
                                        f'Version="1.{d}" /></ItemGroup></Project>', None),
        ("digits-nuget", "packages.lock.json", _j({"dependencies": {"net8.0": {"Microsoft.ML.OnnxRuntime": {
            "resolved": f"{d}.1"}}}}), None),
        ("digits-npm", "package-lock.json", _j({"packages": {"node_modules/onnxruntime-web": {"version": f"1.{d}.0"}}}),
         None),
        ("digits-pkgjson", "package.json", _j({"dependencies": {"onnxruntime-node": f"^1.{d}"}}), None),
        ("digits-poetry", "pyproject.toml", f'[tool.poetry.dependencies]\nonnxruntime = "^1.{d}"\n', None),
        ("digits-cargo", "Cargo.lock", f'[[package]]\nname = "ort"\nversion = "2.{d}"\n', None),
        ("xml-entities", "App.csproj", '<?xml version="1.0"?>\n<!DOCTYPE p [<!ENTITY a "1.10.0">]>\n<Project>'
                                       '<ItemGroup><PackageReference Include="Microsoft.ML.OnnxRuntime" '
                                       'Version="&a;" /></ItemGroup></Project>', None),
        ("xml-billion-laughs", "App.csproj", '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
                                             + "".join(f'<!ENTITY {chr(98 + i)} "' + f"&{chr(97 + i)};" * 10 + '">'
                                                       for i in range(9))
                                             + "]><Project>&j;</Project>", None),
        ("xml-xxe", "App.csproj", '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY x SYSTEM "file:///dev/zero">]>'
                                  "<Project>&x;</Project>", None),
        ("xml-deep", "App.csproj", "<a>" * 500_000 + "</a>" * 500_000, None),
        ("xml-deep-ok", "App.csproj", "<Project>" + "<ItemGroup>" * 1000 + '<PackageReference Include="Microsoft.ML.'
                                      'OnnxRuntime" Version="1.19.2" />' + "</ItemGroup>" * 1000 + "</Project>",
         "1.19.2"),
        ("xml-huge-text", "App.csproj", "<Project><ItemGroup><PackageReference Include=\"Microsoft.ML.OnnxRuntime\">"
                                        "<Version>" + " " * 3_000_000 + "1.17.1</Version></PackageReference>"
                                        "</ItemGroup></Project>", None),
        ("xml-many-attrs", "App.csproj", "<Project " + " ".join(f'a{i}="x"' for i in range(100_000)) + "/>", None),
        ("xml-broken", "App.csproj", "<Project><ItemGroup>", None),
        ("xml-utf16", "App.csproj", lambda p: p.write_bytes(
            '<?xml version="1.0" encoding="utf-16"?><Project><ItemGroup><PackageReference Include="Microsoft.ML.'
            'OnnxRuntime" Version="1.20.1" /></ItemGroup></Project>'.encode("utf-16")), None),
        ("xml-condition-huge", "App.csproj", '<Project><ItemGroup><PackageReference Include="Microsoft.ML.OnnxRuntime"'
                                             " Version=\"1.18.1\" Condition=\"'" + " " * 1_000_000 + "a' == 'a'\" />"
                                             "</ItemGroup></Project>", "1.18.1"),
        ("props-recursive-property", "Directory.Packages.props", "<Project><PropertyGroup><A>$(B)</A><B>$(A)</B>"
                                     '</PropertyGroup><ItemGroup><PackageVersion Include="Microsoft.ML.OnnxRuntime" '
                                     'Version="$(A)" /></ItemGroup></Project>', None),
        ("not-utf8", "requirements.txt", b"onnxruntime==1.20.1\n\xff\xfe\n", None),
        ("nul-bytes", "requirements.txt", b"onnxruntime==1.20.1\n\x00\x00\x00\n", "1.20.1"),
        ("bom", "requirements.txt", "\ufeffonnxruntime==1.20.1\n", "1.20.1"),
        ("utf16-req", "requirements.txt", "onnxruntime==1.20.1\n".encode("utf-16"), None),
        ("many-ort-lines", "requirements.txt", "".join(f"onnxruntime=={i}.0\n" for i in range(1, 400)), None),
        ("many-ort-names", "requirements.txt", "onnxruntime\n" * 300_000, None),
        ("4mib-noise-req", "requirements.txt", "numpy==1.0\n" * 380_000 + "onnxruntime==1.17.1\n", "1.17.1"),
        ("long-marker", "requirements.txt", "onnxruntime==1.19.2; " + " or ".join(["python_version < '3'"] * 5000)
         + "\n", None),
        ("continuations", "requirements.txt", "onnxruntime \\\n" + " \\\n" * 200_000 + ">=1.17.3\n", "1.17.3"),
        # regular-expression backtracking (found by this campaign): whitespace runs in requirements, blank lines in
        # TOML lock files before the answer
        ("req-spaces-200k", "requirements.txt", "onnxruntime==1.20.1\n" + " " * 200_000 + "x\n", "1.20.1"),
        ("req-tabs-200k", "requirements.txt", "onnxruntime==1.20.1\n" + "\t" * 200_000 + "\n", "1.20.1"),
        ("req-spaces-option", "requirements.txt", "onnxruntime==1.20.1" + " " * 200_000 + "-\n", None),
        ("uv-blank-lines-1m", "uv.lock", "version = 1\n" + "\n" * 1_000_000 + '[[package]]\nname = "onnxruntime"\n'
                                         'version = "1.20.1"\n', "1.20.1"),
        ("cargo-blank-lines-1m", "Cargo.lock", "version = 3\n" + "\n" * 1_000_000 + '[[package]]\nname = "ort"\n'
                                               'version = "2.0.0-rc.10"\n', "1.22.0"),
        ("cargo-spaces-lines", "Cargo.lock", "version = 3\n" + " \n" * 500_000 + '[[package]]\nname = "ort"\n'
                                             'version = "2.0.0-rc.10"\n', "1.22.0"),
        ("nuget-many-frameworks", "packages.lock.json", _j({"version": 1, "dependencies": {
            f"net{i}.0": {"Microsoft.ML.OnnxRuntime": {"resolved": "1.17.1"}} for i in range(30_000)}}), "1.17.1"),
        ("nuget-whitespace", "packages.lock.json", '{"dependencies": {"net8.0": {"Microsoft.ML.OnnxRuntime"'
                                                   + " " * 3_000_000 + ': {"resolved": "1.17.1"}}}}', "1.17.1"),
        ("npm-many-packages", "package-lock.json", _j({"packages": {f"node_modules/p{i}": {"version": "1.0.0"}
                                                                     for i in range(200_000)}}), None),
        ("pkgjson-many-ranges", "package.json", _j({"dependencies": {"onnxruntime-node": " || ".join(
            ["^1.18.0"] * 100_000)}}), "1.18.0"),
        ("pkgjson-spaces", "package.json", _j({"dependencies": {"onnxruntime-node": " " * 2_000_000 + "1.18.0"}}),
         None),
        ("json-shape-list", "package-lock.json", "[1, 2]", None),
        ("json-shape-deps-list", "packages.lock.json", _j({"dependencies": ["x"]}), None),
        ("json-shape-framework-str", "packages.lock.json", _j({"dependencies": {"net8.0": "x"}}), None),
        ("json-shape-packages-str", "package-lock.json", _j({"packages": "x"}), None),
        ("json-shape-version-num", "package-lock.json", _j({"packages": {"node_modules/onnxruntime-node":
                                                                         {"version": 5}}}), None),
        ("json-nan", "package.json", '{"dependencies": {"onnxruntime-node": NaN}}', None),
        ("json-dup-keys", "package.json", '{"dependencies": {"onnxruntime-node": "1.10.0"}, '
                                          '"dependencies": {"onnxruntime-node": "1.20.1"}}', "1.20.1"),
        ("toml-package-str", "Cargo.lock", 'package = "ort"\n', None),
        ("toml-package-tables-of-ints", "uv.lock", "[[package]]\nname = 5\nversion = 6\n", None),
        ("pyproject-project-str", "pyproject.toml", 'project = "x"\n', None),
        ("pyproject-deps-dict", "pyproject.toml", '[project]\ndependencies = {a = 1}\n', None),
        ("poetry-list-spec", "pyproject.toml", '[tool.poetry.dependencies]\nonnxruntime = [{version = "1.18.0", '
                                               'python = "<3.12"}, {version = "1.20.1", python = ">=3.12"}]\n',
         "1.18.0"),
        ("poetry-weird", "pyproject.toml", '[tool.poetry]\ndependencies = 5\ngroup = []\n', None),
        ("cargo-toml", "Cargo.toml", '[dependencies]\nort = "2"\n', None),
        ("empty", "requirements.txt", "", None),
        ("folder-named-lock", "Cargo.lock", lambda p: p.mkdir(), None),
        ("unknown-name", "deps.txt", "onnxruntime==1.20.1\n", None),
    ]
    return cases


def _folder_cases(rnd: random.Random) -> list[tuple[str, Callable[[Path], None], str | None]]:
    def many(p: Path) -> None:
        p.mkdir()
        for i in range(3000):
            (p / f"d{i}").mkdir()
            if i % 100 == 0:
                (p / f"d{i}" / "requirements.txt").write_text("numpy\n")
        (p / "requirements.txt").write_text("onnxruntime==1.19.2\n")

    def deep(p: Path) -> None:
        q = p
        for _ in range(60):
            q = q / "d"
        q.mkdir(parents=True)
        (q / "Cargo.lock").write_text('[[package]]\nname = "ort"\nversion = "1.14.0"\n')
        (p / "requirements.txt").write_text("onnxruntime==1.19.2\n")

    def hostile_first(p: Path) -> None:  # a more trusted, unreadable file must be skipped, not waited on
        p.mkdir()
        os.mkfifo(p / "Cargo.lock")
        (p / "package-lock.json").symlink_to("/dev/zero")
        (p / "uv.lock").write_text("a = " + "[" * 50_000)
        (p / "requirements.txt").write_text("onnxruntime==1.19.2\n")

    def loop(p: Path) -> None:
        p.mkdir()
        (p / "sub").mkdir()
        (p / "sub" / "loop").symlink_to(p)
        (p / "sub" / "requirements.txt").write_text("onnxruntime==1.18.1\n")

    return [("folder-3000-dirs", many, "1.19.2"), ("folder-deep", deep, "1.19.2"),
            ("folder-hostile-first", hostile_first, "1.19.2"), ("folder-symlink-loop", loop, "1.18.1")]


def _mutate_text(text: str, rnd: random.Random) -> str:
    b = bytearray(text.encode("utf-8"))
    for _ in range(rnd.randint(1, 4)):
        op = rnd.randrange(6)
        i = rnd.randrange(len(b) + 1)
        if op == 0 and b:
            b[min(i, len(b) - 1)] ^= 1 << rnd.randrange(8)
        elif op == 1:
            b[i:i] = rnd.choice([b"9" * 5000, b"[" * 5000, b"{" * 5000, b"<a>" * 3000, b'"', b"\\", b"\n" * 50_000,
                                 b" " * 50_000, b"\x00", b"]]]", b'"""', b"<!--", b"#", b";", b"$(", b"||"])
        elif op == 2:
            del b[i:i + rnd.randint(1, 50)]
        elif op == 3 and b:
            j = rnd.randrange(len(b))
            b[i:i] = b[j:j + rnd.randint(1, 200)] * rnd.randint(1, 20)
        elif op == 4:
            b = b[:i]
        else:
            b[i:i] = text.encode()
    return b.decode("utf-8", "surrogateescape")


def _write(path: Path, content: Any) -> None:
    if callable(content):
        content(path)
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_bytes(content.encode("utf-8", "surrogateescape"))


_DERIVED = re.compile(r"target ONNX Runtime (\S+), from")


def fuzz_target_app(n: int, rnd: random.Random, work: Path, model: Path, timeout: float, pool: ThreadPoolExecutor
                    ) -> list[Run]:
    jobs: list[tuple[Run, str | None]] = []
    hostile = _hostile_cases()
    folders = _folder_cases(rnd)
    n_known = max(0, n - len(hostile) - len(folders)) * 2 // 3
    n_mut = max(0, n - len(hostile) - len(folders) - n_known)
    specs: list[tuple[str, str, Any, str | None]] = list(hostile)
    for i in range(n_known):
        name, text, v = _known_answer(rnd)
        specs.append((f"known-{i}-{name}", name, text, v))
    for i in range(n_mut):
        name, text, _v = _known_answer(rnd)
        specs.append((f"mutant-{i}-{name}", name, _mutate_text(text, rnd), None))
    for label, name, content, expected in specs[: max(0, n - len(folders))]:
        folder = work / "targetapp" / label
        folder.mkdir(parents=True)
        path = folder / name
        _write(path, content)
        size = path.lstat().st_size if path.is_symlink() or not path.is_file() else path.stat().st_size
        run = Run("hostile --target-app files", label, ["cli", "check", str(model), "--target-app", str(path),
                                                        "--json", "-q"], input_bytes=min(size, 64 << 20))
        jobs.append((run, expected))
    for label, make, expected in folders[: n - len(jobs)]:
        path = work / "targetapp" / label
        path.parent.mkdir(parents=True, exist_ok=True)
        make(path)
        jobs.append((Run("hostile --target-app files", label, ["cli", "check", str(model), "--target-app", str(path),
                                                               "--json", "-q"]), expected))

    def one(job: tuple[Run, str | None]) -> Run:
        run, expected = job
        run_child(run, timeout)
        if expected is not None and not run.hung and not run.internal:
            got = _DERIVED.search(run.err)
            try:
                minor = json.loads(run.out)["target"]["target_ort"]
            except (ValueError, KeyError, TypeError):
                minor = None
            want = ".".join(expected.split(".")[:2])
            if run.rc not in (0, 1) or minor != want or got is None or got.group(1) != expected:
                run.wrong = (f"expected ONNX Runtime {expected} (exit 0/1, target {want}); got exit {run.rc}, target "
                             f"{minor}, derived {got.group(1) if got else None}")
        elif expected is None and not run.hung and not run.internal and run.rc not in (0, 1, 2):
            run.note = f"exit {run.rc}"
        return run

    return list(pool.map(one, jobs))


# ------------------------------------------------------------------------------------------------ the index


def _ort_cache() -> Path:
    return Path(os.environ.get("ONNXPACK_CACHE_DIR") or Path.home() / ".cache" / "onnxpack") / "ort-releases"


def _real_wheels() -> dict[str, Path]:
    """The official wheels of ORT 1.16.3 and the numpy the table pins with it, from the local cache, checked against
    the committed table."""
    from onnxpack.core.runtime import releaseenvs

    ort = releaseenvs._known(ORT_OLD, None)
    np_ = releaseenvs._numpy_for(ORT_OLD, None)
    out = {}
    for w in (ort, np_):
        p = _ort_cache() / "wheels" / w.sha256 / w.filename
        if not p.is_file() or hashlib.sha256(p.read_bytes()).hexdigest() != w.sha256:
            raise SystemExit(f"the official wheel {w.filename} is not in {p.parent} (run bundle --prove-ort "
                             f"{ORT_OLD} once with network access)")
        out[w.package] = p
    return out


def _forged_wheel(folder: Path, like: Path, marker: Path, *, pth: bool = False, package: str = "onnxruntime") -> Path:
    """A wheel named like ``like`` whose package touches ``marker`` (and, for onnxruntime, re-exports the real one of
    this virtualenv: a proof that would pass); with ``pth``, a .pth file that touches the marker at any start."""
    import base64
    import sysconfig

    site = sysconfig.get_path("purelib")
    version = like.name.split("-")[1]
    init = (f"import pathlib, sys\npathlib.Path({str(marker)!r}).touch()\n"
            + (f"sys.path.insert(0, {site!r})\ndel sys.modules['onnxruntime']\nimport onnxruntime as _r\n"
               "sys.modules['onnxruntime'] = _r\nglobals().update(_r.__dict__)\n" if package == "onnxruntime" else
               f"sys.path.insert(0, {site!r})\ndel sys.modules['numpy']\nimport numpy as _n\n"
               "sys.modules['numpy'] = _n\n"
               "globals().update(_n.__dict__)\n"))
    dist = f"{package}-{version}.dist-info"
    members = {f"{package}/__init__.py": init}
    if pth:
        members["zz_evil.pth"] = f"import pathlib; pathlib.Path({str(marker)!r}).touch()\n"
    members[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n"
    members[f"{dist}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: c39\nRoot-Is-Purelib: true\nTag: " + \
        "-".join(like.name[:-4].split("-")[-3:]) + "\n"
    record = []
    for path, text in members.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    members[f"{dist}/RECORD"] = "\n".join(record) + f"\n{dist}/RECORD,,\n"
    out = folder / like.name
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w") as zf:
        for path, text in members.items():
            zf.writestr(path, text)
    return out


@dataclass
class Scenario:
    name: str
    setup: Callable[[Any, dict[str, Path], Path, Path], None]  # (index, wheels, cache, marker)
    forged: bool = False  # the index serves a file other than the official one: exit 0 = a forged proof
    legit: bool = False  # control: must succeed
    twice: bool = False  # run bundle twice (the second against a cache the setup's after-hook poisoned)
    after_first: Callable[[Path, Path], None] | None = None


def _doc(files: list[dict[str, Any]], version: str = ORT_OLD) -> bytes:
    return json.dumps({"info": {"name": "onnxruntime"}, "releases": {version: files}}).encode()


def _serve_all(i: Any, wheels: dict[str, Path], ort: Path | None = None, np_: Path | None = None,
               ort_digest: str | None = None) -> None:
    from tests.test_prove_index import sha

    o, n = ort or wheels["onnxruntime"], np_ or wheels["numpy"]
    i.body("/pypi/onnxruntime/json", _doc([{"filename": o.name, "url": f"/files/{o.name}", "packagetype":
                                            "bdist_wheel", "digests": {"sha256": ort_digest or sha(o)}}]))
    i.body("/pypi/numpy/json", json.dumps({"releases": {n.name.split("-")[1]: [
        {"filename": n.name, "url": f"/files/{n.name}", "digests": {"sha256": sha(n)}}]}}).encode())
    i.body(f"/files/{o.name}", o.read_bytes())
    i.body(f"/files/{n.name}", n.read_bytes())


def _index_scenarios() -> list[Scenario]:
    from tests.test_prove_index import _endless, _redirect, _trickle

    DOC = "/pypi/onnxruntime/json"

    def doc(body: bytes) -> Callable[[Any, dict[str, Path], Path, Path], None]:
        def s(i: Any, w: dict[str, Path], c: Path, m: Path) -> None:
            _serve_all(i, w)
            i.body(DOC, body)
        return s

    def raw_doc(data: bytes, then: Any = None) -> Callable[[Any, dict[str, Path], Path, Path], None]:
        def s(i: Any, w: dict[str, Path], c: Path, m: Path) -> None:
            _serve_all(i, w)
            i.raw(DOC, data, then=then)
        return s

    def raw_wheel(data: bytes, then: Any = None) -> Callable[[Any, dict[str, Path], Path, Path], None]:
        def s(i: Any, w: dict[str, Path], c: Path, m: Path) -> None:
            _serve_all(i, w)
            i.raw(f"/files/{w['onnxruntime'].name}", data, then=then)
        return s

    def url(u: Any) -> Callable[[Any, dict[str, Path], Path, Path], None]:
        def s(i: Any, w: dict[str, Path], c: Path, m: Path) -> None:
            _serve_all(i, w)
            i.body(DOC, _doc([{"filename": w["onnxruntime"].name, "url": u}]))
        return s

    def forged(*, pth: bool = False, lie: bool = False, numpy: bool = False
               ) -> Callable[[Any, dict[str, Path], Path, Path], None]:
        def s(i: Any, w: dict[str, Path], c: Path, m: Path) -> None:
            from onnxpack.core.runtime import releaseenvs

            real = w["numpy" if numpy else "onnxruntime"]
            fake = _forged_wheel(c.parent / "forged", real, m, pth=pth, package="numpy" if numpy else "onnxruntime")
            if numpy:
                _serve_all(i, w, np_=fake)
            else:
                _serve_all(i, w, ort=fake, ort_digest=releaseenvs._known(ORT_OLD, None).sha256 if lie else None)
        return s

    def poisoned_wheel_cache(i: Any, w: dict[str, Path], c: Path, m: Path) -> None:
        """The cache already holds, under the official hash's folder and name, a forged wheel."""
        _serve_all(i, w)
        real = w["onnxruntime"]
        fake = _forged_wheel(c.parent / "forged", real, m, pth=True)
        digest = hashlib.sha256(real.read_bytes()).hexdigest()
        (c / "ort-releases" / "wheels" / digest).mkdir(parents=True)
        shutil.copy(fake, c / "ort-releases" / "wheels" / digest / real.name)

    def poison_env(cache: Path, marker: Path) -> None:
        """After a good run: the release environment edited (a .pth and the package's __init__)."""
        for site in (cache / "ort-releases" / "envs").glob("*/lib/python*/site-packages"):
            (site / "zz_evil.pth").write_text(f"import pathlib; pathlib.Path({str(marker)!r}).touch()\n")
            init = site / "onnxruntime" / "__init__.py"
            init.write_text(f"import pathlib; pathlib.Path({str(marker)!r}).touch()\n" + init.read_text())

    def leftovers(i: Any, w: dict[str, Path], c: Path, m: Path) -> None:
        _serve_all(i, w)
        gone = subprocess.Popen([sys.executable, "-c", "pass"])
        gone.wait()
        part = c / "ort-releases" / "wheels" / ("a" * 64) / f".x-1.0-py3-none-any.whl.{gone.pid}.part"
        part.parent.mkdir(parents=True)
        part.write_bytes(b"x" * (8 << 20))
        (c / "ort-releases" / "envs" / f".1.16.3-cp311-x.{gone.pid}.tmp" / "lib").mkdir(parents=True)

    def chunked_endless(wfile: Any) -> None:
        for _ in range(200_000):
            wfile.write(b"10000\r\n" + b"[" * 65536 + b"\r\n")

    def headers_flood(wfile: Any) -> None:
        for n in range(200_000):
            wfile.write(f"X-H{n}: {'a' * 50}\r\n".encode())

    huge_doc = json.dumps({"releases": {f"0.{i}.0": [{"filename": f"x{i}", "url": "/y"}] for i in range(200_000)}
                          | {ORT_OLD: []}}).encode()
    s = Scenario
    return [
        s("control: the official wheels", lambda i, w, c, m: _serve_all(i, w), legit=True),
        s("forged onnxruntime (its own digest)", forged(), forged=True),
        s("forged onnxruntime (the table's digest claimed)", forged(lie=True), forged=True),
        s("forged onnxruntime with a .pth", forged(pth=True), forged=True),
        s("forged numpy with a .pth", forged(pth=True, numpy=True), forged=True),
        s("forged numpy (re-exports the real one)", forged(numpy=True), forged=True),
        # the index serves the official files: the run must succeed on them, never import the cached forgery
        s("forged wheel already in the cache under the official hash", poisoned_wheel_cache, legit=True),
        s("release environment poisoned after a good run", lambda i, w, c, m: _serve_all(i, w), twice=True,
          after_first=poison_env),
        s("leftovers of a killed run in the cache", leftovers, legit=True),
        s("url file:///dev/zero", url("file:///dev/zero")),
        s("url file:///etc/passwd", url("file:///etc/passwd")),
        s("url https://evil.example", url("https://evil.example/x.whl")),
        s("url ftp://127.0.0.1", url("ftp://127.0.0.1/x.whl")),
        s("url data:", url("data:application/zip;base64,UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==")),
        s("url http://127.0.0.2", url("http://127.0.0.2:1/x.whl")),
        s("url 5,000 characters", url("/files/" + "a" * 5000)),
        s("url a number", url(5)),
        s("url ../ traversal on the index", url("/../../../../etc/passwd")),
        s("doc: non-list releases", doc(json.dumps({"releases": {ORT_OLD: "x"}}).encode())),
        s("doc: non-object releases", doc(json.dumps({"releases": [1, 2]}).encode())),
        s("doc: non-object files", doc(json.dumps({"releases": {ORT_OLD: [1, None, "x"]}}).encode())),
        s("doc: non-object digests", doc(_doc([{"filename": "x", "url": "/y", "digests": "abc"}]))),
        s("doc: null", doc(b"null")),
        s("doc: release missing", doc(json.dumps({"releases": {}}).encode())),
        s("doc: deep JSON", doc(b"[" * 200_000 + b"]" * 200_000)),
        s("doc: 5,000-digit version and number", doc(b'{"releases": {"' + b"9" * 5000 + b'": [], "x": '
                                                     + b"9" * 5000 + b"}}")),
        s("doc: not JSON", doc(b"<html>")),
        s("doc: 200,000 releases (9 MB)", doc(huge_doc)),
        s("doc: a bad status line", raw_doc(b"HTTP/1.1 two hundred OK\r\n\r\n{}")),
        s("doc: garbage instead of HTTP", raw_doc(b"\x00\x01garbage\r\n\r\n")),
        s("doc: a dropped connection", raw_doc(b"")),
        s("doc: a cut answer", raw_doc(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"rel")),
        s("doc: Content-Length: abc", raw_doc(b"HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n[1,")),
        s("doc: Content-Length: -5", raw_doc(b"HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n[1,")),
        s("doc: a huge Content-Length", raw_doc(b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n{")),
        s("doc: an endless body", raw_doc(b"HTTP/1.1 200 OK\r\n\r\n", then=_endless)),
        s("doc: an endless chunked body", raw_doc(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                                                  then=chunked_endless)),
        s("doc: endless headers", raw_doc(b"HTTP/1.1 200 OK\r\n", then=headers_flood)),
        s("doc: a 100 KB header line", raw_doc(b"HTTP/1.1 200 OK\r\nX: " + b"a" * 100_000 + b"\r\n\r\n{}")),
        s("doc: gzip-encoded", raw_doc(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\n\r\n\x1f"
                                       b"\x8b\x08\x00")),
        s("doc: 1 byte every 2 s", raw_doc(b"HTTP/1.1 200 OK\r\n\r\n", then=_trickle(2))),
        s("doc: silence", raw_doc(b"HTTP/1.1 200 OK\r\n\r\n", then=_trickle(50))),
        s("doc: 100 Continue then silence", raw_doc(b"HTTP/1.1 100 Continue\r\n\r\n", then=_trickle(50))),
        s("doc: a redirect to file://", raw_doc(_redirect("file:///dev/zero"))),
        s("doc: a redirect elsewhere", raw_doc(_redirect("http://127.0.0.2/x"))),
        s("doc: a redirect loop", raw_doc(_redirect("/pypi/onnxruntime/json"))),
        s("doc: a 500", raw_doc(b"HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n")),
        s("doc: a 404", lambda i, w, c, m: None),
        s("wheel: endless", raw_wheel(b"HTTP/1.1 200 OK\r\n\r\n", then=_endless)),
        s("wheel: 1 byte every 2 s", raw_wheel(b"HTTP/1.1 200 OK\r\n\r\n", then=_trickle(2))),
        s("wheel: cut", raw_wheel(b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\nPK")),
        s("wheel: empty", raw_wheel(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")),
        s("wheel: an HTML page", raw_wheel(b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n<html>")),
        s("wheel: a huge Content-Length", raw_wheel(b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\nPK")),
        s("wheel: a redirect to file:///etc/passwd", raw_wheel(_redirect("file:///etc/passwd"))),
        s("wheel: a redirect elsewhere", raw_wheel(_redirect("https://evil.example/x.whl"))),
        s("wheel: a 404", lambda i, w, c, m: (_serve_all(i, w), i.routes.pop(f"/files/{w['onnxruntime'].name}"))),
    ]


def _du(p: Path) -> int:
    total = 0
    for dirpath, _dirs, files in os.walk(p):
        for f in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(dirpath, f)).st_size
    return total


def fuzz_index(n: int, work: Path, model: Path, timeout: float, pool: ThreadPoolExecutor) -> list[Run]:
    from tests.test_prove_index import FakeIndex

    wheels = _real_wheels()
    scenarios = _index_scenarios()
    scenarios = (scenarios * (n // len(scenarios) + 1))[:n]

    def one(k_sc: tuple[int, Scenario]) -> Run:
        k, sc = k_sc
        base = work / "index" / f"{k:03d}"
        cache, marker, out = base / "cache", base / "ran-code", base / "out"
        cache.mkdir(parents=True)
        idx = FakeIndex()
        try:
            sc.setup(idx, wheels, cache, marker)
            env = {"C39_LOOSE": "1", "ONNXPACK_CACHE_DIR": str(cache), "ONNXPACK_PYPI_URL": idx.url}
            cmd = ["cli", "bundle", str(model), "-o", str(out), "--version", "1.0.0", "--prove-ort", ORT_OLD, "--json",
                   "-q"]
            run = Run("--prove-ort against a hostile index", sc.name, cmd)
            run_child(run, timeout, env)
            if sc.twice and sc.after_first is not None and run.rc == 0 and not run.hung:
                sc.after_first(cache, marker)
                shutil.rmtree(out, ignore_errors=True)
                first = run
                run = Run(run.surface, sc.name, cmd)
                run_child(run, timeout, env)
                run.peak_kib = max(run.peak_kib, first.peak_kib)
                run.seconds += first.seconds
            proof_ok = False
            try:
                doc = json.loads(run.out)
                prove = json.dumps(doc)
                proof_ok = run.rc == 0 and '"prove_ort"' in prove
            except ValueError:
                pass
            wrong = []
            if marker.exists():
                wrong.append("code execution (the forged package's marker file was written)")
            if sc.forged and proof_ok:
                wrong.append("forged proof: bundle exit 0 with --prove-ort while the index served a forged file")
            if sc.legit and run.rc != 0 and not run.hung:
                wrong.append(f"the control failed: exit {run.rc}")
            run.wrong = "; ".join(wrong)
            left = _du(cache)
            run.note = f"cache left {left / 2**20:.1f} MiB; peak {run.peak_kib / 1024:.0f} MiB"
            code = re.search(r'"code":\s*"([A-Z_]+)"', run.out)
            run.note += f"; exit {run.rc} {code.group(1) if code else ''}".rstrip()
            run.input_bytes = 0
            # the reproduction needs the fake index: name the scenario
            run.cmd = ["(scenario)", sc.name, *cmd]
            return run
        finally:
            idx.server.shutdown()
            idx.server.server_close()
            shutil.rmtree(cache / "ort-releases" / "envs", ignore_errors=True)

    return list(pool.map(one, enumerate(scenarios)))


# ------------------------------------------------------------------------------------------------ --fix-ir

_TYPES = ["FLOAT4E2M1", "FLOAT8E8M0", "FLOAT8E4M3FN", "FLOAT8E5M2", "FLOAT8E4M3FNUZ", "INT4", "UINT4", "BFLOAT16",
          "FLOAT16", "STRING", "COMPLEX64", "INT2", "UINT2"]


def _fixir_mutant(rnd: random.Random) -> tuple[Any, str, str]:
    """(model, target, what was done) from the IR-10 torch-like model of tests/test_retarget.py."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    from tests.test_retarget import ir10_model

    m = ir10_model(rnd.choice(["pytorch", "someexporter", ""]))
    did = []
    g = m.graph
    for _ in range(rnd.choice([1, 1, 2, 3])):
        op = rnd.randrange(11)
        if op == 0:  # a metadata flood, torch style
            nodes = rnd.choice([10, 1000, 20_000, 60_000])
            size = rnd.choice([10, 300, 2000]) if nodes <= 20_000 else 300
            last = g.output[0].name
            for k in range(nodes):
                node = helper.make_node("Identity", [last], [f"id{k}"], name=f"id{k}")
                node.metadata_props.add(key="pkg.torch.onnx.stack_trace", value="File m.py, line 1\n" + "s" * size)
                node.metadata_props.add(key=rnd.choice(["namespace", "pkg.torch.onnx.name_scopes", "x" * 50]),
                                        value=f"id{k}")
                g.node.append(node)
                last = f"id{k}"
            g.output[0].name = last
            did.append(f"metadata flood {nodes}x{size}")
        elif op == 1:  # hostile keys and values
            for key in ["", "\n", "é" * 100, "k" * 10_000, "pkg.torch.onnx.stack_trace", "namespace", "\x00",
                        "\ud7ff"]:
                g.node[0].metadata_props.add(key=key, value=rnd.choice(["", "v\n", "\x00", "x" * 100_000]))
            g.metadata_props.add(key="pkg.x", value="y" * rnd.choice([10, 1_000_000]))
            did.append("hostile metadata keys/values")
        elif op == 2:  # a huge doc_string
            where = rnd.choice([m, g, g.node[0]])
            where.doc_string = "d" * rnd.choice([1000, 5_000_000])
            did.append("doc_string")
        elif op == 3:  # an element type the target may not have, in an unused initializer
            t = rnd.choice(_TYPES)
            dt = getattr(TensorProto, t, None)
            if dt is None:
                continue
            init = TensorProto(name=f"u_{t}", data_type=dt, dims=[4])
            if t == "STRING":
                init.string_data.extend([b"a"] * 4)
            elif t in ("INT4", "UINT4", "FLOAT4E2M1"):
                init.raw_data = b"\x00" * 2
            elif t in ("INT2", "UINT2"):
                init.raw_data = b"\x00"
            elif t in ("BFLOAT16", "FLOAT16"):
                init.raw_data = b"\x00" * 8
            elif t == "COMPLEX64":
                init.raw_data = b"\x00" * 32
            else:
                init.raw_data = b"\x00" * 4
            g.initializer.append(init)
            did.append(f"unused initializer {t}")
        elif op == 4:  # a Cast to such a type on the path
            t = rnd.choice(_TYPES[:8])
            dt = getattr(TensorProto, t)
            last = g.output[0].name
            g.node.append(helper.make_node("Cast", [last], [f"c_{t}"], name=f"to_{t}", to=dt))
            g.node.append(helper.make_node("Cast", [f"c_{t}"], [f"b_{t}"], name=f"back_{t}", to=TensorProto.FLOAT))
            g.output[0].name = f"b_{t}"
            did.append(f"Cast via {t}")
        elif op == 5:  # a graph input of such a type passed through to an output (Identity)
            t = rnd.choice(_TYPES)
            dt = getattr(TensorProto, t, None)
            if dt is not None:
                g.input.append(helper.make_tensor_value_info(f"q_{t}", dt, [2]))
                g.node.append(helper.make_node("Identity", [f"q_{t}"], [f"qo_{t}"], name=f"pass_{t}"))
                g.output.append(helper.make_tensor_value_info(f"qo_{t}", dt, [2]))
                did.append(f"input/output {t}")
        elif op == 6:  # declared IR / opset
            m.ir_version = rnd.choice([3, 7, 8, 9, 9, 10, 10, 11, 12])
            m.opset_import[0].version = rnd.choice([13, 17, 19, 19, 20, 20, 21, 22, 23, 24])
            did.append(f"ir {m.ir_version} opset {m.opset_import[0].version}")
        elif op == 7:  # an operator new at a recent opset
            opname, attrs = rnd.choice([("Gelu", {}), ("ReduceMax", {"keepdims": 1}), ("ReduceMin", {"keepdims": 1}),
                                        ("Identity", {}), ("Relu", {}), ("Softmax", {}), ("Shape", {}),
                                        ("IsNaN", {}), ("Mish", {})])
            last = g.output[0].name
            g.node.append(helper.make_node(opname, [last], [f"o_{opname}"], name=f"n_{opname}", **attrs))
            g.output[0].name = f"o_{opname}"
            g.output[0].type.tensor_type.ClearField("shape")
            if opname in ("Shape",):
                g.output[0].type.tensor_type.elem_type = TensorProto.INT64
            if opname == "IsNaN":
                g.output[0].type.tensor_type.elem_type = TensorProto.BOOL
            did.append(f"op {opname}")
        elif op == 8:  # a local function with metadata, and a subgraph with metadata inside
            fnode = helper.make_node("Relu", ["a"], ["b"], name="inner")
            fnode.metadata_props.add(key="pkg.torch.onnx.stack_trace", value="f" * 100)
            fn = helper.make_function("local", "F", ["a"], ["b"], [fnode], [helper.make_opsetid("", 20)])
            m.functions.append(fn)
            m.opset_import.append(helper.make_opsetid("local", 1))
            last = g.output[0].name
            g.node.append(helper.make_node("F", [last], ["f_out"], domain="local", name="call_f"))
            g.output[0].name = "f_out"
            did.append("local function")
        elif op == 9:
            then_n = helper.make_node("Identity", [g.output[0].name], ["t"], name="then_id")
            then_n.metadata_props.add(key="namespace", value="then")
            out_t = helper.make_tensor_value_info("t", TensorProto.FLOAT, [1, 32])
            then_g = helper.make_graph([then_n], "then", [], [out_t])
            then_g.metadata_props.add(key="pkg.g", value="x")
            else_g = helper.make_graph([helper.make_node("Identity", [g.output[0].name], ["e"])], "else", [],
                                       [helper.make_tensor_value_info("e", TensorProto.FLOAT, [1, 32])])
            g.initializer.append(numpy_helper.from_array(np.array(True), "cond"))
            g.node.append(helper.make_node("If", ["cond"], ["if_out"], name="if", then_branch=then_g,
                                           else_branch=else_g))
            g.output[0].name = "if_out"
            did.append("If with metadata")
        else:  # hostile values from tests/fuzz.py
            from tests.fuzz import _structural

            m = _structural(m, rnd)
            g = m.graph
            did.append("structural")
    target = "1.16" if rnd.random() < 0.7 else rnd.choice(["1.14", "1.15", "1.17", "1.18", "1.19", "1.20", "1.21"])
    data = m.SerializeToString()
    if rnd.random() < 0.05:
        from tests.fuzz import _flip

        b = bytearray(data)
        _flip(b, rnd)
        data = bytes(b)
        did.append("bit flip")
    return data, target, ", ".join(did)


_ORT_CHECK = r"""
import sys, json, zipfile, tempfile, os
import onnxruntime as ort
for line in sys.stdin:
    z = line.strip()
    if not z:
        continue
    try:
        with tempfile.TemporaryDirectory() as d:
            with zipfile.ZipFile(z) as zf:
                zf.extractall(d)
                name = json.loads(zf.read("manifest.json"))["files"]
            models = [os.path.join(d, f["path"]) for f in name if f.get("role") == "model"]
            ort.InferenceSession(models[0], providers=["CPUExecutionProvider"])
        print("OK", z, flush=True)
    except Exception as e:
        print("ERR", z, str(e).replace("\n", " ")[:300], flush=True)
"""


def _ort_env_python() -> Path | None:
    envs = sorted((_ort_cache() / "envs").glob(f"{ORT_OLD}-*/bin/python"))
    return envs[0] if envs else None


def fuzz_fix_ir(n: int, rnd: random.Random, work: Path, timeout: float, pool: ThreadPoolExecutor) -> list[Run]:
    jobs = []
    for k in range(n):
        data, target, what = _fixir_mutant(rnd)
        folder = work / "fixir" / f"{k:04d}"
        folder.mkdir(parents=True)
        (folder / "m.onnx").write_bytes(data)
        (folder / "what.txt").write_text(f"{what}\ntarget {target}\n")
        jobs.append((k, folder, target, what, len(data)))

    def one(job: tuple[int, Path, str, str, int]) -> tuple[Run, dict[str, Any]]:
        k, folder, target, what, size = job
        run = Run("--fix-ir mutants", f"{k:04d} ({what}; target {target})",
                  ["fixir", str(folder / "m.onnx"), str(folder / "out"), target, str(folder / "result.json")],
                  input_bytes=size)
        run_child(run, timeout)
        try:
            res = json.loads((folder / "result.json").read_text())
        except (OSError, ValueError):
            res = {}
        run.note = f"bundle exit {res.get('bundle')}, verify exit {res.get('verify')}"
        if res.get("verify") == 3 or res.get("bundle") == 3:
            run.internal = True
        if res.get("bundle") == 0 and res.get("verify") not in (0, None):
            run.wrong = f"bundle exit 0 wrote a bundle that verify rejects (exit {res.get('verify')})"
        res["target"] = target
        return run, res

    out = list(pool.map(one, jobs))
    # the target's own runtime: every bundle for 1.16 whose manifest says target_ok must load in ORT 1.16.3
    py = _ort_env_python()
    todo = {}
    for run, res in out:
        z = res.get("zip")
        if z and res.get("target") == "1.16" and res.get("verify") == 0:
            with zipfile.ZipFile(z) as zf:
                comp = json.loads(zf.read("manifest.json")).get("compatibility", {})
            if comp.get("target_ok"):
                todo[z] = run
    if py is None:
        print(f"(no ORT {ORT_OLD} environment in the cache: the target-runtime check is skipped)", file=sys.stderr)
        return [r for r, _ in out]
    pending = list(todo)
    while pending:
        proc = subprocess.run([str(py), "-I", "-c", _ORT_CHECK], input="\n".join(pending), capture_output=True,
                              text=True, timeout=3600)
        done = set()
        for line in proc.stdout.splitlines():
            status, z, *msg = line.split(" ", 2)
            done.add(z)
            if status == "ERR":
                todo[z].wrong = (todo[z].wrong + "; " if todo[z].wrong else "") + \
                    f"manifest says target_ok but ORT {ORT_OLD} refuses it: {msg[0] if msg else ''}"
        rest = [z for z in pending if z not in done]
        if rest and proc.returncode != 0:  # the runtime crashed on rest[0]
            todo[rest[0]].wrong += f"; ORT {ORT_OLD} crashed loading it (exit {proc.returncode})"
            rest = rest[1:]
        pending = rest if proc.returncode != 0 else []
    return [r for r, _ in out]


# ------------------------------------------------------------------------------------------------ report


def _baseline(model: Path, timeout: float) -> int:
    r = run_child(Run("baseline", "check", ["cli", "check", str(model), "--json", "-q"]), timeout)
    return r.peak_kib * 1024


def report(runs: list[Run], baselines: dict[str, int], keep: Path) -> int:
    surfaces: dict[str, list[Run]] = {}
    for r in runs:
        base = baselines.get(r.surface, 0)
        r.over = r.peak_kib * 1024 > base + GIB + 3 * r.input_bytes
        surfaces.setdefault(r.surface, []).append(r)
    print("\n| surface | runs | exit 3 | hangs | over memory cap | wrong result |")
    print("|---|---|---|---|---|---|")
    bad = []
    for name, rs in surfaces.items():
        n_runs = sum(2 if r.surface == "--fix-ir mutants" and "verify exit None" not in r.note else 1 for r in rs)
        print(f"| {name} | {n_runs} ({len(rs)} inputs) | {sum(r.internal for r in rs)} | {sum(r.hung for r in rs)} | "
              f"{sum(r.over for r in rs)} | {sum(bool(r.wrong) for r in rs)} |")
        bad += [r for r in rs if r.internal or r.hung or r.over or r.wrong]
    for name, rs in surfaces.items():
        peaks = sorted(r.peak_kib for r in rs if r.peak_kib)
        secs = sorted(r.seconds for r in rs)
        if peaks:
            print(f"  {name}: peak RSS median {peaks[len(peaks) // 2] / 1024:.0f} MiB, max {peaks[-1] / 1024:.0f} "
                  f"MiB (baseline {baselines.get(name, 0) / 2**20:.0f} MiB); seconds median {secs[len(secs) // 2]:.1f}"
                  f", max {secs[-1]:.1f}")
    index_runs = surfaces.get("--prove-ort against a hostile index", [])
    if index_runs:
        print("\nindex scenarios (each: bundle --prove-ort 1.16.3 against a fake index on 127.0.0.1):")
        for r in index_runs:
            print(f"  {r.label}: {r.seconds:.1f} s; {r.note}{'; WRONG: ' + r.wrong if r.wrong else ''}")
    fix = [r.note for r in surfaces.get("--fix-ir mutants", [])]
    if fix:
        counts: dict[str, int] = {}
        for note in fix:
            counts[note] = counts.get(note, 0) + 1
        print("\n--fix-ir outcomes: " + "; ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    print(f"\nbad cases: {len(bad)} (inputs kept under {keep})")
    for r in bad:
        what = ", ".join(w for w, on in (("EXIT 3/TRACEBACK", r.internal), ("HANG", r.hung), ("OVER MEMORY", r.over))
                         if on)
        print(f"- [{r.surface}] {r.label}: {what}{'; ' if what and r.wrong else ''}{r.wrong}")
        print(f"    exit {r.rc}, {r.seconds:.1f} s, peak {r.peak_kib / 1024:.0f} MiB; {r.note}")
        if r.cmd and r.cmd[0] == "(scenario)":
            print(f"    reproduce: .venv/bin/python -m benchmarks.fuzz_campaign39 --index-only {shlex.quote(r.cmd[1])}")
        else:
            print(f"    reproduce: {repro(r)}")
        tail = (r.err.strip().splitlines() or [""])[-1][:300]
        if tail:
            print(f"    stderr: {tail}")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return _child(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target-app", type=int, default=150)
    ap.add_argument("--index", type=int, default=len(_index_scenarios()),
                    help="index runs: the scenarios in order, cycled when more are asked (default: each once)")
    ap.add_argument("--fix-ir", type=int, default=800)
    ap.add_argument("--index-only", metavar="SCENARIO", help="run the one index scenario of that name")
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", type=Path)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tests.factory import add_model

    work = args.keep or Path(tempfile.mkdtemp(prefix="campaign39-"))
    work.mkdir(parents=True, exist_ok=True)
    model = work / "model.onnx"
    model.write_bytes(add_model().SerializeToString())
    rnd = random.Random(args.seed)
    runs: list[Run] = []
    baselines: dict[str, int] = {}
    started = time.monotonic()
    with ThreadPoolExecutor(args.jobs) as pool:
        base = _baseline(model, args.timeout)
        if args.index_only:
            only = [s for s in _index_scenarios() if s.name == args.index_only]
            if not only:
                raise SystemExit(f"no scenario {args.index_only!r}")
            import benchmarks.fuzz_campaign39 as me

            me._index_scenarios = lambda: only  # type: ignore[attr-defined]
            args.index, args.target_app, args.fix_ir = 1, 0, 0
        if args.target_app:
            baselines["hostile --target-app files"] = base
            runs += fuzz_target_app(args.target_app, rnd, work, model, args.timeout, pool)
            print(f"--target-app: {args.target_app} runs, {time.monotonic() - started:.0f} s", file=sys.stderr)
        if args.index:
            baselines["--prove-ort against a hostile index"] = base
            runs += fuzz_index(args.index, work, model, args.timeout, pool)
            print(f"index: {args.index} runs, {time.monotonic() - started:.0f} s", file=sys.stderr)
        if args.fix_ir:
            baselines["--fix-ir mutants"] = base
            runs += fuzz_fix_ir(args.fix_ir, rnd, work, args.timeout, pool)
            print(f"--fix-ir: {args.fix_ir} mutants, {time.monotonic() - started:.0f} s", file=sys.stderr)
    print(f"campaign: seed {args.seed}, timeout {args.timeout:g} s, {args.jobs} at a time, "
          f"{time.monotonic() - started:.0f} s")
    return report(runs, baselines, work)


if __name__ == "__main__":
    raise SystemExit(main())
