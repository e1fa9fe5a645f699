"""Every flag of onnxpack, declared once, in groups shared by the commands that take them.

A group is a concern (the model and its data folder, the target runtime, the proof on other runtimes, the smoke run's
inputs, the output, the report); each flag in it is declared once with its help, the options field it sets and the
app's control for it (core/flagspec.py). A command takes whole groups, some of a group's flags (:meth:`FlagGroup.only`)
or a group adapted where its meaning differs (``-o`` says what the command writes). From :data:`COMMAND_SPECS` the
command line builds its parsers (cli/flags.py), the desktop app its form table (``BUNDLE_SPEC.controls()``) and the
registry the flag a remedy's ``{opt:NAME}`` names (:func:`option_flags`, core/codes.py OPTION_FLAGS).

Adding an option that ``check`` and ``bundle`` both take is one :class:`Flag` in the group they share (``TARGET_FLAGS``,
``PROOF_FLAGS``), plus the field of its name in :class:`BundleOptions` when the bundle keeps it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..flagspec import (
    LABELS,
    NOT,
    PATH,
    PATHS,
    TRISTATE,
    Codec,
    Control,
    Flag,
    FlagGroup,
    Kind,
    OptionSpec,
    authors_list,
    pairs,
    path_or_none,
    separated,
    stripped,
    text_or_none,
)
from ..model.layout import AUTO, BUNDLE_LAYOUTS, DEFAULT_ALIGN, LAYOUTS
from ..runtime.ortdefaults import DEFAULT_ATOL, DEFAULT_RTOL, OPTIMIZATION_STYLES, TARGET_PLATFORMS

__all__ = [
    "ABOUT_FLAGS",
    "BUNDLE_SPEC",
    "COMMAND_SPECS",
    "MODEL_FLAGS",
    "OUTPUT_FLAGS",
    "PROOF_FLAGS",
    "REPORT_FLAGS",
    "SIGNING_FLAGS",
    "SMOKE_INPUT_FLAGS",
    "SMOKE_INPUT_SPEC",
    "TARGET_FLAGS",
    "option_flags",
]

_RUN = "run_smoke"


def _model_argument(v: str | None) -> Path | None:
    """The model argument of ``bundle``: absent means the built-in sample (said loudly: BUNDLE_SAMPLE); an empty one
    is refused (an unset ``$MODEL`` in a CI script must not ship the sample)."""
    if v is None:
        return None
    if not v.strip():
        from . import foldercodes

        raise foldercodes.BUNDLE_MODEL_EMPTY.error()
    return Path(v)


MODEL_PATH = Codec(_model_argument, PATH.dump)


def _output_dump(value: tuple[Path, str | None]) -> str:
    out_dir, zip_name = value
    return str(out_dir / zip_name if zip_name else out_dir)


#: ``-o`` of ``bundle`` as (folder, .zip file name or None): the command line reads it once, looking at the disk
#: (cli/output.py output_file_or_folder); written back as the file or the folder.
OUTPUT = Codec(None, _output_dump)


def _parse_dim(text: str) -> tuple[str, int]:
    from ..runtime.inputfiles import parse_dim

    return parse_dim(text)


def _parse_input(text: str) -> tuple[str, str]:
    from ..runtime.inputfiles import parse_input

    return parse_input(text)


def _parse_range(text: str) -> tuple[str, tuple[float, float]]:
    from ..runtime.inputfiles import parse_range

    return parse_range(text)


DIMS = pairs(_parse_dim, lambda k, v: f"{k}={v}")
INPUTS = pairs(_parse_input, lambda k, v: f"{k}={v}")
RANGES = pairs(_parse_range, lambda k, v: f"{k}={v[0]!r}:{v[1]!r}")


def integer(text: str) -> int:
    """An integer in any base Python spells (``65536``, ``0x10000``); a power of two is the engine's to check."""
    return int(text, 0)


