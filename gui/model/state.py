"""The desktop app's state, without Qt: the queue, each item's kind and state, its results (its bundle runs'
progress: gui/runstate.py), batch planning and which bundle settings belong to a row and which to the whole batch.

Every panel of the window is a rendering of :attr:`QueueModel.selected`: the widgets keep nothing of
their own, so selecting a row re-renders all of them from that row alone (or clears them). Behaviour that differs
per kind of item (a model is inspected and bundled, a bundle is verified) is looked up in :data:`KINDS`, never by
testing the kind's name.

Nothing here imports Qt or the heavy engine modules (tests/test_gui_state.py runs it with plain pytest).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from onnxpack.core import names
from onnxpack.core.errors import OnnxpackError
from onnxpack.core.findings import FIXED_BY_RETARGET, Finding, Severity

from .runstate import STAGES, EtaEstimator, RunState, failed_stage, skipped_stages

if TYPE_CHECKING:  # the engine's result types, for mypy only (importing them loads onnx)
    from onnxpack.core.checks.validate import Validation
    from onnxpack.core.release.bundle import BundleOptions, BundleResult
    from onnxpack.core.release.folder import ReleaseTree
    from onnxpack.core.release.verify.verify import VerifyReport

__all__ = [
    "BATCH_SETTINGS",
    "BUSY_STATES",
    "KINDS",
    "PROVE_ORT_PATTERN",
    "ROW_SETTINGS",
    "STAGES",
    "BatchPlan",
    "BundleDraft",
    "EtaEstimator",
    "Gate",
    "IllegalTransition",
    "ItemState",
    "JobKind",
    "Kind",
    "KindSpec",
    "QueueItem",
    "QueueModel",
    "ReleaseScan",
    "RunState",
    "bundle_gate",
    "default_bundle_name",
    "failed_stage",
    "fit_window",
    "recorded_warnings",
    "skipped_stages",
    "symbolic_dims",
]

_ids = itertools.count(1)


# --- kinds ------------------------------------------------------------------------------------------
class Kind(str, Enum):
    """What a queue row holds. A ``str`` enum: it compares equal to "model" / "bundle"."""

    MODEL = "model"
    BUNDLE = "bundle"
    RELEASE = "release"  # a folder of several files (models and assets) bundled as one release

    __str__ = str.__str__


class JobKind(str, Enum):
    """What a worker job does for its row (gui.worker.Job.kind)."""

    INSPECT = "inspect"
    SCAN = "scan"  # a release folder: its models, assets and what is left out, each model checked
    VERIFY = "verify"
    BUNDLE = "bundle"
    SUGGEST = "suggest"
    WARM_UP = "warm-up"

    __str__ = str.__str__


class ItemState(str, Enum):
    """Where a queue row is. A ``str`` enum, so it compares equal to its value; setting a state by a misspelt name
    raises instead of silently showing an unknown state."""

    INSPECTING = "inspecting"
    VERIFYING = "verifying"
    READY = "ready"
    INVALID = "invalid"
    QUEUED = "queued"
    RUNNING = "running"
    CANCELLING = "cancelling"
    DONE = "done"
    VERIFIED = "verified"
    VERIFY_FAILED = "verify_failed"
    FAILED = "failed"
    CANCELLED = "cancelled"

    __str__ = str.__str__  # "done", not "ItemState.DONE", wherever a state is formatted


BUSY_STATES = frozenset({ItemState.INSPECTING, ItemState.VERIFYING, ItemState.QUEUED, ItemState.RUNNING,
                         ItemState.CANCELLING})  # fmt: skip


@dataclass(frozen=True)
class KindSpec:
    """Everything that differs between the kinds of row: the one table the window dispatches on."""

    kind: Kind
    opening_job: str  # the job run when the row is opened: "inspect", "scan" or "verify"
    opening_state: ItemState  # the state while it runs
    states: frozenset[ItemState]  # the states a row of this kind can be in
    bundles: bool  # can be bundled (Bundle, Bundle all, the Bundle tab's form)
    verifies_with_smoke: bool  # File → Verify bundle with a smoke run
    locates_data: bool  # File → Locate data file…


_IDLE = frozenset({ItemState.FAILED, ItemState.CANCELLED})
KINDS: dict[Kind, KindSpec] = {
    Kind.MODEL: KindSpec(
        Kind.MODEL, "inspect", ItemState.INSPECTING,
        _IDLE | {ItemState.INSPECTING, ItemState.READY, ItemState.INVALID, ItemState.QUEUED, ItemState.RUNNING,
                 ItemState.CANCELLING, ItemState.DONE},
        bundles=True, verifies_with_smoke=False, locates_data=True,
    ),
    Kind.BUNDLE: KindSpec(
        Kind.BUNDLE, "verify", ItemState.VERIFYING,
        _IDLE | {ItemState.VERIFYING, ItemState.VERIFIED, ItemState.VERIFY_FAILED},
        bundles=False, verifies_with_smoke=True, locates_data=False,
    ),
    Kind.RELEASE: KindSpec(
        Kind.RELEASE, "scan", ItemState.INSPECTING,
        _IDLE | {ItemState.INSPECTING, ItemState.READY, ItemState.INVALID, ItemState.QUEUED, ItemState.RUNNING,
                 ItemState.CANCELLING, ItemState.DONE},
        bundles=True, verifies_with_smoke=False, locates_data=False,
    ),
}  # fmt: skip

#: state → the states it may move to (any idle state may also start over with its kind's opening job).
TRANSITIONS: dict[ItemState, frozenset[ItemState]] = {
    # DONE: a bundled row inspected again (for another target) is still bundled
    ItemState.INSPECTING: frozenset({ItemState.READY, ItemState.INVALID, ItemState.FAILED, ItemState.CANCELLED,
                                     ItemState.DONE}),
    ItemState.VERIFYING: frozenset({ItemState.VERIFIED, ItemState.VERIFY_FAILED, ItemState.FAILED,
                                    ItemState.CANCELLED}),
    ItemState.QUEUED: frozenset({ItemState.RUNNING, ItemState.CANCELLED, ItemState.FAILED, ItemState.DONE}),
    ItemState.RUNNING: frozenset({ItemState.CANCELLING, ItemState.DONE, ItemState.FAILED, ItemState.CANCELLED}),
    ItemState.CANCELLING: frozenset({ItemState.CANCELLED, ItemState.DONE, ItemState.FAILED}),
}  # fmt: skip


class IllegalTransition(ValueError):
    """A row was moved to a state it cannot reach from where it is (a bug in the window, caught at once)."""


def default_bundle_name(path: Path) -> str:
    """The bundle name the command line would use for this model file (core.names.default_bundle_name)."""
    return names.default_bundle_name(path)


# --- what the user typed for one row ----------------------------------------------------------------
@dataclass
class BundleDraft:
    """What the user typed for one model (kept per queue row while they switch between rows)."""

    name: str = ""
    version: str = "1.0.0"
    previous: str = ""
    dims: dict[str, int] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)
    symbolic: dict[str, list[str]] = field(default_factory=dict)  # dim name → inputs that use it
    input_names: list[str] = field(default_factory=list)
    suggested: str = ""  # suggested version (from the previous bundle), with its reason
    can_bundle: bool = False
    labels: str = ""  # class labels, comma-separated (per model)


#: The Bundle tab's settings that belong to one row (kept in its BundleDraft) ...
ROW_SETTINGS = ("name", "version", "previous", "labels", "dims", "inputs")
#: ... and those that apply to every model of a batch (remembered by the app, never per row).
BATCH_SETTINGS = ("out_dir", "target_ort", "prove_ort", "fix_ir", "ort_format", "compress", "set_model_version",
                  "run_smoke", "force", "allow_version_not_greater", "allow_unmatched_labels", "sign_key", "license",
                  "authors", "homepage")  # fmt: skip

#: What the Prove on ONNX Runtime field accepts while typing (core.prove.parse_prove_spec checks the whole): releases
#: X.Y or X.Y.Z, ``newest`` or ``auto``, separated by commas; empty = not proven.
PROVE_ORT_PATTERN = r"(\s*(auto|newest|\d+\.\d+(\.\d+)?)\s*(,\s*(auto|newest|\d+\.\d+(\.\d+)?)\s*)*)?"


def symbolic_dims(inputs: Sequence[dict[str, Any]]) -> dict[str, list[str]]:
    """Symbolic dimension names of the model's inputs (``Inspection.inputs``) → the inputs that use them."""
    dims: dict[str, list[str]] = {}
    for v in inputs or []:
        for d in v.get("shape") or []:
            if isinstance(d, str) and d:
                users = dims.setdefault(d, [])
                name = str(v.get("name", ""))
                if name not in users:
                    users.append(name)
    return dims


