"""The words for where a tensor sits in a model ("attribute 'value' of node 'c1'", "graph 'main'"), from the place a
walk found it at (core/model/tensors.py): ``(parent place, parent message, field, index)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from google.protobuf.message import Message
from onnx import (
    AttributeProto,
    FunctionProto,
    GraphProto,
    ModelProto,
    NodeProto,
    SparseTensorProto,
    TrainingInfoProto,
)

__all__ = ["Where", "word"]


class Where:
    """The words of a place (a plain class, not a dataclass: a dataclass is made at every command's start-up)."""

    __slots__ = ("graph", "init", "node", "where")

    def __init__(self, where: str = "", graph: str = "", init: bool = False, node: str = "") -> None:
        self.where = where
        self.graph = graph
        self.init = init
        self.node = node  # the node (or function attribute) an attribute belongs to


def _place(parent: Message, field: str, index: int, child: Message, at: Where) -> Where:
    """Where ``child`` = ``parent.field[index]`` sits, in the words of the messages users see (any place not named
    here is labelled by its field name, and walked all the same)."""
    place = _PLACES.get(type(parent))
    return place(parent, field, index, child, at) if place is not None else _elsewhere(field, at)


def _elsewhere(field: str, at: Where) -> Where:
    return Where(f"{at.where} {field}".strip(), at.graph, at.init, at.node)


def _in_model(parent: Any, field: str, index: int, child: Any, at: Where) -> Where:
    if field == "graph":
        return Where(graph=f"graph '{parent.graph.name or 'main'}'")
    if field == "functions":
        return Where(graph=f"function '{child.domain}.{child.name}'")
    if field == "training_info":
        return Where(graph=f"training_info[{index}]")
    return _elsewhere(field, at)


def _in_training_info(parent: Any, field: str, index: int, child: Any, at: Where) -> Where:
    return Where(graph=f"{at.graph} {field}")


def _in_graph(parent: Any, field: str, index: int, child: Any, at: Where) -> Where:
    if field == "initializer":
        return Where("initializer", at.graph, True)
    if field == "sparse_initializer":
        return Where("sparse initializer", at.graph, True)
    return Where(graph=at.graph)


def _in_node(parent: Any, field: str, index: int, child: Any, at: Where) -> Where:
    label = parent.name or parent.op_type
    return Where(graph=at.graph, node=f"node '{label}' ({parent.op_type})", where=label)


def _in_function(parent: Any, field: str, index: int, child: Any, at: Where) -> Where:
    if field == "attribute_proto":
        return Where(f"default of attribute '{child.name}'", at.graph, node=f"default of attribute '{child.name}'")
    return Where(graph=at.graph)


def _in_attribute(parent: Any, field: str, index: int, child: Any, at: Where) -> Where:
    attr = f"attribute '{parent.name}' of {at.node}" if at.node.startswith("node ") else at.node
    if field in ("g", "graphs"):
        owner = at.where if at.node.startswith("node ") else parent.name
        return Where(graph=f"subgraph '{child.name or parent.name}' of node '{owner}'")
    if field in ("sparse_tensor", "sparse_tensors"):
        return Where(attr + " sparse", at.graph)
    return Where(attr, at.graph)


def _in_sparse_tensor(parent: Any, field: str, index: int, child: Any, at: Where) -> Where:
    return Where(f"{at.where} {field}", at.graph, at.init)


#: How each kind of message names the place of a message inside it (by the parent's exact type).
_PLACES: dict[type, Callable[[Any, str, int, Any, Where], Where]] = {
    ModelProto: _in_model,
    TrainingInfoProto: _in_training_info,
    GraphProto: _in_graph,
    NodeProto: _in_node,
    FunctionProto: _in_function,
    AttributeProto: _in_attribute,
    SparseTensorProto: _in_sparse_tensor,
}


def word(ctx: Any, cache: dict[int, tuple[Any, Where]]) -> Where:
    """The :class:`Where` of a place, computed once per place from the root down (the cache keeps each place
    alive, so an id is never reused for another place)."""
    chain = []
    while ctx is not None and not (id(ctx) in cache and cache[id(ctx)][0] is ctx):
        chain.append(ctx)
        ctx = ctx[0]
    at = cache[id(ctx)][1] if ctx is not None else Where()
    for c in reversed(chain):
        _up, parent_msg, name, index = c
        value = getattr(parent_msg, name)
        child = value if isinstance(value, Message) else value[index]
        at = _place(parent_msg, name, index, child, at)
        cache[id(c)] = (c, at)
    return at
