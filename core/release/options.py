"""What ``onnxpack bundle`` takes: :class:`BundleOptions`, which checks itself, and the declarative spec of its flags.

The spec is data (no argparse here): each :class:`Flag` says how it is spelled, what ``--help`` says of it, which
field of :class:`BundleOptions` it sets and how its command-line value becomes that field's value and back. From
it the command line builds its parser and turns parsed arguments into options (``cli/flags.py``, a loop over the
spec), and :func:`cli_command` turns options back into the command line (the GUI's "Copy CLI command"). One flag
group per concern (the bundle's own flags, the smoke run's inputs shared with ``smoke`` and ``ort``, the release
metadata, signing), as Polygraphy does.

The GUI fills the same :class:`BundleOptions` through :meth:`BundleOptions.from_fields`; every check of the
options alone is :meth:`BundleOptions.validated` (``build_bundle`` calls it before any work).
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..model.layout import AUTO, BUNDLE_LAYOUTS
from .metadata import ReleaseInfo

if TYPE_CHECKING:
    from ..runtime.smoke import SmokeOptions

__all__ = [
    "ABOUT_FLAGS",
    "BUNDLE_FLAGS",
    "BUNDLE_SPEC",
    "SIGNING_FLAGS",
    "SMOKE_INPUT_FLAGS",
    "SMOKE_INPUT_SPEC",
    "BundleOptions",
    "Codec",
    "Flag",
    "FlagGroup",
    "Kind",
    "OptionSpec",
    "cli_command",
]


@dataclass
class BundleOptions:
    """Everything ``onnxpack bundle`` takes (the GUI fills the same object)."""

    model: Path | None  # None = the sample model shipped in resources/
    out_dir: Path
    version: str
    name: str | None = None
    data_dir: Path | None = None
    previous: Path | None = None  # OLD.zip or its manifest.json
    target_ort: str | None = None
    fix_ir: bool = False
    #: --prove-ort: releases to run the bundled model on ("1.16.3,1.20.1", "1.16", "newest", "auto";
    #: core/runtime/prove.py)
    prove_ort: str | None = None
    ort_format: bool = False
    compress: bool = False
    smoke: SmokeOptions | None = None  # None = defaults
    force: bool = False  # replace an existing bundle of the same name (and nothing else)
    allow_version_not_greater: bool = False  # release a version not above the previous one's (a warning)
    allow_unmatched_labels: bool = False  # keep labels whose count matches no output's last dimension
    zip_name: str | None = None  # the bundle's file name in out_dir (None: NAME-VERSION.zip)
    set_model_version: bool = False
    run_smoke: bool = True  # --no-smoke turns the smoke run and the equality proof off
    #: Also run the source model and compare outputs bitwise (a second ONNX Runtime session) on top of the
    #: tensor-hash proof: True, False, or None = only when that is cheap (weights up to COMPARE_AUTO_BYTES).
    compare_outputs: bool | None = None
    #: Measure the end user's load cost of the shipped and the source layout (core/runtime/loadcost.py; machine
    #: timings in the manifest, so the ZIP's bytes differ per run); --no-load-cost leaves it out.
    load_cost: bool = True
    source_date_epoch: int | None = None  # None: read SOURCE_DATE_EPOCH from the environment
    layout: str = AUTO  # an option value of LAYOUTS: AUTO (single file below 2 GiB), or a Layout's value
    about: ReleaseInfo | None = None  # licence, authors, homepage, class labels (the manifest's "about")
    sign_key: Path | None = None  # a PEM EC private key: sign every member with model-signing (model.sig)
    sign_key_password_env: str | None = None  # the environment variable holding an encrypted key's password
    sign_certificate: Path | None = None  # certificate signing: the key's signing certificate (PEM)
    sign_chain: list[Path] = field(default_factory=list)  # intermediate/root certificates carried in the signature
    sign_sigstore: bool = False  # Sigstore keyless signing (needs the network and an OpenID login or token)
    sigstore_identity_token_env: str | None = None  # the environment variable holding an OIDC identity token (CI)
    #: --asset: files the app reads beside a single model (label map, tokenizer, config), at their paths below its
    #: folder. A folder given as the model ships every file in it.
    assets: list[Path] = field(default_factory=list)
    #: --exclude: glob patterns (of a path relative to the folder, or of a file name) of files a folder release leaves
    #: out.
    exclude: list[str] = field(default_factory=list)

    # -- the one place the options are checked ----------------------------------------------------------------------

    def validated(self) -> BundleOptions:
        """The same options, checked before any work (a typo must not cost a 2 GB merge): a semantic version, a
        known layout, --fix-ir with its target, one way to sign, sensible smoke inputs; the release metadata
        normalized (None when empty). Raises InputError (exit 2) with a hint."""
        from .versions import parse_semver

        parse_semver(self.version)
        if self.layout not in BUNDLE_LAYOUTS:
            raise InputError(f"Unknown layout {self.layout!r}", "Use auto, single, external or keep.", code="USAGE")
        if self.fix_ir and self.target_ort is None:
            raise InputError("--fix-ir needs --target-ort X.Y", "Say which ONNX Runtime must load the model.",
                             code="USAGE")  # fmt: skip
        if self.run_smoke and self.smoke is not None:
            self.smoke.validate()
        about = self.about.normalized() if self.about is not None and not self.about.empty else None
        if self.sign_sigstore and self.sign_key is not None:
            raise InputError("Choose one way to sign: --sign-key or --sign-sigstore", "Drop one of them.", code="USAGE")
        if self.sign_key is None and (self.sign_certificate is not None or self.sign_chain):
            raise InputError("A signing certificate was given without its private key",
                             "Add --sign-key KEY.pem (the key the certificate was issued for).", code="USAGE")
        return dataclasses.replace(self, about=about)

    # -- fields by name: what the CLI's spec and the GUI's form fill ------------------------------------------------

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> BundleOptions:
        """Options from field values by name; ``smoke.NAME`` and ``about.NAME`` are fields of the nested
        SmokeOptions and ReleaseInfo (made when any of theirs is given; empty release metadata is None). Not
        checked: :meth:`validated` does that. An unknown name is a TypeError (a programming error)."""
        own: dict[str, Any] = {}
        nested: dict[str, dict[str, Any]] = {"smoke": {}, "about": {}}
        for key, value in fields.items():
            head, dot, rest = key.partition(".")
            if not dot:
                own[key] = value
            elif head in nested:
                nested[head][rest] = value
            else:
                raise TypeError(f"BundleOptions has no field {key!r}")
        if nested["smoke"]:
            from ..runtime.smoke import SmokeOptions

            own["smoke"] = SmokeOptions(**nested["smoke"])
        if nested["about"]:
            info = ReleaseInfo(**nested["about"])
            own["about"] = None if info.empty else info
        return cls(**own)

    def fields(self) -> dict[str, Any]:
        """The inverse of :meth:`from_fields`: every field by name, the nested objects' as ``smoke.NAME`` and
        ``about.NAME`` (absent when the object is None)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in ("smoke", "about"):
                if value is not None:
                    out.update({f"{f.name}.{g.name}": getattr(value, g.name) for g in dataclasses.fields(value)})
            else:
                out[f.name] = value
        return out


