"""The GUI's only doorway to the engine: job bodies that call ``core`` (no engine logic lives here)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from onnxpack.core.progress import CancelToken, ProgressCallback, ProgressEvent

from .worker import JobFunction

__all__ = [
    "bundle_job",
    "cli_command",
    "inspect_job",
    "make_bundle_options",
    "release_job",
    "suggest_job",
    "verify_job",
    "warm_up_job",
]

#: What the jobs below import; the window shows without them (tests/test_architecture.py checks it).
ENGINE_MODULES = (
    "onnxpack.core.checks.validate", "onnxpack.core.release.verify", "onnxpack.core.release.bundle",
    "onnxpack.core.runtime.smoke",
    "onnxpack.core.release.metadata", "onnxpack.core.release.preview",
)  # not onnxruntime: it runs in child processes only, and importing it holds the GIL (a GUI stall)


def warm_up_job() -> JobFunction:
    """Import the engine (onnx, numpy: ~0.3 s) once the window is up, on the inspection
    queue's thread, so that the first dropped model does not wait for it and the window is not kept
    from showing by it."""

    def run(progress: ProgressCallback, cancel: CancelToken) -> Any:
        import importlib

        for name in ENGINE_MODULES:
            if cancel.cancelled:
                break
            importlib.import_module(name)
        return None

    return run


def inspect_job(path: Path, target_ort: str | None, data_dir: Path | None = None) -> JobFunction:
    """Inspect and validate a model (structure only; weights are never loaded); ``data_dir`` holds its external
    data files when they are not beside it."""

    def run(progress: ProgressCallback, cancel: CancelToken) -> Any:
        from onnxpack.core.checks.validate import validate_model

        val = validate_model(path, data_dir, target_ort=target_ort, progress=progress, cancel=cancel)
        _ = val.inspection.merged_size  # sized on first use (core/checks/inspection.py): here, not on the GUI thread
        return val

    return run


def release_job(folder: Path, target_ort: str | None, exclude: tuple[str, ...] = ()) -> JobFunction:
    """Read a release folder as ``onnxpack bundle FOLDER`` would (core.release.folder.scan_folder: its models found by
    content, its assets, what is left out; what cannot ship is refused with its RELEASE_* code), then check each model
    as a dropped model is checked (structure only). Returns a gui.state.ReleaseScan."""

    def run(progress: ProgressCallback, cancel: CancelToken) -> Any:
        from onnxpack.core.checks.validate import validate_model
        from onnxpack.core.progress import STEPS
        from onnxpack.core.release.folder import scan_folder

        from .state import ReleaseScan

        tree = scan_folder(folder, exclude=exclude, cancel=cancel)
        validations = []
        for i, model in enumerate(tree.models):
            if progress is not None:
                progress(ProgressEvent("inspect", i, len(tree.models), model.member, STEPS))
            val = validate_model(model.path, None, target_ort=target_ort, progress=progress, cancel=cancel)
            _ = val.inspection.merged_size  # sized here, not on the GUI thread
            validations.append(val)
        return ReleaseScan(tree, tuple(validations))

    return run


def verify_job(path: Path, smoke: bool = False) -> JobFunction:
    """Verify a bundle (optionally re-running its smoke recipe)."""

    def run(progress: ProgressCallback, cancel: CancelToken) -> Any:
        from onnxpack.core.release.verify import verify_bundle

        return verify_bundle(path, smoke=smoke, progress=progress, cancel=cancel)

    return run


def _same(value: Any) -> Any:
    return value


def _text(value: str | None) -> str | None:
    return value or None


def _stripped(value: str) -> str | None:
    return value.strip() or None


def _path(value: str) -> Path | None:
    return Path(value.strip()) if value.strip() else None


def _authors(value: str) -> list[str]:
    return [a.strip() for a in value.split(";") if a.strip()]


def _labels(value: str) -> list[str] | None:
    return [label.strip() for label in value.split(",")] if value.strip() else None


#: The Bundle form's entries that are not already a BundleOptions field as it is: the field each fills
#: (``about.NAME``, ``smoke.NAME``: the nested ReleaseInfo's and SmokeOptions') and how the form's text becomes its
#: value. Every other entry is the field of its name (model, out_dir, version, target_ort, the check boxes…).
_FORM_FIELDS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "name": ("name", _text),
    "previous": ("previous", _path),
    "prove_ort": ("prove_ort", _text),
    "sign_key": ("sign_key", _path),
    "license": ("about.license", _stripped),
    "authors": ("about.authors", _authors),  # separated by ';'
    "homepage": ("about.homepage", _stripped),
    "labels": ("about.labels", _labels),  # separated by ','
    "dims": ("smoke.dims", dict),
    "inputs": ("smoke.inputs", dict),
}


def make_bundle_options(**form: Any) -> Any:
    """``BundleOptions`` from the Bundle form (a row's model, name, version, previous bundle, dims, inputs and labels,
    and the settings every row shares): each entry through ``_FORM_FIELDS``, the object made by
    ``BundleOptions.from_fields`` (and checked by the engine when the bundle runs, as from the command line)."""
    from onnxpack.core.release.options import BundleOptions

    fields: dict[str, Any] = {}
    for key, value in form.items():
        name, convert = _FORM_FIELDS.get(key, (key, _same))
        fields[name] = convert(value)
    return BundleOptions.from_fields(fields)


def bundle_job(options: Any) -> JobFunction:
    """Build the bundle. The output folder the user picked is created if missing, and removed again
    when the run fails or is cancelled and left it empty (a failed run leaves nothing behind)."""

    def run(progress: ProgressCallback, cancel: CancelToken) -> Any:
        from onnxpack.core.release.bundle import build_bundle

        out_dir = Path(options.out_dir)
        created = []
        for folder in reversed([out_dir, *out_dir.parents]):
            if not folder.exists():
                created.append(folder)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            from onnxpack.core.atomic import output_error_from_oserror

            raise output_error_from_oserror(e, out_dir) from None
        try:
            return build_bundle(options, progress=progress, cancel=cancel)
        except BaseException:
            for folder in reversed(created):
                with contextlib.suppress(OSError):
                    folder.rmdir()  # only succeeds while empty
            raise

    return run


def cli_command(options: Any) -> str:
    from onnxpack.core.release.bundle import cli_command as command

    return str(command(options))


def suggest_job(previous: Path, model: Path, data_dir: Path | None, target_ort: str | None) -> JobFunction:
    """The release diff against a previous bundle; its ``.suggested`` version and ``.bump`` pre-fill the form."""

    def run(progress: ProgressCallback, cancel: CancelToken) -> Any:
        from onnxpack.core.release.preview import preview_release

        return preview_release(previous, model, data_dir, target_ort=target_ort, progress=progress, cancel=cancel)

    return run
