"""The facts of one dropped item: a model's inspection and findings, or a bundle's verification."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QLabel,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from onnxpack.core.findings import Finding, Severity, worst
from onnxpack.core.model.layout import Layout

if TYPE_CHECKING:  # the engine's result types, for mypy only: importing them would load onnx at start-up
    from onnxpack.core.checks.compat import CompatResult
    from onnxpack.core.checks.validate import Validation
    from onnxpack.core.release.verify import VerifyReport

    from .state import Gate

from .formatting import format_bytes, format_shape
from .hints import gui_hint, tick
from .icons import severity_icon, status_icon
from .messages import gui_message
from .state import FIXED_BY_LOWERING_IR
from .widgets import DataTable, Retranslatable, SizeBar, StatusLabel, scrolled

__all__ = ["ModelPanel", "finding_hint", "role_text"]


def finding_hint(finding: Finding, gate: Gate | None) -> str:
    """How to fix ``finding``, matched to the bundle gate: "tick Retarget…" is said only where ticking
    it would let the model bundle; while another error stops it, the hint says that one comes first (issue 30
    item 6)."""
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
    """Tabs: Overview (status, size bar, facts), Interface, Findings, External data."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._again: Callable[[], None] | None = None  # shows what is shown again (a language switch)
        self.tabs = QTabWidget(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
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
        self.tabs.setTabText(0, self.tr("Overview"))
        self.tabs.setTabText(1, self.tr("Interface"))
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
        self.title.clear()
        self.status.set_status(None, "")
        self.smoke_status.set_status(None, "")
        self.smoke_status.hide()
        self.size_bar.set_size(None)
        for t in (self.files, self.interface, self.findings, self.external):
            t.setRowCount(0)
        self.facts.set_rows([])
        self._set_counts(0, 0)

    def show_pending(self, path: Path, verifying: bool = False) -> None:
        self.clear()
        self._again = lambda: self.show_pending(path, verifying)
        self.title.setText(Path(path).name)
        self.status.set_status(status_icon("busy"), self.tr("Verifying the bundle…") if verifying
                               else self.tr("Reading and checking the model…"))  # fmt: skip

    # --- a model ------------------------------------------------------------------------------
    def show_validation(self, validation: Validation, gate: Gate | None = None,
                        bundled: Sequence[Finding] = ()) -> None:
        """Show a ``core.validate.Validation`` (inspection facts + findings + compatibility); ``gate`` (the bundle
        gate with the chosen settings) words the hints of the findings it concerns; ``bundled``: the warnings of the
        row's bundle (its smoke run's: all outputs NaN), listed with the findings (issue 41 item 1)."""
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
        """Whether a verification's smoke run ran and passed, as (icon kind, sentence) (issue 30 item 4)."""
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
        """A bundle's release metadata and the ONNX Runtime releases it was proven on (a verified bundle's view
        showed neither; issue 41 item 9)."""
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

    def show_verify(self, report: VerifyReport, with_smoke: bool = False, recorded: Sequence[Finding] = ()) -> None:
        """Show a ``core.verify.VerifyReport`` of a dropped bundle; ``with_smoke``: it was asked for a smoke run,
        which then is said to have run and passed, or not; ``recorded``: the bundle's warnings (its manifest's, from
        when it was made: an all-NaN smoke run), listed with the problems and never under a green tick."""
        self.clear()
        self._again = lambda: self.show_verify(report, with_smoke, recorded)
        manifest = report.manifest or {}  # the bundle's own JSON: keys may be missing in an old or damaged one
        model = manifest.get("model", {}) if isinstance(manifest, Mapping) else {}
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
        total = sum(int(f.get("size") or 0) for f in files if f.get("role") in ("model",))
        self.size_bar.set_size(total or None)
        tool = manifest.get("tool", {}) if isinstance(manifest, Mapping) else {}
        rows = [
            (self.tr("Model name"), str(model.get("name", "-"))),
            (self.tr("Release version"), str(model.get("version", "-"))),
            (self.tr("Created"), self._created_text(manifest)),
            (self.tr("Made with"), " ".join(str(tool.get(k, "")) for k in ("name", "version")).strip() or "-"),
        ]
        rows += self._release_rows(manifest)
        self.facts.set_rows(rows)
        icon, text = self.smoke_text(report, with_smoke)
        self.smoke_status.set_status(status_icon(icon), text)
        self.smoke_status.show()
        self.interface.setRowCount(0)
        # The bundled model's interface is in the manifest's "inspection" record (issue 30 item 3).
        iface = (manifest.get("inspection") or manifest.get("interface") or {}) if isinstance(manifest, Mapping) else {}
        if isinstance(iface, Mapping):
            self.interface.set_rows(
                [[self.tr("Input"), v.get("name"), v.get("elem_type"), format_shape(v.get("shape"))]
                 for v in iface.get("inputs", [])]
                + [[self.tr("Output"), v.get("name"), v.get("elem_type"), format_shape(v.get("shape"))]
                   for v in iface.get("outputs", [])]
            )
        self._show_findings(problems)
        self.external.setRowCount(0)
        self._set_counts(len(problems), 0)
