"""The finding and error codes that ``onnxpack.core.checks`` produces (the registry: ``onnxpack.core.codes``)."""

from __future__ import annotations

from ..codes import define
from ..errors import InputError
from ..findings import Severity
from ..model.codes import MERGE_TOO_LARGE as MERGE_TOO_LARGE  # re-exported: validate.py reports it as a finding

__all__: list[str] = []

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

# Each entry: NAME = define("NAME", SEVERITY, "message template", "remedy template") for a finding, or
# NAME = define("NAME", kind=SomeError, text="message template", hint="remedy", summary="in general words").
_ = define

# core/checks/validate.py: tensors and initializers
_REEXPORT = "Re-export the model from its source framework."
TENSOR_TOO_LARGE = define("TENSOR_TOO_LARGE", ERROR, "Tensor {tensor} is 2 GiB or more", _REEXPORT)
DUPLICATE_INITIALIZER = define(
    "DUPLICATE_INITIALIZER", ERROR,
    "Initializer {name!r} is defined {count} times in {model}; ONNX Runtime only warns and silently uses the last one",
    "Remove the duplicates (keep the intended tensor) and re-export.",
)
INITIALIZER_UNUSED = define(
    "INITIALIZER_UNUSED", INFO,
    "{count} initializers of {model} are read by no node ({names}); ONNX Runtime drops them when it loads the model",
    "They still ship in the release: export the model without them (e.g. with onnx.utils.extract_model or onnxsim) "
    "to make it smaller.",
    variants={
        "one": "Initializer {names} of {model} is read by no node; ONNX Runtime drops it when it loads the model",
        # more than the three named
        "more": "{count} initializers of {model} are read by no node ({names}, … {more} more); ONNX Runtime drops "
                "them when it loads the model",
    },
    variant_hints={"one": "It still ships in the release: export the model without it (e.g. with "
                          "onnx.utils.extract_model or onnxsim) to make it smaller."},
)
TENSOR_NOT_EMBEDDABLE = define(
    "TENSOR_NOT_EMBEDDABLE", INFO,
    "Tensor {tensor} holds {bytes} bytes (≥ 2 GiB): it can only ever live in external data",
    "Keep the external-data layout for this model.",
)

# core/checks/validate.py: the external data's alignment and the merged size
EXTDATA_ALIGNED = define(
    "EXTDATA_ALIGNED", INFO, "All {total} external tensors start at 4 KiB-aligned offsets ({aligned64} also at 64 KiB)",
)
EXTDATA_UNALIGNED = define(
    "EXTDATA_UNALIGNED", INFO,
    "{unaligned} of {total} external tensors start at offsets not aligned to 4 KiB (e.g. {tensor!r} at {offset}); "
    "ONNX Runtime may then read them into memory instead of memory-mapping them",
    "Harmless; `onnxpack merge --layout external` writes a 64 KiB-aligned data file.",
)
# variant "approx": the size is an estimate (external data not yet read)
MERGE_FITS = define(
    "MERGE_FITS", INFO,
    "Merged into one file, {model} would be {readable} ({bytes:,} bytes), under the 2 GiB protobuf limit",
    "`onnxpack merge` writes the self-contained single file.",
    variants={"approx": "Merged into one file, {model} would be about {readable} ({bytes:,} bytes), under the 2 GiB "
                        "protobuf limit"},
)
# MERGE_TOO_LARGE (imported above) is also the merge's error: it is defined in core/model/codes.py, which the model
# floor can import.