# -- the spec -----------------------------------------------------------------------------------------------------


class Kind(Enum):
    """How a flag appears on the command line."""

    POSITIONAL = "positional"  # an optional positional argument: VALUE
    VALUE = "value"  # --flag VALUE
    SWITCH = "switch"  # --flag (on) or absent (off)
    REPEAT = "repeat"  # --flag VALUE, as often as there are values
    CHOICE = "choice"  # --flag ONE-OF-CHOICES


def _same(value: Any) -> Any:
    return value


def _not(value: Any) -> Any:
    return not value


@dataclass(frozen=True)
class Codec:
    """How a flag's parsed value (a str, list of str, bool, int or float) becomes its field's value (``load``) and
    back (``dump``). A flag that fills several fields loads into, and dumps from, a tuple of their values."""

    load: Callable[[Any], Any] = _same
    dump: Callable[[Any], Any] = _same


SAME = Codec()
NOT = Codec(_not, _not)  # --no-smoke sets run_smoke=False
PATH = Codec(lambda v: Path(v) if v else None, lambda p: None if p is None else str(p))
PATHS = Codec(lambda vs: [Path(v) for v in vs], lambda ps: [str(p) for p in ps])


def _model_argument(v: str | None) -> Path | None:
    """The model argument: absent means the built-in sample (said loudly: BUNDLE_SAMPLE); an empty one is refused
    (an unset ``$MODEL`` in a CI script must not ship the sample)."""
    if v is None:
        return None
    if not v.strip():
        from . import foldercodes

        raise foldercodes.BUNDLE_MODEL_EMPTY.error()
    return Path(v)


