"""One spec of `bundle`'s options (core/release/options.py) drives the parser, args -> options and options -> argv
(the GUI's "Copy CLI command"); BundleOptions checks itself (issue 31 item 5)."""

from __future__ import annotations

import argparse
import io
import shlex
from pathlib import Path
from typing import Any

import pytest

from onnxpack.cli import Environment, build_parser
from onnxpack.cli.cmd_bundle import options_from_args
from onnxpack.core.errors import InputError
from onnxpack.core.flagspec import Kind
from onnxpack.core.release.bundle import BundleOptions as ReExported
from onnxpack.core.release.bundle import cli_command
from onnxpack.core.release.flaggroups import BUNDLE_SPEC, SMOKE_INPUT_FLAGS
from onnxpack.core.release.metadata import ReleaseInfo
from onnxpack.core.release.options import BundleOptions, bundle_argv
from onnxpack.core.runtime.smoke import SmokeOptions


def _env() -> Environment:
    return Environment(stdout=io.StringIO(), stderr=io.StringIO(), vars={})


def _options(argv: list[str]) -> BundleOptions:
    return options_from_args(build_parser().parse_args(argv), _env())


def _representative(tmp_path: Path) -> list[list[str]]:
    labels = tmp_path / "labels.txt"
    labels.write_text("cat\ndog\n", encoding="utf-8")
    out, zip_file = str(tmp_path), str(tmp_path / "v2.zip")
    return [
        ["bundle", "-o", out, "--version", "1.0.0"],  # the sample model, every default
        ["bundle", "my model.onnx", "-o", zip_file, "--version", "2.0.0-rc.1", "--name", "m", "--data-dir", "d",
         "--previous", "old.zip", "--target-ort", "1.17", "--fix-ir", "--prove-ort", "1.16.3,newest",
         "--set-model-version", "--ort-format", "--layout", "external", "--compress", "--force",
         "--allow-version-not-greater", "--allow-unmatched-labels"],
        ["bundle", "m.onnx", "-o", out, "--version", "1.2.3", "--dim", "batch=2", "--dim", "x[2]=64", "--input",
         "sr=16000", "--input", "x=in.npy", "--range", "y=0.25:0.75", "--seed", "7", "--timeout", "30.5",
         "--no-search", "--compare-outputs", "always"],
        ["bundle", "m.onnx", "-o", out, "--version", "1.2.3", "--no-smoke", "--compare-outputs", "never"],
        ["bundle", "m.onnx", "-o", out, "--version", "1.2.3", "--license", "MIT", "--author", "Ada <ada@example.org>",
         "--author", "Bob", "--homepage", "https://example.org", "--labels", "a,b,c"],
        ["bundle", "m.onnx", "-o", out, "--version", "1.2.3", "--labels-file", str(labels)],
        ["bundle", "m.onnx", "-o", out, "--version", "1.2.3", "--sign-key", "k.pem", "--sign-key-password-env", "PW",
         "--sign-certificate", "c.pem", "--sign-chain", "a.pem", "--sign-chain", "b.pem"],
        ["bundle", "m.onnx", "-o", out, "--version", "1.2.3", "--sign-sigstore", "--sigstore-identity-token-env", "T"],
    ]  # fmt: skip


def test_argv_options_argv_options_is_the_identity(tmp_path: Path) -> None:
    for argv in _representative(tmp_path):
        opts = _options(argv)
        again_argv = bundle_argv(opts)
        assert again_argv[:2] == ["onnxpack", "bundle"]
        again = _options(again_argv[1:])
        assert again == opts, argv
        assert bundle_argv(again) == again_argv  # the written command line is a fixed point
        assert shlex.split(cli_command(opts)) == again_argv


