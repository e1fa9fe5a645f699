"""Finding and error messages in the desktop app's language.

A finding (or an error that repeats one) carries a stable code plus the values in its message by name; in Japanese
the app renders it from the "Findings" catalog below, which Qt Linguist translates. An error without those values
is worded by its code's general text ("Errors"), and the engine's exact English goes into the dialog's details. In
English the app shows the engine's own message, word for word as the command line, manifests and JSON have it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication

from onnxpack.core.codes import Code
from onnxpack.core.errors import InputError, OnnxpackError

from .catalog import code_of, summary_text, translated_message
from .formatting import format_bytes
from .i18n import current_language

__all__ = [
    "ERROR_TEXT_CODES",
    "GUI_MESSAGE_CODES",
    "WordedError",
    "WordedInputError",
    "gui_message",
    "stage_detail",
]


class WordedError(OnnxpackError):
    """An error the app words itself, already in its language (shown as it is)."""

    worded = True


class WordedInputError(InputError):
    """An input problem the app words itself, already in its language (shown as it is)."""

    worded = True


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _templates() -> dict[str, str | dict[str, str]]:
    """Code → its text with ``{param}`` placeholders, or variant → text where a finding names its variant.

    Built on every call, so a language switch applies at once. Every text is a literal
    QCoreApplication.translate("Findings", …) call: that is what lupdate collects."""
    return {
        "EXTDATA_MISSING": {
            "": QCoreApplication.translate(
                "Findings", "External data file '{file}' was not found (looked for {looked_for})"
            ),
            "component": QCoreApplication.translate(
                "Findings", "External data file '{file}' has a path component that is not a folder"
            ),
        },
        "EXTDATA_UNALIGNED": QCoreApplication.translate(
            "Findings",
            "{unaligned} of {total} external tensors start at offsets not aligned to 4 KiB (e.g. '{tensor}' at "
            "{offset}); ONNX Runtime may then read them into memory instead of memory-mapping them",
        ),
        "EXTDATA_ALIGNED": QCoreApplication.translate(
            "Findings", "All {total} external tensors start at 4 KiB-aligned offsets ({aligned64} also at 64 KiB)"
        ),
        "MERGE_FITS": QCoreApplication.translate(
            "Findings", "Merged into one file, {model} would be {size}, under the 2 GiB protobuf limit"
        ),
        "MERGE_TOO_LARGE": QCoreApplication.translate(
            "Findings",
            "Merged into one file, {model} would be {size}, above protobuf's 2 GiB limit; it must keep external data",
        ),
        "IR_LOWERABLE": QCoreApplication.translate(
            "Findings",
            "{model} uses nothing newer than IR {min_ir}: lowering ir_version from {ir} to {lowered} would let "
            "ONNX Runtime {version} (and newer) load it",
        ),
        "DOMAIN_CONTRIB": QCoreApplication.translate(
            "Findings",
            "{model} uses ONNX Runtime contrib operators (domain '{domain}'); they ship with standard ORT packages "
            "but are not covered by the opset table",
        ),
        "DOMAIN_LOCAL_FUNCTIONS": QCoreApplication.translate(
            "Findings", "{model} imports domain '{domain}', defined by its own model-local functions"
        ),
        "DOMAIN_CUSTOM": QCoreApplication.translate(
            "Findings",
            "{model} uses operators of the non-standard domain '{domain}'; ONNX Runtime needs a custom-op library "
            "registered for them",
        ),
        "OPSET_MISSING": QCoreApplication.translate(
            "Findings", "{model} uses operators of domain '{domain}' but does not import that operator set"
        ),
        "CHECKER_CRASHED": QCoreApplication.translate(
            "Findings",
            "The onnx checker crashed on {model} ({detail}); the model is malformed in a way that breaks native code",
        ),
        "CHECKER_TIMEOUT": QCoreApplication.translate(
            "Findings", "The onnx checker did not finish on {model} ({detail})"
        ),
        "CHECKER_FAILED": QCoreApplication.translate("Findings", "The onnx checker could not run on {model}: {detail}"),
        "ONNX_CHECKER": QCoreApplication.translate("Findings", "onnx checker rejects {model}: {detail}"),
        "SHAPE_INFERENCE_PARTIAL": QCoreApplication.translate(
            "Findings",
            "Shape inference of {model} stopped where it needed the values of a large or external tensor: {detail}",
        ),
        "SHAPE_INFERENCE": QCoreApplication.translate("Findings", "Shape inference fails on {model}: {detail}"),
        "TENSOR_NOT_EMBEDDABLE": QCoreApplication.translate(
            "Findings", "Tensor {tensor} holds {size} (≥ 2 GiB): it can only ever live in external data"
        ),
        "FILE_MISSING": QCoreApplication.translate(
            "Findings", "{path} is listed in the manifest but not in the archive"
        ),
        "FILE_EXTRA": QCoreApplication.translate("Findings", "{path} is in the archive but not listed in the manifest"),
        "FILE_SIZE": QCoreApplication.translate("Findings", "{path} has {size} bytes; the manifest says {listed}"),
        "FILE_HASH": QCoreApplication.translate("Findings", "{path}: SHA-256 is {actual}, the manifest says {listed}"),
        "CHECKSUMS_MISMATCH": QCoreApplication.translate(
            "Findings",
            "SHA256SUMS does not agree with the manifest: {detail}",
        ),
        "SIGNATURE_MISSING": {
            "absent": QCoreApplication.translate(
                "Findings", "The bundle has no model.sig, so it is not signed (or its signature was removed)"
            ),
            "stripped": QCoreApplication.translate(
                "Findings",
                "The manifest says the bundle is signed, but model.sig is missing: the signature was removed",
            ),
        },
        "SIGNATURE_MISMATCH": {
            "unsigned": QCoreApplication.translate(
                "Findings", "{path} is not covered by the signature (added after signing)"
            ),
            "changed": QCoreApplication.translate(
                "Findings", "{path} is not the file that was signed (SHA-256 {actual}, signed {signed})"
            ),
            "removed": QCoreApplication.translate("Findings", "{path} was signed but is missing from the archive"),
        },
        "ORT_OLDEST": QCoreApplication.translate(
            "Findings",
            "Oldest ONNX Runtime that loads {model}: {version} (ORT {version} reads models up to IR {ir}, "
            "ai.onnx opset {opset}{ml}; {source})",
        ),
        "TENSOR_TOO_LARGE": QCoreApplication.translate("Findings", "Tensor {subject} is 2 GiB or more"),
        "DUPLICATE_INITIALIZER": QCoreApplication.translate(
            "Findings",
            "Initializer {subject} is defined {count} times in {model}; ONNX Runtime only warns and silently "
            "uses the last one",
        ),
        "IR_TOO_OLD": QCoreApplication.translate(
            "Findings",
            "{model} has IR version {ir}; ONNX Runtime needs IR 3 or newer",
        ),
        "VERSION_UNRELEASED": QCoreApplication.translate(
            "Findings",
            "{model} declares {declared}, beyond every ONNX release onnxpack knows (onnx {onnx}); no ONNX "
            "Runtime release loads it",
        ),
        "OPSET_TOO_OLD": QCoreApplication.translate(
            "Findings",
            "{model} uses an operator set that is too old: {detail}",
        ),
        "ORT_NEWER_THAN_KNOWN": QCoreApplication.translate(
            "Findings",
            "{model} needs more than ONNX Runtime {version}, the newest release onnxpack knows: {detail}",
        ),
        "ORT_TARGET_OK": QCoreApplication.translate(
            "Findings",
            "Target: ONNX Runtime {version} loads the model ({detail})",
        ),
        "ORT_TARGET_UNKNOWN": {
            "": QCoreApplication.translate(
                "Findings",
                "Target: whether ONNX Runtime {version} loads the model is unknown ({detail})",
            ),
            "ort_format": QCoreApplication.translate(
                "Findings",
                "{model} is an ORT-format model; its IR/opsets cannot be read, so compatibility with ONNX "
                "Runtime {version} is unknown",
            ),
        },
        "ORT_TARGET_UNSUPPORTED": QCoreApplication.translate(
            "Findings",
            "Target: ONNX Runtime {version} cannot load the model ({detail})",
        ),
        "CHECKER_SKIPPED": QCoreApplication.translate(
            "Findings",
            "onnx checker and shape inference skipped: {detail}",
        ),
        "ORT_FORMAT": QCoreApplication.translate(
            "Findings",
            "{subject} is an ORT-format model (FlatBuffer); only what an ONNX Runtime session reports is "
            "available (no IR/opsets, no checker)",
        ),
        "ORT_LOAD_FAILED": QCoreApplication.translate(
            "Findings",
            "ONNX Runtime could not load the ORT-format model {subject}: {detail}",
        ),
        "OPSET_DUPLICATE": QCoreApplication.translate(
            "Findings",
            "{model} imports operator set '{subject}' twice (versions {first} and {second})",
        ),
        "EXTDATA_NO_LOCATION": QCoreApplication.translate(
            "Findings",
            "Tensor {subject}: its external data has no location",
        ),
        "EXTDATA_BAD_LOCATION": QCoreApplication.translate(
            "Findings",
            "Tensor {subject}: the external data location '{file}' is not a usable file name",
        ),
        "EXTDATA_ABSOLUTE": QCoreApplication.translate(
            "Findings",
            "Tensor {subject}: the external data location '{file}' is absolute; locations must be relative to "
            "the model folder",
        ),
        "EXTDATA_OUTSIDE_DIR": QCoreApplication.translate(
            "Findings",
            "The external data location '{file}' points outside the model folder",
        ),
        "EXTDATA_BAD_KEY": QCoreApplication.translate(
            "Findings",
            "Tensor {subject}: external_data '{key}' is not a non-negative integer",
        ),
        "EXTDATA_OUT_OF_RANGE": QCoreApplication.translate(
            "Findings",
            "Tensor {subject}: its data lies beyond the end of its file",
        ),
        "TENSOR_SIZE_MISMATCH": QCoreApplication.translate(
            "Findings",
            "Tensor {subject}: the size of its raw_data does not match its type and shape",
        ),
        "EXTDATA_UNREADABLE": QCoreApplication.translate(
            "Findings",
            "External data file '{file}' cannot be examined: {detail}",
        ),
        "EXTDATA_SYMLINK": QCoreApplication.translate(
            "Findings",
            "External data file '{file}' is or passes through a symbolic link",
        ),
        "EXTDATA_NOT_REGULAR": QCoreApplication.translate(
            "Findings",
            "External data file '{file}' is not an ordinary file",
        ),
        "EXTDATA_HARDLINK": QCoreApplication.translate(
            "Findings",
            "External data file '{file}' has {links} hard links; it may be a link to a file outside the model folder",
        ),
        "EXTDATA_UNKNOWN_KEY": QCoreApplication.translate(
            "Findings",
            "Tensor {subject}: unknown external_data key '{key}', which ONNX Runtime refuses",
        ),
        "EXTDATA_STRING": QCoreApplication.translate(
            "Findings",
            "Tensor {subject} is a STRING tensor stored as external data, which ONNX does not allow",
        ),
        "EXTDATA_ALSO_INLINE": QCoreApplication.translate(
            "Findings",
            "Tensor {subject} is marked EXTERNAL but also carries inline data",
        ),
        "EXTDATA_IGNORED": QCoreApplication.translate(
            "Findings",
            "Tensor {subject} has external_data entries but data_location is not EXTERNAL; they are ignored",
        ),
        "EXTDATA_DUPLICATE_KEY": QCoreApplication.translate(
            "Findings",
            "Tensor {subject}: external_data key '{key}' appears twice",
        ),
        "EXTDATA_OVERLAP": QCoreApplication.translate(
            "Findings",
            "Tensors '{other}' and '{subject}' share bytes of '{file}'",
        ),
        "EXTDATA_BAD_CHECKSUM": QCoreApplication.translate(
            "Findings",
            "Tensor {subject}: its checksum is not a SHA-1 hex digest",
        ),
        "EXTDATA_LENGTH_MISMATCH": QCoreApplication.translate(
            "Findings",
            "Tensor {subject}: the length of its external data does not match its type and shape",
        ),
        "EXTDATA_CHECKSUM_MISMATCH": QCoreApplication.translate(
            "Findings",
            "Tensor {subject}: the SHA-1 of '{file}' differs from the checksum the model records",
        ),
        "MODEL_VERSION_TAGS": QCoreApplication.translate(
            "Findings",
            "model_version {model_version} cannot carry the pre-release/build part of {version}",
        ),
        "FIX_IR_NOT_NEEDED": QCoreApplication.translate(
            "Findings",
            "ONNX Runtime {version} already loads the model; ir_version left as it is",
        ),
        "SIGNING_KEY_READABLE": QCoreApplication.translate(
            "Findings",
            "Other users of this computer can read the private signing key",
        ),
        "SMOKE_FAILED": {
            "": QCoreApplication.translate("Findings", "The smoke run failed: {detail}"),
            "recipe": QCoreApplication.translate(
                "Findings",
                "The recorded smoke recipe cannot be repeated: {detail}",
            ),
            "now": QCoreApplication.translate("Findings", "The recorded smoke run failed now: {detail}"),
        },
        "RELEASE_NAME_CHANGED": QCoreApplication.translate(
            "Findings",
            "The previous release is named '{previous}', this one '{name}'",
        ),
        "VERSION_NOT_GREATER": QCoreApplication.translate(
            "Findings",
            "Version {version} is not greater than {previous} (forced)",
        ),
        "VERSION_UNDERBUMP": QCoreApplication.translate(
            "Findings",
            "Version {version} is a smaller step than this {bump} change needs (suggested {suggested})",
        ),
        "SMOKE_RUN_FAILED": QCoreApplication.translate(
            "Findings",
            "{subject}: ONNX Runtime rejected the run: {detail}. Generated inputs: {inputs}. Dims not given: {dims}.",
        ),
        "SMOKE_INPUT_UNSUPPORTED": QCoreApplication.translate(
            "Findings",
            "{subject}: cannot build inputs: {detail}",
        ),
        "SMOKE_NONDETERMINISTIC": QCoreApplication.translate(
            "Findings",
            "{model}: output {subject} differs between runs on the same inputs",
        ),
        "SMOKE_DIMS_SEARCHED": QCoreApplication.translate(
            "Findings",
            "{subject}: the run failed with the default sizes; it passed with {sizes} (attempts: {attempts})",
        ),
        "COMPARE_EXTRA_OUTPUT": QCoreApplication.translate(
            "Findings",
            "{model} has an output {subject} that the original lacks",
        ),
        "COMPARE_MISSING_OUTPUT": QCoreApplication.translate(
            "Findings",
            "Output {subject} of the original is missing in {model}",
        ),
        "COMPARE_MISMATCH": QCoreApplication.translate("Findings", "Output {subject} differs: {detail}"),
        "COMPARE_NOT_BITWISE": QCoreApplication.translate(
            "Findings",
            "Output {subject} is within the tolerance ({tol}) but not bitwise identical (max abs diff "
            "{max_abs}, max rel diff {max_rel})",
        ),
        "SMOKE_NON_FINITE": QCoreApplication.translate(
            "Findings",
            "{model}: output {subject} has values that are not finite (NaN: {nan}, Inf: {inf}; elements: {size})",
        ),
        "SMOKE_CONSTANT_OUTPUT": QCoreApplication.translate(
            "Findings",
            "{model}: output {subject} is constant everywhere ({value})",
        ),
        "SMOKE_OUTPUT_NOT_TENSOR": QCoreApplication.translate(
            "Findings",
            "{model}: output {subject} is a {type}, not a tensor: only its SHA-256 is recorded (no .npy is saved, and "
            "a bundle holds no reference values for it), and onnxruntime-node (JavaScript) cannot return such an "
            "output",
        ),
        "SMOKE_INPUT_TOO_LARGE": QCoreApplication.translate(
            "Findings",
            "{subject}: the generated inputs would take {size}, more than the {limit} onnxpack allows on this "
            "machine ({detail})",
        ),
        "SMOKE_INPUT_OMITTED": QCoreApplication.translate(
            "Findings",
            "{model}: optional input {subject} was not fed",
        ),
        "SMOKE_INPUT_DEFAULT": QCoreApplication.translate(
            "Findings",
            "{model}: input {subject} has a default value (an initializer of the same name); the default was used",
        ),
        "MANIFEST_MISSING": QCoreApplication.translate("Findings", "The archive has no manifest.json"),
        "MANIFEST_TOO_LARGE": QCoreApplication.translate(
            "Findings",
            "manifest.json is larger than a manifest may be",
        ),
        "MANIFEST_SCHEMA": QCoreApplication.translate(
            "Findings",
            "manifest.json does not follow the onnxpack manifest schema",
        ),
        "MANIFEST_JSON": QCoreApplication.translate("Findings", "manifest.json is not valid JSON"),
        "MANIFEST_INCONSISTENT": QCoreApplication.translate("Findings", "The manifest contradicts itself"),
        "MANIFEST_SELF": QCoreApplication.translate("Findings", "The manifest lists itself"),
        "MANIFEST_BAD_PATH": QCoreApplication.translate(
            "Findings",
            "The manifest lists a path outside the bundle: {subject}",
        ),
        "MANIFEST_DUPLICATE": QCoreApplication.translate("Findings", "The manifest lists {subject} twice"),
        "ZIP_DAMAGED": QCoreApplication.translate("Findings", "{subject} cannot be read intact"),
        "SIGNATURE_INVALID": QCoreApplication.translate(
            "Findings",
            "model.sig is not a valid signature, or not one of the kind expected",
        ),
        "SIGNATURE_KEY": QCoreApplication.translate(
            "Findings",
            "The manifest names another signing key than the one that signed the bundle",
        ),
        "SIGNATURE_UNSUPPORTED": QCoreApplication.translate(
            "Findings",
            "model.sig uses a signing method this onnxpack cannot check",
        ),
        "SMOKE_NOT_RECORDED": QCoreApplication.translate(
            "Findings",
            "The bundle records no smoke run; it ran with default inputs, with nothing to compare with",
        ),
        "SMOKE_MISMATCH": QCoreApplication.translate("Findings", "Output {subject} differs from the recorded run"),
        "SMOKE_WITHIN_TOLERANCE": QCoreApplication.translate(
            "Findings",
            "Output {subject} is within the tolerance of the recorded run; the digests differ because the ONNX "
            "Runtime version differs",
        ),
        "SMOKE_SKIPPED": QCoreApplication.translate(
            "Findings",
            "The smoke run was skipped because the bundle failed verification",
        ),
        "ZIP_NOT_ZIP": QCoreApplication.translate("Findings", "The file is not a ZIP archive"),
        "ZIP_TRUNCATED": QCoreApplication.translate("Findings", "The ZIP archive is truncated"),
        "ZIP_TRAILING_DATA": QCoreApplication.translate(
            "Findings",
            "The ZIP archive has unaccounted bytes around its end record",
        ),
        "ZIP_MULTIDISK": QCoreApplication.translate("Findings", "The archive claims to span several disks"),
        "ZIP_TOO_LARGE": QCoreApplication.translate(
            "Findings",
            "The archive declares more entries or bytes than onnxpack accepts",
        ),
        "ZIP_GAP": QCoreApplication.translate("Findings", "The archive has unaccounted bytes between its entries"),
        "ZIP_OVERLAP": QCoreApplication.translate("Findings", "Entries of the archive overlap"),
        "ZIP_BAD_DIRECTORY": QCoreApplication.translate("Findings", "The ZIP central directory is damaged"),
        "ZIP_BAD_END": QCoreApplication.translate("Findings", "The ZIP64 end record is missing or damaged"),
        "ZIP_BAD_NAME": QCoreApplication.translate("Findings", "The member name {subject} is not allowed"),
        "ZIP_ENCRYPTED": QCoreApplication.translate("Findings", "Member {subject} is encrypted"),
        "ZIP_COMPRESSION": QCoreApplication.translate(
            "Findings",
            "Member {subject} uses a compression method other than stored or deflate",
        ),
        "ZIP_SYMLINK": QCoreApplication.translate("Findings", "Member {subject} is a link"),
        "ZIP_BAD_SIZE": QCoreApplication.translate(
            "Findings",
            "Member {subject} declares a size that does not match the space it occupies",
        ),
        "ZIP_RATIO": QCoreApplication.translate(
            "Findings",
            "Member {subject} would expand far more than real data does (a zip bomb?)",
        ),
        "ZIP_DIRECTORY": QCoreApplication.translate("Findings", "Member {subject} is a directory entry"),
        "ZIP_SPECIAL": QCoreApplication.translate("Findings", "Member {subject} is a special file"),
        "ZIP_BAD_HEADER": QCoreApplication.translate(
            "Findings",
            "Member {subject}: its local header is missing or damaged",
        ),
        "ZIP_HEADER_MISMATCH": QCoreApplication.translate(
            "Findings",
            "Member {subject}: its local header disagrees with the central directory",
        ),
        "ZIP_DUPLICATE": QCoreApplication.translate(
            "Findings",
            "The member name {subject} appears twice (perhaps after case folding)",
        ),
        "ZIP_NAME_CONFLICT": QCoreApplication.translate(
            "Findings",
            "Member {subject} is a file, but another member uses it as a folder",
        ),
        "ZIP_LEADING_DATA": QCoreApplication.translate(
            "Findings",
            "The archive has unaccounted bytes before its first entry",
        ),
        "PROVE_ORT_OK": QCoreApplication.translate(
            "Findings",
            "ONNX Runtime {version} (its official wheel) runs {model}: {detail} with ONNX Runtime {reference}",
        ),
        "PROVE_ORT_NOT_LOADED": QCoreApplication.translate(
            "Findings",
            "ONNX Runtime {version} (its official wheel) cannot run {model}: {detail}",
        ),
        "PROVE_ORT_MISMATCH": QCoreApplication.translate(
            "Findings",
            "ONNX Runtime {version} runs {model}, but its outputs differ from those of ONNX Runtime {reference} "
            "beyond the tolerance (largest difference {difference})",
        ),
    }


def _size(p: dict[str, Any]) -> dict[str, str]:
    size = format_bytes(int(p["bytes"]))
    if p.get("approx"):
        size = QCoreApplication.translate("Findings", "about {size}").replace("{size}", size)
    return {"size": size}


def _ort_source(p: dict[str, Any]) -> dict[str, str]:
    ml = ""
    if p.get("ml_opset") is not None:
        ml = QCoreApplication.translate("Findings", ", ai.onnx.ml opset {ml_opset}")
        ml = ml.replace("{ml_opset}", str(p["ml_opset"]))
    source = (
        QCoreApplication.translate("Findings", "limits measured on that release, not from ORT's official table")
        if p["derived"]
        else QCoreApplication.translate("Findings", "ORT's official table")
    )
    return {"ml": ml, "source": source}


# Placeholders some codes compute from their parameters (a size in words, the ORT table's source).
_DERIVED: dict[str, Callable[[dict[str, Any]], dict[str, str]]] = {
    "MERGE_FITS": _size,
    "MERGE_TOO_LARGE": _size,
    "TENSOR_NOT_EMBEDDABLE": _size,
    "ORT_OLDEST": _ort_source,
}


def _error_texts() -> dict[str, str]:
    """Error code → what went wrong, in general words (the exact message, naming files and values, is in the
    details). The codes of the error classes (INPUT, OUTPUT, ...) word whatever has no text of its own."""
    return {
        "ERROR": QCoreApplication.translate("Errors", "onnxpack could not finish this task"),
        "INPUT": QCoreApplication.translate("Errors", "A file or setting given cannot be used"),
        "MODEL_FORMAT": QCoreApplication.translate("Errors", "The file is not a readable ONNX or ORT model"),
        "EXTERNAL_DATA": QCoreApplication.translate("Errors", "The model's external data cannot be used safely"),
        "REFUSED": QCoreApplication.translate("Errors", "onnxpack refused to build the bundle"),
        "OUTPUT": QCoreApplication.translate("Errors", "The output cannot be written"),
        "INTERNAL": QCoreApplication.translate("Errors", "Internal error in onnxpack"),
        "RUNTIME": QCoreApplication.translate("Errors", "ONNX Runtime failed"),
        "CANCELLED": QCoreApplication.translate("Errors", "Cancelled; nothing was written"),
        "USAGE": QCoreApplication.translate("Errors", "These settings cannot be used together, or one is missing"),
        "ABOUT_AUTHOR": QCoreApplication.translate("Errors", "An author's name is empty"),
        "ABOUT_HOMEPAGE": QCoreApplication.translate("Errors", "The homepage is not an http(s) address"),
        "ABOUT_LABELS": QCoreApplication.translate("Errors", "The class labels cannot be used"),
        "ABOUT_LICENSE": QCoreApplication.translate("Errors", "The license is not an SPDX license expression"),
        "BAD_NAME": QCoreApplication.translate("Errors", "The bundle name cannot be used as a file name"),
        "BAD_SOURCE_DATE_EPOCH": QCoreApplication.translate(
            "Errors",
            "SOURCE_DATE_EPOCH is not a non-negative whole number of seconds",
        ),
        "BAD_TARGET_ORT": QCoreApplication.translate("Errors", "The target is not an ONNX Runtime version"),
        "BAD_VERSION": QCoreApplication.translate("Errors", "The version is not a semantic version"),
        "BUNDLE_CHANGED": QCoreApplication.translate("Errors", "The bundle changed while its model was smoke-run"),
        "BUNDLE_FINDINGS": QCoreApplication.translate(
            "Errors",
            "The model has error-level findings, so it is not bundled",
        ),
        "COMPARE_INPUTS": QCoreApplication.translate("Errors", "The two models do not have the same inputs"),
        "COMPARE_RUN": QCoreApplication.translate(
            "Errors",
            "The second model failed on inputs the first one accepted",
        ),
        "DIM_UNKNOWN": QCoreApplication.translate("Errors", "The model has no symbolic dimension of that name"),
        "EXTDATA_NOT_REGULAR": QCoreApplication.translate(
            "Errors",
            "An external data file changed into something other than an ordinary file while in use",
        ),
        "EXTDATA_OUT_OF_RANGE": QCoreApplication.translate(
            "Errors",
            "An external data file got shorter while it was read",
        ),
        "EXTDATA_UNREADABLE": QCoreApplication.translate("Errors", "An external data file cannot be opened"),
        "FIX_IR_NOT_POSSIBLE": QCoreApplication.translate(
            "Errors",
            "Lowering the IR version cannot make the model load in the target ONNX Runtime",
        ),
        "INPUT_DIGEST": QCoreApplication.translate(
            "Errors",
            "An input file differs from the one the recorded run used",
        ),
        "INPUT_DTYPE": QCoreApplication.translate(
            "Errors",
            "The input data has another element type than the model wants",
        ),
        "INPUT_FILE_FORMAT": QCoreApplication.translate(
            "Errors",
            "The input file is not a tensor onnxpack can read",
        ),
        "INPUT_FILE_MEMBER": QCoreApplication.translate("Errors", "The .npz file has no array for this input"),
        "INPUT_FILE_MISSING": QCoreApplication.translate("Errors", "The input file was not found"),
        "INPUT_SHAPE": QCoreApplication.translate("Errors", "The input data has another shape than the model wants"),
        "INPUT_UNKNOWN": QCoreApplication.translate("Errors", "The model has no input of that name"),
        "INPUT_UNSUPPORTED": QCoreApplication.translate("Errors", "This input cannot be fed from a file"),
        "INPUT_VALUE": QCoreApplication.translate("Errors", "The input value cannot be used"),
        "MANIFEST_JSON": QCoreApplication.translate("Errors", "The manifest is not valid JSON"),
        "MANIFEST_SCHEMA": QCoreApplication.translate(
            "Errors",
            "The manifest does not follow the onnxpack manifest schema",
        ),
        "MANIFEST_TOO_LARGE": QCoreApplication.translate("Errors", "The manifest is larger than a manifest may be"),
        "MERGE_NOT_EQUAL": QCoreApplication.translate(
            "Errors",
            "The merged model is not exactly the original model; nothing was written",
        ),
        "MERGE_TOO_LARGE": QCoreApplication.translate(
            "Errors",
            "Merged into one file, the model would exceed protobuf's 2 GiB limit",
        ),
        "MODEL_BAD_TEXT": QCoreApplication.translate("Errors", "The model holds text that is not valid UTF-8"),
        "MODEL_IS_ORT": QCoreApplication.translate(
            "Errors",
            "This is an ORT-format model; this task needs the .onnx model",
        ),
        "MODEL_IS_TEXT": QCoreApplication.translate("Errors", "The file is a text file, not a binary ONNX model"),
        "MODEL_IS_ZIP": QCoreApplication.translate("Errors", "The file is a ZIP archive, not an ONNX model"),
        "MODEL_IS_DATA": QCoreApplication.translate(
            "Errors",
            "The file is a model's external data (its weights), not the model",
        ),
        "BUNDLE_NOT_ZIP": QCoreApplication.translate("Errors", "The file is not a bundle: a bundle .zip is expected"),
        "PREVIOUS_NOT_BUNDLE": QCoreApplication.translate(
            "Errors",
            "The previous bundle is not a bundle .zip (or the manifest.json from one)",
        ),
        "MODEL_TOO_LARGE": QCoreApplication.translate(
            "Errors",
            "The model file is at or above protobuf's 2 GiB limit",
        ),
        "MODEL_TRUNCATED": QCoreApplication.translate(
            "Errors",
            "The model file is truncated, or got shorter while it was read",
        ),
        "MODEL_VERSION_RANGE": QCoreApplication.translate(
            "Errors",
            "This version cannot be written into model_version",
        ),
        "ORT_CONVERT": QCoreApplication.translate("Errors", "ONNX Runtime's ORT-format converter failed"),
        "ORT_FORMAT_MISMATCH": QCoreApplication.translate("Errors", "The ORT-format variant failed its check"),
        "ORT_FORMAT_TOO_LARGE": QCoreApplication.translate(
            "Errors",
            "An ORT-format variant needs a model under 2 GiB",
        ),
        "ORT_LOAD": QCoreApplication.translate("Errors", "ONNX Runtime cannot load the model"),
        "ORT_TIMEOUT": QCoreApplication.translate(
            "Errors",
            "The ORT-format conversion did not finish in time and was stopped",
        ),
        "ORT_TOO_LARGE": QCoreApplication.translate("Errors", "The model is too large for the ORT format (2 GiB)"),
        "OUTPUT_BAD_NAME": QCoreApplication.translate("Errors", "The output name cannot be used for the data file"),
        "OUTPUT_ESCAPES": QCoreApplication.translate(
            "Errors",
            "An output would be written outside the output folder",
        ),
        "OUTPUT_EXISTS": QCoreApplication.translate("Errors", "The output already exists"),
        "OUTPUT_INSIDE_INPUT": QCoreApplication.translate(
            "Errors",
            "The output folder lies inside the input folder",
        ),
        "OUTPUT_IS_DIR": QCoreApplication.translate("Errors", "The output is an existing folder"),
        "OUTPUT_IS_FILE": QCoreApplication.translate("Errors", "The output folder is a file"),
        "OUTPUT_IS_INPUT": QCoreApplication.translate("Errors", "The output is the same file as the input"),
        "OUTPUT_IS_SYMLINK": QCoreApplication.translate(
            "Errors",
            "The output is a symbolic link; onnxpack never writes through a link",
        ),
        "OUTPUT_NO_FOLDER": QCoreApplication.translate("Errors", "The output folder does not exist"),
        "OUTPUT_NO_SPACE": QCoreApplication.translate(
            "Errors",
            "Not enough free disk space; nothing partial was left",
        ),
        "OUTPUT_WRITE": QCoreApplication.translate("Errors", "The output cannot be written"),
        "RECIPE": QCoreApplication.translate("Errors", "The smoke recipe is not valid"),
        "RECIPE_OUTSIDE_BUNDLE": QCoreApplication.translate(
            "Errors",
            "The smoke recipe names a file that is not in the bundle",
        ),
        "SIGNATURE_INVALID": QCoreApplication.translate(
            "Errors",
            "The signature is not valid, or not of the kind expected",
        ),
        "SIGNATURE_UNSUPPORTED": QCoreApplication.translate(
            "Errors",
            "The signature uses a method this onnxpack cannot check",
        ),
        "SIGNING_CERTIFICATE": QCoreApplication.translate("Errors", "The signing certificate cannot be used"),
        "SIGNING_KEY": QCoreApplication.translate("Errors", "The signing key cannot be used"),
        "SIGNING_UNAVAILABLE": QCoreApplication.translate("Errors", "This onnxpack cannot sign or check signatures"),
        "SIGSTORE_FAILED": QCoreApplication.translate("Errors", "Sigstore signing failed"),
        "SIGSTORE_UNREACHABLE": QCoreApplication.translate("Errors", "Sigstore's public service cannot be reached"),
        "SMOKE_CHILD_ERROR": QCoreApplication.translate("Errors", "The smoke run failed unexpectedly"),
        "SMOKE_CRASH": QCoreApplication.translate(
            "Errors",
            "ONNX Runtime crashed during the smoke run; onnxpack itself is unaffected",
        ),
        "SMOKE_MEMORY": QCoreApplication.translate("Errors", "The smoke run ran out of memory"),
        "SMOKE_TIMEOUT": QCoreApplication.translate(
            "Errors",
            "The smoke run did not finish in time and was stopped",
        ),
        "SMOKE_TOO_LARGE": QCoreApplication.translate(
            "Errors",
            "The tensors that must be embedded make the model exceed 2 GiB",
        ),
        "SOURCE_CHANGED": QCoreApplication.translate(
            "Errors",
            "A source file changed while it was being bundled; the bundle was not written",
        ),
        "VERSION_NOT_GREATER": QCoreApplication.translate(
            "Errors",
            "The version is not greater than the previous release's",
        ),
        "BAD_PROVE_ORT": QCoreApplication.translate(
            "Errors",
            "Not a list of ONNX Runtime releases to prove the model on",
        ),
        "PROVE_NETWORK": QCoreApplication.translate(
            "Errors",
            "The package index with the ONNX Runtime wheels cannot be reached",
        ),
        "PROVE_NO_WHEEL": QCoreApplication.translate(
            "Errors",
            "That ONNX Runtime release has no official wheel for this Python and platform",
        ),
        "PROVE_NO_RELEASE": QCoreApplication.translate(
            "Errors",
            "That ONNX Runtime release does not exist on the package index",
        ),
        "PROVE_WHEEL_HASH": QCoreApplication.translate(
            "Errors",
            "A downloaded ONNX Runtime wheel does not match the hash the package index publishes",
        ),
        "PROVE_ENV": QCoreApplication.translate(
            "Errors",
            "The environment for an ONNX Runtime release could not be created",
        ),
        "PROVE_NO_PYTHON": QCoreApplication.translate(
            "Errors",
            "Proving on ONNX Runtime releases needs a Python interpreter",
        ),
        "PROVE_INPUTS": QCoreApplication.translate(
            "Errors",
            "No inputs could be made to prove the model with",
        ),
        "PROVE_REFERENCE": QCoreApplication.translate(
            "Errors",
            "The reference run with the installed ONNX Runtime failed",
        ),
        "PROVE_ORT_FAILED": QCoreApplication.translate(
            "Errors",
            "The bundled model fails on an ONNX Runtime release it was to be proven on",
        ),
        "TARGET_APP_UNKNOWN": QCoreApplication.translate(
            "Errors",
            "onnxpack does not know which ONNX Runtime release the app's ort crate uses",
        ),
        "TARGET_APP_UNREADABLE": QCoreApplication.translate(
            "Errors",
            "The app's file cannot be read for its ONNX Runtime version",
        ),
        "TARGET_APP_NONE": QCoreApplication.translate(
            "Errors",
            "No ONNX Runtime dependency was found in the app",
        ),
        "RETARGET_NOT_EQUAL": QCoreApplication.translate(
            "Errors",
            "The model rewritten by the ONNX version converter does not give the same outputs as the "
            "original",
        ),
        "PATH_": QCoreApplication.translate("Errors", "A path cannot be used"),
    }


# The codes the app renders in its own language (tests check each has a Japanese translation).
GUI_MESSAGE_CODES = tuple(sorted(_templates()))
# The error codes with a general text of their own ("PATH_" stands for every PATH_<errno> code).
ERROR_TEXT_CODES = tuple(sorted(_error_texts()))


def _render(code: str, subject: str, params: dict[str, Any]) -> str | None:
    entry = code_of(code)
    if entry is not None and _translated(entry, params.get("variant")):
        derive = _DERIVED.get(code)
        try:
            values = {"subject": subject, **params, **(derive(params) if derive is not None else {})}
        except (KeyError, TypeError, ValueError):
            return None
        return translated_message(entry, str(params.get("variant") or "") or None, values)
    template = _templates().get(code)
    if isinstance(template, dict):
        template = template.get(str(params.get("variant") or ""))
    if template is None:
        return None
    try:
        derive = _DERIVED.get(code)
        values = {"subject": subject, **params, **(derive(params) if derive is not None else {})}
        return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), template)
    except (KeyError, TypeError, ValueError):  # made without every value (e.g. read back from a manifest)
        return None


def _translated(entry: Code, variant: Any) -> bool:
    """Whether the catalog translates ``entry``'s message (a code moved to the registry keeps its old catalog text
    until its translation is in the .ts)."""
    try:
        source = entry.template(str(variant or "") or None)
    except KeyError:
        return False
    return QCoreApplication.translate("Findings", source) != source


def _error_text(code: str) -> str | None:
    entry = code_of(code)
    text = summary_text(entry) if entry is not None else None
    return text if text is not None else _error_texts().get(code)


def gui_message(item: Any) -> str:
    """The message of ``item`` (a Finding, an OnnxpackError, or either's dict form) in the app's language.

    English: the engine's message. Otherwise the catalog's text for its code and values; for an error lacking them,
    its code's (or its class's) general text; the English message only when the catalog has nothing."""
    english = str(_get(item, "message", ""))
    if current_language() == "en" or getattr(item, "worded", False):
        return english
    code = str(_get(item, "code", "") or "")
    params = dict(_get(item, "params", None) or {})
    subject = str(params.pop("subject", None) or _get(item, "subject", "") or "")
    text = _render(code, subject, params)
    if text is not None:
        return text
    if isinstance(params.get("findings"), list):  # an error listing findings (BUNDLE_FINDINGS): word each of them
        listing = "; ".join(gui_message(f) for f in params["findings"])
        if params.get("more"):
            listing += QCoreApplication.translate("Errors", " (and %1 more)").replace("%1", str(params["more"]))
        general = _error_text(code) or english
        return QCoreApplication.translate("Errors", "%1: %2").replace("%1", general).replace("%2", listing)
    if isinstance(item, BaseException):
        for key in (code, "PATH_" if code.startswith("PATH_") else "", getattr(type(item), "code", "")):
            if key and (text := _error_text(key)) is not None:
                return text
    return english


def _get(item: Any, name: str, default: Any) -> Any:
    if isinstance(item, dict):
        return item.get(name, default)
    return getattr(item, name, default)


def _stage_texts() -> list[tuple[re.Pattern[str], str]]:
    """The engine's progress details (``ProgressEvent.message``) → the app's words; ``%1``… are the groups.

    Written by hand: the engine reports plain English strings (the command line prints them), a handful of fixed
    texts with a name or number in them; a test checks the ones a bundle and a verification report."""
    table = [
        (r"done", QCoreApplication.translate("Stages", "done")),
        (r"inspecting", QCoreApplication.translate("Stages", "inspecting")),
        (r"structure", QCoreApplication.translate("Stages", "checking the structure")),
        (r"checker", QCoreApplication.translate("Stages", "running the onnx checker")),
        (r"reading (.+)", QCoreApplication.translate("Stages", "reading %1")),
        (r"hashing (.+)", QCoreApplication.translate("Stages", "hashing %1")),
        (r"waiting for the onnx checker", QCoreApplication.translate("Stages", "waiting for the onnx checker")),
        (r"comparing the tensor hashes", QCoreApplication.translate("Stages", "comparing the tensor hashes")),
        (
            r"writing README\.txt and manifest\.json",
            QCoreApplication.translate("Stages", "writing README.txt and manifest.json"),
        ),
        (r"validating and copying the model", QCoreApplication.translate("Stages", "validating and copying the model")),
        (r"converting with onnxruntime", QCoreApplication.translate("Stages", "converting with onnxruntime")),
        (
            r"smoke-running the \.ort against the \.onnx",
            QCoreApplication.translate("Stages", "smoke-running the .ort against the .onnx"),
        ),
        (r"moving the results into place", QCoreApplication.translate("Stages", "moving the results into place")),
        (
            r"starting ONNX Runtime in a child process",
            QCoreApplication.translate("Stages", "starting ONNX Runtime in a child process"),
        ),
        (
            r"creating the ONNX Runtime session for (.+)",
            QCoreApplication.translate("Stages", "creating the ONNX Runtime session for %1"),
        ),
        # --prove-ort (core/runtime/prove.py): before "running (.+)", which would take "running on onnxruntime X" too
        (
            r"looking up onnxruntime (\S+) on (\S+)",
            QCoreApplication.translate("Stages", "looking up onnxruntime %1 on %2"),
        ),
        (r"downloading (.+)", QCoreApplication.translate("Stages", "downloading %1")),
        (
            r"creating the environment of onnxruntime (\S+)",
            QCoreApplication.translate("Stages", "creating the environment of onnxruntime %1"),
        ),
        (
            r"installing onnxruntime (\S+) and (.+)",
            QCoreApplication.translate("Stages", "installing onnxruntime %1 and %2"),
        ),
        (r"onnxruntime (\S+): preparing", QCoreApplication.translate("Stages", "onnxruntime %1: preparing")),
        (
            r"reference run \(installed onnxruntime\)",
            QCoreApplication.translate("Stages", "reference run (installed onnxruntime)"),
        ),
        (r"running on onnxruntime (\S+)", QCoreApplication.translate("Stages", "running on onnxruntime %1")),
        (r"running (.+)", QCoreApplication.translate("Stages", "running %1")),
        (r"searching sizes for (.+)", QCoreApplication.translate("Stages", "searching sizes for %1")),
        (r"session created \(([\d.]+) s\)", QCoreApplication.translate("Stages", "session created (%1 s)")),
        (r"first run done", QCoreApplication.translate("Stages", "first run done")),
        (r"run (\d+)/(\d+) of (.+)", QCoreApplication.translate("Stages", "run %1/%2 of %3")),
    ]
    return [(re.compile(pattern), text) for pattern, text in table]


def stage_detail(message: str) -> str:
    """A progress detail of the engine in the app's language (as it is in English, or when it is not known)."""
    if not message or current_language() == "en":
        return message
    for pattern, text in _stage_texts():
        m = pattern.fullmatch(message)
        if m is not None:
            for i, group in enumerate(m.groups(), 1):
                text = text.replace(f"%{i}", _model_label(group))
            return text
    return message


def _model_label(text: str) -> str:
    """The smoke run names its two models "original NAME" and "other NAME" (the merged or converted one)."""
    for prefix, label in (
        ("original ", QCoreApplication.translate("Stages", "original %1")),
        ("other ", QCoreApplication.translate("Stages", "compared %1")),
    ):
        if text.startswith(prefix):
            return label.replace("%1", text[len(prefix) :])
    return text
