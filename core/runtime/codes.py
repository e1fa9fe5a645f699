"""The finding and error codes that ``onnxpack.core.runtime`` produces (the registry: ``onnxpack.core.codes``)."""

from __future__ import annotations

from ..codes import define
from ..errors import InputError, OutputError, RuntimeFailure
from ..findings import Severity

__all__: list[str] = []

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

# Each entry: NAME = define("NAME", SEVERITY, "message template", "remedy template") for a finding, or
# NAME = define("NAME", kind=SomeError, text="message template", hint="remedy", summary="in general words").

# smokeoptions.py: a recorded smoke recipe read back
RECIPE_OUTSIDE_BUNDLE = define(
    "RECIPE_OUTSIDE_BUNDLE", kind=InputError,
    text="The smoke recipe names input file {file!r} for {name!r}, which is not a member of the bundle",
    hint="A bundle's recipe may only name files inside it: the bundle was not made by onnxpack or was altered. Do "
         "not trust it.",
    summary="The smoke recipe names a file that is not in the bundle",
)
RECIPE = define(
    "RECIPE", kind=InputError, text="The smoke recipe is not valid: {detail}", hint="Use a recipe written by onnxpack.",
    summary="The smoke recipe is not valid",
    # cli/cmd_smoke.py --recipe FILE
    variants={"unreadable": "Cannot read the recipe {path}: {reason}", "no_recipe": "{path} holds no recipe object"},
    variant_hints={"unreadable": "Give a JSON file written by onnxpack {opt:json}.",
                   "no_recipe": "Give a JSON file written by onnxpack {opt:json}."},
)

# childrun.py: the smoke child seen from the parent
SMOKE_CRASH = define(
    "SMOKE_CRASH", kind=RuntimeFailure,
    text="ONNX Runtime failed hard while {current} ({what}): {exit}. onnxpack itself is unaffected.",
    hint="The model is probably malformed or triggers an ONNX Runtime bug. Run `onnxpack check` on it, or try another "
         "onnxruntime version.",
    summary="ONNX Runtime crashed during the smoke run; onnxpack itself is unaffected",
)

SMOKE_TIMEOUT = define(
    "SMOKE_TIMEOUT", kind=RuntimeFailure,
    text="{what} did not finish within {timeout} s (it was {current}); the child process was stopped",
    hint="Raise the limit with {opt:timeout} SECONDS (loading a large model can take minutes), or use smaller sizes "
         "with {opt:dim} NAME=VALUE.",
    summary="The smoke run did not finish in time and was stopped",
)

# smoke.py: the parent's side of a smoke run
INPUT_DIGEST = define(
    "INPUT_DIGEST", kind=InputError,
    text="{opt:input} {name}: {file} has SHA-256 {actual}, but the recipe recorded {recorded}",
    hint="The input file changed since the recorded run; use the original file.",
    summary="An input file differs from the one the recorded run used",
)

# outputfiles.py: --save-outputs
OUTPUT_IS_FILE = define(
    "OUTPUT_IS_FILE", kind=OutputError, text="{opt:save_outputs} {folder} is a file, not a folder",
    hint="Give a folder.",
    summary="The output folder is a file",
)
OUTPUT_ESCAPES = define(
    "OUTPUT_ESCAPES", kind=OutputError, text="Output name {name!r} would be written outside {folder}",
    hint="Rename the output.", summary="An output would be written outside the output folder",
)

# smokefindings.py: what a smoke run found
SMOKE_INPUT_TOO_LARGE = define(
    "SMOKE_INPUT_TOO_LARGE", ERROR,
    "{subject}: the generated inputs would take {size}, more than the {limit} onnxpack allows on this machine "
    "({detail})",
    "Give smaller sizes, e.g. {opt:dim} {dim}=1 (or real data with {opt:input} NAME=FILE.npy).",
    # the model fixes every size: none can be made smaller (same message, another remedy)
    variants={"fixed": "{subject}: the generated inputs would take {size}, more than the {limit} onnxpack allows on "
                       "this machine ({detail})"},
    variant_hints={"fixed": "The model fixes these sizes: it cannot be smoke-run here; bundle it with {opt:no_smoke}, "
                            "or run it on a machine with more memory."},
)
SMOKE_INPUT_UNSUPPORTED = define(
    "SMOKE_INPUT_UNSUPPORTED", ERROR, "{subject}: cannot build inputs: {detail}",
    "Only tensor inputs of numeric, bool and string types, of at most 64 dimensions, can be generated or loaded.",
)
#: ``more``: the optional sentences (generated inputs, dims not given, the search), each after a space.
# What the run used, after ONNX Runtime's words: "g" generated inputs, "d" dims not given, "s" the size search tried
_REJECTED = "{subject}: ONNX Runtime rejected the run: {detail}"
_RUN_PARTS = {"g": " Generated inputs: {inputs}.", "d": " Dims not given: {dims}.",
              "s": " The automatic search tried {attempts} more size(s) ({tried}) without success."}
