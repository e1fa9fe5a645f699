"""Smoke-run a model with ONNX Runtime on the CPU in an isolated child process, and compare two models."""

from __future__ import annotations

import contextlib
import math
import os
import re
import shutil
import signal
import time
import unicodedata
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..atomic import atomic_file, check_output_path, make_temp_dir, output_error_from_oserror
from ..childproc import SMOKE_TARGET, ChildProcess, target_name
from ..errors import (
    Cancelled,
    ExternalDataError,
    InputError,
    ModelFormatError,
    OnnxpackError,
    OutputError,
    RuntimeFailure,
)
from ..findings import Finding, Severity
from ..model.modelfile import FileKind, ModelLocation, Window, load_structure, locate_model, sniff
from ..progress import STEPS, CancelToken, ProgressCallback, report
from .inputs import DEFAULT_DIM, MAX_DIM, InputSpec, LoadedInput, load_input_file, parse_dim, parse_range

__all__ = [
    "RECIPE_SCHEMA",
    "SCHEMA",
    "ChildProcess",
    "CompareResult",
    "SmokeOptions",
    "SmokeResult",
    "compare_models",
    "run_in_child",
    "safe_output_filename",
    "save_outputs",
    "smoke_test",
    "start_child",
]

SCHEMA = "onnxpack.smoke/1"
RECIPE_SCHEMA = "onnxpack.smoke-recipe/1"
_STAGE = "smoke"
#: Test-only fault injection passed to the child ({"action": "segfault"|"sleep"|"raise", "when": ...}).
_TEST_HOOK: dict[str, Any] | None = None


