"""`onnxpack verify`: check a bundle (hostile-archive checks, signature, manifest, files, optional smoke re-run)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from onnxpack.core.release.verify.verify import VerifyReport, verify_bundle

from .env import Environment, ExitStatus
from .output import emit_json, format_bytes, plural, print_findings, print_table, progress_reporter

__all__ = ["HANDLERS"]


def _verify(args: Any, env: Environment) -> int:
    sigstore = (args.sigstore_identity, args.sigstore_issuer) if args.sigstore_identity else None
    rep = verify_bundle(args.bundle, smoke=args.smoke, key=Path(args.key) if args.key else None,
                        trust=[Path(t) for t in args.trust], sigstore=sigstore,
                        progress=progress_reporter(env, args.quiet),
                        child=getattr(args, "early_child", None))  # fmt: skip (main() started it for --smoke)
    if args.json:
        emit_json(env, rep.to_dict())
    else:
        _print_verify(env, rep)
    return ExitStatus.OK if rep.ok else ExitStatus.FINDINGS


#: The command this module runs (cli/commands.py names it; its flags are core/release/flaggroups.py's).
HANDLERS = {"verify": _verify}


def _print_verify(env: Environment, rep: VerifyReport) -> None:
    doc = rep.manifest or {}
    model = doc.get("bundle") or doc.get("model") or {}  # a release of several files: its "bundle"
    title = f"{model.get('name')} {model.get('version')}" if model else "(no readable manifest)"
    if doc.get("bundle"):
        title += f" ({plural(len(doc.get('models', [])), 'model')}, {plural(len(doc.get('assets', [])), 'asset')})"
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
        for m in s.get("models", []):
            state = "passed" if m.get("ok") else "FAILED" if m.get("ran") else "not run"
            env.stdout.write(f"    {m['model']}: {state}\n")
    status = str(rep.signature.get("status"))
    said = {
        "valid": (f"valid, by {rep.signature['subject']} (certificate)" if rep.signature.get("subject")
                  else f"valid, by the key with SHA-256 {rep.signature.get('public_key_sha256')}"),
        "signed-not-checked": "signed, not checked (pass --key PUBLISHER.pub or --trust CA.pem)",
        "unsigned": "unsigned",
    }
    env.stdout.write(f"\n  signature: {said.get(status, 'INVALID')}\n")
    env.stdout.write("\nProblems\n" if rep.problems else "\n")
    if rep.problems:
        print_findings(env, rep.problems)
    env.stdout.write("OK: the bundle is intact.\n" if rep.ok else "FAILED: do not use this bundle.\n")