_SUPPLY = "or supply real data with {opt:input} NAME=FILE.npy (.npz, .pb)"
_SIZES = "ive real sizes, e.g. {opt:dim} {dim_arg}"
_SCALARS = "ive real values for scalar inputs, e.g. {opt:input} {scalar}={example}"
_NO_SEARCH = "; or drop {opt:no_search} to let onnxpack try common sizes"
SMOKE_RUN_FAILED = define(
    "SMOKE_RUN_FAILED", ERROR, _REJECTED,
    variants={"_".join(k): _REJECTED + "".join(_RUN_PARTS[p] for p in k)
              for k in ("g", "d", "s", "gd", "gs", "ds", "gds")},
    # the flags to try (finding(hint_variant=...)): real sizes for the dims onnxpack guessed, real values for the
    # scalar inputs it generated, the valid range of generated indices (an index out of bounds)
    variant_hints={
        "supply": _SUPPLY[:1].upper() + _SUPPLY[1:] + ".",
        "sizes": "G" + _SIZES + "; " + _SUPPLY + ".",
        "sizes_search": "G" + _SIZES + "; " + _SUPPLY + _NO_SEARCH + ".",
        "scalars": "G" + _SCALARS + "; " + _SUPPLY + ".",
        "sizes_scalars": "G" + _SIZES + "; g" + _SCALARS + "; " + _SUPPLY + ".",
        "sizes_scalars_search": "G" + _SIZES + "; g" + _SCALARS + "; " + _SUPPLY + _NO_SEARCH + ".",
        "index": "{capitalized} was generated as {distribution}; if it holds indices, give their valid range, e.g. "
                 "{opt:range} {name}=0:N where N is the size of what they index; " + _SUPPLY + ".",
    },
)
SMOKE_OUTPUT_NOT_TENSOR = define(
    "SMOKE_OUTPUT_NOT_TENSOR", INFO,
    "{model}: output {subject} is a {type}, not a tensor: only its SHA-256 is recorded (no .npy is saved, and a "
    "bundle holds no reference values for it), and onnxruntime-node (JavaScript) cannot return such an output",
    "If an app reads it with onnxruntime-node, re-export the model with tensor outputs (scikit-learn classifiers: "
    "skl2onnx's option zipmap=False).",
)
SMOKE_NON_FINITE = define(
    "SMOKE_NON_FINITE", WARNING, "{model}: output {subject} has {nan} NaN and {inf} Inf value(s) out of {size}",
    "Check the model with real inputs ({opt:input} NAME=FILE); generated random inputs can also overflow.",
    # after the run tried other kinds of generated inputs, named as the recipe's inputs_profile names them
    # (core/runtime/smokefindings.py); "tried_failed": some of them failed to run (the first one's error)
    variant_hints={
        "tried": "onnxpack tried {kinds} kinds of generated inputs ({profiles}); each gave NaN/Inf. Check the model "
                 "with real inputs ({opt:input} NAME=FILE); generated random inputs can also overflow.",
        "tried_failed": "onnxpack tried {kinds} kinds of generated inputs ({profiles}); {failed} of them failed to run "
                        "({failed_profile}: {error}), the others gave NaN/Inf. Check the model with real inputs "
                        "({opt:input} NAME=FILE); generated random inputs can also overflow.",
    },
)
SMOKE_CONSTANT_OUTPUT = define(
    "SMOKE_CONSTANT_OUTPUT", INFO, "{model}: output {subject} is constant everywhere ({value})",
    "This can be normal (e.g. a mask); otherwise the model may ignore its input.",
    # its value is not a finite number (neither all NaN nor all Inf)
    variants={"non_finite": "{model}: output {subject} is constant everywhere (not a finite number)"},
)
SMOKE_NONDETERMINISTIC = define(
    "SMOKE_NONDETERMINISTIC", WARNING, "{model}: output {subject} differs between runs on the same inputs",
    "The model is non-deterministic (random ops?); equality checks against it are not meaningful.",
)
SMOKE_INPUT_OMITTED = define(
    "SMOKE_INPUT_OMITTED", INFO, "{model}: optional input {subject} was not fed",
    "Feed it with {opt:input} {subject}=FILE.npy to test that path.",
)
SMOKE_INPUT_DEFAULT = define(
    "SMOKE_INPUT_DEFAULT", INFO,
    "{model}: input {subject} has a default value (an initializer of the same name); the default was used",
    "Override it with {opt:input} {subject}=FILE.npy.",
)
SMOKE_DIMS_SEARCHED = define(
    "SMOKE_DIMS_SEARCHED", WARNING,
    "{subject}: the run failed with the default sizes ({error}); it passed with {sizes} after {attempts} attempt(s)",
    "Pass {flags} to use these sizes directly (or the model's real sizes).",
)
COMPARE_MISSING_OUTPUT = define(
    "COMPARE_MISSING_OUTPUT", ERROR, "Output {subject} of the original is missing in {model}",
    "Compare models with the same outputs.",
)
#: The message says how the output differs: by how much (the main text), or a variant per kind (the compared row's
#: ``differs``, core/runtime/outputfacts.py). The remedy names the tolerance flags, and says first when the output
#: differs between runs of the same model (``hint_variant="nondeterministic"``).
COMPARE_MISMATCH = define(
    "COMPARE_MISMATCH", ERROR,
    "Output {subject} differs: max abs diff {max_abs}, max rel diff {max_rel}, {mismatched} value(s) outside the "
    "tolerance",
    "Tolerance is {tol}; raise {opt:atol}/{opt:rtol} if small differences are expected (e.g. an optimized graph).",
    variants={
        "shape": "Output {subject} differs: shape {original} vs {other}",
        "dtype": "Output {subject} differs: dtype {original} vs {other}",
        "non_finite": "Output {subject} differs: NaN/Inf in different places",
        "non_tensor": "Output {subject} differs: non-tensor outputs differ",
        "strings": "Output {subject} differs: {mismatched} string(s) differ",
    },
    variant_hints={"nondeterministic": "The output is non-deterministic, so runs differ anyway. Tolerance is {tol}; "
                                       "raise {opt:atol}/{opt:rtol} if small differences are expected (e.g. an "
                                       "optimized graph)."},
)
COMPARE_NOT_BITWISE = define(
    "COMPARE_NOT_BITWISE", INFO,
    "Output {subject} is within the tolerance ({tol}) but not bitwise identical (max abs diff {max_abs}, max rel diff "
    "{max_rel})",
    "Expected for re-optimized graphs; a merged copy of the same model should be bitwise identical.",
)
COMPARE_EXTRA_OUTPUT = define(
    "COMPARE_EXTRA_OUTPUT", WARNING, "{model} has an output {subject} that the original lacks",
    "Compare models with the same outputs.",
)