def _switch(names: tuple[str, ...], dest: str, help: str, **kw: Any) -> Flag:
    """An on/off flag that sets the bool field of its name and is the app's check box of that name."""
    return Flag(names, dest, help, kw.pop("field", dest), Kind.SWITCH, default=False,
                control=kw.pop("control", Control(dest)), **kw)  # fmt: skip


# -- the groups every command draws from ----------------------------------------------------------------------------

#: The model and its data folder (inspect, check, merge, smoke, ort, bundle).
MODEL_FLAGS = FlagGroup(None, (
    Flag((), "model", "the model file, or a folder holding exactly one model", "model", Kind.POSITIONAL, PATH,
         metavar="MODEL", required=True, control=Control("model")),
    Flag(("--data-dir",), "data_dir", "folder of the external data files (default: the model's)", "data_dir",
         codec=PATH, metavar="DIR", control=Control("data_dir", path_or_none)),
))  # fmt: skip

#: The ONNX Runtime the model must load in (check, bundle). The command line reads the two flags together, once
#: (cli/flags.py target_of: --target-app reads a file and sets the target), so --target-ort's codec only writes back.
TARGET_FLAGS = FlagGroup(None, (
    Flag(("--target-ort",), "target_ort", "ONNX Runtime release that must load the model, e.g. 1.17 (the findings "
         "say whether it does)", "target_ort", codec=Codec(None), metavar="X.Y",
         control=Control("target_ort", text_or_none)),
    Flag(("--target-app",), "target_app", "target the ONNX Runtime the app embeds, read from its Cargo.lock "
         "(ort/ort-sys), .csproj/packages.lock.json, package-lock.json, requirements*.txt, pyproject.toml or uv.lock "
         "(a file, or the app's folder); sets --target-ort", metavar="PATH"),
))  # fmt: skip

#: The proof on other ONNX Runtime releases (check, bundle).
PROOF_FLAGS = FlagGroup(None, (
    Flag(("--prove-ort",), "prove_ort", "run the model (bundle: the bundled model) on these ONNX Runtime releases "
         "(1.16.3,1.20.1; 1.16 = its newest patch; newest; auto = the oldest the model claims + the newest), each "
         "from its official PyPI wheel in a cached environment of its own, and compare the outputs", "prove_ort",
         metavar="RELEASES", control=Control("prove_ort", text_or_none)),
))  # fmt: skip

#: The smoke run's inputs, fields of SmokeOptions: `smoke` and `ort` take them alike, and `bundle` for its smoke run
#: (``SMOKE_INPUT_FLAGS.at("smoke", when="run_smoke")``).
SMOKE_INPUT_FLAGS = FlagGroup(None, (
    Flag(("--dim",), "dim", "size of a symbolic dimension, e.g. --dim sequence=512 (unnamed: --dim \"x[2]=64\")",
         "dims", Kind.REPEAT, DIMS, metavar="NAME=VALUE", default=[], control=Control("dims", dict)),
    Flag(("--input",), "input", "input from FILE (.npy, FILE.npz[:member], ONNX TensorProto .pb) or a scalar VALUE, "
         "e.g. --input sr=16000", "inputs", Kind.REPEAT, INPUTS, metavar="NAME=FILE|VALUE", default=[],
         control=Control("inputs", dict)),
    Flag(("--range",), "range", "draw a generated input uniformly from [LO, HI) instead of the standard normal",
         "ranges", Kind.REPEAT, RANGES, metavar="NAME=LO:HI", default=[]),
    Flag(("--seed",), "seed", "seed of the input generator (default 0)", "seed", type=int, default=0),
    Flag(("--timeout",), "timeout", "time limit of the child process in seconds (default 120)", "timeout",
         metavar="S", type=float, default=120.0, text=lambda s: f"{s:g}"),
))  # fmt: skip
#: `smoke` and `ort`: their smoke inputs as SmokeOptions' fields.
SMOKE_INPUT_SPEC = OptionSpec((SMOKE_INPUT_FLAGS,))

