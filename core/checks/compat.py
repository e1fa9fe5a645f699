"""Which ONNX Runtime releases load a model: IR version and opsets against each ORT release's limits.

ONNX release → (IR, ai.onnx opset, ai.onnx.ml opset) comes from ``onnx.helper.VERSION_TABLE``; only
ORT release → ONNX release is kept here by hand (shared/reference/ort-compat.md). Where ORT's official
compatibility table states lower limits than the ONNX release it integrated (ORT lagged behind), the
official figure is kept as an explicit override with its source.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

import onnx
from onnx import ModelProto

from . import codes
from .irfeatures import features_and_types, lower_ir_possible, min_ir_for_features
from .ortreleases import ORT_TO_ONNX, ROW_EVIDENCE

__all__ = [
    "MIN_AI_ONNX_OPSET",
    "ORT_RELEASES",
    "CompatResult",
    "OrtRelease",
    "ReleasedLimits",
    "TargetVerdict",
    "check_target",
    "installed_ort_version",
    "lower_ir_possible",
    "min_ir_for_features",
    "oldest_ort",
    "ort_package_version",
    "parse_version",
    "released_limits",
]

#: ONNX Runtime supports ai.onnx opset 7 and newer (ort-compat.md).
MIN_AI_ONNX_OPSET = 7

# Domains spelled two ways in models.
_AI_ONNX = ("", "ai.onnx")
_AI_ONNX_ML = "ai.onnx.ml"
_AI_ONNX_TRAINING = "ai.onnx.training"
_PREVIEW_TRAINING = "ai.onnx.preview.training"
# Contrib-op domains built into standard ORT packages.
_ORT_BUILTIN_DOMAINS = frozenset({"com.microsoft", "com.microsoft.nchwc", "com.microsoft.experimental"})

def parse_version(text: str) -> tuple[int, int]:
    """``"1.17"`` / ``"1.17.3"`` / ``"v1.17"`` → ``(1, 17)``; anything else raises InputError."""
    m = re.fullmatch(r"\s*v?(\d{1,3})\.(\d{1,3})(?:\.\d{1,4})?\s*", text)
    if not m:
        raise codes.BAD_TARGET_ORT.error(text=text)
    return int(m.group(1)), int(m.group(2))


def _vt() -> dict[str, tuple[int, int, int]]:
    out: dict[str, tuple[int, int, int]] = {}
    for row in onnx.helper.VERSION_TABLE:
        out[str(row[0])] = (int(row[1]), int(row[2]), int(row[3]))
    return out


@dataclass(frozen=True)
class ReleasedLimits:
    """The highest IR version and opsets any ONNX release defines (the newest row of onnx's VERSION_TABLE)."""

    onnx: str
    ir: int
    opset: int
    ml_opset: int
    training_opset: int

    def opset_limit(self, domain: str) -> int | None:
        """Highest released opset of a standard ``domain``; None for domains ONNX does not version."""
        return {
            "ai.onnx": self.opset,
            _AI_ONNX_ML: self.ml_opset,
            _AI_ONNX_TRAINING: self.training_opset,
        }.get(_domain_key(domain))


def released_limits() -> ReleasedLimits:
    """What the newest ONNX release known to the installed onnx package defines."""
    rows = [(parse_version(str(r[0])), str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]) if len(r) > 4 else 0)
            for r in onnx.helper.VERSION_TABLE]
    newest = max(rows)
    return ReleasedLimits(newest[1], max(r[2] for r in rows), max(r[3] for r in rows), max(r[4] for r in rows),
                          max(r[5] for r in rows))


@dataclass(frozen=True)
class OrtRelease:
    """Limits of one ORT release; ``derived`` rows are not from ORT's official table."""

    version: str
    onnx: str
    ir: int
    opset: int
    ml_opset: int
    derived: bool

    @property
    def key(self) -> tuple[int, int]:
        return parse_version(self.version)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ort": self.version,
            "onnx": self.onnx,
            "ir_version": self.ir,
            "ai_onnx_opset": self.opset,
            "ai_onnx_ml_opset": self.ml_opset,
            "derived": self.derived,
            "evidence": ROW_EVIDENCE.get(self.version, "ORT documentation"),
        }