# core/checks/validate.py: IR version, opsets and domains against ONNX and ONNX Runtime releases
IR_TOO_OLD = define(
    "IR_TOO_OLD", ERROR, "{model} has IR version {ir}; ONNX Runtime needs IR 3 or newer",
    "Convert the model with a current exporter or onnx.version_converter.",
)
VERSION_UNRELEASED = define(
    "VERSION_UNRELEASED", ERROR,
    "{model} declares {declared}, beyond every ONNX release onnxpack knows (onnx {onnx}); no ONNX Runtime release "
    "loads it",
    "Re-export the model with a released exporter and opset. If a newer ONNX has been released since, update "
    "onnxpack.",
)
OPSET_TOO_OLD = define(
    "OPSET_TOO_OLD", WARNING, "{model} uses {detail}",
    "The smoke run shows whether the installed ONNX Runtime runs it; to be safe on other releases, convert it to a "
    "newer opset (onnx.version_converter.convert_version) and re-check.",
)
# variants: "ml" names the ai.onnx.ml opset (the model imports it), "derived" the limits' source
_ORT_OLDEST = ("Oldest ONNX Runtime that loads {model}: {version} (ORT {version} reads models up to IR {ir}, "
               "ai.onnx opset {opset}")
_ML = ", ai.onnx.ml opset {ml_opset}"
_OFFICIAL, _MEASURED = "; ORT's official table)", "; limits measured on that release, not from ORT's official table)"
ORT_OLDEST = define(
    "ORT_OLDEST", INFO, _ORT_OLDEST + _OFFICIAL,
    variants={"ml": _ORT_OLDEST + _ML + _OFFICIAL, "derived": _ORT_OLDEST + _MEASURED,
              "ml_derived": _ORT_OLDEST + _ML + _MEASURED},
)
ORT_NEWER_THAN_KNOWN = define(
    "ORT_NEWER_THAN_KNOWN", WARNING,
    "{model} needs more than ONNX Runtime {version}, the newest release onnxpack knows: {detail}",
    "Only a newer ONNX Runtime can load it; the smoke run shows whether the installed one does. To reach older "
    "runtimes, re-export with a lower opset.",
)
IR_LOWERABLE = define(
    "IR_LOWERABLE", INFO,
    "{model} uses nothing newer than IR {min_ir}: lowering ir_version from {ir} to {lowered} would let ONNX Runtime "
    "{version} (and newer) load it",
    "`onnxpack bundle --fix-ir` lowers ir_version in the released copy.",
)
DOMAIN_CONTRIB = define(
    "DOMAIN_CONTRIB", INFO,
    "{model} uses ONNX Runtime contrib operators (domain {domain!r}); they ship with standard ORT packages but are "
    "not covered by the opset table",
    "The smoke run proves the installed ORT has them.",
)
DOMAIN_LOCAL_FUNCTIONS = define(
    "DOMAIN_LOCAL_FUNCTIONS", INFO, "{model} imports domain {domain!r}, defined by its own model-local functions",
)
DOMAIN_CUSTOM = define(
    "DOMAIN_CUSTOM", WARNING,
    "{model} uses operators of the non-standard domain {domain!r}; ONNX Runtime needs a custom-op library "
    "registered for them",
    "Ship the custom-op library with the model, or re-export without custom operators.",
)
OPSET_MISSING = define(
    "OPSET_MISSING", ERROR, "{model} uses operators of domain {domain!r} but does not import that operator set",
    _REEXPORT,
)

# core/checks/validate.py: the target release (--target-ort, --target-app)
ORT_TARGET_OK = define("ORT_TARGET_OK", INFO, "Target: ONNX Runtime {version} loads the model; {detail}")
ORT_TARGET_UNKNOWN = define(
    "ORT_TARGET_UNKNOWN", WARNING, "{detail}", "Smoke-run the model with that ONNX Runtime release to be sure.",
    variants={"ort_format": "{model} is an ORT-format model; its IR/opsets cannot be read, so compatibility with "
                            "ONNX Runtime {version} is unknown"},
    variant_hints={"ort_format": "ORT-format models generally load only in the ORT release that wrote them or newer."},
)
#: The variants have the same message and their own remedy: "retarget" when retargeting reaches the target
#: ({summary}: what it changes), "lower_ir" when lowering ir_version alone does. (When the exporter's own setting
#: is the remedy, validate.py passes it: it is worded from the model.)
ORT_TARGET_UNSUPPORTED = define(
    "ORT_TARGET_UNSUPPORTED", ERROR, "Target: {detail}",
    "Re-export for a lower opset / IR, or require a newer ONNX Runtime.",
    variants={"retarget": "Target: {detail}", "lower_ir": "Target: {detail}"},
    variant_hints={
        "retarget": "`onnxpack bundle --target-ort {version} --fix-ir` retargets the released copy ({summary}); add "
                    "{opt:prove_ort} {version} to run it on that release.",
        "lower_ir": "`onnxpack bundle --target-ort {version} --fix-ir` writes ir_version {ir}.",
    },
)