@dataclass
class SmokeOptions:
    """How to run: dims, per-input files/values, seed, number of runs, time limit, search, tolerances.

    ``inputs`` maps an input name to a file (``x.npy``, ``d.npz:member``, ``t.pb``) or a scalar value
    (``"16000"``); relative paths are resolved against ``base_dir`` (default: the current folder).
    ``ranges`` gives a per-input ``(lo, hi)`` for generated values. ``input_digests`` are SHA-256
    values the supplied files must have (filled by :meth:`from_recipe`). ``atol``/``rtol`` are the
    pass line of :func:`compare_models` (0/0: values must be equal).
    """

    dims: dict[str, int] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)
    seed: int = 0
    runs: int = 3
    timeout: float = 120.0
    search: bool = True
    atol: float = 0.0
    rtol: float = 0.0
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    default_dim: int = DEFAULT_DIM
    input_digests: dict[str, str] = field(default_factory=dict)
    base_dir: Path | None = None
    #: Inputs whose text is a literal value, never a file name (a bundle's recipe: see :meth:`from_recipe`).
    literal: frozenset[str] = frozenset()

    def validate(self) -> None:
        """Raise InputError (exit 2) for values that cannot work."""

        def bad(what: str, hint: str) -> InputError:
            return InputError(what, hint, code="USAGE")

        if not isinstance(self.runs, int) or self.runs < 1 or self.runs > 10000:
            raise bad(f"--runs must be between 1 and 10000 (got {self.runs})", "Example: --runs 5")
        if not isinstance(self.seed, int) or self.seed < 0:
            raise bad(f"--seed must be a non-negative integer (got {self.seed})", "Example: --seed 0")
        if not (isinstance(self.timeout, (int, float)) and math.isfinite(self.timeout) and self.timeout > 0):
            raise bad(f"--timeout must be a positive number of seconds (got {self.timeout})", "Example: --timeout 600")
        for name, v in (("--atol", self.atol), ("--rtol", self.rtol)):
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
                raise bad(f"{name} must be a finite number ≥ 0 (got {v})", f"Example: {name} 1e-5")
        for k, d in self.dims.items():
            if not isinstance(d, int) or isinstance(d, bool) or d < 1:
                raise bad(f"--dim {k}={d}: the value must be an integer ≥ 1 (a size of 0 runs on empty tensors)",
                          "Example: --dim sequence=512")
            if d > MAX_DIM:
                raise bad(f"--dim {k}={d}: more than a dimension can be (ONNX dims are int64: at most {MAX_DIM})",
                          "Example: --dim sequence=512")
        if not isinstance(self.default_dim, int) or not 0 <= self.default_dim <= MAX_DIM:
            raise bad(f"default dim must be an integer ≥ 0 (got {self.default_dim})", "Use 1.")
        for k, (lo, hi) in self.ranges.items():
            if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
                raise bad(f"--range {k}={lo}:{hi}: need finite LO ≤ HI", "Example: --range x=0:1")

    @classmethod
    def from_cli(
        cls,
        *,
        dims: list[str] | None = None,
        inputs: list[str] | None = None,
        ranges: list[str] | None = None,
        **kw: Any,
    ) -> SmokeOptions:
        """Build options from the command line's repeated NAME=VALUE strings."""
        from .inputs import parse_input

        d = dict(parse_dim(x) for x in dims or [])
        i = dict(parse_input(x) for x in inputs or [])
        r = dict(parse_range(x) for x in ranges or [])
        return cls(dims=d, inputs=i, ranges=r, **kw)

    def to_recipe(self) -> dict[str, Any]:
        """The recipe these options describe (a completed one comes with each SmokeResult)."""
        return {
            "schema": RECIPE_SCHEMA,
            "seed": self.seed,
            "runs": self.runs,
            "default_dim": self.default_dim,
            "search": self.search,
            "dims": dict(self.dims),
            "ranges": {k: [lo, hi] for k, (lo, hi) in self.ranges.items()},
            "inputs": {
                k: {"source": "spec", "spec": v}
                | ({"sha256": self.input_digests[k]} if k in self.input_digests else {})
                for k, v in self.inputs.items()
            },
            "atol": self.atol,
            "rtol": self.rtol,
        }

    @classmethod
    def from_recipe(cls, d: Mapping[str, Any], base_dir: Path | None = None,
                    members: Collection[str] | None = None) -> SmokeOptions:
        """Options that repeat a recorded run; relative input files are resolved against ``base_dir``.

        Every dimension the recorded run used is fixed, so no search is needed again; supplied files
        must still have the recorded SHA-256. With ``members`` (a bundle's recipe, untrusted), an input
        file must be one of those member names of ``base_dir`` and every other input is a literal value:
        the recipe can never make onnxpack read a file outside the bundle (security rule 8).
        """
        literal: set[str] = set()
        try:
            if d.get("schema") not in (RECIPE_SCHEMA, None):
                raise ValueError(f"unknown recipe schema {d.get('schema')!r}")
            inputs: dict[str, str] = {}
            digests: dict[str, str] = {}
            for name, e in (d.get("inputs") or {}).items():
                src = e.get("source")
                if src == "file":
                    if members is not None and e["file"] not in members:
                        raise InputError(
                            f"The smoke recipe names input file {e['file']!r} for {name!r}, which is not a member "
                            "of the bundle",
                            "A bundle's recipe may only name files inside it: the bundle was not made by onnxpack "
                            "or was altered. Do not trust it.",
                            code="RECIPE_OUTSIDE_BUNDLE",
                        )
                    inputs[name] = str(e["file"]) + (f":{e['member']}" if e.get("format") == "npz" and e.get("member")
                                                     else "")
                    digests[name] = str(e["sha256"])
                elif src in ("value", "spec"):
                    inputs[name] = str(e[src])
                    if members is not None:
                        literal.add(name)
                    elif src == "spec" and e.get("sha256"):
                        digests[name] = str(e["sha256"])
            opts = cls(
                dims={str(k): int(v) for k, v in (d.get("dims") or {}).items()},
                inputs=inputs,
                seed=int(d.get("seed", 0)),
                runs=int(d.get("runs", 3)),
                search=bool(d.get("search", True)),
                atol=float(d.get("atol", 0.0)),
                rtol=float(d.get("rtol", 0.0)),
                ranges={str(k): (float(v[0]), float(v[1])) for k, v in (d.get("ranges") or {}).items()},
                default_dim=int(d.get("default_dim", DEFAULT_DIM)),
                input_digests=digests,
                base_dir=base_dir,
                literal=frozenset(literal),
            )
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise InputError(f"The smoke recipe is not valid: {e}", "Use a recipe written by onnxpack.",
                             code="RECIPE") from None
        opts.validate()
        return opts

    def to_job(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "runs": self.runs,
            "search": self.search,
            "default_dim": self.default_dim,
            "dims": dict(self.dims),
            "ranges": {k: [lo, hi] for k, (lo, hi) in self.ranges.items()},
            "atol": float(self.atol),
            "rtol": float(self.rtol),
        }


@dataclass
class SmokeResult:
    """Outcome of one smoke run (see to_dict() for the JSON form, schema onnxpack.smoke/1)."""

    model: str
    ok: bool
    ort_version: str
    provider: str
    session_create_s: float | None
    first_run_s: float | None
    median_run_s: float | None
    run_times: list[float]
    outputs: list[dict[str, Any]]
    recipe: dict[str, Any]
    search: dict[str, Any]
    findings: list[Finding]
    load: str = ""
    saved_outputs: dict[str, str] = field(default_factory=dict)
    error: str | None = None  # ORT's message when the run failed

    @property
    def inputs(self) -> dict[str, dict[str, Any]]:
        return dict(self.recipe.get("inputs", {}))

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "ok": self.ok,
            "model": self.model,
            "ort_version": self.ort_version,
            "provider": self.provider,
            "load": self.load,
            "timings": {
                "session_create_s": self.session_create_s,
                "first_run_s": self.first_run_s,
                "median_run_s": self.median_run_s,
                "runs": len(self.run_times),
                "run_times_s": list(self.run_times),
            },
            "outputs": self.outputs,
            "recipe": self.recipe,
            "search": self.search,
            "error": self.error,
            "saved_outputs": self.saved_outputs,
            "findings": [f.to_dict() for f in self.findings],
        }