#: What a command writes and whether it may replace it (merge, ort, bundle, keygen: each says what -o takes).
OUTPUT_FLAGS = FlagGroup(None, (
    Flag(("-o", "--output", "--out"), "output", "folder to write into (created if missing)", metavar="DIR",
         required=True),
    _switch(("--force",), "force", "replace an existing output"),
))  # fmt: skip

#: How a command reports (every command).
REPORT_FLAGS = FlagGroup(None, (
    Flag(("--json",), "json", "print a machine-readable JSON document on stdout", kind=Kind.SWITCH, default=False),
    Flag(("-q", "--quiet"), "quiet", "print no progress on stderr (errors and hints still print)", kind=Kind.SWITCH,
         default=False),
))  # fmt: skip

#: How two models' outputs may differ and still pass (smoke --compare; ort with its own defaults).
TOLERANCE_FLAGS = FlagGroup(None, (
    Flag(("--atol",), "atol", "absolute tolerance of --compare (default 0)", type=float, default=0.0),
    Flag(("--rtol",), "rtol", "relative tolerance of --compare (default 0)", type=float, default=0.0),
))  # fmt: skip

#: A recorded smoke run to repeat (smoke, ort).
RECIPE_FLAGS = FlagGroup(None, (
    Flag(("--recipe",), "recipe", "repeat a recorded run: the 'recipe' object of a previous --json result (or the "
         "whole result)", metavar="FILE"),
))  # fmt: skip

#: The smoke run itself (smoke; bundle takes --no-search for its smoke run).
SMOKE_RUN_FLAGS = FlagGroup(None, (
    Flag(("--runs",), "runs", "number of timed runs (default 3)", "runs", type=int, default=3),
    Flag(("--no-search",), "no_search", "smoke run: do not try other sizes for unresolved (symbolic) dims when the "
         "default sizes fail", "search", Kind.SWITCH, NOT, default=False),
))  # fmt: skip

# -- each command's own flags ---------------------------------------------------------------------------------------

_COMPARE_FLAGS = FlagGroup(None, (
    Flag(("--compare",), "compare", "also run OTHER on the same inputs and compare the outputs", metavar="OTHER"),
    Flag(("--other-data-dir",), "other_data_dir", "external-data folder of OTHER", metavar="DIR"),
))  # fmt: skip

_SAVE_FLAGS = FlagGroup(None, (
    Flag(("--save-outputs",), "save_outputs", "write each output to DIR/<output name>.npy", metavar="DIR"),
))  # fmt: skip

_ORT_FLAGS = FlagGroup(None, (
    Flag(("--optimization-style",), "optimization_style", "Fixed (default; CPU) or Runtime (saved runtime "
         "optimizations, for NNAPI/CoreML)", kind=Kind.CHOICE, choices=OPTIMIZATION_STYLES, default="Fixed"),
    Flag(("--target-platform",), "target_platform", "amd64 or arm", kind=Kind.CHOICE, choices=TARGET_PLATFORMS),
))  # fmt: skip

_MERGE_FLAGS = FlagGroup(None, (
    Flag(("--layout",), "layout", "single: one file (refused at 2 GiB); external: OUT.onnx + OUT.onnx.data; auto "
         "(default): single below 2 GiB, else external", kind=Kind.CHOICE, choices=LAYOUTS, default=AUTO),
    Flag(("--align",), "align", "external layout: align each tensor's offset to N bytes, a power of two (default "
         f"{DEFAULT_ALIGN})", metavar="N", type=integer, default=DEFAULT_ALIGN),
    Flag(("--checksum",), "checksum", "external layout: record the SHA-1 of the data file in each tensor's "
         "'checksum' key", kind=Kind.SWITCH, default=False),
))  # fmt: skip

SIGSTORE_ISSUER = "https://github.com/login/oauth"

