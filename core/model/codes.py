"""The finding and error codes that ``onnxpack.core.model`` produces (the registry: ``onnxpack.core.codes``)."""

from __future__ import annotations

from ..codes import define
from ..errors import ExternalDataError, InputError, ModelFormatError, OutputError, RuntimeFailure
from ..findings import Severity

__all__: list[str] = []

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

# Each entry: NAME = define("NAME", SEVERITY, "message template", "remedy template") for a finding, or
# NAME = define("NAME", kind=SomeError, text="message template", hint="remedy", summary="in general words").
_ = define

_REEXPORT = "Re-export the model, or fix the external data file next to it."
_INLINE = "Re-export the model from its source framework."
_TRUNCATED = "The data file is truncated or belongs to another model; export again."

# extdata: a tensor's external_data entries and its location, checked before any file is opened
# (core/model/extdata/extresolve.py, extlocation.py)
EXTDATA_IGNORED = define(
    "EXTDATA_IGNORED", WARNING,
    "Tensor {label} has external_data entries but data_location is not EXTERNAL; they are ignored",
    "Remove the stray external_data entries or set data_location to EXTERNAL.",
)
EXTDATA_DUPLICATE_KEY = define(
    "EXTDATA_DUPLICATE_KEY", ERROR, "Tensor {label}: external_data key '{key}' appears twice", _REEXPORT,
)
EXTDATA_UNKNOWN_KEY = define(
    "EXTDATA_UNKNOWN_KEY", ERROR, "Tensor {label}: unknown external_data key '{key}', which ONNX Runtime refuses",
    "Remove the key (only location, offset, length and checksum are allowed), or re-export the model.",
)
EXTDATA_BAD_KEY = define(
    "EXTDATA_BAD_KEY", ERROR, "Tensor {label}: external_data '{key}' is {raw!r}, not a non-negative integer", _REEXPORT,
)
EXTDATA_STRING = define(
    "EXTDATA_STRING", ERROR,
    "Tensor {label} is a STRING tensor stored as external data, which ONNX does not allow",
    "Store string tensors inline.",
)
EXTDATA_ALSO_INLINE = define(
    "EXTDATA_ALSO_INLINE", ERROR, "Tensor {label} is marked EXTERNAL but also carries inline data", _REEXPORT,
)
EXTDATA_NO_LOCATION = define(
    "EXTDATA_NO_LOCATION", ERROR, "Tensor {label} is marked EXTERNAL but has no 'location' key", _REEXPORT,
    variants={"empty": "Tensor {label}: external data location {file!r} is empty"},
)
#: Two variants have the same message and their own remedy: "dotdot" ('..' inside a name) and "ort_memory"
#: (onnxruntime's in-memory marker).
EXTDATA_BAD_LOCATION = define(
    "EXTDATA_BAD_LOCATION", ERROR, "Tensor {label}: external data location {file!r} {why}", _REEXPORT,
    variants={
        "dotdot": "Tensor {label}: external data location {file!r} {why}",
        "ort_memory": "Tensor {label}: external data location {file!r} {why}",
    },
    variant_hints={
        "dotdot": "Rename the data file without '..' and save the model again with that location.",
        "ort_memory": "The model was saved from a live ORT session by mistake; export it again.",
    },
)
EXTDATA_ABSOLUTE = define(
    "EXTDATA_ABSOLUTE", ERROR,
    "Tensor {label}: external data location {file!r} is absolute (or a drive-letter/UNC path); locations must be "
    "relative to the model folder",
    "Move the data file next to the model and save the model with a relative location.",
)
EXTDATA_OUTSIDE_DIR = define(
    "EXTDATA_OUTSIDE_DIR", ERROR,
    "Tensor {label}: external data location {file!r} has a '..' component; it could point outside the model folder",
    "Keep external data inside the model folder and use a plain relative file name.",
    variants={"resolved": "External data file {file!r} resolves outside the model folder ({real})"},
    variant_hints={"resolved": "Keep external data inside the model folder."},
)
# extdata: the data file on disk (core/model/extdata/extlocation.py)
EXTDATA_MISSING = define(
    "EXTDATA_MISSING", ERROR, "External data file {file!r} was not found (looked for {looked_for})",
    "Put the .data file next to the .onnx file (same folder, same name as written in the model), or give its "
    "folder with {opt:data_dir}.",
    variants={
        "component": "External data file {file!r} has a non-folder component {part!r}",
        # core/model/extdata/extlocation.py FileCheck.suggest_renamed: data-like files lie where it was looked for
        "renamed": "External data file {file!r} was not found (looked for {looked_for}), but {found!r} beside it "
                   "has the size the model needs ({size}): was it renamed from {file!r}?",
        "renamed_maybe": "External data file {file!r} was not found (looked for {looked_for}); data files beside "
                         "it: {found}. Was one of them renamed from {file!r}?",
    },
    variant_hints={
        "component": _REEXPORT,
        "renamed": "Rename {found!r} back to {file!r}, the name the model records (or copy it to that name).",
        "renamed_maybe": "If one of them is this model's data file, rename it back to {file!r} (the name the model "
                         "records); else put the .data file next to the .onnx file, or give its folder with "
                         "{opt:data_dir}.",
    },
)
#: EXTDATA_UNREADABLE, EXTDATA_NOT_REGULAR and EXTDATA_OUT_OF_RANGE are also errors: a file checked before that
#: changed while it was read (core/model/extdata/extreader.py: the "open", "changed" and "shrunk" variants).
_CHANGED = "Make sure nothing else modifies the model folder while onnxpack runs."
EXTDATA_UNREADABLE = define(
    "EXTDATA_UNREADABLE", ERROR, "External data file {file!r} cannot be examined: {detail}", "Check file permissions.",
    kind=ExternalDataError,
    variants={"open": "Cannot open external data file {path}: {detail}"},
    summary="An external data file cannot be opened",
    variant_hints={"open": "It changed since it was checked; run the command again."},
)
EXTDATA_SYMLINK = define(
    "EXTDATA_SYMLINK", ERROR, "External data file {file!r} is or passes through a symbolic link ({path})",
    "Replace the link with the real file inside the model folder.",
)
EXTDATA_NOT_REGULAR = define(
    "EXTDATA_NOT_REGULAR", ERROR, "External data file {file!r} is not a regular file (FIFO, device or socket)",
    "External data must be an ordinary file.",
    kind=ExternalDataError,
    variants={
        "folder": "External data file {file!r} is a folder, not a file",
        "changed": "External data file {path} changed into a non-regular or multiply-linked file while in use",
    },
    summary="An external data file changed into something other than an ordinary file while in use",
    variant_hints={"folder": _REEXPORT, "changed": _CHANGED},
)
EXTDATA_HARDLINK = define(
    "EXTDATA_HARDLINK", ERROR,
    "External data file {file!r} has {links} hard links; it may be a link to a file outside the model folder",
    "Replace the hard link with a real copy of the file (e.g. `{copy}`).",
)
# extdata: a tensor's byte range in its file, its length and its checksum (core/model/extdata/extresolve.py)
EXTDATA_OUT_OF_RANGE = define(
    "EXTDATA_OUT_OF_RANGE", ERROR,
    "Tensor {label}: bytes {start}..{end} lie beyond the end of {file!r} ({size:,} bytes)", _TRUNCATED,
    variants={
        "offset": "Tensor {label}: offset {offset} is beyond the end of {file!r} ({size:,} bytes)",
        "key": "Tensor {label}: external_data '{key}' is {shown}, beyond any 64-bit file offset",
        "inline": "Tensor {label}: raw_data bytes {start}..{end} lie beyond the end of the model file",
        "shrunk": "External data file {path} got shorter while reading tensor {tensor!r}",
        "shrunk_range": "External data file {path} got shorter while reading it",
    },
    kind=ExternalDataError,
    summary="An external data file got shorter while it was read",
    variant_hints={
        "key": _REEXPORT,
        "inline": "The model file changed while it was read; read it again.",
        "shrunk": _CHANGED,
        "shrunk_range": _CHANGED,
    },
)
EXTDATA_LENGTH_MISMATCH = define(
    "EXTDATA_LENGTH_MISMATCH", ERROR,
    "Tensor {label}: {length:,} bytes of external data, but {dtype} {dims} needs {expected:,}",
    "The model and its data file do not match; export them again together.",
)
EXTDATA_BAD_CHECKSUM = define(
    "EXTDATA_BAD_CHECKSUM", ERROR, "Tensor {label}: checksum {checksum!r} is not a SHA-1 hex digest", _REEXPORT,
)
EXTDATA_CHECKSUM_MISMATCH = define(
    "EXTDATA_CHECKSUM_MISMATCH", ERROR, "Tensor {label}: SHA-1 of {file!r} is {sha1}, but the model records {checksum}",
    "The data file was modified or replaced; restore the original.",
)
TENSOR_SIZE_MISMATCH = define(
    "TENSOR_SIZE_MISMATCH", ERROR,
    "Tensor {label}: {length:,} bytes of raw_data, but {dtype} {dims} needs {expected:,}",
    _INLINE,
    variants={
        "string": "Tensor {label}: a STRING tensor with {length:,} bytes of raw_data (strings live in string_data)",
    },
)
EXTDATA_OVERLAP = define(
    "EXTDATA_OVERLAP", WARNING, "Tensors {other!r} and {tensor!r} share bytes of {file!r}",
    "Overlapping tensors are unusual; check the exporter. A merge copies each separately.",
)