def test_the_spec_fills_what_the_flags_say(tmp_path: Path) -> None:
    a, b, c, d, e, f, g, h = (_options(argv) for argv in _representative(tmp_path))
    assert a.model is None and a.out_dir == tmp_path and a.zip_name is None and a.smoke == SmokeOptions()
    assert a.about is None and a.compare_outputs is None and a.run_smoke
    assert (b.out_dir, b.zip_name, b.model, b.data_dir, b.previous) == (tmp_path, "v2.zip", Path("my model.onnx"),
                                                                        Path("d"), Path("old.zip"))  # fmt: skip
    assert (b.version, b.layout, b.fix_ir, b.force, b.allow_unmatched_labels) == ("2.0.0-rc.1", "external", True,
                                                                                  True, True)  # fmt: skip
    assert c.smoke == SmokeOptions(dims={"batch": 2, "x[2]": 64}, inputs={"sr": "16000", "x": "in.npy"},
                                   ranges={"y": (0.25, 0.75)}, seed=7, timeout=30.5, search=False)  # fmt: skip
    assert c.compare_outputs is True
    assert d.smoke is None and not d.run_smoke  # --no-smoke: no smoke options, and --compare-outputs is moot
    assert e.about == ReleaseInfo(license="MIT", authors=["Ada <ada@example.org>", "Bob"],
                                  homepage="https://example.org", labels=["a", "b", "c"])  # fmt: skip
    assert f.about == ReleaseInfo(labels=["cat", "dog"])  # --labels-file is read; argv writes it back as --labels
    assert "--labels cat,dog" in cli_command(f)
    assert (g.sign_key, g.sign_chain, g.sign_key_password_env) == (Path("k.pem"), [Path("a.pem"), Path("b.pem")], "PW")
    assert h.sign_sigstore and h.sigstore_identity_token_env == "T"


def _bundle_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices["bundle"]  # type: ignore[no-any-return]


def test_the_parser_is_the_spec() -> None:
    """Every flag of `bundle` but --help/--json/--quiet comes from the spec, with the spec's spelling, dest, metavar,
    default, choices and help, in the spec's order."""
    parser = _bundle_parser()
    actions = [a for a in parser._actions if a.dest not in ("help", "json", "quiet")]
    spec = list(BUNDLE_SPEC.flags)
    assert [a.dest for a in actions] == [f.dest for f in spec]
    for action, flag in zip(actions, spec, strict=True):
        assert list(action.option_strings) == list(flag.names), flag.dest
        assert action.help == flag.help and action.metavar == flag.metavar, flag.dest
        assert action.required == flag.required, flag.dest
        if flag.kind is Kind.CHOICE:
            assert tuple(action.choices or ()) == flag.choices and action.default == flag.default
        if flag.kind is Kind.REPEAT:
            assert action.default == [] and isinstance(action, argparse._AppendAction)
        if flag.kind is Kind.SWITCH:
            assert isinstance(action, argparse._StoreTrueAction)
    groups = [g.title for g in parser._action_groups][2:]  # after positionals and options
    assert groups == [g.title for g in BUNDLE_SPEC.groups if g.title is not None]


def test_smoke_and_ort_take_the_same_smoke_input_group() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command in ("smoke", "ort", "bundle"):
        dests = {a.dest: a for a in sub.choices[command]._actions}
        for flag in SMOKE_INPUT_FLAGS.flags:
            assert dests[flag.dest].option_strings == list(flag.names) and dests[flag.dest].help == flag.help


def test_the_gui_form_and_the_command_line_make_the_same_options(tmp_path: Path) -> None:
    """The GUI's form goes through the same fields; its "Copy CLI command" gives the command line that makes the same
    options."""
    from onnxpack.gui.engine import make_bundle_options

    form: dict[str, Any] = dict(
        model=tmp_path / "m.onnx", data_dir=None, out_dir=tmp_path, name="m", version="1.0.0", previous="",
        target_ort="1.17", fix_ir=True, prove_ort=None, ort_format=False, compress=True, set_model_version=False,
        run_smoke=True, force=True, dims={"batch": 2}, allow_version_not_greater=False, allow_unmatched_labels=True,
        inputs={"sr": "16000"}, sign_key=" k.pem ", license="MIT", authors="Ada; Bob ;", homepage="",
        labels="a, b",
    )  # fmt: skip
    opts = make_bundle_options(**form)
    assert opts.about == ReleaseInfo(license="MIT", authors=["Ada", "Bob"], labels=["a", "b"])
    assert opts.smoke == SmokeOptions(dims={"batch": 2}, inputs={"sr": "16000"}) and opts.sign_key == Path("k.pem")
    assert _options(shlex.split(cli_command(opts))[1:]) == opts
    empty = make_bundle_options(**{**form, "license": "", "authors": " ", "labels": ""})
    assert empty.about is None
    with pytest.raises(TypeError):
        make_bundle_options(**form, no_such_field=1)


