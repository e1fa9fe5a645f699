"""`onnxpack bundle`: the release ZIP with its manifest, README.txt and checksums."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onnxpack.core.findings import Severity
from onnxpack.core.release.flaggroups import BUNDLE_SPEC
from onnxpack.core.release.manifest import RELEASE_SCHEMA, model_views
from onnxpack.core.release.metadata import read_labels_file
from onnxpack.core.release.options import BundleOptions
from onnxpack.core.release.zipwriter import source_date_epoch

from .env import Environment, ExitStatus
from .flags import target_of
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
    from onnxpack.core.release.bundle import BundleResult

__all__ = ["HANDLERS", "options_from_args"]


def options_from_args(args: Any, env: Environment) -> BundleOptions:
    """BundleOptions for parsed ``bundle`` arguments: the spec's fields (smoke options only when the smoke run is
    on), and what the command line resolves itself because it reads the disk or the environment: --target-app,
    --labels-file, -o (an existing folder or a .zip file) and SOURCE_DATE_EPOCH. Checked by build_bundle."""
    fields = BUNDLE_SPEC.fields_from_values(vars(args))
    fields["target_ort"] = target_of(args, env)
    if args.labels is None and args.labels_file:
        fields["about.labels"] = read_labels_file(args.labels_file)
    fields["out_dir"], fields["zip_name"] = output_file_or_folder(args.output, "bundle", ".zip", ("NAME-VERSION.zip",))
    fields["source_date_epoch"] = source_date_epoch(env.vars)
    return BundleOptions.from_fields(fields)


def _bundle(args: Any, env: Environment) -> int:
    from onnxpack.core.release.bundle import build_bundle

    options = options_from_args(args, env)
    # The child (onnx checker, then the smoke run) main() started before this module was imported: build_bundle adopts
    # and stops it (or, when the command names variables holding secrets, starts it once they are hidden).
    child = getattr(args, "early_child", None)
    result = build_bundle(options, progress=progress_reporter(env, args.quiet), child=child)
    if args.json:
        emit_json(env, result.to_dict())
    else:
        _print_bundle(env, result)
    return ExitStatus.OK


#: The command this module runs (cli/commands.py names it; its flags are core/release/flaggroups.py's).
HANDLERS = {"bundle": _bundle}


def _print_bundle(env: Environment, r: BundleResult) -> None:
    env.stdout.write(f"Wrote {r.zip_path} ({format_bytes(r.zip_size)})\n")
    views = model_views(r.manifest)
    if r.manifest.get("schema") == RELEASE_SCHEMA:
        b = r.manifest["bundle"]
        env.stdout.write(f"  {b['name']} {b['version']}: {plural(len(views), 'model')}, "
                         f"{plural(len(r.manifest['assets']), 'asset')} in {b['root']}/\n\n")
    else:
        m = r.manifest["model"]
        env.stdout.write(f"  {m['name']} {m['version']}, layout {m['layout']}\n\n")
    print_table(
        env,
        ["file", "role", "size", "sha256"],
        [[f["path"], f["role"], format_bytes(f["size"]), f["sha256"][:16] + "…"] for f in r.files],
    )
    for view in views:
        if len(views) > 1 or r.manifest.get("schema") == RELEASE_SCHEMA:
            env.stdout.write(f"\n  {view['model']['entry']} ({view['model']['layout']}):")
        smoke = view.get("smoke")
        _print_proofs(env, smoke, smoke.get("equal") if smoke else None, view)
    skipped = r.manifest.get("skipped") or []
    if skipped:
        env.stdout.write(f"\n  left out: {plural(len(skipped), 'file')} (manifest.json, skipped)\n")
        for s in skipped[:10]:
            env.stdout.write(f"    {s['path']}  ({s['reason']})\n")
    _print_release(env, r)
    shown = [f for f in r.findings if f.severity is not Severity.INFO]
    if shown:
        env.stdout.write("\nFindings\n")
        print_findings(env, shown)


def _print_proofs(env: Environment, smoke: dict[str, Any] | None, equal: dict[str, Any] | None,
                  manifest: dict[str, Any]) -> None:
    """The smoke run, the equality proof, the retargeting and the releases it was proven on (of one model)."""
    if smoke is not None:
        env.stdout.write(f"\n  smoke run of the bundled model: ONNX Runtime {smoke['ort_version']} "
                         f"({smoke['provider']}), passed\n")
    if equal is not None:
        w = equal["weights"]
        if w["method"] == "file-sha256":
            env.stdout.write(f"  equality proof: the bundled model file is the original, byte for byte (SHA-256 "
                             f"{w['fingerprint_sha256'][:16]}…)")
        else:
            env.stdout.write(f"  equality proof: same structure and {plural(w['tensors'], 'tensor')} "
                             f"({format_bytes(w['tensor_bytes'])}) compared byte for byte with the original's")
        if "outputs" in equal["methods"]:
            env.stdout.write("; bitwise-equal outputs of both models")
        env.stdout.write("\n")
    _print_loads(env, (smoke or {}).get("loads"))
    if smoke is None:
        env.stdout.write("\n  smoke run and equality proof: skipped (--no-smoke)\n")
    retargeted = [f for f in manifest["fixes"] if f["code"] in ("IR_FEATURES_DROPPED", "IR_LOWERED", "OPSET_LOWERED")]
    if retargeted:
        env.stdout.write("\n  retargeted (each change is in manifest.json, fixes):\n")
        for f in retargeted:
            env.stdout.write(f"    {f['message']}\n")
    proven = manifest.get("prove_ort")
    if proven:
        env.stdout.write(f"\n  proven on ONNX Runtime releases (reference {proven['reference_ort']}):\n")
        for p in proven["releases"]:
            same = "bitwise-equal outputs" if p["outputs_bitwise_equal"] else f"max abs diff {p['max_abs_diff']:.3g}"
            wheel = p["wheel"] or "carried by this frozen onnxpack"  # no wheel: core/runtime/prove.py
            env.stdout.write(f"    {p['version']}: loaded, {same} ({wheel})\n")


def _print_loads(env: Environment, loads: list[dict[str, Any]] | None) -> None:
    """The load matrix: the modes that gave the reference outputs bit for bit, and each that failed, with its remedy."""
    if not loads:
        return
    passed = [r["mode"] for r in loads if r["ok"]]
    env.stdout.write(f"  loaded as apps load it, outputs bit for bit: {', '.join(passed) or 'none'}\n")
    for r in loads:
        if not r["ok"]:
            env.stdout.write(f"    {r['mode']}: {'refused, as expected' if r.get('expected') else 'FAILED'}; "
                             f"{r.get('remedy', '')}\n")


def _print_release(env: Environment, r: BundleResult) -> None:
    """The signature and the release diff against the previous bundle."""
    sig = r.manifest.get("signature")
    if sig:
        env.stdout.write(f"\n  signed: model.sig (model-signing, public key SHA-256 {sig['public_key_sha256']})\n")
    if r.release is not None:
        rel = r.release
        if rel["bump"] == "none":
            summary = f"nothing changed; a re-release takes the next patch version, {rel['suggested_version']}"
        else:
            summary = f"{rel['bump']} change, suggested {rel['suggested_version']}"
        env.stdout.write(f"\n  release diff vs {rel['previous_version']}: {summary}\n")
        for c in rel["changes"]:
            env.stdout.write(f"    [{c['impact']}] {c['message']}\n")
