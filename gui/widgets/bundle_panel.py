"""The bundle form: name, version, previous release, output folder, options and the smoke-run recipe."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRegularExpression, Qt, Signal
from PySide6.QtGui import QRegularExpressionValidator, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from onnxpack.core import __version__
from onnxpack.core.checks.ortreleases import RELEASE_VERSIONS
from onnxpack.core.release.versions import SEMVER_PATTERN

from ..hints import option_label
from ..model.rowview import RowView
from ..model.state import PROVE_ORT_PATTERN, BundleDraft, Kind, symbolic_dims
from ..settings import AppSettings

if TYPE_CHECKING:
    from ..model.state import QueueItem
from .common import Retranslatable, scrolled_page

__all__ = ["KNOWN_ORT_RELEASES", "BundleDraft", "BundlePanel", "WheelSafeComboBox", "WheelSafeSpinBox",
           "symbolic_dims"]

SEMVER = SEMVER_PATTERN  # the engine's own rule (core.release.parse_semver), not a copy

#: Offered in the target-ORT box, newest first (the field stays editable for any X.Y).
KNOWN_ORT_RELEASES = list(RELEASE_VERSIONS)


class WheelSafeSpinBox(QSpinBox):
    """A spin box the mouse wheel changes only once it has focus (clicked or tabbed into): scrolling the form
    over it scrolls the form."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # not WheelFocus: the wheel never takes focus

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()  # on to the scroll area


