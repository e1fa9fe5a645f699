"""`onnxpack inspect` and `onnxpack check`: what a model is, and whether it is fit for release."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onnxpack.core import errorcodes
from onnxpack.core.checks.inspection import Inspection, inspect_model
from onnxpack.core.findings import Finding
from onnxpack.core.model.layout import Layout
from onnxpack.core.model.modelfile import PROTOBUF_LIMIT

from .env import Environment, ExitStatus
from .flags import target_of
from .output import (
    emit_json,
    format_bytes,
    plural,
    print_findings,
    print_table,
    progress_reporter,
)

if TYPE_CHECKING:
    from onnxpack.core.checks.validate import Validation

__all__ = ["HANDLERS"]

def _inspect(args: Any, env: Environment) -> int:
    insp = inspect_model(args.model, args.data_dir)
    if args.json:
        emit_json(env, insp.to_dict())
    else:
        _print_inspection(env, insp, full=True)
        if insp.findings:
            _section(env, "Findings")
            print_findings(env, insp.findings)
    return ExitStatus.OK if insp.ok else ExitStatus.FINDINGS


def _check(args: Any, env: Environment) -> int:
    from onnxpack.core.checks.validate import validate_model  # `inspect` need not import it

    progress = progress_reporter(env, args.quiet)
    target_ort = target_of(args, env)
    # main() started the checker's child: it imports onnx while this process inspects
    val = validate_model(args.model, args.data_dir, target_ort=target_ort, progress=progress,
                         checker_child=getattr(args, "early_child", None))  # fmt: skip
    if args.prove_ort and val.inspection.model is None:

        raise errorcodes.USAGE.error(variant="prove_ort_model")
    if args.prove_ort and val.inspection.model is not None:
        from onnxpack.core.runtime.prove import prove_file, prove_findings

        insp = val.inspection
        claimed = insp.compat.oldest.version if insp.compat and insp.compat.oldest else None
        proof = prove_file(insp.location.model, insp.location.data_dir, insp.model, args.prove_ort, claimed,
                           progress=progress, target=target_ort)  # auto proves the target too
        val.findings += prove_findings(proof, insp.location.model.name)
    if args.json:
        emit_json(env, val.to_dict())
    else:
        _print_inspection(env, val.inspection, full=False, val=val)
        _section(env, "Findings")
        print_findings(env, _ordered(val.findings))
        _print_summary(env, val)
    return ExitStatus.OK if val.ok else ExitStatus.FINDINGS


#: The commands this module runs (cli/commands.py names them; their flags are core/release/flaggroups.py's).
HANDLERS = {"inspect": _inspect, "check": _check}


# ----------------------------------------------------------------------------- human output


def _section(env: Environment, title: str) -> None:
    env.stdout.write(f"\n{title}\n")


def _kv(env: Environment, key: str, value: str) -> None:
    env.stdout.write(f"  {key:<12} {value}\n")


def _shape(shape: list[Any]) -> str:
    return "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"


def _ordered(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: -f.severity.rank)


def _print_inspection(env: Environment, insp: Inspection, *, full: bool, val: Validation | None = None) -> None:
    _print_header(env, insp)
    _print_compat(env, insp, val)
    _print_interface(env, insp)
    if not full:
        return
    if insp.is_ort:
        _print_metadata(env, insp)
        return
    _print_weights(env, insp)
    _print_operators(env, insp, full=full)
    _print_external(env, insp)
    _print_metadata(env, insp)


#: How the header names a model's layout.
_LAYOUT_WORDS = {Layout.SINGLE: "single file", Layout.EXTERNAL: "external data", Layout.ORT: "single file"}


def _print_header(env: Environment, insp: Inspection) -> None:
    """The file, its folder(s), files, sizes, IR/opsets, producer and model fields."""
    fmt = "ORT format" if insp.is_ort else "ONNX"
    layout = _LAYOUT_WORDS[Layout(insp.layout)]
    env.stdout.write(f"{insp.location.model.name}  ({fmt}, {layout})\n")
    _kv(env, "folder", str(insp.location.model_dir))
    if insp.location.data_dir != insp.location.model_dir:
        _kv(env, "data folder", str(insp.location.data_dir))
    files = ", ".join(
        f"{f['path']} {format_bytes(f['size']) if f['size'] is not None else f.get('state', 'missing').upper()}"
        for f in insp.files
    )
    _kv(env, "files", files)
    size_line = f"{format_bytes(insp.total_size)} total"
    # (merged_size is sized on first use: core/checks/inspection.py)
    if insp.layout == Layout.EXTERNAL and insp.merged_size is not None:
        verdict = "fits under" if insp.fits_single_file else "exceeds"
        approx = "" if insp.merged_size_exact else "~"
        size_line += (
            f"; as one file {approx}{format_bytes(insp.merged_size)} ({verdict} the "
            f"{format_bytes(PROTOBUF_LIMIT)} protobuf limit)"
        )
    _kv(env, "size", size_line)
    if not insp.is_ort:
        opsets = ", ".join(f"{d} {v}" for d, v in insp.opsets.items()) or "none"
        _kv(env, "IR / opsets", f"IR {insp.ir_version}; {opsets}")
    producer = " ".join(x for x in (insp.producer_name, insp.producer_version) if x) or "-"
    _kv(env, "producer", producer)
    extra = [f"model_version {insp.model_version}" if insp.model_version else "", f"domain {insp.domain}" if
             insp.domain else "", f"graph {insp.graph_name}" if insp.graph_name else ""]
    if any(extra):
        _kv(env, "model", ", ".join(x for x in extra if x))


def _print_compat(env: Environment, insp: Inspection, val: Validation | None) -> None:
    """The oldest ONNX Runtime that loads the model, the target's verdict, and the ORT that loaded an .ort file."""
    if insp.compat is not None:
        c = insp.compat
        if c.oldest is not None:
            note = " (derived)" if c.oldest.derived else ""
            line = f"{c.oldest.version}{note}"
        elif c.too_old:
            line = "none: " + "; ".join(c.too_old)
        else:
            line = f"none known (needs more than {c.newest_known.version}: {'; '.join(c.blockers)})"
        if c.oldest_if_ir_lowered is not None:
            line += f"; {c.oldest_if_ir_lowered.version} with ir_version lowered to {c.lowered_ir}"
        _kv(env, "oldest ORT", line)
    if val is not None and val.target is not None:
        mark = {True: "yes", False: "NO", None: "unknown"}[val.target.loads]
        _kv(env, "target ORT", f"{val.target.target}: {mark}")
    if insp.ort is not None:
        _kv(env, "ORT", f"loaded by onnxruntime {insp.ort['ort_version']}")


