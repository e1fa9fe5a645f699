"""`onnxpack smoke` (run a model with ONNX Runtime, optionally compare) and `onnxpack ort` (ORT format)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from onnxpack.core import strictjson
from onnxpack.core.findings import Finding
from onnxpack.core.release.flaggroups import SMOKE_INPUT_SPEC
from onnxpack.core.runtime.codes import RECIPE

from .env import Environment, ExitStatus
from .output import (
    emit_json,
    format_bytes,
    output_file_or_folder,
    plural,
    print_findings,
    print_table,
    progress_reporter,
)

if TYPE_CHECKING:
    from onnxpack.core.runtime.smoke import CompareResult, SmokeOptions, SmokeResult

# The engine (onnx, numpy, the smoke machinery) is imported inside the handlers: `onnxpack smoke` first
# starts its child process, which imports ONNX Runtime while this process imports the engine.

__all__ = ["HANDLERS"]


def _options(args: argparse.Namespace, **extra: Any) -> SmokeOptions:
    from onnxpack.core.runtime.smoke import SmokeOptions

    if args.recipe:
        path = Path(args.recipe)
        try:
            doc = strictjson.loads(path.read_bytes())
        except (OSError, ValueError, RecursionError) as e:
            raise RECIPE.error(variant="unreadable", path=str(path), reason=str(e)) from None
        if isinstance(doc, dict) and "recipe" in doc:
            doc = doc["recipe"]
        if isinstance(doc, dict) and "original" in doc:
            doc = doc["original"].get("recipe", doc)
        if not isinstance(doc, dict):
            raise RECIPE.error(variant="no_recipe", path=str(path))
        opts = SmokeOptions.from_recipe(doc, path.parent)
        # Explicit flags still win over the recipe (its seed stays: it made the recorded inputs).
        flags = SMOKE_INPUT_SPEC.fields_from_values(vars(args))
        opts.dims.update(flags["dims"])
        opts.inputs.update(flags["inputs"])
        opts.ranges.update(flags["ranges"])
        opts.timeout = flags["timeout"]
        for k, v in extra.items():
            setattr(opts, k, v)
        return opts
    return SmokeOptions(**SMOKE_INPUT_SPEC.fields_from_values(vars(args)), **extra)


def _ms(s: float | None) -> str:
    return "-" if s is None else (f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s")


def _print_result(env: Environment, r: SmokeResult, title: str) -> None:
    w = env.stdout.write
    w(f"{title}: {'PASSED' if r.ok else 'FAILED'}\n")
    w(f"  ONNX Runtime {r.ort_version}, {r.provider}" + (f" ({r.load})" if r.load else "") + "\n")
    if r.session_create_s is not None:
        w(f"  session {_ms(r.session_create_s)}, first run {_ms(r.first_run_s)}, "
          f"median of {plural(len(r.run_times), 'run')} {_ms(r.median_run_s)}\n")
    rows = []
    for name, e in r.recipe.get("inputs", {}).items():
        src = e.get("source")
        file_text = f"{e.get('file')}" + (f":{e.get('member')}" if e.get("member") else "")
        what = {"generated": e.get("distribution"), "value": f"value {e.get('value')}", "file": file_text}.get(
            src, e.get("reason")
        )
        rows.append([name, e.get("dtype", ""), _shape(e.get("shape")), src, what])
    if rows:
        w("  inputs:\n")
        print_table(env, ["name", "dtype", "shape", "source", "details"], rows, indent="    ")
    dims = r.recipe.get("dims") or {}
    if dims:
        srcs = r.recipe.get("dim_sources") or {}
        w("  dims: " + ", ".join(f"{k}={v} ({srcs.get(k, '?')})" for k, v in dims.items()) + "\n")
    if r.outputs:
        w("  outputs:\n")
        print_table(env, ["name", "type", "shape", "finite", "sha256"], [
            [o["name"], o["elem_type"], _shape(o.get("shape")), {True: "yes", False: "NO", None: "-"}[o.get("finite")],
             o["sha256"][:16] + "…"] for o in r.outputs
        ], indent="    ")
    for name, p in r.saved_outputs.items():
        w(f"  saved {name} -> {p}\n")


def _shape(s: Any) -> str:
    return "[" + ", ".join(str(x) for x in s) + "]" if isinstance(s, list) else "-"


def _print_compare(env: Environment, c: CompareResult) -> None:
    _print_result(env, c.original, f"Original {Path(c.original.model).name}")
    if c.other is not None:
        _print_result(env, c.other, f"Other {Path(c.other.model).name}")
    if c.outputs:
        env.stdout.write(f"Comparison (atol={c.atol:g}, rtol={c.rtol:g}): "
                         f"{'bitwise identical' if c.bitwise_equal else ('PASSED' if c.ok else 'FAILED')}\n")
        print_table(env, ["output", "bitwise", "max abs", "max rel", "pass"], [
            [r["name"], "yes" if r["bitwise_equal"] else "no", _num(r["max_abs"]), _num(r["max_rel"]),
             ("yes" if r["within_tolerance"] else "NO") + (f" ({r['problem']})" if r.get("problem") else "")]
            for r in c.outputs
        ])


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.3g}"


def _findings(env: Environment, findings: list[Finding]) -> None:
    env.stdout.write("Findings:\n")
    print_findings(env, findings)


def _smoke(args: argparse.Namespace, env: Environment) -> int:
    from onnxpack.core.child.childproc import SMOKE_TARGET, ChildProcess

    child = getattr(args, "early_child", None) or ChildProcess(SMOKE_TARGET)  # main() started it
    try:
        return _smoke_with(child, args, env)
    finally:
        child.discard()


def _smoke_with(child: Any, args: argparse.Namespace, env: Environment) -> int:
    from onnxpack.core.runtime.smoke import compare_models, smoke_test

    opts = _options(args, runs=args.runs, search=not args.no_search, atol=args.atol, rtol=args.rtol)
    if args.compare:
        c = compare_models(args.model, args.compare, data_dir=args.data_dir, other_data_dir=args.other_data_dir,
                           options=opts, save_outputs_to=args.save_outputs, child=child,
                           progress=progress_reporter(env, args.quiet))
        if args.json:
            emit_json(env, c.to_dict())
        else:
            _print_compare(env, c)
            _findings(env, c.findings)
        return ExitStatus.OK if c.ok else ExitStatus.FINDINGS
    r = smoke_test(args.model, args.data_dir, options=opts, save_outputs_to=args.save_outputs, child=child,
                           progress=progress_reporter(env, args.quiet))
    if args.json:
        emit_json(env, r.to_dict())
    else:
        _print_result(env, r, f"Smoke run of {Path(r.model).name}")
        _findings(env, r.findings)
    return ExitStatus.OK if r.ok else ExitStatus.FINDINGS


def _ort(args: argparse.Namespace, env: Environment) -> int:
    from onnxpack.core.runtime.ortformat import convert_to_ort

    opts = _options(args)
    output_file_or_folder(args.output, "ort", None, ("NAME.ort", "required_operators.config"))
    res = convert_to_ort(args.model, args.output, args.data_dir, optimization_style=args.optimization_style,
                         target_platform=args.target_platform, options=opts, atol=args.atol, rtol=args.rtol,
                         progress=progress_reporter(env, args.quiet))
    if args.json:
        emit_json(env, res.to_dict())
        return ExitStatus.OK if res.ok else ExitStatus.FINDINGS
    w = env.stdout.write
    w(f"ORT format ({res.optimization_style}"
      + (f", {res.target_platform}" if res.target_platform else "") + f") written to {args.output}\n")
    print_table(env, ["file", "size"], [[f["name"], format_bytes(f["size"])] for f in res.files])
    _print_compare(env, res.compare)
    _findings(env, res.findings)
    w(f"ORT-format check: {'PASSED' if res.ok else 'FAILED'}\n")
    return ExitStatus.OK if res.ok else ExitStatus.FINDINGS


#: The commands this module runs (cli/commands.py names them; their flags are core/release/flaggroups.py's).
HANDLERS = {"smoke": _smoke, "ort": _ort}
