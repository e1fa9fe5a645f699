"""The bundle's validate stage: inspect and validate the model, refuse it on error-level findings (the gate), and
get --prove-ort's environments ready, before any work is written."""

from __future__ import annotations

from dataclasses import dataclass

from .. import steps
from ..background import Background
from ..checks.validate import VALIDATE_STEPS, CheckerRun, Validation, apply_checker, run_checker_child, validate_model
from ..child.childproc import ChildProcess, start_method
from ..findings import Finding
from ..model import codes as model_codes
from ..progress import STEPS, CancelToken, ProgressCallback, ProgressEvent, report
from . import codes
from .manifest_build import interface_of
from .metadata import check_labels
from .options import BundleOptions
from .plan import BundlePlan
from .sources import file_size

__all__ = [
    "SHARED_CHILD_BYTES",
    "Checked",
    "CheckerGate",
    "check_model",
    "gate",
    "gate_after_checker",
    "start_checker",
]

#: Where children are not forked, up to this model file size (the .onnx itself: the checker reads no external data)
#: the onnx checker runs in the smoke child, before its job, instead of in a child of its own.
SHARED_CHILD_BYTES = 64 * 2**20


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
    report(progress, "inspect", 0, 1, steps.READING, unit=STEPS, file=loc.model.name)
    val = validate_model(
        loc.model,
        opts.data_dir,
        target_ort=opts.target_ort,
        run_checker=False,
        progress=_until_checker(progress),
        cancel=cancel,
    )
    report(progress, "inspect", 1, 1, steps.DONE, unit=STEPS)
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
    """--prove-ort's releases (``auto``: the oldest the bundled model will claim, the target, and the newest),
    each release's wheel downloaded, checked and installed into its cached environment."""
    from ..runtime.prove import parse_prove_spec, release_env, resolve_releases

    assert opts.prove_ort is not None
    items = parse_prove_spec(opts.prove_ort)
    claimed = opts.target_ort if opts.target_ort and opts.fix_ir else (
        val.compat.oldest.version if val.compat is not None and val.compat.oldest is not None else opts.target_ort)
    releases = resolve_releases(items, claimed, cancel, notes, target=opts.target_ort)  # auto proves the target too
    for v in releases:
        release_env(v, [], progress, cancel)  # (a frozen app's own onnxruntime needs none: prove_model notes it)
    return releases


def gate(val: Validation, opts: BundleOptions) -> list[Finding]:
    """The validation findings that go into the manifest; raise when any is an error."""
    findings, errors = val.bundle_gate(opts.fix_ir)
    if errors:
        listing = "; ".join(f"{f.code}: {f.message}" for f in errors[:3])
        listed = [{"code": f.code, "message": f.message, "params": f.message_params()} for f in errors[:3]]
        raise codes.BUNDLE_FINDINGS.error(variant="more" if len(errors) > 3 else None, listing=listing,
                                          hint=errors[0].hint or None, findings=listed, more=max(0, len(errors) - 3))
    return findings


def gate_after_checker(checked: Checked, run: CheckerRun, opts: BundleOptions) -> tuple[Finding, ...]:
    """The gate again with the onnx checker's verdict in: the validation findings the manifest records."""
    apply_checker(checked.val, run)
    return tuple(gate(checked.val, opts))


class CheckerGate:
    """The onnx checker running in the background (:func:`start_checker`), and the gate with its verdict, once."""

    def __init__(self, checked: Checked, opts: BundleOptions, background: Background[CheckerRun], separate: bool,
                 progress: ProgressCallback | None) -> None:
        self.checked, self.opts, self.background, self.progress = checked, opts, background, progress
        #: The checker has a child of its own (not the smoke child's tasks): the smoke run may go on beside it.
        self.separate = separate
        self._gated: tuple[Finding, ...] | None = None

    @property
    def pending(self) -> bool:
        """Still checking."""
        return self._gated is None and self.background.running

    def verdict(self) -> tuple[Finding, ...]:
        """The validation findings the manifest records; raises the gate's refusal when the checker's verdict adds an
        error. Waits for the checker the first time."""
        if self._gated is None:
            if self.background.running:
                report(self.progress, "validate", VALIDATE_STEPS - 1, VALIDATE_STEPS, steps.WAITING_CHECKER,
                       unit=STEPS)  # fmt: skip
            self._gated = gate_after_checker(self.checked, self.background.join(), self.opts)
            report(self.progress, "validate", VALIDATE_STEPS, VALIDATE_STEPS, steps.DONE, unit=STEPS)
        return self._gated

    def stop(self) -> None:
        self.background.stop()


def start_checker(plan: BundlePlan, checked: Checked, smoke: ChildProcess, progress: ProgressCallback | None,
                  cancel: CancelToken | None) -> CheckerGate:
    """The onnx checker on the model file, in a child, in the background (the merge streams meanwhile).

    Where children fork (a small process of one thread, see ``childproc.start_method``) the checker gets a child of
    its own, forked now: a copy of this process with onnx imported already, so it checks at once while the smoke
    child imports onnxruntime (a small model's bundle is then no longer dominated by imports); it is
    stopped when done. (A process holding a large model's structure does not fork: the merge walks it meanwhile,
    and every page it touches would be copied, which costs more than the fork saves.) Otherwise a model
    file up to SHARED_CHILD_BYTES is checked in the smoke child before its job (one process and one import of onnx
    instead of two), and a larger file, which the checker parses whole, in a child of its own started by the checker
    (so the smoke child never holds that parse).
    """
    small = file_size(plan.location.model) <= SHARED_CHILD_BYTES
    # Not forked for a signed bundle: the plan has read a private key (not kept, but its bytes may linger in freed
    # memory) or holds a Sigstore identity token, and a copy of this process would hold them too, beside native code
    # that reads an untrusted model.
    fork = start_method() == "fork" and not plan.signed
    own = ChildProcess("", preload=()) if fork else None
    shared = own or (smoke if small else None)

    def full_check(stop: CancelToken) -> CheckerRun:  # reads the model file in a child, never the skeleton
        try:
            return run_checker_child(checked.val.inspection, cancel=stop, child=shared)
        finally:
            if own is not None:
                own.discard()

    background = Background(full_check, cancel, "onnxpack-checker")
    return CheckerGate(checked, plan.opts, background, shared is not smoke, progress)
