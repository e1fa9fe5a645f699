"""How to fix a problem, in the desktop app's words and language.

The engine's hints name command-line flags ("give its folder with --data-dir", "pass --force"); ``_hints`` words
them with the window's own controls, in every language. ``_engine_hints`` translates the other hints, general
where the engine's hint names a value; the app uses it when its language is not English (in English the engine's
hint is already right). A code without either keeps the engine's hint."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from onnxpack.core.codes import fields

from .catalog import code_of, option_label, remedy_text
from .i18n import current_language

__all__ = ["ENGINE_HINT_CODES", "ERROR_HINT_TEXTS", "GUI_HINT_CODES", "gui_hint", "option_label"]

# The engine's hints, word for word, of errors whose code has several hints (a class code such as INPUT or
# MODEL_FORMAT): translated by their text in context "ErrorHints". tests/test_gui_catalog.py checks that every
# constant hint of an error without a code-level hint is here, so a reworded engine hint cannot silently stay English.
ERROR_HINT_TEXTS = frozenset({
    QT_TRANSLATE_NOOP("ErrorHints", "Check the model folder."),
    QT_TRANSLATE_NOOP("ErrorHints", "Give a .npy, .npz or .pb file."),
    QT_TRANSLATE_NOOP("ErrorHints", "Check the file permissions."),
    QT_TRANSLATE_NOOP("ErrorHints", "Check the path and its permissions."),
    QT_TRANSLATE_NOOP("ErrorHints", "Check the path; quote it if it contains spaces."),
    QT_TRANSLATE_NOOP("ErrorHints", "The export or copy was probably interrupted; export the model again."),
    QT_TRANSLATE_NOOP(
        "ErrorHints",
        "This is not an ONNX model (random or foreign bytes can parse as an empty protobuf); export the model again.",
    ),
    QT_TRANSLATE_NOOP("ErrorHints", "Give the model file itself, or a folder that contains one .onnx file."),
    QT_TRANSLATE_NOOP("ErrorHints", "Give the path of the one you mean."),
    QT_TRANSLATE_NOOP("ErrorHints", "--data-dir must name the folder that holds the external data files."),
    QT_TRANSLATE_NOOP(
        "ErrorHints", "The file may be truncated, corrupted, or nested deeper than protobuf allows; export it again."
    ),
    QT_TRANSLATE_NOOP("ErrorHints", "Export the model again, or check it is really an ONNX file."),
    QT_TRANSLATE_NOOP("ErrorHints", "Give the private key file (PEM) made by 'onnxpack keygen' or openssl."),
    QT_TRANSLATE_NOOP("ErrorHints", "Give the publisher's public key file (NAME.pub)."),
    QT_TRANSLATE_NOOP("ErrorHints", "Choose a folder you can write to."),
    QT_TRANSLATE_NOOP("ErrorHints", "Check its permissions."),
    QT_TRANSLATE_NOOP("ErrorHints", "Run `onnxpack verify` on it for details."),
    QT_TRANSLATE_NOOP("ErrorHints", "Give OLD.zip or its manifest."),
})  # fmt: skip


def tick(name: str) -> str:
    """'tick "<the box>" in the Bundle tab', in the app's language."""
    return QCoreApplication.translate("Hints", 'tick "%1" in the Bundle tab').replace("%1", option_label(name))