@dataclass
class CompareResult:
    """Outcome of running two models on the same inputs."""

    ok: bool
    original: SmokeResult
    other: SmokeResult | None
    outputs: list[dict[str, Any]]  # name, bitwise_equal, max_abs, max_rel, mismatched, within_tolerance, problem
    atol: float
    rtol: float
    findings: list[Finding]

    @property
    def bitwise_equal(self) -> bool:
        """True when every output of both models is bit-for-bit identical."""
        return bool(self.outputs) and self.other is not None and all(r["bitwise_equal"] for r in self.outputs)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "ok": self.ok,
            "kind": "compare",
            "original": self.original.to_dict(),
            "other": None if self.other is None else self.other.to_dict(),
            "compare": {
                "bitwise_equal": self.bitwise_equal,
                "atol": self.atol,
                "rtol": self.rtol,
                "outputs": self.outputs,
            },
            "findings": [f.to_dict() for f in self.findings],
        }


# ---------------------------------------------------------------------------------------------- child

_ERRORS: dict[str, type[OnnxpackError]] = {
    c.__name__: c for c in (InputError, ModelFormatError, ExternalDataError, OutputError, RuntimeFailure, Cancelled)
}


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "it stopped responding"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"it was killed by {name}" + (" (a crash in native code)" if name in ("SIGSEGV", "SIGBUS", "SIGILL",
                                                                                    "SIGFPE", "SIGABRT") else "")
    if code in (0xC0000005, -1073741819):
        return "it crashed with an access violation (0xC0000005)"
    return f"it exited with status {code}"


Target = Callable[[Any, dict[str, Any]], None] | str


def _name(target: Target) -> str:
    return target if isinstance(target, str) else target_name(target)


def start_child(target: Target = SMOKE_TARGET) -> ChildProcess | None:
    """Start a child for ``target`` (a function or its ``"module:function"``) now, to be given its job later
    through :func:`run_in_child`."""
    return ChildProcess(_name(target))


@contextlib.contextmanager
def _early_child(target: Target, given: ChildProcess | None) -> Iterator[ChildProcess | None]:
    """``given`` (started by the caller even earlier), else a child started now; stopped at the end."""
    child = given if given is not None and given.usable else start_child(target)
    if given is not None and child is not given:
        given.discard()
    try:
        yield child
    finally:
        if child is not None:
            child.discard()


def run_in_child(
    target: Target,
    job: dict[str, Any],
    *,
    timeout: float,
    what: str,
    cancel: CancelToken | None = None,
    progress: ProgressCallback | None = None,
    stage: str = _STAGE,
    child: ChildProcess | None = None,
) -> Any:
    """Run ``target(conn, job)`` in a 'spawn' child; return its ('result', payload) payload.

    ``child``: a :class:`ChildProcess` started earlier for the same ``target`` (else one is started
    now); it is stopped before this returns. The child sends ('stage', text), ('progress',
    {done,total,message}), then ('result', x) or ('error', {class, code, message, hint, details}). A
    crash, a time-out or cancellation kills the child and raises RuntimeFailure / Cancelled; the
    caller's process is never affected.
    """
    if child is None or child.target != _name(target) or not child.usable:
        if child is not None:
            child.discard()
        child = ChildProcess(_name(target))
    proc, recv_conn = child.proc, child.recv_conn
    current = "starting ONNX Runtime in a child process"
    child.send_job(job)
    report(progress, stage, 0, 0, current, unit=STEPS)  # the stage runs from now: no silent gap until it reports
    deadline = time.monotonic() + timeout
    try:
        while True:
            if cancel is not None and cancel.cancelled:
                raise Cancelled(f"Cancelled while {current}.")
            got = recv_conn.poll(0.05)
            if got:
                try:
                    kind, payload = recv_conn.recv()
                except (EOFError, OSError):
                    got = False
                else:
                    if kind == "stage":
                        current = str(payload)
                        report(progress, stage, 0, 0, current, unit=STEPS)
                    elif kind == "progress":
                        done, total = int(payload["done"]), int(payload["total"])
                        report(progress, stage, done, total, str(payload["message"]), unit=STEPS)
                    elif kind == "result":
                        return payload
                    elif kind == "error":
                        cls = _ERRORS.get(str(payload.get("class")), RuntimeFailure)
                        raise cls(str(payload.get("message")), payload.get("hint"), code=payload.get("code"),
                                  details=payload.get("details"))
                    continue
            if not got and not proc.is_alive():
                proc.join(1)
                raise RuntimeFailure(
                    f"ONNX Runtime failed hard while {current} ({what}): {_describe_exit(proc.exitcode)}. "
                    "onnxpack itself is unaffected.",
                    "The model is probably malformed or triggers an ONNX Runtime bug. Run `onnxpack check` on it, "
                    "or try another onnxruntime version.",
                    code="SMOKE_CRASH",
                    details=f"exit code {proc.exitcode}",
                )
            if time.monotonic() > deadline:
                raise RuntimeFailure(
                    f"{what} did not finish within {timeout:g} s (it was {current}); the child process was stopped",
                    "Raise the limit with --timeout SECONDS (loading a large model can take minutes), or use "
                    "smaller sizes with --dim NAME=VALUE.",
                    code="SMOKE_TIMEOUT",
                )
    finally:
        child.discard()