MODEL_PATH = Codec(_model_argument, PATH.dump)
LABELS = Codec(lambda v: None if v is None else v.split(","), lambda ls: None if ls is None else ",".join(ls))
#: auto/always/never <-> None/True/False
TRISTATE = Codec(lambda v: {"auto": None, "always": True, "never": False}[v],
                 lambda b: {None: "auto", True: "always", False: "never"}[b])  # fmt: skip


def _output_load(value: str) -> tuple[Path, str | None]:
    """``-o`` as (folder, .zip file name or None), from its spelling alone (the CLI also looks at the disk:
    cli/output.py output_file_or_folder)."""
    path = Path(value)
    if path.name.lower().endswith(".zip") and len(path.name) > len(".zip"):
        return path.parent, path.name
    return path, None


def _output_dump(value: tuple[Path, str | None]) -> str:
    out_dir, zip_name = value
    return str(out_dir / zip_name if zip_name else out_dir)


OUTPUT = Codec(_output_load, _output_dump)


def _pairs(parse: Callable[[str], tuple[str, Any]], text: Callable[[str, Any], str]) -> Codec:
    """Repeated NAME=VALUE flags <-> a dict (written sorted by name)."""
    return Codec(lambda items: dict(parse(x) for x in items),
                 lambda d: [text(k, v) for k, v in sorted(d.items())])  # fmt: skip


def _parse_dim(text: str) -> tuple[str, int]:
    from ..runtime.inputs import parse_dim

    return parse_dim(text)


def _parse_input(text: str) -> tuple[str, str]:
    from ..runtime.inputs import parse_input

    return parse_input(text)


def _parse_range(text: str) -> tuple[str, tuple[float, float]]:
    from ..runtime.inputs import parse_range

    return parse_range(text)


DIMS = _pairs(_parse_dim, lambda k, v: f"{k}={v}")
INPUTS = _pairs(_parse_input, lambda k, v: f"{k}={v}")
RANGES = _pairs(_parse_range, lambda k, v: f"{k}={v[0]!r}:{v[1]!r}")


@dataclass(frozen=True)
class Flag:
    """One command-line flag: its spelling and help (the parser), the field it sets and how (args -> options), and
    how a value is written back (options -> argv)."""

    names: tuple[str, ...]  # the option strings, argv writes the first; () for the positional argument
    dest: str  # the parsed value's name (argparse's dest)
    help: str
    #: The BundleOptions field(s) it sets ("about.license": a field of the nested ReleaseInfo); None: a flag the
    #: front end resolves itself (it reads a file: --target-app, --labels-file), never written back.
    field: str | tuple[str, ...] | None = None
    kind: Kind = Kind.VALUE
    codec: Codec = SAME
    metavar: str | None = None
    default: Any = None  # the parsed value when absent; a value equal to it is not written back
    choices: tuple[str, ...] = ()
    type: Callable[[str], Any] | None = None  # int, float: what the parser converts the text with
    required: bool = False
    exclusive: str | None = None  # flags with the same name here exclude each other
    when: str | None = None  # the bool field that must be on for this flag to count (the smoke flags: run_smoke)
    text: Callable[[Any], str] = str  # how one value is written in argv

    @property
    def fields(self) -> tuple[str, ...]:
        return () if self.field is None else (self.field,) if isinstance(self.field, str) else self.field

    def argv(self, value: Any) -> list[str]:
        """The command-line words for a parsed value (none for the default)."""
        if value is None or value == self.default or (self.kind is Kind.REPEAT and not value):
            return []
        if self.kind is Kind.POSITIONAL:
            return [self.text(value)]
        if self.kind is Kind.SWITCH:
            return [self.names[0]]
        if self.kind is Kind.REPEAT:
            return [w for item in value for w in (self.names[0], self.text(item))]
        return [self.names[0], self.text(value)]


