"""Catalog coverage: every finding and error code the engine can produce has a text in the app's catalogs, each call
site gives the values its template names, and each renders in Japanese.

The engine's call sites are found by reading ``core/*.py`` (``ast``), so a new finding code, a new parameter in a
template or a new error code fails here until gui/messages.py and gui/hints.py (and the Japanese .ts) know it."""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "core"
_CODE = re.compile(r"[A-Z][A-Z0-9_]+")

# Helpers of the engine that build a Finding: name → (index of the code, index of the hint, whether the hint defaults
# to a non-empty text, parameters the helper adds itself).
_FINDING_HELPERS: dict[str, tuple[int, int, bool, frozenset[str]]] = {
    "error": (0, 2, False, frozenset()),  # Finding.error / warning / info
    "warning": (0, 2, False, frozenset()),
    "info": (0, 2, False, frozenset()),
    "_problem": (0, 3, True, frozenset()),  # verify.py: hint defaults to the tamper hint
    "bad": (0, 2, False, frozenset({"file"})),  # extdata.py _check_location
    "_fail": (0, 2, False, frozenset({"file"})),  # extdata.py _ExtFile._fail
    "_bad": (0, 3, True, frozenset()),  # zipcheck.py: the damaged-archive hint is its own
}


@functools.cache
def _core_trees() -> list[tuple[Path, ast.Module]]:
    """Every module of core/, parsed once for the three scans below."""
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(CORE.rglob("*.py"))]


@dataclass
class Site:
    code: str
    where: str
    params: set[str] = field(default_factory=set)
    open_params: bool = False  # the call passes **params: its keywords are not all known here
    variant: str | None = None
    has_hint: bool = False


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        if func.attr in ("error", "warning", "info"):
            return func.attr if isinstance(func.value, ast.Name) and func.value.id == "Finding" else None
        return func.attr if func.attr in _FINDING_HELPERS else None
    if isinstance(func, ast.Name) and func.id in _FINDING_HELPERS and func.id not in ("error", "warning", "info"):
        return func.id
    return None


def _finding_sites() -> list[Site]:
    sites = []
    for path, tree in _core_trees():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or (name := _name(node.func)) is None:
                continue
            code_i, hint_i, hint_default, extra = _FINDING_HELPERS[name]
            if len(node.args) <= code_i:
                continue
            codes = _constants(node.args[code_i])
            if not codes:
                continue  # the helper's own body (a variable code) or another function of the same name
            site = Site(codes[0], f"{path.name}:{node.lineno}", set(extra))
            hint: ast.expr | None = node.args[hint_i] if len(node.args) > hint_i else None
            for kw in node.keywords:
                if kw.arg is None:
                    site.open_params = True
                elif kw.arg == "hint":
                    hint = kw.value
                elif kw.arg == "variant":
                    assert isinstance(kw.value, ast.Constant), f"{site.where}: variant must be a literal"
                    site.variant = kw.value.value
                elif kw.arg != "subject":
                    site.params.add(kw.arg)
            site.has_hint = hint_default if hint is None else not (isinstance(hint, ast.Constant) and not hint.value)
            sites += [replace(site, code=code) for code in codes]
    return sites


def _constants(node: ast.expr) -> list[str]:
    """The code(s) a call's argument can be: a literal, or either literal of ``"A" if … else "B"``."""
    if isinstance(node, ast.IfExp):
        both = _constants(node.body) + _constants(node.orelse)
        return both if len(both) == 2 else []
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and _CODE.fullmatch(node.value):
        return [node.value]
    return []


def _error_codes() -> dict[str, str]:
    """Every error code the engine sets: ``code="X"`` keywords, ``code = "X"`` class attributes, ``"code": "X"`` in
    the smoke child's error messages (the dicts with a "class"), and the code argument of bundle.py's ``_refuse``."""
    codes: dict[str, str] = {}
    for path, tree in _core_trees():
        for node in ast.walk(tree):
            found: list[ast.expr] = []
            if isinstance(node, ast.Call):
                found += [kw.value for kw in node.keywords if kw.arg == "code"]
                if isinstance(node.func, ast.Name) and node.func.id == "_refuse" and len(node.args) >= 3:
                    found.append(node.args[2])
            elif isinstance(node, ast.ClassDef):
                found += [s.value for s in node.body if isinstance(s, ast.Assign)
                          and any(isinstance(t, ast.Name) and t.id == "code" for t in s.targets)]  # fmt: skip
            elif isinstance(node, ast.Dict):
                keys = {k.value: v for k, v in zip(node.keys, node.values, strict=True) if isinstance(k, ast.Constant)}
                if "class" in keys and "code" in keys:
                    found.append(keys["code"])
            for value in found:
                for code in _constants(value):
                    codes.setdefault(code, f"{path.name}:{node.lineno}")
                if isinstance(value, ast.BinOp) and isinstance(value.left, ast.Constant):  # "PATH_" + errno name
                    codes.setdefault(str(value.left.value), f"{path.name}:{node.lineno}")
    return codes


SITES = _finding_sites()
ERROR_CODES = _error_codes()


def test_the_scan_finds_the_engine_call_sites():
    """Guards the scanner itself: it sees the codes of every module that reports findings, and errors' codes."""
    files = {s.where.split(":")[0] for s in SITES}
    assert {"validate.py", "extdata.py", "inspection.py", "smoke.py", "verify.py", "bundle.py", "versions.py"} <= files
    assert len({s.code for s in SITES}) >= 80
    assert {"EXTDATA_MISSING", "SMOKE_RUN_FAILED", "ZIP_DAMAGED", "IR_LOWERABLE"} <= {s.code for s in SITES}
    assert {"INPUT", "OUTPUT", "CANCELLED", "PATH_", "SMOKE_MEMORY", "SMOKE_CHILD_ERROR"} <= set(ERROR_CODES)