# --------------------------------------------------------------------------------------------- parent


@dataclass
class _Prepared:
    location: ModelLocation
    spec: dict[str, Any]
    protected: list[Path]  # files that must never be written (model + its data files)
    name: str  # what messages call the model (its file name, or its entry name inside an archive)


def _prepare_model(path: str | os.PathLike[str], data_dir: str | os.PathLike[str] | None, label: str,
                   window: Window | None = None, name: str | None = None) -> _Prepared:
    """Locate and validate a model in the parent, so bad input fails fast with a clear message.

    ``window``: the model is that byte range of ``path`` (a stored ZIP entry named ``name``), read in place.
    """
    from ..model.extdata import resolve_external_data

    loc = locate_model(path, data_dir)
    kind = sniff(loc.model, window)
    protected = [loc.model]
    shown = name or loc.model.name
    if kind is FileKind.ORT:
        if window is not None:
            raise InputError(f"{shown} is an ORT-format model inside an archive", "Extract it first.", code="USAGE")
        spec: dict[str, Any] = {"path": str(loc.model), "data_dir": str(loc.data_dir), "kind": "ort", "label": shown}
    else:
        model = load_structure(loc.model, window)  # raises ModelFormatError for empty/text/zip/garbage
        table = resolve_external_data(model, loc.data_dir)
        table.raise_if_invalid()
        protected += [loc.data_dir / name for name in table.files]
        spec = {"path": str(loc.model), "data_dir": str(loc.data_dir), "kind": "onnx", "label": shown,
                "window": list(window) if window is not None else None}
    if label:
        spec["label"] = f"{label} {shown}"
    return _Prepared(loc, spec, protected, shown)


def _load_inputs(options: SmokeOptions) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, str], list[LoadedInput]]:
    supplied: dict[str, np.ndarray[Any, Any]] = {}
    values: dict[str, str] = {}
    loaded: list[LoadedInput] = []
    for name, text in options.inputs.items():
        if name in options.literal:
            values[name] = text
            continue
        spec = InputSpec.parse(name, text, options.base_dir)
        if spec.file is None:
            assert spec.value is not None
            values[name] = spec.value
            continue
        li = load_input_file(spec)
        want = options.input_digests.get(name)
        if want and want.lower() != li.sha256:
            raise InputError(
                f"--input {name}: {spec.file} has SHA-256 {li.sha256}, but the recipe recorded {want}",
                "The input file changed since the recorded run; use the original file.",
                code="INPUT_DIGEST",
            )
        if li.array.dtype.kind == "U" or li.array.dtype.kind == "S":
            li.array = li.array.astype(object)
        supplied[name] = li.array
        loaded.append(li)
    return supplied, values, loaded


def _make_job(models: list[_Prepared], options: SmokeOptions, supplied: dict[str, Any], values: dict[str, str],
              empty_dir: str, return_outputs: bool) -> dict[str, Any]:
    opts = options.to_job()
    opts["values"] = values
    return {
        "models": [m.spec for m in models],
        "options": opts,
        "supplied": supplied,
        "empty_dir": empty_dir,
        "return_outputs": return_outputs,
        "hook": _TEST_HOOK,
    }


def _recipe(raw: dict[str, Any], options: SmokeOptions, loaded: list[LoadedInput]) -> dict[str, Any]:
    inputs = dict(raw.get("inputs") or {})
    for li in loaded:
        inputs[li.name] = li.recipe()
    return {
        "schema": RECIPE_SCHEMA,
        "seed": options.seed,
        "runs": options.runs,
        "default_dim": options.default_dim,
        "search": options.search,
        "dims": dict(raw.get("dims") or {}),
        "dim_sources": dict(raw.get("dim_sources") or {}),
        "ranges": {k: [lo, hi] for k, (lo, hi) in options.ranges.items()},
        "inputs": inputs,
        "atol": options.atol,
        "rtol": options.rtol,
    }