class WheelSafeComboBox(QComboBox):
    """A combo box the mouse wheel changes only once it has focus (see WheelSafeSpinBox)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class BundlePanel(Retranslatable, QWidget):
    """Form for one bundle. Emits ``bundle_requested(all_ready)`` and ``previous_changed(path)``."""

    bundle_requested = Signal(bool)
    previous_changed = Signal(str)

    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self._draft = BundleDraft()
        self.draft_owner: QueueItem | None = None  # the row whose draft the form shows and edits
        self._loading = False
        self._ready_count = 0

        self.name = QLineEdit()
        self.version = QLineEdit()
        self.version.setValidator(QRegularExpressionValidator(QRegularExpression(SEMVER), self.version))
        self.suggestion = QLabel()
        self.suggestion.setWordWrap(True)
        self.use_suggestion = QPushButton()
        self.use_suggestion.clicked.connect(self._apply_suggestion)
        version_row = QHBoxLayout()
        version_row.addWidget(self.version, 1)
        version_row.addWidget(self.use_suggestion)
        self.previous = QLineEdit()
        self.previous.setClearButtonEnabled(True)
        self.previous.editingFinished.connect(lambda: self.previous_changed.emit(self.previous.text().strip()))
        self.previous_browse = QPushButton()
        self.previous_browse.clicked.connect(self._browse_previous)
        prev_row = QHBoxLayout()
        prev_row.addWidget(self.previous, 1)
        prev_row.addWidget(self.previous_browse)
        self.out_dir = QLineEdit(settings.output_dir)
        self.out_dir.editingFinished.connect(self._store_out_dir)
        self.out_browse = QPushButton()
        self.out_browse.clicked.connect(self._browse_out)
        out_row = QHBoxLayout()
        out_row.addWidget(self.out_dir, 1)
        out_row.addWidget(self.out_browse)

        self.target_ort = WheelSafeComboBox()
        self.target_ort.setEditable(True)
        self.target_ort.addItems(KNOWN_ORT_RELEASES)  # no blank entry: an empty field (placeholder "any") is none
        self.target_ort.setCurrentIndex(-1)
        self.target_ort.setCurrentText(settings.target_ort)
        self.target_ort.lineEdit().setValidator(  # type: ignore[union-attr]
            QRegularExpressionValidator(QRegularExpression(r"(\d+\.\d+(\.\d+)?)?"), self.target_ort)
        )
        self.target_ort.currentTextChanged.connect(self._store_options)
        self.fix_ir = QCheckBox()
        self.ort_format = QCheckBox()
        self.compress = QCheckBox()
        self.set_model_version = QCheckBox()
        self.run_smoke = QCheckBox()
        # --prove-ort: releases to run the bundled model on (remembered, like the target)
        self.prove_ort = QLineEdit(settings.text("prove_ort"))
        self.prove_ort.setClearButtonEnabled(True)
        self.prove_ort.setValidator(QRegularExpressionValidator(QRegularExpression(PROVE_ORT_PATTERN), self.prove_ort))
        self.prove_ort.editingFinished.connect(lambda: self.settings.set_text("prove_ort", self.prove_ort_text()))
        # Three boxes for the engine's three separate permissions, deliberately not remembered:
        # each must be chosen for the run it is meant for, and replacing a bundle never lets a version go backwards.
        self.force = QCheckBox()
        self.allow_version_not_greater = QCheckBox()
        self.allow_unmatched_labels = QCheckBox()
        for name, box in self._flags().items():
            box.setChecked(settings.flag(name, default=name == "run_smoke"))
            box.toggled.connect(self._store_options)

        # Signing and release information: remembered (the key's *path* only), except the per-model labels.
        self.sign_key = QLineEdit(settings.text("sign_key"))
        self.sign_key.setClearButtonEnabled(True)
        self.sign_key_browse = QPushButton()
        self.sign_key_browse.clicked.connect(self._browse_key)
        key_row = QHBoxLayout()
        key_row.addWidget(self.sign_key, 1)
        key_row.addWidget(self.sign_key_browse)
        self.license = QLineEdit(settings.text("license"))
        self.authors = QLineEdit(settings.text("authors"))
        self.homepage = QLineEdit(settings.text("homepage"))
        self.labels = QLineEdit()
        for key, edit in self._texts().items():
            edit.editingFinished.connect(lambda key=key, edit=edit: self.settings.set_text(key, edit.text().strip()))
        from onnxpack.core.release.signing import installed

        self._can_sign = installed()
        self.sign_key.setEnabled(self._can_sign)
        self.sign_key_browse.setEnabled(self._can_sign)
        self.about_box = QGroupBox()
        self.about_form = QFormLayout(self.about_box)
        self.about_form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.about_form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self._about_labels = [QLabel() for _ in range(5)]
        self.about_form.addRow(self._about_labels[0], key_row)
        for about_label, edit in zip(self._about_labels[1:4], (self.license, self.authors, self.homepage),
                                     strict=True):  # fmt: skip
            self.about_form.addRow(about_label, edit)
            about_label.setBuddy(edit)
        self._about_labels[0].setBuddy(self.sign_key)
        self._about_labels[4].setBuddy(self.labels)

        self.form_box = QGroupBox()
        self.form = QFormLayout(self.form_box)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self._labels = [QLabel() for _ in range(5)]
        self.form.addRow(self._labels[0], self.name)
        self.form.addRow(self._labels[1], version_row)
        self.form.addRow("", self.suggestion)
        self.form.addRow(self._labels[2], prev_row)
        self.form.addRow(self._about_labels[4], self.labels)
        for lab, buddy in zip(self._labels, (self.name, self.version, self.previous, self.out_dir, self.target_ort),
                              strict=True):
            lab.setBuddy(buddy)

        # Settings of every model bundled: a box of their own, apart from the row's.
        self.options_box = QGroupBox()
        self.batch_note = QLabel()
        self.batch_note.setWordWrap(True)
        self.batch_form = QFormLayout()
        self.batch_form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.batch_form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.batch_form.addRow(self._labels[3], out_row)
        self.batch_form.addRow(self._labels[4], self.target_ort)
        self.prove_label = QLabel()
        self.prove_label.setBuddy(self.prove_ort)
        self.batch_form.addRow(self.prove_label, self.prove_ort)
        ol = QVBoxLayout(self.options_box)
        ol.addWidget(self.batch_note)
        ol.addLayout(self.batch_form)
        for box in (self.fix_ir, self.ort_format, self.compress, self.set_model_version, self.run_smoke,
                    *self._permissions().values()):
            ol.addWidget(box)

        self.smoke_box = QGroupBox()
        sl = QVBoxLayout(self.smoke_box)
        self.smoke_help = QLabel()
        self.smoke_help.setWordWrap(True)
        self.dims = QTableWidget(0, 3)
        self.dims.verticalHeader().setVisible(False)
        self.dims.horizontalHeader().setStretchLastSection(True)
        self.dims.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.dims.setSizeAdjustPolicy(QAbstractItemView.SizeAdjustPolicy.AdjustToContents)
        # Only the spin boxes take focus: a focusable table with Tab navigation trapped Tab (table → spin box → table).
        self.dims.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.dims.setTabKeyNavigation(False)
        self.inputs = QTableWidget(0, 2)
        self.inputs.verticalHeader().setVisible(False)
        self.inputs.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.inputs.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.inputs.setSizeAdjustPolicy(QAbstractItemView.SizeAdjustPolicy.AdjustToContents)
        self.inputs.setTabKeyNavigation(False)  # Tab leaves the table; arrows move between cells, F2 edits
        self.dims_label = QLabel()
        self.inputs_label = QLabel()
        self.dims_label.setBuddy(self.dims)
        self.inputs_label.setBuddy(self.inputs)
        sl.addWidget(self.smoke_help)
        sl.addWidget(self.dims_label)
        sl.addWidget(self.dims)
        sl.addWidget(self.inputs_label)
        sl.addWidget(self.inputs)

        self.bundle_button = QPushButton()
        self.bundle_button.setDefault(True)
        self.bundle_button.clicked.connect(lambda: self.bundle_requested.emit(False))
        self.bundle_all_button = QPushButton()
        self.bundle_all_button.clicked.connect(lambda: self.bundle_requested.emit(True))
        self.blocked = QLabel()
        self.blocked.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.blocked, 1)
        buttons.addWidget(self.bundle_all_button)
        buttons.addWidget(self.bundle_button)

        self.form_scroll = scrolled_page(self, [self.form_box, self.smoke_box, self.options_box, self.about_box],
                                         buttons)
        # Enter in a one-line field presses the default button, Bundle, as it is drawn.
        for edit in (self.name, self.version, self.previous, self.labels, self.out_dir, self.prove_ort, self.sign_key,
                     self.license, self.authors, self.homepage):  # fmt: skip
            edit.returnPressed.connect(self._press_default)
        self.target_ort.lineEdit().returnPressed.connect(self._press_default)  # type: ignore[union-attr]
        # The form's edits go into the shown row's draft as they are made: a re-render never loses them.
        for edit in (self.name, self.version, self.previous, self.labels):
            edit.textChanged.connect(self._edited)
        self.inputs.itemChanged.connect(self._edited)
        self.retranslate()
        self.load_draft(BundleDraft())

    # --- language -----------------------------------------------------------------------------
    def retranslate(self) -> None:
        self._title_row()
        self.batch_note.setText(self.tr("These settings apply to every model bundled, by Bundle and by Bundle all, "
                                        "and are remembered, except the last three boxes (ticked for one run each); "
                                        "the boxes above belong to the selected row only."))
        for lab, text in zip(
            self._labels,
            (self.tr("&Name:"), self.tr("Ve&rsion:"), self.tr("&Previous bundle:"), self.tr("&Output folder:"),
             self.tr("&Target ONNX Runtime:")),
            strict=True,
        ):
            lab.setText(text)
        self.name.setPlaceholderText(self.tr("model name used in the ZIP file name"))
        self.version.setPlaceholderText(self.tr("semantic version, e.g. 1.2.0"))
        self.previous.setPlaceholderText(self.tr("optional: the last released .zip, to compare interfaces"))
        self.target_ort.lineEdit().setPlaceholderText(self.tr("any"))  # type: ignore[union-attr]
        self.target_ort.setToolTip(self.tr("Oldest ONNX Runtime release the users have (X.Y); empty = no check"))
        self.prove_label.setText(self.tr("Prov&e on ONNX Runtime:"))
        self.prove_ort.setPlaceholderText(self.tr("optional: e.g. auto, newest, or 1.16.3,1.20.1"))
        self.prove_ort.setToolTip(self.tr(
            "Runs the bundled model on these ONNX Runtime releases and compares its outputs with this one's "
            "(--prove-ort): releases like 1.16.3,1.20.1; 1.16 = its newest patch; newest; auto = the oldest release "
            "the model claims plus the newest. Each release's official wheel is downloaded from PyPI once (checked "
            "against the published SHA-256) into an environment of its own in your cache folder; the first run takes "
            "a while, and Cancel stops it. Empty = not proven."))
        self.prove_ort.setAccessibleName(self.tr("ONNX Runtime releases to prove the bundle on"))
        self.use_suggestion.setText(self.tr("&Use suggestion"))
        self.previous_browse.setText(self.tr("Browse…"))
        self.previous_browse.setAccessibleName(self.tr("Choose the previous bundle"))
        self.out_browse.setText(self.tr("Browse…"))
        self.out_browse.setAccessibleName(self.tr("Choose the output folder"))
        self.options_box.setTitle(self.tr("Every model bundled"))
        self.about_box.setTitle(self.tr("Signing and release information (every model)"))
        for lab, text in zip(
            self._about_labels,
            (self.tr("Signing &key:"), self.tr("License (SPD&X):"), self.tr("Author&s:"), self.tr("Ho&mepage:"),
             self.tr("&Class labels:")),
            strict=True,
        ):
            lab.setText(text)
        self.sign_key.setPlaceholderText(self.tr("optional: your private key (.key/.pem) to sign the bundle"))
        self.sign_key.setToolTip(
            self.tr("Only the file's location is remembered, never the key. Make a key pair with: onnxpack keygen")
            if self._can_sign
            else self.tr("Signing support (the model-signing library) is not installed. Install the sign extra "
                         "from what you installed onnxpack from: in the onnxpack checkout, pip install '.[sign]'; "
                         "from a wheel, pip install 'onnxpack-%1-py3-none-any.whl[sign]'.").replace("%1", __version__)
        )
        self.sign_key_browse.setText(self.tr("Browse…"))
        self.sign_key_browse.setAccessibleName(self.tr("Choose the signing key"))
        self.license.setPlaceholderText(self.tr("optional: e.g. MIT, Apache-2.0, CC-BY-4.0"))
        self.authors.setPlaceholderText(self.tr("optional: names, separated by ;"))
        self.homepage.setPlaceholderText(self.tr("optional: https://…"))
        self.labels.setPlaceholderText(self.tr("optional: one per class in output order, separated by commas"))
        for name, box in {"fix_ir": self.fix_ir, **self._permissions()}.items():
            box.setText(option_label(name))
        self.ort_format.setText(self.tr("Also include an ORT-format (.ort) variant"))
        self.compress.setText(self.tr("Compress the ZIP (weights rarely shrink; slower)"))
        self.set_model_version.setText(self.tr("Write the release version into the model's model_version"))
        self.run_smoke.setText(self.tr("Run the models and prove the bundled one gives identical outputs"))
        self.fix_ir.setToolTip(self.tr(
            "Needs a Target ONNX Runtime. The released copy is retargeted for it: its IR version is lowered to the "
            "highest that runtime loads (newer-IR metadata that changes nothing computed is dropped, each item "
            "recorded in the manifest) and its opset is lowered where that is exact; a model that would compute "
            "differently is refused (--fix-ir)."))
        self.ort_format.setToolTip(self.tr("Adds NAME.ort and its operator list for ONNX Runtime Mobile and "
                                           "minimal builds (--ort-format)."))
        self.compress.setToolTip(self.tr("Deflates the ZIP members; weights rarely shrink, and a compressed model "
                                         "cannot be loaded in place from the ZIP (--compress)."))
        self.set_model_version.setToolTip(self.tr("Stores MAJOR.MINOR.PATCH as one number in the model's "
                                                  "model_version field of the released copy (--set-model-version)."))
        self.run_smoke.setToolTip(self.tr("Runs the original and the bundled model on CPU and records the proof "
                                          "that their outputs are identical (turned off: --no-smoke)."))
        self.force.setToolTip(self.tr("Overwrites NAME-VERSION.zip in the output folder if it exists (--force). "
                                      "The version and class-label checks still apply."))
        self.allow_version_not_greater.setToolTip(self.tr(
            "Releases a version that is not above the previous bundle's (the manifest records a warning; "
            "--allow-version-not-greater). Off: such a version is refused."))
        self.allow_unmatched_labels.setToolTip(self.tr(
            "Keeps the class labels even when their number matches no output's last dimension "
            "(--allow-unmatched-labels). Off: such labels are refused."))
        self.smoke_box.setTitle(self.tr("Smoke-run inputs of this model"))
        self.smoke_help.setText(
            self.tr(
                "The original and the bundled model are run on CPU and must give identical outputs. "
                "Give sizes for symbolic dimensions (0 = choose automatically) and, optionally, "
                ".npy files with real inputs."
            )
        )
        self.dims_label.setText(self.tr("Symbolic &dimensions:"))
        self.inputs_label.setText(self.tr("&Input data (optional):"))
        self.dims.setHorizontalHeaderLabels([self.tr("Dimension"), self.tr("Used by"), self.tr("Size")])
        self.inputs.setHorizontalHeaderLabels([self.tr("Input"), self.tr(".npy file")])
        for r in range(self.dims.rowCount()):
            spin, item = self.dims.cellWidget(r, 2), self.dims.item(r, 0)
            if isinstance(spin, QSpinBox) and item is not None:
                spin.setSpecialValueText(self.tr("auto"))
                spin.setAccessibleName(self.tr("Size of dimension %1").replace("%1", item.text()))
        self.dims.resizeColumnsToContents()
        self.inputs.resizeColumnToContents(0)
        self.dims.setAccessibleName(self.tr("Sizes of symbolic dimensions"))
        self.inputs.setAccessibleName(self.tr("Input data files"))
        self.bundle_button.setText(self.tr("&Bundle"))
        self._update_buttons()
        self._show_suggestion()

    # --- drafts -------------------------------------------------------------------------------
    def _flags(self) -> dict[str, QCheckBox]:
        return {
            "fix_ir": self.fix_ir,
            "ort_format": self.ort_format,
            "compress": self.compress,
            "set_model_version": self.set_model_version,
            "run_smoke": self.run_smoke,
        }

    def _permissions(self) -> dict[str, QCheckBox]:
        """The boxes that let a run do what the engine otherwise refuses, one engine flag each."""
        return {
            "force": self.force,
            "allow_version_not_greater": self.allow_version_not_greater,
            "allow_unmatched_labels": self.allow_unmatched_labels,
        }

    def prove_ort_text(self) -> str:
        """The releases typed, tidied ("1.16.3, newest" → "1.16.3,newest"); empty when none."""
        return ",".join(t.strip() for t in self.prove_ort.text().split(",") if t.strip())

    def _texts(self) -> dict[str, QLineEdit]:
        return {"sign_key": self.sign_key, "license": self.license, "authors": self.authors, "homepage": self.homepage}

    def _title_row(self) -> None:
        owner = self.draft_owner
        if owner is not None and owner.kind is Kind.RELEASE:  # a folder's models and assets: one release
            self.form_box.setTitle(self.tr("This release: %1").replace("%1", owner.path.name))
            return
        self.form_box.setTitle(self.tr("This model: %1").replace("%1", owner.path.name) if owner is not None
                               else self.tr("This model"))  # fmt: skip

    def render_row_view(self, row: RowView) -> None:
        """The selected row's own settings (a model's or a release's); a bundle row or none: the form is empty."""
        item = row.item
        if item is None or not item.spec.bundles:
            self.render_row(None, BundleDraft(), editable=False, can_bundle=False)
        else:
            self.render_row(item, item.draft, editable=row.editable, can_bundle=row.can_bundle)

    def render_row(self, owner: QueueItem | None, draft: BundleDraft, *, editable: bool, can_bundle: bool) -> None:
        """Show the row ``owner`` (None: no model row, the form is empty and off): its own settings from ``draft``,
        editable only when it can be bundled at all; the batch settings stay as they are. Another row's form is
        shown from its top, never at the scroll position of the row shown before."""
        if owner is not self.draft_owner:
            self.form_scroll.verticalScrollBar().setValue(0)
            self.form_scroll.horizontalScrollBar().setValue(0)
        self.draft_owner = owner
        self.load_draft(draft)
        self.form_box.setEnabled(editable)
        self.smoke_box.setEnabled(editable)
        self.bundle_button.setEnabled(can_bundle)
        self._title_row()

    def _edited(self) -> None:
        if not self._loading and self.draft_owner is not None:
            self.save_draft()

    def _press_default(self) -> None:
        if self.bundle_button.isEnabled():
            self.bundle_button.click()

    def load_draft(self, draft: BundleDraft) -> None:
        """Show ``draft`` (the selected row's values); edits go back into it as they are made."""
        self._loading = True
        try:
            self._load_draft(draft)
        finally:
            self._loading = False

    def _load_draft(self, draft: BundleDraft) -> None:
        self._draft = draft
        self.labels.setText(draft.labels)
        self.name.setText(draft.name)
        self.version.setText(draft.version)
        self.previous.setText(draft.previous)
        self.dims.setRowCount(len(draft.symbolic))
        for r, (dim, users) in enumerate(draft.symbolic.items()):
            dim_item = QTableWidgetItem(dim)
            dim_item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            used = QTableWidgetItem(", ".join(users))
            used.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.dims.setItem(r, 0, dim_item)
            self.dims.setItem(r, 1, used)
            spin = WheelSafeSpinBox()
            spin.setRange(0, 1 << 20)
            spin.setSpecialValueText(self.tr("auto"))
            spin.setValue(draft.dims.get(dim, 0))
            spin.setAccessibleName(self.tr("Size of dimension %1").replace("%1", dim))
            spin.valueChanged.connect(self._edited)
            self.dims.setCellWidget(r, 2, spin)
        self.dims.resizeColumnsToContents()
        self.dims.setVisible(bool(draft.symbolic))
        self.dims_label.setVisible(bool(draft.symbolic))
        self.inputs.setRowCount(len(draft.input_names))
        for r, name in enumerate(draft.input_names):
            item = QTableWidgetItem(name)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.inputs.setItem(r, 0, item)
            self.inputs.setItem(r, 1, QTableWidgetItem(draft.inputs.get(name, "")))
        self.inputs.resizeColumnToContents(0)
        self.inputs.setVisible(bool(draft.input_names))
        self.inputs_label.setVisible(bool(draft.input_names))
        self._show_suggestion()
        self._update_buttons()
        self._set_tab_order()

    def focus_chain(self) -> list[QWidget]:
        """The panel's keyboard stops in order: the row's settings top to bottom (the smoke-run sizes before the
        .npy table below them), the batch settings, then Bundle all and Bundle."""
        spins = [w for r in range(self.dims.rowCount()) if isinstance(w := self.dims.cellWidget(r, 2), QSpinBox)]
        return [
            self.name, self.version, self.use_suggestion, self.previous, self.previous_browse, self.labels,
            *spins, self.inputs,
            self.out_dir, self.out_browse, self.target_ort, self.prove_ort, self.fix_ir, self.ort_format, self.compress,
            self.set_model_version, self.run_smoke, *self._permissions().values(),
            self.sign_key, self.sign_key_browse, self.license, self.authors, self.homepage,
            self.bundle_all_button, self.bundle_button,
        ]

    def _set_tab_order(self) -> None:
        chain = self.focus_chain()
        for a, b in itertools.pairwise(chain):
            QWidget.setTabOrder(a, b)

    def save_draft(self) -> BundleDraft:
        d = self._draft
        d.name = self.name.text().strip()
        d.version = self.version.text().strip()
        d.previous = self.previous.text().strip()
        d.labels = self.labels.text().strip()
        d.dims = {}
        for r in range(self.dims.rowCount()):
            spin = self.dims.cellWidget(r, 2)
            item = self.dims.item(r, 0)
            if isinstance(spin, QSpinBox) and item is not None and spin.value() > 0:
                d.dims[item.text()] = spin.value()
        d.inputs = {}
        for r in range(self.inputs.rowCount()):
            name, value = self.inputs.item(r, 0), self.inputs.item(r, 1)
            if name is not None and value is not None and value.text().strip():
                d.inputs[name.text()] = value.text().strip()
        return d

    def set_dim(self, dim: str, value: int) -> None:
        """Set the size of a symbolic dimension (used by tests and scripts)."""
        for r in range(self.dims.rowCount()):
            item = self.dims.item(r, 0)
            spin = self.dims.cellWidget(r, 2)
            if item is not None and item.text() == dim and isinstance(spin, QSpinBox):
                spin.setValue(value)
                return
        raise KeyError(dim)

    def set_ready_count(self, n: int) -> None:
        self._ready_count = n
        self._update_buttons()

    def set_suggestion(self, text: str) -> None:
        self._draft.suggested = text
        self._show_suggestion()

    def _show_suggestion(self) -> None:
        text = self._draft.suggested
        self.suggestion.setVisible(bool(text))
        self.use_suggestion.setVisible(bool(text))
        if text:
            version, _, reason = text.partition(" ")
            self.suggestion.setText(self.tr("Suggested: %1 %2").replace("%1", version).replace("%2", reason))

    def _apply_suggestion(self) -> None:
        if self._draft.suggested:
            self.version.setText(self._draft.suggested.split(" ")[0])

    def _update_buttons(self) -> None:
        self.bundle_all_button.setText(self.tr("Bundle &all (%1)").replace("%1", str(self._ready_count)))
        self.bundle_all_button.setVisible(self._ready_count > 1)
        self.bundle_all_button.setEnabled(self._ready_count > 1)

    def set_blocked_reason(self, text: str) -> None:
        self.blocked.setText(text)

    # --- options shared by all rows -----------------------------------------------------------
    def _store_out_dir(self) -> None:
        self.settings.output_dir = self.out_dir.text().strip()

    def _store_options(self) -> None:
        self.settings.target_ort = self.target_ort.currentText().strip()
        for name, box in self._flags().items():
            self.settings.set_flag(name, box.isChecked())

    def set_output_dir(self, path: str) -> None:
        self.out_dir.setText(path)
        self._store_out_dir()

    def shared_options(self) -> dict[str, Any]:
        """Options common to every row (state.BATCH_SETTINGS): out_dir, target_ort, prove_ort, the flags, the three
        permissions, signing and release information."""
        self._store_out_dir()
        target = self.target_ort.currentText().strip()
        self.settings.set_text("prove_ort", self.prove_ort_text())
        return {
            "out_dir": Path(self.out_dir.text().strip()) if self.out_dir.text().strip() else None,
            "target_ort": target or None,
            "prove_ort": self.prove_ort_text() or None,
            **{name: box.isChecked() for name, box in self._flags().items()},
            **{name: box.isChecked() for name, box in self._permissions().items()},
            **{name: edit.text().strip() for name, edit in self._texts().items()},
        }

    def _browse_previous(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Previous bundle"), self.previous.text() or self.settings.open_dir,
            self.tr("Bundles and manifests (*.zip *.json)"),
        )
        if path:
            self.previous.setText(path)
            self.previous_changed.emit(path)

    def _browse_key(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Signing key"), self.sign_key.text() or self.settings.open_dir,
            self.tr("Private keys (*.key *.pem);;All files (*)"),
        )
        if path:
            self.sign_key.setText(path)
            self.settings.set_text("sign_key", path)

    def _browse_out(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Output folder"), self.out_dir.text())
        if path:
            self.set_output_dir(path)
