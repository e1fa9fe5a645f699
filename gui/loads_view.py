"""The Result tab's load matrix: each model of a bundle loaded the ways apps load it, in the smoke run (the
manifest's ``smoke.loads``, core/runtime/loadmatrix.py): which ways passed, the expected refusal from bytes of a
model whose weights are in a data file (said as expected, with its remedy, never as an error), and any other failure
(a warning, with what the app must do instead)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QLabel, QStyle, QVBoxLayout, QWidget

from onnxpack.core.runtime.loadcost import added_bytes, noticeable

from .hints import gui_hint
from .icons import severity_icon, status_icon
from .widgets import DataTable, Retranslatable

__all__ = ["LoadsBox", "load_rows_of"]


def load_rows_of(manifest: Mapping[str, Any] | None) -> list[tuple[str, Mapping[str, Any]]]:
    """Each model's path and smoke record in a bundle's manifest (a release of several files: each model's own view,
    manifest schema 2), for the models whose smoke run recorded a load matrix; [] when none did (the smoke run was
    off, or the bundle predates the load matrix)."""
    if not isinstance(manifest, Mapping):
        return []
    views: Sequence[Mapping[str, Any]]
    if isinstance(manifest.get("bundle"), Mapping) and isinstance(manifest.get("models"), list):
        from onnxpack.core.release.manifest import model_views

        try:
            views = model_views(dict(manifest))
        except (KeyError, TypeError, ValueError, AttributeError):  # a damaged manifest: show what can be read
            return []
    else:
        views = [manifest]
    out = []
    for view in views:
        smoke = view.get("smoke") if isinstance(view, Mapping) else None
        if isinstance(smoke, Mapping) and ((isinstance(smoke.get("loads"), list) and smoke["loads"])
                                           or isinstance(smoke.get("load_cost"), Mapping)):
            model = view.get("model")
            entry = model.get("entry") if isinstance(model, Mapping) else None
            out.append((str(entry or "?"), smoke))
    return out


class LoadsBox(Retranslatable, QGroupBox):
    """"Ways to load it": one row per way a model was loaded (a release: each model's path on a row across the
    table, its ways below it), its icon and words: passed (bit for bit), refused as expected (with the remedy), or
    failed (a warning, ONNX Runtime's message and what to do instead)."""

    WAY, RESULT = range(2)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = DataTable(2)
        self.table.fit_height()
        self.table.wrap_columns(self.RESULT)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.table)
        self._models: list[tuple[str, Mapping[str, Any]]] = []
        self._recorded = False
        self.kinds: list[str] = []  # each row's state: "ok", "expected" or "failed" (tests, screenshots)
        self.retranslate()
        self.show_loads([])

    def retranslate(self) -> None:
        self.table.set_headers([self.tr("Way to load"), self.tr("Result")])
        self.table.setAccessibleName(self.tr("Ways to load it"))
        self.show_loads(self._models, self._recorded)

    def mode_text(self, mode: str) -> str:
        """A way of loading, worded for people (the manifest's mode names are the engine's)."""
        return {
            "path": self.tr("by its path"),
            "other-cwd": self.tr("from another working directory"),
            "bytes": self.tr("from bytes"),
            "bytes-folder": self.tr("from bytes with its folder set"),
            "symlink": self.tr("through a symbolic link"),
            "non-ascii": self.tr("from a Japanese folder name with a space"),
        }.get(mode, mode)

    def mode_tip(self, mode: str) -> str:
        """How an app loads the model that way (the way's cell tooltip)."""
        return {
            "path": self.tr("InferenceSession with the model file's absolute path"),
            "other-cwd": self.tr("A relative path to the model, the app running in another folder"),
            "bytes": self.tr("The model file's bytes read by the app: ort's commit_from_memory, "
                             "CreateSessionFromArray, a JavaScript buffer, C#'s byte[]"),
            "bytes-folder": self.tr("The model's bytes, with the session option "
                                    "session.model_external_initializers_file_folder_path naming its folder"),
            "symlink": self.tr("A symbolic link to the model in another folder, as a Hugging Face cache links its "
                               "files"),
            "non-ascii": self.tr("A copy in a folder named “モデル フォルダ” (Japanese characters and a space)"),
        }.get(mode, mode)

    def remedy(self, row: Mapping[str, Any]) -> str:
        """What to do instead, in the app's language (the registry's remedy the engine recorded in the row)."""
        mode = str(row.get("mode", ""))
        hint = str(row.get("remedy") or "") or None
        if row.get("expected"):
            return gui_hint("SMOKE_LOAD_FROM_BYTES", hint, {}) or ""
        variant = "differs" if row.get("differs") else mode.replace("-", "_")
        return gui_hint("SMOKE_LOAD_FAILED", hint, {"variant": variant}) or ""

    def result_text(self, row: Mapping[str, Any]) -> tuple[str, str]:
        """(state, words) of one way: "ok", "expected" (refused as it must be) or "failed"."""
        if row.get("ok"):
            return "ok", self.tr("passed: the same outputs, bit for bit")
        fix = self.remedy(row)
        how = ("\n" + self.tr("How to fix: %1").replace("%1", fix)) if fix else ""
        if row.get("expected"):
            return "expected", self.tr("refused, as expected: its weights are in a data file, which ONNX Runtime "
                                       "then looks for in the working directory.") + how
        if row.get("differs"):
            return "failed", self.tr("FAILED: the outputs differ from the reference run's.") + how
        error = str(row.get("error") or "").strip()
        return "failed", self.tr("FAILED: %1").replace("%1", error or "?") + how

    def show_loads(self, models: Sequence[tuple[str, Mapping[str, Any]]], recorded: bool = False) -> None:
        """``models``: each model's path and smoke record (:func:`load_rows_of`); ``recorded``: read from a verified
        bundle's manifest (said in the note). Hidden when no model recorded a load matrix."""
        self._models, self._recorded = list(models), recorded
        self.setVisible(bool(models))
        several = len(models) > 1
        self.setTitle(self.tr("Ways to load each model") if several else self.tr("Ways to load it"))
        rows: list[list[str]] = []
        kinds: list[str] = []
        row_kinds: list[str | None] = []  # None: a release's row naming the model of the rows below it
        tips: list[str] = []
        for entry, smoke in models:
            if several:  # the model's path across the table, its ways below it (a column of paths took the width)
                rows.append([entry, ""])
                row_kinds.append(None)
                tips.append(entry)
            for row in (r for r in smoke.get("loads") or [] if isinstance(r, Mapping)):
                kind, text = self.result_text(row)
                rows.append([self.mode_text(str(row.get("mode", ""))), text])
                kinds.append(kind)
                row_kinds.append(kind)
                tips.append(self.mode_tip(str(row.get("mode", ""))))
        self.kinds = kinds
        self.table.clearSpans()
        self.table.set_rows(rows)
        icons = {"ok": status_icon("ok"), "expected": severity_icon("info"), "failed": severity_icon("warning")}
        for r, row_kind in enumerate(row_kinds):
            way = self.table.item(r, self.WAY)
            if way is None:
                continue
            way.setToolTip(tips[r])
            if row_kind is None:
                self.table.setSpan(r, self.WAY, 1, 2)
                font = way.font()
                font.setBold(True)
                way.setFont(font)
            else:
                way.setIcon(icons[row_kind])
        # the ways' width with their icons (a spanned path may be longer: it has the whole row)
        fm = self.table.fontMetrics()
        ways = [fm.horizontalAdvance(rows[r][0]) for r, k in enumerate(row_kinds) if k is not None]
        icon = self.table.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        # at most about 24 characters: a longer way wraps, the result keeps the room a remedy's long option name
        # needs (session.model_external_initializers_file_folder_path was elided mid-text at 1024x768)
        widest = min(max(ways, default=0), fm.averageCharWidth() * 24)
        self.table.setColumnWidth(self.WAY, widest + icon + fm.averageCharWidth() * 4)
        self.table.wrap_columns(self.RESULT)  # the result's share of the width again, rows as tall as they need
        if not models:
            self.note.clear()
            return
        self.note.setText(self.note_text(models, kinds, recorded))

    def note_text(self, models: Sequence[tuple[str, Mapping[str, Any]]], kinds: list[str], recorded: bool) -> str:
        """The note above the table: how many ways passed, what a refusal or failure means, each model's load cost."""
        versions = sorted({str(s.get("ort_version") or "?") for _, s in models if s.get("loads")})
        note = ""
        if versions:
            note = self.tr("Loaded the ways apps load a model, in the smoke run (onnxruntime %1): %n way(s) passed, "
                           "each giving the reference outputs bit for bit.", "", kinds.count("ok")).replace(
                "%1", ", ".join(versions))
        if "expected" in kinds:
            note += " " + self.tr("A refusal marked as expected is how ONNX Runtime works, not a fault of the "
                                  "bundle: load that model another way.")
        if "failed" in kinds:
            note += " " + self.tr("%n way(s) FAILED: an app loading the model that way fails too; see how to fix "
                                  "each.", "", kinds.count("failed"))
        for entry, smoke in models:
            note += self.cost_text(entry, smoke.get("load_cost"))
        if recorded:
            note += " " + self.tr("Recorded when the bundle was made.")
        return note.strip()

    def cost_text(self, entry: str, cost: Any) -> str:
        """The end user's load of ``entry`` by its path, as shipped and as it came (the manifest's
        ``smoke.load_cost``, measured when it was bundled); "" when it was not measured."""
        if not isinstance(cost, Mapping):
            return ""

        def side(key: str) -> str:
            one = cost.get(key)
            if not isinstance(one, Mapping) or "load_s" not in one:
                return self.tr("not measured")
            added = added_bytes(one)
            mib = f"{added / 2**20:.0f}" if isinstance(added, int) else "?"
            return self.tr("%1 s and %2 MiB").replace("%1", f"{float(one['load_s']):.2f}").replace("%2", mib)

        source = cost.get("source")
        if isinstance(source, Mapping) and source.get("same_as_shipped"):
            return " " + self.tr("Loading %1 by its path costs the end user %2 (the memory a load adds to its "
                                 "process), as it did as it came: the shipped file is the original, byte for "
                                 "byte.").replace(
                "%1", entry).replace("%2", side("shipped"))
        text = self.tr("Loading %1 by its path costs the end user %2 as shipped, %3 as it came (the memory a load "
                       "adds to its process).").replace(
            "%1", entry).replace("%2", side("shipped")).replace("%3", side("source"))
        if "time_ratio" in cost and "memory_ratio" in cost and noticeable(cost):
            text += " " + self.tr("The shipped layout takes %1x the time and %2x the memory.").replace(
                "%1", f"{float(cost['time_ratio']):.2f}").replace("%2", f"{float(cost['memory_ratio']):.2f}")
        elif "time_ratio" in cost:
            text += " " + self.tr("The shipped layout loads as the source does (the difference is within the "
                                  "measurement's noise).")
        return " " + text
