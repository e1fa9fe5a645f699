"""`onnxpack bundle`: the release ZIP with its manifest, README.txt and checksums."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from onnxpack.core.findings import Severity
from onnxpack.core.release.bundle import BundleOptions, BundleResult, build_bundle
from onnxpack.core.release.metadata import ReleaseInfo, read_labels_file
from onnxpack.core.release.zipwriter import source_date_epoch

from .cmd_smoke import add_smoke_input_flags
from .env import Environment, ExitStatus
from .output import (
    add_json_flag,
    add_output_flag,
    emit_json,
    format_bytes,
    output_file_or_folder,
    plural,
    print_findings,
    print_table,
    progress_reporter,
)

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add the ``bundle`` subcommand."""
    b = subparsers.add_parser(
        "bundle",
        help="build a verified release ZIP (merged model, manifest.json, README.txt)",
        description="Inspect, validate and merge MODEL, prove the merged model is the original bit for bit (same "
        "structure, every tensor's SHA-256 equal; small models also give bitwise-equal outputs), smoke-run the "
        "bundled model, and write OUT/NAME-VERSION.zip (or the OUT.zip given with -o). Without MODEL the sample model "
        "is bundled. "
        "Set SOURCE_DATE_EPOCH for byte-identical bundles. "
        "Exit status: 0 written, 1 refused (findings, failed smoke run), 2 usage error or unreadable input, "
        "130 cancelled.",
    )
    b.add_argument("model", metavar="MODEL", nargs="?", help="the .onnx file or its folder (default: the sample)")
    add_output_flag(b, "OUT", "folder to write NAME-VERSION.zip into (created if missing), or the .zip file to write")
    b.add_argument("--version", dest="release", metavar="X.Y.Z", required=True, help="release version (semver)")
    b.add_argument("--name", metavar="N", help="bundle and model file name (default: the model file's stem)")
    b.add_argument("--data-dir", metavar="DIR", help="folder of the external data files (default: the model's)")
    b.add_argument("--previous", metavar="OLD.zip", help="the previous release's bundle .zip (or its manifest.json): "
                   "diff the interface and suggest the version")
    b.add_argument("--target-ort", metavar="X.Y", help="ONNX Runtime release that must load the model")
    b.add_argument(
        "--fix-ir", action="store_true", help="retarget the released copy for --target-ort: lower ir_version (dropping "
        "newer-IR metadata that changes nothing computed, recorded in the manifest) and the opsets where that is exact "
        "or onnx.version_converter manages"
    )
    b.add_argument("--target-app", metavar="PATH", help="target the ONNX Runtime the app embeds, read from its "
                   "Cargo.lock (ort/ort-sys), .csproj/packages.lock.json, package-lock.json, requirements*.txt, "
                   "pyproject.toml or uv.lock (a file, or the app's folder); sets --target-ort")
    b.add_argument("--prove-ort", metavar="RELEASES", help="run the bundled model on these ONNX Runtime releases "
                   "(1.16.3,1.20.1; 1.16 = its newest patch; newest; auto = the oldest the model claims + the newest), "
                   "each from its official PyPI wheel in a cached environment of its own, and compare the outputs")
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
    b.add_argument("--force", action="store_true", help="replace an existing bundle of the same name")
    b.add_argument("--allow-version-not-greater", action="store_true",
                   help="release a version that is not greater than --previous's (a warning in the manifest)")
    b.add_argument("--allow-unmatched-labels", action="store_true",
                   help="keep --labels whose count matches no output's last dimension")
    about = b.add_argument_group("release metadata (the manifest's 'about', the receiver's README)")
    about.add_argument("--license", metavar="SPDX", help="the model's licence, an SPDX expression (MIT, Apache-2.0…)")
    about.add_argument("--author", action="append", default=[], metavar="NAME",
                       help="an author, e.g. 'Ada <ada@example.org>' (repeat for several)")  # fmt: skip
    about.add_argument("--homepage", metavar="URL", help="the model's home page (http/https)")
    labels = about.add_mutually_exclusive_group()
    labels.add_argument("--labels", metavar="A,B,…", help="class labels in output order, comma-separated "
                        "(checked against the outputs' last dimension)")  # fmt: skip
    labels.add_argument("--labels-file", metavar="FILE", help="class labels, one per line (UTF-8)")
    sign = b.add_argument_group("signing (OpenSSF model-signing; see docs/bundle.md)")
    sign.add_argument("--sign-key", metavar="KEY.pem", help="sign every member with this EC private key (model.sig)")
    sign.add_argument("--sign-key-password-env", metavar="VAR",
                      help="environment variable holding the password of an encrypted --sign-key")  # fmt: skip
    sign.add_argument("--sign-certificate", metavar="CERT.pem",
                      help="certificate signing: the signing certificate issued for --sign-key")  # fmt: skip
    sign.add_argument("--sign-chain", metavar="CHAIN.pem", action="append", default=[],
                      help="certificate signing: intermediate/root certificates to include (repeatable)")  # fmt: skip
    sign.add_argument("--sign-sigstore", action="store_true",
                      help="Sigstore keyless signing instead of a key (needs the internet and an OpenID login)")
    sign.add_argument("--sigstore-identity-token-env", metavar="VAR",
                      help="with --sign-sigstore: environment variable with an OIDC identity token (CI)")
    add_json_flag(b)
    b.set_defaults(handler=_bundle)