# session.py (in the smoke child): opening an ONNX Runtime session
SMOKE_TOO_LARGE = define(
    "SMOKE_TOO_LARGE", kind=RuntimeFailure,
    text="{file}: the tensors that must be embedded make the model exceed 2 GiB",
    hint="Large tensors inside subgraphs or Constant nodes cannot be smoke-run in memory; move them to main-graph "
         "initializers.",
    summary="The tensors that must be embedded make the model exceed 2 GiB",
)
#: Its hint says what ONNX Runtime's message says (session.load_failure_hint): worded at the call site.
ORT_LOAD = define(
    "ORT_LOAD", kind=RuntimeFailure, text="ONNX Runtime cannot load {model}: {detail}",
    hint="Run `onnxpack check` on the model; it may need a newer ONNX Runtime or be malformed.",
    summary="ONNX Runtime cannot load the model",
    # what ONNX Runtime's reason means (session.load_failure_remedy: error(hint_variant=...)), so the app says it in
    # its language too
    variant_hints={
        "locale": "The model is not at fault: it needs the locale {locale} (a StringNormalizer's), which this machine "
                  "does not have. Install it (Debian/Ubuntu: add it to /etc/locale.gen and run locale-gen) and run "
                  "again; every machine that runs the model needs it too.",
        "op_training": "The model uses operator {op} of domain '{domain}', an ONNX training operator that ONNX "
                       "Runtime's inference packages do not implement; export the model for inference (without "
                       "training operators).",
        "op_preview": "The model uses operator {op} of domain '{domain}', an ONNX preview operator this ONNX Runtime "
                      "does not implement: a newer ONNX Runtime may, or re-export the model without it.",
        "op_opset": "The model uses operator {op} of domain '{domain}', which this ONNX Runtime does not know at the "
                    "model's opset: a newer ONNX Runtime may, or re-export the model with a lower opset.",
        "op_custom": "The model uses operator {op} of domain '{domain}', which this ONNX Runtime does not implement. "
                     "It needs a custom-op library (onnxpack does not load those) or a re-export with standard ONNX "
                     "operators.",
        "op_unnamed": "The model uses an operator this ONNX Runtime does not implement. It needs a custom-op library "
                      "(onnxpack does not load those) or a re-export with standard ONNX operators.",
        "kernel_old": "The model uses {op} of opset {opset}, older than ONNX Runtime implements (opset 7 and newer): "
                      "convert it to a newer opset (onnx.version_converter.convert_version).",
        "kernel_types": "ONNX Runtime's CPU provider has no kernel for {op} (opset {opset}) with the element types "
                        "this model uses: a newer ONNX Runtime may have one; otherwise re-export the model with "
                        "supported types (e.g. float instead of float8, int4 or bfloat16).",
        "ir": "The model's IR version is newer than this ONNX Runtime reads: use a newer ONNX Runtime, or "
              "`onnxpack bundle --target-ort X.Y --fix-ir` if `onnxpack check` says lowering it is enough.",
        "opset": "The model's opset is newer than this ONNX Runtime supports; run `onnxpack check` for the details.",
        "not_onnx": "The file is not a valid ONNX model (damaged or truncated); export it again.",
        "inference": "ONNX Runtime's type and shape inference rejects the model: its graph is inconsistent. Run "
                     "`onnxpack check` on it (the onnx checker names the node) and fix or re-export the model.",
        "unsupported": "This ONNX Runtime does not support what the model asks of an operator (the message says "
                       "what): a newer ONNX Runtime may, or re-export the model without it (e.g. an RNN with "
                       "layout=0).",
    },
)

