"""Catalog coverage, a loop over the engine's registry of codes (onnxpack.core.codes): every code the engine can
produce is registered, every registered code is produced, every call site gives the values its templates name, and
every text the app shows renders in Japanese.

A new finding is one registry entry plus its translation: each test here fails until it has both."""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "core"
_CODE = re.compile(r"[A-Z][A-Z0-9_]+")


@functools.cache
def _core_trees() -> list[tuple[Path, ast.Module]]:
    """Every module of core/, parsed once for the scans below."""
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(CORE.rglob("*.py"))]


@functools.cache
def _registry() -> dict:
    from onnxpack.core import registry

    return registry()


def _literal_code(node: ast.expr | None) -> list[str]:
    """The code(s) an expression can be: a literal, or either literal of ``"A" if … else "B"``."""
    if isinstance(node, ast.IfExp):
        return _literal_code(node.body) + _literal_code(node.orelse)
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and _CODE.fullmatch(node.value):
        return [node.value]
    return []


def _literal_codes() -> dict[str, str]:
    """Codes written as string literals where a finding or error gets its code: ``Finding(...)``/``Finding.error``
    etc., ``code="X"`` keywords, ``code = "X"`` class attributes and the smoke child's ``{"class":…, "code": "X"}``
    messages. Each must be a registered code: the registry is where a code's words live."""
    found: dict[str, str] = {}
    for path, tree in _core_trees():
        for node in ast.walk(tree):
            values: list[ast.expr | None] = []
            if isinstance(node, ast.Call):
                values += [kw.value for kw in node.keywords if kw.arg == "code"]
                func = node.func
                if (isinstance(func, ast.Attribute) and func.attr in ("error", "warning", "info")
                        and isinstance(func.value, ast.Name) and func.value.id == "Finding" and node.args):  # fmt: skip
                    values.append(node.args[0])
                if isinstance(func, ast.Name) and func.id == "Finding" and len(node.args) > 1:
                    values.append(node.args[1])
            elif isinstance(node, ast.ClassDef):
                values += [s.value for s in node.body if isinstance(s, ast.Assign)
                           and any(isinstance(t, ast.Name) and t.id == "code" for t in s.targets)]  # fmt: skip
            elif isinstance(node, ast.Dict):
                keys = {k.value: v for k, v in zip(node.keys, node.values, strict=True) if isinstance(k, ast.Constant)}
                if "class" in keys and "code" in keys:
                    values.append(keys["code"])
            for value in values:
                for code in _literal_code(value):
                    found.setdefault(code, f"{path.relative_to(CORE)}:{node.lineno}")
    return found


@dataclass
class Call:
    """A ``codes.NAME.finding(...)`` / ``.error(...)`` call site with the keywords it passes."""

    code: str
    where: str
    keywords: frozenset[str]
    open_keywords: bool  # passes **params: not every keyword is known here
    variant: str | None


def _calls() -> list[Call]:
    calls = []
    for path, tree in _core_trees():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("finding", "error")):  # fmt: skip
                continue
            target = node.func.value
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
            if not name or not _CODE.fullmatch(name):
                continue
            variant = next((kw.value.value for kw in node.keywords if kw.arg == "variant"
                            and isinstance(kw.value, ast.Constant)), None)  # fmt: skip
            calls.append(Call(name, f"{path.relative_to(CORE)}:{node.lineno}",
                              frozenset(kw.arg for kw in node.keywords if kw.arg),
                              any(kw.arg is None for kw in node.keywords), variant))  # fmt: skip
    return calls


CALLS = _calls()


def test_the_scans_see_the_engine():
    """Guards the scanners: they find the registry's call sites in every floor, and the registry is whole."""
    assert len(CALLS) >= 100
    assert {c.where.split("/")[0] for c in CALLS} >= {"model", "checks", "runtime", "release"}
    assert len(_registry()) >= 150
    assert {"EXTDATA_MISSING", "SMOKE_RUN_FAILED", "ZIP_DAMAGED", "IR_LOWERABLE", "INPUT", "CANCELLED"} <= set(
        _registry()
    )


def test_every_code_the_engine_writes_is_registered():
    missing = sorted(f"{code} ({where})" for code, where in _literal_codes().items() if code not in _registry())
    assert not missing, "codes written as literals, not in the registry (core/*/codes.py): " + ", ".join(missing)


def test_every_call_site_names_a_registered_code():
    missing = sorted(f"{c.code} ({c.where})" for c in CALLS if c.code not in _registry())
    assert not missing