# modelfile: what a file given as a model, a bundle or a previous release is (core/model/modelfile.py)
#: Variant "shrunk": the file got shorter while it was read (core/runtime/session.py raises it as a RuntimeFailure,
#: a race and not a bad input: it builds the error from these words).
MODEL_TRUNCATED = define(
    "MODEL_TRUNCATED", kind=ModelFormatError, text="{file}: bytes {start}–{end} lie outside the file",
    hint="The archive is truncated or damaged; build it again.",
    variants={"shrunk": "{file} got shorter while it was read"},
    summary="The model file is truncated, or got shorter while it was read",
    variant_hints={"shrunk": "Run the command again."},
)
#: The variants name the task that needs the .onnx: "convert" (core/runtime/ortformat.py), "bundle"
#: (core/release/gate.py) and "compare" (core/release/preview.py).
MODEL_IS_ORT = define(
    "MODEL_IS_ORT", kind=ModelFormatError,
    text="{file} is an ORT-format model (FlatBuffer 'ORTM'), not an ONNX protobuf",
    hint="Rename it to .ort; ORT-format models can be inspected and smoke-run but not merged or re-bundled — give "
         "the original .onnx for that.",
    variants={
        "convert": "{file} is already an ORT-format model",
        "bundle": "{file} is an ORT-format model; bundles are built from the .onnx model",
        "compare": "{file} is an ORT-format model; releases are compared from the .onnx model",
    },
    summary="This is an ORT-format model; this task needs the .onnx model",
    variant_hints={
        "convert": "Give the .onnx model.",
        "bundle": "Give the original .onnx (use {opt:ort_format} to add an .ort variant).",
        "compare": "Give the original .onnx model.",
    },
)
MODEL_IS_ZIP = define(
    "MODEL_IS_ZIP", kind=ModelFormatError, text="{file} is a ZIP archive, not an ONNX model",
    hint="If it is an onnxpack bundle, use `onnxpack verify`; otherwise extract the model first.",
    summary="The file is a ZIP archive, not an ONNX model",
)
# variant "pickle": torch.save's legacy format (or another Python pickle)
MODEL_IS_PYTORCH = define(
    "MODEL_IS_PYTORCH", kind=ModelFormatError, text="{file} is a PyTorch checkpoint (torch.save), not an ONNX model",
    hint="Export the model to ONNX first: in PyTorch, build the model (load_state_dict if the file holds only "
         "weights), then torch.onnx.export(model, example_inputs, \"model.onnx\"), and give the .onnx.",
    variants={"pickle": "{file} is a Python pickle (PyTorch's legacy torch.save format?), not an ONNX model"},
    summary="The file is a PyTorch checkpoint, not an ONNX model",
)
MODEL_IS_TEXT = define(
    "MODEL_IS_TEXT", kind=ModelFormatError, text="{file} is a text file, not a binary ONNX model",
    hint="Textual ONNX (onnx.printer / .onnxtxt) is not supported; save the model with onnx.save().",
    summary="The file is a text file, not a binary ONNX model",
)
MODEL_TOO_LARGE = define(
    "MODEL_TOO_LARGE", kind=ModelFormatError, text="{file} is {size:,} bytes, at or above protobuf's 2 GiB limit",
    hint="Protobuf cannot parse it. Re-export with external data (PyTorch: external_data=True).",
    summary="The model file is at or above protobuf's 2 GiB limit",
)
MODEL_BAD_TEXT = define(
    "MODEL_BAD_TEXT", kind=ModelFormatError,
    text="{file} holds text that is not valid UTF-8 (in a '{field}' field)",
    hint="The file is corrupted or was not written by an ONNX exporter; export the model again.",
    summary="The model holds text that is not valid UTF-8",
)
MODEL_IS_DATA = define(
    "MODEL_IS_DATA", kind=ModelFormatError, text="{file} is external data (the weights) of {model}, not a model",
    hint="Give the model file instead: {referrer}; its data file is found beside it.",
    variants={
        # more than one .onnx beside it refers to it: the same words, the remedy says so
        "several": "{file} is external data (the weights) of {model}, not a model",
        "named": "{file} is not an ONNX model; its name says it is external data (the weights a .onnx file refers "
                 "to), and no .onnx beside it refers to it",
    },
    summary="The file is a model's external data (its weights), not the model",
    variant_hints={
        # more than one .onnx beside it refers to it
        "several": "Give the model file instead: {referrer} (or another of them); its data file is found beside it.",
        "named": "Give the .onnx model file that uses this data; keep the data file beside it (or pass "
                 "{opt:data_dir}).",
    },
)
#: The variants "model" (a model was given) and "manifest" (a manifest taken out of a bundle) have the same message
#: and their own remedy.
BUNDLE_NOT_ZIP = define(
    "BUNDLE_NOT_ZIP", kind=InputError, text="{file} {what}: a bundle .zip is expected",
    hint="Give the NAME-VERSION.zip that `onnxpack bundle` wrote.",
    variants={
        "model": "{file} {what}: a bundle .zip is expected",
        "manifest": "{file} {what}: a bundle .zip is expected",
        "pytorch": "{file} {what}, not an onnxpack bundle",
    },
    summary="The file is not a bundle: a bundle .zip is expected",
    variant_hints={
        "model": "Give the NAME-VERSION.zip that `onnxpack bundle` wrote; to check the model itself, run "
                 "`onnxpack check {path}`.",
        "manifest": "Give the bundle .zip this manifest came from: a manifest alone cannot show that the files are "
                    "intact.",
        "pytorch": "A bundle is built from an ONNX model: export the checkpoint with torch.onnx.export, then run "
                   "`onnxpack bundle` on the .onnx.",
    },
)
PREVIOUS_NOT_BUNDLE = define(
    "PREVIOUS_NOT_BUNDLE", kind=InputError,
    text="{file} {what}, not a previous release: {opt:previous} takes the earlier release's bundle .zip (or the "
         "manifest.json inside it)",
    hint="Give the NAME-VERSION.zip of the release before this one, e.g. {opt:previous} dist/NAME-1.0.0.zip.",
    summary="The previous bundle is not a bundle .zip (or the manifest.json from one)",
)

