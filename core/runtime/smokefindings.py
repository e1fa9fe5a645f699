"""What a smoke run found: the findings of one run, of its outputs and inputs, and of a comparison of two models."""

from __future__ import annotations

import math
from typing import Any

from ..findings import Finding, Severity
from . import codes
from .inputfiles import LoadedInput
from .smokeoptions import RECIPE_SCHEMA, SmokeOptions, SmokeResult

__all__ = ["compare_findings", "smoke_result"]

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
    } | _profile_entries(raw)


def _profile_entries(raw: dict[str, Any]) -> dict[str, Any]:
    """How the generated inputs were made (``inputs_profile``, which ``verify --smoke`` repeats) and, when the first
    inputs gave NaN/Inf outputs, what was tried (``inputs_tried``)."""
    out: dict[str, Any] = {}
    if raw.get("inputs_profile"):
        out["inputs_profile"] = raw["inputs_profile"]
    if raw.get("inputs_tried"):
        out["inputs_tried"] = [dict(t) for t in raw["inputs_tried"]]
    return out


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
        return codes.SMOKE_INPUT_TOO_LARGE.finding(
            model_name, variant=None if given else "fixed", size=fail["size"], limit=fail["limit"],
            detail=fail["message"], dim=given[0] if given else "",
        )
    if fail["kind"] == "inputs":
        return codes.SMOKE_INPUT_UNSUPPORTED.finding(model_name, detail=fail["message"])
    return _run_failed(raw, model_name, options)


def _run_failed(raw: dict[str, Any], model_name: str, options: SmokeOptions) -> Finding:
    """SMOKE_RUN_FAILED: what ONNX Runtime said, the inputs and dims onnxpack chose, and which flags to try."""
    fail = raw["failure"]
    inputs = fail.get("inputs") or {}
    gen = [f"{n} {e.get('dtype')}{_fmt_shape(e.get('shape'))}" for n, e in inputs.items()
           if e.get("source") == "generated"]
    dims = fail.get("dims") or {}
    srcs = fail.get("dim_sources") or {}
    guessed = {k: v for k, v in dims.items() if srcs.get(k) in ("default", "search")}
    gen_text = ", ".join(gen)
    guessed_text = ", ".join(f"{k}={v}" for k, v in guessed.items())
    attempts = raw.get("search", {}).get("attempts") or []
    tried = sorted({v for a in attempts for v in a["dims"].values()})
    variant = "_".join(p for p, present in (("g", gen), ("d", guessed), ("s", attempts)) if present) or None
    hint_variant, values = _run_failed_hint(fail, guessed, options)
    return codes.SMOKE_RUN_FAILED.finding(model_name, variant=variant, hint_variant=hint_variant,
                                          detail=fail["message"], inputs=gen_text or "-", dims=guessed_text or "-",
                                          attempts=len(attempts), tried=", ".join(map(str, tried)), **values)


def _run_failed_hint(fail: dict[str, Any], guessed: dict[str, int],
                     options: SmokeOptions) -> tuple[str, dict[str, str]]:
    """The flags to try after a failed run: SMOKE_RUN_FAILED's remedy variant and the values it names."""
    inputs = fail.get("inputs") or {}
    message = str(fail["message"]).lower()
    int_generated = [n for n, e in inputs.items() if e.get("source") == "generated"
                     and str(e.get("dtype", "")).startswith(("int", "uint")) and n not in options.ranges]
    if int_generated and any(w in message for w in _INDEX_WORDS):
        # An index out of bounds: generated integers are small, but not small enough for this table. Sizes
        # and scalar values would not help; the valid range of the indices does.
        n = int_generated[0]
        return "index", {"name": n, "capitalized": n[:1].upper() + n[1:],  # the remedy's first word
                         "distribution": str(inputs[n].get("distribution", ""))}
    values = _size_hints(inputs, guessed)
    parts = ["sizes"] * ("dim_arg" in values) + ["scalars"] * ("scalar" in values)
    if not options.search and guessed:
        parts.append("search")
    return "_".join(parts) or "supply", values


