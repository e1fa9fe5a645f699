"""The registry of codes (onnxpack.core.codes): well-formed entries, English rendered from them, the docs' list of
codes generated from it, options named as data."""

from __future__ import annotations

import argparse
import re
import string
from pathlib import Path

import pytest

from onnxpack.core import registry
from onnxpack.core.codes import OPTION_FLAGS, Code, define, fields, markdown, options, render
from onnxpack.core.errors import InputError, OnnxpackError
from onnxpack.core.findings import Finding, Severity

ROOT = Path(__file__).resolve().parent.parent


def test_the_docs_list_of_codes_is_generated_from_the_registry():
    docs = (ROOT / "docs" / "codes.md").read_text(encoding="utf-8")
    assert docs == markdown(registry()), "run: python -m onnxpack.core.codes > docs/codes.md"


def _cli_flags() -> set[str]:
    from onnxpack.cli import build_parser

    flags: set[str] = set()
    parsers = [build_parser()]
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            flags.update(action.option_strings)
            if isinstance(action, argparse._SubParsersAction):
                parsers += list(action.choices.values())
    return flags


def test_every_option_a_remedy_can_name_is_a_flag_of_the_command_line():
    assert set(OPTION_FLAGS.values()) <= _cli_flags()


@pytest.mark.parametrize("code", list(registry().values()), ids=lambda c: c.name)
def test_each_entry_is_well_formed(code: Code):
    assert code.name == code.name.upper() and code.name.replace("_", "").isalnum()
    assert code.severity is not None or code.kind is not None
    for text in (*code.messages(), *code.remedies(), code.summary):
        list(string.Formatter().parse(text))  # raises on a broken template
        assert options(text) <= set(OPTION_FLAGS), (code.name, text)
        literal = "".join(part for part, _, _, _ in string.Formatter().parse(text))
        literal = re.sub(r"`[^`]*`", "", literal)  # a command quoted whole (`onnxpack merge --layout external`)
        assert " --" not in f" {literal}", f"{code.name}: name an option as {{opt:NAME}}, not as a flag: {text!r}"
    if code.severity is not None:
        assert code.text, code.name
    if code.kind is not None:
        assert code.summary and "{" not in code.summary, code.name
        assert issubclass(code.kind, OnnxpackError)


def test_a_finding_is_rendered_from_its_template():
    try:
        code = define("TEST_ONLY_FINDING", Severity.WARNING, "Tensor {name!r} holds {n:,} bytes",
                      "Run again with {opt:fix_ir}, or drop {name}.", variants={"short": "{name}: {n}"})  # fmt: skip
        f = code.finding("w1", name="w1", n=1234567)
        assert isinstance(f, Finding) and f.severity is Severity.WARNING and f.code == "TEST_ONLY_FINDING"
        assert f.message == "Tensor 'w1' holds 1,234,567 bytes"
        assert f.hint == "Run again with --fix-ir, or drop w1."
        assert f.subject == "w1" and f.params == {"name": "w1", "n": 1234567}
        assert code.finding("w1", variant="short", name="w1", n=2).message == "w1: 2"
        assert code.finding("w1", hint="own words", name="w1", n=2).hint == "own words"
        with pytest.raises(KeyError):
            code.finding("w1", name="w1")  # a value the template names is missing: a bug at the call site
        with pytest.raises(TypeError):
            code.error("w1", name="w1", n=1)
        with pytest.raises(ValueError, match="twice"):
            define("TEST_ONLY_FINDING", Severity.INFO, "again")
    finally:
        from onnxpack.core import codes

        codes.CODES.pop("TEST_ONLY_FINDING", None)


def test_an_error_is_raised_from_its_template():
    from onnxpack.core import codes

    try:
        code = define("TEST_ONLY_ERROR", kind=InputError, text="{file} is not a model", hint="Give {opt:data_dir}.",
                      summary="Not a model")  # fmt: skip
        err = code.error("x.bin", file="x.bin", details="parser said no")
        assert type(err) is InputError and err.code == "TEST_ONLY_ERROR" and err.exit_status == 2
        assert (err.message, err.hint, err.details) == ("x.bin is not a model", "Give --data-dir.", "parser said no")
        assert err.params == {"subject": "x.bin", "file": "x.bin"}
        with pytest.raises(TypeError):
            code.finding("x", file="x")
        assert code.error("x.bin", file="x.bin", hint="").hint == ""
    finally:
        codes.CODES.pop("TEST_ONLY_ERROR", None)


def test_a_front_end_words_options_its_own_way():
    assert render("tick {opt:force}", {}, lambda name: f"<{name}>") == "tick <force>"
    assert render("pass {opt:force}", {}) == "pass --force"
    assert fields("a {x!r} {y:,} {opt:force} {z.attr}") == {"x", "y", "z"}
    assert options("a {opt:force} {opt:fix_ir} {x}") == {"force", "fix_ir"}


def test_the_apps_own_remedies_name_options_and_actions_as_data():
    """A code's app remedy (Code.app_hint, each floor's apphints.py) names the app's controls ({opt:NAME}) and actions
    ({act:NAME}) as data; the command line would word an action as the flag of the option that does its job."""
    from onnxpack.core.codes import APP_ACTIONS, APP_HINTS, actions, app_remedy

    codes = registry()
    assert len(APP_HINTS) >= 60 and set(APP_HINTS) <= set(codes)
    for name, template in APP_HINTS.items():
        assert codes[name].app_hint == template and not fields(template), name
        assert options(template) <= set(OPTION_FLAGS) and actions(template) <= set(APP_ACTIONS), name
        render(template, {})  # every front end can word it, the command line too
    assert set(APP_ACTIONS.values()) <= set(OPTION_FLAGS)
    assert render("choose it with {act:locate_data_file}", {}) == "choose it with --data-dir"
    assert render("{act:locate_data_file}", {}, action=str.upper) == "LOCATE_DATA_FILE"
    assert actions("a {act:locate_data_file} {opt:force}") == {"locate_data_file"}
    with pytest.raises(ValueError, match="two app remedies"):
        app_remedy(codes["EXTDATA_MISSING"], "again")
    with pytest.raises(ValueError, match="no such app action"):
        app_remedy(codes["BAD_VERSION"], "{act:nothing}")
    assert "## Remedies in the desktop app" in markdown(codes)