# --- the bundle gate, as the engine applies it --------------------------------------------------------
#: Findings the engine drops from its gate when it retargets for the target (Validation.bundle_gate).
FIXED_BY_LOWERING_IR = FIXED_BY_RETARGET


@dataclass(frozen=True)
class Gate:
    """Whether a model may be bundled with the chosen settings, and why not."""

    blocking: tuple[Finding, ...]  # the error findings that stop it
    lowering_helps: bool  # ticking "Lower the IR version" (with a target) would remove every blocking finding
    lowering_possible: bool  # the target can be reached by lowering the IR version

    @property
    def ok(self) -> bool:
        return not self.blocking


def bundle_gate(validation: Validation, fix_ir: bool) -> Gate:
    """The engine's bundle gate (core.bundle._gate) for ``validation`` with "Lower the IR version" ``fix_ir``:
    the error findings that refuse the bundle, and whether lowering the IR would clear them (so a hint may
    only say "tick Lower the IR version" when doing so enables Bundle)."""
    target = validation.target
    lowering_possible = target is not None and target.fixable
    _, errors = validation.bundle_gate(False)
    _, without = validation.bundle_gate(True)
    blocking = without if fix_ir else errors
    helps = lowering_possible and bool(errors) and not without
    return Gate(tuple(blocking), helps, lowering_possible)