def _hints() -> dict[str, str]:
    # Built on every call, so a language switch applies at once.
    inputs = QCoreApplication.translate(
        "Hints",
        'In the Bundle tab, give an .npy file for this input under "Input data", or leave it empty to use '
        "generated data.",
    )
    return {
        "EXTDATA_MISSING": QCoreApplication.translate(
            "Hints",
            "Put the .data file next to the .onnx file (same folder, same name as written in the "
            "model), or choose where it is with File → Locate data file…",
        ),
        "EXTDATA_UNALIGNED": QCoreApplication.translate(
            "Hints", "Harmless: the bundle's own data file (used above 2 GiB) is written 64 KiB-aligned."
        ),
        "IR_LOWERABLE": QCoreApplication.translate("Hints", 'Tick "%1" in the Bundle tab.').replace(
            "%1", option_label("fix_ir")
        ),
        "FIX_IR_NOT_POSSIBLE": QCoreApplication.translate(
            "Hints",
            "The operators are too new for that runtime: choose a newer Target ONNX Runtime "
            "in the Bundle tab, or export the model with an older opset.",
        ),
        "MERGE_FITS": QCoreApplication.translate(
            "Hints", "Bundling writes it as one self-contained .onnx file; nothing to do."
        ),
        "MERGE_TOO_LARGE": QCoreApplication.translate(
            "Hints",
            "Above 2 GiB the bundle keeps the weights in one aligned .onnx.data beside the model; nothing to do.",
        ),
        "OUTPUT_EXISTS": QCoreApplication.translate("Hints", "Choose another version or output folder, or %1.").replace(
            "%1", tick("force")
        ),
        "VERSION_NOT_GREATER": QCoreApplication.translate("Hints", "Use the suggested version, or %1.").replace(
            "%1", tick("allow_version_not_greater")
        ),
        "ABOUT_LABELS": QCoreApplication.translate(
            "Hints",
            "Give one class label per output class, in order, under Class labels in the Bundle tab "
            "(or %1 to keep them).",
        ).replace("%1", tick("allow_unmatched_labels")),
        "ABOUT_LICENSE": QCoreApplication.translate(
            "Hints", "Type an SPDX identifier under License in the Bundle tab, e.g. MIT, Apache-2.0 or CC-BY-4.0."
        ),
        "ABOUT_HOMEPAGE": QCoreApplication.translate(
            "Hints", "Type the full address under Homepage in the Bundle tab, e.g. https://example.org."
        ),
        "ABOUT_AUTHOR": QCoreApplication.translate(
            "Hints", "Separate the names under Authors in the Bundle tab with ';' and leave none empty."
        ),
        "BAD_TARGET_ORT": QCoreApplication.translate(
            "Hints", "Choose a release from the Target ONNX Runtime list in the Bundle tab, or leave it empty."
        ),
        "DIM_UNKNOWN": QCoreApplication.translate(
            "Hints", "Set its size under Symbolic dimensions in the Bundle tab (0 = automatic)."
        ),
        "SMOKE_TIMEOUT": QCoreApplication.translate(
            "Hints", "Set smaller sizes under Symbolic dimensions in the Bundle tab, or untick the smoke run."
        ),
        "INPUT_FILE_MISSING": inputs,
        "INPUT_FILE_FORMAT": inputs,
        "INPUT_FILE_MEMBER": inputs,
        "INPUT_DTYPE": inputs,
        "INPUT_SHAPE": inputs,
        "INPUT_VALUE": inputs,
        "SMOKE_INPUT_DEFAULT": inputs,
        "SMOKE_INPUT_OMITTED": inputs,
        "SMOKE_NON_FINITE": QCoreApplication.translate(
            "Hints",
            "Give real input data (.npy) under Input data in the Bundle tab: generated values "
            "may be outside what the model expects.",
        ),
        "MODEL_IS_ORT": QCoreApplication.translate(
            "Hints",
            'Open the original .onnx model; tick "Also include an ORT-format (.ort) variant" to ship an .ort too.',
        ),
        "MODEL_VERSION_RANGE": QCoreApplication.translate(
            "Hints",
            'Untick "Write the release version into the model\'s model_version", or use smaller version numbers.',
        ),
        "SIGNING_KEY": QCoreApplication.translate(
            "Hints",
            "Choose your private key (.key/.pem) under Signing key in the Bundle tab; make one with "
            "onnxpack keygen. Encrypted keys can only be used from the command line.",
        ),
        "SIGSTORE_UNREACHABLE": QCoreApplication.translate(
            "Hints", "Sign with a key instead: choose it under Signing key in the Bundle tab."
        ),
        "PROVE_NETWORK": QCoreApplication.translate(
            "Hints",
            "Connect to the internet (each release is downloaded once, then cached), or do not prove on ONNX "
            "Runtime releases.",
        ),
        "PROVE_NO_WHEEL": QCoreApplication.translate(
            "Hints",
            "Choose a release with a wheel for this Python (for Python 3.11: 1.15.0 and newer).",
        ),
        "PROVE_NO_RELEASE": QCoreApplication.translate(
            "Hints",
            "Give a released version, e.g. 1.16.3.",
        ),
        "PROVE_WHEEL_HASH": QCoreApplication.translate(
            "Hints",
            "Try again; if it repeats, do not trust this network connection.",
        ),
        "PROVE_ENV": QCoreApplication.translate(
            "Hints",
            "Check the internet connection and try again; the details show the output of pip.",
        ),
        "PROVE_NO_PYTHON": QCoreApplication.translate(
            "Hints",
            "Set ONNXPACK_PYTHON to a Python 3.10+ interpreter, or use onnxpack installed with pip.",
        ),
        "PROVE_INPUTS": QCoreApplication.translate(
            "Hints",
            "Give the sizes the model needs under Symbolic dimensions in the Bundle tab.",
        ),
        "PROVE_REFERENCE": QCoreApplication.translate(
            "Hints",
            "Smoke-run the model to see why it fails.",
        ),
        "PROVE_ORT_FAILED": QCoreApplication.translate(
            "Hints",
            "Retarget the model for the oldest of those releases (set it as the target runtime and lower the IR "
            "version), or prove newer releases only.",
        ),
        "BAD_PROVE_ORT": QCoreApplication.translate(
            "Hints",
            "Give releases like 1.16.3,1.20.1, a MAJOR.MINOR, newest, or auto.",
        ),
        "TARGET_APP_UNKNOWN": QCoreApplication.translate(
            "Hints",
            "Choose the target ONNX Runtime yourself, or update onnxpack.",
        ),
        "TARGET_APP_UNREADABLE": QCoreApplication.translate(
            "Hints",
            "Give the Cargo.lock, .csproj, packages.lock.json, package-lock.json, requirements.txt, "
            "pyproject.toml or uv.lock of the app.",
        ),
        "TARGET_APP_NONE": QCoreApplication.translate(
            "Hints",
            "Choose the target ONNX Runtime yourself, or give the file that pins ONNX Runtime.",
        ),
        "PROVE_ORT_NOT_LOADED": QCoreApplication.translate(
            "Hints",
            "Bundle with that release as the target runtime and the IR version lowered: onnxpack retargets the "
            "released copy and proves it.",
        ),
        "PROVE_ORT_MISMATCH": QCoreApplication.translate(
            "Hints",
            "Check whether the difference matters before shipping the model for that release.",
        ),
        "RETARGET_NOT_EQUAL": QCoreApplication.translate(
            "Hints",
            "Re-export the model for the opset of the target runtime, or choose a newer target runtime.",
        ),
        "ORT_TARGET_UNSUPPORTED": QCoreApplication.translate(
            "Hints",
            "Re-export for a lower opset or IR, choose a newer Target ONNX Runtime in the Bundle tab, or %1.",
        ).replace("%1", tick("fix_ir")),
        "VERSION_UNDERBUMP": QCoreApplication.translate(
            "Hints",
            "The changes that call for a bigger step are listed in the Result tab's release comparison.",
        ),
        "SMOKE_RUN_FAILED": QCoreApplication.translate(
            "Hints",
            "Give real sizes under Symbolic dimensions or real data under Input data in the Bundle tab.",
        ),
        "SMOKE_DIMS_SEARCHED": QCoreApplication.translate(
            "Hints",
            "Set these sizes (or the model's real sizes) under Symbolic dimensions in the Bundle tab.",
        ),
        "SMOKE_NOT_RECORDED": QCoreApplication.translate(
            "Hints",
            "Rebuild the bundle with the smoke run ticked to record one.",
        ),
        "BUNDLE_FINDINGS": QCoreApplication.translate("Hints", "Fix the errors listed in the Findings tab first."),
        "MODEL_IS_DATA": QCoreApplication.translate(
            "Hints",
            "Open the .onnx model file that uses this data file; keep the data file beside it.",
        ),
        "BUNDLE_NOT_ZIP": QCoreApplication.translate(
            "Hints",
            "Open the NAME-VERSION.zip that onnxpack made to verify it; open a model file to inspect the model.",
        ),
        "PREVIOUS_NOT_BUNDLE": QCoreApplication.translate(
            "Hints",
            'Under "Previous bundle" in the Bundle tab, choose the .zip of the release before this one.',
        ),
        "MODEL_IS_ZIP": QCoreApplication.translate(
            "Hints",
            "If it is an onnxpack bundle, open it to verify it; otherwise extract the model first.",
        ),
        "ORT_FORMAT_MISMATCH": QCoreApplication.translate(
            "Hints",
            'Untick "Also include an ORT-format (.ort) variant", or report the model to the ONNX Runtime project.',
        ),
        "ORT_FORMAT_TOO_LARGE": QCoreApplication.translate(
            "Hints",
            'Untick "Also include an ORT-format (.ort) variant" for this model.',
        ),
        "OUTPUT_INSIDE_INPUT": QCoreApplication.translate(
            "Hints",
            "Choose an output folder outside the model's folder; onnxpack never modifies its inputs.",
        ),
        "OUTPUT_NO_FOLDER": QCoreApplication.translate(
            "Hints",
            "Choose an existing output folder in the Bundle tab.",
        ),
        "SMOKE_MEMORY": QCoreApplication.translate(
            "Hints",
            "Set smaller sizes under Symbolic dimensions in the Bundle tab, or untick the smoke run.",
        ),
        "SMOKE_INPUT_TOO_LARGE": QCoreApplication.translate(
            "Hints",
            "Set smaller sizes under Symbolic dimensions in the Bundle tab, or untick the smoke run.",
        ),
    }


