"""Prove a model on real ONNX Runtime releases (``check``/``bundle --prove-ort 1.16.3,1.20.1,…``).

For each release: its official CPU wheel for this platform and Python, checked against the SHA-256 committed with
onnxpack (resources/ort_wheels.json, core/runtime/wheeltable.py; the package index only says where the file is),
installed with ``pip --require-hashes`` into an isolated virtual environment of its own with a pinned numpy that
release accepts (numpy 1 before ORT 1.19, which was built against numpy 1), also checked against the table.
Wheels and environments are cached in the user's cache folder (``$ONNXPACK_CACHE_DIR``, else
``$XDG_CACHE_HOME/onnxpack``, ``~/.cache/onnxpack``; ``%LOCALAPPDATA%\\onnxpack\\Cache`` on Windows,
``~/Library/Caches/onnxpack`` on macOS), keyed by the wheels' hashes and checked again before each use
(core/runtime/releaseenvs.py). A child process of that environment runs :data:`CHILD_SCRIPT` (plain Python, no
onnxpack inside) on the model with the same inputs as the reference run, which is the same script under the
installed onnxruntime; the outputs are compared bitwise, else within a tolerance, the largest difference recorded.
How long each load and run took goes to :meth:`ProveReport.timings` (the JSON result), never into the manifest:
a bundle is the same bytes whenever it is made.

A frozen onnxpack (PyInstaller) has no Python to run the script with: it runs the script in a child of its own
executable with the onnxruntime it carries, for the reference run and for that release when it is asked to prove it
(no download, no environment). Other releases need environments, made with the CPython that ``ONNXPACK_PYTHON``
names; without one they are refused before any run, saying so.

Official wheels for CPython 3.11 exist from onnxruntime 1.15.0 on (3.10: 1.12.0; 3.12: 1.16.2; 3.13: 1.20.0), for
Linux x86_64/aarch64, Windows x64 and macOS; a release without a wheel for this interpreter and platform is an
error naming what exists, never a silent skip. No network, a failed download or a wrong hash are errors too.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from .. import errorcodes, steps
from ..child.childhandles import frozen as _frozen  # (a name of its own here: tests stand in for it)
from ..child.childproc import child_environ
from ..errors import RuntimeFailure
from ..progress import STEPS, CancelToken, ProgressCallback, check_cancel, report
from . import provecodes as codes
from .childrun import run_in_child
from .releaseenvs import ReleaseEnv, cache_dir, ensure_release, wait
from .wheels import MINOR, VERSION, resolve_releases

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..findings import Finding

__all__ = [
    "CHILD_SCRIPT", "PROVE_SCHEMA", "ProveReport", "ProveRun", "ReleaseProof", "cache_dir", "ensure_release",
    "parse_prove_spec", "prove_file", "prove_findings", "prove_model", "release_env", "resolve_releases",
]

PROVE_SCHEMA = "onnxpack.prove/1"
_STAGE = "prove"
RUN_TIMEOUT = 600.0
#: Outputs that are not bitwise equal must agree within this (numpy.allclose), else the release fails.
ATOL, RTOL = 1e-4, 1e-3


def parse_prove_spec(text: str) -> list[str]:
    """``"1.16.3, 1.20.1"`` / ``"auto"`` / ``"1.16"`` → the items (validated; resolved by :func:`resolve_releases`)."""
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise errorcodes.USAGE.error(variant="prove_ort_empty")
    for t in items:
        if t not in ("auto", "newest") and not (VERSION.fullmatch(t) or MINOR.fullmatch(t)):
            raise codes.BAD_PROVE_ORT.error(item=t)
    return items


#: Run in the release's own environment (any numpy, any onnxruntime): load, run, save the outputs as .npy.
CHILD_SCRIPT = r'''
import json, os, sys, time
job = json.load(open(sys.argv[1], encoding="utf-8"))
res = {"ort_version": None, "numpy_version": None, "loaded": False, "message": None, "outputs": [],
       "load_s": None, "run_s": None}
try:
    import numpy as np
    res["numpy_version"] = np.__version__
    import onnxruntime as ort
    res["ort_version"] = ort.__version__
    so = ort.SessionOptions()
    so.log_severity_level = 3
    t = time.perf_counter()
    if job.get("window"):
        with open(job["model"], "rb") as f:
            f.seek(job["window"][0])
            data = f.read(job["window"][1])
        sess = ort.InferenceSession(data, sess_options=so, providers=["CPUExecutionProvider"])
    else:
        sess = ort.InferenceSession(job["model"], sess_options=so, providers=["CPUExecutionProvider"])
    res["load_s"] = time.perf_counter() - t
    res["loaded"] = True
    feeds = {k: np.load(v, allow_pickle=False) for k, v in job["inputs"].items()}
    t = time.perf_counter()
    outs = sess.run(None, feeds)
    res["run_s"] = time.perf_counter() - t
    for i, (meta, value) in enumerate(zip(sess.get_outputs(), outs)):
        path = os.path.join(job["out"], "%02d.npy" % i)
        try:
            arr = np.asarray(value)
            if arr.dtype.kind == "O":
                arr = arr.astype(str)
            np.save(path, arr, allow_pickle=False)
            res["outputs"].append({"name": meta.name, "file": path})
        except Exception as e:
            res["outputs"].append({"name": meta.name, "file": None, "message": "%s: %s" % (type(e).__name__, e)})
except Exception as e:
    res["message"] = ("%s: %s" % (type(e).__name__, e)).strip()
with open(job["result"], "w", encoding="utf-8") as f:
    json.dump(res, f)
'''


@dataclass
class ReleaseProof:
    """What one release did with the model."""

    version: str
    wheel: str | None
    wheel_sha256: str | None
    numpy: str | None
    loaded: bool
    message: str | None  # ORT's own message when it did not load or run
    outputs: list[dict[str, Any]] = field(default_factory=list)
    load_s: float | None = None
    run_s: float | None = None

    @property
    def equal(self) -> bool:
        return self.loaded and not self.message and all(o.get("bitwise_equal") for o in self.outputs)

    @property
    def ok(self) -> bool:
        return self.loaded and not self.message and all(o.get("within_tolerance") for o in self.outputs)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version, "wheel": self.wheel, "wheel_sha256": self.wheel_sha256, "numpy": self.numpy,
            "loaded": self.loaded, "message": self.message, "ok": self.ok, "outputs_bitwise_equal": self.equal,
            "max_abs_diff": max((float(o["max_abs"]) for o in self.outputs if o.get("max_abs") is not None),
                                default=None),
            "outputs": list(self.outputs),
        }

    def timings(self) -> dict[str, float | None]:
        """How long loading and running took (seconds): for the JSON result, not the manifest (it varies per run)."""
        return {"load_s": None if self.load_s is None else round(self.load_s, 4),
                "run_s": None if self.run_s is None else round(self.run_s, 4)}


@dataclass
class ProveReport:
    """The manifest's ``prove_ort`` section: the reference run, the tolerance, and each release."""

    reference: ReleaseProof
    releases: list[ReleaseProof]
    requested: str
    inputs: dict[str, dict[str, Any]]
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.reference.ok and all(r.ok for r in self.releases)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": PROVE_SCHEMA, "requested": self.requested, "ok": self.ok,
            "reference_ort": self.reference.version, "atol": ATOL, "rtol": RTOL,
            "comparison": "bitwise, else numpy.allclose(atol, rtol) with the largest difference recorded",
            "inputs": self.inputs,
            "notes": list(self.notes),
            "releases": [r.to_dict() for r in self.releases],
        }

    def timings(self) -> dict[str, Any]:
        """Each run's load and run times, by release (``reference``: the installed onnxruntime's run); what the JSON
        result shows beside the manifest, which records none of it."""
        return {"reference": {"version": self.reference.version, **self.reference.timings()},
                "releases": [{"version": r.version, **r.timings()} for r in self.releases]}