def _size_hints(inputs: dict[str, Any], guessed: dict[str, int]) -> dict[str, str]:
    """Real sizes for the dims onnxpack guessed (``dim_arg``), real values for the scalar inputs it generated
    (``scalar``, ``example``): what SMOKE_RUN_FAILED's remedy names."""
    from .dimsearch import is_batch_like

    values: dict[str, str] = {}
    named = sorted((k for k in guessed if not k.endswith("]")), key=is_batch_like)  # non-batch dims first
    if guessed:
        k = named[0] if named else next(iter(guessed))
        values["dim_arg"] = f"{k}=512" if named else f'"{k}=512"'
    scalars = sorted((n for n, e in inputs.items() if e.get("source") == "generated"
                      and isinstance(e.get("shape"), list) and math.prod(e["shape"]) <= 1
                      and len(e["shape"]) <= 1), key=lambda n: len(inputs[n]["shape"]))  # 0-d ones first
    if scalars:
        values["scalar"] = scalars[0]
        values["example"] = _example_value(str(inputs[scalars[0]].get("dtype", "")))
    return values


def _constant_value(o: dict[str, Any]) -> str | None:
    """The value of a constant output, never "None" (an all-NaN output's value is NaN); None when it is not a finite
    number and not all NaN or all Inf (SMOKE_CONSTANT_OUTPUT says so in its own words)."""
    value = o.get("constant_value")
    if value is not None:
        return str(value)
    if o.get("nan_count") and o.get("nan_count") == o.get("size"):
        return "NaN"
    if o.get("inf_count") and o.get("inf_count") == o.get("size"):
        return "Inf"
    return None


def _non_finite_tried(tried: list[dict[str, Any]]) -> dict[str, Any]:
    """SMOKE_NON_FINITE's remedy after the run tried other inputs ("tried": which profiles, as the recipe names them
    (``inputs_profile``); "tried_failed": some of them failed to run, with ONNX Runtime's first error; then the usual
    remedy). Every profile tried that ran gave NaN/Inf (one that gave none would be the run reported)."""
    if len(tried) < 2:
        return {}
    profiles = ", ".join(str(t.get("profile")) for t in tried)
    failed = [t for t in tried if t.get("error")]
    if not failed:
        return {"hint_variant": "tried", "kinds": len(tried), "profiles": profiles}
    return {"hint_variant": "tried_failed", "kinds": len(tried), "profiles": profiles, "failed": len(failed),
            "failed_profile": str(failed[0].get("profile")), "error": str(failed[0]["error"])}


def _output_findings(desc: dict[str, Any], model_name: str, *, primary: bool = True,
                     tried: list[dict[str, Any]] | None = None) -> list[Finding]:
    out: list[Finding] = []
    for o in desc["outputs"]:
        if primary and o.get("shape") is None:  # a sequence or map (a ZipMap's seq(map(int64, float)))
            kind = str(o.get("elem_type") or "").lower()
            out.append(codes.SMOKE_OUTPUT_NOT_TENSOR.finding(o["name"], model=model_name, type=kind))
        if o.get("finite") is False:
            out.append(codes.SMOKE_NON_FINITE.finding(o["name"], model=model_name, nan=o["nan_count"],
                                                      inf=o["inf_count"], size=o["size"],
                                                      **_non_finite_tried(tried or [])))
        if o.get("constant"):
            value = _constant_value(o)
            variant = None if value is not None else "non_finite"
            out.append(codes.SMOKE_CONSTANT_OUTPUT.finding(o["name"], variant=variant, model=model_name,
                                                           value=value if value is not None else ""))
    for name in desc.get("nondeterministic") or []:
        out.append(codes.SMOKE_NONDETERMINISTIC.finding(name, model=model_name))
    return out


def _input_findings(recipe: dict[str, Any], model_name: str) -> list[Finding]:
    out: list[Finding] = []
    for name, e in recipe["inputs"].items():
        if e.get("source") == "omitted":
            out.append(codes.SMOKE_INPUT_OMITTED.finding(name, model=model_name))
        elif e.get("source") == "initializer":
            out.append(codes.SMOKE_INPUT_DEFAULT.finding(name, model=model_name))
    return out


def _searched_finding(search: dict[str, Any], name: str) -> Finding:
    """SMOKE_DIMS_SEARCHED: the sizes the search found, as the flags that give them directly."""
    found = search["found"]
    flags = " ".join(f"--dim {k}={v}" if not k.endswith("]") else f'--dim "{k}={v}"' for k, v in found.items())
    sizes = ", ".join(f"{k}={v}" for k, v in found.items())
    attempts = len(search.get("attempts") or [])
    return codes.SMOKE_DIMS_SEARCHED.finding(name, sizes=sizes, attempts=attempts,
                                             error=search.get("initial_error"), flags=flags)