def _print_interface(env: Environment, insp: Inspection) -> None:
    for title, values in (("Inputs", insp.inputs), ("Outputs", insp.outputs)):
        _section(env, title)
        if values:
            rows = [[v["name"], v["elem_type"], _shape(v["shape"])] for v in values]
            print_table(env, ["name", "type", "shape"], rows)
        else:
            env.stdout.write("  (none)\n")


def _print_weights(env: Environment, insp: Inspection) -> None:
    out = env.stdout
    s = insp.initializers
    _section(env, "Weights")
    out.write(
        f"  {plural(s.count, 'initializer')}, {format_bytes(s.bytes)}: {s.external_count} external "
        f"({format_bytes(s.external_bytes)}), {s.inline_count} inline ({format_bytes(s.inline_bytes)})"
    )
    if insp.sparse_initializer_count:
        out.write(f", {insp.sparse_initializer_count} sparse")
    out.write("\n")
    if insp.constants.count:
        consts = insp.constants
        out.write(
            f"  {plural(consts.count, 'constant/attribute tensor')}, {format_bytes(consts.bytes)} "
            f"({consts.external_count} external)\n"
        )


def _print_operators(env: Environment, insp: Inspection, *, full: bool) -> None:
    out = env.stdout
    ops = ", ".join(
        f"{o['op_type']}" + ("" if o["domain"] == "ai.onnx" else f" ({o['domain']})") + f" ×{o['count']}"
        for o in insp.operators[: (None if full else 8)]
    )
    more = "" if full or len(insp.operators) <= 8 else f", … {len(insp.operators) - 8} more"
    _section(env, "Operators")
    out.write(f"  {plural(insp.node_count, 'node')}: {ops or '-'}{more}\n")
    if insp.subgraph_count or insp.functions:
        out.write(f"  {plural(insp.subgraph_count, 'subgraph')}, {plural(len(insp.functions), 'model-local function')}")
        if insp.functions:
            out.write(": " + ", ".join(f"{f['domain']}.{f['name']}" for f in insp.functions))
        out.write("\n")


def _print_external(env: Environment, insp: Inspection) -> None:
    if insp.external is None or not insp.external.external_refs:
        return
    _section(env, f"External data ({plural(len(insp.external.external_refs), 'tensor')})")
    rows = []
    for r in insp.external.external_refs:
        rows.append([
            r.ref.name,
            r.location or "-",
            "-" if r.offset is None else r.offset,
            r.data_length if r.data_length is not None else ("-" if r.length is None else r.length),
            "yes" if r.aligned_4k else "no",
            "yes" if r.aligned_64k else "no",
            (r.checksum[:12] + "…") if r.checksum else "-",
            "ok" if r.ok else "INVALID",
        ])
    print_table(env, ["tensor", "location", "offset", "length", "4K", "64K", "checksum", "state"], rows)


def _print_metadata(env: Environment, insp: Inspection) -> None:
    if not (insp.metadata or (insp.doc_string and not insp.is_ort)):
        return
    _section(env, "Metadata")
    if insp.doc_string and not insp.is_ort:
        _kv(env, "doc_string", insp.doc_string.strip().splitlines()[0][:200])
    for key, value in insp.metadata.items():
        _kv(env, key, value)


def _print_summary(env: Environment, val: Validation) -> None:
    from onnxpack.core.findings import Severity

    c = val.checker
    took = f" ({c['seconds']:.2f} s)" if c.get("seconds") else ""
    reason = f": {c['reason']}" if c.get("reason") else ""
    env.stdout.write(f"\nonnx checker: {c.get('onnx_checker', c['status'])}{took}{reason}\n")
    env.stdout.write(f"shape inference: {c.get('shape_inference', c['status'])}{reason}\n")
    e, w, i = (val.count(s) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO))
    verdict = "OK" if val.ok else "FAILED"
    env.stdout.write(f"\nResult: {verdict} — {plural(e, 'error')}, {plural(w, 'warning')}, {plural(i, 'note')}\n")