def combined_gate(gates: Sequence[Gate]) -> Gate:
    """The gate of a release: it bundles when every model may (one model's error stops the release, as in the
    engine); lowering the IR helps when it clears every model's blocking findings."""
    blocking = tuple(f for g in gates for f in g.blocking)
    helps = bool(blocking) and all(g.lowering_helps or g.ok for g in gates) and any(g.lowering_helps for g in gates)
    return Gate(blocking, helps, any(g.lowering_possible for g in gates))


# --- a release folder ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReleaseScan:
    """What a release folder holds (core.release.folder.scan_folder's ReleaseTree: its models, assets and the files
    left out) and each model's checks (a Validation per model, in the tree's order)."""

    tree: ReleaseTree
    validations: tuple[Validation, ...]

    @property
    def models(self) -> int:
        return len(self.tree.models)

    @property
    def assets(self) -> int:
        return len(self.tree.assets)

    @property
    def plain(self) -> bool:
        """One model and nothing beside it: the engine bundles it as that model alone (manifest schema 1)."""
        return self.models == 1 and not self.tree.assets

    def member(self, index: int) -> str:
        """The model's path in the release (``victory/en/victory.onnx``)."""
        return str(self.tree.models[index].member)

    def gate(self, fix_ir: bool) -> Gate:
        return combined_gate([bundle_gate(v, fix_ir) for v in self.validations])

    @property
    def ok(self) -> bool:
        return all(v.ok for v in self.validations)


# --- one row ----------------------------------------------------------------------------------------
@dataclass(eq=False)
class QueueItem:
    """A dropped model or bundle and everything the GUI knows about it."""

    path: Path
    kind: Kind
    state: ItemState = ItemState.INSPECTING
    id: int = field(default_factory=lambda: next(_ids))
    validation: Validation | None = None
    report: VerifyReport | None = None  # for bundles
    release: ReleaseScan | None = None  # for a release folder: its models and assets, each model's checks
    shown_model: int = 0  # which model of a release the Model tab shows
    verified_with_smoke: bool = False  # the report is of a verification that asked for a smoke run
    result: BundleResult | None = None
    inspected_target: str | None = None  # the Target ONNX Runtime its validation was made for
    data_dir: Path | None = None  # where the external data files are, when not beside the model (Locate data file…)
    last_success: BundleResult | None = None  # of the last run that succeeded: a failed re-run never erases it
    options: BundleOptions | None = None  # of the last bundle run
    error: OnnxpackError | None = None
    draft: BundleDraft = field(default_factory=BundleDraft)
    job: Any = None  # the running or queued gui.worker.Job
    progress: str = ""  # e.g. "merge 45 %"
    run: RunState | None = None  # its last bundle run as the Progress tab shows it

    def __post_init__(self) -> None:
        self.kind = Kind(self.kind)  # "model"/"bundle" accepted; anything else raises here
        self.state = ItemState(self.state)

    @property
    def spec(self) -> KindSpec:
        return KINDS[self.kind]

    @property
    def busy(self) -> bool:
        return self.state in BUSY_STATES

    @property
    def checked(self) -> bool:
        """Read and checked: a model's validation, a release folder's models and assets."""
        return self.validation is not None or self.release is not None

    @property
    def bundled(self) -> BundleResult | None:
        """The bundle this row made and still has (a failed or cancelled re-run keeps the earlier one)."""
        return self.result if self.result is not None else self.last_success

    @property
    def warnings(self) -> list[Finding]:
        """The warnings of what this row shows as its outcome (a warning is never shown green): its
        bundle's findings of severity warning (an all-NaN smoke run, anything the command line prints as WARN), or a
        verified bundle's warnings (its verification's and those its manifest recorded when it was made)."""
        if self.state is ItemState.DONE and self.result is not None:
            return [f for f in self.result.findings if f.severity is Severity.WARNING]
        if self.state is ItemState.VERIFIED and self.report is not None:
            return recorded_warnings(self.report)
        return []


