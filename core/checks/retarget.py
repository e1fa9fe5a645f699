"""Retarget a model for an older ONNX Runtime (``--target-ort X.Y --fix-ir``): lower its IR version and opsets.

Works on the model's skeleton (core/model/skeleton.py): big tensors stay where they are, as external references, and
only the structure is rewritten; the merge then streams the weights as for any other model.

IR lowering. Features of a newer IR that do not change what the model computes are removed, or moved where the
lower IR has a place for them: ``metadata_props`` on graphs, nodes, value_info, tensors and functions (IR 10; the
main graph's move to the model's own ``metadata_props``, which every IR has), and a function's ``value_info``
(IR 10, type annotations only). Every item is recorded (:class:`Dropped`). Anything else a newer IR brought is
semantic (a float8/int4 element type the target's kernels do not have, function overloads, multi-device
configuration) and blocks, naming where it is used.

Opset lowering. When every operator of a domain (main graph, subgraphs, functions) has the same schema at the
target opset (``onnx.defs.get_schema(op, target, domain).since_version`` equals the one at the model's opset),
rewriting ``opset_import`` is exact: ONNX Runtime picks its kernels by exactly that schema version. Otherwise
``onnx.version_converter`` (ai.onnx only) is tried, in a child process (native code, untrusted model); when it
cannot, the nodes that block and the opset are named, with the exporter's own setting as the hint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import onnx
from onnx import AttributeProto, FunctionProto, GraphProto, ModelProto, NodeProto, TypeProto

from ..model.tensors import dtype_name
from . import codes
from .irfeatures import DTYPE_ATTRS, TYPE_IR, element_type_irs, min_ir_for_features

__all__ = ["Dropped", "RetargetResult", "exporter_hint", "retarget_model"]

_AI_ONNX = ("", "ai.onnx")
_ML = "ai.onnx.ml"
#: A recorded value longer than this is cut (its full length is recorded beside it).
_VALUE_CHARS = 160
#: The most dropped or moved items listed one by one (the rest are counted by key: a manifest stays under its cap).
MAX_LISTED_DROPPED = 100
#: The most keys the count of the unlisted items names (the others are counted together).
_MAX_COUNTED_KEYS = 20
CONVERT_TIMEOUT = 120.0  # seconds: the converter runs in a child process


@dataclass(frozen=True)
class Dropped:
    """One item removed (``dropped``) or moved (``moved``, to the model's ``metadata_props``)."""

    action: str
    where: str
    field: str
    key: str
    value: str
    chars: int

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "where": _value(self.where)[0], "field": self.field, "key": _value(self.key)[0],
                "value": self.value, "chars": self.chars}


