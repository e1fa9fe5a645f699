"""How to fix a problem, in the desktop app's words and language.

A remedy is registered with its code (onnxpack.core.codes) and names options as data; the app renders it in its
language with the options as its own controls (gui/catalog.py). ``_hints`` words the remedies the window offers a
better way for ("choose the file with File → Locate data file…" rather than an option), in every language. An error
of a class's code (INPUT, USAGE, ...) has its remedy registered with its variant, like any other. Any other hint
stays the engine's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QCoreApplication

from onnxpack.core.codes import fields

from .catalog import code_of, option_label, remedy_text

__all__ = ["GUI_HINT_CODES", "gui_hint", "option_label"]

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


def gui_hint(code: str | None, hint: str | None, params: Mapping[str, Any] | None = None) -> str | None:
    """The app's hint for ``code``: its own words when it has them; else the registry's remedy in the app's
    language, its options named by the app's controls (when the engine gave that remedy: ``params`` are the values
    it was made with); else, outside English, the engine's hint translated; else the engine's ``hint``."""
    own = _hints().get(code or "")
    if own is not None:
        return own
    entry = code_of(code)
    values = dict(params or {})
    message_variant = values.pop("variant", None)
    variant = str(values.pop("hint_variant", None) or message_variant or "") or None
    template = entry.hint_template(variant) if entry is not None else ""
    if hint and entry is not None and template and fields(template) <= set(values) and (
        hint == entry.remedy(variant, **values)  # the registered remedy, not words of the call site's own
    ):
        text = remedy_text(entry, {**values, "variant": variant})
        if text is not None:
            return text
    return hint


# The codes whose hint the app words itself (tests check each has a Japanese translation).
GUI_HINT_CODES = tuple(sorted(_hints()))