def recorded_warnings(report: VerifyReport) -> list[Finding]:
    """A bundle's warnings: its verification's problems of severity warning, then the warnings its manifest recorded
    when it was made (``findings``; an all-NaN smoke run is one), each once."""
    out = [p for p in report.problems if p.severity is Severity.WARNING]
    seen = {(f.code, f.subject, f.message) for f in out}
    manifest = report.manifest if isinstance(report.manifest, dict) else {}
    for doc in manifest.get("findings") or []:
        if not isinstance(doc, dict) or doc.get("severity") != Severity.WARNING.value:
            continue
        finding = Finding.warning(str(doc.get("code") or ""), str(doc.get("message") or ""), str(doc.get("hint") or ""),
                                  str(doc.get("subject") or ""))
        key = (finding.code, finding.subject, finding.message)
        if key not in seen:
            seen.add(key)
            out.append(finding)
    return out


# --- a batch ----------------------------------------------------------------------------------------
@dataclass
class BatchPlan:
    """What Bundle / Bundle all would do: the rows to run with their ZIPs, and why others are not run."""

    run: list[tuple[QueueItem, Path]] = field(default_factory=list)
    already_bundled: list[tuple[QueueItem, Path]] = field(default_factory=list)  # this row made that ZIP already
    exist: list[Path] = field(default_factory=list)  # ZIPs there from elsewhere (refused unless replacing)
    twice: list[Path] = field(default_factory=list)  # written by two rows of the batch

    @property
    def items(self) -> list[QueueItem]:
        return [item for item, _ in self.run]


