"""Flag groups (core/release/flaggroups.py): every flag declared once, every command's parser, the registry's flag
names and the app's form table built from the same declarations (issue 38 item 2)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from onnxpack.cli import build_parser
from onnxpack.core.codes import OPTION_FLAGS
from onnxpack.core.flagspec import Flag, Kind
from onnxpack.core.release import flaggroups
from onnxpack.core.release.flaggroups import (
    BUNDLE_SPEC,
    COMMAND_SPECS,
    MODEL_FLAGS,
    PROOF_FLAGS,
    REPORT_FLAGS,
    TARGET_FLAGS,
    option_flags,
)
from onnxpack.core.release.options import BundleOptions

#: Every command's flags as the command line had them before the flag groups (its --help keeps each of them).
FLAGS_BEFORE = {
    "inspect": ["--data-dir", "--help", "--json", "--quiet", "-h", "-q", "MODEL"],
    "check": ["--data-dir", "--help", "--json", "--prove-ort", "--quiet", "--target-app", "--target-ort", "-h", "-q",
              "MODEL"],
    "merge": ["--align", "--checksum", "--data-dir", "--force", "--help", "--json", "--layout", "--out", "--output",
              "--quiet", "-h", "-o", "-q", "MODEL"],
    "smoke": ["--atol", "--compare", "--data-dir", "--dim", "--help", "--input", "--json", "--no-search",
              "--other-data-dir", "--quiet", "--range", "--recipe", "--rtol", "--runs", "--save-outputs", "--seed",
              "--timeout", "-h", "-q", "MODEL"],
    "ort": ["--atol", "--data-dir", "--dim", "--help", "--input", "--json", "--optimization-style", "--out",
            "--output", "--quiet", "--range", "--recipe", "--rtol", "--seed", "--target-platform", "--timeout", "-h",
            "-o", "-q", "MODEL"],
    "bundle": ["--allow-unmatched-labels", "--allow-version-not-greater", "--asset", "--author", "--compare-outputs",
               "--compress", "--data-dir", "--dim", "--exclude", "--fix-ir", "--force", "--help", "--homepage",
               "--input", "--json", "--labels", "--labels-file", "--layout", "--license", "--name", "--no-load-cost",
               "--no-search", "--no-smoke", "--ort-format", "--out", "--output", "--previous", "--prove-ort",
               "--quiet", "--range", "--seed", "--set-model-version", "--sign-certificate", "--sign-chain",
               "--sign-key", "--sign-key-password-env", "--sign-sigstore", "--sigstore-identity-token-env",
               "--target-app", "--target-ort", "--timeout", "--version", "-h", "-o", "-q", "MODEL"],
    "verify": ["--help", "--json", "--key", "--quiet", "--sigstore-identity", "--sigstore-issuer", "--smoke", "--trust",
               "-h", "-q", "BUNDLE"],
    "keygen": ["--force", "--help", "--json", "--name", "--out", "--output", "--quiet", "-h", "-o", "-q"],
}  # fmt: skip


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def _flags(parser: argparse.ArgumentParser) -> list[str]:
    return sorted(n for a in parser._actions for n in (a.option_strings or [a.metavar or a.dest]))


def test_every_command_keeps_every_flag_and_shows_each_in_its_help() -> None:
    commands = _commands(build_parser())
    assert {name: _flags(p) for name, p in commands.items()} == FLAGS_BEFORE
    for name, parser in commands.items():
        text = parser.format_help()
        for action in parser._actions:
            assert action.help, (name, action.dest)
            for spelling in action.option_strings:
                assert spelling in text, (name, spelling)


def test_each_command_parser_is_its_spec() -> None:
    """Every flag of every command comes from its spec, with the spec's spelling, dest, help and default."""
    for name, parser in _commands(build_parser()).items():
        actions = [a for a in parser._actions if a.dest != "help"]
        spec = COMMAND_SPECS[name].flags
        assert [a.dest for a in actions] == [f.dest for f in spec], name
        for action, flag in zip(actions, spec, strict=True):
            assert (tuple(action.option_strings), action.help, action.metavar) == (flag.names, flag.help, flag.metavar)
            if flag.kind is not Kind.POSITIONAL:
                assert action.required == flag.required, (name, flag.dest)
                assert action.default == (list(flag.default) if flag.kind is Kind.REPEAT else flag.default)


def _declared_in(dest: str) -> dict[str, Flag]:
    return {name: next(f for f in spec.flags if f.dest == dest) for name, spec in COMMAND_SPECS.items()
            if any(f.dest == dest for f in spec.flags)}  # fmt: skip


@pytest.mark.parametrize(("dest", "group", "commands"), [
    ("data_dir", MODEL_FLAGS, {"inspect", "check", "merge", "smoke", "ort", "bundle"}),
    ("target_ort", TARGET_FLAGS, {"check", "bundle"}),
    ("target_app", TARGET_FLAGS, {"check", "bundle"}),
    ("prove_ort", PROOF_FLAGS, {"check", "bundle"}),
    ("json", REPORT_FLAGS, set(COMMAND_SPECS)),
])  # fmt: skip
def test_a_shared_flag_is_one_declaration(dest: str, group: object, commands: set[str]) -> None:
    """--data-dir, the target, the proof, --json: the same spelling, help and option name wherever a command takes
    it, because every command takes it from the one group that declares it."""
    declared = next(f for f in group.flags if f.dest == dest)  # type: ignore[attr-defined]
    takes = _declared_in(dest)
    assert set(takes) == commands
    for name, flag in takes.items():
        assert (flag.names, flag.help, flag.option_name) == (declared.names, declared.help, declared.option_name), name