#: Distributions that install the ``onnxruntime`` module (CPU first).
_ORT_DISTRIBUTIONS = ("onnxruntime", "onnxruntime-gpu", "onnxruntime-directml", "onnxruntime-openvino")


def ort_package_version() -> str | None:
    """The installed onnxruntime's full version, from its metadata: importing onnxruntime is slow, holds the GIL and
    leaves a file in the temporary folder (``.ses``, since 1.32), so the parent process never does."""
    from importlib import metadata

    for dist in _ORT_DISTRIBUTIONS:
        try:
            return str(metadata.version(dist))
        except metadata.PackageNotFoundError:
            continue
    return None


def installed_ort_version() -> str | None:
    """MAJOR.MINOR of the installed onnxruntime, read from its metadata (no import); None if unknown."""
    m = re.match(r"(\d+)\.(\d+)", ort_package_version() or "")
    return f"{int(m.group(1))}.{int(m.group(2))}" if m else None


@functools.cache
def _table() -> tuple[OrtRelease, ...]:
    """The releases of the table (ORT_TO_ONNX), oldest first: :data:`ORT_RELEASES` but for the installed runtime's
    row. The oldest release that loads a model is always one of these (that row has the newest row's limits)."""
    vt = _vt()
    rows = []
    for ort, onnx_rel, derived, override in ORT_TO_ONNX:
        ir, opset, ml = vt[onnx_rel]
        rows.append(
            OrtRelease(ort, onnx_rel, override.get("ir", ir), opset, override.get("ml", ml), derived)
        )
    rows.sort(key=lambda r: r.key)
    return tuple(rows)


def _build_releases() -> tuple[OrtRelease, ...]:
    rows = list(_table())
    installed = installed_ort_version()
    if installed is not None and parse_version(installed) > rows[-1].key:
        # The installed runtime is newer than the table: it is still a known row, with the newest row's limits
        # as a lower bound (a release keeps loading what older ones loaded). The smoke run is the proof for
        # anything above; tests/test_compat.py fails until the table gets the measured row.
        last = rows[-1]
        rows.append(OrtRelease(installed, last.onnx, last.ir, last.opset, last.ml_opset, True))
    return tuple(rows)


@functools.cache
def _releases() -> tuple[OrtRelease, ...]:
    return _build_releases()


#: Every known ORT release, oldest first: built when first read (module ``__getattr__``): the installed runtime's
#: version comes from the installed packages' metadata, a search of every folder of sys.path, which `inspect` of a
#: model some release of the table loads does not need.
ORT_RELEASES: tuple[OrtRelease, ...]


def __getattr__(name: str) -> Any:
    if name == "ORT_RELEASES":
        return _releases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _domain_key(domain: str) -> str:
    return "ai.onnx" if domain in _AI_ONNX else domain


def _why_not(rel: OrtRelease, ir_version: int, opsets: dict[str, int],
             type_irs: dict[str, int] | None = None) -> list[str]:
    """Reasons ``rel`` cannot load a model (empty list: it can); ``type_irs``: the element types the model uses that
    a newer IR introduced (core/checks/irfeatures.py), judged whatever IR the model declares."""
    why = []
    if ir_version > rel.ir:
        why.append(f"IR version {ir_version} > {rel.ir}")
    why += _type_why_not(rel, type_irs or {})
    for domain, version in opsets.items():
        d = _domain_key(domain)
        if d == "ai.onnx" and version > rel.opset:
            why.append(f"ai.onnx opset {version} > {rel.opset}")
        elif d == _AI_ONNX_ML and version > rel.ml_opset:
            why.append(f"ai.onnx.ml opset {version} > {rel.ml_opset}")
    return why


def _type_why_not(rel: OrtRelease, type_irs: dict[str, int]) -> list[str]:
    """The element types ``rel`` does not know (it refuses the model: "Invalid tensor data type N")."""
    return [f"element type {name} (IR {ir}) > IR {rel.ir}"
            for name, ir in sorted(type_irs.items(), key=lambda kv: (kv[1], kv[0])) if ir > rel.ir]


