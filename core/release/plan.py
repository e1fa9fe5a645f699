"""A bundle's plan: what every stage is told, computed once from the options before any work (frozen)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from ..findings import Finding
from ..model.layout import Layout
from ..model.modelfile import ModelLocation, locate_model
from ..names import bundle_file_name, check_bundle_name, default_bundle_name
from ..resources import SAMPLE_MODEL, resource_path
from . import codes, foldercodes
from .folder import ReleaseTree, scan_assets, scan_folder
from .metadata import ReleaseInfo
from .options import BundleOptions, ValidOptions
from .versions import SemVer, encode_model_version
from .zipwriter import source_date_epoch

if TYPE_CHECKING:  # signing is imported only when a bundle is signed: an unsigned bundle never pays for it
    from .signing import KeyInfo, SigstoreSigner

__all__ = ["BundlePlan", "default_name", "make_plan"]


def default_name(model: Path | None) -> str:
    """The bundle name used when --name is not given: the model file's stem (core.names.default_bundle_name)."""
    return default_bundle_name(model if model is not None else resource_path(*SAMPLE_MODEL))


@dataclass(frozen=True)
class BundlePlan:
    """The checked options and what follows from them alone: the model's location, the bundle's name and version,
    the timestamp, the signing key (checked; the key itself is never kept), and the findings about them."""

    opts: BundleOptions
    location: ModelLocation
    name: str
    version: SemVer
    #: The version as model_version (--set-model-version), or None to leave the model's own.
    version_model: int | None
    epoch: int | None  # SOURCE_DATE_EPOCH; None: the sources' newest modification time
    key: KeyInfo | None
    sigstore: SigstoreSigner | None  # a prepared Sigstore keyless signer
    findings: tuple[Finding, ...]
    #: A release of several files (a folder, or a model with --asset): its models and assets. None: one model.
    tree: ReleaseTree | None = None
    #: The model's path in the bundle when it is one model of a release (its path in the folder); None: NAME.onnx.
    entry: str | None = None
    #: Where the smoke run's input and reference-output members go.
    smoke_dir: str = "smoke"

    @property
    def about(self) -> ReleaseInfo | None:
        return self.opts.about  # normalized by BundleOptions.validated()

    @property
    def signed(self) -> bool:
        return self.key is not None or self.sigstore is not None

    @property
    def model_entry(self) -> str:
        """The bundled model's name, NAME.onnx (in either layout of the .onnx), or its path in a release folder."""
        return self.entry if self.entry is not None else Layout.EXTERNAL.model_name(self.name)

    @property
    def data_entry(self) -> str:
        """Its data file's name in the external layout, NAME.onnx.data."""
        return Layout.data_name(self.model_entry)

    @property
    def ort_entry(self) -> str:
        """The ORT-format variant's name, NAME.ort (beside the model in a release folder)."""
        if self.entry is not None:
            return str(PurePosixPath(self.entry).with_suffix(".ort"))
        return Layout.ORT.model_name(self.name)

    @property
    def zip_name(self) -> str:
        return self.opts.zip_name or bundle_file_name(self.name, self.version)

    @property
    def read_files(self) -> list[Path]:
        """The files a bundle run reads besides the external data: the model, the previous release, the signing
        key."""
        others = (self.opts.previous, self.opts.sign_key, self.opts.sign_certificate)
        models = [self.location.model] if self.tree is None else [m.path for m in self.tree.models]
        assets = [] if self.tree is None else [a.path for a in self.tree.assets]
        return [*models, *assets, *(p for p in others if p is not None)]

    def model_plans(self) -> list[BundlePlan]:
        """One plan per model of the release, each writing at its path in the folder (a single model: itself)."""
        if self.tree is None:
            return [self]
        return [dataclasses.replace(self, location=ModelLocation(m.path, m.path.parent, None), entry=m.member,
                                    name=default_bundle_name(m.path), smoke_dir=f"smoke/{m.member}", tree=None,
                                    findings=())
                for m in self.tree.models]  # fmt: skip


def make_plan(valid: ValidOptions) -> BundlePlan:
    """The plan of validated options (:meth:`BundleOptions.validated`: the version comes parsed). The release folder
    and the signing key are checked here, before any work: a typo must not cost a 2 GB merge."""
    opts, version = valid.options, valid.version
    tree = _release_tree(opts)
    model = opts.model if opts.model is not None else resource_path(*SAMPLE_MODEL)
    if tree is not None and _plain(tree, opts):  # one model and nothing beside it: bundled as it is, NAME.onnx
        model = model if tree.models[0].path.parent == tree.root else tree.models[0].path
        tree = None
    location = locate_model(tree.models[0].path if tree is not None else model, opts.data_dir)
    name = check_bundle_name(opts.name if opts.name is not None else default_name(
        tree.root if tree is not None and not opts.assets else location.model))
    epoch = opts.source_date_epoch if opts.source_date_epoch is not None else source_date_epoch()
    version_model = encode_model_version(version) if opts.set_model_version else None
    findings: list[Finding] = []
    if opts.model is None:  # never silently: a forgotten argument would ship a believable release of the wrong model
        findings.append(foldercodes.BUNDLE_SAMPLE.finding("model", model=location.model.name))
    if version_model is not None and (version.prerelease or version.build):
        findings.append(codes.MODEL_VERSION_TAGS.finding("model_version", model_version=version_model,
                                                         version=str(version)))  # fmt: skip
    key = _signing_key(opts)
    if key is not None and key.warning:
        findings.append(codes.SIGNING_KEY_READABLE.finding("sign_key", warning=key.warning))
    sigstore = None
    if opts.sign_sigstore:
        from .signing import prepare_sigstore

        sigstore = prepare_sigstore(opts.sigstore_identity_token_env)
    return BundlePlan(opts, location, name, version, version_model, epoch, key, sigstore, tuple(findings), tree)


def _release_tree(opts: BundleOptions) -> ReleaseTree | None:
    """The release's files when it is more than one model file: a folder holding more than one model, or other files
    beside it; a model given with --asset. None: one model, bundled as it is (NAME.onnx)."""
    if opts.assets:
        if opts.model is None or Path(opts.model).is_dir():
            raise foldercodes.RELEASE_ASSET.error(variant="model_file", path=str(opts.model or ""))
        return scan_assets(Path(opts.model), [Path(a) for a in opts.assets])
    if opts.model is None or not Path(opts.model).is_dir() or opts.data_dir is not None:
        return None
    return scan_folder(Path(opts.model), exclude=opts.exclude, leave_out=[Path(opts.out_dir)])


def _plain(tree: ReleaseTree, opts: BundleOptions) -> bool:
    """A folder holding one model (and its data) and nothing else to ship: it is bundled as that model alone."""
    return not opts.assets and len(tree.models) == 1 and not tree.assets


def _signing_key(opts: BundleOptions) -> KeyInfo | None:
    if opts.sign_key is None:
        return None
    from .signing import read_signing_key

    return read_signing_key(opts.sign_key, opts.sign_key_password_env, certificate=opts.sign_certificate,
                            chain=list(opts.sign_chain))  # fmt: skip
