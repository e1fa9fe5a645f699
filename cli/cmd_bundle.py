"""`onnxpack bundle` (release ZIP + manifest) and `onnxpack verify` (check a bundle)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from onnxpack.core.bundle import BundleOptions, BundleResult, build_bundle
from onnxpack.core.findings import Severity
from onnxpack.core.verify import VerifyReport, verify_bundle
from onnxpack.core.zipwriter import source_date_epoch

from .cmd_smoke import add_smoke_input_flags
from .env import Environment, ExitStatus
from .output import add_json_flag, emit_json, format_bytes, print_findings, print_table, progress_reporter

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add the ``bundle`` and ``verify`` subcommands."""
    b = subparsers.add_parser(
        "bundle",
        help="build a verified release ZIP (merged model, manifest.json, README.txt)",
        description="Inspect, validate and merge MODEL, prove the merged model is the original bit for bit (same "
        "structure, every tensor's SHA-256 equal; small models also give bitwise-equal outputs), smoke-run the "
        "bundled model, and write OUT_DIR/NAME-VERSION.zip. Without MODEL the sample model is bundled. "
        "Set SOURCE_DATE_EPOCH for byte-identical bundles. "
        "Exit status: 0 written, 1 refused (findings, failed smoke run), 2 usage error or unreadable input, "
        "130 cancelled.",
    )
    b.add_argument("model", metavar="MODEL", nargs="?", help="the .onnx file or its folder (default: the sample)")
    b.add_argument("-o", "--out", metavar="DIR", required=True, help="folder to write NAME-VERSION.zip into")
    b.add_argument("--version", dest="release", metavar="X.Y.Z", required=True, help="release version (semver)")
    b.add_argument("--name", metavar="N", help="bundle and model file name (default: the model file's stem)")
    b.add_argument("--data-dir", metavar="DIR", help="folder of the external data files (default: the model's)")
    b.add_argument("--previous", metavar="OLD", help="previous bundle (.zip) or its manifest.json: diff the interface")
    b.add_argument("--target-ort", metavar="X.Y", help="ONNX Runtime release that must load the model")
    b.add_argument(
        "--fix-ir", action="store_true", help="lower ir_version when only the IR is too new for --target-ort"
    )
    b.add_argument(
        "--set-model-version",
        action="store_true",
        help="write the version into model_version as MAJOR*1000000 + MINOR*1000 + PATCH",
    )
    b.add_argument("--ort-format", action="store_true", help="also add NAME.ort (ONNX Runtime's ORT format)")
    b.add_argument(
        "--layout",
        choices=("auto", "single", "external"),
        default="auto",
        help="auto: one self-contained .onnx below 2 GiB, else NAME.onnx + aligned NAME.onnx.data (default)",
    )
    b.add_argument("--compress", action="store_true", help="deflate the files (default: stored uncompressed)")
    add_smoke_input_flags(b)
    b.add_argument("--no-search", action="store_true", help="smoke run: do not search sizes for symbolic dims")
    b.add_argument("--no-smoke", action="store_true", help="skip the smoke run and the equality proof")
    b.add_argument(
        "--compare-outputs",
        choices=("auto", "always", "never"),
        default="auto",
        help="besides the tensor-hash proof, also run the source model and compare outputs bitwise "
        "(auto: for models up to 256 MiB)",
    )
    b.add_argument("--force", action="store_true", help="replace an existing bundle; allow a version not greater")
    add_json_flag(b)
    b.set_defaults(handler=_bundle)

    v = subparsers.add_parser(
        "verify",
        help="check a bundle: archive safety, manifest, every file's size and SHA-256",
        description="Check BUNDLE.zip made by `onnxpack bundle`. Exit status: 0 verified, 1 problems found, "
        "2 unreadable input.",
    )
    v.add_argument("bundle", metavar="BUNDLE", help="the NAME-VERSION.zip to check")
    v.add_argument("--smoke", action="store_true", help="also re-run the recorded smoke test and compare outputs")
    add_json_flag(v)
    v.set_defaults(handler=_verify)