def options_from_args(args: Any, env: Environment) -> BundleOptions:
    """BundleOptions for parsed ``bundle`` arguments (smoke options only when the smoke run is on)."""
    from onnxpack.core.checks.targetapp import target_from
    from onnxpack.core.runtime.smoke import SmokeOptions

    target_ort, app = target_from(args.target_ort, getattr(args, "target_app", None))
    if app is not None:
        env.stderr.write(f"onnxpack: target {app.describe()}\n")

    smoke = None
    if not args.no_smoke:
        smoke = SmokeOptions.from_cli(
            dims=args.dim, inputs=args.input, ranges=args.range, seed=args.seed, timeout=args.timeout,
            search=not args.no_search,
        )
        smoke.validate()
    labels = None
    if args.labels is not None:
        labels = args.labels.split(",")
    elif args.labels_file:
        labels = read_labels_file(args.labels_file)
    out_dir, zip_name = output_file_or_folder(args.output, "bundle", ".zip", "NAME-VERSION.zip")
    return BundleOptions(
        model=Path(args.model) if args.model else None,
        out_dir=out_dir,
        zip_name=zip_name,
        version=args.release,
        name=args.name,
        data_dir=Path(args.data_dir) if args.data_dir else None,
        previous=Path(args.previous) if args.previous else None,
        target_ort=target_ort,
        fix_ir=args.fix_ir,
        prove_ort=args.prove_ort,
        ort_format=args.ort_format,
        compress=args.compress,
        smoke=smoke,
        force=args.force,
        allow_version_not_greater=args.allow_version_not_greater,
        allow_unmatched_labels=args.allow_unmatched_labels,
        set_model_version=args.set_model_version,
        run_smoke=not args.no_smoke,
        compare_outputs={"auto": None, "always": True, "never": False}[args.compare_outputs],
        source_date_epoch=source_date_epoch(env.vars),
        layout=args.layout,
        about=ReleaseInfo(license=args.license, authors=list(args.author), homepage=args.homepage, labels=labels),
        sign_key=Path(args.sign_key) if args.sign_key else None,
        sign_key_password_env=args.sign_key_password_env,
        sign_certificate=Path(args.sign_certificate) if args.sign_certificate else None,
        sign_chain=[Path(c) for c in args.sign_chain],
        sign_sigstore=args.sign_sigstore,
        sigstore_identity_token_env=args.sigstore_identity_token_env,
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
        env.stdout.write(f"  equality proof: same structure and {plural(w['tensors'], 'tensor')} "
                         f"({format_bytes(w['tensor_bytes'])}) with equal SHA-256 as the original")
        if "outputs" in r.equal["methods"]:
            env.stdout.write("; bitwise-equal outputs of both models")
        env.stdout.write("\n")
    if r.smoke is None:
        env.stdout.write("\n  smoke run and equality proof: skipped (--no-smoke)\n")
    retargeted = [f for f in r.manifest["fixes"] if f["code"] in ("IR_FEATURES_DROPPED", "IR_LOWERED", "OPSET_LOWERED")]
    if retargeted:
        env.stdout.write("\n  retargeted (each change is in manifest.json, fixes):\n")
        for f in retargeted:
            env.stdout.write(f"    {f['message']}\n")
    proven = r.manifest.get("prove_ort")
    if proven:
        env.stdout.write(f"\n  proven on ONNX Runtime releases (reference {proven['reference_ort']}):\n")
        for p in proven["releases"]:
            same = "bitwise-equal outputs" if p["outputs_bitwise_equal"] else f"max abs diff {p['max_abs_diff']:.3g}"
            env.stdout.write(f"    {p['version']}: loaded, {same} ({p['wheel']})\n")
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
    shown = [f for f in r.findings if f.severity is not Severity.INFO]
    if shown:
        env.stdout.write("\nFindings\n")
        print_findings(env, shown)