# core/checks/validate.py: the onnx checker and shape inference (run in a child process)
CHECKER_CRASHED = define(
    "CHECKER_CRASHED", ERROR,
    "The onnx checker crashed on {model} ({detail}); the model is malformed in a way that breaks native code",
    "Do not ship this model; re-export it. onnxpack itself was not affected.",
)
CHECKER_TIMEOUT = define(
    "CHECKER_TIMEOUT", ERROR, "The onnx checker did not finish on {model} ({detail})",
    "The model may be pathological; re-export it, or check it on a faster machine.",
)
CHECKER_FAILED = define("CHECKER_FAILED", ERROR, "The onnx checker could not run on {model}: {detail}", _REEXPORT)
ONNX_CHECKER = define(
    "ONNX_CHECKER", ERROR, "onnx checker rejects {model}: {detail}",
    "Fix the model where the message points (or re-export it); ONNX Runtime may refuse it too.",
)
SHAPE_INFERENCE_PARTIAL = define(
    "SHAPE_INFERENCE_PARTIAL", INFO,
    "Shape inference of {model} stopped where it needed the values of a large or external tensor: {detail}",
    "Harmless: ONNX Runtime infers those shapes with the data at load time.",
)
SHAPE_INFERENCE = define(
    "SHAPE_INFERENCE", ERROR, "Shape inference fails on {model}: {detail}",
    "Types or shapes in the graph are inconsistent; ONNX Runtime runs the same inference at load time and will most "
    "likely refuse the model. Re-export it.",
)
CHECKER_SKIPPED = define(
    "CHECKER_SKIPPED", WARNING, "onnx checker and shape inference skipped: {detail}",
    "Update onnxpack (and its onnx) to check this model.",
)

# core/checks/inspection.py: ORT-format models and the opset imports
ORT_FORMAT = define(
    "ORT_FORMAT", INFO,
    "{model} is an ORT-format model (FlatBuffer); only what an ONNX Runtime session reports is available (no "
    "IR/opsets, no checker)",
    "Keep the original .onnx for merging, checking and re-bundling.",
)
ORT_LOAD_FAILED = define(
    "ORT_LOAD_FAILED", ERROR, "ONNX Runtime could not load the ORT-format model {model}: {detail}",
    "The file may be damaged or made by a newer ONNX Runtime than the one installed; regenerate it from the .onnx "
    "model.",
)
OPSET_DUPLICATE = define(
    "OPSET_DUPLICATE", ERROR, "{model} imports operator set {domain!r} twice (versions {first} and {second})",
    "Each domain may appear once in opset_import; re-export the model.",
)

# core/checks/compat.py: the target release given
BAD_TARGET_ORT = define(
    "BAD_TARGET_ORT", kind=InputError, text="Not an ONNX Runtime version: {text!r}",
    hint="Give a release as MAJOR.MINOR, e.g. {opt:target_ort} 1.17.",
    summary="The target is not an ONNX Runtime version",
)

