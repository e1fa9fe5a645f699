"""The commands of the command line: which module runs each, and what ``--help`` says of it.

Their flags are the engine's flag groups (core/release/flaggroups.py COMMAND_SPECS). The parser is built from this
table and those groups alone, importing no command's module: a run imports only its own command's module, after its
arguments are parsed (``onnxpack smoke`` need not import the bundle or inspect machinery).
"""

from __future__ import annotations

from dataclasses import dataclass

from onnxpack.core.runtime.ortdefaults import DEFAULT_ATOL, DEFAULT_RTOL

__all__ = ["COMMANDS", "Command"]

_CHECK_EXIT = "Exit status: 0 fine, 1 error-level findings, 2 usage error or unreadable input."


@dataclass(frozen=True)
class Command:
    module: str  # the module under onnxpack.cli whose HANDLERS runs it
    help: str  # its line in ``onnxpack --help``
    description: str  # the text of ``onnxpack COMMAND --help``


COMMANDS: dict[str, Command] = {
    "inspect": Command(
        "cmd_inspect",
        "show layout, sizes, versions, interface and operators of a model (weights are not read)",
        "Describe MODEL (.onnx or .ort, or a folder holding one) without loading its weights. " + _CHECK_EXIT,
    ),
    "check": Command(
        "cmd_inspect",
        "validate a model: external data rules, onnx checker, shape inference, ONNX Runtime compatibility",
        "Validate MODEL and list every finding with a fix hint. " + _CHECK_EXIT,
    ),
    "merge": Command(
        "cmd_merge",
        "merge external data into one self-contained .onnx (or one aligned data file above 2 GiB)",
        "Write MODEL with all external tensor data embedded, as one .onnx file, streaming the weights (memory stays "
        "small). Above protobuf's 2 GiB limit (or with --layout external) write OUT.onnx plus one OUT.onnx.data beside "
        "it, each tensor aligned. Inputs are only read; the output is written to a temporary file and renamed into "
        "place.",
    ),
    "smoke": Command(
        "cmd_smoke",
        "run a model with ONNX Runtime (CPU) in an isolated process; optionally compare with another model",
        "Run MODEL once or more with generated or given inputs and report outputs, timings and digests. With "
        "--compare, run both models on the same inputs and compare each output. Exit status 0 only when the run (and "
        "comparison) passed.",
    ),
    "ort": Command(
        "cmd_smoke",
        "convert a model to ORT format with onnxruntime's converter and check it against the .onnx",
        "Convert MODEL with `python -m onnxruntime.tools.convert_onnx_models_to_ort` (from a validated self-contained "
        "copy), write the .ort and required_operators.config into DIR, then run the .ort and the .onnx on the same "
        f"inputs (pass: atol {DEFAULT_ATOL:g}, rtol {DEFAULT_RTOL:g}).",
    ),
    "bundle": Command(
        "cmd_bundle",
        "build a verified release ZIP (merged model, manifest.json, README.txt)",
        "Inspect, validate and merge MODEL, prove the merged model is the original bit for bit (same structure, every "
        "tensor's SHA-256 equal; small models also give bitwise-equal outputs), smoke-run the bundled model, and "
        "write OUT/NAME-VERSION.zip (or the OUT.zip given with -o). Without MODEL the sample model is bundled. Set "
        "SOURCE_DATE_EPOCH for byte-identical bundles. Exit status: 0 written, 1 refused (findings, failed smoke run), "
        "2 usage error or unreadable input, 130 cancelled.",
    ),
    "verify": Command(
        "cmd_verify",
        "check a bundle: archive safety, manifest, every file's size and SHA-256",
        "Check BUNDLE.zip made by `onnxpack bundle`. Exit status: 0 verified, 1 problems found (a damaged or altered "
        "bundle), 2 unreadable input or a file that is not a bundle .zip (a model, a manifest.json).",
    ),
    "keygen": Command(
        "cmd_keygen",
        "make a signing key pair (NAME.key, private; NAME.pub, to publish)",
        "Write an elliptic-curve P-256 key pair for `bundle --sign-key` / `verify --key`: NAME.key (private, PEM, "
        "readable by you only: keep it secret and out of bundles and repositories) and NAME.pub (public: give it to "
        "the people who receive your bundles). The same as `openssl ecparam -name prime256v1 -genkey -noout -out "
        "NAME.key && openssl ec -in NAME.key -pubout -out NAME.pub`. Exit status: 0 written, 1 the files exist "
        "already or cannot be written.",
    ),
}