@dataclass(frozen=True)
class FlagGroup:
    """Flags shown together in ``--help`` (``title`` None: among the command's own options), whose fields are those
    of one object (the smoke inputs': SmokeOptions'; see :meth:`at`)."""

    title: str | None
    flags: tuple[Flag, ...]

    def at(self, prefix: str, when: str | None = None) -> FlagGroup:
        """The group inside a larger object: its fields as ``PREFIX.NAME`` (``smoke.dims``), and counted only when
        the field ``when`` is on."""
        def inside(flag: Flag) -> Flag:
            names = tuple(f"{prefix}.{name}" for name in flag.fields)
            nested = names if len(names) > 1 else names[0] if names else None
            return dataclasses.replace(flag, field=nested, when=when or flag.when)

        return dataclasses.replace(self, flags=tuple(inside(f) for f in self.flags))


@dataclass(frozen=True)
class OptionSpec:
    """A command's flags, group by group in ``--help`` order."""

    groups: tuple[FlagGroup, ...]

    @property
    def flags(self) -> tuple[Flag, ...]:
        return tuple(f for g in self.groups for f in g.flags)

    def fields_from_values(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The fields set by parsed values (by dest); a flag whose ``when`` field is off sets nothing."""
        fields: dict[str, Any] = {}
        # the flags that depend on another's field after the others (--no-smoke comes after the smoke inputs)
        for flag in sorted(self.flags, key=lambda f: f.when is not None):
            if flag.fields and (flag.when is None or fields.get(flag.when, True)):
                value = flag.codec.load(values[flag.dest])
                fields.update(zip(flag.fields, value if len(flag.fields) > 1 else (value,), strict=True))
        return fields

    def values_from_fields(self, fields: Mapping[str, Any]) -> dict[str, Any]:
        """The inverse: each written-back flag's parsed value (by dest) for these fields."""
        values: dict[str, Any] = {}
        for flag in self.flags:
            if not flag.fields or not all(f in fields for f in flag.fields):
                continue
            if flag.when is not None and not fields.get(flag.when, True):
                continue
            value = tuple(fields[f] for f in flag.fields) if len(flag.fields) > 1 else fields[flag.fields[0]]
            values[flag.dest] = flag.codec.dump(value)
        return values

    def argv(self, fields: Mapping[str, Any]) -> list[str]:
        """The command-line words for these fields, in ``--help`` order."""
        values = self.values_from_fields(fields)
        return [w for flag in self.flags if flag.dest in values for w in flag.argv(values[flag.dest])]


_RUN = "run_smoke"

#: The smoke run's inputs, fields of SmokeOptions: `smoke` and `ort` take them alike, and `bundle` for its smoke run
#: (``SMOKE_INPUT_FLAGS.at("smoke", when="run_smoke")``).
SMOKE_INPUT_FLAGS = FlagGroup(None, (
    Flag(("--dim",), "dim", "size of a symbolic dimension, e.g. --dim sequence=512 (unnamed: --dim \"x[2]=64\")",
         "dims", Kind.REPEAT, DIMS, metavar="NAME=VALUE", default=[]),
    Flag(("--input",), "input", "input from FILE (.npy, FILE.npz[:member], ONNX TensorProto .pb) or a scalar VALUE, "
         "e.g. --input sr=16000", "inputs", Kind.REPEAT, INPUTS, metavar="NAME=FILE|VALUE", default=[]),
    Flag(("--range",), "range", "draw a generated input uniformly from [LO, HI) instead of the standard normal",
         "ranges", Kind.REPEAT, RANGES, metavar="NAME=LO:HI", default=[]),
    Flag(("--seed",), "seed", "seed of the input generator (default 0)", "seed", type=int, default=0),
    Flag(("--timeout",), "timeout", "time limit of the child process in seconds (default 120)", "timeout",
         metavar="S", type=float, default=120.0, text=lambda s: f"{s:g}"),
))  # fmt: skip
#: `smoke` and `ort`: their smoke inputs as SmokeOptions' fields.
SMOKE_INPUT_SPEC = OptionSpec((SMOKE_INPUT_FLAGS,))

#: `bundle`'s own flags before the smoke inputs (--help order).
BUNDLE_FLAGS = FlagGroup(None, (
    Flag((), "model", "the .onnx file, or a folder: one release of every model in it and the files beside them "
         "(default: the built-in sample, with a warning)", "model", Kind.POSITIONAL, MODEL_PATH, metavar="MODEL"),
    Flag(("-o", "--output", "--out"), "output", "folder to write NAME-VERSION.zip into (created if missing), or the "
         ".zip file to write", ("out_dir", "zip_name"), codec=OUTPUT, metavar="OUT", required=True),
    Flag(("--version",), "release", "release version (semver)", "version", metavar="X.Y.Z", required=True),
    Flag(("--name",), "name", "bundle and model file name (default: the model file's stem)", "name", metavar="N"),
    Flag(("--data-dir",), "data_dir", "folder of the external data files (default: the model's)", "data_dir",
         codec=PATH, metavar="DIR"),
    Flag(("--previous",), "previous", "the previous release's bundle .zip (or its manifest.json): diff the interface "
         "and suggest the version", "previous", codec=PATH, metavar="OLD.zip"),
    Flag(("--target-ort",), "target_ort", "ONNX Runtime release that must load the model", "target_ort",
         metavar="X.Y"),
    Flag(("--fix-ir",), "fix_ir", "retarget the released copy for --target-ort: lower ir_version (dropping "
         "newer-IR metadata that changes nothing computed, recorded in the manifest) and the opsets where that is "
         "exact or onnx.version_converter manages", "fix_ir", Kind.SWITCH, default=False),
    Flag(("--target-app",), "target_app", "target the ONNX Runtime the app embeds, read from its Cargo.lock "
         "(ort/ort-sys), .csproj/packages.lock.json, package-lock.json, requirements*.txt, pyproject.toml or uv.lock "
         "(a file, or the app's folder); sets --target-ort", metavar="PATH"),
    Flag(("--prove-ort",), "prove_ort", "run the bundled model on these ONNX Runtime releases (1.16.3,1.20.1; "
         "1.16 = its newest patch; newest; auto = the oldest the model claims + the newest), each from its official "
         "PyPI wheel in a cached environment of its own, and compare the outputs", "prove_ort", metavar="RELEASES"),
    Flag(("--set-model-version",), "set_model_version", "write the version into model_version as MAJOR*1000000 + "
         "MINOR*1000 + PATCH", "set_model_version", Kind.SWITCH, default=False),
    Flag(("--ort-format",), "ort_format", "also add NAME.ort (ONNX Runtime's ORT format)", "ort_format", Kind.SWITCH,
         default=False),
    Flag(("--layout",), "layout", "auto: one self-contained .onnx below 2 GiB, else NAME.onnx + aligned "
         "NAME.onnx.data (default); keep: the model's files as they are (validated and proven, not merged)", "layout",
         Kind.CHOICE, choices=BUNDLE_LAYOUTS, default=AUTO),
    Flag(("--compress",), "compress", "deflate the files (default: stored uncompressed)", "compress", Kind.SWITCH,
         default=False),
    Flag(("--asset",), "asset", "a file the app reads beside the model (label map, tokenizer, config), shipped at its "
         "path below the model's folder (repeatable)", "assets", Kind.REPEAT, PATHS, metavar="PATH", default=[]),
    Flag(("--exclude",), "exclude", "a folder release: leave out files whose path in the folder or name matches this "
         "glob (repeatable)", "exclude", Kind.REPEAT, metavar="GLOB", default=[]),
))  # fmt: skip

#: `bundle`'s own flags after the smoke inputs.
BUNDLE_RUN_FLAGS = FlagGroup(None, (
    Flag(("--no-search",), "no_search", "smoke run: do not search sizes for symbolic dims", "smoke.search",
         Kind.SWITCH, NOT, default=False, when=_RUN),
    Flag(("--no-smoke",), "no_smoke", "skip the smoke run and the equality proof", _RUN, Kind.SWITCH, NOT,
         default=False),
    Flag(("--compare-outputs",), "compare_outputs", "besides the tensor-hash proof, also run the source model and "
         "compare outputs bitwise (auto: for models up to 256 MiB)", "compare_outputs", Kind.CHOICE, TRISTATE,
         choices=("auto", "always", "never"), default="auto", when=_RUN),
    Flag(("--no-load-cost",), "no_load_cost", "do not measure the end user's load time and memory of the shipped "
         "and the source layout (the ZIP then repeats byte for byte)", "load_cost", Kind.SWITCH, NOT, default=False,
         when=_RUN),
    Flag(("--force",), "force", "replace an existing bundle of the same name", "force", Kind.SWITCH, default=False),
    Flag(("--allow-version-not-greater",), "allow_version_not_greater", "release a version that is not greater "
         "than --previous's (a warning in the manifest)", "allow_version_not_greater", Kind.SWITCH, default=False),
    Flag(("--allow-unmatched-labels",), "allow_unmatched_labels", "keep --labels whose count matches no output's "
         "last dimension", "allow_unmatched_labels", Kind.SWITCH, default=False),
))  # fmt: skip

ABOUT_FLAGS = FlagGroup("release metadata (the manifest's 'about', the receiver's README)", (
    Flag(("--license",), "license", "the model's licence, an SPDX expression (MIT, Apache-2.0…)", "about.license",
         metavar="SPDX"),
    Flag(("--author",), "author", "an author, e.g. 'Ada <ada@example.org>' (repeat for several)", "about.authors",
         Kind.REPEAT, metavar="NAME", default=[]),
    Flag(("--homepage",), "homepage", "the model's home page (http/https)", "about.homepage", metavar="URL"),
    Flag(("--labels",), "labels", "class labels in output order, comma-separated (checked against the outputs' last "
         "dimension)", "about.labels", codec=LABELS, metavar="A,B,…", exclusive="labels"),
    Flag(("--labels-file",), "labels_file", "class labels, one per line (UTF-8)", metavar="FILE", exclusive="labels"),
))  # fmt: skip

SIGNING_FLAGS = FlagGroup("signing (OpenSSF model-signing; see docs/bundle.md)", (
    Flag(("--sign-key",), "sign_key", "sign every member with this EC private key (model.sig)", "sign_key",
         codec=PATH, metavar="KEY.pem"),
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

#: `onnxpack bundle`, flag by flag, in --help order.
BUNDLE_SPEC = OptionSpec((BUNDLE_FLAGS, SMOKE_INPUT_FLAGS.at("smoke", when=_RUN), BUNDLE_RUN_FLAGS, ABOUT_FLAGS,
                          SIGNING_FLAGS))  # fmt: skip


def bundle_argv(options: BundleOptions) -> list[str]:
    """``onnxpack bundle …`` as argv, equivalent to ``options``."""
    return ["onnxpack", "bundle", *BUNDLE_SPEC.argv(options.fields())]


def cli_command(options: BundleOptions) -> str:
    """The ``onnxpack bundle …`` command line equivalent to ``options`` (for "Copy CLI command")."""
    argv = bundle_argv(options)
    return subprocess.list2cmdline(argv) if os.name == "nt" else shlex.join(argv)

