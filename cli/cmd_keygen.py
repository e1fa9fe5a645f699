"""`onnxpack keygen`: a signing key pair for `bundle --sign-key` and `verify --key`."""

from __future__ import annotations

from typing import Any

from .env import Environment, ExitStatus
from .output import add_json_flag, add_output_flag, emit_json, output_file_or_folder

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add the ``keygen`` subcommand."""
    k = subparsers.add_parser(
        "keygen",
        help="make a signing key pair (NAME.key, private; NAME.pub, to publish)",
        description="Write an elliptic-curve P-256 key pair for `bundle --sign-key` / `verify --key`: NAME.key "
        "(private, PEM, readable by you only: keep it secret and out of bundles and repositories) and NAME.pub "
        "(public: give it to the people who receive your bundles). The same as "
        "`openssl ecparam -name prime256v1 -genkey -noout -out NAME.key && openssl ec -in NAME.key -pubout "
        "-out NAME.pub`. Exit status: 0 written, 1 the files exist already or cannot be written.",
    )
    add_output_flag(k, "DIR", "folder to write the two files into (created if missing)")
    k.add_argument("--name", default="onnxpack-signing", help="file name stem (default: %(default)s)")
    k.add_argument("--force", action="store_true", help="replace existing files")
    add_json_flag(k)
    k.set_defaults(handler=_keygen)


def _keygen(args: Any, env: Environment) -> int:
    from onnxpack.core.release.signing import generate_key_pair, load_public_key

    folder, _ = output_file_or_folder(args.output, "keygen", None, "NAME.key and NAME.pub", "keygen")
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