# --- the queue --------------------------------------------------------------------------------------
class QueueModel:
    """The rows, the selected one, and the rules for moving between states."""

    def __init__(self) -> None:
        self.items: list[QueueItem] = []
        self.selected: QueueItem | None = None

    def add(self, path: Path, kind: Kind | str) -> QueueItem:
        item = QueueItem(path=path, kind=Kind(kind), state=KINDS[Kind(kind)].opening_state)
        self.items.append(item)
        return item

    def find(self, path: Path) -> QueueItem | None:
        return next((i for i in self.items if i.path == path), None)

    def select(self, item: QueueItem | None) -> None:
        if item is not None and item not in self.items:
            raise ValueError(f"{item.path} is not in the queue")
        self.selected = item

    def remove(self, item: QueueItem) -> QueueItem | None:
        """Remove ``item``; when it was selected, the row that takes its place (else the one before) is selected.
        Returns the selection afterwards."""
        index = self.items.index(item)
        self.items.remove(item)
        if self.selected is item:
            self.selected = self.items[min(index, len(self.items) - 1)] if self.items else None
        return self.selected

    def set_state(self, item: QueueItem, state: ItemState | str) -> None:
        """Move ``item`` to ``state``; raises IllegalTransition for a move the rules do not allow."""
        new = ItemState(state)  # a misspelt state raises here, not later as a blank status cell
        spec = item.spec
        if new not in spec.states:
            raise IllegalTransition(f"a {item.kind} row is never {new}")
        old = item.state
        allowed = TRANSITIONS.get(old)
        if new == spec.opening_state and (not item.busy or (old == new and item.job is None)):
            pass  # any idle row may be opened (inspected, verified) again; a row just added starts its job
        elif new is ItemState.QUEUED and spec.bundles and not item.busy:
            pass
        elif allowed is None or new not in allowed:
            raise IllegalTransition(f"{item.path.name}: {old} → {new}")
        item.state = new

    def stale_for(self, target: str | None) -> list[QueueItem]:
        """The idle model rows whose validation was made for another Target ONNX Runtime than ``target``: their
        findings and gate must be made again (a target is a batch setting)."""
        return [i for i in self.items if i.spec.bundles and not i.busy and i.checked
                and i.inspected_target != target]  # fmt: skip

    def gate(self, item: QueueItem, fix_ir: bool) -> Gate | None:
        """The bundle gate of a model (or of every model of a release) that was read; None for a bundle or a row not
        (yet) read."""
        if not item.spec.bundles:
            return None
        if item.release is not None:
            return item.release.gate(fix_ir)
        if item.validation is None:
            return None
        return bundle_gate(item.validation, fix_ir)

    def can_bundle(self, item: QueueItem, fix_ir: bool) -> bool:
        """Only a model whose checks pass (with the chosen fixes): one with blocking findings is refused before
        any work, not after."""
        gate = self.gate(item, fix_ir)
        return gate is not None and gate.ok and not item.busy

    def ready(self, fix_ir: bool) -> list[QueueItem]:
        return [i for i in self.items if self.can_bundle(i, fix_ir)]

    def bundling(self) -> list[QueueItem]:
        return [i for i in self.items if i.state in (ItemState.QUEUED, ItemState.RUNNING, ItemState.CANCELLING)]

    def counts(self) -> dict[str, int]:
        return {
            "items": len(self.items),
            "running": sum(i.state in (ItemState.RUNNING, ItemState.CANCELLING) for i in self.items),
            "queued": sum(i.state is ItemState.QUEUED for i in self.items),
            "bundled": sum(i.state is ItemState.DONE for i in self.items),
            "warnings": sum(bool(i.warnings) for i in self.items),  # bundled or verified, with warnings
            "checking": sum(i.state in (ItemState.INSPECTING, ItemState.VERIFYING) for i in self.items),
        }

    def plan(self, items: Sequence[QueueItem], out_dir: Path, *, force: bool, skip_bundled: bool,
             exists: Callable[[Path], bool] | None = None) -> BatchPlan:
        """Plan a batch: each row's ZIP in ``out_dir``. With ``skip_bundled``, a row whose ZIP exists because this
        row made it (in this session) is set aside instead of refusing the batch; a ZIP from
        elsewhere is refused unless ``force``; two rows writing one ZIP are always refused."""
        exists = exists or Path.exists
        plan = BatchPlan()
        seen: set[Path] = set()
        for item in items:
            target = Path(out_dir) / names.bundle_file_name(item.draft.name, item.draft.version)
            made = item.bundled
            if (skip_bundled and not force and made is not None and Path(made.zip_path) == target
                    and exists(target)):  # fmt: skip
                plan.already_bundled.append((item, target))
                continue
            if target in seen and target not in plan.twice:
                plan.twice.append(target)
            seen.add(target)
            if exists(target) and not force:
                plan.exist.append(target)
            plan.run.append((item, target))
        return plan


# --- the window on the screen -----------------------------------------------------------------------
#: The smallest the window is made (when the screen has room for it): the queue and a tab stay usable.
MINIMUM_WINDOW = (640, 440)


def fit_window(
    window: tuple[int, int, int, int],
    available: tuple[int, int, int, int],
    frame: tuple[int, int, int, int] = (0, 0, 0, 0),
    minimum: tuple[int, int] = MINIMUM_WINDOW,
) -> tuple[int, int, int, int, int, int]:
    """The window's client geometry (x, y, w, h) and minimum size (w, h) inside the screen's ``available``
    geometry (x, y, w, h), its frame included: ``frame`` = (left, top, extra width, extra height) of the window
    manager's decoration. Never larger than the screen, never partly off it."""
    x, y, w, h = window
    ax, ay, aw, ah = available
    left, top, extra_w, extra_h = frame
    max_w, max_h = max(1, aw - extra_w), max(1, ah - extra_h)
    min_w, min_h = min(minimum[0], max_w), min(minimum[1], max_h)
    w, h = max(min_w, min(w, max_w)), max(min_h, min(h, max_h))
    x = min(max(x, ax + left), ax + left + max_w - w)
    y = min(max(y, ay + top), ay + top + max_h - h)
    return x, y, w, h, min_w, min_h
