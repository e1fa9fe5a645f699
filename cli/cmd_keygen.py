"""`onnxpack keygen`: a signing key pair for `bundle --sign-key` and `verify --key`."""

from __future__ import annotations

from typing import Any

from .env import Environment, ExitStatus
from .output import emit_json, output_file_or_folder

__all__ = ["HANDLERS"]


def _keygen(args: Any, env: Environment) -> int:
    from onnxpack.core.release.signing import generate_key_pair, load_public_key

    folder, _ = output_file_or_folder(args.output, "keygen", None, ("NAME.key", "NAME.pub"), "keygen")
    private, public = generate_key_pair(folder, args.name, force=args.force)
    fingerprint = load_public_key(public)
    if args.json:
        emit_json(env, {"schema": "onnxpack.keygen/1", "ok": True, "private_key": str(private),
                        "public_key": str(public), "public_key_sha256": fingerprint})  # fmt: skip
    else:
        env.stdout.write(f"Wrote {private} (private: keep it secret, never put it in a bundle)\n"
                         f"  and {public} (public: give it to your receivers)\n"
                         f"  public key SHA-256 {fingerprint}\n"
                         f"Sign with: onnxpack bundle MODEL -o OUT --version X.Y.Z --sign-key {private}\n")  # fmt: skip
    return ExitStatus.OK


#: The command this module runs (cli/commands.py names it; its flags are core/release/flaggroups.py's).
HANDLERS = {"keygen": _keygen}
