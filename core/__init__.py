"""onnxpack engine: inspect, validate, merge, smoke-run and bundle ONNX models (no Qt here).

The engine is grouped by concern, each floor importing only the floors below it (tests/test_architecture.py):

* ``onnxpack.core`` itself — shared basics: errors, findings, progress and cancel, units, names, atomic writes,
  strict JSON, resources, child processes;
* ``onnxpack.core.model`` — the model file: wire format, skeleton reader, tensors, external data, merge and proof;
* ``onnxpack.core.checks`` — inspection, validation (onnx checker child), ORT compatibility, retargeting;
* ``onnxpack.core.runtime`` — ONNX Runtime: inputs, the smoke run and its child, the ORT format, --prove-ort;
* ``onnxpack.core.release`` — bundle, manifest, receiver README, ZIP writer/checks, verify, signing, versions.

The names below are the engine's public API, importable from ``onnxpack.core`` whatever module holds them; they
are loaded on first use, so ``import onnxpack.core`` stays cheap (the GUI reads ``__version__`` at start-up).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: public name -> the module (under onnxpack.core) that defines it
_API: dict[str, str] = {
    **dict.fromkeys(("Cancelled", "InputError", "InternalError", "OnnxpackError", "OutputError"), "errors"),
    **dict.fromkeys(("Finding", "Severity"), "findings"),
    **dict.fromkeys(("CancelToken", "ProgressCallback", "ProgressEvent"), "progress"),
    **dict.fromkeys(("Inspection", "inspect_model"), "checks.inspection"),
    **dict.fromkeys(("Validation", "validate_model"), "checks.validate"),
    "merge_model": "model.merge.merge",
    **dict.fromkeys(("SmokeOptions", "SmokeResult", "compare_models", "smoke_test"), "runtime.smoke"),
    "convert_to_ort": "runtime.ortformat",
    **dict.fromkeys(("BundleOptions", "BundleResult", "build_bundle"), "release.bundle"),
    **dict.fromkeys(("VerifyReport", "verify_bundle"), "release.verify.verify"),
}

__all__ = [
    "BundleOptions", "BundleResult", "CancelToken", "Cancelled", "Finding", "InputError", "Inspection", "InternalError",
    "OnnxpackError", "OutputError", "ProgressCallback", "ProgressEvent", "Severity", "SmokeOptions", "SmokeResult",
    "Validation", "VerifyReport", "__version__", "build_bundle", "compare_models", "convert_to_ort", "inspect_model",
    "merge_model", "smoke_test", "validate_model", "verify_bundle",
]

if TYPE_CHECKING:
    from .checks.inspection import Inspection, inspect_model
    from .checks.validate import Validation, validate_model
    from .errors import Cancelled, InputError, InternalError, OnnxpackError, OutputError
    from .findings import Finding, Severity
    from .model.merge.merge import merge_model
    from .progress import CancelToken, ProgressCallback, ProgressEvent
    from .release.bundle import BundleOptions, BundleResult, build_bundle
    from .release.verify.verify import VerifyReport, verify_bundle
    from .runtime.ortformat import convert_to_ort
    from .runtime.smoke import SmokeOptions, SmokeResult, compare_models, smoke_test


def registry() -> dict[str, Any]:
    """Every finding and error code (name → onnxpack.core.codes.Code): imports each floor's ``codes`` module, and its
    ``apphints`` (the desktop app's own remedies, Code.app_hint)."""
    from . import apphints, classcodes, codes, errorcodes  # noqa: F401
    from .checks import apphints as _checks_app  # noqa: F401
    from .checks import codes as _checks  # noqa: F401  (each import registers its floor's codes)
    from .model import apphints as _model_app  # noqa: F401
    from .model import codes as _model  # noqa: F401
    from .release import apphints as _release_app  # noqa: F401
    from .release import codes as _release  # noqa: F401
    from .release import foldercodes as _folder  # noqa: F401
    from .runtime import apphints as _runtime_app  # noqa: F401
    from .runtime import codes as _runtime  # noqa: F401
    from .runtime import provecodes as _prove  # noqa: F401

    return dict(sorted(codes.CODES.items()))


def option_flags() -> dict[str, str]:
    """Every option a remedy can name (``{opt:NAME}``) -> its flag, from the flag groups every command is built from
    (core/release/flaggroups.py; core/codes.py OPTION_FLAGS reads it on first use)."""
    from .release.flaggroups import option_flags as table

    return table()


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'onnxpack.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
