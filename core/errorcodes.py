"""The error codes the basics raise (atomic writes, bundle names) and the shared USAGE code (the registry: codes.py)."""

from __future__ import annotations

from .codes import define
from .errors import InputError, OutputError

__all__: list[str] = []

# Options that cannot be used together, one missing or a value out of its range: raised by every floor, one variant
# per kind of usage error (the code scripts see stays USAGE).
_EXAMPLE_DIM = "Example: {opt:dim} sequence=512"
_USAGE: dict[str, tuple[str, str]] = {
    # cli/__init__.py: argparse's own message
    "argparse": ("{prog}: {message}", "Run `{prog} --help` for usage."),
    # cli/cmd_inspect.py
    "prove_ort_model": ("{opt:prove_ort} runs .onnx models; this is an ORT-format model",
                        "Prove the .onnx model it was converted from."),
    # core/checks/targetapp.py
    "target_app_disagrees": ("{opt:target_ort} {target_ort} and {opt:target_app} ({app}) disagree",
                             "Give one of them."),
    # core/model/merge/mergeplan.py
    "merge_layout": ("Unknown layout {layout!r}", "Use one of: {layouts}."),
    "align": ("Alignment {align!r} is not a power of two between 1 and {max}",
              "Use e.g. {opt:align} 65536 (the default; Windows and POSIX can map such offsets) or 4096."),
    # core/release/options.py
    "bundle_layout": ("Unknown layout {layout!r}", "Use auto, single, external or keep."),
    "fix_ir_needs_target": ("{opt:fix_ir} needs {opt:target_ort} X.Y", "Say which ONNX Runtime must load the model."),
    "two_signers": ("Choose one way to sign: {opt:sign_key} or {opt:sign_sigstore}", "Drop one of them."),
    "certificate_without_key": ("A signing certificate was given without its private key",
                                "Add {opt:sign_key} KEY.pem (the key the certificate was issued for)."),
    # core/release/signing.py
    "chain_without_certificate": ("A certificate chain was given without a signing certificate",
                                  "Add {opt:sign_certificate} CERT.pem, or drop {opt:sign_chain}."),
    "identity_token_unset": ("The environment variable {env_var} that should hold the OIDC identity token is not set",
                             "Set it, or drop {opt:sigstore_identity_token_env} to log in."),
    # core/runtime/inputfiles.py: --dim, --range, --input as given
    "name_value": ("{flag} {text!r} is not of the form NAME=VALUE", "Example: {flag} {example}"),
    "dim_too_large": ("{opt:dim} {text!r}: {value} is more than a dimension can be (ONNX dims are int64: at most "
                      "{max})", _EXAMPLE_DIM),
    "dim_not_positive": ("{opt:dim} {text!r}: {value!r} is not a positive integer (a size of 0 runs on empty tensors, "
                         "which proves nothing)", _EXAMPLE_DIM),
    "range_form": ("{opt:range} {text!r}: expected LO:HI with finite numbers and LO ≤ HI",
                   "Example: {opt:range} x=0:1"),
    "input_no_value": ("{opt:input} {name}= has no value", "Example: {opt:input} sr=16000"),
    "input_member": ("{opt:input} {name}: ':{member}' selects an .npz member, but {file} is a {format} file",
                     "Remove the ':member' part."),
    # core/runtime/inputs.py: a --range the input's type cannot hold
    "range_beyond": ("{opt:range} {name}={lo}:{hi} goes beyond what {dtype} holds (±{top})",
                     "Give a range within ±{top}, e.g. {opt:range} {name}=-1:1."),
    "range_empty": ("{opt:range} {name}={lo}:{hi} holds no {dtype} value (the range is [LO, HI): HI is excluded)",
                    "Widen it, e.g. {opt:range} {name}={low}:{high} for the single value {low}."),
    # core/runtime/smokeoptions.py: the smoke run's options
    "runs": ("{opt:runs} must be between 1 and 10000 (got {value})", "Example: {opt:runs} 5"),
    "compare_runs": ("compare_runs must be at least 1 (got {value})", "Leave it unset to run both alike."),
    "seed": ("{opt:seed} must be a non-negative integer (got {value})", "Example: {opt:seed} 0"),
    "timeout": ("{opt:timeout} must be a positive number of seconds (got {value})", "Example: {opt:timeout} 600"),
    "atol": ("{opt:atol} must be a finite number ≥ 0 (got {value})", "Example: {opt:atol} 1e-5"),
    "rtol": ("{opt:rtol} must be a finite number ≥ 0 (got {value})", "Example: {opt:rtol} 1e-5"),
    "dim_small": ("{opt:dim} {name}={value}: the value must be an integer ≥ 1 (a size of 0 runs on empty tensors)",
                  _EXAMPLE_DIM),
    "dim_large": ("{opt:dim} {name}={value}: more than a dimension can be (ONNX dims are int64: at most {max})",
                  _EXAMPLE_DIM),
    "default_dim": ("default dim must be an integer ≥ 0 (got {value})", "Use 1."),
    "range_finite": ("{opt:range} {name}={lo}:{hi}: need finite LO ≤ HI", "Example: {opt:range} x=0:1"),
    # core/runtime/ortformat.py
    "optimization_style": ("{opt:optimization_style} must be one of {choices}",
                           "Use Fixed (CPU) or Runtime (NNAPI/CoreML)."),
    "target_platform": ("{opt:target_platform} must be one of {choices}", "Use amd64 or arm."),
    # core/runtime/prove.py
    "prove_ort_empty": ("{opt:prove_ort} needs at least one ONNX Runtime release",
                        "Give releases like 1.16.3,1.20.1, a MAJOR.MINOR (its newest patch) or auto."),
    "prove_ort_none": ("{opt:prove_ort} names no release", "Give releases like 1.16.3,1.20.1."),
    # core/runtime/smoke.py
    "ort_in_archive": ("{model} is an ORT-format model inside an archive", "Extract it first."),
    "same_file": ("Both models are the same file: {model}",
                  "Compare the original with a different file (e.g. the merged copy)."),
}
USAGE = define(
    "USAGE", kind=InputError, summary="These settings cannot be used together, or one is missing",
    variants={k: text for k, (text, _) in _USAGE.items()},
    variant_hints={k: hint for k, (_, hint) in _USAGE.items()},
)
# cli/output.py: what -o means is ambiguous (an existing file, or a file name where a folder is taken); "name": it
# looks like a file name; "_ext": the command writes one file, {what}, and also takes a file name ending in {ext};
# otherwise it writes two files, {what} and {other} (names as data: NAME.key); "keygen": the key pair's names
_WHY = {"": "is an existing file", "name": "looks like a file name"}
_TAKES = ", and `onnxpack {command} -o` takes a folder to write {what} and {other} into"
_TAKES_ONE = ", and `onnxpack {command} -o` takes a folder to write {what} into"
_GIVE = "Give a folder (created if missing), e.g. -o dist"
_AMBIGUOUS: dict[str, tuple[str, str]] = {}
for _why, _words in _WHY.items():
    _AMBIGUOUS[_why] = ("-o {value} " + _words + _TAKES, _GIVE + ".")
    _AMBIGUOUS[f"{_why}_ext".lstrip("_")] = ("-o {value} " + _words + _TAKES_ONE + ", or a file name ending in {ext}",
                                            _GIVE + ", or the file to write, e.g. -o dist/NAME{ext}.")
    _AMBIGUOUS[f"{_why}_keygen".lstrip("_")] = ("-o {value} " + _words + _TAKES,
                                               _GIVE + ". The file names come from {opt:name}.")