def _count_by_key(dropped: list[Dropped]) -> str:
    """``pkg.torch.onnx.stack_trace 24,950, namespace 12 (and 3 other keys 7)``: the unlisted items by key (cut), the
    most frequent first, bounded."""
    counts: dict[str, int] = {}
    for d in dropped:
        key = _value(d.key)[0][:80]
        counts[key] = counts.get(key, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    text = ", ".join(f"{key} {n:,}" for key, n in top[:_MAX_COUNTED_KEYS])
    rest = top[_MAX_COUNTED_KEYS:]
    return text + (f" (and {len(rest):,} other keys {sum(n for _k, n in rest):,})" if rest else "")


def dropped_fix(dropped: list[Dropped], ir_before: int, target: str) -> dict[str, Any]:
    """The manifest's IR_FEATURES_DROPPED entry: the first :data:`MAX_LISTED_DROPPED` items whole, the others counted
    by key in its message (bounded whatever the model holds)."""
    more = len(dropped) > MAX_LISTED_DROPPED
    message = codes.IR_FEATURES_DROPPED.message(
        "more" if more else None, count=f"{len(dropped):,}", ir=ir_before, target=target, listed=MAX_LISTED_DROPPED,
        others=f"{len(dropped) - MAX_LISTED_DROPPED:,}", by_key=_count_by_key(dropped[MAX_LISTED_DROPPED:]))
    return {"code": codes.IR_FEATURES_DROPPED.name, "message": message,
            "before": [d.to_dict() for d in dropped[:MAX_LISTED_DROPPED]], "after": None}


@dataclass
class RetargetResult:
    """What retargeting did (``model`` is the rewritten copy) or why it cannot (``blockers``, ``hint``)."""

    target: str
    ir_before: int
    ir_after: int
    opsets_before: dict[str, int]
    opsets_after: dict[str, int]
    opset_method: str  # "unchanged", "exact" (opset_import rewritten) or "version_converter"
    dropped: list[Dropped] = field(default_factory=list)
    blockers: list[str] = field(default_factory=list)
    hint: str = ""
    model: ModelProto | None = None
    converter_pending: bool = False  # analysis only: the converter would have to be tried

    @property
    def possible(self) -> bool:
        return not self.blockers

    @property
    def changed(self) -> bool:
        return self.ir_after != self.ir_before or self.opsets_after != self.opsets_before or bool(self.dropped)

    def summary(self) -> str:
        parts = []
        if self.ir_after != self.ir_before:
            parts.append(f"ir_version {self.ir_before} -> {self.ir_after}")
        for d, v in sorted(self.opsets_after.items()):
            if self.opsets_before.get(d) != v:
                how = "onnx.version_converter" if self.opset_method == "version_converter" else (
                    "the converter, to be tried" if self.converter_pending else "same operator schemas")
                parts.append(f"{d} opset {self.opsets_before.get(d)} -> {v} ({how})")
        if self.dropped:
            moved = sum(1 for d in self.dropped if d.action == "moved")
            parts.append(f"{len(self.dropped) - moved} IR-{self.ir_before}-only metadata item(s) dropped"
                         + (f", {moved} moved to the model's metadata_props" if moved else ""))
        return "; ".join(parts) or "nothing to change"

    def fixes(self) -> list[dict[str, Any]]:
        """The manifest's ``fixes`` entries for what was changed."""
        out: list[dict[str, Any]] = []
        if self.dropped:
            out.append(dropped_fix(self.dropped, self.ir_before, self.target))
        if self.ir_after != self.ir_before:
            out.append({
                "code": codes.IR_LOWERED.name,
                "message": codes.IR_LOWERED.message(before=self.ir_before, after=self.ir_after, target=self.target),
                "before": self.ir_before,
                "after": self.ir_after,
            })
        if self.opsets_after != self.opsets_before:
            variant = "version_converter" if self.opset_method == "version_converter" else None
            out.append({
                "code": codes.OPSET_LOWERED.name,
                "message": codes.OPSET_LOWERED.message(variant, target=self.target),
                "before": dict(self.opsets_before),
                "after": dict(self.opsets_after),
            })
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "target_ort": self.target, "possible": self.possible, "ir_before": self.ir_before,
            "ir_after": self.ir_after, "opsets_before": dict(self.opsets_before),
            "opsets_after": dict(self.opsets_after), "opset_method": self.opset_method,
            "dropped": [d.to_dict() for d in self.dropped[:MAX_LISTED_DROPPED]], "dropped_count": len(self.dropped),
            "blockers": list(self.blockers), "hint": self.hint,
        }


def _key(domain: str) -> str:
    return "ai.onnx" if domain in _AI_ONNX else domain


