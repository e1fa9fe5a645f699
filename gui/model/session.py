"""The window's controller logic, without Qt: what opening a row, a job's outcome, a batch of bundles and the
Bundle tab's checks do to the queue's rows (:mod:`.state`), and what the user is told about it.

:class:`Session` decides; the window (:class:`SessionView`, implemented by gui/main_window.py) renders, logs and
asks. Texts are the window's (Qt Linguist context "MainWindow"): ``self.translate("MainWindow", ...)`` is how
lupdate finds them here, and the view translates them with Qt.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from onnxpack.core.errors import InputError, OnnxpackError
from onnxpack.core.model.modelfile import FileKind, sniff
from onnxpack.core.names import bundle_name_problem

from .rowview import RowView
from .state import (
    BatchPlan,
    ItemState,
    JobKind,
    Kind,
    QueueItem,
    QueueModel,
    ReleaseScan,
    bundle_gate,
    default_bundle_name,
    failed_stage,
    recorded_warnings,
    symbolic_dims,
)

if TYPE_CHECKING:  # for mypy only (importing them loads onnx)
    from onnxpack.core.checks.validate import Validation
    from onnxpack.core.release.bundle import BundleResult
    from onnxpack.core.release.verify.verify import VerifyReport

__all__ = ["Session", "SessionView"]


class SessionView(Protocol):
    """What the session needs of the window: its words (translated, the engine's messages and hints in the app's
    language), and what it shows (a row's new state, a log line, an error, a tab)."""

    def translate(self, context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str: ...
    def message(self, item: Any) -> str: ...
    def hint(self, code: str | None, hint: str | None, params: Any = None) -> str | None: ...
    def tick(self, name: str) -> str: ...
    def release_counts(self, models: int, assets: int) -> str: ...
    def state_text(self, state: ItemState) -> str: ...
    def count_text(self, key: str, n: int) -> str: ...
    def smoke_text(self, report: VerifyReport) -> str: ...
    def finding_hint(self, finding: Any, gate: Any) -> str | None: ...
    def set_state(self, item: QueueItem, state: ItemState) -> None: ...
    def refresh(self, item: QueueItem) -> None: ...
    def update_actions(self) -> None: ...
    def log_line(self, item: QueueItem | None, line: str) -> None: ...
    def show_error(self, err: OnnxpackError, title: str) -> Any: ...
    def show_tab(self, name: str) -> None: ...
    def run_finished(self, outcome: str, stage: str | None = None) -> None: ...
    def store_shown_draft(self) -> None: ...
    def previous_changed(self, path: str, item: QueueItem) -> None: ...
    def set_data_dir(self, item: QueueItem, folder: Path) -> None: ...


class Session:
    """The queue (``model``), the batch of bundles started together and the row being bundled, and the rules that
    change them. ``worded``/``worded_input``: the error types of texts the app words itself (gui/messages.py)."""

    def __init__(self, view: SessionView, worded: type[OnnxpackError], worded_input: type[InputError]) -> None:
        self.view = view
        self.worded, self.worded_input = worded, worded_input
        self.model = QueueModel()  # the state every panel renders (state.py)
        self.current_bundle: QueueItem | None = None
        self.batch: list[QueueItem] = []  # the rows started together by the last Bundle / Bundle all
        self.batch_failures: list[tuple[QueueItem, OnnxpackError]] = []

    def translate(self, context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
        return self.view.translate(context, text, disambiguation, n)

    # --- rendering ----------------------------------------------------------------------------
    def row_view(self, item: QueueItem | None, fix_ir: bool) -> RowView:
        """What the panels render for ``item`` (the selected row, or None)."""
        if item is None:
            return RowView(None)
        failure = ""
        if item.error is not None:
            failure = self.view.message(item.error) + self._how_to_fix(item.error)
        if item.kind is Kind.BUNDLE:
            report = item.report
            return RowView(
                item,
                warnings=recorded_warnings(report) if report is not None else (),
                failure=failure,
                no_result=self.translate(
                    "MainWindow",
                    "This row is a bundle: it is verified, not bundled. Its verification is in the Model tab.",
                ),
                recorded=report.manifest if report is not None else None,
            )
        scan = item.release
        gate, title, warnings = self.model.gate(item, fix_ir), "", item.warnings
        if scan is not None:
            index = min(item.shown_model, scan.models - 1)
            gate, title = bundle_gate(scan.validations[index], fix_ir), self.release_title(item)
            warnings = [f for f in item.warnings if not f.subject or f.subject == scan.member(index)]
        read = scan is not None if item.kind is Kind.RELEASE else item.validation is not None
        no_result = self.no_result_text(item)
        if no_result is None and read and not item.busy and gate is not None and not gate.ok:
            no_result = self.blocked_reason(item, fix_ir)  # (why the Bundle button is off: not "press Bundle")
        return RowView(item, gate, self.model.can_bundle(item, fix_ir), read and not item.busy, title, warnings,
                       failure, no_result)

    def _how_to_fix(self, error: OnnxpackError) -> str:
        """"\nHow to fix: …" with ``error``'s remedy in the app's words ("" when it has none)."""
        hint = self.view.hint(error.code, error.hint, error.params)
        return "\n" + self.translate("MainWindow", "How to fix: %1").replace("%1", hint) if hint else ""

    # --- opening ----------------------------------------------------------------------------
    @staticmethod
    def kind_of(path: Path) -> Kind:
        """A ZIP is a bundle (verified), a folder a release (read as ``onnxpack bundle FOLDER`` would: one that turns
        out to hold one model and nothing else becomes that model's row), anything else a model."""
        try:
            if path.is_dir():
                return Kind.RELEASE
            if path.is_file() and sniff(path) is FileKind.ZIP:
                return Kind.BUNDLE
        except OSError:
            pass  # unreadable: the inspection reports it with a proper message
        return Kind.MODEL

    def scanned(self, item: QueueItem, scan: ReleaseScan) -> None:
        """A release folder was read: one row of the release (its models and assets in the Model tab), or, when it
        holds one model and nothing beside it, that model's row as before (the engine bundles it as the model)."""
        if scan.plain:
            item.kind = Kind.MODEL
            self.inspected(item, scan.validations[0])
            return
        item.release = scan
        item.shown_model = min(item.shown_model, scan.models - 1)
        draft = item.draft
        if not draft.name:
            draft.name = default_bundle_name(item.path)  # the folder's name, as `onnxpack bundle FOLDER` names it
        symbolic: dict[str, list[str]] = {}
        names: list[str] = []
        for val in scan.validations:
            for dim, users in symbolic_dims(val.inspection.inputs).items():
                symbolic.setdefault(dim, []).extend(u for u in users if u not in symbolic[dim])
            names += [str(v.get("name")) for v in val.inspection.inputs if str(v.get("name")) not in names]
        draft.symbolic, draft.input_names = symbolic, names
        draft.can_bundle = True
        if scan.ok and item.result is not None:
            self.view.set_state(item, ItemState.DONE)
        else:
            self.view.set_state(item, ItemState.READY if scan.ok else ItemState.INVALID)
        self.view.log_line(
            item,
            self.translate("MainWindow", "Read the release %1: %2.")
            .replace("%1", item.path.name)
            .replace("%2", self.view.release_counts(scan.models, scan.assets)),
        )
        for i, val in enumerate(scan.validations):
            n = len(val.findings)
            self.view.log_line(
                item,
                "  "
                + self.view.count_text("member findings", n).replace(
                    "%1", scan.member(i)
                ),
            )
        if scan.tree.skipped:
            self.view.log_line(
                item,
                "  "
                + self.translate("MainWindow", "Left out: %1").replace(
                    "%1",
                    ", ".join(f"{p} ({why})" for p, why in scan.tree.skipped[:10])
                    + (" …" if len(scan.tree.skipped) > 10 else ""),
                ),
            )

    def inspected(self, item: QueueItem, validation: Validation) -> None:
        item.validation = validation
        insp = validation.inspection
        model_path = insp.location.model
        draft = item.draft
        if not draft.name:
            draft.name = default_bundle_name(model_path)  # the model file's stem, as `onnxpack bundle` names it
        draft.symbolic = symbolic_dims(insp.inputs)
        draft.input_names = [str(v.get("name")) for v in insp.inputs]
        draft.can_bundle = True
        if validation.ok and item.result is not None:  # inspected again for another target: still bundled
            self.view.set_state(item, ItemState.DONE)
        else:
            self.view.set_state(item, ItemState.READY if validation.ok else ItemState.INVALID)
        n = len(validation.findings)
        self.view.log_line(
            item,
            self.view.count_text("inspected", n).replace(
                "%1", model_path.name
            ),
        )
        if draft.previous:
            self.view.previous_changed(draft.previous, item)

    def verified(self, item: QueueItem, report: VerifyReport) -> None:
        item.report = report
        ok = report.ok
        self.view.set_state(item, ItemState.VERIFIED if ok else ItemState.VERIFY_FAILED)
        self.view.log_line(
            item,
            (
                self.translate("MainWindow", "Verified %1: every file matches.")
                if ok
                else self.translate("MainWindow", "Verification of %1 FAILED.")
            ).replace("%1", item.path.name),
        )
        if item.verified_with_smoke:
            self.view.log_line(item, self.view.smoke_text(report))
        for p in report.problems:
            self.view.log_line(item, f"  {p.code}: {self.view.message(p)}")
        if ok:
            for f in item.warnings:  # warnings the bundle recorded when it was made (an all-NaN smoke run)
                if f not in report.problems:
                    self.view.log_line(
                        item,
                        "  "
                        + self.translate("MainWindow", "Warning %1: %2")
                        .replace("%1", f.code)
                        .replace("%2", self.view.message(f)),
                    )

    def bundled(self, item: QueueItem, result: BundleResult) -> None:
        item.result = result
        item.last_success = result
        self.view.run_finished("done")
        self.view.set_state(item, ItemState.DONE)
        self.view.log_line(item, self.translate("MainWindow", "Bundle written: %1").replace("%1", str(result.zip_path)))
        for f in item.warnings:  # a warning is never silent
            self.view.log_line(
                item,
                self.translate("MainWindow", "Warning %1: %2")
                .replace("%1", f.code)
                .replace("%2", self.view.message(f)),
            )
            hint = self.view.hint(f.code, f.hint, f.message_params())
            if hint:
                self.view.log_line(item, "  " + self.translate("MainWindow", "How to fix: %1").replace("%1", hint))
        self.bundle_ended(item)
        if self.model.selected is item:
            self.view.show_tab("result")

    def bundle_failed(self, item: QueueItem) -> None:
        """The row shows the failure of its latest bundle (state Failed, its error), never "Bundled": a bundle made
        by an earlier run is still on disk (last_success, named in the log and the Result tab) but is not what
        this run made, and the status bar does not count the row as bundled."""
        item.result = None
        self.view.set_state(item, ItemState.FAILED)
        self.log_earlier_bundle(item)

    def keep_earlier_bundle(self, item: QueueItem) -> None:
        """A cancelled re-run: the earlier bundle is still there, and the row keeps showing it (else: Cancelled)."""
        if item.last_success is not None:
            item.result = item.last_success
            self.view.set_state(item, ItemState.DONE)
            self.log_earlier_bundle(item)
        else:
            self.view.set_state(item, ItemState.CANCELLED)

    def log_earlier_bundle(self, item: QueueItem) -> None:
        if item.last_success is not None:
            self.view.log_line(item, self.translate("MainWindow", "%1 keeps its earlier bundle: %2")
                          .replace("%1", item.path.name).replace("%2", str(item.last_success.zip_path)))  # fmt: skip

    def bundle_ended(self, item: QueueItem) -> None:
        if self.current_bundle is item:
            self.current_bundle = None
        self.view.update_actions()
        self.maybe_summarize_batch()

    def maybe_summarize_batch(self) -> None:
        """When every row of a batch has ended, one dialog names all of its failures (if any)."""
        if not self.batch or any(i.job is not None and i.job.kind == JobKind.BUNDLE for i in self.batch):
            return
        failures, total = self.batch_failures, len(self.batch)
        self.batch, self.batch_failures = [], []
        if total <= 1 or not failures:
            return
        lines = "\n".join(f"• {item.path.name}: {self.view.message(err)}" for item, err in failures)
        summary = self.worded(
            self.translate("MainWindow", "%1 of %2 bundles failed:")
            .replace("%1", str(len(failures)))
            .replace("%2", str(total))
            + "\n"
            + lines,
            self.translate(
                "MainWindow",
                "Select a row to see its error and how to fix it; rows that were bundled before keep their "
                "earlier bundle.",
            ),
            code="BATCH_FAILED",
            details="\n\n".join(f"{item.path}: [{err.code}] {err.message}\n{err.hint or ''}" for item, err in failures),
        )
        self.view.show_error(summary, self.translate("MainWindow", "Bundling failed"))

    def bundle_arguments(self, item: QueueItem, shared: dict[str, Any]) -> dict[str, Any]:
        """The keyword arguments of ``item``'s bundle options (engine.make_bundle_options), once its name, version and
        the output folder are checked (an error the app words itself, else)."""
        d = item.draft
        if not d.name:
            raise self.worded_input(
                self.translate("MainWindow", "%1: the bundle needs a name.").replace("%1", item.path.name),
                self.translate("MainWindow", "Type a name in the Bundle tab; it becomes part of the ZIP file name."),
            )
        if bundle_name_problem(d.name) is not None:
            raise self.worded_input(
                self.translate("MainWindow", "%1: '%2' cannot name a bundle.")
                .replace("%1", item.path.name)
                .replace("%2", d.name),
                self.translate(
                    "MainWindow",
                    "Type a plain file name in the Bundle tab, such as 'victory'; it becomes NAME.onnx and "
                    "NAME-VERSION.zip.",
                ),
            )
        if shared["out_dir"] is None:
            raise self.worded_input(
                self.translate("MainWindow", "No output folder is set."),
                self.translate("MainWindow", "Choose the folder the bundle is written to in the Bundle tab."),
            )
        if item.release is not None:  # the folder: one release of its models and assets (bundle FOLDER)
            model, data_dir = item.path, None
        else:
            assert item.validation is not None  # only a model that was read can be bundled (can_bundle)
            model, data_dir = item.validation.inspection.location.model, item.validation.inspection.location.data_dir
        return dict(
            model=model,
            data_dir=data_dir,
            name=d.name,
            version=d.version,
            previous=d.previous,
            dims=d.dims,
            inputs=d.inputs,
            labels=d.labels,
            **shared,
        )

    def check_plan(self, plan: BatchPlan, row_names: Sequence[str]) -> None:
        """Before any work: every ZIP of the batch must be new (unless replacing is ticked) and written only once."""
        if plan.twice:
            # which rows: the question names them, not only the file, and its details more than an error code
            writers = {t: [item for item, target in plan.run if target == t] for t in plan.twice}
            names = dict(zip(self.model.items, row_names, strict=False))
            listing = "; ".join(
                self.translate("MainWindow", "%1 (rows %2)")
                .replace("%1", t.name)
                .replace("%2", ", ".join(names.get(i, i.path.name) for i in rows))
                for t, rows in writers.items()
            )
            details = "\n\n".join(
                self.translate("MainWindow", "%1 would be written by:").replace("%1", str(t))
                + "\n"
                + "\n".join(
                    f"• {names.get(i, i.path.name)}: {i.path} "
                    + self.translate("MainWindow", "(name %1, version %2)")
                    .replace("%1", i.draft.name)
                    .replace("%2", i.draft.version)
                    for i in rows
                )
                for t, rows in writers.items()
            )
            raise self.worded_input(
                self.translate("MainWindow", "Several models would be written to the same file: %1").replace(
                    "%1", listing
                ),
                self.translate("MainWindow", "Give each model its own name or version in the Bundle tab."),
                code="BATCH_SAME_FILE",
                details=details,
            )
        if plan.exist:
            n = len(plan.exist)
            raise self.worded_input(
                self.view.count_text("exist", n).replace(
                    "%1", ", ".join(t.name for t in plan.exist)
                ),
                self.translate(
                    "MainWindow", "Nothing was started. Choose a new version, another output folder, or %1."
                ).replace("%1", self.view.tick("force")),
            )

    def suggested(self, item: QueueItem, diff: Any) -> None:
        """Pre-fill the version with the bump the release diff calls for (seed 004's rules)."""
        version = str(diff.suggested)
        bump = {
            "major": self.translate("MainWindow", "major: breaking interface change"),
            "minor": self.translate("MainWindow", "minor: compatible addition"),
            "patch": self.translate("MainWindow", "patch: weights or details only"),
            "none": self.translate("MainWindow", "patch: nothing changed"),
        }.get(diff.bump, diff.bump)
        self.view.store_shown_draft()
        item.draft.suggested = f"{version} ({bump})"
        previous = f"{diff.previous_name} {diff.previous_version}"
        self.view.log_line(
            item,
            self.translate("MainWindow", "Previous release %1 → suggested %2 (%3)")
            .replace("%1", previous)
            .replace("%2", version)
            .replace("%3", bump),
        )
        for change in diff.changes:
            self.view.log_line(item, f"  {change.impact}: {change.message}")
        item.draft.version = version

    def no_result_text(self, item: QueueItem) -> str | None:
        """What the Result tab says for a row whose latest bundle failed (None: the panel's own words)."""
        run = item.run
        if item.state is not ItemState.FAILED or item.error is None or run is None or run.outcome != "failed":
            return None
        text = self.translate("MainWindow", "The latest bundle of this row failed: %1").replace(
            "%1", self.view.message(item.error)
        ) + self._how_to_fix(item.error)  # (what to do about it, here too: not only in the dialog and the log)
        if item.last_success is not None:
            text += "\n" + self.translate("MainWindow", "The bundle made before it is still there: %1").replace(
                "%1", str(item.last_success.zip_path)
            )
        return text

    def release_title(self, item: QueueItem) -> str:
        """ "victory 1.2.0 — 2 models, 1 asset": the release as it will be bundled (its name and version as typed)."""
        scan = item.release
        counts = self.view.release_counts(scan.models, scan.assets) if scan is not None else ""
        return f"{item.draft.name} {item.draft.version} — {counts}"

    def blocked_reason(self, item: QueueItem | None, fix_ir: bool) -> str:
        if item is None:
            return self.translate("MainWindow", "Select a model in the queue to bundle it.")
        if not item.spec.bundles:
            return self.translate("MainWindow", "This row is a bundle: it is verified, not bundled.")
        if item.busy:
            return self.translate("MainWindow", "Busy: %1").replace("%1", self.view.state_text(item.state))
        gate = self.model.gate(item, fix_ir)
        if gate is None:
            if item.kind is Kind.RELEASE:
                return self.translate("MainWindow", "The release folder could not be read; see the Model tab.")
            return self.translate("MainWindow", "The model could not be read; see the Model tab.")
        n = len(gate.blocking)
        if not gate.ok and item.release is not None:
            first = gate.blocking[0]
            reason = self.view.count_text("off release", n)
            reason += "\n" + (f"{first.subject}: " if first.subject else "") + self.view.message(first)
            return reason
        if not gate.ok:
            first = gate.blocking[0]
            reason = self.view.count_text("off model", n)
            reason += "\n" + self.view.message(first)
            hint = self.view.finding_hint(first, gate)
            if hint:
                reason += "\n" + self.translate("MainWindow", "How to fix: %1").replace("%1", hint)
            return reason
        return ""

    def status_text(self) -> str:
        """The counts of the rows: "3 items · 3 being checked · 0 running · …" (a row inspecting is not idle: the
        status bar said "0 running" while three rows were inspected), and how many have warnings."""
        counts = self.model.counts()
        items, checking, warnings = counts["items"], counts["checking"], counts["warnings"]
        text = (self.view.count_text("items", items)
                .replace("%1", str(counts["running"])).replace("%2", str(counts["queued"]))
                .replace("%3", str(counts["bundled"])))  # fmt: skip
        if checking:
            text += " · " + self.view.count_text("checking", checking)
        if warnings:
            text += " · " + self.view.count_text("warnings", warnings)
        return text

    @staticmethod
    def referenced_data_files(item: QueueItem) -> list[str]:
        """The external data file names the model references (as written in it, relative to its folder)."""
        ext = item.validation.inspection.external if item.validation is not None else None
        return sorted({str(r.location) for r in ext.external_refs if r.location}) if ext is not None else []

    def data_file_prompt(self, item: QueueItem) -> tuple[str, str]:
        """The title and filters of Locate data file…'s dialog: they name the files the model references (so it
        says which name the model wants)."""
        names = self.referenced_data_files(item)
        if not names:
            return (
                self.translate("MainWindow", "Locate the data file of %1").replace("%1", item.path.name),
                self.translate("MainWindow", "External data (*.data *.bin *.weights);;All files (*)"),
            )
        title = (
            self.translate("MainWindow", "Locate the data file of %1: it references %2")
            .replace("%1", item.path.name)
            .replace("%2", ", ".join(names))
        )
        exact = " ".join(Path(n).name for n in names)
        filters = (
            self.translate("MainWindow", "Data files of %1 (%2)").replace("%1", item.path.name).replace("%2", exact)
            + ";;"
            + self.translate("MainWindow", "External data (*.data *.bin *.weights);;All files (*)")
        )
        return title, filters

    def data_file_chosen(self, item: QueueItem, path: Path) -> bool:
        """The user chose ``path`` as ``item``'s data file. The model finds its data by the names it references, in
        the chosen file's folder: a file of another name (a renamed copy) is not used, and the user is told which
        name the model wants instead of seeing the same "missing" finding again. Returns whether it was taken."""
        names = self.referenced_data_files(item)
        folder = path.parent
        wanted = [n for n in names if not (folder / n).is_file()]
        if names and path.name not in {Path(n).name for n in names} and wanted:
            self.view.show_error(
                self.worded_input(
                    self.translate("MainWindow", "%1 references its data as %2, not %3.")
                    .replace("%1", item.path.name)
                    .replace("%2", ", ".join(names))
                    .replace("%3", path.name),
                    self.translate(
                        "MainWindow",
                        "onnxpack looks for the data files by the names the model gives, in the folder of the file "
                        "you choose. Rename or copy %1 to %2 in %3, then choose it again.",
                    )
                    .replace("%1", path.name)
                    .replace("%2", wanted[0])
                    .replace("%3", str(folder)),
                    code="DATA_FILE_NAME",
                ),
                self.translate("MainWindow", "Locate data file"),
            )
            return False
        self.view.set_data_dir(item, folder)
        return True

    # --- job outcomes -------------------------------------------------------------------------
    def run_title(self, item: QueueItem) -> str:
        """The Progress tab's title of ``item``'s bundle run: its name and version ("2 of 3" while a batch runs)."""
        title = f"{item.draft.name} {item.draft.version}"
        if item.release is not None:  # a release's stages run once per model: say how many
            title = self.release_title(item)
        if len(self.batch) > 1 and item in self.batch:  # "2 of 3" while a batch runs
            title += " " + self.translate("MainWindow", "(%1 of %2)").replace(
                "%1", str(self.batch.index(item) + 1)
            ).replace("%2", str(len(self.batch)))
        return title

    def failed(self, item: QueueItem, kind: JobKind, err: OnnxpackError) -> None:
        """A job of ``item`` failed: the row, the log, the Progress tab and (outside a batch) an error dialog."""
        if kind is JobKind.SUGGEST:  # a bad previous bundle: say so beside the version, no dialog
            item.draft.suggested = ""
            self.view.log_line(
                item,
                self.translate("MainWindow", "Cannot compare with the previous bundle: %1").replace(
                    "%1", self.view.message(err)
                ),
            )
            self.view.show_error(err, self.translate("MainWindow", "Cannot read the previous bundle"))
            self.view.refresh(item)
            return
        item.error = err
        self.view.log_line(item, self.translate("MainWindow", "Error: %1").replace("%1", self.view.message(err)))
        hint = self.view.hint(err.code, err.hint, err.params)
        if hint:
            self.view.log_line(item, self.translate("MainWindow", "How to fix: %1").replace("%1", hint))
        if kind is JobKind.BUNDLE:
            # Writing the output is the ZIP stage's work, --prove-ort's errors the Prove stage's, whatever stage
            # reported last (state.failed_stage).
            self.view.run_finished("failed", failed_stage(err))
            self.bundle_failed(item)
            in_batch = len(self.batch) > 1  # one summary when the batch is over, not one dialog per model
            if in_batch:
                self.batch_failures.append((item, err))
            self.bundle_ended(item)
            if in_batch:
                self.view.refresh(item)
                return
        else:
            self.view.set_state(item, ItemState.FAILED)
        titles = {
            JobKind.INSPECT: self.translate("MainWindow", "Cannot read this model"),
            JobKind.SCAN: self.translate("MainWindow", "Cannot read this release folder"),
            JobKind.VERIFY: self.translate("MainWindow", "Cannot verify this bundle"),
            JobKind.BUNDLE: self.translate("MainWindow", "Bundling failed"),
        }
        self.view.show_error(err, titles.get(kind, self.translate("MainWindow", "Error")))
        self.view.refresh(item)

    def cancelled(self, item: QueueItem, kind: JobKind) -> None:
        if kind is JobKind.BUNDLE:
            was_running = self.current_bundle is item
            self.view.log_line(
                item, self.translate("MainWindow", "Cancelled %1; nothing was written.").replace("%1", item.path.name)
            )
            if was_running:
                self.view.run_finished("cancelled")
            self.keep_earlier_bundle(item)
            self.bundle_ended(item)
        elif kind is not JobKind.SUGGEST:
            self.view.set_state(item, ItemState.CANCELLED)
        self.view.refresh(item)

    # --- bundling ------------------------------------------------------------------------------
    def bundle_rows(self, order: Sequence[Any]) -> list[QueueItem]:
        """The rows with a bundle job, in ``order`` (the bundle queue's jobs: the running one first)."""
        place = {id(job): n for n, job in enumerate(order)}
        rows = [i for i in self.model.items if i.job is not None and i.job.kind == JobKind.BUNDLE]
        return sorted(rows, key=lambda i: place.get(id(i.job), len(place)))

    def running_bundle(self, order: Sequence[Any]) -> QueueItem | None:
        """The row being bundled (else the one that starts next): what Esc and the Progress tab's Cancel stop."""
        rows = self.bundle_rows(order)
        running = [i for i in rows if i.state in (ItemState.RUNNING, ItemState.CANCELLING)]
        first = running or rows
        return first[0] if first else None