# core/checks/targetapp.py: the app's dependency files (--target-app)
TARGET_APP_UNKNOWN = define(
    "TARGET_APP_UNKNOWN", kind=InputError,
    text="{file}, line {line}: {package} {version} is a release of the Rust ort crate onnxpack has no ONNX Runtime "
         "version for",
    hint="Give {opt:target_ort} X.Y yourself (the ORT release the crate downloads: its ort-sys build script names "
         "it), or update onnxpack.",
    summary="onnxpack does not know which ONNX Runtime release the app's ort crate uses",
)
# variants: "kind" a file of a kind onnxpack does not read, "unreadable" a file that cannot be read, "refused" one not
# read (no regular file, too large), "malformed" one its format's parser refuses (or of another shape), "version" a
# version number no release has (thousands of digits), "cargo_manifest"/"cargo_no_lock" a Cargo.toml given for its
# Cargo.lock (each with its hint below)
TARGET_APP_UNREADABLE = define(
    "TARGET_APP_UNREADABLE", kind=InputError, text="{path} does not exist",
    hint="Give the app's Cargo.lock, .csproj, package-lock.json, requirements.txt, pyproject.toml or uv.lock, or its "
         "folder.",
    variants={"kind": "{file} is not a file onnxpack reads the ONNX Runtime version from",
              "unreadable": "Cannot read {file}: {reason}",
              "refused": "Cannot read {file}: {reason}",
              "malformed": "{file} is not valid {format}: {reason}",
              "version": "{file}, line {line}: {package} names version {version}, which is no ONNX Runtime release "
                         "number",
              "cargo_manifest": "{file} is the Rust manifest, which allows ort releases; the one the app is built "
                                "with is in its lock file, {lock}",
              "cargo_no_lock": "{file} is the Rust manifest, which allows ort releases; no Cargo.lock, which names "
                               "the one the app is built with, was found beside it or in the {count} folders above"},
    summary="The app's file cannot be read for its ONNX Runtime version",
    variant_hints={
        "kind": "Give the app's Cargo.lock, .csproj, packages.lock.json, package-lock.json, requirements*.txt, "
                "pyproject.toml or uv.lock.",
        "unreadable": "Check the file.",
        "refused": "Give the app's lock file or manifest itself (a regular file of at most {limit}), or its folder.",
        "malformed": "Give the file as its package manager wrote it (regenerate it if it was edited), or give "
                     "{opt:target_ort} X.Y yourself.",
        "version": "Correct the version in the file, or give {opt:target_ort} X.Y yourself.",
        "cargo_manifest": "Give {opt:target_app} {lock}, or the app's folder.",
        "cargo_no_lock": "Build the app once (or run `cargo generate-lockfile`) and give its Cargo.lock.",
    },
)
# variant "folder": a folder was given and none of its dependency files names ONNX Runtime
TARGET_APP_NONE = define(
    "TARGET_APP_NONE", kind=InputError, text="No ONNX Runtime dependency found in {file}",
    hint="Give {opt:target_ort} X.Y yourself, or point {opt:target_app} at the file that pins ONNX Runtime "
         "(ort/ort-sys, Microsoft.ML.OnnxRuntime, onnxruntime-node/-web, onnxruntime).",
    variants={"folder": "No ONNX Runtime dependency found in {count} dependency file(s) under {path}"},
    summary="No ONNX Runtime dependency was found in the app",
)

# The manifest's ``fixes`` (core/checks/retarget.py, core/release/fixes.py): what --fix-ir and --set-model-version
# changed in the released copy, each with its before and after
IR_LOWERED = define(
    "IR_LOWERED", Severity.INFO, "ir_version lowered from {before} to {after} so that ONNX Runtime {target} loads the "
    "model",
)
OPSET_LOWERED = define(
    "OPSET_LOWERED", Severity.INFO,
    "opsets lowered for ONNX Runtime {target}: every operator has the same schema version at the lower opset, so only "
    "opset_import was rewritten",
    variants={"version_converter": "opsets lowered for ONNX Runtime {target}: onnx.version_converter rewrote the "
                                   "operators that changed"},
)
# variant "more": more items than the manifest lists whole (the others are counted by key)
_DROPPED = ("{count} item(s) of IR {ir} that ONNX Runtime {target} does not know and that change nothing the model "
            "computes were removed or moved")
IR_FEATURES_DROPPED = define(
    "IR_FEATURES_DROPPED", Severity.INFO, _DROPPED,
    variants={"more": _DROPPED + "; the first {listed} are listed, the other {others} by key: {by_key}"},
)
MODEL_VERSION_SET = define(
    "MODEL_VERSION_SET", Severity.INFO,
    "model_version set to {after} (MAJOR*1000000 + MINOR*1000 + PATCH of {version})",
)
