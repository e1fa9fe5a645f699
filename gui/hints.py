"""How to fix a problem, in the desktop app's words and language: the engine's hints name command-line flags
("give its folder with --data-dir", "pass --force"); here they name the window's own controls, translated by Qt
Linguist. Codes without an entry keep the engine's hint."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

__all__ = ["GUI_HINT_CODES", "gui_hint"]


def _hints() -> dict[str, str]:
    # Built on every call, so a language switch applies at once.
    replace = QCoreApplication.translate(
        "Hints", 'tick "Replace an existing bundle, or allow a version not above the previous one" in the Bundle tab'
    )
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
        "IR_LOWERABLE": QCoreApplication.translate(
            "Hints", 'Tick "Lower the IR version for the target runtime if needed" in the Bundle tab.'
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
            "%1", replace
        ),
        "VERSION_NOT_GREATER": QCoreApplication.translate("Hints", "Use the suggested version, or %1.").replace(
            "%1", replace
        ),
        "ABOUT_LABELS": QCoreApplication.translate(
            "Hints",
            "Give one class label per output class, in order, under Class labels in the Bundle tab "
            "(or %1 to keep them).",
        ).replace("%1", replace),
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
    }


def gui_hint(code: str | None, hint: str | None) -> str | None:
    """The app's hint for ``code`` when it has its own words for it, else the engine's ``hint``."""
    return _hints().get(code or "", hint)


#: The codes whose hint the app words itself (tests check each has a Japanese translation).
GUI_HINT_CODES = tuple(sorted(_hints()))
