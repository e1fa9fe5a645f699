"""`onnxpack merge`: embed external data into one .onnx, or consolidate it into one aligned data file."""

from __future__ import annotations

import argparse
from typing import Any

from onnxpack.core.model.layout import AUTO, LAYOUTS, Layout
from onnxpack.core.model.merge import DEFAULT_ALIGN, merge_model

from .env import Environment, ExitStatus
from .output import (
    add_json_flag,
    add_output_flag,
    emit_json,
    format_bytes,
    output_file_or_folder,
    plural,
    progress_reporter,
)

__all__ = ["register"]

SCHEMA = "onnxpack.merge/1"


def _align(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    return value  # power-of-two validation is the engine's (one message for CLI and GUI)


def register(subparsers: Any) -> None:
    """Add the ``merge`` subcommand."""
    p = subparsers.add_parser(
        "merge",
        help="merge external data into one self-contained .onnx (or one aligned data file above 2 GiB)",
        description=(
            "Write MODEL with all external tensor data embedded, as one .onnx file, streaming the weights "
            "(memory stays small). Above protobuf's 2 GiB limit (or with --layout external) write OUT.onnx "
            "plus one OUT.onnx.data beside it, each tensor aligned. Inputs are only read; the output is "
            "written to a temporary file and renamed into place."
        ),
    )
    p.add_argument("model", metavar="MODEL", help="the .onnx file (or a folder holding exactly one)")
    add_output_flag(p, "OUT", "the .onnx file to write, or a folder to write MODEL.onnx into (created if missing)")
    p.add_argument("--data-dir", metavar="DIR", help="folder of the external data files (default: the model's)")
    p.add_argument(
        "--layout",
        choices=LAYOUTS,
        default=AUTO,
        help="single: one file (refused at 2 GiB); external: OUT.onnx + OUT.onnx.data; auto (default): "
        "single below 2 GiB, else external",
    )
    p.add_argument(
        "--align",
        type=_align,
        default=DEFAULT_ALIGN,
        metavar="N",
        help=f"external layout: align each tensor's offset to N bytes, a power of two (default {DEFAULT_ALIGN})",
    )
    p.add_argument(
        "--checksum",
        action="store_true",
        help="external layout: record the SHA-1 of the data file in each tensor's 'checksum' key",
    )
    p.add_argument("--force", action="store_true", help="replace an existing output (atomically)")
    add_json_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, env: Environment) -> int:
    progress = progress_reporter(env, args.quiet)
    folder, file_name = output_file_or_folder(args.output, "merge", ".onnx", "MODEL.onnx")
    if file_name is None:  # a folder: the model's own file name inside it
        from onnxpack.core.model.modelfile import locate_model

        file_name = Layout.SINGLE.model_name(locate_model(args.model, args.data_dir).model.stem)  # NAME.onnx
    result = merge_model(
        args.model,
        folder / file_name,
        args.data_dir,
        layout=args.layout,
        align=args.align,
        checksum=args.checksum,
        force=args.force,
        progress=progress,
    )
    if args.json:
        emit_json(env, {"schema": SCHEMA, "ok": True, **result.to_dict()})
        return ExitStatus.OK
    out = env.stdout
    if result.layout is Layout.SINGLE:
        out.write(
            f"Wrote {result.model_path} ({format_bytes(result.model_size)}, single file; "
            f"{plural(result.tensors, 'external tensor')}, {format_bytes(result.external_bytes)} embedded)\n"
        )
    else:
        out.write(
            f"Wrote {result.model_path} ({format_bytes(result.model_size)}) and {result.data_path} "
            f"({format_bytes(result.data_size)}; {plural(result.tensors, 'tensor')}, offsets aligned to "
            f"{result.align} bytes)\n"
        )
        if result.checksum:
            out.write(f"Data file SHA-1 (recorded in the model): {result.checksum}\n")
    out.write(f"Done in {result.seconds:.2f} s.\n")
    return ExitStatus.OK