# smoke_child.py: the smoke job
COMPARE_INPUTS = define(
    "COMPARE_INPUTS", kind=InputError, text="{model} needs input(s) {missing} that {original} does not have",
    hint="Only models with the same inputs can be compared.", summary="The two models do not have the same inputs",
)
COMPARE_RUN = define(
    "COMPARE_RUN", kind=RuntimeFailure, text="{model} failed on the inputs that {original} accepted: {detail}",
    hint="The two models do not behave alike; check that you compare the right files.",
    summary="The second model failed on inputs the first one accepted",
)
SMOKE_MEMORY = define(
    "SMOKE_MEMORY", kind=RuntimeFailure, text="Out of memory in the smoke run",
    hint="Use smaller {opt:dim} values or run on a machine with more memory.",
    summary="The smoke run ran out of memory",
)
SMOKE_CHILD_ERROR = define(
    "SMOKE_CHILD_ERROR", kind=RuntimeFailure, text="The smoke run failed unexpectedly: {error}",
    hint="This is probably a bug in onnxpack; please report it with the details.",
    summary="The smoke run failed unexpectedly",
)

# inputfiles.py: --input files
INPUT_FILE_MISSING = define(
    "INPUT_FILE_MISSING", kind=InputError, text="{opt:input} {name}: file not found: {file}",
    hint="Check the path (relative paths are relative to the current folder).",
    summary="The input file was not found",
)
#: Each variant has its own remedy (what to save the input as instead).
INPUT_FILE_FORMAT = define(
    "INPUT_FILE_FORMAT", kind=InputError,
    text="{opt:input} {name}: {file} is neither .npy, .npz nor an ONNX TensorProto (.pb): {detail}",
    hint="Save the input with numpy.save() or onnx.numpy_helper.from_array(...).SerializeToString().",
    variants={
        "external": "{opt:input} {name}: {file} refers to external data, which onnxpack does not follow",
        "empty": "{opt:input} {name}: {file} does not hold a tensor (empty or not a TensorProto)",
        "inconsistent": "{opt:input} {name}: the tensor in {file} is inconsistent: {detail}",
        "npz": "{opt:input} {name}: cannot read {file} as .npz: {detail}",
        "npy": "{opt:input} {name}: cannot read {file} as .npy: {detail}",
    },
    summary="The input file is not a tensor onnxpack can read",
    variant_hints={
        "external": "Save the tensor with its data inline.",
        "empty": "Give a .npy/.npz file or an ONNX TensorProto .pb file such as test_data_set_0/input_0.pb.",
        "inconsistent": "Save the tensor again with onnx.numpy_helper.from_array().",
        "npz": "Object (pickled) arrays are refused for safety; save plain arrays with numpy.savez().",
        "npy": "Object (pickled) arrays are refused for safety; save a plain array with numpy.save().",
    },
)
INPUT_FILE_MEMBER = define(
    "INPUT_FILE_MEMBER", kind=InputError,
    text="{opt:input} {name}: {file} holds {count} arrays ({members}) and none is named after the input",
    hint="Name the member: {opt:input} {name}={path}:{member}",
    variants={"missing": "{opt:input} {name}: {file} has no array {member!r} (it has: {members})"},
    summary="The .npz file has no array for this input",
    variant_hints={"missing": "Use one of the listed member names after the colon."},
)