_VERIFY_FLAGS = FlagGroup(None, (
    Flag((), "bundle", "the NAME-VERSION.zip to check", kind=Kind.POSITIONAL, metavar="BUNDLE", required=True),
    Flag(("--smoke",), "smoke", "also re-run the recorded smoke test and compare outputs", kind=Kind.SWITCH,
         default=False),
    Flag(("--key",), "key", "the publisher's public key: check the signature (model.sig) first; without it a "
         "signature is reported as 'signed, not checked'", metavar="PUB.pem"),
    Flag(("--trust",), "trust", "certificate-signed bundles: a root/CA certificate to trust (repeat for several)",
         kind=Kind.REPEAT, metavar="CA.pem", default=[]),
    Flag(("--sigstore-identity",), "sigstore_identity", "Sigstore-signed bundles: the signer's identity (e-mail or "
         "workflow URI); needs the internet", metavar="ID"),
    Flag(("--sigstore-issuer",), "sigstore_issuer", f"with --sigstore-identity: the OpenID issuer (default: "
         f"{SIGSTORE_ISSUER})", metavar="URL", default=SIGSTORE_ISSUER),
))  # fmt: skip

_KEYGEN_FLAGS = FlagGroup(None, (
    Flag(("--name",), "name", "file name stem (default: onnxpack-signing)", default="onnxpack-signing"),
))  # fmt: skip

# -- bundle ---------------------------------------------------------------------------------------------------------

#: `bundle`'s own flags about the release it writes.
BUNDLE_FLAGS = FlagGroup(None, (
    Flag(("--version",), "release", "release version (semver)", "version", metavar="X.Y.Z", required=True,
         option="version", control=Control("version")),
    Flag(("--name",), "name", "bundle and model file name (default: the model file's stem)", "name", metavar="N",
         control=Control("name", text_or_none)),
    Flag(("--previous",), "previous", "the previous release's bundle .zip (or its manifest.json): diff the interface "
         "and suggest the version", "previous", codec=PATH, metavar="OLD.zip", control=Control("previous",
                                                                                                path_or_none)),
    _switch(("--set-model-version",), "set_model_version", "write the version into model_version as "
            "MAJOR*1000000 + MINOR*1000 + PATCH"),
    _switch(("--ort-format",), "ort_format", "also add NAME.ort (ONNX Runtime's ORT format)"),
    Flag(("--layout",), "layout", "auto: one self-contained .onnx below 2 GiB, else NAME.onnx + aligned "
         "NAME.onnx.data (default); keep: the model's files as they are (validated and proven, not merged)", "layout",
         Kind.CHOICE, choices=BUNDLE_LAYOUTS, default=AUTO),
    _switch(("--compress",), "compress", "deflate the files (default: stored uncompressed)"),
    Flag(("--asset",), "asset", "a file the app reads beside the model (label map, tokenizer, config), shipped at its "
         "path below the model's folder (repeatable)", "assets", Kind.REPEAT, PATHS, metavar="PATH", default=[]),
    Flag(("--exclude",), "exclude", "a folder release: leave out files whose path in the folder or name matches this "
         "glob (repeatable)", "exclude", Kind.REPEAT, metavar="GLOB", default=[]),
))  # fmt: skip

#: `bundle` retargets the model it releases for the target (after TARGET_FLAGS).
RETARGET_FLAGS = FlagGroup(None, (
    _switch(("--fix-ir",), "fix_ir", "retarget the released copy for --target-ort: lower ir_version (dropping "
            "newer-IR metadata that changes nothing computed, recorded in the manifest) and the opsets where that is "
            "exact or onnx.version_converter manages"),
))  # fmt: skip

#: `bundle`'s flags about its smoke run.
BUNDLE_RUN_FLAGS = FlagGroup(None, (
    *SMOKE_RUN_FLAGS.only("no_search").at("smoke", when=_RUN).flags,
    _switch(("--no-smoke",), "no_smoke", "skip the smoke run and the equality proof", field=_RUN, codec=NOT,
            control=Control(_RUN)),
    Flag(("--compare-outputs",), "compare_outputs", "besides the tensor-hash proof, also run the source model and "
         "compare outputs bitwise (auto: for models up to 256 MiB)", "compare_outputs", Kind.CHOICE, TRISTATE,
         choices=("auto", "always", "never"), default="auto", when=_RUN),
    Flag(("--no-load-cost",), "no_load_cost", "do not measure the end user's load time and memory of the shipped "
         "and the source layout (the ZIP then repeats byte for byte)", "load_cost", Kind.SWITCH, NOT, default=False,
         when=_RUN),
))  # fmt: skip