def test_every_registered_code_is_produced():
    """A registered code no module uses is a typo or a code the engine dropped: its words would never show."""
    sources = "\n".join(p.read_text(encoding="utf-8") for p, _ in _core_trees() if p.name != "codes.py")
    used = set(re.findall(r"\b[A-Z][A-Z0-9_]+\b", sources)) | {c.code for c in CALLS}
    unused = sorted(name for name in _registry() if name not in used)
    assert not unused, "registered codes no module of core/ uses: " + ", ".join(unused)


def test_every_call_site_gives_the_values_its_templates_name():
    """Checked here for every call site, also those a test never reaches (the English is rendered at run time)."""
    from onnxpack.core.codes import fields

    wrong = []
    for call in CALLS:
        code = _registry().get(call.code)
        if code is None or call.open_keywords:
            continue
        remedy = fields(code.hint_template(call.variant)) if "hint" not in call.keywords else set()
        needed = fields(code.template(call.variant)) | remedy
        lacking = needed - call.keywords - {"subject"}
        if lacking:
            wrong.append(f"{call.where}: {call.code} lacks {sorted(lacking)}")
    assert not wrong, wrong


# Keywords of .finding()/.error() that are not values of the message.
_NOT_VALUES = frozenset({"subject", "variant", "hint", "details", "repeats", "raised_as"})


def _dummy(names: set[str]) -> dict[str, object]:
    """A value for each name (what the app's derived placeholders compute from, where a code has them)."""
    from onnxpack.gui import messages

    values: dict[str, object] = {name: f"V{i}x" for i, name in enumerate(sorted(names))}
    values.update({"bytes": 123456, "approx": True, "ml_opset": 3, "derived": False})
    # byte counts a template writes with thousands separators ({size:,} bytes: core/units.py) are numbers
    values.update({name: 4096 for name in ("size", "length", "expected", "limit") if name in values})
    assert set(messages._DERIVED) <= set(_registry())
    return values


def _texts() -> list[tuple[str, str | None]]:
    """(code, variant) of every finding message template in the registry."""
    out: list[tuple[str, str | None]] = []
    for name, code in _registry().items():
        if code.severity is not None:
            out += [(name, None)] + [(name, v) for v in code.variants]
    return out


@pytest.mark.parametrize(("name", "variant"), _texts(), ids=lambda v: str(v))
def test_each_finding_renders_in_japanese_from_the_values_its_template_names(qapp, name, variant):
    from onnxpack.core.codes import fields
    from onnxpack.gui import i18n
    from onnxpack.gui.hints import gui_hint
    from onnxpack.gui.messages import gui_message

    code = _registry()[name]
    passed = {k for c in CALLS if c.code == name and c.variant == variant for k in c.keywords}
    params = _dummy((fields(code.template(variant)) | fields(code.hint_template(variant)) | passed) - _NOT_VALUES)
    finding = code.finding("SUBJ", variant=variant, **params)
    try:
        i18n.install_translators(qapp, "ja")
        text = gui_message(finding)
        assert text != finding.message and "{" not in text and not text.isascii(), (name, variant, text)
        if code.hint_template(variant):
            hint = gui_hint(name, finding.hint, finding.message_params())
            assert hint and hint != finding.hint and not hint.isascii(), (name, hint)
    finally:
        i18n.install_translators(qapp, "en")


def test_every_error_code_has_japanese_words_and_remedy(qapp):
    from onnxpack.core.codes import fields
    from onnxpack.gui import i18n
    from onnxpack.gui.hints import gui_hint
    from onnxpack.gui.messages import gui_message

    errors = {name: code for name, code in _registry().items() if code.kind is not None}
    assert {"INPUT", "OUTPUT", "CANCELLED", "SMOKE_MEMORY"} <= set(errors)
    bad = []
    try:
        i18n.install_translators(qapp, "ja")
        for name, code in errors.items():
            for variant in (None, *code.variants):
                passed = {k for c in CALLS if c.code == name and c.variant == variant for k in c.keywords}
                names = fields(code.template(variant)) | fields(code.hint_template(variant)) | passed
                err = code.error("SUBJ", variant=variant, **_dummy(names - _NOT_VALUES))
                if not code.summary or gui_message(err).isascii():
                    bad.append(f"{name}: summary {code.summary!r} → {gui_message(err)!r}")
                if err.hint and (gui_hint(name, err.hint, err.params) or "").isascii():
                    bad.append(f"{name}/{variant}: hint {err.hint!r} stays English")
    finally:
        i18n.install_translators(qapp, "en")
    assert not bad, bad