# merge: the consolidated data file's name (core/model/merge/mergeplan.py)
OUTPUT_BAD_NAME = define(
    "OUTPUT_BAD_NAME", kind=OutputError,
    text="Cannot name the data file {name!r}: external data locations must be a plain file name without '..', "
         "slashes or ':'",
    hint="Choose an output name without '..' (the data file is named after it: NAME.onnx.data).",
    summary="The output name cannot be used for the data file",
    # the file name given with -o (cli/output.py; raised as a usage error)
    variants={"cli": "-o {value}: the file name {why}"},
    variant_hints={"cli": "Use a plain file name, e.g. -o dist/NAME-1.0.0{ext}."},
)
# merge: the single-file size against protobuf's limit; a finding of the checks (core/checks/validate.py, which
# re-exports it from core/checks/codes.py; variant "approx": the size is an estimate) and the merge's error (its
# variant "merge": core/model/merge/mergeparts.py)
MERGE_TOO_LARGE = define(
    "MERGE_TOO_LARGE", INFO,
    "Merged into one file, {model} would be {readable} ({bytes:,} bytes), above protobuf's 2 GiB limit; it must keep "
    "external data",
    "onnxpack keeps it as .onnx + one aligned .data file (`onnxpack merge --layout external`).",
    kind=OutputError,
    variants={"approx": "Merged into one file, {model} would be about {readable} ({bytes:,} bytes), above protobuf's "
                        "2 GiB limit; it must keep external data",
              # the merge's error (core/model/merge/mergeplan.py): the merged single file, the model structure
              # without its consolidated data, a tensor embedded in it
              "merge": "The merged single-file model would be {bytes:,} bytes, at or above protobuf's 2 GiB limit "
                       "({limit:,} bytes)",
              "merge_structure": "The model structure (without the consolidated data) would be {bytes:,} bytes, at or "
                                 "above protobuf's 2 GiB limit ({limit:,} bytes)",
              "merge_tensor": "Tensor {tensor} embedded would be {bytes:,} bytes, at or above protobuf's 2 GiB limit "
                              "({limit:,} bytes)"},
    summary="Merged into one file, the model would exceed protobuf's 2 GiB limit",
    variant_hints={"merge": "Use {opt:layout} external (or auto): the model then keeps one aligned data file beside "
                            "it."},
)

# proof: the merged model is the source (core/model/merge/proof.py)
MERGE_NOT_EQUAL = define(
    "MERGE_NOT_EQUAL", kind=RuntimeFailure, text="The merged model is not the source model: its structure differs",
    hint="This is a bug in onnxpack's merge (or a source file changed while it was read); please report it. Nothing "
         "was written.",
    variants={
        # the first tensor whose bytes differ; the number of tensors differs
        "tensor": "The merged model is not the source model: tensor {tensor!r} has different bytes",
        "count": "The merged model is not the source model: {count} tensors instead of {expected}",
        # the merged model's smoke run against the original's (core/release/smokerun.py): the outputs that differ,
        # the largest difference; none could be compared
        "outputs": "The merged model does not give bitwise the same outputs as {model}: {outputs} (max abs diff up "
                   "to {max_abs})",
        "no_outputs": "The merged model does not give bitwise the same outputs as {model}: no outputs to compare",
    },
    summary="The merged model is not exactly the original model; nothing was written",
    variant_hints={"outputs": "This is a bug in onnxpack's merge; please report it. Nothing was written.",
                   "no_outputs": "This is a bug in onnxpack's merge; please report it. Nothing was written."},
)
