"""The codes of a release of several files (core/release/folder.py, assets.py, folderbundle.py, keep.py) and of the
bundle's model argument (options.py, plan.py); part of the registry (``onnxpack.core.codes``)."""

from __future__ import annotations

from ..codes import define
from ..errors import InputError, RefusedError
from ..findings import Severity

__all__: list[str] = []

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
_ = define

# a release folder (folder.py, assets.py): what a folder holds, checked before anything is written
RELEASE_NO_MODEL = _(
    "RELEASE_NO_MODEL", kind=InputError, text="{folder} holds no ONNX model",
    hint="Give the folder the app reads its models from, or a model file.",
    summary="The release folder holds no ONNX model",
)
RELEASE_LINK = _(
    "RELEASE_LINK", kind=InputError, text="{path} is a link (to {target}); a release holds files, not links",
    hint="Replace the link by the file itself, or leave it out with {opt:exclude}.",
    summary="The release folder holds a link",
)
RELEASE_UNREADABLE = _(
    "RELEASE_UNREADABLE", kind=InputError, text="Cannot read {path}: {reason}",
    hint="Check that you may read it (and that nothing else holds it open exclusively), or leave it out with "
         "{opt:exclude}.",
    summary="A file or folder of the release cannot be read",
)
RELEASE_SPECIAL = _(
    "RELEASE_SPECIAL", kind=InputError, text="{path} is not a regular file or folder",
    hint="Leave it out with {opt:exclude}.",
    summary="The release folder holds a special file",
)
RELEASE_COLLISION = _(
    "RELEASE_COLLISION", kind=InputError,
    text="{first} and {second} would be one file on Windows and macOS (names equal ignoring case or Unicode form)",
    hint="Rename one of them; apps on case-insensitive file systems would read the wrong one.",
    summary="Two files of the release have names that collide",
)
RELEASE_PATH = _(
    "RELEASE_PATH", kind=InputError, text="{path} cannot be shipped: it {why}",
    hint="Rename it (Windows must be able to extract it), or leave it out with {opt:exclude}.",
    variants={"long": "{path} is {length} characters long; Windows refuses paths over {limit} characters once "
                      "extracted into a typical folder",
              "own": "{path} cannot be shipped: it is a name onnxpack's own members use"},
    summary="A file name of the release cannot be extracted everywhere",
)
RELEASE_DATA_MISSING = _(
    "RELEASE_DATA_MISSING", kind=InputError, text="{model} references external data {location}, which is missing",
    hint="Copy the data file beside the model (exporters write it next to the .onnx), or re-export the model.",
    summary="A model of the release references an external-data file that is missing",
)
RELEASE_DATA_OUTSIDE = _(
    "RELEASE_DATA_OUTSIDE", kind=InputError,
    text="{model} references external data {location} outside the release folder {folder}",
    hint="Move the data file into the release folder beside the model, or re-save the model with its data.",
    summary="A model of the release reads external data outside the folder",
)
RELEASE_DATA_UNREFERENCED = _(
    "RELEASE_DATA_UNREFERENCED", WARNING,
    "{path} looks like external data, but no model of the release references it; it is left out",
    "A leftover of an earlier export or a renamed model? Delete it, or re-export the model that should read it.",
)
RELEASE_MODEL_FAILED = _(
    "RELEASE_MODEL_FAILED", kind=RefusedError, text="{model}: {message}",
    hint="Fix that model (`onnxpack check {model}`), or leave it out with {opt:exclude}.",
    summary="A model of the release failed, so the release was not written",
)
RELEASE_ASSET = _(
    "RELEASE_ASSET", kind=InputError, text="The asset {path} is not in the model's folder {folder}",
    hint="Give files beside the model (or in folders below it), or bundle the whole folder: `onnxpack bundle DIR`.",
    variants={"missing": "The asset {path} does not exist or is not a regular file",
              "model": "{path} is the model itself, not an asset",
              "model_file": "{opt:asset} adds files beside one model file; {path} is not one"},
    variant_hints={"missing": "Check the path given to {opt:asset}.", "model": "Give the files the app reads beside "
                   "the model with {opt:asset}.", "model_file": "Give the model file, or bundle the whole folder "
                   "without {opt:asset}."},
    summary="An asset given cannot be added beside the model",
)  # fmt: skip
RELEASE_LABELS = _(
    "RELEASE_LABELS", ERROR,
    "{asset} names {count} classes, but no output of {model} has {count} (last dimensions: {outputs})",
    "Fix the label map or the model; {opt:allow_unmatched_labels} ships them as they are.",
    kind=InputError, summary="A label map does not match the model it describes",
    variants={"unreadable": "{asset} is not a label map onnxpack can read: {reason}"},
    variant_hints={"unreadable": "Write it as UTF-8 JSON ({{\"idx_to_label\": {{\"0\": \"a\", ...}}}}), or as one "
                   "label per line in a .txt file."},
)  # fmt: skip
RELEASE_LABELS_OK = _(
    "RELEASE_LABELS_OK", INFO, "{asset}: {count} classes, as {model}'s output {output} has",
)
RELEASE_SKIPPED = _(
    "RELEASE_SKIPPED", INFO, "{count} files left out of the release ({examples})",
    "They are listed in the manifest's \"skipped\"; {opt:exclude} leaves out more.",
)

# the model argument (options.py, plan.py): no silent default
BUNDLE_MODEL_EMPTY = _(
    "BUNDLE_MODEL_EMPTY", kind=InputError, text="The model argument is empty",
    hint="Give the model's path (is a variable such as $MODEL unset?); with no argument at all, onnxpack bundles its "
         "built-in sample.",
    summary="The model argument is empty",
)
BUNDLE_SAMPLE = _(
    "BUNDLE_SAMPLE", WARNING, "No model was given: this bundle holds onnxpack's built-in sample model ({model})",
    "Give your model's path (or its folder) as the first argument.",
)
LAYOUT_KEEP_CHANGED = _(
    "LAYOUT_KEEP_CHANGED", kind=InputError,
    text="{opt:layout} keep ships the model's files as they are, but {opt:fix_ir} or {opt:set_model_version} "
         "changes the model",
    hint="Drop {opt:layout} keep to ship a merged, changed copy, or drop the option that changes it.",
    variants={"ort_format": "{opt:layout} keep ships the model's files as they are; {opt:ort_format} adds a converted "
                            "copy"},
    variant_hints={"ort_format": "Drop one of them."},
    summary="Keeping the model's files as they are contradicts another option",
)
