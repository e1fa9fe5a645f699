"""Preview a release against the previous bundle without writing anything (the GUI's suggested version)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .. import steps
from ..checks.validate import validate_model
from ..filehash import sha256_file
from ..model import codes as model_codes
from ..progress import CancelToken, ProgressCallback, report
from .manifest_build import compatibility_of, interface_of
from .sources import source_files_of
from .versions import ReleaseDiff, diff_manifests

__all__ = ["preview_release"]



def preview_release(
    previous: str | os.PathLike[str],
    model: str | os.PathLike[str],
    data_dir: str | os.PathLike[str] | None = None,
    *,
    target_ort: str | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
) -> ReleaseDiff:
    """The release diff ``build_bundle`` would record for ``model`` against ``previous`` (OLD.zip or its
    manifest.json): the same interface, runtime and content rules, so ``.suggested`` is the version the
    bundle would accept without ``--force``. Reads the source files once to hash them; writes nothing."""
    from .verify.verify import read_bundle_manifest

    prev = read_bundle_manifest(Path(previous), cancel=cancel)
    val = validate_model(model, data_dir, target_ort=target_ort, run_checker=False, cancel=cancel)
    m = val.inspection.model
    if m is None:
        raise model_codes.MODEL_IS_ORT.error(Path(model).name, variant="compare", file=Path(model).name)
    inputs, outputs = interface_of(m)
    files = [val.inspection.location.model, *source_files_of(val)]  # as build_bundle's provenance
    total = sum(Path(p).stat().st_size for p in files)
    done = 0
    hashes: list[dict[str, Any]] = []
    for p in files:
        report(progress, "inspect", done, total, steps.HASHING, file=Path(p).name)
        hashes.append({"path": Path(p).name, "sha256": sha256_file(p, cancel).hexdigest})
        done += Path(p).stat().st_size
    report(progress, "inspect", total, total, steps.DONE)
    current = {
        "inspection": {
            "inputs": inputs,
            "outputs": outputs,
            "opsets": dict(val.inspection.opsets),
            "metadata": dict(val.inspection.metadata),
        },
        "compatibility": compatibility_of(val, m, target_ort),
        "provenance": {"files": hashes},
    }
    return diff_manifests(prev, current, source=str(previous))