def _fmt_shape(shape: Any) -> str:
    return "[" + ",".join(str(s) for s in shape) + "]" if isinstance(shape, list) else "?"


def _example_value(dtype: str) -> str:
    """A value of ``dtype`` to show in a hint (``--input flag=true``, not ``flag=16000``)."""
    if dtype == "bool":
        return "true"
    if dtype == "string":
        return "hello"
    if dtype.startswith("float"):
        return "0.5"
    return "16000"


#: Words in ONNX Runtime's messages for an index outside its table (Gather, GatherND, ScatterND, OneHot...).
_INDEX_WORDS = ("idx", "indices", "index", "out of bound", "out-of-bound", "out of range")


def _failure_finding(raw: dict[str, Any], model_name: str, options: SmokeOptions) -> Finding:
    fail = raw["failure"]
    if fail["kind"] == "too_large":
        dims = fail.get("dims") or {}
        srcs = fail.get("dim_sources") or {}
        given = sorted((k for k in dims if srcs.get(k) in ("option", "default", "search")), key=lambda k: -dims[k])
        hint = (f"Give smaller sizes, e.g. --dim {given[0]}=1 (or real data with --input NAME=FILE.npy)" if given
                else "The model fixes these sizes: it cannot be smoke-run here; bundle it with --no-smoke, or run it "
                     "on a machine with more memory")
        return Finding.error(
            "SMOKE_INPUT_TOO_LARGE",
            f"{model_name}: the generated inputs would take {fail['size']}, more than the {fail['limit']} "
            f"onnxpack allows on this machine ({fail['message']})",
            hint + ".",
            model_name,
            size=fail["size"], limit=fail["limit"], detail=fail["message"],
        )
    if fail["kind"] == "inputs":
        return Finding.error(
            "SMOKE_INPUT_UNSUPPORTED",
            f"{model_name}: cannot build inputs: {fail['message']}",
            "Only tensor inputs of numeric, bool and string types, of at most 64 dimensions, can be generated or "
            "loaded.",
            model_name,
            detail=fail["message"],
        )
    inputs = fail.get("inputs") or {}
    gen = [f"{n} {e.get('dtype')}{_fmt_shape(e.get('shape'))}" for n, e in inputs.items()
           if e.get("source") == "generated"]
    dims = fail.get("dims") or {}
    srcs = fail.get("dim_sources") or {}
    guessed = {k: v for k, v in dims.items() if srcs.get(k) in ("default", "search")}
    gen_text = ", ".join(gen)
    guessed_text = ", ".join(f"{k}={v}" for k, v in guessed.items())
    parts = [f"{model_name}: ONNX Runtime rejected the run: {fail['message']}"]
    if gen:
        parts.append("Generated inputs: " + gen_text + ".")
    if guessed:
        parts.append("Dims not given: " + guessed_text + ".")
    attempts = raw.get("search", {}).get("attempts") or []
    if attempts:
        tried = sorted({v for a in attempts for v in a["dims"].values()})
        parts.append(f"The automatic search tried {len(attempts)} more size(s) ({', '.join(map(str, tried))}) "
                     "without success.")
    hints = []
    from .smoke_child import is_batch_like

    message = str(fail["message"]).lower()
    int_generated = [n for n, e in inputs.items() if e.get("source") == "generated"
                     and str(e.get("dtype", "")).startswith(("int", "uint")) and n not in options.ranges]
    index_failure = bool(int_generated) and any(w in message for w in _INDEX_WORDS)
    if index_failure:
        # An index out of bounds: generated integers are small, but not small enough for this table. Sizes
        # and scalar values would not help; the valid range of the indices does.
        n = int_generated[0]
        dist = inputs[n].get("distribution", "")
        hints.append(f"{n} was generated as {dist}; if it holds indices, give their valid range, e.g. "
                     f"--range {n}=0:N where N is the size of what they index")
    else:
        named = sorted((k for k in guessed if not k.endswith("]")), key=is_batch_like)  # non-batch dims first
        if guessed:
            k = named[0] if named else next(iter(guessed))
            hints.append(f"give real sizes, e.g. --dim {k}=512" if named else f'give real sizes, e.g. --dim "{k}=512"')
        scalars = sorted((n for n, e in inputs.items() if e.get("source") == "generated"
                          and isinstance(e.get("shape"), list) and math.prod(e["shape"]) <= 1
                          and len(e["shape"]) <= 1), key=lambda n: len(inputs[n]["shape"]))  # 0-d ones first
        if scalars:
            hints.append(f"give real values for scalar inputs, e.g. --input {scalars[0]}="
                         + _example_value(str(inputs[scalars[0]].get("dtype", ""))))
    hints.append("or supply real data with --input NAME=FILE.npy (.npz, .pb)")
    if not options.search and guessed and not index_failure:
        hints.append("or drop --no-search to let onnxpack try common sizes")
    hint = "; ".join(hints)
    return Finding.error("SMOKE_RUN_FAILED", " ".join(parts), hint[:1].upper() + hint[1:] + ".", model_name,
                         detail=fail["message"], inputs=gen_text or "-", dims=guessed_text or "-")


