"""Finding messages in the desktop app's language: a finding's stable code plus its parameters rendered from the
"Findings" catalog that Qt Linguist translates. The command line, manifests and JSON keep the engine's English
message; a code without an entry here (or without the parameters it needs) is shown in English as before."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication

from .formatting import format_bytes

__all__ = ["GUI_MESSAGE_CODES", "gui_message"]

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _templates() -> dict[str, str | dict[str, str]]:
    """Code → its text with ``{param}`` placeholders, or variant → text where a finding names its variant.

    Built on every call, so a language switch applies at once. Every text is a literal
    QCoreApplication.translate("Findings", …) call: that is what lupdate collects."""
    return {
        "EXTDATA_MISSING": QCoreApplication.translate(
            "Findings", "External data file '{file}' was not found (looked for {looked_for})"
        ),
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
            "Oldest ONNX Runtime that loads {model}: {version} (IR {ir}, ai.onnx opset {opset}{ml}; {source})",
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


#: Placeholders some codes compute from their parameters (a size in words, the ORT table's source).
_DERIVED: dict[str, Callable[[dict[str, Any]], dict[str, str]]] = {
    "MERGE_FITS": _size,
    "MERGE_TOO_LARGE": _size,
    "TENSOR_NOT_EMBEDDABLE": _size,
    "ORT_OLDEST": _ort_source,
}

#: The codes the app renders in its own language (tests check each has a Japanese translation).
GUI_MESSAGE_CODES = tuple(sorted(_templates()))


def gui_message(finding: Any) -> str:
    """``finding``'s message in the app's language when the catalog has its code and parameters, else English."""
    code, params = getattr(finding, "code", ""), getattr(finding, "params", None) or {}
    template = _templates().get(code)
    if template is None or not params:
        return str(getattr(finding, "message", ""))
    try:
        if isinstance(template, dict):
            template = template[params["variant"]]
        derive = _DERIVED.get(code)
        values = {**params, **derive(params)} if derive is not None else params
        return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), template)
    except (KeyError, TypeError, ValueError):  # a finding made without every parameter: its English message
        return str(getattr(finding, "message", ""))
