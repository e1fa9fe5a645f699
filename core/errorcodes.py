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
    # the merge's output is a hard link to an input (core/model/merge.py)
    variants={"hard_link": "Output {output} is the same file as the input {input} (a hard link)"},
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
    # the merge's output (core/model/merge.py)
    variants={"merge": "Output {output} is a folder"},
    summary="The output is an existing folder",
    variant_hints={"merge": "Give the path of the .onnx file to write."},
)
OUTPUT_EXISTS = define(
    "OUTPUT_EXISTS", kind=OutputError,
    text="Output {output} already exists",
    hint="Remove it or pass {opt:force} to replace it.",
    variants={
        # another run wrote the same name between the check and the rename (the hint is the main one)
        "raced": "Output {output} was created by another program while this run was writing it",
        # a folder to be created whole (atomic_dir)
        "folder": "{output} already exists",
        # a key pair's file (core/release/signing.py generate_key_pair)
        "key": "{output} already exists",
        # the ORT-format conversion's output folder (core/runtime/ortformat.py): a file, or a folder with files in it
        "not_folder": "{output} exists and is not a folder",
        "not_empty": "Output folder {output} is not empty",
    },
    summary="The output already exists",
    variant_hints={
        "folder": "Remove it or choose another output folder.",
        "key": "Choose another {opt:name} or folder, or pass {opt:force} to replace it.",
        "not_folder": "Choose a new folder.",
        "not_empty": "Give a new or empty folder; onnxpack does not mix its output with other files.",
    },
)
OUTPUT_NO_FOLDER = define(
    "OUTPUT_NO_FOLDER", kind=OutputError,
    text="Output folder {folder} does not exist", hint="Create it first.",
    # the folder to write into is a file (output_folder)
    variants={"file": "Output folder {folder} is a file"},
    summary="The output folder does not exist",
    variant_hints={"file": "Give a folder with -o."},
)
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
    variants={
        # the merge's output folder (or its file) was removed while the merge ran (core/model/merge.py) ...
        "merge_vanished": "Cannot write {output}: the output folder (or the file being written) was removed while the "
                          "merge ran; nothing was written",
        # ... the bundle's, while the bundle was made (core/release/bundle.py)
        "bundle_vanished": "Cannot write {output}: the output folder was removed while the bundle was made; nothing "
                           "was written",
        # the merge's output folder cannot be written into (core/model/merge.py)
        "read_only": "Cannot write into {folder}: the folder {why}",
        # the merge's output exists and is no regular file: --force replaces files only
        "not_regular": "Output {output} exists and is not a regular file (a FIFO, device or socket); it is never "
                       "replaced",
    },
    summary="The output cannot be written",
    variant_hints={
        "merge_vanished": "Keep the output folder in place until the merge ends, then run it again.",
        "bundle_vanished": "Keep the output folder in place until the bundle is done, then run it again.",
        "read_only": "Choose an output folder you can write to.",
        "not_regular": "Give the path of a regular file (or of a new one) for the merged model.",
    },
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