def _output_findings(desc: dict[str, Any], model_name: str, *, primary: bool = True) -> list[Finding]:
    out: list[Finding] = []
    for o in desc["outputs"]:
        if primary and o.get("shape") is None:  # a sequence or map (a ZipMap's seq(map(int64, float)))
            kind = str(o.get("elem_type") or "").lower()
            out.append(Finding.info(
                "SMOKE_OUTPUT_NOT_TENSOR",
                f"{model_name}: output {o['name']} is a {kind}, not a tensor: only its SHA-256 is recorded (no .npy "
                "is saved, and a bundle holds no reference values for it), and onnxruntime-node (JavaScript) "
                "cannot return such an output",
                "If an app reads it with onnxruntime-node, re-export the model with tensor outputs (scikit-learn "
                "classifiers: skl2onnx's option zipmap=False).",
                o["name"],
                model=model_name, type=kind,
            ))
        if o.get("finite") is False:
            out.append(Finding.warning(
                "SMOKE_NON_FINITE",
                f"{model_name}: output {o['name']} has {o['nan_count']} NaN and {o['inf_count']} Inf value(s) "
                f"out of {o['size']}",
                "Check the model with real inputs (--input NAME=FILE); generated random inputs can also overflow.",
                o["name"],
                model=model_name, nan=o["nan_count"], inf=o["inf_count"], size=o["size"],
            ))
        if o.get("constant"):
            out.append(Finding.info(
                "SMOKE_CONSTANT_OUTPUT",
                f"{model_name}: output {o['name']} is constant everywhere ({o.get('constant_value')!s})",
                "This can be normal (e.g. a mask); otherwise the model may ignore its input.",
                o["name"],
                model=model_name, value=str(o.get("constant_value")),
            ))
    for name in desc.get("nondeterministic") or []:
        out.append(Finding.warning(
            "SMOKE_NONDETERMINISTIC",
            f"{model_name}: output {name} differs between runs on the same inputs",
            "The model is non-deterministic (random ops?); equality checks against it are not meaningful.",
            name,
            model=model_name,
        ))
    return out


def _input_findings(recipe: dict[str, Any], model_name: str) -> list[Finding]:
    out: list[Finding] = []
    for name, e in recipe["inputs"].items():
        if e.get("source") == "omitted":
            out.append(Finding.info("SMOKE_INPUT_OMITTED", f"{model_name}: optional input {name} was not fed",
                                    f"Feed it with --input {name}=FILE.npy to test that path.", name,
                                    model=model_name))
        elif e.get("source") == "initializer":
            out.append(Finding.info(
                "SMOKE_INPUT_DEFAULT",
                f"{model_name}: input {name} has a default value (an initializer of the same name); "
                "the default was used",
                f"Override it with --input {name}=FILE.npy.", name, model=model_name))
    return out


def _smoke_result(raw: dict[str, Any], index: int, prepared: _Prepared, options: SmokeOptions,
                  loaded: list[LoadedInput]) -> SmokeResult:
    name = prepared.name
    recipe = _recipe(raw, options, loaded)
    findings = _input_findings(recipe, name)
    search = dict(raw.get("search") or {})
    models = raw.get("models") or []
    if raw.get("failure") is not None and index == 0:
        findings.append(_failure_finding(raw, name, options))
        return SmokeResult(str(prepared.location.model), False, raw["ort_version"], raw["provider"], None, None, None,
                           [], [], recipe, search, findings, error=raw["failure"]["message"])
    desc = models[index]
    if index == 0 and search.get("found"):
        found = search["found"]
        flags = " ".join(f"--dim {k}={v}" if not k.endswith("]") else f'--dim "{k}={v}"' for k, v in found.items())
        sizes = ", ".join(f"{k}={v}" for k, v in found.items())
        attempts = len(search.get("attempts") or [])
        findings.append(Finding.warning(
            "SMOKE_DIMS_SEARCHED",
            f"{name}: the run failed with the default sizes ({search.get('initial_error')}); it passed with "
            f"{sizes} after {attempts} attempt(s)",
            f"Pass {flags} to use these sizes directly (or the model's real sizes).",
            name,
            sizes=sizes, attempts=attempts,
        ))
    findings += _output_findings(desc, name, primary=index == 0)
    ok = not any(f.severity is Severity.ERROR for f in findings)
    return SmokeResult(
        str(prepared.location.model), ok, raw["ort_version"], raw["provider"], desc["create_s"], desc["first_run_s"],
        desc["median_run_s"], list(desc["run_times"]), list(desc["outputs"]), recipe, search, findings,
        load=desc.get("load", ""),
    )