def _opsets(imports: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for op in imports:
        out[_key(op.domain)] = max(out.get(_key(op.domain), 0), int(op.version))
    return out


def exporter_hint(model: ModelProto, opset: int | None, target: str) -> str:
    """What to do in the exporter that made ``model`` so that ai.onnx ``opset`` (None: no opset issue) is used."""
    producer = model.producer_name.lower()
    newer = f", or require ONNX Runtime newer than {target}"
    if opset is None:
        return f"Re-export the model without that feature{newer}."
    if "pytorch" in producer or "torch" in producer:
        text = f"Re-export with torch.onnx.export(..., opset_version={opset})"
        if opset < 18:
            text += " and dynamo=False (the dynamo exporter writes opset 18 and newer)"
        return text + newer + "."
    if "tf2onnx" in producer:
        return f"Re-convert with tf2onnx --opset {opset}{newer}."
    if "skl2onnx" in producer or "onnxmltools" in producer:
        return f"Re-convert with target_opset={opset}{newer}."
    if "paddle" in producer:
        return f"Re-export with paddle2onnx --opset_version {opset}{newer}."
    return f"Re-export the model for ai.onnx opset {opset}{newer}."


# -- IR features ---------------------------------------------------------------------------------------------


def _value(text: str) -> tuple[str, int]:
    return (text if len(text) <= _VALUE_CHARS else text[:_VALUE_CHARS] + "…"), len(text)


def _node_label(node: NodeProto, where: str) -> str:
    return f"node '{node.name or '(unnamed)'}' ({node.op_type}) in {where}"


class _IrLowering:
    """Removes what ``target_ir`` cannot hold and changes nothing computed; collects what blocks."""

    def __init__(self, model: ModelProto, target_ir: int) -> None:
        self.model = model
        self.target_ir = target_ir
        self.dropped: list[Dropped] = []
        self.blockers: list[str] = []
        self.blocking_ir: int = 0

    def drop_props(self, holder: Any, where: str, what: str, move_to: ModelProto | None = None) -> None:
        if self.target_ir >= 10 or not len(holder.metadata_props):
            return
        present = {p.key for p in move_to.metadata_props} if move_to is not None else set()
        for p in holder.metadata_props:
            value, chars = _value(p.value)
            if move_to is not None and p.key not in present:
                move_to.metadata_props.add(key=p.key, value=p.value)
                present.add(p.key)
                self.dropped.append(Dropped("moved", where, what, p.key, value, chars))
            else:
                self.dropped.append(Dropped("dropped", where, what, p.key, value, chars))
        del holder.metadata_props[:]

    def block(self, text: str, ir: int) -> None:
        if ir > self.target_ir:
            if text not in self.blockers:
                self.blockers.append(text)
            self.blocking_ir = max(self.blocking_ir, ir)

    def elem(self, et: int, where: str) -> None:
        name = dtype_name(et)
        ir = TYPE_IR.get(name)
        if ir is not None:
            self.block(f"{where} uses element type {name} (IR {ir})", ir)

    def type_(self, tp: TypeProto, where: str) -> None:
        stack = [tp]
        while stack:
            t = stack.pop()
            which = t.WhichOneof("value")
            if which == "tensor_type":
                self.elem(t.tensor_type.elem_type, where)
            elif which == "sparse_tensor_type":
                self.elem(t.sparse_tensor_type.elem_type, where)
            elif which == "sequence_type":
                stack.append(t.sequence_type.elem_type)
            elif which == "map_type":
                stack.append(t.map_type.value_type)
            elif which == "optional_type":
                stack.append(t.optional_type.elem_type)

    def tensor(self, t: Any, where: str) -> None:
        self.elem(t.data_type, where)
        self.drop_props(t, where, "metadata_props")

    def graph(self, g: GraphProto, where: str, main: bool) -> None:
        self.drop_props(g, where, "metadata_props", self.model if main else None)
        for t in g.initializer:
            self.tensor(t, f"initializer '{t.name}' of {where}")
        for s in g.sparse_initializer:
            self.tensor(s.values, f"sparse initializer '{s.values.name}' of {where}")
        for kind, vis in (("input", g.input), ("output", g.output), ("value_info", g.value_info)):
            for vi in vis:
                label = f"{kind} '{vi.name}' of {where}"
                self.type_(vi.type, label)
                self.drop_props(vi, label, "metadata_props")
        self.nodes(g.node, where)

    def nodes(self, nodes: Any, where: str) -> None:
        for node in nodes:
            label = _node_label(node, where)
            self.drop_props(node, label, "metadata_props")
            if node.overload:
                self.block(f"{label} calls function overload {node.overload!r} (IR 10)", 10)
            if len(node.device_configurations):
                self.block(f"{label} has a multi-device configuration (IR 11)", 11)
            for attr in node.attribute:
                if attr.name in DTYPE_ATTRS and attr.type == AttributeProto.INT:
                    self.elem(int(attr.i), f"{label} (attribute {attr.name})")
                if attr.HasField("t"):
                    self.tensor(attr.t, f"{label} (attribute {attr.name})")
                for t in attr.tensors:
                    self.tensor(t, f"{label} (attribute {attr.name})")
                if attr.HasField("tp"):
                    self.type_(attr.tp, f"{label} (attribute {attr.name})")
                for sub in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                    self.graph(sub, f"subgraph '{sub.name or attr.name}' of {label}", False)

    def function(self, f: FunctionProto) -> None:
        where = f"function '{f.domain}.{f.name}'"
        self.drop_props(f, where, "metadata_props")
        if self.target_ir < 10 and len(f.value_info):
            for vi in f.value_info:
                value, chars = _value(str(vi.type).strip())
                self.dropped.append(Dropped("dropped", where, "value_info", vi.name, value, chars))
            del f.value_info[:]
        if f.overload:
            self.block(f"{where} is an overload ({f.overload!r}, IR 10)", 10)
        self.nodes(f.node, where)

    def run(self) -> None:
        m = self.model
        self.graph(m.graph, f"graph '{m.graph.name or 'main'}'", True)
        for i, info in enumerate(m.training_info):
            self.graph(info.initialization, f"training_info[{i}] initialization", False)
            self.graph(info.algorithm, f"training_info[{i}] algorithm", False)
        for f in m.functions:
            self.function(f)
        if len(m.configuration):
            self.block("the model has a multi-device configuration (IR 11)", 11)


# -- opsets --------------------------------------------------------------------------------------------------


def _since(op: str, version: int, domain: str) -> int | None:
    try:
        return int(onnx.defs.get_schema(op, version, "" if domain == "ai.onnx" else domain).since_version)
    except Exception:  # onnx.defs.SchemaError: no such operator at that opset
        return None


def _opset_blockers(model: ModelProto, domain: str, goal: int) -> list[str]:
    """Nodes of ``domain`` whose schema differs between the version they are imported at and ``goal``."""
    local = {(f.domain, f.name) for f in model.functions}
    top = _opsets(model.opset_import)
    scopes: list[tuple[str, Any, int | None]] = []

    def graph_nodes(g: GraphProto, where: str, version: int | None) -> None:
        scopes.append((where, g.node, version))

    graph_nodes(model.graph, f"graph '{model.graph.name or 'main'}'", top.get(domain))
    for f in model.functions:
        scopes.append((f"function '{f.domain}.{f.name}'", f.node, _opsets(f.opset_import).get(domain, top.get(domain))))
    out: list[str] = []
    seen: set[tuple[str, int | None, int | None]] = set()
    while scopes:
        where, nodes, version = scopes.pop()
        for node in nodes:
            for attr in node.attribute:
                for sub in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                    scopes.append((f"subgraph '{sub.name or attr.name}' of {_node_label(node, where)}", sub.node,
                                   version))
            if _key(node.domain) != domain or version is None or version <= goal:
                continue
            if (node.domain, node.op_type) in local:
                continue
            now, then = _since(node.op_type, version, domain), _since(node.op_type, goal, domain)
            if now == then and now is not None:
                continue
            key = (node.op_type, now, then)
            label = _node_label(node, where)
            if then is None:
                text = f"{label}: {domain} {node.op_type} does not exist at opset {goal} (it came with opset {now})"
            else:
                text = (f"{label}: {domain} {node.op_type}-{now} (opset {version}) differs from {node.op_type}-{then}"
                        f", the version at opset {goal}")
            if key in seen:
                continue  # one line per operator version; the first node names it
            seen.add(key)
            out.append(text)
    return out


def _set_opset(imports: Any, domain: str, goal: int) -> None:
    for op in imports:
        if _key(op.domain) == domain and op.version > goal:
            op.version = goal


def _convert_in_child(work: str, data: bytes, goal: int) -> bytes:
    from onnx import version_converter

    from .checker_child import _neutralise_tensor_paths

    m = ModelProto()
    m.ParseFromString(data)
    out = version_converter.convert_version(m, goal)
    # The converter's adapters are not all faithful (ReduceMean 18 -> 13 keeps an attribute 13 does not have):
    # a result the checker refuses is no result. Checked with every tensor path pointing at a placeholder of ours.
    checked = ModelProto()
    checked.CopyFrom(out)
    _neutralise_tensor_paths(checked, work)
    try:
        onnx.checker.check_model(checked)
    except onnx.checker.ValidationError as e:
        raise ValueError(f"its result fails the onnx checker: {str(e).strip().splitlines()[0]}") from None
    return bytes(out.SerializeToString())


def _convert(model: ModelProto, goal: int, cancel: Any = None) -> tuple[ModelProto | None, str]:
    """``onnx.version_converter`` to ai.onnx ``goal`` in a child process: the converted model, or why not."""
    from .checker_child import run_in_child

    outcome = run_in_child(_convert_in_child, model.SerializeToString(), goal, timeout=CONVERT_TIMEOUT,
                           cancel=cancel)
    if outcome.status != "ok" or not isinstance(outcome.value, bytes):
        return None, f"onnx.version_converter failed: {outcome.detail or outcome.status}".strip()
    out = ModelProto()
    out.ParseFromString(outcome.value)
    return out, ""


def retarget_model(model: ModelProto, target: str, ir_limit: int, opset_limits: dict[str, int], *,
                   convert: bool = True, cancel: Any = None) -> RetargetResult:
    """Lower ``model`` (not modified) for an ORT release with these limits; ``result.model`` is the new copy.

    ``opset_limits``: highest opset per domain (``ai.onnx``, ``ai.onnx.ml``). ``convert=False`` analyses only:
    when the converter would be needed, ``converter_pending`` is set instead of running it.
    """
    work = ModelProto()
    work.CopyFrom(model)
    before = _opsets(model.opset_import)
    res = RetargetResult(target, int(model.ir_version), int(model.ir_version), before, dict(before), "unchanged")
    torch_hint_opset: int | None = None
    # 1. IR
    if model.ir_version > ir_limit:
        _lower_ir(model, work, res, ir_limit)
    else:
        res.blockers += _newer_types(model, ir_limit, target)
    # 2. opsets
    for domain, goal in sorted(opset_limits.items()):
        have = before.get(domain)
        if have is None or have <= goal:
            continue
        work, blockers = _lower_opset(work, res, domain, goal, convert=convert, cancel=cancel)
        if not blockers:
            continue
        res.blockers += [f"ai.onnx.ml opset {have} -> {goal}: {b}" if domain == _ML else b for b in blockers]
        if domain == "ai.onnx":
            torch_hint_opset = goal
    if torch_hint_opset is not None:
        res.hint = exporter_hint(model, torch_hint_opset, target)
    elif res.blockers and not res.hint:
        res.hint = exporter_hint(model, None, target)
    if res.possible:
        res.model = work
    return res


def _newer_types(model: ModelProto, ir_limit: int, target: str) -> list[str]:
    """A model that declares an IR the target has can still hold tensors of a newer IR's element type (an exporter
    that writes ir_version 7 beside FLOAT4E2M1): nothing lowering changes makes the target know them."""
    return [f"the model declares IR {model.ir_version} but uses element type {name} (IR {ir}), which ONNX Runtime "
            f"{target} does not know" for name, ir in sorted(element_type_irs(model).items()) if ir > ir_limit]


def _lower_ir(model: ModelProto, work: ModelProto, res: RetargetResult, ir_limit: int) -> None:
    """Step 1: lower ``work``'s ir_version to ``ir_limit`` (dropping what the lower IR has no place for), or record
    in ``res`` what blocks it."""
    low = _IrLowering(work, ir_limit)
    low.run()
    res.dropped = low.dropped
    if low.blockers:
        res.blockers += low.blockers
        res.hint = exporter_hint(model, None, res.target)
        return
    need, reasons = min_ir_for_features(work)
    if need > ir_limit:
        res.blockers += [f"the model uses {r}" for r in reasons]
        res.hint = exporter_hint(model, None, res.target)
    else:
        work.ir_version = ir_limit
        res.ir_after = ir_limit


def _lower_opset(work: ModelProto, res: RetargetResult, domain: str, goal: int, *, convert: bool,
                 cancel: Any) -> tuple[ModelProto, list[str]]:
    """Step 2, one domain: lower its opset to ``goal`` exactly, else with onnx.version_converter (ai.onnx only).

    Returns the model to go on with (the converter's copy when it ran) and what blocks (empty when lowered).
    """
    blockers = _opset_blockers(work, domain, goal)
    if not blockers:
        _set_opset(work.opset_import, domain, goal)
        for f in work.functions:
            _set_opset(f.opset_import, domain, goal)
        res.opset_method = "exact" if res.opset_method == "unchanged" else res.opset_method
        res.opsets_after[domain] = goal
        return work, []
    if domain != "ai.onnx" or any(_opsets(f.opset_import).get(domain) for f in work.functions):
        return work, [*blockers, f"onnx.version_converter cannot lower {domain} opsets"
                      + (" inside model-local functions" if domain == "ai.onnx" else "")]
    if not convert:
        res.converter_pending = True
        res.opsets_after[domain] = goal
        res.opset_method = "version_converter"
        return work, []
    converted, why = _convert(work, goal, cancel)
    if converted is not None:
        left = _opset_blockers(converted, domain, goal) if _opsets(converted.opset_import).get(
            domain, 0) > goal else []
        if not left:
            converted.ir_version = work.ir_version
            res.opsets_after[domain] = goal
            res.opset_method = "version_converter"
            return converted, []
        why = "the converted model still uses " + "; ".join(left)
    return work, [*blockers, why]
