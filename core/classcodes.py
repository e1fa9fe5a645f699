"""The error classes' own codes (ERROR, INPUT, MODEL_FORMAT, ...): each words whatever error of its class has no
code of its own, one variant per kind of problem (the code scripts see stays the class's; the registry:
core/codes.py)."""

from __future__ import annotations

import errno

from .codes import Code, define
from .errors import (
    Cancelled,
    ExternalDataError,
    InputError,
    InternalError,
    ModelFormatError,
    OnnxpackError,
    OutputError,
    RefusedError,
    RuntimeFailure,
)

__all__: list[str] = []


def _class_code(name: str, kind: type[OnnxpackError], summary: str, table: dict[str, tuple[str, str]]) -> Code:
    """An error class's code with its variants: variant -> (message, remedy)."""
    main, _ = table.pop("", ("", ""))  # the main message, when the class has one
    return define(name, kind=kind, summary=summary, text=main, variants={k: t for k, (t, _) in table.items()},
                  variant_hints={k: h for k, (_, h) in table.items() if h})


_PATH = "Check the path; quote it if it contains spaces."
_PERMISSIONS = "Check the path and its permissions."
ERROR = define("ERROR", kind=OnnxpackError, summary="onnxpack could not finish this task")
INPUT = _class_code("INPUT", InputError, "A file or setting given cannot be used", {
    # core/model/modelfile.py: the model given and its data folder
    "model_not_found": ("Model file not found: {path}", _PATH),
    "model_stat_unreadable": ("Cannot read Model file {path}: {reason}", _PERMISSIONS),
    "model_not_regular": ("Model file is not a regular file: {path}",
                          "Give the path of a .onnx/.ort file or of the folder that holds it."),
    "bundle_not_found": ("Bundle not found: {path}", _PATH),
    "bundle_stat_unreadable": ("Cannot read Bundle {path}: {reason}", _PERMISSIONS),
    "bundle_not_regular": ("Bundle is not a regular file: {path}", "Give the path of a NAME-VERSION.zip bundle."),
    "no_such_path": ("No such file or folder: {path}", _PATH),
    "no_model_in_folder": ("No .onnx or .ort model in folder {path}",
                           "Give the model file itself, or a folder that contains one .onnx file."),
    "several_models": ("Folder {path} holds several models ({names})", "Give the path of the one you mean."),
    "no_data_dir": ("Data folder not found or not a folder: {path}",
                    "{opt:data_dir} must name the folder that holds the external data files."),
    "model_unreadable": ("Cannot read model file {path}: {reason}", _PERMISSIONS),
    # core/release/modelstage.py
    "hash_unreadable": ("Cannot read {file} for hashing: {reason}", "Check the model folder."),
    # core/release/signing.py
    "key_password_unset": ("The environment variable {env_var} that should hold the key's password is not set",
                           "Set {env_var}, or drop the password option for an unencrypted key."),
    "signing_key_unreadable": ("Cannot read the signing key {path}: {reason}",
                               "Give the private key file (PEM) made by 'onnxpack keygen' or openssl."),
    "public_key_unreadable": ("Cannot read the public key {path}: {reason}",
                              "Give the publisher's public key file (NAME.pub)."),
    # core/release/verify/verify.py, verify_manifest.py
    "not_bundle_or_manifest": ("{path} is neither a bundle ZIP nor a manifest.json", "Give OLD.zip or its manifest."),
    "manifest_unreadable": ("Cannot read the manifest of {file}: {message}",
                            "Run `onnxpack verify` on it for details."),
    "bundle_unopenable": ("Cannot open bundle {path}: {reason}", "Check its permissions."),
    "member_escapes": ("Member {member!r} would extract outside the temporary folder",
                       "The bundle was modified after it was built. Get it again from its publisher, or rebuild it."),
    # core/runtime/inputfiles.py: --input NAME=FILE
    "input_not_file": ("{opt:input} {name}: {path} is not a regular file", "Give a .npy, .npz or .pb file."),
    "input_unreadable": ("{opt:input} {name}: cannot read {path}: {reason}", "Check the file permissions."),
})
MODEL_FORMAT = _class_code("MODEL_FORMAT", ModelFormatError, "The file is not a readable ONNX or ORT model", {
        # core/model/modelfile.py
        "no_graph": ("{file} parsed, but holds no ONNX graph (ir_version={ir_version})",
                     "This is not an ONNX model (random or foreign bytes can parse as an empty protobuf); export the "
                     "model again."),
        "empty": ("{file} is empty (0 bytes)", "The export or copy was probably interrupted; export the model again."),
        "unparsable": ("{file} is not a valid ONNX model: protobuf could not parse it ({reason})",
                       "The file may be truncated, corrupted, or nested deeper than protobuf allows; export it again."),
        "unreadable": ("{file} could not be read as ONNX: {reason}",
                       "Export the model again, or check it is really an ONNX file."),
    },
)
_REEXPORT = "Re-export the model, or fix the external data file next to it."
EXTERNAL_DATA = _class_code("EXTERNAL_DATA", ExternalDataError, "The model's external data cannot be used safely", {
        # core/model/extdata/extreader.py
        "invalid_tensor": ("Tensor {tensor} has invalid external data", _REEXPORT),
        "not_validated": ("{path} is not a validated external data file of this model", _REEXPORT),
        # core/model/extdata/extref.py: the first of the external data's errors (its own remedy), and how many more
        "first": ("{message}", ""),
        "first_of_many": ("{message} (and {more} more problem(s); run `onnxpack check` for all)", ""),
    },
)
REFUSED = _class_code("REFUSED", RefusedError, "onnxpack refused to build the bundle", {
    # core/release/smokerun.py: repeats the smoke run's first error (its own remedy, else this one)
    "smoke_failed": ("The smoke run of {model} failed: {message}",
                     "Give the sizes/inputs the model needs with {opt:dim}/{opt:input}, or pass {opt:no_smoke}."),
})
OUTPUT = _class_code("OUTPUT", OutputError, "The output cannot be written", {
    # core/release/signing.py: the key pair's folder and files
    "create": ("Cannot create {path}: {reason}", "Choose a folder you can write to."),
    "write": ("Cannot write {path}: {reason}", "Choose a folder you can write to."),
})
_REPORT = "Please report this bug."
INTERNAL = _class_code("INTERNAL", InternalError, "Internal error in onnxpack", {
    # cli/__init__.py: an exception no part of onnxpack expected
    "unexpected": ("Internal error: {exception}: {error}",
                   "This is a bug in onnxpack; please report it with the command you ran (set ONNXPACK_DEBUG=1 to see "
                   "the traceback)."),
    # core/model/merge/mergeparts.py, proof.py, core/release/finish.py, modelstage.py
    "merge": ("Internal error in merge: {detail}",
              "This is a bug in onnxpack; please report it with the model's structure (no weights needed)."),
    "proof": ("Internal error in the equality proof: {detail}", _REPORT),
    "manifest_schema": ("Internal error: the manifest does not match its schema: {problems}", _REPORT),
    "entry_not_stored": ("Internal error: the model entry is not stored", _REPORT),
    # core/release/endload.py: the end user's load measured on an entry the merge did not tee into the work folder
    "entry_not_teed": ("Internal error: the shipped model has no copy to load by its path", _REPORT),
    # core/release/folderparallel.py: a model's entry copied from its part ZIP into the release's
    "part_changed": ("Internal error: {member} changed when copied into the bundle", _REPORT),
})
RUNTIME = _class_code("RUNTIME", RuntimeFailure, "ONNX Runtime failed", {
    # core/runtime/session.py (defensive)
    "lost_marker": ("internal: initializer lost its external marker", ""),
})
CANCELLED = _class_code("CANCELLED", Cancelled, "Cancelled; nothing was written", {
    "": ("Cancelled.", ""),
    # core/runtime/childrun.py, ortformat.py
    "while": ("Cancelled while {current}.", ""),
    "ort_conversion": ("Cancelled during the ORT-format conversion.", ""),
})

