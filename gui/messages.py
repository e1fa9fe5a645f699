"""Finding messages in the desktop app's language: a finding's stable code plus its parameters rendered from the
"Findings" catalog that Qt Linguist translates. The command line, manifests and JSON keep the engine's English
message; a code without an entry here (or without the parameters it needs) is shown in English as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication

from .formatting import format_bytes

__all__ = ["GUI_MESSAGE_CODES", "gui_message"]


def _sub(text: str, **values: Any) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def _size(p: dict[str, Any]) -> str:
    size = format_bytes(int(p["bytes"]))
    if p.get("approx"):
        return QCoreApplication.translate("Findings", "about {size}").replace("{size}", size)
    return size


def _renderers() -> dict[str, Callable[[dict[str, Any]], str]]:
    # Every text is a literal QCoreApplication.translate("Findings", …) call: that is what lupdate collects.
    return {
        "EXTDATA_MISSING": lambda p: _sub(
            QCoreApplication.translate(
                "Findings", "External data file '{file}' was not found (looked for {looked_for})"
            ),
            file=p["file"],
            looked_for=p["looked_for"],
        ),
        "EXTDATA_UNALIGNED": lambda p: _sub(
            QCoreApplication.translate(
                "Findings",
                "{unaligned} of {total} external tensors start at offsets not aligned to 4 KiB (e.g. '{tensor}' at "
                "{offset}); ONNX Runtime may then read them into memory instead of memory-mapping them",
            ),
            unaligned=p["unaligned"],
            total=p["total"],
            tensor=p["tensor"],
            offset=p["offset"],
        ),
        "EXTDATA_ALIGNED": lambda p: _sub(
            QCoreApplication.translate(
                "Findings", "All {total} external tensors start at 4 KiB-aligned offsets ({aligned64} also at 64 KiB)"
            ),
            total=p["total"],
            aligned64=p["aligned64"],
        ),
        "MERGE_FITS": lambda p: _sub(
            QCoreApplication.translate(
                "Findings", "Merged into one file, {model} would be {size}, under the 2 GiB protobuf limit"
            ),
            model=p["model"],
            size=_size(p),
        ),
        "MERGE_TOO_LARGE": lambda p: _sub(
            QCoreApplication.translate(
                "Findings",
                "Merged into one file, {model} would be {size}, above protobuf's 2 GiB limit; it must keep "
                "external data",
            ),
            model=p["model"],
            size=_size(p),
        ),
        "IR_LOWERABLE": lambda p: _sub(
            QCoreApplication.translate(
                "Findings",
                "{model} uses nothing newer than IR {min_ir}: lowering ir_version from {ir} to {lowered} would let "
                "ONNX Runtime {version} (and newer) load it",
            ),
            **{k: p[k] for k in ("model", "min_ir", "ir", "lowered", "version")},
        ),
        "DOMAIN_CONTRIB": lambda p: _sub(
            QCoreApplication.translate(
                "Findings",
                "{model} uses ONNX Runtime contrib operators (domain '{domain}'); they ship with standard ORT "
                "packages but are not covered by the opset table",
            ),
            model=p["model"],
            domain=p["domain"],
        ),
        "DOMAIN_LOCAL_FUNCTIONS": lambda p: _sub(
            QCoreApplication.translate(
                "Findings", "{model} imports domain '{domain}', defined by its own model-local functions"
            ),
            model=p["model"],
            domain=p["domain"],
        ),
        "DOMAIN_CUSTOM": lambda p: _sub(
            QCoreApplication.translate(
                "Findings",
                "{model} uses operators of the non-standard domain '{domain}'; ONNX Runtime needs a custom-op "
                "library registered for them",
            ),
            model=p["model"],
            domain=p["domain"],
        ),
        "OPSET_MISSING": lambda p: _sub(
            QCoreApplication.translate(
                "Findings", "{model} uses operators of domain '{domain}' but does not import that operator set"
            ),
            model=p["model"],
            domain=p["domain"],
        ),
        "CHECKER_CRASHED": lambda p: _sub(
            QCoreApplication.translate(
                "Findings",
                "The onnx checker crashed on {model} ({detail}); the model is malformed in a way that breaks "
                "native code",
            ),
            model=p["model"],
            detail=p["detail"],
        ),
        "CHECKER_TIMEOUT": lambda p: _sub(
            QCoreApplication.translate("Findings", "The onnx checker did not finish on {model} ({detail})"),
            model=p["model"],
            detail=p["detail"],
        ),
        "CHECKER_FAILED": lambda p: _sub(
            QCoreApplication.translate("Findings", "The onnx checker could not run on {model}: {detail}"),
            model=p["model"],
            detail=p["detail"],
        ),
        "ONNX_CHECKER": lambda p: _sub(
            QCoreApplication.translate("Findings", "onnx checker rejects {model}: {detail}"),
            model=p["model"],
            detail=p["detail"],
        ),
        "SHAPE_INFERENCE_PARTIAL": lambda p: _sub(
            QCoreApplication.translate(
                "Findings",
                "Shape inference of {model} stopped where it needed the values of a large or external tensor: {detail}",
            ),
            model=p["model"],
            detail=p["detail"],
        ),
        "SHAPE_INFERENCE": lambda p: _sub(
            QCoreApplication.translate("Findings", "Shape inference fails on {model}: {detail}"),
            model=p["model"],
            detail=p["detail"],
        ),
        "TENSOR_NOT_EMBEDDABLE": lambda p: _sub(
            QCoreApplication.translate(
                "Findings", "Tensor {tensor} holds {size} (≥ 2 GiB): it can only ever live in external data"
            ),
            tensor=p["tensor"],
            size=format_bytes(int(p["bytes"])),
        ),
        "FILE_MISSING": lambda p: _sub(
            QCoreApplication.translate("Findings", "{path} is listed in the manifest but not in the archive"),
            path=p["path"],
        ),
        "FILE_EXTRA": lambda p: _sub(
            QCoreApplication.translate("Findings", "{path} is in the archive but not listed in the manifest"),
            path=p["path"],
        ),
        "FILE_SIZE": lambda p: _sub(
            QCoreApplication.translate("Findings", "{path} has {size} bytes; the manifest says {listed}"),
            path=p["path"],
            size=p["size"],
            listed=p["listed"],
        ),
        "FILE_HASH": lambda p: _sub(
            QCoreApplication.translate("Findings", "{path}: SHA-256 is {actual}, the manifest says {listed}"),
            path=p["path"],
            actual=p["actual"],
            listed=p["listed"],
        ),
        "SIGNATURE_MISSING": lambda p: {
            "absent": QCoreApplication.translate(
                "Findings", "The bundle has no model.sig, so it is not signed (or its signature was removed)"
            ),
            "stripped": QCoreApplication.translate(
                "Findings",
                "The manifest says the bundle is signed, but model.sig is missing: the signature was removed",
            ),
        }[p["variant"]],
        "SIGNATURE_MISMATCH": lambda p: _sub(
            {
                "unsigned": QCoreApplication.translate(
                    "Findings", "{path} is not covered by the signature (added after signing)"
                ),
                "changed": QCoreApplication.translate(
                    "Findings", "{path} is not the file that was signed (SHA-256 {actual}, signed {signed})"
                ),
                "removed": QCoreApplication.translate("Findings", "{path} was signed but is missing from the archive"),
            }[p["variant"]],
            path=p["path"],
            actual=p.get("actual", ""),
            signed=p.get("signed", ""),
        ),
        "ORT_OLDEST": lambda p: _sub(
            QCoreApplication.translate(
                "Findings",
                "Oldest ONNX Runtime that loads {model}: {version} (IR {ir}, ai.onnx opset {opset}{ml}; {source})",
            ),
            model=p["model"],
            version=p["version"],
            ir=p["ir"],
            opset=p["opset"],
            ml=_sub(QCoreApplication.translate("Findings", ", ai.onnx.ml opset {ml_opset}"), ml_opset=p["ml_opset"])
            if p.get("ml_opset") is not None
            else "",
            source=QCoreApplication.translate(
                "Findings", "limits measured on that release, not from ORT's official table"
            )
            if p["derived"]
            else QCoreApplication.translate("Findings", "ORT's official table"),
        ),
    }


#: The codes the app renders in its own language (tests check each has a Japanese translation).
GUI_MESSAGE_CODES = tuple(sorted(_renderers()))


def gui_message(finding: Any) -> str:
    """``finding``'s message in the app's language when the catalog has its code and parameters, else English."""
    code, params = getattr(finding, "code", ""), getattr(finding, "params", None) or {}
    render = _renderers().get(code)
    if render is None or not params:
        return str(getattr(finding, "message", ""))
    try:
        return render(params)
    except (KeyError, TypeError, ValueError):  # a finding made without every parameter: its English message
        return str(getattr(finding, "message", ""))
