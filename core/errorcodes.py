"""The error codes the basics raise (atomic writes, bundle names) and the shared USAGE code (the registry: codes.py)."""

from __future__ import annotations

from .codes import define
from .errors import InputError, OutputError

__all__: list[str] = []

# Options that cannot be used together, or one missing: raised by every floor, each call site wording its own
# message (like the error classes' codes, the registry holds only what went wrong in general words).
USAGE = define("USAGE", kind=InputError, summary="These settings cannot be used together, or one is missing")

# core/atomic.py: the output paths (refused before writing) and writing them
OUTPUT_IS_INPUT = define(
    "OUTPUT_IS_INPUT", kind=OutputError,
    text="Output {output} is the same file as the input {input}",
    hint="Choose another output path; onnxpack never modifies its inputs.",
    summary="The output is the same file as the input",
)
OUTPUT_INSIDE_INPUT = define(
    "OUTPUT_INSIDE_INPUT", kind=OutputError,
    text="Output {output} lies inside the input folder {input}: onnxpack does not write into a folder given as the "
         "model, so that the folder holds what it held (a later run given it would otherwise find the output among "
         "its models)",
    hint="Write the output beside the folder (e.g. -o ../dist), or give the model file itself instead of its folder.",
    summary="The output folder lies inside the input folder",
)
OUTPUT_IS_DIR = define(
    "OUTPUT_IS_DIR", kind=OutputError, text="Output {output} is an existing folder", hint="Give a file path.",
    summary="The output is an existing folder",
)
OUTPUT_EXISTS = define(
    "OUTPUT_EXISTS", kind=OutputError,
    text="Output {output} already exists",
    hint="Remove it or pass {opt:force} to replace it.",
    variants={
        # another run wrote the same name between the check and the rename (the hint is the main one)
        "raced": "Output {output} was created by another program while this run was writing it",
        # a folder to be created whole (atomic_dir): the call site's hint is FOLDER_EXISTS_HINT
        "folder": "{output} already exists",
    },
    summary="The output already exists",
)
FOLDER_EXISTS_HINT = "Remove it or choose another output folder."
OUTPUT_NO_FOLDER = define(
    "OUTPUT_NO_FOLDER", kind=OutputError,
    text="Output folder {folder} does not exist", hint="Create it first.",
    # the folder to write into is a file (output_folder): the call site's hint is FOLDER_IS_FILE_HINT
    variants={"file": "Output folder {folder} is a file"},
    summary="The output folder does not exist",
)
FOLDER_IS_FILE_HINT = "Give a folder with -o."
OUTPUT_NO_SPACE = define(
    "OUTPUT_NO_SPACE", kind=OutputError,
    text="Not enough free space in {folder}: {needed} bytes needed, {free} available",
    hint="Free some space or choose another output folder.",
    variants={"disk_full": "Disk full while writing {output}; the partial output was removed"},
    summary="Not enough free disk space; nothing partial was left",
)
OUTPUT_WRITE = define(
    "OUTPUT_WRITE", kind=OutputError,
    text="Cannot write {output}: {reason}", hint="Check the folder exists and is writable.",
    summary="The output cannot be written",
)
OUTPUT_IS_SYMLINK = define(
    "OUTPUT_IS_SYMLINK", kind=OutputError,
    text="Output {output} is a symbolic link; onnxpack never writes through a link (it could point anywhere)",
    hint="Remove the link or choose another output name.",
    summary="The output is a symbolic link; onnxpack never writes through a link",
)

# core/names.py: the bundle's name
BAD_NAME = define(
    "BAD_NAME", kind=InputError,
    text="Bundle name {name!r} {why}",
    hint="Use a plain file name such as 'victory' (letters, digits, '-', '_', '.'); the files in the bundle are "
         "NAME.onnx and NAME-VERSION.zip.",
    summary="The bundle name cannot be used as a file name",
)
