"""`onnxpack merge`: embed external data into one .onnx, or consolidate it into one aligned data file."""

from __future__ import annotations

import argparse

from onnxpack.core.model.layout import Layout
from onnxpack.core.model.merge.merge import merge_model

from .env import Environment, ExitStatus
from .output import (
    emit_json,
    format_bytes,
    output_file_or_folder,
    plural,
    progress_reporter,
)

__all__ = ["HANDLERS"]

SCHEMA = "onnxpack.merge/1"


def run(args: argparse.Namespace, env: Environment) -> int:
    progress = progress_reporter(env, args.quiet)
    folder, file_name = output_file_or_folder(args.output, "merge", ".onnx", ("MODEL.onnx",))
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


#: The command this module runs (cli/commands.py names it; its flags are core/release/flaggroups.py's).
HANDLERS = {"merge": run}