# inputs.py: inputs made for a model
INPUT_UNKNOWN = define(
    "INPUT_UNKNOWN", kind=InputError, text="The model has no input named {name!r} (inputs: {inputs})",
    hint="Check the spelling; names are case-sensitive.", summary="The model has no input of that name",
)
DIM_UNKNOWN = define(
    "DIM_UNKNOWN", kind=InputError,
    text="The model has no symbolic dimension named {names} (its symbolic dimensions: {listing})",
    variants={"fixed": "The model has no symbolic dimension named {names} (its symbolic dimensions: none: every input "
                       "has a fixed shape)"},
    hint='Check the spelling (names are case-sensitive); an unnamed dimension is INPUT[AXIS], e.g. {opt:dim} '
         '"x[0]=1".',
    summary="The model has no symbolic dimension of that name",
)
INPUT_UNSUPPORTED = define(
    "INPUT_UNSUPPORTED", kind=InputError, text="Input {name} has type {type}, which onnxpack cannot feed from a file",
    hint="Only tensor inputs can be supplied.", summary="This input cannot be fed from a file",
)
INPUT_DTYPE = define(
    "INPUT_DTYPE", kind=InputError,
    text="{opt:input} {name}: the file holds {got} data, but the model wants {type}",
    hint="Convert it, e.g. numpy.save(path, array.astype('{dtype}')).",
    summary="The input data has another element type than the model wants",
)
#: The variants' remedies are worded at the call site (inputs._SHAPE_HINTS).
INPUT_SHAPE = define(
    "INPUT_SHAPE", kind=InputError,
    text="{opt:input} {name}: the array has shape {shape} (rank {rank}), but the model wants rank {want_rank} {want}",
    hint="Reshape the array to the model's input shape.",
    variants={
        "axis": "{opt:input} {name}: axis {axis} has size {got}, but the model fixes it at {want} (model shape "
                "{shape})",
        "agree": "{opt:input} {name}: axis {axis} ({dim}) has size {got}, but {dim} = {value} ({source})",
    },
    summary="The input data has another shape than the model wants",
    variant_hints={
        "agree": "Make the inputs agree on {dim}, or drop {opt:dim} {dim}.",
        "axis": "Give an array of the model's input shape.",
    },
)
INPUT_VALUE = define(
    "INPUT_VALUE", kind=InputError,
    text="{opt:input} {name}={value}: not a valid {elem} value (and no such file)",
    hint="Give a number for {name} (e.g. {opt:input} {name}={example}) or a .npy/.npz/.pb file.",
    variants={
        # a bool input: the same words, the remedy names its values
        "bool": "{opt:input} {name}={value}: not a valid {elem} value (and no such file)",
        "range": "{opt:input} {name}={value}: out of the range of {elem} ({low} to {high})",
        "default": "{opt:input} {name}={value}: {name} is an input with a default value (an initializer); give a "
                   "file to override it",
    },
    summary="The input value cannot be used",
    variant_hints={
        "default": "Use {opt:input} {name}=FILE.npy with an array of the initializer's shape.",
        "range": "Give a value {name} can hold.",
        "bool": "Give true, false, 1 or 0 for {name} (e.g. {opt:input} {name}={example}) or a .npy/.npz/.pb file.",
    },
)