@dataclass
class CompatResult:
    """Runtime compatibility of a model's IR version and opsets."""

    ir_version: int
    opsets: dict[str, int]
    oldest: OrtRelease | None  # oldest known ORT release that loads the model
    blockers: list[str]  # why even the newest known release would refuse it (empty when oldest is set)
    too_old: list[str]  # opsets below what any ORT supports
    other_domains: list[str]  # non-standard domains (contrib / custom ops)
    min_ir: int | None = None  # lowest IR the model's features allow (set when a model was given)
    min_ir_reasons: list[str] = field(default_factory=list)
    oldest_if_ir_lowered: OrtRelease | None = None  # older release reachable by lowering ir_version only
    #: element types of a newer IR the model uses, with that IR (set when a model was given): judged against each
    #: release whatever ir_version the model declares
    type_irs: dict[str, int] = field(default_factory=dict)

    @property
    def newest_known(self) -> OrtRelease:
        """The newest known ORT release (the installed one when it is newer than the table)."""
        return _releases()[-1]

    @property
    def newer_than_known(self) -> bool:
        """The model needs more than the newest ORT release in the table."""
        return self.oldest is None and not self.too_old

    @property
    def lowered_ir(self) -> int | None:
        """The ir_version to write so ``oldest_if_ir_lowered`` loads the model."""
        if self.oldest_if_ir_lowered is None:
            return None
        return min(self.ir_version, self.oldest_if_ir_lowered.ir)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ir_version": self.ir_version,
            "opsets": dict(self.opsets),
            "oldest_ort": self.oldest.version if self.oldest else None,
            "oldest_ort_derived": self.oldest.derived if self.oldest else None,
            "newest_known_ort": self.newest_known.version,
            "newer_than_known": self.newer_than_known,
            "blockers": list(self.blockers),
            "opsets_too_old": list(self.too_old),
            "other_domains": list(self.other_domains),
            "min_ir_version": self.min_ir,
            "min_ir_reasons": list(self.min_ir_reasons),
            "oldest_ort_if_ir_lowered": self.oldest_if_ir_lowered.version if self.oldest_if_ir_lowered else None,
            "lowered_ir_version": self.lowered_ir,
        }


def _first_loading(ir_version: int, opsets: dict[str, int],
                   type_irs: dict[str, int] | None = None) -> OrtRelease | None:
    for rel in _table():
        if not _why_not(rel, ir_version, opsets, type_irs):
            return rel
    return None


def oldest_ort(ir_version: int, opsets: dict[str, int], model: ModelProto | None = None) -> CompatResult:
    """The oldest known ORT release whose IR and opset limits admit the model.

    With ``model`` given, also works out whether lowering ``ir_version`` (and nothing else) would let
    an older release load it (see :func:`lower_ir_possible`).
    """
    opsets = dict(opsets)
    too_old = [
        f"ai.onnx opset {v} (below {MIN_AI_ONNX_OPSET}, the oldest ONNX Runtime documents)"
        for d, v in opsets.items()
        if _domain_key(d) == "ai.onnx" and v < MIN_AI_ONNX_OPSET
    ]
    others = sorted(
        d for d in opsets if _domain_key(d) not in ("ai.onnx", _AI_ONNX_ML, _AI_ONNX_TRAINING, _PREVIEW_TRAINING)
    )
    min_ir, reasons, type_irs = features_and_types(model) if model is not None else (None, [], {})
    oldest = None if too_old else _first_loading(ir_version, opsets, type_irs)
    blockers = [] if oldest is not None else _why_not(_releases()[-1], ir_version, opsets, type_irs)
    result = CompatResult(ir_version, opsets, oldest, blockers, too_old, others, type_irs=type_irs)
    if model is not None and min_ir is not None:
        result.min_ir = min_ir
        result.min_ir_reasons = reasons
        if not too_old:
            lowered = _first_loading(max(min_ir, 1), opsets)
            if lowered is not None and (oldest is None or lowered.key < oldest.key) and lowered.ir < ir_version:
                result.oldest_if_ir_lowered = lowered
    return result


