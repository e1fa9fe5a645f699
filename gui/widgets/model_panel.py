"""The facts of one dropped item: a model's inspection and findings, or a bundle's verification."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from onnxpack.core.findings import Finding, Severity, worst
from onnxpack.core.model.layout import Layout

if TYPE_CHECKING:  # the engine's result types, for mypy only: importing them would load onnx at start-up
    from onnxpack.core.checks.compat import CompatResult
    from onnxpack.core.checks.validate import Validation
    from onnxpack.core.release.verify.verify import VerifyReport

    from ..model.state import Gate, ReleaseScan

from ..formatting import format_bytes, format_shape
from ..hints import gui_hint, tick
from ..icons import severity_icon, status_icon
from ..messages import gui_message
from ..model.rowview import RowView
from ..model.state import FIXED_BY_LOWERING_IR, Kind
from .common import DataTable, Retranslatable, SizeBar, StatusLabel, scrolled

__all__ = ["ModelPanel", "finding_hint", "release_counts", "role_text"]

TAB_OVERVIEW, TAB_INTERFACE, TAB_FINDINGS, TAB_EXTERNAL, TAB_RELEASE = range(5)


class ReleaseWords(QObject):
    """The words of a release's contents (a class: lupdate reads the plurals of ``self.tr``, not of translate())."""

    def counts(self, models: int, assets: int) -> str:
        text = self.tr("%n model(s)", "", models)
        if not assets:
            return text
        return self.tr("%1, %2").replace("%1", text).replace("%2", self.tr("%n asset(s)", "", assets))


def release_counts(models: int, assets: int) -> str:
    """"2 models, 1 asset" (a release of several files; no assets: "2 models"), in the app's language."""
    return ReleaseWords().counts(models, assets)


def finding_hint(finding: Finding, gate: Gate | None) -> str:
    """How to fix ``finding``, matched to the bundle gate: "tick Retarget…" is said only where ticking
    it would let the model bundle; while another error stops it, the hint says that one comes first."""
    hint = gui_hint(finding.code, finding.hint, finding.message_params()) or ""
    if gate is None or finding.code not in FIXED_BY_LOWERING_IR:
        return hint
    others = sorted({f.code for f in gate.blocking if f.code not in FIXED_BY_LOWERING_IR})
    if others:
        return QCoreApplication.translate(
            "Hints", "Lowering the IR version would not let this model bundle: %1 must be fixed first."
        ).replace("%1", ", ".join(others))
    if not gate.lowering_possible:
        return QCoreApplication.translate("Hints", "Choose a Target ONNX Runtime, then %1.").replace(
            "%1", tick("fix_ir")
        )
    return hint


def role_text(role: str) -> str:
    """A file's role in a model folder or bundle, in words."""
    words = {
        "model": QCoreApplication.translate("Roles", "model"),
        "data": QCoreApplication.translate("Roles", "external data"),
        "external data": QCoreApplication.translate("Roles", "external data"),
        "external-data": QCoreApplication.translate("Roles", "external data"),
        "ort": QCoreApplication.translate("Roles", "ORT-format model"),
        "ort-model": QCoreApplication.translate("Roles", "ORT-format model"),
        "ort-config": QCoreApplication.translate("Roles", "ORT operator list"),
        "manifest": QCoreApplication.translate("Roles", "manifest"),
        "readme": QCoreApplication.translate("Roles", "read-me"),
        "checksums": QCoreApplication.translate("Roles", "checksums (sha256sum -c)"),
        "smoke-output": QCoreApplication.translate("Roles", "reference output"),
        "smoke-input": QCoreApplication.translate("Roles", "smoke-run input"),
        # a release of several files: the files the app reads beside its models, and what each asset is to it
        "asset": QCoreApplication.translate("Roles", "asset (a file the app reads)"),
        "label-map": QCoreApplication.translate("Roles", "label map"),
        "tokenizer": QCoreApplication.translate("Roles", "tokenizer"),
        "config": QCoreApplication.translate("Roles", "configuration"),
        "other": QCoreApplication.translate("Roles", "other file"),
    }
    return words.get(role, role)