def test_option_flags_are_every_commands_flags() -> None:
    """OPTION_FLAGS (what a remedy's {opt:NAME} reads as) is derived: every named flag of every command, by option name,
    and it is the registry's Mapping."""
    assert dict(OPTION_FLAGS) == option_flags()
    every = {f.long_name for spec in COMMAND_SPECS.values() for f in spec.flags if f.long_name}
    assert set(OPTION_FLAGS.values()) == every
    assert OPTION_FLAGS["version"] == "--version" and OPTION_FLAGS["output"] == "--output"  # dest release, -o
    with pytest.raises(ValueError, match="both"):  # one name, one flag
        bad = Flag(("--target",), "target_ort", "x")
        option_flags({"x": COMMAND_SPECS["check"], "y": type(COMMAND_SPECS["check"])((TARGET_FLAGS.adapted(
            target_ort={"names": bad.names}),))})  # fmt: skip


def test_the_apps_form_table_is_the_bundle_specs_controls() -> None:
    from onnxpack.gui.engine import _form_fields

    table = _form_fields()
    assert table == BUNDLE_SPEC.controls()
    assert {key: field for key, (field, _) in table.items()} == {
        "model": "model", "out_dir": "out_dir", "version": "version", "name": "name", "data_dir": "data_dir",
        "previous": "previous", "target_ort": "target_ort", "fix_ir": "fix_ir", "prove_ort": "prove_ort",
        "set_model_version": "set_model_version", "ort_format": "ort_format", "compress": "compress",
        "dims": "smoke.dims", "inputs": "smoke.inputs", "run_smoke": "run_smoke", "force": "force",
        "allow_version_not_greater": "allow_version_not_greater", "allow_unmatched_labels": "allow_unmatched_labels",
        "license": "about.license", "authors": "about.authors", "homepage": "about.homepage",
        "labels": "about.labels", "sign_key": "sign_key",
    }  # fmt: skip


# -- adding an option shared by check and bundle: one flag group -----------------------------------------------------

#: The change a developer makes to add an option that `check` and `bundle` both take: one Flag in the group they share
#: (core/release/flaggroups.py TARGET_FLAGS), inserted after --target-app. Nothing else is edited.
ANCHOR = """         "(a file, or the app's folder); sets --target-ort", metavar="PATH"),\n"""
NEW_FLAG = """    Flag(("--strict-target",), "strict_target", "refuse a model the target may not load", "strict_target",
         Kind.SWITCH, default=False, control=Control("strict_target")),\n"""


def _with_new_flag() -> ModuleType:
    """core/release/flaggroups.py with NEW_FLAG added, loaded as a module of its own (the real one is untouched)."""
    path = Path(flaggroups.__file__)
    source = path.read_text(encoding="utf-8")
    assert source.count(ANCHOR) == 1
    name = "onnxpack.core.release._flaggroups_with_new_flag"
    spec = importlib.util.spec_from_loader(name, loader=None, origin=str(path))
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "onnxpack.core.release"
    sys.modules[name] = module
    try:
        exec(compile(source.replace(ANCHOR, ANCHOR + NEW_FLAG), str(path), "exec"), module.__dict__)
    finally:
        del sys.modules[name]
    return module


def test_adding_an_option_shared_by_check_and_bundle_touches_one_flag_group(monkeypatch: pytest.MonkeyPatch) -> None:
    changed = _with_new_flag()
    monkeypatch.setattr(flaggroups, "COMMAND_SPECS", changed.COMMAND_SPECS)
    monkeypatch.setattr(flaggroups, "BUNDLE_SPEC", changed.BUNDLE_SPEC)
    parser = build_parser()
    commands = _commands(parser)
    # both commands' parsers and --help have it; the others do not
    assert {name for name, p in commands.items() if "--strict-target" in _flags(p)} == {"check", "bundle"}
    for name in ("check", "bundle"):
        assert "refuse a model the target may not load" in commands[name].format_help()
    assert parser.parse_args(["check", "m.onnx", "--strict-target"]).strict_target is True
    args = parser.parse_args(["bundle", "m.onnx", "-o", "out", "--version", "1.0.0", "--strict-target"])
    # the options field it sets, the name a remedy gives it, the app's control for it
    assert changed.BUNDLE_SPEC.fields_from_values(vars(args))["strict_target"] is True
    assert changed.option_flags()["strict_target"] == "--strict-target"
    fields = {**BundleOptions(None, Path("out"), "1.0.0").fields(), "strict_target": True}
    assert "--strict-target" in changed.BUNDLE_SPEC.argv(fields)  # "Copy CLI command" writes it back
    from onnxpack.gui.engine import _form_fields

    assert _form_fields()["strict_target"][0] == "strict_target"
    # everything else is as it was
    assert {n: _flags(p) for n, p in commands.items() if n not in ("check", "bundle")} == {
        n: f for n, f in FLAGS_BEFORE.items() if n not in ("check", "bundle")}