def _engine_hints() -> dict[str, str]:
    """Code → the engine's hint in the app's language (built on every call, so a language switch applies)."""
    tamper = QCoreApplication.translate(
        "Hints",
        "The bundle was modified after it was built. Get it again from its publisher, or rebuild it.",
    )
    damaged = QCoreApplication.translate(
        "Hints",
        "Do not use this archive: it was damaged or crafted. Get the bundle again from its publisher.",
    )
    hints = {
        "TENSOR_TOO_LARGE": QCoreApplication.translate("Hints", "Re-export the model."),
        "DUPLICATE_INITIALIZER": QCoreApplication.translate(
            "Hints",
            "Remove the duplicates (keep the intended tensor) and re-export.",
        ),
        "IR_TOO_OLD": QCoreApplication.translate(
            "Hints",
            "Convert the model with a current exporter or onnx.version_converter.",
        ),
        "VERSION_UNRELEASED": QCoreApplication.translate(
            "Hints",
            "Re-export the model with a released exporter and opset. If a newer ONNX has been released since, "
            "update onnxpack.",
        ),
        "OPSET_TOO_OLD": QCoreApplication.translate(
            "Hints",
            "The smoke run shows whether the installed ONNX Runtime runs it; to be safe on other releases, "
            "convert it to a newer opset (onnx.version_converter.convert_version) and check it again.",
        ),
        "ORT_NEWER_THAN_KNOWN": QCoreApplication.translate(
            "Hints",
            "Only a newer ONNX Runtime can load it; the smoke run shows whether the installed one does. To "
            "reach older runtimes, re-export with a lower opset.",
        ),
        "ORT_TARGET_UNKNOWN": QCoreApplication.translate(
            "Hints",
            "Smoke-run the model with that ONNX Runtime release to be sure.",
        ),
        "CHECKER_CRASHED": QCoreApplication.translate(
            "Hints",
            "Do not ship this model; re-export it. onnxpack itself was not affected.",
        ),
        "CHECKER_TIMEOUT": QCoreApplication.translate(
            "Hints",
            "The model may be pathological; re-export it, or check it on a faster machine.",
        ),
        "CHECKER_FAILED": QCoreApplication.translate("Hints", "Re-export the model."),
        "ONNX_CHECKER": QCoreApplication.translate(
            "Hints",
            "Fix the model where the message points (or re-export it); ONNX Runtime may refuse it too.",
        ),
        "CHECKER_SKIPPED": QCoreApplication.translate(
            "Hints",
            "Update onnxpack (and its onnx) to check this model.",
        ),
        "SHAPE_INFERENCE_PARTIAL": QCoreApplication.translate(
            "Hints",
            "Harmless: ONNX Runtime infers those shapes with the data at load time.",
        ),
        "SHAPE_INFERENCE": QCoreApplication.translate(
            "Hints",
            "Types or shapes in the graph are inconsistent; ONNX Runtime will most likely refuse the model. "
            "Re-export it.",
        ),
        "TENSOR_NOT_EMBEDDABLE": QCoreApplication.translate(
            "Hints",
            "Keep the external-data layout for this model.",
        ),
        "DOMAIN_CONTRIB": QCoreApplication.translate("Hints", "The smoke run proves the installed ORT has them."),
        "DOMAIN_CUSTOM": QCoreApplication.translate(
            "Hints",
            "Ship the custom-op library with the model, or re-export without custom operators.",
        ),
        "OPSET_MISSING": QCoreApplication.translate("Hints", "Re-export the model."),
        "OPSET_DUPLICATE": QCoreApplication.translate(
            "Hints",
            "Each domain may appear once in opset_import; re-export the model.",
        ),
        "ORT_FORMAT": QCoreApplication.translate(
            "Hints",
            "Keep the original .onnx for merging, checking and re-bundling.",
        ),
        "ORT_LOAD_FAILED": QCoreApplication.translate(
            "Hints",
            "The file may be damaged or made by a newer ONNX Runtime than the one installed; regenerate it from "
            "the .onnx model.",
        ),
        "EXTDATA_NO_LOCATION": QCoreApplication.translate("Hints", "Re-export the model with its external data."),
        "EXTDATA_BAD_LOCATION": QCoreApplication.translate("Hints", "Re-export the model with its external data."),
        "EXTDATA_ABSOLUTE": QCoreApplication.translate(
            "Hints",
            "Move the data file next to the model and save the model with a relative location.",
        ),
        "EXTDATA_OUTSIDE_DIR": QCoreApplication.translate(
            "Hints",
            "Keep external data inside the model folder and use a plain relative file name.",
        ),
        "EXTDATA_BAD_KEY": QCoreApplication.translate("Hints", "Re-export the model with its external data."),
        "EXTDATA_OUT_OF_RANGE": QCoreApplication.translate(
            "Hints",
            "The data file is truncated or belongs to another model; export the model again (and make sure "
            "nothing modifies its folder meanwhile).",
        ),
        "TENSOR_SIZE_MISMATCH": QCoreApplication.translate("Hints", "Re-export the model."),
        "EXTDATA_UNREADABLE": QCoreApplication.translate("Hints", "Check the file's permissions."),
        "EXTDATA_SYMLINK": QCoreApplication.translate(
            "Hints",
            "Replace the link with the real file inside the model folder.",
        ),
        "EXTDATA_NOT_REGULAR": QCoreApplication.translate("Hints", "External data must be an ordinary file."),
        "EXTDATA_HARDLINK": QCoreApplication.translate(
            "Hints",
            "Replace the hard link with a real copy of the file.",
        ),
        "EXTDATA_UNKNOWN_KEY": QCoreApplication.translate(
            "Hints",
            "Remove the key (only location, offset, length and checksum are allowed), or export the model again.",
        ),
        "EXTDATA_STRING": QCoreApplication.translate("Hints", "Store string tensors inline."),
        "EXTDATA_ALSO_INLINE": QCoreApplication.translate("Hints", "Re-export the model with its external data."),
        "EXTDATA_IGNORED": QCoreApplication.translate(
            "Hints",
            "Remove the stray external_data entries or set data_location to EXTERNAL.",
        ),
        "EXTDATA_DUPLICATE_KEY": QCoreApplication.translate("Hints", "Re-export the model with its external data."),
        "EXTDATA_OVERLAP": QCoreApplication.translate(
            "Hints",
            "Overlapping tensors are unusual; check the exporter. A merge copies each separately.",
        ),
        "EXTDATA_BAD_CHECKSUM": QCoreApplication.translate("Hints", "Re-export the model with its external data."),
        "EXTDATA_LENGTH_MISMATCH": QCoreApplication.translate(
            "Hints",
            "The model and its data file do not match; export them again together.",
        ),
        "EXTDATA_CHECKSUM_MISMATCH": QCoreApplication.translate(
            "Hints",
            "The data file was modified or replaced; restore the original.",
        ),
        "MODEL_VERSION_TAGS": QCoreApplication.translate(
            "Hints",
            "Release managers reading model_version see only MAJOR.MINOR.PATCH.",
        ),
        "SIGNING_KEY_READABLE": QCoreApplication.translate("Hints", "Keep the private key readable by you only."),
        "SMOKE_FAILED": QCoreApplication.translate(
            "Hints",
            "Check the ONNX Runtime installation, or get the bundle again from its publisher.",
        ),
        "SMOKE_INPUT_UNSUPPORTED": QCoreApplication.translate(
            "Hints",
            "Only tensor inputs of numeric, bool and string types can be generated or loaded.",
        ),
        "SMOKE_NONDETERMINISTIC": QCoreApplication.translate(
            "Hints",
            "The model is non-deterministic (random operators?); equality checks against it are not meaningful.",
        ),
        "COMPARE_EXTRA_OUTPUT": QCoreApplication.translate("Hints", "Compare models with the same outputs."),
        "COMPARE_MISSING_OUTPUT": QCoreApplication.translate("Hints", "Compare models with the same outputs."),
        "COMPARE_MISMATCH": QCoreApplication.translate(
            "Hints",
            "Raise the tolerance if small differences are expected (e.g. an optimized graph).",
        ),
        "COMPARE_NOT_BITWISE": QCoreApplication.translate(
            "Hints",
            "Expected for re-optimized graphs; a merged copy of the same model should be bitwise identical.",
        ),
        "SMOKE_CONSTANT_OUTPUT": QCoreApplication.translate(
            "Hints",
            "This can be normal (e.g. a mask); otherwise the model may ignore its input.",
        ),
        "SMOKE_OUTPUT_NOT_TENSOR": QCoreApplication.translate(
            "Hints",
            "If an app reads it with onnxruntime-node, re-export the model with tensor outputs (scikit-learn "
            "classifiers: skl2onnx's option zipmap=False).",
        ),
        "MANIFEST_MISSING": QCoreApplication.translate(
            "Hints",
            "This is not an onnxpack bundle, or its manifest was removed.",
        ),
        "MANIFEST_SCHEMA": QCoreApplication.translate(
            "Hints",
            "This bundle was made by another tool or a newer onnxpack, or it was modified after it was built.",
        ),
        "SMOKE_MISMATCH": QCoreApplication.translate(
            "Hints",
            "The bundle was modified after it was built, or the ONNX Runtime differs: re-run with the recorded "
            "ONNX Runtime version.",
        ),
        "SMOKE_SKIPPED": QCoreApplication.translate("Hints", "Fix the problems above first."),
        "SIGNATURE_MISSING": QCoreApplication.translate(
            "Hints",
            "Ask the publisher for a signed bundle; without one, you cannot tell who made it.",
        ),
        "SIGNATURE_INVALID": QCoreApplication.translate(
            "Hints",
            "The bundle was modified after it was built, or it is checked with the wrong kind of trust: give "
            "the publisher's key or certificate.",
        ),
        "SIGNATURE_UNSUPPORTED": QCoreApplication.translate(
            "Hints",
            "Sign the folder with model-signing's default (file) serialization.",
        ),
        "BAD_NAME": QCoreApplication.translate(
            "Hints",
            "Use a plain file name such as 'victory' (letters, digits, '-', '_', '.').",
        ),
        "BAD_SOURCE_DATE_EPOCH": QCoreApplication.translate("Hints", "Set it to a Unix timestamp, or unset it."),
        "BAD_VERSION": QCoreApplication.translate(
            "Hints",
            "Use MAJOR.MINOR.PATCH, e.g. 1.0.0 or 2.1.0-rc.1, with no leading 'v' and no leading zeros.",
        ),
        "BUNDLE_CHANGED": QCoreApplication.translate(
            "Hints",
            "Make sure nothing writes the bundle while it is verified, and verify it again.",
        ),
        "COMPARE_INPUTS": QCoreApplication.translate("Hints", "Only models with the same inputs can be compared."),
        "COMPARE_RUN": QCoreApplication.translate(
            "Hints",
            "The two models do not behave alike; check that you compare the right files.",
        ),
        "INPUT_DIGEST": QCoreApplication.translate(
            "Hints",
            "The input file changed since the recorded run; use the original file.",
        ),
        "INPUT_UNKNOWN": QCoreApplication.translate("Hints", "Check the spelling; names are case-sensitive."),
        "INPUT_UNSUPPORTED": QCoreApplication.translate("Hints", "Only tensor inputs can be supplied."),
        "MANIFEST_JSON": QCoreApplication.translate(
            "Hints",
            "The manifest was damaged or edited by hand; rebuild the bundle.",
        ),
        "MANIFEST_TOO_LARGE": QCoreApplication.translate("Hints", "This is not an onnxpack manifest."),
        "MERGE_NOT_EQUAL": QCoreApplication.translate(
            "Hints",
            "This is a bug in onnxpack's merge (or a source file changed while it was read); please report it.",
        ),
        "MODEL_BAD_TEXT": QCoreApplication.translate(
            "Hints",
            "The file is corrupted or was not written by an ONNX exporter; export the model again.",
        ),
        "MODEL_IS_TEXT": QCoreApplication.translate(
            "Hints",
            "Textual ONNX is not supported; save the model with onnx.save().",
        ),
        "MODEL_TOO_LARGE": QCoreApplication.translate(
            "Hints",
            "Protobuf cannot parse it. Re-export with external data (PyTorch: external_data=True).",
        ),
        "MODEL_TRUNCATED": QCoreApplication.translate(
            "Hints",
            "The file is damaged, or something wrote it while it was read; try again.",
        ),
        "ORT_CONVERT": QCoreApplication.translate(
            "Hints",
            "Check that the model loads in a smoke run; custom operators cannot be converted.",
        ),
        "ORT_LOAD": QCoreApplication.translate(
            "Hints",
            "Check that the model suits the installed ONNX Runtime, or re-export it.",
        ),
        "ORT_TIMEOUT": QCoreApplication.translate(
            "Hints",
            "Try again on a faster machine, or bundle without the ORT-format variant.",
        ),
        "ORT_TOO_LARGE": QCoreApplication.translate(
            "Hints",
            "Ship models this large in ONNX format with external data instead of the ORT format.",
        ),
        "OUTPUT_BAD_NAME": QCoreApplication.translate(
            "Hints",
            "Choose an output name without '..', slashes or ':'.",
        ),
        "OUTPUT_ESCAPES": QCoreApplication.translate("Hints", "Rename the output."),
        "OUTPUT_IS_DIR": QCoreApplication.translate("Hints", "Give the path of a file."),
        "OUTPUT_IS_FILE": QCoreApplication.translate("Hints", "Give a folder."),
        "OUTPUT_IS_INPUT": QCoreApplication.translate(
            "Hints",
            "Choose another output; onnxpack never modifies its inputs.",
        ),
        "OUTPUT_IS_SYMLINK": QCoreApplication.translate("Hints", "Remove the link or choose another output name."),
        "OUTPUT_NO_SPACE": QCoreApplication.translate("Hints", "Free some space or choose another output folder."),
        "OUTPUT_WRITE": QCoreApplication.translate("Hints", "Check that the folder exists and is writable."),
        "RECIPE": QCoreApplication.translate("Hints", "Use a recipe written by onnxpack."),
        "RECIPE_OUTSIDE_BUNDLE": QCoreApplication.translate(
            "Hints",
            "The bundle was not made by onnxpack or was altered. Do not trust it.",
        ),
        "SIGNING_CERTIFICATE": QCoreApplication.translate(
            "Hints",
            "Give the PEM certificate issued for this private key, with the digitalSignature or codeSigning usage.",
        ),
        "SIGNING_UNAVAILABLE": QCoreApplication.translate(
            "Hints",
            "Use onnxpack installed with pip, with its signing support (pip install '.[sign]' in the onnxpack "
            "checkout).",
        ),
        "SIGSTORE_FAILED": QCoreApplication.translate("Hints", "Try again, or sign with a key instead."),
        "SMOKE_CRASH": QCoreApplication.translate(
            "Hints",
            "The model is probably malformed or triggers an ONNX Runtime bug; check the model, or try another "
            "onnxruntime release.",
        ),
        "SMOKE_TOO_LARGE": QCoreApplication.translate(
            "Hints",
            "Move large tensors inside subgraphs or Constant nodes to main-graph initializers.",
        ),
        "SOURCE_CHANGED": QCoreApplication.translate(
            "Hints",
            "Wait until whatever writes the model has finished (an export or a copy still running?), then try again.",
        ),
        "INTERNAL": QCoreApplication.translate(
            "Hints",
            "This is a bug in onnxpack; please report it with the details below.",
        ),
        "USAGE": QCoreApplication.translate("Hints", "Change the settings as the message says."),
    }
    hints.update(
        dict.fromkeys(
            (
                "FILE_MISSING",
                "FILE_EXTRA",
                "FILE_SIZE",
                "FILE_HASH",
                "CHECKSUMS_MISMATCH",
                "MANIFEST_INCONSISTENT",
                "MANIFEST_SELF",
                "MANIFEST_BAD_PATH",
                "MANIFEST_DUPLICATE",
                "SIGNATURE_KEY",
                "SIGNATURE_MISMATCH",
            ),
            tamper,
        )
    )
    hints.update(
        dict.fromkeys(
            (
                "ZIP_DAMAGED",
                "ZIP_NOT_ZIP",
                "ZIP_TRUNCATED",
                "ZIP_TRAILING_DATA",
                "ZIP_MULTIDISK",
                "ZIP_TOO_LARGE",
                "ZIP_GAP",
                "ZIP_OVERLAP",
                "ZIP_BAD_DIRECTORY",
                "ZIP_BAD_END",
                "ZIP_BAD_NAME",
                "ZIP_ENCRYPTED",
                "ZIP_COMPRESSION",
                "ZIP_SYMLINK",
                "ZIP_BAD_SIZE",
                "ZIP_RATIO",
                "ZIP_DIRECTORY",
                "ZIP_SPECIAL",
                "ZIP_BAD_HEADER",
                "ZIP_HEADER_MISMATCH",
                "ZIP_DUPLICATE",
                "ZIP_NAME_CONFLICT",
                "ZIP_LEADING_DATA",
            ),
            damaged,
        )
    )
    return hints