OUTPUT_AMBIGUOUS = define(
    "OUTPUT_AMBIGUOUS", kind=InputError, text=_AMBIGUOUS[""][0], hint=_AMBIGUOUS[""][1],
    variants={k: t for k, (t, _) in _AMBIGUOUS.items() if k},
    variant_hints={k: h for k, (_, h) in _AMBIGUOUS.items() if k},
    summary="It is unclear what -o names: a folder or a file",
)

# core/atomic.py: the output paths (refused before writing) and writing them
OUTPUT_IS_INPUT = define(
    "OUTPUT_IS_INPUT", kind=OutputError,
    text="Output {output} is the same file as the input {input}",
    hint="Choose another output path; onnxpack never modifies its inputs.",
    # the merge's output is a hard link to an input (core/model/merge/merge.py)
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
    # the merge's output (core/model/merge/merge.py)
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
        # the merge's output folder (or its file) was removed while the merge ran (core/model/merge/merge.py) ...
        "merge_vanished": "Cannot write {output}: the output folder (or the file being written) was removed while the "
                          "merge ran; nothing was written",
        # ... the bundle's, while the bundle was made (core/release/bundle.py)
        "bundle_vanished": "Cannot write {output}: the output folder was removed while the bundle was made; nothing "
                           "was written",
        # the merge's output folder cannot be written into (core/model/merge/merge.py) ... or its file system is
        # mounted read-only
        "read_only": "Cannot write into {folder}: the folder is read-only",
        "read_only_fs": "Cannot write into {folder}: the folder is on a read-only file system",
        # the merge's output exists and is no regular file: --force replaces files only
        "not_regular": "Output {output} exists and is not a regular file (a FIFO, device or socket); it is never "
                       "replaced",
    },
    summary="The output cannot be written",
    variant_hints={
        "merge_vanished": "Keep the output folder in place until the merge ends, then run it again.",
        "bundle_vanished": "Keep the output folder in place until the bundle is done, then run it again.",
        "read_only": "Choose an output folder you can write to.",
        "read_only_fs": "Choose an output folder you can write to.",
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
