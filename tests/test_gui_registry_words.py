"""The app words the engine's messages, remedies and progress from the registries by code, never by matching the
engine's English (issue 38 item 1): reword a registry text and its Japanese still renders; no regular expression
reads engine text in gui/messages.py or gui/hints.py."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from onnxpack.core import registry, steps
from onnxpack.core.progress import STEPS, ProgressEvent, report

ROOT = Path(__file__).resolve().parent.parent


def _events(step: Any, **values: Any) -> ProgressEvent:
    seen: list[ProgressEvent] = []
    report(seen.append, "smoke", 2, 3, step, unit=STEPS, **values)
    return seen[0]


def test_a_reworded_finding_and_step_keep_their_japanese(qapp: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from onnxpack.gui import catalog, i18n
    from onnxpack.gui.hints import gui_hint
    from onnxpack.gui.messages import gui_message, stage_detail

    code = registry()["SMOKE_NON_FINITE"]
    values = {"model": "victory.onnx", "nan": 1, "inf": 0, "size": 4}
    run = {"run": 2, "runs": 3, "model": steps.MODEL("bundled", name="victory.onnx")}
    try:
        i18n.install_translators(qapp, "ja")
        message = gui_message(code.finding("probs", **values))
        remedy = gui_hint(code.name, code.remedy(subject="probs"), {"subject": "probs", **values})
        progress = stage_detail(_events(steps.RUN_OF, **run))
        assert progress == "バンドルされた victory.onnx の実行 2/3"
        assert not message.isascii() and remedy and not remedy.isascii()

        reworded = dataclasses.replace(code, text="Output {subject} of {model} holds {nan} NaN, {inf} Inf in {size}",
                                       hint="Try real inputs ({opt:input} NAME=FILE).")
        monkeypatch.setattr(catalog, "_codes", lambda: {**registry(), code.name: reworded})
        monkeypatch.setitem(steps.BY_NAME, "RUN_OF", steps.Step("RUN_OF", "pass {run} of {runs} on {model}"))
        finding = reworded.finding("probs", **values)
        event = _events(steps.RUN_OF, **run)
        assert finding.message.startswith("Output probs of") and event.message == "pass 2 of 3 on bundled victory.onnx"
        assert gui_message(finding) == message  # the Japanese of the code, not of its English
        assert gui_hint(code.name, finding.hint, finding.message_params()) == remedy
        assert stage_detail(event) == progress
        i18n.install_translators(qapp, "en")
        assert gui_message(finding) == finding.message and stage_detail(event) == event.message  # English: the engine's
    finally:
        i18n.install_translators(qapp, "en")


@pytest.mark.parametrize("module", ["messages.py", "hints.py", "catalog.py"])
def test_the_app_reads_no_engine_text_with_regular_expressions(module: str) -> None:
    tree = ast.parse((ROOT / "gui" / module).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names} | {node.module for node in ast.walk(tree)
                                            if isinstance(node, ast.ImportFrom) and node.module}  # fmt: skip
    assert "re" not in imported and "regex" not in imported


def test_the_apps_record_of_registry_texts_is_current() -> None:
    """resources/i18n/registry_sources.json is what update_translations.py writes for the registry as it is
    (--check says so too)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("update_translations", ROOT / "resources/i18n/update_translations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / "resources/i18n/registry_sources.json").read_text(encoding="utf-8") == module.sources_json()
