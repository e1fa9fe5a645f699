"""Release versioning: semver, the interface diff against the previous bundle (seed 004), model_version.

Rules (ONNX docs/Versioning.md "Model versioning", seed 004, applied to the model's interface):

* **major** (breaking): an input or output removed or renamed, inputs/outputs reordered, an element
  type changed, a shape changed incompatibly (rank, a fixed size, an input narrowed — e.g. symbolic →
  fixed — or an output widened), a new *required* input, or a model that needs a newer ONNX Runtime
  than the previous release did (it no longer loads where the previous one did);
* **minor** (compatible): a new optional input (one with a default initializer, or of optional
  type), a new output, an input widened (fixed → symbolic/unknown), an output narrowed, and an output
  widened only where it follows a widened input (a batch axis made dynamic: ``x[1, 3] → y[1, 10]`` becoming
  ``x['batch', 3] → y['batch', 10]``; callers feeding the old size still get the old shape) or an input that was
  already dynamic (``x['batch', 3] → y[1, 10]`` becoming ``x['batch', 3] → y['batch', 10]``: a re-export that
  declares what the model did all along, the exporter having written its traced size before);
* **patch**: nothing in the interface changed, but the weights/graph (the source files), opsets,
  metadata or a symbolic dimension's name did;
* **none**: the source files are byte-identical.

Semantic versions follow semver.org 2.0.0 (parsing and precedence hand-written: ~40 lines, and the
engine may not take run-time dependencies beyond onnx/onnxruntime/numpy — see the team brief).

``model_version`` (int64 in ModelProto) encodes ``MAJOR.MINOR.PATCH`` as
``MAJOR * 1_000_000 + MINOR * 1_000 + PATCH`` with MINOR and PATCH below 1000 and MAJOR below
9_223_372_036_854 (so the value fits int64); pre-release and build tags are not representable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..findings import Finding
from . import codes

__all__ = [
    "IMPACTS",
    "SEMVER_PATTERN",
    "Change",
    "ReleaseDiff",
    "SemVer",
    "check_new_version",
    "decode_model_version",
    "diff_interfaces",
    "diff_manifests",
    "encode_model_version",
    "parse_semver",
]

IMPACTS = ("none", "patch", "minor", "major")
_RANK = {name: i for i, name in enumerate(IMPACTS)}
_IDENT = r"(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
_SEMVER = re.compile(
    rf"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-({_IDENT}(?:\.{_IDENT})*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?"
)
#: The pattern :func:`parse_semver` accepts (the GUI's version field validates with the same one).
SEMVER_PATTERN = _SEMVER.pattern
MODEL_VERSION_MAJOR_LIMIT = (2**63 - 1) // 1_000_000


@dataclass(frozen=True)
class SemVer:
    """A semantic version; compare with :meth:`key` (build metadata does not count)."""

    major: int
    minor: int
    patch: int
    prerelease: tuple[str, ...] = ()
    build: str = ""

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            text += "-" + ".".join(self.prerelease)
        if self.build:
            text += "+" + self.build
        return text

    def key(self) -> tuple[Any, ...]:
        """Precedence key (semver.org §11): a pre-release sorts before its release; numeric
        identifiers compare numerically and below alphanumeric ones; more identifiers win ties."""
        pre: tuple[Any, ...] = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in self.prerelease)
        return (self.major, self.minor, self.patch, 0 if self.prerelease else 1, pre)

    def __lt__(self, other: SemVer) -> bool:
        return self.key() < other.key()

    def __le__(self, other: SemVer) -> bool:
        return self.key() <= other.key()

    def __gt__(self, other: SemVer) -> bool:
        return self.key() > other.key()

    def __ge__(self, other: SemVer) -> bool:
        return self.key() >= other.key()

    def bump(self, level: str) -> SemVer:
        """The next version for a change of ``level`` (npm's ``semver.inc`` rules for pre-releases:
        1.2.0-rc.1 bumped minor is 1.2.0)."""
        M, m, p = self.major, self.minor, self.patch
        pre = bool(self.prerelease)
        if level == "major":
            return SemVer(M, 0, 0) if pre and m == 0 and p == 0 else SemVer(M + 1, 0, 0)
        if level == "minor":
            return SemVer(M, m, 0) if pre and p == 0 else SemVer(M, m + 1, 0)
        return SemVer(M, m, p) if pre else SemVer(M, m, p + 1)


def parse_semver(text: str, what: str = "--version") -> SemVer:
    """Parse ``MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]``; anything else raises InputError."""
    m = _SEMVER.fullmatch(text.strip()) if len(text) <= 128 else None
    if m is None:
        raise codes.BAD_VERSION.error(what=what, version=text)
    pre = tuple(m.group(4).split(".")) if m.group(4) else ()
    return SemVer(int(m.group(1)), int(m.group(2)), int(m.group(3)), pre, m.group(5) or "")


def encode_model_version(v: SemVer) -> int:
    """``MAJOR * 1_000_000 + MINOR * 1_000 + PATCH``; limits checked (see module docstring)."""
    if v.minor >= 1000 or v.patch >= 1000 or v.major >= MODEL_VERSION_MAJOR_LIMIT:
        raise codes.MODEL_VERSION_RANGE.error(version=str(v))
    return v.major * 1_000_000 + v.minor * 1_000 + v.patch


def decode_model_version(n: int) -> str:
    """Inverse of :func:`encode_model_version` (``1002003`` → ``"1.2.3"``)."""
    return f"{n // 1_000_000}.{n // 1_000 % 1_000}.{n % 1_000}"


@dataclass(frozen=True)
class Change:
    """One difference between the previous release and this one, with its semver impact."""

    kind: str
    subject: str
    impact: str  # major | minor | patch
    message: str
    before: Any = None
    after: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "subject": self.subject,
            "impact": self.impact,
            "message": self.message,
            "before": self.before,
            "after": self.after,
        }


@dataclass
class ReleaseDiff:
    """The diff of this release against the previous one, the bump it needs and the version it suggests."""

    previous_name: str
    previous_version: SemVer
    previous_source: str
    changes: list[Change] = field(default_factory=list)
    forced: bool = False

    @property
    def bump(self) -> str:
        return max((c.impact for c in self.changes), key=_RANK.__getitem__, default="none")

    @property
    def suggested(self) -> SemVer:
        return self.previous_version.bump("patch" if self.bump == "none" else self.bump)

    def to_dict(self) -> dict[str, Any]:
        return {
            "previous_name": self.previous_name,
            "previous_version": str(self.previous_version),
            "previous_source": self.previous_source,
            "bump": self.bump,
            "suggested_version": str(self.suggested),
            "changes": [c.to_dict() for c in self.changes],
            "forced": self.forced,
        }


# -- interface ------------------------------------------------------------------------------------

Dim = int | str | None


def _dim_relation(old: Dim, new: Dim) -> str:
    """same | widened | narrowed | renamed | changed for one dimension."""
    if old == new:
        return "same"
    if isinstance(old, int) and isinstance(new, int):
        return "changed"
    if isinstance(old, int):
        return "widened"  # fixed -> symbolic/unknown
    if isinstance(new, int):
        return "narrowed"  # symbolic/unknown -> fixed
    if old is not None and new is None:
        return "widened"  # named -> unknown
    if old is None:
        return "narrowed"  # unknown -> named (ties the dim to others of that name)
    return "renamed"


def _shape_relation(old: list[Dim] | None, new: list[Dim] | None) -> tuple[str, list[str]]:
    if old == new:
        return "same", []
    if old is None:
        return "narrowed", ["the shape became known"]
    if new is None:
        return "widened", ["the shape became unknown"]
    if len(old) != len(new):
        return "changed", [f"rank {len(old)} → {len(new)}"]
    rels = [(i, _dim_relation(a, b), a, b) for i, (a, b) in enumerate(zip(old, new, strict=True))]
    kinds = {r for _i, r, _a, _b in rels if r != "same"}
    notes = [f"dim {i}: {a!r} → {b!r}" for i, r, a, b in rels if r != "same"]
    if "changed" in kinds or {"widened", "narrowed"} <= kinds:
        return "changed", notes
    for k in ("widened", "narrowed", "renamed"):
        if k in kinds:
            return k, notes
    return "same", []


def _sig(v: dict[str, Any]) -> tuple[Any, ...]:
    shape = v.get("shape")
    return (v.get("elem_type"), tuple(shape) if isinstance(shape, list) else None)


def _widened_inputs(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> dict[str, set[int]]:
    """Symbolic dims that replaced a fixed size on an input kept from the previous release: name → the old sizes."""
    new_by = {v["name"]: v for v in new}
    found: dict[str, set[int]] = {}
    for a in old:
        b = new_by.get(a["name"])
        sa, sb = a.get("shape"), (b or {}).get("shape")
        if b is None or not isinstance(sa, list) or not isinstance(sb, list) or len(sa) != len(sb):
            continue
        for x, y in zip(sa, sb, strict=True):
            if isinstance(x, int) and isinstance(y, str):
                found.setdefault(y, set()).add(x)
    return found


def _dynamic_inputs(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> set[str]:
    """Symbolic dims of inputs kept from the previous release that were already symbolic (or unknown) there: the
    names of axes callers could already size freely (a batch axis exported dynamic in both releases)."""
    new_by = {v["name"]: v for v in new}
    found: set[str] = set()
    for a in old:
        b = new_by.get(a["name"])
        sa, sb = a.get("shape"), (b or {}).get("shape")
        if b is None or not isinstance(sa, list) or not isinstance(sb, list) or len(sa) != len(sb):
            continue
        found.update(y for x, y in zip(sa, sb, strict=True) if isinstance(y, str) and not isinstance(x, int))
    return found


def _follows_inputs(old: list[Dim] | None, new: list[Dim] | None, widened: dict[str, set[int]],
                    dynamic: set[str] | frozenset[str] = frozenset()) -> str | None:  # fmt: skip
    """Whether every dim of an output that went fixed → symbolic took the name of an input dim: "widened" when each
    took a widened input dim of the same old size (the output only grows where callers now may pass more; its old
    shape comes back for the old input), "dynamic" when some took a dim the input already had symbolic in the previous
    release (the old fixed size was the exporter's traced size: the same input gave the same output shape then);
    None when any other dim moved."""
    if not isinstance(old, list) or not isinstance(new, list) or len(old) != len(new):
        return None
    moved = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    if not moved or not all(isinstance(a, int) and isinstance(b, str) for a, b in moved):
        return None
    if all(a in widened.get(str(b), ()) for a, b in moved):
        return "widened"
    if all(a in widened.get(str(b), ()) or b in dynamic for a, b in moved):
        return "dynamic"
    return None


def _diff_values(
    kind: str, old: list[dict[str, Any]], new: list[dict[str, Any]], widened: dict[str, set[int]] | None = None,
    dynamic: set[str] | None = None,
) -> list[Change]:
    """Diff the inputs (kind "input") or outputs (kind "output") of two interfaces; ``widened`` (for outputs): the
    inputs' dims that went fixed → symbolic (:func:`_widened_inputs`); ``dynamic``: the inputs' dims symbolic in
    both (:func:`_dynamic_inputs`)."""
    old_by = {v["name"]: v for v in old}
    new_by = {v["name"]: v for v in new}
    out = _membership(kind, old, new)
    common_old = [v["name"] for v in old if v["name"] in new_by]
    common_new = [v["name"] for v in new if v["name"] in old_by]
    if common_old != common_new:
        out.append(Change(f"{kind}s_reordered", kind, "major",
                          f"the {kind}s are in a different order (callers binding by position break)",
                          common_old, common_new))  # fmt: skip
    for name in common_old:
        out += _value_changes(kind, name, old_by[name], new_by[name], widened or {}, dynamic or set())
    return out


def _membership(kind: str, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[Change]:
    """Values renamed, removed and added."""
    out: list[Change] = []
    old_names = {v["name"] for v in old}
    new_names = {v["name"] for v in new}
    removed = [v for v in old if v["name"] not in new_names]
    added = [v for v in new if v["name"] not in old_names]
    # A removed and an added value of identical type and shape at the same position: a rename.
    for r in list(removed):
        pos = old.index(r)
        cand = next((a for a in added if new.index(a) == pos and _sig(a) == _sig(r)), None)
        if cand is not None:
            removed.remove(r)
            added.remove(cand)
            out.append(Change(f"{kind}_renamed", r["name"], "major",
                              f"{kind} {r['name']!r} was renamed to {cand['name']!r}", r["name"], cand["name"]))
    for r in removed:
        out.append(Change(f"{kind}_removed", r["name"], "major", f"{kind} {r['name']!r} was removed", r, None))
    for a in added:
        if kind == "output":
            out.append(Change("output_added", a["name"], "minor", f"new output {a['name']!r}", None, a))
        elif a.get("optional"):
            out.append(Change("input_added_optional", a["name"], "minor",
                              f"new optional input {a['name']!r} (has a default)", None, a))
        else:
            out.append(Change("input_added_required", a["name"], "major",
                              f"new required input {a['name']!r}: existing callers do not pass it", None, a))
    return out


_SHAPE_WORDS = {
    "renamed": "symbolic dimension renamed",
    "widened": "shape widened",
    "narrowed": "shape narrowed",
    "changed": "shape changed",
}


def _value_changes(kind: str, name: str, a: dict[str, Any], b: dict[str, Any],
                   widened: dict[str, set[int]], dynamic: set[str]) -> list[Change]:  # fmt: skip
    """How one input or output present in both interfaces changed: element type, shape, default."""
    out: list[Change] = []
    if a.get("elem_type") != b.get("elem_type"):
        out.append(Change(f"{kind}_type_changed", name, "major",
                          f"{kind} {name!r} element type {a.get('elem_type')} → {b.get('elem_type')}",
                          a.get("elem_type"), b.get("elem_type")))  # fmt: skip
    rel, notes = _shape_relation(a.get("shape"), b.get("shape"))
    if rel != "same":
        compatible = "widened" if kind == "input" else "narrowed"
        impact = "patch" if rel == "renamed" else "minor" if rel == compatible else "major"
        what = _SHAPE_WORDS[rel]
        follows = _follows_inputs(a.get("shape"), b.get("shape"), widened, dynamic) if kind == "output" else None
        if rel == "widened" and follows == "widened":
            impact, what = "minor", "shape widened with the input it follows (the old input gives the old shape)"
        elif rel == "widened" and follows == "dynamic":
            impact, what = "minor", ("shape widened to the input dimension it follows, which was already dynamic "
                                     "(the old fixed size was the exported one; the same input gives the same shape)")
        out.append(Change(f"{kind}_shape_{rel}", name, impact, f"{kind} {name!r}: {what} ({'; '.join(notes)})",
                          a.get("shape"), b.get("shape")))  # fmt: skip
    if a.get("optional") and not b.get("optional") and kind == "input":
        out.append(Change("input_now_required", name, "major", f"input {name!r} lost its default", True, False))
    return out


def diff_interfaces(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """Changes between two interfaces (dicts with ``inputs`` and ``outputs`` lists)."""
    old_in, new_in = list(old.get("inputs", [])), list(new.get("inputs", []))
    widened, dynamic = _widened_inputs(old_in, new_in), _dynamic_inputs(old_in, new_in)
    return _diff_values("input", old_in, new_in) + _diff_values(
        "output", list(old.get("outputs", [])), list(new.get("outputs", [])), widened, dynamic
    )


def _ort_key(v: str | None) -> tuple[int, ...] | None:
    return tuple(int(p) for p in v.split(".")) if v else None


def diff_manifests(previous: dict[str, Any], current: dict[str, Any], *, source: str = "") -> ReleaseDiff:
    """Diff a previous bundle's manifest with the manifest being built (interface, runtime, content)."""
    diff = ReleaseDiff(
        previous["model"]["name"], parse_semver(previous["model"]["version"], "the previous version"), source
    )
    old_i, new_i = previous["inspection"], current["inspection"]
    diff.changes += diff_interfaces(old_i, new_i)
    old_ort = _ort_key(previous["compatibility"].get("oldest_ort"))
    new_ort = _ort_key(current["compatibility"].get("oldest_ort"))
    if old_ort and new_ort and new_ort > old_ort:
        diff.changes.append(
            Change(
                "runtime_raised",
                "oldest_ort",
                "major",
                f"needs ONNX Runtime {current['compatibility']['oldest_ort']} or newer "
                f"(was {previous['compatibility']['oldest_ort']}): it no longer loads where the previous release did",
                previous["compatibility"]["oldest_ort"],
                current["compatibility"]["oldest_ort"],
            )
        )
    elif old_ort and new_ort and new_ort < old_ort:
        diff.changes.append(
            Change(
                "runtime_lowered",
                "oldest_ort",
                "patch",
                f"loads in ONNX Runtime {current['compatibility']['oldest_ort']} and newer "
                f"(was {previous['compatibility']['oldest_ort']})",
                previous["compatibility"]["oldest_ort"],
                current["compatibility"]["oldest_ort"],
            )
        )
    if old_i.get("opsets") != new_i.get("opsets"):
        diff.changes.append(
            Change(
                "opsets_changed",
                "opsets",
                "patch",
                "the opset imports changed",
                old_i.get("opsets"),
                new_i.get("opsets"),
            )
        )
    if old_i.get("metadata") != new_i.get("metadata"):
        diff.changes.append(
            Change(
                "metadata_changed",
                "metadata",
                "patch",
                "the metadata properties changed",
                old_i.get("metadata"),
                new_i.get("metadata"),
            )
        )
    old_src = {f["sha256"] for f in previous["provenance"]["files"]}
    new_src = {f["sha256"] for f in current["provenance"]["files"]}
    if old_src != new_src:
        diff.changes.append(
            Change(
                "content_changed",
                "weights",
                "patch",
                "the model's weights or graph changed (source files differ)",
                sorted(old_src),
                sorted(new_src),
            )
        )
    return diff


def _suggested_for(bump: str) -> str:
    """Why ``suggested`` is what it is, in words: "suggested for a minor change", "the next patch version: nothing
    changed"."""
    return "the next patch version: nothing changed" if bump == "none" else f"suggested for a {bump} change"


def check_new_version(requested: SemVer, diff: ReleaseDiff, *, force: bool = False) -> list[Finding]:
    """Refuse a version not above the previous one (unless ``force``); warn about an under-bump."""
    findings: list[Finding] = []
    prev = diff.previous_version
    if requested <= prev:
        if not force:
            raise codes.VERSION_NOT_GREATER.error(version=str(requested), previous=str(prev),
                                                  suggested=str(diff.suggested), why=_suggested_for(diff.bump))
        diff.forced = True
        findings.append(codes.VERSION_NOT_GREATER.finding("version", variant="forced", version=str(requested),
                                                          previous=str(prev), suggested=str(diff.suggested)))
    elif (requested.major, requested.minor, requested.patch) < (
        diff.suggested.major,
        diff.suggested.minor,
        diff.suggested.patch,
    ):
        changes = "; ".join(c.message for c in diff.changes if c.impact == diff.bump)[:500]
        findings.append(codes.VERSION_UNDERBUMP.finding("version", version=str(requested), bump=diff.bump,
                                                        suggested=str(diff.suggested), changes=changes))
    return findings
