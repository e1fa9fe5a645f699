"""Every message from the registry (issue 38 item 1): no English sentence is written at a raise, a finding or a
progress report in core/ or cli/; the codes' registry (onnxpack.core.codes, each floor's codes.py) and the progress
steps' (onnxpack.core.steps) hold every text, so the app words them in its language without matching English. The
values a call passes by name are data too (a name, a number, a path, a list of names, a command line), never English
words built at the call: each kind of message is a variant of its code (tests/test_registry_values.py renders them)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from onnxpack.core import errors

ROOT = Path(__file__).resolve().parent.parent
#: The modules that hold the registries: their English is the registry itself.
REGISTRY_MODULES = {"codes.py", "errorcodes.py", "foldercodes.py", "provecodes.py", "steps.py"}
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


#: Keyword arguments that are not values of a template: the variants, and ``details`` (the technical text of a
#: "show details" view: another program's output, a log); ``message``/``hint`` are checked above.
NOT_VALUES = {"variant", "hint_variant", "details", "message", "hint", "unit", "stage"}
#: Two words in a row; ``\0`` stands for a value in an f-string ("Reading {file}" is a word and a value).
_WORDS = re.compile(r"[A-Za-z]{2,} +(?:[A-Za-z]{2,}|\0)|\0 +[A-Za-z]{2,}")


def _words(text: str) -> bool:
    """English words in a literal (a command line, one with a ``--flag``, is data)."""
    return "--" not in text and bool(_WORDS.search(text))


def _is_prose(node: ast.expr, assigned: dict[str, list[ast.expr]], seen: frozenset[str] = frozenset()) -> bool:
    """English built at the call: a literal or f-string with words, a concatenation, a choice or a join of one, or a
    name the function assigns one of those to."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and _words(node.value)
    if isinstance(node, ast.JoinedStr):
        return _words("".join(v.value if isinstance(v, ast.Constant) else "\0" for v in node.values))
    if isinstance(node, ast.BinOp):
        return _is_prose(node.left, assigned, seen) or _is_prose(node.right, assigned, seen)
    if isinstance(node, ast.IfExp):
        return _is_prose(node.body, assigned, seen) or _is_prose(node.orelse, assigned, seen)
    if isinstance(node, ast.BoolOp):
        return any(_is_prose(v, assigned, seen) for v in node.values)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
        sep = node.func.value
        if isinstance(sep, ast.Constant) and isinstance(sep.value, str) and re.search("[A-Za-z]", sep.value):
            return True  # " and ".join(...)
        return any(isinstance(a, (ast.GeneratorExp, ast.ListComp)) and _is_prose(a.elt, assigned, seen)
                   for a in node.args)  # fmt: skip
    if isinstance(node, ast.Name) and node.id not in seen:
        return any(_is_prose(v, assigned, seen | {node.id}) for v in assigned.get(node.id, []))
    return False


#: English still built at the call, by (module, function, value): each is left to do (not data), with why it is left.
LEFT_TO_DO = {
    # MANIFEST_INCONSISTENT "prove_ort": the contradictions of a forged prove_ort section, in one finding (verify
    # reports one per section); a variant per kind of contradiction needs a way to list several in one message
    ("core/release/verify/verify_manifest.py", "check_prove_ort", "detail"),
}


def _english_values(tree: ast.AST) -> list[tuple[int, str, str, str]]:
    """The calls of a code's ``error``/``finding`` and of ``report`` that pass English as a value by name: (line,
    function, value, what)."""
    out = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        assigned: dict[str, list[ast.expr]] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, []).append(node.value)
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and _name(node.func) in ("error", "finding", "report"):
                for k in node.keywords:
                    if k.arg is not None and k.arg not in NOT_VALUES and _is_prose(k.value, assigned):
                        out.append((node.lineno, fn.name, k.arg,
                                    f"{_name(node.func)}({k.arg}=...) with English built at the call"))
    return sorted(set(out))


def test_the_scan_finds_english_passed_as_a_value():
    tree = ast.parse('def f(path, e, n, names, flags):\n'
                     '    raise codes.X.error(what=f"Reading {path.name}", last=str(e))\n'
                     '    what = f"{n} tensors instead of 3" if n else "its structure differs"\n'
                     '    raise codes.X.error(what=what)\n'
                     '    raise codes.X.error(names=" and ".join(names))\n'
                     '    out.append(codes.Y.finding(n, flags=" ".join(f"--dim {k}={v}" for k, v in flags)))\n'
                     '    out.append(codes.Y.finding(n, outputs=", ".join(f"{k!r}: {v}" for k, v in flags)))\n'
                     '    raise codes.X.error(variant="status", status=n, details=f"exit code {n}")\n'
                     '    raise codes.X.error(example="$(git log -1 --format=%ct)", path=path)\n')  # fmt: skip
    assert [line for line, *_ in _english_values(tree)] == [2, 4, 5]


def test_no_english_is_passed_as_a_value():
    found, left = [], set()
    for path in _sources():
        module = path.relative_to(ROOT).as_posix()
        for line, function, value, what in _english_values(ast.parse(path.read_text(encoding="utf-8"))):
            if (module, function, value) in LEFT_TO_DO:
                left.add((module, function, value))
            else:
                found.append(f"{module}:{line}: {what}")
    assert not found, "make each kind of message a variant of its code, its values data:\n" + "\n".join(found)
    assert left == LEFT_TO_DO, f"done: take {sorted(LEFT_TO_DO - left)} out of LEFT_TO_DO"
