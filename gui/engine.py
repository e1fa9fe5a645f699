"""The GUI's only doorway to the engine: job bodies that call ``core`` (no engine logic lives here)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from onnxpack.core.progress import CancelToken, ProgressCallback

from .worker import JobFunction

__all__ = [
    "bundle_job",
    "cli_command",
    "inspect_job",
    "make_bundle_options",
    "suggest_job",
    "verify_job",
    "warm_up_job",
]

#: What the jobs below import; the window shows without them (tests/test_architecture.py checks it).
ENGINE_MODULES = (
    "onnxpack.core.checks.validate", "onnxpack.core.release.verify", "onnxpack.core.release.bundle",
    "onnxpack.core.runtime.smoke",
    "onnxpack.core.release.metadata", "onnxpack.core.release.preview",
)  # not onnxruntime: it runs in child processes only, and importing it held the GIL ~100 ms (a GUI stall)


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

        return validate_model(path, data_dir, target_ort=target_ort, progress=progress, cancel=cancel)

    return run


def verify_job(path: Path, smoke: bool = False) -> JobFunction:
    """Verify a bundle (optionally re-running its smoke recipe)."""

    def run(progress: ProgressCallback, cancel: CancelToken) -> Any:
        from onnxpack.core.release.verify import verify_bundle

        return verify_bundle(path, smoke=smoke, progress=progress, cancel=cancel)

    return run


def make_bundle_options(
    *,
    model: Path,
    data_dir: Path | None,
    out_dir: Path,
    name: str,
    version: str,
    previous: str,
    target_ort: str | None,
    fix_ir: bool,
    prove_ort: str | None = None,
    ort_format: bool,
    compress: bool,
    set_model_version: bool,
    run_smoke: bool,
    force: bool,
    dims: dict[str, int],
    allow_version_not_greater: bool = False,
    allow_unmatched_labels: bool = False,
    inputs: dict[str, str],
    sign_key: str = "",
    license: str = "",
    authors: str = "",
    homepage: str = "",
    labels: str = "",
) -> Any:
    """Build ``core.bundle.BundleOptions`` from the form (authors separated by ';', labels by ',')."""
    from onnxpack.core.release.bundle import BundleOptions
    from onnxpack.core.release.metadata import ReleaseInfo
    from onnxpack.core.runtime.smoke import SmokeOptions

    about = ReleaseInfo(
        license=license.strip() or None,
        authors=[a.strip() for a in authors.split(";") if a.strip()],
        homepage=homepage.strip() or None,
        labels=[label.strip() for label in labels.split(",")] if labels.strip() else None,
    )

    return BundleOptions(
        model=model,
        out_dir=out_dir,
        version=version,
        name=name or None,
        data_dir=data_dir,
        previous=Path(previous) if previous else None,
        target_ort=target_ort,
        fix_ir=fix_ir,
        prove_ort=prove_ort or None,
        ort_format=ort_format,
        compress=compress,
        smoke=SmokeOptions(dims=dict(dims), inputs=dict(inputs)),
        set_model_version=set_model_version,
        run_smoke=run_smoke,
        force=force,  # each of the form's three boxes sets its own flag (issue 26 item 3)
        allow_version_not_greater=allow_version_not_greater,
        allow_unmatched_labels=allow_unmatched_labels,
        about=None if about.empty else about,
        sign_key=Path(sign_key.strip()) if sign_key.strip() else None,
    )


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