class _Facts(QWidget):
    """A form of label → value rows whose labels are re-translated and values are selectable text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.form = QFormLayout(self)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)

    def set_rows(self, rows: Sequence[tuple[str, str]]) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        for label, value in rows:
            v = QLabel(value)
            v.setWordWrap(True)
            v.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            v.setAccessibleName(label)
            self.form.addRow(label, v)

    def value(self, label: str) -> str:
        for row in range(self.form.rowCount()):
            lab = self.form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            val = self.form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            lab_w = lab.widget() if lab else None
            val_w = val.widget() if val else None
            if isinstance(lab_w, QLabel) and lab_w.text() == label and isinstance(val_w, QLabel):
                return val_w.text()
        raise KeyError(label)


class ModelPanel(Retranslatable, QWidget):
    """Tabs: Overview (status, size bar, facts), Interface, Findings, External data; for a release of several files
    (a folder, or a bundle of schema 2) also Release (its models, assets and what is left out), and a chooser of the
    model the other tabs show."""

    release_model_chosen = Signal(int)  # the index of the release's model the tabs should show
    split_requested = Signal()  # "Bundle each model on its own"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._again: Callable[[], None] | None = None  # shows what is shown again (a language switch)
        self._back_to_release = False  # the Release tab was in view: the next release shown keeps it in view
        self.tabs = QTabWidget(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        # a release: which of its models the tabs show, and the way to bundle each model on its own
        self.chooser_bar = QWidget()
        bar = QHBoxLayout(self.chooser_bar)
        bar.setContentsMargins(4, 4, 4, 0)
        self.chooser_label = QLabel()
        self.chooser = QComboBox()
        self.chooser.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.chooser.setMinimumContentsLength(12)
        self.chooser_label.setBuddy(self.chooser)
        self.chooser.activated.connect(self.release_model_chosen.emit)
        self.split_button = QPushButton()
        self.split_button.clicked.connect(self.split_requested.emit)
        bar.addWidget(self.chooser_label)
        bar.addWidget(self.chooser, 1)
        bar.addWidget(self.split_button)
        self.chooser_bar.hide()
        layout.addWidget(self.chooser_bar)
        layout.addWidget(self.tabs)

        overview = QWidget()
        ov = QVBoxLayout(overview)
        self.title = QLabel()
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title.setWordWrap(True)
        self.status = StatusLabel()
        self.smoke_status = StatusLabel()  # a bundle's smoke run, when it was verified with one
        self.smoke_status.hide()
        self.size_box = QGroupBox()
        sb = QVBoxLayout(self.size_box)
        self.size_bar = SizeBar()
        self.files = DataTable(3)
        self.files.fit_height()
        sb.addWidget(self.size_bar)
        sb.addWidget(self.files)
        self.facts = _Facts()
        self.facts_box = QGroupBox()
        fl = QVBoxLayout(self.facts_box)
        fl.addWidget(self.facts)
        ov.addWidget(self.title)
        ov.addWidget(self.status)
        ov.addWidget(self.smoke_status)
        ov.addWidget(self.size_box)
        ov.addWidget(self.facts_box)
        ov.addStretch(1)
        scroll = scrolled(overview)

        self.interface = DataTable(4)
        self.findings = DataTable(4)
        self.findings.wrap_columns(2, 3)  # the message and how to fix it: read whole, never cut at the edge
        self.external = DataTable(7)
        self.tabs.addTab(scroll, "")
        self.tabs.addTab(self.interface, "")
        self.tabs.addTab(self.findings, "")
        self.tabs.addTab(self.external, "")

        # a release of several files: its models, its assets (path, role, size) and the files it leaves out
        release = QWidget()
        rl = QVBoxLayout(release)
        self.release_summary = QLabel()
        self.release_summary.setWordWrap(True)
        self.release_summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.models_box = QGroupBox()
        self.release_models = DataTable(3)
        self.release_models.fit_height()
        QVBoxLayout(self.models_box).addWidget(self.release_models)
        self.assets_box = QGroupBox()
        self.release_assets = DataTable(3)
        self.release_assets.fit_height()
        QVBoxLayout(self.assets_box).addWidget(self.release_assets)
        self.skipped_box = QGroupBox()
        self.release_skipped = DataTable(2)
        self.release_skipped.fit_height()
        QVBoxLayout(self.skipped_box).addWidget(self.release_skipped)
        for w in (self.release_summary, self.models_box, self.assets_box, self.skipped_box):
            rl.addWidget(w)
        rl.addStretch(1)
        self.tabs.addTab(scrolled(release), "")
        self.tabs.setTabVisible(TAB_RELEASE, False)
        self.retranslate()

    # --- language -----------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.size_box.setTitle(self.tr("Size"))
        self.facts_box.setTitle(self.tr("Format"))
        self.files.set_headers([self.tr("File"), self.tr("Role"), self.tr("Size")])
        self.interface.set_headers([self.tr("Direction"), self.tr("Name"), self.tr("Type"), self.tr("Shape")])
        self.findings.set_headers([self.tr("Severity"), self.tr("Code"), self.tr("Message"), self.tr("How to fix")])
        self.external.set_headers(
            [
                self.tr("Tensor"),
                self.tr("Type"),
                self.tr("File"),
                self.tr("Offset (bytes)"),
                self.tr("Length (bytes)"),
                self.tr("Aligned"),
                self.tr("Checksum"),
            ]
        )
        self.files.setAccessibleName(self.tr("Files of the model"))
        self.interface.setAccessibleName(self.tr("Model inputs and outputs"))
        self.findings.setAccessibleName(self.tr("Findings"))
        self.external.setAccessibleName(self.tr("External data"))
        self.size_bar.retranslate()
        self.tabs.setTabText(TAB_OVERVIEW, self.tr("Overview"))
        self.tabs.setTabText(TAB_INTERFACE, self.tr("Interface"))
        self.tabs.setTabText(TAB_RELEASE, self.tr("Release"))
        self.chooser_label.setText(self.tr("Sho&w model:"))
        self.chooser.setToolTip(self.tr("The model of the release that the Overview, Interface, Findings and "
                                        "External data tabs show"))
        self.split_button.setText(self.tr("Bundle &each model on its own…"))
        self.split_button.setToolTip(self.tr("Replace this release row by one row per model: each model is then "
                                             "bundled into a ZIP of its own, without the release's other files"))
        self.models_box.setTitle(self.tr("Models"))
        self.assets_box.setTitle(self.tr("Assets: files the app reads beside its models"))
        self.skipped_box.setTitle(self.tr("Left out of the release"))
        self.release_models.set_headers([self.tr("Model"), self.tr("Status"), self.tr("Size")])
        self.release_assets.set_headers([self.tr("File"), self.tr("Role"), self.tr("Size")])
        self.release_skipped.set_headers([self.tr("Path"), self.tr("Why")])
        self.release_models.setAccessibleName(self.tr("Models of the release"))
        self.release_assets.setAccessibleName(self.tr("Assets of the release"))
        self.release_skipped.setAccessibleName(self.tr("Files left out of the release"))
        if self._again is not None:
            self._again()
        else:
            self._set_counts(0, 0)

    def _set_counts(self, findings: int, external: int) -> None:
        self.tabs.setTabText(2, self.tr("Findings (%1)").replace("%1", str(findings)))
        self.tabs.setTabText(3, self.tr("External data (%1)").replace("%1", str(external)))

    def severity_text(self, severity: Severity) -> str:
        return {
            Severity.ERROR: self.tr("Error"),
            Severity.WARNING: self.tr("Warning"),
            Severity.INFO: self.tr("Info"),
        }[severity]

    def _show_findings(self, findings: list[Finding], gate: Gate | None = None) -> None:
        ordered = sorted(findings, key=lambda f: -f.severity.rank)
        texts = [gui_message(f) for f in ordered]
        hints = [finding_hint(f, gate) for f in ordered]
        rows = [
            [self.severity_text(f.severity), f.code, text + (f" ({f.subject})" if f.subject and f.subject not in text
                                                             else ""), hint]  # never "no manifest.json (manifest.json)"
            for f, text, hint in zip(ordered, texts, hints, strict=True)
        ]
        self.findings.set_rows(rows, [severity_icon(f.severity) for f in ordered])
        for r, (f, text, hint) in enumerate(zip(ordered, texts, hints, strict=True)):
            item = self.findings.item(r, 2)
            if item is not None and text != f.message:  # translated: it names fewer values than the English
                item.setToolTip(f.message + (f"\n{f.hint}" if f.hint else ""))
            hint_item = self.findings.item(r, 3)
            if hint_item is not None and hint:  # a long hint is cut off in its column: the whole of it on hover
                hint_item.setToolTip(hint)
        w = worst(findings)
        self.tabs.setTabIcon(2, severity_icon(w) if w is not None else status_icon("ok"))

    def clear(self) -> None:
        self._again = None
        self.chooser_bar.hide()
        if self.tabs.currentIndex() == TAB_RELEASE:  # another release shown next keeps its Release tab in view
            self._back_to_release = True
            self.tabs.setCurrentIndex(TAB_OVERVIEW)
        self.tabs.setTabVisible(TAB_RELEASE, False)
        for t in (self.release_models, self.release_assets, self.release_skipped):
            t.setRowCount(0)
        self.release_summary.clear()
        self.title.clear()
        self.status.set_status(None, "")
        self.smoke_status.set_status(None, "")
        self.smoke_status.hide()
        self.size_bar.set_size(None)
        for t in (self.files, self.interface, self.findings, self.external):
            t.setRowCount(0)
        self.facts.set_rows([])
        self._set_counts(0, 0)

    def render_row_view(self, row: RowView) -> None:
        """The selected row: a model's checks, a bundle's verification, a release's models (the one chosen), its
        failure, or that it is being read."""
        item = row.item
        if item is None:
            self.clear()
        elif item.validation is not None and item.kind is Kind.MODEL:
            self.show_validation(item.validation, row.gate, row.warnings)
        elif item.report is not None and item.kind is Kind.BUNDLE:
            self.show_verify(item.report, item.verified_with_smoke, row.warnings)
        elif item.release is not None and item.kind is Kind.RELEASE:
            self.show_release(item.release, min(item.shown_model, item.release.models - 1), row.title, row.gate,
                              row.warnings)
        elif item.error is not None:
            self.show_failure(item.path.name, row.failure)
        else:
            self.show_pending(item.path, verifying=item.kind is Kind.BUNDLE, release=item.kind is Kind.RELEASE)

    def show_failure(self, name: str, text: str) -> None:
        """A row that could not be read (or verified): its name and its error, with how to fix it."""
        self.clear()
        self.title.setText(name)
        self.status.set_status(status_icon("failed"), text)

    def show_pending(self, path: Path, verifying: bool = False, release: bool = False) -> None:
        self.clear()
        self._again = lambda: self.show_pending(path, verifying, release)
        self.title.setText(Path(path).name)
        if release:
            text = self.tr("Reading the folder and checking each of its models…")
        else:
            text = self.tr("Verifying the bundle…") if verifying else self.tr("Reading and checking the model…")
        self.status.set_status(status_icon("busy"), text)

    # --- a release of several files -------------------------------------------------------------------
    def release_counts(self, models: int, assets: int) -> str:
        return release_counts(models, assets)

    def show_release(self, scan: ReleaseScan, index: int, title: str, gate: Gate | None = None,
                     bundled: Sequence[Finding] = ()) -> None:
        """A release folder: the chosen model's overview, interface, findings and external data (``gate`` its own
        bundle gate), the Release tab listing every model, asset and file left out, and the chooser of the model."""
        self.show_validation(scan.validations[index], gate, bundled)
        self._again = lambda: self.show_release(scan, index, title, gate, bundled)
        self.title.setText(title + "\n" + self.tr("Showing %1 (model %2 of %3)").replace("%1", scan.member(index))
                           .replace("%2", str(index + 1)).replace("%3", str(scan.models)))
        self.chooser.blockSignals(True)
        self.chooser.clear()
        for i in range(scan.models):
            self.chooser.addItem(scan.member(i))
        self.chooser.setCurrentIndex(index)
        self.chooser.blockSignals(False)
        self.chooser_bar.show()
        self.split_button.show()
        tree = scan.tree
        errors = sum(not v.ok for v in scan.validations)
        summary = self.tr("%1 is one release: %2, bundled into one ZIP at their paths under %3/.").replace(
            "%1", str(tree.root)).replace("%2", release_counts(scan.models, scan.assets)).replace("%3", tree.prefix)
        if errors:
            summary += " " + self.tr("%n model(s) have error findings: the release cannot be bundled until they are "
                                     "fixed.", "", errors)
        self.release_summary.setText(summary)
        rows, icons = [], []
        for model, val in zip(tree.models, scan.validations, strict=True):
            n_err = sum(f.severity is Severity.ERROR for f in val.findings)
            n_warn = sum(f.severity is Severity.WARNING for f in val.findings)
            if n_err:
                status, icon = self.tr("%n error(s)", "", n_err), severity_icon(Severity.ERROR)
            elif n_warn:
                status, icon = self.tr("%n warning(s)", "", n_warn), severity_icon(Severity.WARNING)
            else:
                status, icon = self.tr("ready"), status_icon("ok")
            rows.append([self._model_cell(model.member, [Path(d).name for d in model.data]), status,
                         format_bytes(val.inspection.total_size)])
            icons.append(icon)
        self.release_models.set_rows(rows, icons)
        self._show_assets([(a.member, a.role, a.size) for a in tree.assets])
        self._show_skipped([(p, why) for p, why in tree.skipped])
        self._show_release_tab()

    def _model_cell(self, member: str, data: Sequence[str]) -> str:
        """A model's path in the release, and its external-data files on a line below (a 4th column of them pushed the
        size out of view at 1024×768)."""
        return member + ("\n" + self.tr("with its data: %1").replace("%1", ", ".join(data)) if data else "")

    def _show_release_tab(self) -> None:
        self.tabs.setTabVisible(TAB_RELEASE, True)
        if self._back_to_release:
            self._back_to_release = False
            self.tabs.setCurrentIndex(TAB_RELEASE)

    def _show_assets(self, assets: Sequence[tuple[str, str, Any]]) -> None:
        self.assets_box.setVisible(True)
        self.release_assets.set_rows([[path, role_text(role), format_bytes(size)] for path, role, size in assets])
        if not assets:
            self.release_assets.setRowCount(0)
            self.assets_box.setTitle(self.tr("Assets: none (the release holds only its models)"))
        else:
            self.assets_box.setTitle(self.tr("Assets: files the app reads beside its models"))

    def _show_skipped(self, skipped: Sequence[tuple[str, str]]) -> None:
        self.skipped_box.setVisible(bool(skipped))
        self.release_skipped.set_rows([[path, self.skip_reason(why)] for path, why in skipped])

    def skip_reason(self, why: str) -> str:
        """Why a file is left out of a release (core.release.folder's reasons), in words."""
        words = {
            "hidden": self.tr("hidden"),
            "cache or system folder": self.tr("cache or system folder"),
            "system or editor file": self.tr("system or editor file"),
            "the output folder": self.tr("the output folder"),
            "external data no model references": self.tr("external data no model references"),
        }
        if why.startswith("excluded by --exclude "):
            return self.tr("excluded by the pattern %1").replace("%1", why.removeprefix("excluded by --exclude "))
        return words.get(why, why)

    # --- a model ------------------------------------------------------------------------------
    def show_validation(self, validation: Validation, gate: Gate | None = None,
                        bundled: Sequence[Finding] = ()) -> None:
        """Show a ``core.validate.Validation`` (inspection facts + findings + compatibility); ``gate`` (the bundle
        gate with the chosen settings) words the hints of the findings it concerns; ``bundled``: the warnings of the
        row's bundle (its smoke run's: all outputs NaN), listed with the findings: a warning is never silent."""
        self.clear()
        self._again = lambda: self.show_validation(validation, gate, bundled)
        insp = validation.inspection
        model_path = insp.location.model
        self.title.setText(model_path.name)
        findings = list(validation.findings)
        seen = {(f.code, f.subject, f.message) for f in findings}
        findings += [f for f in bundled if (f.code, f.subject, f.message) not in seen]
        n_err = sum(f.severity is Severity.ERROR for f in findings)
        n_warn = sum(f.severity is Severity.WARNING for f in findings)
        if n_err:
            self.status.set_status(
                severity_icon(Severity.ERROR),
                self.tr("Not ready to bundle: %1, %2 — see Findings.")
                .replace("%1", self.tr("%n error(s)", "", n_err))
                .replace("%2", self.tr("%n warning(s)", "", n_warn)),
            )
        elif n_warn and bundled:
            self.status.set_status(
                severity_icon(Severity.WARNING),
                self.tr("Bundled, with %n warning(s) — see Findings.", "", n_warn),
            )
        elif n_warn:
            self.status.set_status(
                severity_icon(Severity.WARNING),
                self.tr("Ready to bundle, with %n warning(s) — see Findings.", "", n_warn),
            )
        else:
            self.status.set_status(status_icon("ok"), self.tr("Ready to bundle: no problems found."))

        self.size_bar.set_size(insp.merged_size)
        self.files.set_rows(
            [[f["path"], role_text(str(f.get("role", ""))), format_bytes(f.get("size"))] for f in insp.files]
        )
        opset_text = ", ".join(f"{d or 'ai.onnx'} {v}" for d, v in sorted(insp.opsets.items()))
        producer = " ".join(x for x in (insp.producer_name, insp.producer_version) if x)
        rows = [
            (self.tr("Location"), str(model_path.parent)),
            (self.tr("Layout"), self.layout_text(insp.layout)),
            (self.tr("Total size on disk"), format_bytes(insp.total_size)),
            (self.tr("Size as one file"), format_bytes(insp.merged_size)),
            (self.tr("IR version"), "?" if insp.ir_version is None else str(insp.ir_version)),
            (self.tr("Opsets"), opset_text or "-"),
            (self.tr("Oldest ONNX Runtime"), self.oldest_ort_text(validation.compat)),
            (self.tr("Producer"), producer or "-"),
            (self.tr("Model version"), str(insp.model_version or "-")),
        ]
        if insp.layout != Layout.ORT:  # an ORT-format model has no initializer table to count
            inits = insp.initializers
            text = self.tr("%n tensor(s), %1 (%2 in external data)", "", inits.count)
            text = text.replace("%1", format_bytes(inits.bytes))
            rows.append((self.tr("Initializers"), text.replace("%2", format_bytes(inits.external_bytes))))
        ops = insp.operators
        if ops:
            shown = ", ".join(f"{o['op_type']} ×{o['count']}" for o in ops[:12])
            if len(ops) > 12:
                shown += f", … (+{len(ops) - 12})"
            # Two counts, one plural each ("1 node of 1 kind", "5 nodes of 3 kinds"): Qt's %n takes one number
            nodes = self.tr("%n node(s)", "", insp.node_count)
            text = self.tr("%1 of %n kind(s): %2", "", len(ops)).replace("%1", nodes).replace("%2", shown)
            rows.append((self.tr("Operators"), text))
        if insp.metadata:
            rows.append((self.tr("Metadata"), "\n".join(f"{k} = {v}" for k, v in sorted(insp.metadata.items()))))
        if insp.doc_string:
            rows.append((self.tr("Description"), insp.doc_string[:500]))
        self.facts.set_rows(rows)

        io_rows = [
            [self.tr("Input"), v.get("name"), v.get("elem_type"), format_shape(v.get("shape"))] for v in insp.inputs
        ] + [
            [self.tr("Output"), v.get("name"), v.get("elem_type"), format_shape(v.get("shape"))] for v in insp.outputs
        ]
        self.interface.set_rows(io_rows)
        self._show_findings(findings, gate)

        # only the tensors stored in external files: a self-contained model's inline tensors are not "external data"
        refs = [] if insp.external is None else list(insp.external.external_refs)
        ext_rows = []
        for ref in refs:
            d = ref.to_dict()
            aligned = (
                self.tr("64 KiB") if ref.aligned_64k else (self.tr("4 KiB") if ref.aligned_4k else self.tr("no"))
            )
            ext_rows.append(
                [
                    d.get("tensor"),
                    d.get("data_type"),
                    d.get("location"),
                    f"{d.get('offset') or 0:,}",  # exact bytes, both columns: offsets are about alignment
                    f"{d.get('effective_length') or 0:,}",
                    aligned,
                    self.tr("verified") if d.get("checksum") else self.tr("none"),
                ]
            )
        self.external.set_rows(ext_rows)
        self._set_counts(len(findings), len(refs))

    def layout_text(self, layout: str) -> str:
        words: dict[str, str] = {
            Layout.SINGLE: self.tr("one self-contained .onnx file"),
            Layout.EXTERNAL: self.tr(".onnx with external data files"),
            Layout.ORT: self.tr("ORT format (.ort)"),
        }
        return words.get(layout, layout or "-")

    def oldest_ort_text(self, compat: CompatResult | None) -> str:
        if compat is None:
            return "-"
        if compat.oldest is None:
            return self.tr("none known: no ONNX Runtime release loads this IR/opset combination")
        text = self.tr("%1 or newer").replace("%1", compat.oldest.version)
        lowered = compat.oldest_if_ir_lowered
        if lowered is not None:
            text += " " + self.tr("(%1 if the IR version is lowered)").replace("%1", lowered.version)
        return text

    # --- a bundle -----------------------------------------------------------------------------
    def smoke_text(self, report: VerifyReport, requested: bool) -> tuple[str, str]:
        """Whether a verification's smoke run ran and passed, as (icon kind, sentence)."""
        smoke = report.smoke
        if not requested:
            return "ready", self.tr("No smoke run: the files were checked against the manifest (File → Verify "
                                    "bundle with a smoke run runs the model too).")
        if smoke is None:
            return "warning", self.tr("Smoke run skipped: the bundle failed verification, so its model was not run.")
        ort = str(smoke.get("ort_version") or "?")
        if not smoke.get("ran"):
            return "failed", self.tr("Smoke run FAILED: the recorded run could not be repeated — see Findings.")
        if not smoke.get("ok") or not report.ok:
            return "failed", self.tr("Smoke run FAILED (onnxruntime %1): the outputs do not match the recorded "
                                     "ones — see Findings.").replace("%1", ort)
        comparison = smoke.get("comparison")
        if comparison == "exact":
            text = self.tr("Smoke run passed (onnxruntime %1): every output is bit for bit the recorded one.")
        elif comparison == "tolerance":
            text = self.tr("Smoke run passed (onnxruntime %1, the bundle recorded %2): the outputs equal the "
                           "recorded ones within the cross-version tolerance.")
        else:
            text = self.tr("Smoke run passed (onnxruntime %1): the model runs; the bundle records no outputs to "
                           "compare with.")
        return "ok", text.replace("%1", ort).replace("%2", str(smoke.get("recorded_ort_version") or "?"))

    def _created_text(self, manifest: object) -> str:
        """The bundle's ``created`` time and where it comes from: a reproducible bundle is dated by the newest
        modification time of its source files (or SOURCE_DATE_EPOCH), not by when it was written."""
        if not isinstance(manifest, Mapping) or not manifest.get("created"):
            return "-"
        origin = {"source-mtime": self.tr("the newest modification time of the source files"),
                  "SOURCE_DATE_EPOCH": "SOURCE_DATE_EPOCH"}.get(str(manifest.get("created_from", "")))  # fmt: skip
        return f"{manifest['created']} ({origin})" if origin else str(manifest["created"])

    def _release_rows(self, manifest: object) -> list[tuple[str, str]]:
        """A bundle's release metadata and the ONNX Runtime releases it was proven on, shown for a verified bundle
        as for one built here."""
        if not isinstance(manifest, Mapping):
            return []
        rows = []
        about = manifest.get("about") if isinstance(manifest.get("about"), Mapping) else {}
        labels = about.get("labels") if isinstance(about, Mapping) else None
        if isinstance(labels, list) and labels:
            rows.append((self.tr("Labels"), self.tr("%n label(s): %1", "", len(labels))
                         .replace("%1", ", ".join(str(x) for x in labels))))
        if isinstance(about, Mapping):
            for key, label in (("license", self.tr("License")), ("homepage", self.tr("Homepage"))):
                if about.get(key):
                    rows.append((label, str(about[key])))
            if about.get("authors"):
                rows.append((self.tr("Authors"), "; ".join(str(a) for a in about["authors"])))
        prove = manifest.get("prove_ort")
        releases = prove.get("releases") if isinstance(prove, Mapping) else None
        if isinstance(releases, list) and releases:
            parts = [f"{r.get('version', '?')} ({self._proven_text(r)})" for r in releases if isinstance(r, Mapping)]
            rows.append((self.tr("Proven on ONNX Runtime"), ", ".join(parts)))
        return rows

    def _proven_text(self, release: Mapping[str, object]) -> str:
        if not release.get("loaded"):
            return self.tr("did not load it")
        if release.get("outputs_bitwise_equal"):
            return self.tr("bitwise equal")
        return self.tr("equal within the tolerance") if release.get("ok") else self.tr("outputs differ")

    def _show_release_interface(self, models: Sequence[object]) -> None:
        """Each model's inputs and outputs, named with the model's path in the release."""
        rows = []
        for m in models:
            if not isinstance(m, Mapping):
                continue
            entry = str((m.get("model") or {}).get("entry") or "?") if isinstance(m.get("model"), Mapping) else "?"
            insp = m.get("inspection") if isinstance(m.get("inspection"), Mapping) else {}
            for key, word in (("inputs", self.tr("Input")), ("outputs", self.tr("Output"))):
                for v in insp.get(key, []) if isinstance(insp, Mapping) else []:
                    rows.append([word, f"{entry}: {v.get('name')}", v.get("elem_type"), format_shape(v.get("shape"))])
        self.interface.set_rows(rows)

    def _show_bundle_release(self, manifest: Mapping[str, Any], models: Sequence[Any],
                             assets: Sequence[Mapping[str, Any]], report: VerifyReport, with_smoke: bool) -> None:
        """A verified bundle of several files (schema 2): its models (and each one's smoke re-run when asked for),
        its assets and what it left out, in the Release tab."""
        runs = {}
        if with_smoke and isinstance(report.smoke, Mapping):
            runs = {str(r.get("model")): r for r in report.smoke.get("models") or [] if isinstance(r, Mapping)}
        rows, icons = [], []
        for m in models:
            if not isinstance(m, Mapping):
                continue
            doc = m.get("model") if isinstance(m.get("model"), Mapping) else {}
            entry = str(doc.get("entry") or "?") if isinstance(doc, Mapping) else "?"
            run = runs.get(entry)
            if run is None:
                status, icon = (self.tr("not run (verified without a smoke run)") if not with_smoke
                                else self.tr("not run")), status_icon("ready")
            elif run.get("ran") and run.get("ok"):
                status, icon = self.tr("smoke run passed (onnxruntime %1)").replace(
                    "%1", str(run.get("ort_version") or "?")), status_icon("ok")
            else:
                status, icon = self.tr("smoke run FAILED"), status_icon("failed")
            size = sum(int(f.get("size") or 0) for f in manifest.get("files") or []
                       if isinstance(f, Mapping) and str(f.get("path", "")) == entry)
            data = doc.get("data") if isinstance(doc, Mapping) else None
            rows.append([self._model_cell(entry, [str(data)] if data else []), status, format_bytes(size or None)])
            icons.append(icon)
        self.release_models.set_rows(rows, icons)
        self._show_assets([(str(a.get("path")), str(a.get("role")), a.get("size")) for a in assets])
        skipped = manifest.get("skipped")
        self._show_skipped([(str(s.get("path")), str(s.get("reason"))) for s in skipped or []
                            if isinstance(s, Mapping)])
        release = manifest.get("bundle") if isinstance(manifest.get("bundle"), Mapping) else {}
        self.release_summary.setText(
            self.tr("A release of %1, at their paths under %2/.").replace("%1", release_counts(len(rows), len(assets)))
            .replace("%2", str(release.get("root") or "")) if isinstance(release, Mapping) else "")
        self._show_release_tab()

    def show_verify(self, report: VerifyReport, with_smoke: bool = False, recorded: Sequence[Finding] = ()) -> None:
        """Show a ``core.verify.VerifyReport`` of a dropped bundle; ``with_smoke``: it was asked for a smoke run,
        which then is said to have run and passed, or not; ``recorded``: the bundle's warnings (its manifest's, from
        when it was made: an all-NaN smoke run), listed with the problems and never under a green tick."""
        self.clear()
        self._again = lambda: self.show_verify(report, with_smoke, recorded)
        manifest = report.manifest or {}  # the bundle's own JSON: keys may be missing in an old or damaged one
        model = manifest.get("model", {}) if isinstance(manifest, Mapping) else {}
        release = manifest.get("bundle") if isinstance(manifest, Mapping) else None
        models = manifest.get("models") if isinstance(manifest, Mapping) else None
        if not isinstance(models, list) or not isinstance(release, Mapping):
            release, models = None, None
        if release is not None:  # schema 2: a release of several files names itself in "bundle"
            model = release
        self.title.setText(Path(report.path).name)
        problems = list(report.problems)
        problems += [f for f in recorded if f not in problems]
        errors = [p for p in problems if p.severity is Severity.ERROR]
        warned = sum(p.severity is Severity.WARNING for p in problems)
        if report.ok and not errors and warned:
            self.status.set_status(severity_icon(Severity.WARNING),
                                   self.tr("Verified: every file matches the manifest, with %n warning(s) — see "
                                           "Findings.", "", warned))
        elif report.ok and not errors:
            self.status.set_status(status_icon("ok"), self.tr("Verified: every file matches the manifest."))
        else:
            self.status.set_status(
                status_icon("failed"),
                self.tr("Verification failed: %n problem(s) — see Findings.", "", len(errors) or 1),
            )
        files = manifest.get("files", []) if isinstance(manifest, Mapping) else []
        self.files.set_rows(
            [[f.get("path"), role_text(str(f.get("role", ""))), format_bytes(f.get("size"))] for f in files]
        )
        sizes = [int(f.get("size") or 0) for f in files if f.get("role") in ("model",)]
        # a release's models are files of their own: the largest must fit in one .onnx file, not their sum
        total = (max(sizes, default=0) if models is not None else sum(sizes))
        self.size_bar.set_size(total or None)
        tool = manifest.get("tool", {}) if isinstance(manifest, Mapping) else {}
        assets = manifest.get("assets") if isinstance(manifest, Mapping) else None
        assets = [a for a in assets if isinstance(a, Mapping)] if isinstance(assets, list) and models else []
        rows = [
            (self.tr("Release name") if models is not None else self.tr("Model name"), str(model.get("name", "-"))),
            (self.tr("Release version"), str(model.get("version", "-"))),
            (self.tr("Created"), self._created_text(manifest)),
            (self.tr("Made with"), " ".join(str(tool.get(k, "")) for k in ("name", "version")).strip() or "-"),
        ]
        if models is not None:
            rows.insert(0, (self.tr("Holds"), release_counts(len(models), len(assets))))
        rows += self._release_rows(manifest)
        self.facts.set_rows(rows)
        icon, text = self.smoke_text(report, with_smoke)
        self.smoke_status.set_status(status_icon(icon), text)
        self.smoke_status.show()
        self.interface.setRowCount(0)
        # The bundled model's interface is in the manifest's "inspection" record.
        iface = (manifest.get("inspection") or manifest.get("interface") or {}) if isinstance(manifest, Mapping) else {}
        if models is not None:
            self._show_release_interface(models)
            self._show_bundle_release(manifest, models, assets, report, with_smoke)
        elif isinstance(iface, Mapping):
            self.interface.set_rows(
                [[self.tr("Input"), v.get("name"), v.get("elem_type"), format_shape(v.get("shape"))]
                 for v in iface.get("inputs", [])]
                + [[self.tr("Output"), v.get("name"), v.get("elem_type"), format_shape(v.get("shape"))]
                   for v in iface.get("outputs", [])]
            )
        self._show_findings(problems)
        self.external.setRowCount(0)
        self._set_counts(len(problems), 0)