_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10))}


def safe_output_filename(name: str, taken: set[str]) -> str:
    """A file name for output ``name``: ``<name>.npy`` with anything unsafe replaced by ``_``.

    Path separators, ``..``, control characters, Windows-reserved names and case-insensitive
    collisions are neutralised; ``taken`` (case-folded names) is updated.
    """
    base = unicodedata.normalize("NFC", name)
    base = re.sub(r"[^\w.\-]+", "_", base)  # separators, spaces, control characters
    base = re.sub(r"_+", "_", re.sub(r"\.\.+", "_", base))  # no '..' anywhere
    base = base.strip(". ") or "output"
    if base.split(".")[0].upper() in _RESERVED:
        base = "_" + base
    base = base[:150]
    fname = base + ".npy"
    i = 2
    while fname.casefold() in taken:
        fname = f"{base}_{i}.npy"
        i += 1
    taken.add(fname.casefold())
    return fname


def save_outputs(arrays: Mapping[str, Any], out_dir: Path, *, protected: list[Path] | None = None) -> dict[str, str]:
    """Write each output to ``out_dir/<output name>.npy`` (atomically); return {output name: file path}.

    ``out_dir`` is created if missing (with its parents, as every command does). String outputs are saved as numpy
    unicode arrays (never pickled objects); sequences and maps are not saved.
    """
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"--save-outputs {out_dir} is a file, not a folder", "Give a folder.", code="OUTPUT_IS_FILE")
    if not out_dir.exists():
        try:
            out_dir.mkdir(parents=True)
        except OSError as e:
            raise output_error_from_oserror(e, out_dir) from None
    real_dir = Path(os.path.realpath(out_dir))
    taken: set[str] = set()
    written: dict[str, str] = {}
    for name, value in arrays.items():
        if not isinstance(value, np.ndarray):
            continue
        fname = safe_output_filename(name, taken)
        dest = out_dir / fname
        if Path(os.path.realpath(dest)).parent != real_dir:
            raise OutputError(f"Output name {name!r} would be written outside {out_dir}", "Rename the output.",
                              code="OUTPUT_ESCAPES")
        check_output_path(dest, protected or [])
        arr = value.astype(str) if value.dtype.kind in "OS" else value
        with atomic_file(dest) as f:
            np.save(f, arr, allow_pickle=False)
        written[name] = str(dest)
    return written


def _execute(models: list[_Prepared], options: SmokeOptions, *, return_outputs: bool,
             progress: ProgressCallback | None, cancel: CancelToken | None,
             child: ChildProcess | None) -> tuple[dict[str, Any], list[LoadedInput]]:
    supplied, values, loaded = _load_inputs(options)
    # ORT's (empty) lookup folder, named onnxpack-smoke-PID-RANDOM like every temporary, so that the next run
    # removes it if this one is killed (README, "When a run is killed").
    empty_dir = make_temp_dir("smoke")
    try:
        job = _make_job(models, options, supplied, values, str(empty_dir), return_outputs)
        what = f"The smoke run of {models[0].name}"
        if len(models) > 1:
            what = f"The comparison of {models[0].name} with {models[1].name}"
        raw = run_in_child(SMOKE_TARGET, job, timeout=float(options.timeout), what=what, cancel=cancel,
                           progress=progress, child=child)
    finally:
        shutil.rmtree(empty_dir, ignore_errors=True)
    return raw, loaded


def smoke_test(
    path: str | os.PathLike[str],
    data_dir: str | os.PathLike[str] | None = None,
    *,
    options: SmokeOptions | None = None,
    save_outputs_to: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    child: ChildProcess | None = None,
    window: Window | None = None,
    name: str | None = None,
) -> SmokeResult:
    """Run ``path`` (.onnx with validated external data, or .ort) with ONNX Runtime on the CPU.

    The session lives in a child process with ``options.timeout``; a crash or time-out raises
    RuntimeFailure, a model ORT cannot load raises RuntimeFailure (code ORT_LOAD), bad external data
    ExternalDataError. A run that fails on the generated inputs (after the bounded size search)
    returns ``ok=False`` with an error finding that names the flags to try.
    """
    options = options or SmokeOptions()
    options.validate()
    with _early_child(SMOKE_TARGET, child) as child:  # its imports overlap the validation below
        prepared = _prepare_model(path, data_dir, "", window, name)
        raw, loaded = _execute([prepared], options, return_outputs=save_outputs_to is not None, progress=progress,
                               cancel=cancel, child=child)
    result = _smoke_result(raw, 0, prepared, options, loaded)
    if save_outputs_to is not None and raw.get("arrays"):
        result.saved_outputs = save_outputs(raw["arrays"], Path(save_outputs_to), protected=prepared.protected)
    return result


