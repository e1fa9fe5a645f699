"""Every command's ``--json`` on the real-model corpus with an old and a new commit, normalised and compared (issue 31).

    python benchmarks/compare_versions.py [--old 8fd72b3] [--new HEAD] [--only NAME]... [--max-mb MB]
                                          [--layouts single,external] [--timeout 300] [--jobs 2] [--json FILE]
                                          [--budget-min MIN] [--keep]

The refactor of core/ promised that no command's machine-readable output changes. tests/test_golden_json.py pins that
on a corpus built with onnx.helper; this script checks it on the models nobody here wrote: the corpus of
benchmarks/realmodels.py (its cache only: nothing is downloaded or generated; a model the cache lacks is listed as not
covered).

Both commits run from their own ``git worktree`` (under /work/, removed at the end unless ``--keep``), each imported
through a package of symlinks as tests/test_golden_json.py's docstring describes (``PKG/onnxpack/__init__.py`` empty,
``core``, ``cli``, ``gui``, ``resources`` linked to the worktree, ``PYTHONPATH=PKG``), so neither the checkout's
uncommitted edits nor a stale editable install leak in. ``--new`` is resolved once, at the start (others may commit
during the run).

Per model and layout (``single`` as shipped, ``external``: realmodels.py's external-data copy) each commit runs, in
its own working folder, with SOURCE_DATE_EPOCH fixed:

    onnxpack inspect MODEL --json          onnxpack check MODEL --json        onnxpack smoke MODEL --json
    onnxpack bundle MODEL -o bundle --version 1.0.0 --name NAME --force --json
    onnxpack verify --smoke bundle/NAME-1.0.0.zip --json      (on that commit's own bundle)

The JSON on stdout is normalised by tests/test_golden_json.py's ``normalise`` (imported, not copied: timings, tool
versions, ORT-computed values and the bytes that embed them are dropped); the working folder, the worktree and the
package folder of each commit become placeholders. A case is ``same`` (equal documents and exit statuses),
``both failed the same way`` (equal, exit status not 0), or ``DIFFERENT`` (the first differing JSON path and both
values).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this folder comes first on sys.path, where benchmarks/inspect.py would shadow the standard
# library's inspect module: put the project root there instead (as realmodels.py does).
_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import concurrent.futures  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from dataclasses import asdict, dataclass  # noqa: E402
from typing import Any  # noqa: E402

from benchmarks import realmodels  # noqa: E402
from tests.test_golden_json import _child_env, normalise  # noqa: E402

COMMANDS = ("inspect", "check", "smoke", "bundle", "verify")
MISSING = object()  # a key one document has and the other lacks


# ---------------------------------------------------------------------------------------------- the two commits


@dataclass
class Side:
    """One commit, checked out in a worktree and importable through a package of symlinks."""

    label: str  # "old" / "new"
    commit: str  # full hash
    worktree: Path
    pkg: Path  # PYTHONPATH entry: pkg/onnxpack/{__init__.py, core, cli, gui, resources}

    def env(self) -> dict[str, str]:
        env = _child_env()  # the golden test's: no ONNXPACK_* overrides, SOURCE_DATE_EPOCH, utf-8, offscreen Qt
        env["PYTHONPATH"] = str(self.pkg)
        return env

    def replacements(self, work: Path) -> list[tuple[str, str]]:
        """The folders that differ between the two sides, as placeholders (longest first)."""
        pairs: dict[str, str] = {}
        for path, name in ((work, "<WORK>"), (self.worktree, "<CODE>"), (self.pkg, "<PKG>"),
                           (self.pkg / "onnxpack" / "resources", "<RESOURCES>"),
                           (self.worktree / "resources", "<RESOURCES>")):
            pairs[str(path)] = name
            pairs[str(path.resolve())] = name
        return sorted(pairs.items(), key=lambda p: -len(p[0]))


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(_ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def prepare_side(label: str, rev: str) -> Side:
    """``git worktree add --detach /work/compare-LABEL-SHA SHA`` and the symlink package beside it."""
    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    base = Path("/work") if Path("/work").is_dir() else Path(tempfile.gettempdir())
    worktree = base / f"compare-{label}-{commit[:10]}"
    pkg = base / f"compare-{label}-{commit[:10]}-pkg"
    if worktree.exists():
        if git("-C", str(worktree), "rev-parse", "HEAD") != commit:
            raise RuntimeError(f"{worktree} exists at another commit: remove it first")
    else:
        git("worktree", "add", "--detach", str(worktree), commit)
    (pkg / "onnxpack").mkdir(parents=True, exist_ok=True)
    (pkg / "onnxpack" / "__init__.py").touch()
    for d in ("core", "cli", "gui", "resources"):
        link = pkg / "onnxpack" / d
        if not link.is_symlink():
            link.symlink_to(worktree / d)
    side = Side(label, commit, worktree, pkg)
    # The package must shadow the editable install completely.
    probe = subprocess.run([sys.executable, "-c", "import onnxpack.core, onnxpack.cli; print(onnxpack.core.__file__);"
                            "print(onnxpack.cli.__file__)"], env=side.env(), capture_output=True, text=True,
                           check=True, cwd=tempfile.gettempdir())
    for line in probe.stdout.split():
        if not line.startswith(str(pkg)):
            raise RuntimeError(f"{label}: onnxpack imported from {line}, not from {pkg}")
    return side


def remove_side(side: Side) -> None:
    subprocess.run(["git", "-C", str(_ROOT), "worktree", "remove", "--force", str(side.worktree)], check=False)
    shutil.rmtree(side.pkg, ignore_errors=True)


# ---------------------------------------------------------------------------------------------- running


@dataclass
class Run:
    exit_status: int | None  # None: timed out
    doc: Any  # the normalised JSON document, or {"<not JSON>": stdout tail, "<stderr>": stderr tail}
    seconds: float


def run_one(side: Side, argv: list[str], work: Path, timeout: float) -> Run:
    t0 = time.monotonic()
    try:
        r = subprocess.run(["nice", "-n", "10", sys.executable, "-m", "onnxpack.cli", *argv], cwd=work,
                           env=side.env(), capture_output=True, text=True, encoding="utf-8", errors="replace",
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return Run(None, {"<timed out>": timeout}, time.monotonic() - t0)
    reps = side.replacements(work)
    try:
        doc = normalise(json.loads(r.stdout), reps)
    except json.JSONDecodeError:
        doc = normalise({"<not JSON>": r.stdout[-2000:], "<stderr>": r.stderr[-2000:]}, reps)
    return Run(r.returncode, doc, time.monotonic() - t0)


def first_diff(a: Any, b: Any, path: str = "$") -> tuple[str, Any, Any] | None:
    """The first JSON path where ``a`` and ``b`` differ (keys in ``a``'s order, then ``b``'s extra keys)."""
    if type(a) is not type(b):
        return path, a, b
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            d = first_diff(a.get(k, MISSING), b.get(k, MISSING), f"{path}.{k}")
            if d:
                return d
        if list(a) != list(b):
            return f"{path} (key order)", list(a), list(b)
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            d = first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        return None
    return None if a == b else (path, a, b)


@dataclass
class Case:
    model: str
    layout: str
    command: str
    verdict: str  # same / both failed the same way / DIFFERENT / not run
    old_exit: int | None
    new_exit: int | None
    detail: str = ""
    old_s: float = 0.0
    new_s: float = 0.0


def _short(v: Any, n: int = 160) -> str:
    s = "(missing)" if v is MISSING else json.dumps(v, ensure_ascii=False)
    return s if len(s) <= n else s[: n - 1] + "…"


def compare(model: str, layout: str, command: str, old: Run | None, new: Run | None) -> Case:
    if old is None or new is None:
        why = "not run: " + ", ".join(f"{s} bundle failed" for s, r in (("old", old), ("new", new)) if r is None)
        verdict = "not run" if old is None and new is None else "DIFFERENT"
        return Case(model, layout, command, verdict, old and old.exit_status, new and new.exit_status, why,
                    old.seconds if old else 0.0, new.seconds if new else 0.0)
    case = Case(model, layout, command, "same", old.exit_status, new.exit_status, "", old.seconds, new.seconds)
    d = first_diff(old.doc, new.doc)
    if old.exit_status != new.exit_status:
        case.verdict = "DIFFERENT"
        case.detail = f"exit {old.exit_status} vs {new.exit_status}"
        if d:
            case.detail += f"; {d[0]}: {_short(d[1])} vs {_short(d[2])}"
    elif d:
        case.verdict = "DIFFERENT"
        case.detail = f"{d[0]}: {_short(d[1])} vs {_short(d[2])}"
    elif old.exit_status != 0:
        case.verdict = "both failed the same way"
        case.detail = f"exit {old.exit_status}"
    return case


def run_layout(model: realmodels.Model, layout: str, path: Path, sides: tuple[Side, Side], timeout: float,
               pool: concurrent.futures.Executor) -> list[Case]:
    """The five commands on one model file, old and new side by side (each in its own working folder)."""
    name = realmodels.safe_name(model.id)
    works = {s.label: Path(tempfile.mkdtemp(prefix=f"onnxpack-compare-{s.label}-")) for s in sides}
    argvs = {
        "inspect": ["inspect", str(path), "--json"],
        "check": ["check", str(path), "--json"],
        "smoke": ["smoke", str(path), "--json"],
        "bundle": ["bundle", str(path), "-o", "bundle", "--version", "1.0.0", "--name", name, "--force", "--json"],
        "verify": ["verify", "--smoke", f"bundle/{name}-1.0.0.zip", "--json"],
    }
    cases: list[Case] = []
    try:
        bundled: dict[str, bool] = {}
        for command in COMMANDS:
            futures: dict[str, concurrent.futures.Future[Run] | None] = {}
            for s in sides:
                if command == "verify" and not bundled.get(s.label):
                    futures[s.label] = None
                else:
                    futures[s.label] = pool.submit(run_one, s, argvs[command], works[s.label], timeout)
            runs = {k: (f.result() if f else None) for k, f in futures.items()}
            if command == "bundle":
                bundled = {k: (works[k] / "bundle" / f"{name}-1.0.0.zip").is_file() for k in runs}
            case = compare(model.id, layout, command, runs["old"], runs["new"])
            cases.append(case)
            print(f"  {model.id:<48} {layout:<8} {command:<7} {case.verdict:<24} "
                  f"old {case.old_s:6.1f} s  new {case.new_s:6.1f} s  {case.detail[:200]}", file=sys.stderr,
                  flush=True)
    finally:
        for w in works.values():
            shutil.rmtree(w, ignore_errors=True)
    return cases


# ---------------------------------------------------------------------------------------------- main


def table(cases: list[Case]) -> str:
    out = ["| model | layout | command | verdict | detail |", "|---|---|---|---|---|"]
    for c in cases:
        detail = c.detail.replace("|", "\\|")
        out.append(f"| {c.model} | {c.layout} | {c.command} | {c.verdict} | {detail} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--old", default="8fd72b3", help="the old commit (default 8fd72b3, before the core/ refactor)")
    ap.add_argument("--new", default="HEAD", help="the new commit (default: HEAD, resolved once at the start)")
    ap.add_argument("--only", action="append", metavar="NAME", help="models whose id contains NAME (repeatable)")
    ap.add_argument("--max-mb", type=float, help="leave out models larger than this")
    ap.add_argument("--layouts", default="single,external", help="comma-separated: single, external, dotslash")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per command before it is killed")
    ap.add_argument("--jobs", type=int, default=2, help="commands at once (old and new of a case run together)")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "onnxpack-bench")
    ap.add_argument("--json", type=Path, metavar="FILE", help="also write every case as JSON to FILE")
    ap.add_argument("--keep", action="store_true", help="keep the worktrees and symlink packages")
    ap.add_argument("--budget-min", type=float, help="start no further model after this many minutes")
    args = ap.parse_args(argv)

    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    new_commit = git("rev-parse", "--verify", f"{args.new}^{{commit}}")  # before anything else: others may commit
    dirty = git("status", "--porcelain", "--", "tests/test_golden_json.py")
    if dirty:
        print(f"note: the imported tests/test_golden_json.py has uncommitted edits ({dirty})", file=sys.stderr)
    models, notes = realmodels.corpus(args.cache.expanduser(), offline=True, wanted=args.only)
    if args.max_mb is not None:
        notes += [f"{m.id}: left out (--max-mb {args.max_mb:g}, {m.size_mb():.0f} MB)" for m in models
                  if m.size_mb() > args.max_mb]
        models = [m for m in models if m.size_mb() <= args.max_mb]
    models.sort(key=lambda m: (m.size_mb(), m.id))  # small models first: a cut-short run covers the most
    layouts = [x.strip() for x in args.layouts.split(",") if x.strip()]

    old = prepare_side("old", args.old)
    new = prepare_side("new", new_commit)
    print(f"old {old.commit} ({old.worktree})\nnew {new.commit} ({new.worktree})\nstarted {started}; "
          f"{len(models)} models, layouts {', '.join(layouts)}", file=sys.stderr, flush=True)
    cases: list[Case] = []
    t0 = time.monotonic()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for i, m in enumerate(models):
                if args.budget_min is not None and time.monotonic() - t0 > args.budget_min * 60:
                    notes += [f"{x.id}: not run (--budget-min {args.budget_min:g} spent, {x.size_mb():.1f} MB)"
                              for x in models[i:]]
                    break
                for layout in layouts:
                    path = realmodels.layout_path(m, layout)
                    if path is None:
                        notes.append(f"{m.id}: no {layout} layout (no tensor of 1 KiB or more)")
                        continue
                    cases += run_layout(m, layout, path, (old, new), args.timeout, pool)
                    if args.json:
                        args.json.write_text(json.dumps({"old": old.commit, "new": new.commit, "started": started,
                                                         "cases": [asdict(c) for c in cases], "notes": notes},
                                                        indent=1))
    finally:
        if not args.keep:
            remove_side(old)
            remove_side(new)

    counts: dict[str, int] = {}
    for c in cases:
        counts[c.verdict] = counts.get(c.verdict, 0) + 1
    print(f"\n## --json of old {old.commit[:10]} vs new {new.commit[:10]} on the real-model corpus\n")
    print(f"started {started}, finished {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}; "
          f"{len(cases)} cases (model × layout × command): "
          + ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) + "\n")
    print(table(cases))
    different = [c for c in cases if c.verdict == "DIFFERENT"]
    print("\n### DIFFERENT\n")
    print(table(different) if different else "none")
    if notes:
        print("\n### Not covered\n\n" + "\n".join(f"- {n}" for n in notes))
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