def smoke_result(raw: dict[str, Any], index: int, model: str, name: str, options: SmokeOptions,
                 loaded: list[LoadedInput]) -> SmokeResult:
    """The SmokeResult of model ``index`` of the child's answer ``raw`` (``model``: its path, ``name``: what
    messages call it)."""
    recipe = _recipe(raw, options, loaded)
    findings = _input_findings(recipe, name)
    search = dict(raw.get("search") or {})
    models = raw.get("models") or []
    if raw.get("failure") is not None and index == 0:
        findings.append(_failure_finding(raw, name, options))
        return SmokeResult(model, False, raw["ort_version"], raw["provider"], None, None, None,
                           [], [], recipe, search, findings, error=raw["failure"]["message"])
    desc = models[index]
    if index == 0 and search.get("found"):
        findings.append(_searched_finding(search, name))
    findings += _output_findings(desc, name, primary=index == 0,
                                 tried=list(raw.get("inputs_tried") or []) if index == 0 else None)
    loads = raw.get("loads") if index == 0 else None
    if loads is not None:
        findings += load_findings(loads, name)
    ok = not any(f.severity is Severity.ERROR for f in findings)
    return SmokeResult(
        model, ok, raw["ort_version"], raw["provider"], desc["create_s"], desc["first_run_s"],
        desc["median_run_s"], list(desc["run_times"]), list(desc["outputs"]), recipe, search, findings,
        load=desc.get("load", ""), loads=loads, load_measured=raw.get("load_measured") if index == 0 else None,
        source_load_measured=raw.get("source_load_measured") if index == 0 else None,
    )


def load_findings(rows: list[dict[str, Any]], name: str) -> list[Finding]:
    """The load matrix's findings: what passed (info), the expected refusal from bytes of a model with external
    data (info), and any other failure (a warning naming the mode and what the app must do instead). Each failed row
    gets its remedy from the finding (the manifest and README.txt say it)."""
    out: list[Finding] = []
    for row in rows:
        if row["ok"]:
            continue
        mode = str(row["mode"])
        if row.get("expected"):
            finding = codes.SMOKE_LOAD_FROM_BYTES.finding(name, model=name)
        elif row.get("differs"):
            finding = codes.SMOKE_LOAD_FAILED.finding(name, variant="differs", model=name, mode=mode)
        else:
            variant = mode.replace("-", "_") if mode.replace("-", "_") in codes.SMOKE_LOAD_FAILED.variants else None
            finding = codes.SMOKE_LOAD_FAILED.finding(name, variant=variant, model=name, mode=mode,
                                                      error=row.get("error", ""))  # fmt: skip
        row["remedy"] = finding.hint
        out.append(finding)
    passed = [str(r["mode"]) for r in rows if r["ok"]]
    if passed:
        out.append(codes.SMOKE_LOADS_OK.finding(name, model=name, modes=", ".join(passed)))
    return out


def compare_findings(raw: dict[str, Any], other_name: str, options: SmokeOptions) -> list[Finding]:
    """The findings of comparing the outputs of the original with those of the other model (``other_name``)."""
    findings: list[Finding] = []
    tol = f"atol={options.atol:g}, rtol={options.rtol:g}"
    nondet = set(orig_nd for o in raw["models"] for orig_nd in o.get("nondeterministic") or [])
    for r in raw["compare"]["outputs"]:
        n = r["name"]
        if (r.get("differs") or {}).get("kind") == "missing":
            findings.append(codes.COMPARE_MISSING_OUTPUT.finding(n, model=other_name))
        elif not r["within_tolerance"]:
            findings.append(_mismatch(r, tol, n in nondet))
        elif not r["bitwise_equal"]:
            findings.append(codes.COMPARE_NOT_BITWISE.finding(n, tol=tol, max_abs=f"{r['max_abs']:.6g}",
                                                              max_rel=f"{r['max_rel']:.6g}"))
    for n in raw["compare"].get("extra_outputs") or []:
        findings.append(codes.COMPARE_EXTRA_OUTPUT.finding(n, model=other_name))
    return findings


def _mismatch(row: dict[str, Any], tol: str, nondeterministic: bool) -> Finding:
    """COMPARE_MISMATCH: how the output differs (its variant: the row's ``differs`` kind, else by how much) and the
    remedy (the output differs between runs of the same model: "nondeterministic")."""
    differs = dict(row.get("differs") or {})
    kind = differs.pop("kind", None)
    values = differs if kind else {"max_abs": f"{row['max_abs']:.6g}", "max_rel": f"{row['max_rel']:.6g}",
                                   "mismatched": row["mismatched"]}
    hint_variant = "nondeterministic" if nondeterministic else None
    return codes.COMPARE_MISMATCH.finding(row["name"], variant=kind, hint_variant=hint_variant, tol=tol, **values)
