"""The bundle's validate stage: inspect and validate the model, refuse it on error-level findings (the gate), and
get --prove-ort's environments ready, before any work is written."""

from __future__ import annotations

from dataclasses import dataclass

from ..checks.validate import CheckerRun, Validation, apply_checker, validate_model
from ..findings import Finding
from ..model import codes as model_codes
from ..progress import STEPS, CancelToken, ProgressCallback, ProgressEvent, report
from . import codes
from .manifest_build import interface_of
from .metadata import check_labels
from .options import BundleOptions
from .plan import BundlePlan

__all__ = ["Checked", "check_model", "gate", "gate_after_checker"]


@dataclass(frozen=True)
class Checked:
    """The validated model (its onnx checker still to come), and --prove-ort's releases, their environments ready."""

    val: Validation
    prove_releases: tuple[str, ...] = ()
    prove_notes: tuple[str, ...] = ()  # how --prove-ort auto was resolved, when not as claimed


def _until_checker(progress: ProgressCallback | None) -> ProgressCallback | None:
    """``progress`` without validate_model's final "done": in a bundle the checker is still running (beside the
    merge), so the Validate stage stays at "checker" until its verdict is in, and its count never goes back."""
    if progress is None:
        return None

    def forward(event: ProgressEvent) -> None:
        if not (event.stage == "validate" and event.finished):
            progress(event)

    return forward


def check_model(plan: BundlePlan, progress: ProgressCallback | None, cancel: CancelToken | None) -> Checked:
    """Inspect and validate the model (without the onnx checker: it runs beside the merge), refuse it when it has
    error-level findings, check the labels against its outputs, ready --prove-ort's environments."""
    opts, loc = plan.opts, plan.location
    report(progress, "inspect", 0, 1, f"reading {loc.model.name}", unit=STEPS)
    val = validate_model(
        loc.model,
        opts.data_dir,
        target_ort=opts.target_ort,
        run_checker=False,
        progress=_until_checker(progress),
        cancel=cancel,
    )
    report(progress, "inspect", 1, 1, "done", unit=STEPS)
    if val.inspection.model is None:
        raise model_codes.MODEL_IS_ORT.error(loc.model.name, variant="bundle", file=loc.model.name)
    gate(val, opts)
    releases: list[str] = []
    notes: list[str] = []
    if opts.prove_ort:  # the wheels and environments before any work: no network or no wheel fails fast
        releases = _prepare_prove(opts, val, notes, progress, cancel)
    about = plan.about
    if about is not None and about.labels is not None and not opts.allow_unmatched_labels:
        check_labels(about.labels, interface_of(val.inspection.model)[1])
    return Checked(val, tuple(releases), tuple(notes))


def _prepare_prove(opts: BundleOptions, val: Validation, notes: list[str], progress: ProgressCallback | None,
                   cancel: CancelToken | None) -> list[str]:
    """--prove-ort's releases (``auto``: the oldest the bundled model will claim, or the target, plus the newest),
    each release's wheel downloaded, checked and installed into its cached environment."""
    from ..runtime.prove import ensure_release, parse_prove_spec, resolve_releases

    assert opts.prove_ort is not None
    items = parse_prove_spec(opts.prove_ort)
    claimed = opts.target_ort if opts.target_ort and opts.fix_ir else (
        val.compat.oldest.version if val.compat is not None and val.compat.oldest is not None else opts.target_ort)
    releases = resolve_releases(items, claimed, cancel, notes)
    for v in releases:
        ensure_release(v, progress, cancel)
    return releases


def gate(val: Validation, opts: BundleOptions) -> list[Finding]:
    """The validation findings that go into the manifest; raise when any is an error."""
    findings, errors = val.bundle_gate(opts.fix_ir)
    if errors:
        listing = "; ".join(f"{f.code}: {f.message}" for f in errors[:3])
        more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
        listed = [{"code": f.code, "message": f.message, "params": f.message_params()} for f in errors[:3]]
        raise codes.BUNDLE_FINDINGS.error(listing=listing + more, hint=errors[0].hint or None, findings=listed,
                                          more=max(0, len(errors) - 3))
    return findings


def gate_after_checker(checked: Checked, run: CheckerRun, opts: BundleOptions) -> tuple[Finding, ...]:
    """The gate again with the onnx checker's verdict in: the validation findings the manifest records."""
    apply_checker(checked.val, run)
    return tuple(gate(checked.val, opts))