#: What `bundle` may do that it otherwise refuses (besides --force).
PERMISSION_FLAGS = FlagGroup(None, (
    _switch(("--allow-version-not-greater",), "allow_version_not_greater", "release a version that is not greater "
            "than --previous's (a warning in the manifest)"),
    _switch(("--allow-unmatched-labels",), "allow_unmatched_labels", "keep --labels whose count matches no output's "
            "last dimension"),
))  # fmt: skip

ABOUT_FLAGS = FlagGroup("release metadata (the manifest's 'about', the receiver's README)", (
    Flag(("--license",), "license", "the model's licence, an SPDX expression (MIT, Apache-2.0…)", "about.license",
         metavar="SPDX", control=Control("license", stripped)),
    Flag(("--author",), "author", "an author, e.g. 'Ada <ada@example.org>' (repeat for several)", "about.authors",
         Kind.REPEAT, metavar="NAME", default=[], control=Control("authors", authors_list)),  # separated by ';'
    Flag(("--homepage",), "homepage", "the model's home page (http/https)", "about.homepage", metavar="URL",
         control=Control("homepage", stripped)),
    Flag(("--labels",), "labels", "class labels in output order, comma-separated (checked against the outputs' last "
         "dimension)", "about.labels", codec=LABELS, metavar="A,B,…", exclusive="labels",
         control=Control("labels", separated(","))),
    Flag(("--labels-file",), "labels_file", "class labels, one per line (UTF-8)", metavar="FILE", exclusive="labels"),
))  # fmt: skip

SIGNING_FLAGS = FlagGroup("signing (OpenSSF model-signing; see docs/bundle.md)", (
    Flag(("--sign-key",), "sign_key", "sign every member with this EC private key (model.sig)", "sign_key",
         codec=PATH, metavar="KEY.pem", control=Control("sign_key", path_or_none)),
    Flag(("--sign-key-password-env",), "sign_key_password_env", "environment variable holding the password of an "
         "encrypted --sign-key", "sign_key_password_env", metavar="VAR"),
    Flag(("--sign-certificate",), "sign_certificate", "certificate signing: the signing certificate issued for "
         "--sign-key", "sign_certificate", codec=PATH, metavar="CERT.pem"),
    Flag(("--sign-chain",), "sign_chain", "certificate signing: intermediate/root certificates to include "
         "(repeatable)", "sign_chain", Kind.REPEAT, PATHS, metavar="CHAIN.pem", default=[]),
    Flag(("--sign-sigstore",), "sign_sigstore", "Sigstore keyless signing instead of a key (needs the internet and an "
         "OpenID login)", "sign_sigstore", Kind.SWITCH, default=False),
    Flag(("--sigstore-identity-token-env",), "sigstore_identity_token_env", "with --sign-sigstore: environment "
         "variable with an OIDC identity token (CI)", "sigstore_identity_token_env", metavar="VAR"),
))  # fmt: skip

_BUNDLE_MODEL = MODEL_FLAGS.adapted(model={
    "help": "the .onnx file, or a folder: one release of every model in it and the files beside them (default: the "
            "built-in sample, with a warning)", "required": False, "codec": MODEL_PATH})
_BUNDLE_OUTPUT = OUTPUT_FLAGS.adapted(
    output={"help": "folder to write NAME-VERSION.zip into (created if missing), or the .zip file to write",
            "metavar": "OUT", "field": ("out_dir", "zip_name"), "codec": OUTPUT,
            "control": Control("out_dir", field="out_dir")},
    force={"help": "replace an existing bundle of the same name"})