def options_from_args(args: Any, env: Environment) -> BundleOptions:
    """BundleOptions for parsed ``bundle`` arguments (smoke options only when the smoke run is on)."""
    from onnxpack.core.smoke import SmokeOptions

    smoke = None
    if not args.no_smoke:
        smoke = SmokeOptions.from_cli(
            dims=args.dim, inputs=args.input, ranges=args.range, seed=args.seed, timeout=args.timeout,
            search=not args.no_search,
        )
        smoke.validate()
    return BundleOptions(
        model=Path(args.model) if args.model else None,
        out_dir=Path(args.out),
        version=args.release,
        name=args.name,
        data_dir=Path(args.data_dir) if args.data_dir else None,
        previous=Path(args.previous) if args.previous else None,
        target_ort=args.target_ort,
        fix_ir=args.fix_ir,
        ort_format=args.ort_format,
        compress=args.compress,
        smoke=smoke,
        force=args.force,
        set_model_version=args.set_model_version,
        run_smoke=not args.no_smoke,
        compare_outputs={"auto": None, "always": True, "never": False}[args.compare_outputs],
        source_date_epoch=source_date_epoch(env.vars),
        layout=args.layout,
    )


def _bundle(args: Any, env: Environment) -> int:
    result = build_bundle(options_from_args(args, env), progress=progress_reporter(env, args.quiet))
    if args.json:
        emit_json(env, result.to_dict())
    else:
        _print_bundle(env, result)
    return ExitStatus.OK


def _print_bundle(env: Environment, r: BundleResult) -> None:
    m = r.manifest["model"]
    env.stdout.write(f"Wrote {r.zip_path} ({format_bytes(r.zip_size)})\n")
    env.stdout.write(f"  {m['name']} {m['version']}, layout {m['layout']}\n\n")
    print_table(
        env,
        ["file", "role", "size", "sha256"],
        [[f["path"], f["role"], format_bytes(f["size"]), f["sha256"][:16] + "…"] for f in r.files],
    )
    if r.smoke is not None:
        env.stdout.write(f"\n  smoke run of the bundled model: ONNX Runtime {r.smoke['ort_version']} "
                         f"({r.smoke['provider']}), passed\n")
    if r.equal is not None:
        w = r.equal["weights"]
        env.stdout.write(f"  equality proof: same structure and {w['tensors']} tensors "
                         f"({format_bytes(w['tensor_bytes'])}) with equal SHA-256 as the original")
        if "outputs" in r.equal["methods"]:
            env.stdout.write("; bitwise-equal outputs of both models")
        env.stdout.write("\n")
    if r.smoke is None:
        env.stdout.write("\n  smoke run and equality proof: skipped (--no-smoke)\n")
    if r.release is not None:
        rel = r.release
        if rel["bump"] == "none":
            summary = f"nothing changed; a re-release takes the next patch version, {rel['suggested_version']}"
        else:
            summary = f"{rel['bump']} change, suggested {rel['suggested_version']}"
        env.stdout.write(f"\n  release diff vs {rel['previous_version']}: {summary}\n")
        for c in rel["changes"]:
            env.stdout.write(f"    [{c['impact']}] {c['message']}\n")
    shown = [f for f in r.findings if f.severity is not Severity.INFO]
    if shown:
        env.stdout.write("\nFindings\n")
        print_findings(env, shown)


def _verify(args: Any, env: Environment) -> int:
    rep = verify_bundle(args.bundle, smoke=args.smoke, progress=progress_reporter(env, args.quiet))
    if args.json:
        emit_json(env, rep.to_dict())
    else:
        _print_verify(env, rep)
    return ExitStatus.OK if rep.ok else ExitStatus.FINDINGS


def _print_verify(env: Environment, rep: VerifyReport) -> None:
    model = (rep.manifest or {}).get("model") or {}
    title = f"{model.get('name')} {model.get('version')}" if model else "(no readable manifest)"
    env.stdout.write(f"{rep.path}: {title}\n")
    if rep.files:
        print_table(
            env,
            ["file", "role", "size", "status"],
            [
                [f.path, f.role or "-", format_bytes(f.actual_size if f.size is None else f.size), f.status]
                for f in sorted(rep.files, key=lambda f: f.path)
            ],
        )
    if rep.smoke is not None:
        s = rep.smoke
        how = "exactly" if s.get("comparison") == "exact" else f"within atol={s.get('atol')}, rtol={s.get('rtol')}"
        env.stdout.write(
            f"\n  smoke re-run with ONNX Runtime {s.get('ort_version')} (recorded: "
            f"{s.get('recorded_ort_version')}), compared {how}\n"
        )
    env.stdout.write("\nProblems\n" if rep.problems else "\n")
    if rep.problems:
        print_findings(env, rep.problems)
    env.stdout.write("OK: the bundle is intact.\n" if rep.ok else "FAILED: do not use this bundle.\n")