def _class_error_hints() -> dict[str, tuple[str, str]]:
    """The constant hint of every error raised with only its class's code (``InputError("…", "hint")``) or a code
    known at run time only: hint → (code, where). Those have several hints per code, so the app translates each by
    its text."""
    from onnxpack.core import errors

    classes = {name: cls.code for name, cls in vars(errors).items()
               if isinstance(cls, type) and issubclass(cls, errors.OnnxpackError)}  # fmt: skip
    hints: dict[str, tuple[str, str]] = {}
    for path, tree in _core_trees():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or len(node.args) < 2:
                continue
            if node.func.id not in classes or any(kw.arg == "code" and _literal_code(kw.value) for kw in node.keywords):
                continue  # a registered code: its remedy is the registry's
            hint = node.args[1]
            if isinstance(hint, ast.Constant) and isinstance(hint.value, str) and hint.value:
                hints.setdefault(hint.value, (classes[node.func.id], f"{path.relative_to(CORE)}:{node.lineno}"))
    return hints


def test_every_class_error_hint_speaks_the_apps_language(qapp):
    """An error of a class's code (INPUT, USAGE, ...) has its remedy registered with its variant, so the app words
    it from the registry like any other (issue 38: no hint is translated by matching its English)."""
    from onnxpack.core import classcodes, errorcodes
    from onnxpack.core.codes import fields
    from onnxpack.gui import i18n
    from onnxpack.gui.hints import gui_hint

    assert _class_error_hints() == {}, "register these hints with their code's variant"
    class_codes = [c for c in _registry().values() if c.kind is not None and c.variant_hints
                   and (c.name in vars(classcodes) or c.name in vars(errorcodes))]  # fmt: skip
    assert {"INPUT", "USAGE", "MODEL_FORMAT"} <= {c.name for c in class_codes}
    try:
        i18n.install_translators(qapp, "ja")
        for code in class_codes:
            for variant in code.variant_hints:
                names = fields(code.template(variant)) | fields(code.hint_template(variant))
                err = code.error("SUBJ", variant=variant, **_dummy(names - _NOT_VALUES))
                text = gui_hint(err.code, err.hint, err.params)
                assert text and text != err.hint and not text.isascii(), (code.name, variant, err.hint, text)
    finally:
        i18n.install_translators(qapp, "en")


def test_the_apps_own_hints_are_for_registered_codes():
    from onnxpack.gui.hints import GUI_HINT_CODES

    assert not sorted(set(GUI_HINT_CODES) - set(_registry()))


def test_the_apps_own_remedies_read_as_before_they_moved_into_the_registry(qapp):
    """Issue 38: gui/hints.py's hand-written table of the app's remedies became the registry's app remedies
    (Code.app_hint). tests/fixtures/gui_app_hints.json is what that table showed for each of its codes, in English and
    Japanese, captured before it went: the registry's app remedies read the same, whatever hint and values the engine
    gave."""
    import json

    from onnxpack.core.codes import fields
    from onnxpack.gui import i18n
    from onnxpack.gui.hints import GUI_HINT_CODES, gui_hint

    before = json.loads((Path(__file__).parent / "fixtures" / "gui_app_hints.json").read_text(encoding="utf-8"))
    assert sorted(before) == list(GUI_HINT_CODES)
    try:
        for lang in ("en", "ja"):
            i18n.install_translators(qapp, lang)
            for name, texts in before.items():
                code = _registry()[name]
                assert gui_hint(name, "engine hint") == texts[lang], (lang, name)
                values = _dummy((fields(code.template()) | fields(code.hint)) - _NOT_VALUES)
                made = code.finding("SUBJ", **values) if code.severity is not None else None
                if made is not None:
                    assert gui_hint(name, made.hint, made.message_params()) == texts[lang], (lang, name)
    finally:
        i18n.install_translators(qapp, "en")


def test_an_app_remedy_reworded_in_english_keeps_its_japanese(qapp, monkeypatch):
    """The app finds an app remedy's translation by its code (resources/i18n/registry_sources.json), not by its
    English: rewording it in the registry keeps the Japanese until the translations are refreshed (English shows the
    new words at once)."""
    from onnxpack.core import codes as registry_codes
    from onnxpack.gui import i18n
    from onnxpack.gui.hints import gui_hint

    try:
        i18n.install_translators(qapp, "ja")
        japanese = gui_hint("EXTDATA_MISSING", "engine hint")
        assert "「ファイル → データファイルの場所を指定…」" in japanese
        monkeypatch.setitem(registry_codes.APP_HINTS, "EXTDATA_MISSING", "Choose it with {act:locate_data_file}.")
        assert gui_hint("EXTDATA_MISSING", "engine hint") == japanese
        i18n.install_translators(qapp, "en")
        assert gui_hint("EXTDATA_MISSING", "engine hint") == "Choose it with File → Locate data file…."
    finally:
        i18n.install_translators(qapp, "en")