def _carried_child(conn: Any, job: dict[str, Any]) -> None:
    """Child entry of a frozen app (core.runtime.childrun): :data:`CHILD_SCRIPT` with the onnxruntime it carries."""
    try:
        sys.argv = ["prove_child.py", job["job"]]
        exec(compile(CHILD_SCRIPT, "prove_child.py", "exec"), {"__name__": "__main__"})  # our own script, as a file
        conn.send(("result", {}))
    finally:
        conn.close()


def _run_child(python: str | None, model: Path, window: tuple[int, int] | None, inputs: dict[str, Path], tmp: Path,
               label: str, cancel: CancelToken | None, timeout: float) -> dict[str, Any]:
    """Run :data:`CHILD_SCRIPT` with ``python`` (None: a frozen app's child, with the onnxruntime it carries)."""
    out = tmp / label
    out.mkdir()
    script = tmp / "prove_child.py"
    if not script.exists():
        script.write_text(CHILD_SCRIPT, encoding="utf-8")
    job = {"model": str(model), "window": list(window) if window else None,
           "inputs": {k: str(v) for k, v in inputs.items()}, "out": str(out), "result": str(out / "result.json")}
    (out / "job.json").write_text(json.dumps(job), encoding="utf-8")
    if python is None:
        what = "The reference run" if label == "reference" else label.replace("ort-", "The run on onnxruntime ", 1)
        try:
            run_in_child(_carried_child, {"job": str(out / "job.json")}, timeout=timeout, what=what, cancel=cancel,
                         stage=_STAGE)
        except RuntimeFailure as e:  # a crash or a time-out: this run's result, as from another interpreter
            return {"loaded": False, "message": e.message, "outputs": []}
        return _result(out, "the child process ended without a result")
    env = child_environ()  # without a signing key's password or an identity token
    for var in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"):
        env.pop(var, None)
    for var in ("TMPDIR", "TMP", "TEMP"):
        env[var] = str(out)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # a cached environment stays as made (releaseenvs checks it before use)
    with open(out / "log.txt", "wb") as log:
        proc = subprocess.Popen([python, "-I", "-B", str(script), str(out / "job.json")], cwd=str(out), env=env,
                                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if not wait(proc, timeout, cancel, poll=0.05):
            return {"loaded": False, "message": f"no answer within {timeout:g} s (stopped)", "outputs": []}
    tail = (out / "log.txt").read_bytes()[-1500:].decode("utf-8", "replace").strip()
    return _result(out, f"the process ended with status {proc.returncode} without a result"
                        + (f": {tail.splitlines()[-1]}" if tail else ""))


def _result(out: Path, missing: str) -> dict[str, Any]:
    try:
        result: dict[str, Any] = json.loads((out / "result.json").read_text(encoding="utf-8"))
        return result
    except (OSError, ValueError):
        return {"loaded": False, "outputs": [], "message": missing}


def _compare(ref: dict[str, Any], got: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    mine = {o["name"]: o for o in got.get("outputs", [])}
    for o in ref.get("outputs", []):
        row: dict[str, Any] = {"name": o["name"], "bitwise_equal": False, "within_tolerance": False,
                               "max_abs": None, "max_rel": None}
        other = mine.get(o["name"])
        if other is None or not other.get("file") or not o.get("file"):
            row["message"] = (other or {}).get("message") or "no such output"
            rows.append(row)
            continue
        a = np.load(o["file"], allow_pickle=False)
        b = np.load(other["file"], allow_pickle=False)
        if a.shape != b.shape or a.dtype != b.dtype:
            row["message"] = f"{b.dtype}{list(b.shape)} instead of {a.dtype}{list(a.shape)}"
            rows.append(row)
            continue
        row["bitwise_equal"] = a.tobytes() == b.tobytes()
        if row["bitwise_equal"]:
            row.update(within_tolerance=True, max_abs=0.0, max_rel=0.0)
        elif a.dtype.kind in "fc":
            fa, fb = a.astype(np.float64), b.astype(np.float64)
            diff = np.abs(fa - fb)
            finite = np.isfinite(diff)
            row["max_abs"] = float(diff[finite].max()) if finite.any() else None
            denom = np.maximum(np.abs(fa), np.abs(fb))
            with np.errstate(divide="ignore", invalid="ignore"):
                rel = np.where(denom > 0, diff / denom, 0.0)
            row["max_rel"] = float(rel[finite].max()) if finite.any() else None
            row["within_tolerance"] = bool(np.allclose(fa, fb, atol=ATOL, rtol=RTOL, equal_nan=True))
        elif a.dtype.kind in "iub":
            row["max_abs"] = float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max())
        rows.append(row)
    return rows


def _proof(version: str, env: ReleaseEnv | None, raw: dict[str, Any], ref: dict[str, Any] | None) -> ReleaseProof:
    p = ReleaseProof(version, env.wheel if env else None, env.sha256 if env else None,
                     raw.get("numpy_version"), bool(raw.get("loaded")), raw.get("message"),
                     load_s=raw.get("load_s"), run_s=raw.get("run_s"))
    if ref is not None and p.loaded and not p.message:
        p.outputs = _compare(ref, raw)
    elif ref is None and p.loaded and not p.message:
        p.outputs = [{"name": o["name"], "bitwise_equal": True, "within_tolerance": True, "max_abs": 0.0,
                      "max_rel": 0.0} for o in raw.get("outputs", [])]
    return p


def _inputs_for(model: Any, dims: dict[str, int] | None, seed: int, tmp: Path) -> tuple[dict[str, Path],
                                                                                         dict[str, dict[str, Any]]]:
    from ..checks.inspection import describe_type
    from .inputs import InputMeta, generate_inputs

    inits = {t.name for t in model.graph.initializer}
    metas = []
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        elem, shape = describe_type(vi.type)
        metas.append(InputMeta(vi.name, f"tensor({elem.lower()})", list(shape)))
    gen = generate_inputs(metas, seed=seed, dims=dims or {})
    if gen.problems or gen.too_large:
        raise codes.PROVE_INPUTS.error(problems="; ".join(gen.problems + gen.too_large))
    paths = {}
    for i, (name, arr) in enumerate(sorted(gen.feeds.items())):
        paths[name] = tmp / f"in{i:02d}.npy"
        np.save(paths[name], np.asarray(arr), allow_pickle=False)
    return paths, {k: {"dtype": str(np.asarray(v).dtype), "shape": list(np.asarray(v).shape)}
                   for k, v in gen.feeds.items()}


class ProveRun(TypedDict, total=False):
    """How :func:`prove_model` runs (keyword arguments, all optional).

    ``requested``: the --prove-ort text (recorded), ``window``: the model's byte range in ``model_path`` (e.g. a ZIP
    entry), ``dims``/``seed``: the inputs' sizes and seed, ``progress``/``cancel``, ``timeout``: seconds per run
    (default RUN_TIMEOUT), ``notes``: recorded with the report.
    """

    requested: str
    window: tuple[int, int] | None
    dims: dict[str, int] | None
    seed: int
    progress: ProgressCallback | None
    cancel: CancelToken | None
    timeout: float
    notes: list[str] | None


def prove_model(model_path: Path, model: Any, releases: list[str], **run: Unpack[ProveRun]) -> ProveReport:
    """Run ``model_path`` (the model ``model`` describes) under the installed onnxruntime (the reference) and each of
    ``releases``; compare every output. ``run``: see :class:`ProveRun`."""
    if not releases:
        raise errorcodes.USAGE.error(variant="prove_ort_none")
    progress, cancel = run.get("progress"), run.get("cancel")
    window, timeout = run.get("window"), run.get("timeout", RUN_TIMEOUT)
    # absolute: each run's child works in a folder of its own (a relative -o once made every run miss the model)
    model_path = Path(os.path.abspath(model_path))
    tmp = Path(os.path.abspath(tempfile.mkdtemp(prefix=f"onnxpack-prove-{os.getpid()}-")))
    try:
        inputs, described = _inputs_for(model, run.get("dims"), run.get("seed", 0), tmp)
        notes = list(run.get("notes") or [])
        envs: list[tuple[str, ReleaseEnv | None]] = []
        # One count of N releases from start to end (the reference run is none of them): "i of N" never changes its N.
        for i, v in enumerate(releases):  # every environment first: a missing wheel fails before any run
            report(progress, _STAGE, i, len(releases), steps.PROVE_PREPARING, unit=STEPS, version=v)
            envs.append((v, release_env(v, notes, progress, cancel)))
            check_cancel(cancel)
        report(progress, _STAGE, 0, len(envs), steps.PROVE_REFERENCE, unit=STEPS)
        ref_raw = _run_child(None if _frozen() else sys.executable, model_path, window, inputs, tmp, "reference",
                             cancel, timeout)
        from ..checks.compat import ort_package_version

        reference = _proof(str(ref_raw.get("ort_version") or ort_package_version() or "installed"), None, ref_raw,
                           None)
        if not reference.ok:
            raise codes.PROVE_REFERENCE.error(detail=str(reference.message))
        proofs = []
        for i, (version, env) in enumerate(envs):
            report(progress, _STAGE, i, len(envs), steps.PROVE_RUNNING, unit=STEPS, version=version)
            raw = _run_child(None if env is None else str(env.python), model_path, window, inputs, tmp,
                             f"ort-{version}", cancel, timeout)
            if raw.get("ort_version") and raw["ort_version"] != version and raw.get("loaded"):
                raw["message"] = f"the environment runs onnxruntime {raw['ort_version']}, not {version}"
            proofs.append(_proof(version, env, raw, ref_raw))
        report(progress, _STAGE, len(envs), len(envs), steps.DONE, unit=STEPS)
        return ProveReport(reference, proofs, run.get("requested", ""), described, notes)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def release_env(version: str, notes: list[str], progress: ProgressCallback | None,
                cancel: CancelToken | None) -> ReleaseEnv | None:
    """The environment of release ``version`` (see :func:`ensure_release`); None in a frozen app for the onnxruntime
    it carries, which it runs itself (said in ``notes``). A frozen app makes environments only with the CPython
    ONNXPACK_PYTHON names: without it, it refuses another release here, before any run."""
    if _frozen():
        from ..checks.compat import ort_package_version

        carried = ort_package_version()
        if version == carried:
            notes.append(f"onnxruntime {version} is the one this frozen onnxpack carries: proven with it, not with the "
                         "official wheel in an environment of its own")
            return None
        if carried is not None and not os.environ.get("ONNXPACK_PYTHON"):
            raise codes.PROVE_NO_PYTHON.error(variant="carried", version=version, carried=carried)
    return ensure_release(version, progress, cancel)


def prove_findings(report_: ProveReport, name: str) -> list[Finding]:
    """One finding per release: it loads the model and gives the same outputs, or what went wrong."""
    out = []
    for r in report_.releases:
        subject = f"ORT {r.version}"
        if not r.loaded or (r.message and not r.outputs):
            out.append(codes.PROVE_ORT_NOT_LOADED.finding(
                subject, model=name, version=r.version, detail=r.message or "",
                minor=".".join(r.version.split(".")[:2]),
            ))
        elif not r.ok:
            worst = max((o["max_abs"] for o in r.outputs if o.get("max_abs") is not None), default=None)
            out.append(codes.PROVE_ORT_MISMATCH.finding(
                subject, model=name, version=r.version, reference=report_.reference.version, difference=str(worst),
                atol=f"{ATOL:g}", rtol=f"{RTOL:g}",
            ))
        else:
            carried = "carried" if r.wheel is None else ""  # the frozen app's own onnxruntime: no wheel
            within = {} if r.equal else {"difference": f"{r.to_dict()['max_abs_diff']:.3g}"}
            variant = "_".join(v for v in (carried, "" if r.equal else "tolerance") if v) or None
            out.append(codes.PROVE_ORT_OK.finding(subject, variant=variant, model=name, version=r.version,
                                                  reference=report_.reference.version, **within))
    return out


def prove_file(model_path: Path, data_dir: Path | None, model: Any, spec: str, oldest_claimed: str | None, *,
               progress: ProgressCallback | None = None, cancel: CancelToken | None = None,
               target: str | None = None) -> ProveReport:
    """``check --prove-ort``: prove the model as it is. It is first merged into a private folder (onnxpack's own
    reader and its external-data rules), so no ONNX Runtime ever resolves a path the model names. ``target``: the
    release --target-ort/--target-app named (``auto`` proves it too)."""
    from ..model.merge.merge import merge_model

    notes: list[str] = []
    releases = resolve_releases(parse_prove_spec(spec), oldest_claimed, cancel, notes, target=target)
    tmp = Path(os.path.abspath(tempfile.mkdtemp(prefix=f"onnxpack-prove-{os.getpid()}-")))
    try:
        merged = tmp / "model.onnx"
        merge_model(model_path, merged, data_dir, progress=progress, cancel=cancel)
        return prove_model(merged, model, releases, requested=spec, progress=progress, cancel=cancel, notes=notes)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