def test_bundle_options_check_themselves() -> None:
    base = BundleOptions(model=None, out_dir=Path("out"), version="1.0.0")
    assert ReExported is BundleOptions  # `from onnxpack.core.release.bundle import BundleOptions` keeps working
    assert base.validated().options == base and str(base.validated().version) == "1.0.0"  # returns what it parsed
    bad = [
        ({"version": "1.0"}, None),
        ({"layout": "flat"}, "Use auto, single, external or keep."),
        ({"fix_ir": True}, "Say which ONNX Runtime must load the model."),
        ({"smoke": SmokeOptions(seed=-1)}, "Example: --seed 0"),
        ({"about": ReleaseInfo(license="NOPE")}, None),
        ({"sign_key": Path("k.pem"), "sign_sigstore": True}, "Drop one of them."),
        ({"sign_chain": [Path("c.pem")]}, "Add --sign-key KEY.pem (the key the certificate was issued for)."),
    ]
    for change, hint in bad:
        with pytest.raises(InputError) as e:
            BundleOptions(**{**base.fields(), **change}).validated()
        assert e.value.exit_status == 2 and e.value.hint, change
        if hint is not None:
            assert e.value.hint == hint and e.value.code == "USAGE"
    # the smoke inputs count only when the smoke run is on; release metadata comes back normalized
    assert BundleOptions(**{**base.fields(), "smoke": SmokeOptions(seed=-1), "run_smoke": False}).validated()
    about = BundleOptions(**{**base.fields(), "about": ReleaseInfo(license="mit", authors=[" Ada "])}).validated()
    assert about.options.about == ReleaseInfo(license="MIT", authors=["Ada"])
    assert BundleOptions(**{**base.fields(), "about": ReleaseInfo()}).validated().options.about is None


def test_fields_and_from_fields_are_inverse() -> None:
    opts = BundleOptions(model=Path("m.onnx"), out_dir=Path("o"), version="1.0.0", smoke=SmokeOptions(seed=3),
                         about=ReleaseInfo(license="MIT"), sign_chain=[Path("c.pem")])  # fmt: skip
    fields = opts.fields()
    assert fields["smoke.seed"] == 3 and fields["about.license"] == "MIT" and "smoke" not in fields
    assert BundleOptions.from_fields(fields) == opts
    with pytest.raises(TypeError):
        BundleOptions.from_fields({**fields, "nested.x": 1})


def test_the_smoke_input_group_is_smoke_options_fields_and_bundles_at_smoke() -> None:
    """One flag group for the smoke inputs: `smoke` and `ort` make SmokeOptions from it, `bundle` mounts it at
    ``smoke.`` and counts it only with the smoke run on."""
    from onnxpack.cli.cmd_smoke import _options
    from onnxpack.core.release.flaggroups import SMOKE_INPUT_SPEC

    args = build_parser().parse_args(["smoke", "m.onnx", "--dim", "a=2", "--input", "sr=16000", "--range", "x=0:1",
                                      "--seed", "5", "--timeout", "9"])  # fmt: skip
    expected = SmokeOptions(dims={"a": 2}, inputs={"sr": "16000"}, ranges={"x": (0.0, 1.0)}, seed=5, timeout=9.0)
    assert SmokeOptions(**SMOKE_INPUT_SPEC.fields_from_values(vars(args))) == expected
    assert _options(args) == expected
    assert _options(args, runs=1, search=False) == SmokeOptions(**{**vars(expected), "runs": 1, "search": False})
    mounted = {f.dest: f for f in BUNDLE_SPEC.flags}
    for flag in SMOKE_INPUT_FLAGS.flags:
        assert mounted[flag.dest].field == f"smoke.{flag.field}" and mounted[flag.dest].when == "run_smoke"
        assert (mounted[flag.dest].names, mounted[flag.dest].help) == (flag.names, flag.help)