@dataclass(frozen=True)
class TargetVerdict:
    """Whether one ORT release loads the model: ``loads`` is True/False, or None when unknown."""

    target: str
    loads: bool | None
    reason: str
    release: OrtRelease | None
    fix_by_lowering_ir: int | None = None  # set when lowering ir_version to this value fixes it
    #: core.retarget.RetargetResult (analysis only) when more than ir_version has to change: --fix-ir retargets
    retarget: Any = None

    @property
    def fixable(self) -> bool:
        """``bundle --fix-ir`` can make the target load the model (lower ir_version, or retarget)."""
        return self.fix_by_lowering_ir is not None or (self.retarget is not None and self.retarget.possible)

    def to_dict(self) -> dict[str, Any]:
        return {
            "target_ort": self.target,
            "loads": self.loads,
            "reason": self.reason,
            "derived": self.release.derived if self.release else None,
            "limits": self.release.to_dict() if self.release else None,
            "fix_lower_ir_version_to": self.fix_by_lowering_ir,
            "retarget": self.retarget.to_dict() if self.retarget is not None else None,
        }


def check_target(result: CompatResult, target: str, model: ModelProto | None = None) -> TargetVerdict:
    """Answer ``--target-ort X.Y`` for a model whose compatibility is ``result``."""
    key = parse_version(target)
    label = f"{key[0]}.{key[1]}"
    releases = _releases()
    rel = next((r for r in releases if r.key == key), None)
    if result.too_old:
        return TargetVerdict(label, False, "; ".join(result.too_old), rel)
    if rel is None:
        newest = result.newest_known
        if key > newest.key:
            if result.oldest is not None:
                return TargetVerdict(
                    label, True,
                    f"ORT {label} is newer than onnxpack's table (newest {newest.version}); releases keep "
                    f"supporting older IR/opsets and ORT {result.oldest.version} already loads the model",
                    None,
                )
            return TargetVerdict(
                label, None,
                f"ORT {label} is newer than onnxpack's table (newest {newest.version}), and the model needs "
                f"more than {newest.version} supports ({'; '.join(result.blockers)}); a smoke run with ORT "
                f"{label} is the only proof",
                None,
            )
        if key < releases[0].key:
            return TargetVerdict(label, False, f"ORT {label} predates ONNX Runtime 1.0, the oldest known", None)
        return TargetVerdict(label, None, f"ORT {label} is not a known ONNX Runtime release", None)
    why = _why_not(rel, result.ir_version, result.opsets, result.type_irs)
    derived = " (limits measured on that release, not from ORT's official table)" if rel.derived else ""
    if not why:
        return TargetVerdict(
            label, True,
            f"ORT {label} supports IR {rel.ir}, ai.onnx opset {rel.opset}, ai.onnx.ml opset {rel.ml_opset}{derived}",
            rel,
        )
    only_ir = all(w.startswith("IR version") for w in why)
    fix = None
    reason = f"ONNX Runtime {label} cannot load it: {'; '.join(why)} (its limits){derived}"
    if only_ir and model is not None:
        possible, min_ir, _feats = lower_ir_possible(model, rel.ir)
        if possible:
            fix = rel.ir
            reason += (
                f". Only the IR version is too new and the model uses nothing newer than IR {min_ir}: "
                f"lowering ir_version to {rel.ir} fixes it"
            )
            return TargetVerdict(label, False, reason, rel, fix)
    if model is not None:  # more than ir_version: what retargeting (core/checks/retarget.py) would do, analysis only
        from .retarget import retarget_model

        plan = retarget_model(model, label, rel.ir, {"ai.onnx": rel.opset, _AI_ONNX_ML: rel.ml_opset},
                              convert=False)
        if plan.possible:
            reason += f". `--fix-ir` can retarget it: {plan.summary()}"
        else:
            reason += f". It cannot be retargeted: {'; '.join(plan.blockers[:4])}"
        return TargetVerdict(label, False, reason, rel, rel.ir if plan.possible and plan.ir_after != plan.ir_before
                             else None, plan)
    return TargetVerdict(label, False, reason, rel, fix)