def compare_models(
    original: str | os.PathLike[str],
    other: str | os.PathLike[str],
    *,
    data_dir: str | os.PathLike[str] | None = None,
    other_data_dir: str | os.PathLike[str] | None = None,
    options: SmokeOptions | None = None,
    save_outputs_to: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    child: ChildProcess | None = None,
    other_window: Window | None = None,
    other_name: str | None = None,
) -> CompareResult:
    """Run both models in one child on the same inputs (generated for ``original``) and compare outputs.

    Per output: bitwise equality, else max absolute / relative difference; the pass line is
    ``|other - original| <= atol + rtol * |original|`` (options.atol/rtol; 0/0 = equal values).
    The sessions are created one after the other, so only one model is in memory at a time.
    """
    options = options or SmokeOptions()
    options.validate()
    with _early_child(SMOKE_TARGET, child) as child:  # its imports overlap the validation below
        first = _prepare_model(original, data_dir, "original")
        second = _prepare_model(other, other_data_dir, "other", other_window, other_name)
        if first.location.model == second.location.model and first.location.data_dir == second.location.data_dir:
            raise InputError(f"Both models are the same file: {first.location.model}",
                             "Compare the original with a different file (e.g. the merged copy).", code="USAGE")
        raw, loaded = _execute([first, second], options, return_outputs=save_outputs_to is not None,
                               progress=progress, cancel=cancel, child=child)
    orig = _smoke_result(raw, 0, first, options, loaded)
    if save_outputs_to is not None and raw.get("arrays"):
        orig.saved_outputs = save_outputs(raw["arrays"], Path(save_outputs_to), protected=first.protected)
    if raw.get("compare") is None:
        return CompareResult(False, orig, None, [], options.atol, options.rtol, list(orig.findings))
    oth = _smoke_result(raw, 1, second, options, loaded)
    rows = list(raw["compare"]["outputs"])
    findings: list[Finding] = []
    tol = f"atol={options.atol:g}, rtol={options.rtol:g}"
    nondet = set(orig_nd for o in raw["models"] for orig_nd in o.get("nondeterministic") or [])
    for r in rows:
        n = r["name"]
        if r["problem"] == "missing in the other model":
            findings.append(Finding.error("COMPARE_MISSING_OUTPUT", f"Output {n} of the original is missing in "
                                          f"{second.name}", "Compare models with the same outputs.", n,
                                          model=second.name))
        elif not r["within_tolerance"]:
            detail = r["problem"] or (f"max abs diff {r['max_abs']:.6g}, max rel diff {r['max_rel']:.6g}, "
                                      f"{r['mismatched']} value(s) outside the tolerance")
            hint = (f"Tolerance is {tol}; raise --atol/--rtol if small differences are expected "
                    "(e.g. an optimized graph).")
            if n in nondet:
                hint = "The output is non-deterministic, so runs differ anyway. " + hint
            findings.append(Finding.error("COMPARE_MISMATCH", f"Output {n} differs: {detail}", hint, n,
                                          detail=detail, tol=tol))
        elif not r["bitwise_equal"]:
            findings.append(Finding.info(
                "COMPARE_NOT_BITWISE",
                f"Output {n} is within the tolerance ({tol}) but not bitwise identical "
                f"(max abs diff {r['max_abs']:.6g}, max rel diff {r['max_rel']:.6g})",
                "Expected for re-optimized graphs; a merged copy of the same model should be bitwise identical.",
                n,
                tol=tol, max_abs=f"{r['max_abs']:.6g}", max_rel=f"{r['max_rel']:.6g}",
            ))
    for n in raw["compare"].get("extra_outputs") or []:
        findings.append(Finding.warning("COMPARE_EXTRA_OUTPUT", f"{second.name} has an output {n} "
                                        "that the original lacks", "Compare models with the same outputs.", n,
                                        model=second.name))
    all_findings = orig.findings + oth.findings + findings
    ok = orig.ok and oth.ok and not any(f.severity is Severity.ERROR for f in findings)
    return CompareResult(ok, orig, oth, rows, options.atol, options.rtol, all_findings)
