"""Every message from the registry (issue 38 item 1): no English sentence is written at a raise, a finding or a
progress report in core/ or cli/; the codes' registry (onnxpack.core.codes, each floor's codes.py) and the progress
steps' (onnxpack.core.steps) hold every text, so the app words them in its language without matching English."""

from __future__ import annotations

import ast
from pathlib import Path

from onnxpack.core import errors

ROOT = Path(__file__).resolve().parent.parent
#: The modules that hold the registries: their English is the registry itself.
REGISTRY_MODULES = {"codes.py", "errorcodes.py", "foldercodes.py", "steps.py"}
#: Every OnnxpackError class, by name (an error raised as ``InputError("…")`` writes its English by hand).
ERROR_CLASSES = {name for name, cls in vars(errors).items()
                 if isinstance(cls, type) and issubclass(cls, errors.OnnxpackError)}  # fmt: skip


def _sources() -> list[Path]:
    return sorted(p for folder in ("core", "cli") for p in (ROOT / folder).rglob("*.py")
                  if p.name not in REGISTRY_MODULES)  # fmt: skip


def _is_text(node: ast.expr) -> bool:
    """A string literal, an f-string, or a concatenation or %-format of one: English written at the call."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value != ""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _is_text(node.left) or _is_text(node.right)
    return False


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _hand_written(tree: ast.AST) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        texts = [a for a in node.args[:2] if _is_text(a)]
        texts += [k.value for k in node.keywords if k.arg in ("message", "hint") and _is_text(k.value)]
        finding_factory = (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                           and node.func.value.id == "Finding" and name in ("error", "warning", "info"))
        if finding_factory:
            texts = [a for a in node.args[1:3] if _is_text(a)]
        if name in ERROR_CLASSES or name == "Finding" or finding_factory:
            if texts:
                out.append((node.lineno, f"{name}(...) with English written at the call"))
        elif name == "report" and (any(_is_text(a) for a in node.args[4:5])
                                   or any(k.arg == "message" and _is_text(k.value) for k in node.keywords)):
            out.append((node.lineno, "report(...) with a message instead of a step"))
        elif name == "ProgressEvent" and any(_is_text(a) for a in node.args[3:4]):
            out.append((node.lineno, "ProgressEvent(...) with a message instead of a step"))
    return out


def test_the_scan_finds_english_written_at_a_raise():
    tree = ast.parse('raise InputError(f"No such file: {p}", "Check the path.")\n'
                     'raise codes.NO_SUCH_FILE.error(path=p)\n'
                     'report(progress, "zip", 0, 1, "writing")\n'
                     'report(progress, "zip", 0, 1, steps.WRITING_MANIFEST)\n'
                     'Finding.warning("X", f"{n} is odd", "Fix it.")\n')  # fmt: skip
    assert [line for line, _ in _hand_written(tree)] == [1, 3, 5]


def test_no_english_is_written_at_a_raise_a_finding_or_a_report():
    found = [f"{path.relative_to(ROOT)}:{line}: {what}" for path in _sources()
             for line, what in _hand_written(ast.parse(path.read_text(encoding="utf-8")))]
    assert not found, "register the text (define(...) in the floor's codes.py, or a step):\n" + "\n".join(found)