#: `onnxpack bundle`'s options (BundleOptions' fields), flag by flag, in --help order: whole groups, so that a flag
#: added to a group `bundle` shares reaches it with nothing else edited.
BUNDLE_SPEC = OptionSpec((
    _BUNDLE_MODEL,
    _BUNDLE_OUTPUT,
    BUNDLE_FLAGS,
    TARGET_FLAGS,
    RETARGET_FLAGS,
    PROOF_FLAGS,
    SMOKE_INPUT_FLAGS.at("smoke", when=_RUN),
    BUNDLE_RUN_FLAGS,
    PERMISSION_FLAGS,
    ABOUT_FLAGS,
    SIGNING_FLAGS,
))  # fmt: skip

_MODEL_ONNX = {"help": "the .onnx file, or a folder holding exactly one"}

#: Every command's flags, in --help order: what the command line parses, each command from its own groups.
COMMAND_SPECS: dict[str, OptionSpec] = {
    "inspect": OptionSpec((MODEL_FLAGS, REPORT_FLAGS)),
    "check": OptionSpec((MODEL_FLAGS, TARGET_FLAGS, PROOF_FLAGS, REPORT_FLAGS)),
    "merge": OptionSpec((
        MODEL_FLAGS.adapted(model=_MODEL_ONNX),
        OUTPUT_FLAGS.adapted(output={"metavar": "OUT", "help": "the .onnx file to write, or a folder to write "
                                     "MODEL.onnx into (created if missing)"},
                             force={"help": "replace an existing output (atomically)"}),
        _MERGE_FLAGS, REPORT_FLAGS)),
    "smoke": OptionSpec((
        MODEL_FLAGS.adapted(model={"help": "the .onnx or .ort file, or a folder holding exactly one model"}),
        SMOKE_INPUT_FLAGS, RECIPE_FLAGS, SMOKE_RUN_FLAGS, _COMPARE_FLAGS, TOLERANCE_FLAGS, _SAVE_FLAGS, REPORT_FLAGS)),
    "ort": OptionSpec((
        MODEL_FLAGS.adapted(model=_MODEL_ONNX),
        OUTPUT_FLAGS.only("output").adapted(output={"help": "new or empty output folder (the .ort and "
                                                    "required_operators.config go inside)"}),
        _ORT_FLAGS,
        TOLERANCE_FLAGS.adapted(
            atol={"default": DEFAULT_ATOL, "help": f"absolute tolerance (default {DEFAULT_ATOL:g})"},
            rtol={"default": DEFAULT_RTOL, "help": f"relative tolerance (default {DEFAULT_RTOL:g})"}),
        SMOKE_INPUT_FLAGS, RECIPE_FLAGS, REPORT_FLAGS)),
    "bundle": OptionSpec((*BUNDLE_SPEC.groups, REPORT_FLAGS)),
    "verify": OptionSpec((_VERIFY_FLAGS, REPORT_FLAGS)),
    "keygen": OptionSpec((
        OUTPUT_FLAGS.adapted(output={"help": "folder to write the two files into (created if missing)"},
                             force={"help": "replace existing files"}),
        _KEYGEN_FLAGS, REPORT_FLAGS)),
}  # fmt: skip


def option_flags(specs: dict[str, OptionSpec] | None = None) -> dict[str, str]:
    """Each option's name (``{opt:NAME}``) -> the flag a message spells, from every command's flags, sorted by name.
    One name is one flag everywhere (``--layout`` of merge and of bundle are both ``layout``)."""
    table: dict[str, str] = {}
    for spec in (COMMAND_SPECS if specs is None else specs).values():
        for flag in spec.flags:
            long_name = flag.long_name
            if long_name is None:
                continue
            if table.setdefault(flag.option_name, long_name) != long_name:
                raise ValueError(f"option {flag.option_name!r} is both {table[flag.option_name]} and {long_name}")
    return dict(sorted(table.items()))