# core/errors.py from_os_error: what the file system says about a path the user gave (or its folder), in words a
# release manager can act on; one code per errno (PATH_EACCES, ...): those are not bugs in onnxpack
_OS_ERRORS: dict[str, tuple[int, type[OnnxpackError], str, str]] = {
    "PATH_ENAMETOOLONG": (errno.ENAMETOOLONG, InputError,
                          "a file or folder name is longer than the file system allows",
                          "Shorten the name: most file systems allow 255 bytes per name (a Japanese character "
                          "takes 3)."),
    "PATH_EROFS": (errno.EROFS, OutputError, "the file system is read-only",
                   "Choose an output folder on a writable disk."),
    "PATH_EACCES": (errno.EACCES, InputError, "permission denied",
                    "Check the permissions of the file and its folder, or choose another."),
    "PATH_EPERM": (errno.EPERM, InputError, "the operation is not permitted",
                   "Check the permissions of the file and its folder."),
    "PATH_ELOOP": (errno.ELOOP, InputError, "too many levels of symbolic links",
                   "Give the real path instead of a link."),
    "PATH_ENOSPC": (errno.ENOSPC, OutputError, "the disk is full", "Free some space or choose another output folder."),
    "PATH_EDQUOT": (errno.EDQUOT, OutputError, "the disk quota is exhausted",
                    "Free some space or choose another output folder."),
}
#: errno -> its PATH_ code (variant "named": the error names the path)
PATH_CODES: dict[int, Code] = {
    number: define(name, kind=kind, text="Cannot use the path: " + what, hint=hint,
                   variants={"named": "Cannot use the path ({path}): " + what}, summary="A path cannot be used")
    for name, (number, kind, what, hint) in _OS_ERRORS.items()
}
