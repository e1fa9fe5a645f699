"""What a smoke run is asked and what it answers: SmokeOptions (and its recipe), SmokeResult, CompareResult."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errorcodes import USAGE
from ..errors import OnnxpackError
from ..findings import Finding
from . import codes
from .inputfiles import MAX_DIM, parse_dim, parse_input, parse_range
from .inputs import DEFAULT_DIM

__all__ = ["RECIPE_SCHEMA", "SCHEMA", "CompareResult", "SmokeOptions", "SmokeResult"]

SCHEMA = "onnxpack.smoke/1"
RECIPE_SCHEMA = "onnxpack.smoke-recipe/1"


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
    #: How often the second model of :func:`compare_models` runs (None: ``runs``). A bundle compares the original
    #: once: its outputs are what is compared; the shipped model's runs are the timed ones, checked for
    #: nondeterminism.
    compare_runs: int | None = None
    #: How generated inputs are made (core.runtime.inputs.PROFILES): None, what the model says and the next plausible
    #: inputs while outputs are NaN/Inf; a recorded recipe names the one its run used (``plain`` when it names none:
    #: a bundle made before onnxpack read what a model says about its inputs), repeated exactly.
    inputs_profile: str | None = None
    #: Also load the model the ways apps load it (core/runtime/loadmatrix.py): a bundle's shipped model.
    load_matrix: bool = False

    def validate(self) -> None:
        """Raise InputError (exit 2) for values that cannot work."""
        for check in (self._run_problem, self._tolerance_problem, self._dims_problem, self._range_problem):
            problem = check()
            if problem is not None:
                raise problem

    def _run_problem(self) -> OnnxpackError | None:
        if not isinstance(self.runs, int) or self.runs < 1 or self.runs > 10000:
            return USAGE.error(variant="runs", value=self.runs)
        if self.compare_runs is not None and not (isinstance(self.compare_runs, int) and self.compare_runs >= 1):
            return USAGE.error(variant="compare_runs", value=self.compare_runs)
        if not isinstance(self.seed, int) or self.seed < 0:
            return USAGE.error(variant="seed", value=self.seed)
        if not (isinstance(self.timeout, (int, float)) and math.isfinite(self.timeout) and self.timeout > 0):
            return USAGE.error(variant="timeout", value=self.timeout)
        return None

    def _tolerance_problem(self) -> OnnxpackError | None:
        for name, v in (("atol", self.atol), ("rtol", self.rtol)):
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
                return USAGE.error(variant=name, value=v)
        return None

    def _dims_problem(self) -> OnnxpackError | None:
        for k, d in self.dims.items():
            if not isinstance(d, int) or isinstance(d, bool) or d < 1:
                return USAGE.error(variant="dim_small", name=k, value=d)
            if d > MAX_DIM:
                return USAGE.error(variant="dim_large", name=k, value=d, max=MAX_DIM)
        if not isinstance(self.default_dim, int) or not 0 <= self.default_dim <= MAX_DIM:
            return USAGE.error(variant="default_dim", value=self.default_dim)
        return None

    def _range_problem(self) -> OnnxpackError | None:
        for k, (lo, hi) in self.ranges.items():
            if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
                return USAGE.error(variant="range_finite", name=k, lo=lo, hi=hi)
        return None

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
        } | ({"inputs_profile": self.inputs_profile} if self.inputs_profile else {})

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
                        raise codes.RECIPE_OUTSIDE_BUNDLE.error(file=e["file"], name=name)
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
                inputs_profile=_recorded_profile(d.get("inputs_profile", "plain")),
            )
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise codes.RECIPE.error(detail=str(e)) from None
        opts.validate()
        return opts

    def to_job(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "runs": self.runs,
            "compare_runs": self.compare_runs or self.runs,
            "search": self.search,
            "default_dim": self.default_dim,
            "dims": dict(self.dims),
            "ranges": {k: [lo, hi] for k, (lo, hi) in self.ranges.items()},
            "atol": float(self.atol),
            "rtol": float(self.rtol),
            "inputs_profile": self.inputs_profile,
            "load_matrix": self.load_matrix,
        }


def _recorded_profile(value: Any) -> str:
    """A recipe's ``inputs_profile``, one onnxpack knows (ValueError otherwise: the recipe is refused)."""
    from .inputs import PROFILES

    if value not in PROFILES:
        raise ValueError(f"unknown inputs_profile {value!r} (known: {', '.join(PROFILES)})")
    return str(value)


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
    loads: list[dict[str, Any]] | None = None  # the load matrix's rows (SmokeOptions.load_matrix), else None
    #: The end user's load of the model by its path, measured by the run's own session (KnownModel.by_path), else None
    load_measured: dict[str, Any] | None = None
    #: ... and of the source by its path, after the run (KnownModel.source_by_path), else None
    source_load_measured: dict[str, Any] | None = None

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
            **({"loads": self.loads} if self.loads is not None else {}),
        }


@dataclass
class CompareResult:
    """Outcome of running two models on the same inputs."""

    ok: bool
    original: SmokeResult
    other: SmokeResult | None
    #: name, bitwise_equal, max_abs, max_rel, mismatched, within_tolerance, problem (and differs: outputfacts.py)
    outputs: list[dict[str, Any]]
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
