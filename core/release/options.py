"""What ``onnxpack bundle`` takes: :class:`BundleOptions`, which checks itself into :class:`ValidOptions`.

Its flags are declared, with the other commands', in core/release/flaggroups.py (``BUNDLE_SPEC``): each says which
field of :class:`BundleOptions` it sets and how its command-line value becomes that field's value and back. From the
spec the command line builds its parser and turns parsed arguments into options (``cli/flags.py``), the desktop app its
form table, and :func:`cli_command` turns options back into the command line (the GUI's "Copy CLI command").

The GUI fills the same :class:`BundleOptions` through :meth:`BundleOptions.from_fields`; every check of the
options alone is :meth:`BundleOptions.validated` (``build_bundle`` calls it before any work, the app before it queues
a run), which returns what it parsed.
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import errorcodes
from ..model.layout import AUTO, BUNDLE_LAYOUTS
from .flaggroups import BUNDLE_SPEC
from .metadata import ReleaseInfo

if TYPE_CHECKING:
    from ..runtime.smoke import SmokeOptions
    from .versions import SemVer

__all__ = ["BundleOptions", "ValidOptions", "bundle_argv", "cli_command"]


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

    def validated(self) -> ValidOptions:
        """The options checked before any work (a typo must not cost a 2 GB merge), with what the checks parsed: a
        semantic version (parsed here, once), a known layout, --fix-ir with its target, one way to sign, sensible
        smoke inputs; the release metadata normalized (None when empty). Raises InputError (exit 2) with a hint."""
        from .versions import parse_semver

        version = parse_semver(self.version)
        if self.layout not in BUNDLE_LAYOUTS:
            raise errorcodes.USAGE.error(variant="bundle_layout", layout=self.layout)
        if self.fix_ir and self.target_ort is None:
            raise errorcodes.USAGE.error(variant="fix_ir_needs_target")
        if self.run_smoke and self.smoke is not None:
            self.smoke.validate()
        about = self.about.normalized() if self.about is not None and not self.about.empty else None
        if self.sign_sigstore and self.sign_key is not None:
            raise errorcodes.USAGE.error(variant="two_signers")
        if self.sign_key is None and (self.sign_certificate is not None or self.sign_chain):
            raise errorcodes.USAGE.error(variant="certificate_without_key")
        return ValidOptions(dataclasses.replace(self, about=about), version)

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


@dataclass(frozen=True)
class ValidOptions:
    """:meth:`BundleOptions.validated`'s result: the options as checked (release metadata normalized) and the version
    they name, parsed (core/release/plan.py make_plan starts from it)."""

    options: BundleOptions
    version: SemVer


def bundle_argv(options: BundleOptions) -> list[str]:
    """``onnxpack bundle …`` as argv, equivalent to ``options``."""
    return ["onnxpack", "bundle", *BUNDLE_SPEC.argv(options.fields())]


def cli_command(options: BundleOptions) -> str:
    """The ``onnxpack bundle …`` command line equivalent to ``options`` (for "Copy CLI command")."""
    argv = bundle_argv(options)
    return subprocess.list2cmdline(argv) if os.name == "nt" else shlex.join(argv)

