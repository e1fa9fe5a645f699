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
    "validated",
    "verify_job",
    "warm_up_job",
]

#: What the jobs below import; the window shows without them (tests/test_architecture.py checks it).
ENGINE_MODULES = (
    "onnxpack.core.checks.validate", "onnxpack.core.release.verify.verify", "onnxpack.core.release.bundle",
    "onnxpack.core.runtime.smoke",
    "onnxpack.core.release.metadata", "onnxpack.core.release.preview",
)  # not onnxruntime: it runs in child processes only, and importing it holds the GIL (a GUI stall)


def warm_up_job() -> JobFunction:
    """Import the engine (onnx, numpy: docs/performance.md) once the window is up, on the inspection
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
    as a dropped model is checked (structure only). Returns a gui.model.state.ReleaseScan."""

    def run(progress: ProgressCallback, cancel: CancelToken) -> Any:
        from onnxpack.core.checks.validate import validate_model
        from onnxpack.core.progress import STEPS
        from onnxpack.core.release.folder import scan_folder

        from .model.state import ReleaseScan

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
        from onnxpack.core.release.verify.verify import verify_bundle

        return verify_bundle(path, smoke=smoke, progress=progress, cancel=cancel)

    return run


def _form_fields() -> dict[str, tuple[str, Callable[[Any], Any]]]:
    """The Bundle form's table: each entry (a control the engine's flag declares: core/release/flaggroups.py) -> the
    BundleOptions field it fills (``about.NAME``, ``smoke.NAME``: the nested ReleaseInfo's and SmokeOptions') and how
    the control's value becomes the field's."""
    from onnxpack.core.release.flaggroups import BUNDLE_SPEC

    return BUNDLE_SPEC.controls()


def make_bundle_options(**form: Any) -> Any:
    """``BundleOptions`` from the Bundle form (a row's model, name, version, previous bundle, dims, inputs and labels,
    and the settings every row shares): each entry through the form's table (:func:`_form_fields`, from the engine's
    flag groups), the object made by ``BundleOptions.from_fields``. Not checked: :func:`validated` does that, as the
    bundle run does. An entry no flag has a control for is a TypeError (a programming error)."""
    from onnxpack.core.release.options import BundleOptions

    table = _form_fields()
    fields: dict[str, Any] = {}
    for key, value in form.items():
        if key not in table:
            raise TypeError(f"the Bundle form has no entry {key!r}")
        name, convert = table[key]
        fields[name] = convert(value)
    return BundleOptions.from_fields(fields)


def validated(options: Any) -> Any:
    """The engine's check of the options alone (core/release/options.py ``BundleOptions.validated``: the version, the
    layout, --fix-ir's target, signing, the release metadata…), its coded errors as the command line raises them."""
    return options.validated()


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