# ortformat.py: the ORT-format conversion
ORT_TOO_LARGE = define(
    "ORT_TOO_LARGE", kind=OutputError,
    text="{file} needs {bytes} bytes as one file; the ORT format (like a single .onnx) is limited to 2 GiB",
    hint="Ship models this large in ONNX format with external data instead of the ORT format.",
    summary="The model is too large for the ORT format (2 GiB)",
)
ORT_TIMEOUT = define(
    "ORT_TIMEOUT", kind=RuntimeFailure,
    text="The ORT-format conversion did not finish within {timeout} s; it was stopped",
    hint="Raise the limit with {opt:timeout} SECONDS.",
    summary="The ORT-format conversion did not finish in time and was stopped",
)
ORT_CONVERT = define(
    "ORT_CONVERT", kind=RuntimeFailure, text="onnxruntime's ORT-format converter failed: {detail}",
    hint="Check that the model loads (`onnxpack smoke MODEL`); custom operators cannot be converted.",
    variants={"missing": "The converter did not produce {file}",
              "status": "onnxruntime's ORT-format converter failed: exit status {status}"},  # without output
    summary="ONNX Runtime's ORT-format converter failed",
    variant_hints={"missing": "See the converter log in the details."},
)

# the load matrix (loadmatrix.py, smokefindings.py): the shipped model loaded the ways apps load it
SMOKE_LOAD_FAILED = define(
    "SMOKE_LOAD_FAILED", Severity.WARNING,
    "{model} does not load ({mode}): {error}",
    "Load the model by its path, with its data files beside it.",
    variants={
        "path": "{model} does not load by its path: {error}",
        "other_cwd": "{model} does not load by a relative path from another working directory: {error}",
        "bytes": "{model} does not load from bytes: {error}",
        "bytes_folder": "{model} does not load from bytes with its folder named in the session options: {error}",
        "symlink": "{model} does not load through a symbolic link: {error}",
        "non_ascii": "{model} does not load from a folder named with Japanese characters and a space: {error}",
        "differs": "{model} loaded another way ({mode}) gives outputs that differ from the reference run's",
    },
    variant_hints={
        "path": "Check that the model and its data files are extracted together, at their paths.",
        "other_cwd": "Load the model by its absolute path.",
        "bytes": "Load the model by its path.",
        "bytes_folder": "Load the model by its path.",
        "symlink": "Load the model through its real path, or keep the model and its data files as real files in "
                   "one folder.",
        "non_ascii": "Install the model under a path of ASCII characters without spaces.",
        "differs": "Load the model by its path; report the difference to ONNX Runtime with the bundle.",
    },
)
SMOKE_LOAD_FROM_BYTES = define(
    "SMOKE_LOAD_FROM_BYTES", Severity.INFO,
    "{model} cannot be loaded from bytes alone: its weights are in a data file, which ONNX Runtime then looks for "
    "in the working directory",
    "Load the model by its path; or, from bytes, set the session option "
    "session.model_external_initializers_file_folder_path to the model's folder (ONNX Runtime 1.21 and newer).",
)
SMOKE_LOADS_OK = define(
    "SMOKE_LOADS_OK", Severity.INFO, "{model} loads and gives the reference outputs bit for bit: {modes}",
)

# core/runtime/loadcost.py: the end user's load of the shipped single file against the source's external layout
LOAD_COST_HEAVY = define(
    "LOAD_COST_HEAVY", Severity.WARNING,
    "{subject}: the shipped single file costs the end user {time_ratio}x the load time and {memory_ratio}x the "
    "memory of the source's external-data layout ({shipped_s} s and {shipped_mem} against {source_s} s and "
    "{source_mem}, what each load adds to its process; InferenceSession(path), ONNX Runtime {ort_version})",
    "To ship the layout that loads cheaper, bundle with {opt:layout} external (or {opt:layout} keep for the "
    "source's own files).",
)