def gui_hint(code: str | None, hint: str | None, params: Mapping[str, Any] | None = None) -> str | None:
    """The app's hint for ``code``: its own words when it has them; else the registry's remedy in the app's
    language, its options named by the app's controls (when the engine gave that remedy: ``params`` are the values
    it was made with); else, outside English, the engine's hint translated; else the engine's ``hint``."""
    own = _hints().get(code or "")
    if own is not None:
        return own
    entry = code_of(code)
    values = dict(params or {})
    variant = str(values.get("variant") or "") or None
    template = entry.hint_template(variant) if entry is not None else ""
    if hint and entry is not None and template and fields(template) <= set(values) and (
        hint == entry.remedy(variant, **values)  # the registered remedy, not words of the call site's own
    ):
        translated = QCoreApplication.translate("Hints", template) != template
        text = remedy_text(entry, values)
        if text is not None and (current_language() == "en" or translated):
            return text
    if hint and current_language() != "en":
        if hint in ERROR_HINT_TEXTS:
            return QCoreApplication.translate("ErrorHints", hint)
        return _engine_hints().get(code or "", hint)
    return hint


# The codes whose hint the app words itself (tests check each has a Japanese translation).
GUI_HINT_CODES = tuple(sorted(_hints()))
# The codes whose engine hint the app translates.
ENGINE_HINT_CODES = tuple(sorted(_engine_hints()))