def test_every_finding_code_has_a_catalog_text():
    from onnxpack.gui.messages import GUI_MESSAGE_CODES

    missing = sorted({f"{s.code} ({s.where})" for s in SITES if s.code not in GUI_MESSAGE_CODES})
    assert not missing, "finding codes without a text in gui/messages.py: " + ", ".join(missing)


def test_every_catalog_code_is_one_the_engine_produces():
    """A catalog key no call site produces is a typo or a code the engine dropped: its text would never show."""
    from onnxpack.gui.hints import ENGINE_HINT_CODES, GUI_HINT_CODES
    from onnxpack.gui.messages import ERROR_TEXT_CODES, GUI_MESSAGE_CODES

    produced = {s.code for s in SITES} | set(ERROR_CODES)
    for catalog in (GUI_MESSAGE_CODES, ERROR_TEXT_CODES, GUI_HINT_CODES, ENGINE_HINT_CODES):
        assert not sorted(set(catalog) - produced)


def test_every_error_code_has_a_general_text():
    from onnxpack.gui.messages import ERROR_TEXT_CODES

    missing = sorted(f"{c} ({w})" for c, w in ERROR_CODES.items() if c not in ERROR_TEXT_CODES)
    assert not missing, "error codes without a text in gui/messages.py: " + ", ".join(missing)


def test_every_finding_with_a_hint_has_the_apps_hint_or_its_translation():
    from onnxpack.gui.hints import ENGINE_HINT_CODES, GUI_HINT_CODES

    known = set(ENGINE_HINT_CODES) | set(GUI_HINT_CODES)
    missing = sorted({f"{s.code} ({s.where})" for s in SITES if s.has_hint and s.code not in known})
    assert not missing, "finding codes whose hint stays English in Japanese: " + ", ".join(missing)


@pytest.mark.parametrize("site", SITES, ids=lambda s: f"{s.code}@{s.where}")
def test_each_call_site_renders_in_japanese_from_its_own_values(qapp, site):
    """With exactly the keywords the call site passes (dummy values), the Japanese template fills every placeholder:
    a template naming a value the engine does not give would fall back to English at run time."""
    from onnxpack.core.findings import Finding
    from onnxpack.gui import i18n
    from onnxpack.gui.hints import gui_hint
    from onnxpack.gui.messages import gui_message

    assert not site.open_params, f"{site.where}: pass the values by name (not **params) so that this test sees them"
    params: dict[str, object] = {name: "7" for name in site.params}
    if site.variant is not None:
        params["variant"] = site.variant
    try:
        i18n.install_translators(qapp, "ja")
        finding = Finding.error(site.code, "english", "english hint", "subj", **params)
        text = gui_message(finding)
        assert text != "english", f"{site.where}: {site.code} does not render from {sorted(site.params)}"
        assert "{" not in text and not text.isascii(), text
        if site.has_hint:
            hint = gui_hint(site.code, "english hint")
            assert hint and hint != "english hint" and not hint.isascii(), (site.code, hint)
    finally:
        i18n.install_translators(qapp, "en")


def _error_hints() -> dict[str, tuple[str, str]]:
    """The constant hint of every error the engine raises: hint → (its code, where)."""
    from onnxpack.core import errors

    classes = {name: cls.code for name, cls in vars(errors).items()
               if isinstance(cls, type) and issubclass(cls, errors.OnnxpackError)}  # fmt: skip
    hints: dict[str, tuple[str, str]] = {}
    for path, tree in _core_trees():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or len(node.args) < 2:
                continue
            if node.func.id == "_refuse" and len(node.args) >= 3:
                code = _constants(node.args[2])
            elif node.func.id in classes:
                code = [c for kw in node.keywords if kw.arg == "code" for c in _constants(kw.value)]
                code = code or [classes[node.func.id]]
            else:
                continue
            hint = node.args[1]
            if code and isinstance(hint, ast.Constant) and isinstance(hint.value, str) and hint.value:
                hints.setdefault(hint.value, (code[0], f"{path.name}:{node.lineno}"))
    return hints


def test_every_error_hint_speaks_the_apps_language(qapp):
    """An error's hint is the app's own (by code), the translation of its code's hint, or, for codes with several
    hints (INPUT, MODEL_FORMAT …), the translation of its exact text (hints.ERROR_HINT_TEXTS)."""
    from onnxpack.gui import i18n
    from onnxpack.gui.hints import ENGINE_HINT_CODES, ERROR_HINT_TEXTS, GUI_HINT_CODES, gui_hint

    hints = _error_hints()
    assert len(hints) > 100 and "Check the path and its permissions." in hints  # the scan sees them
    by_code = set(GUI_HINT_CODES) | set(ENGINE_HINT_CODES)
    missing = sorted(f"{code} {where}: {h!r}" for h, (code, where) in hints.items()
                     if code not in by_code and h not in ERROR_HINT_TEXTS)  # fmt: skip
    assert not missing, "error hints that stay English in Japanese: " + "; ".join(missing)
    assert set(hints) >= ERROR_HINT_TEXTS, "hints.ERROR_HINT_TEXTS names a hint the engine no longer gives"
    try:
        i18n.install_translators(qapp, "ja")
        for hint, (code, where) in hints.items():
            text = gui_hint(code, hint)
            assert text and text != hint and not text.isascii(), (code, where, hint, text)
    finally:
        i18n.install_translators(qapp, "en")
