"""The bundle manifest (schema "onnxpack.manifest/1"): strict JSON, schema validation, building.

The schema lives in ``resources/manifest.schema.json`` (JSON Schema draft 2020-12) and is the single
source of truth: the tests validate manifests with the ``jsonschema`` package, and at run time this
module checks the same file with a small built-in validator, because ``jsonschema`` is only a
development dependency of onnxpack. The validator implements exactly the keywords the schema uses
(listed in ``_KEYWORDS``) and refuses a schema that uses any other, so the two can't silently drift.
"""

from __future__ import annotations

import datetime as _dt
import functools
import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from .. import __version__, strictjson
from ..resources import resource_path
from . import codes

__all__ = [
    "MANIFEST_NAME",
    "MANIFEST_SCHEMA",
    "MAX_MANIFEST_BYTES",
    "MODEL_SECTIONS",
    "RELEASE_SCHEMA",
    "ROLES",
    "SCHEMAS",
    "dumps_manifest",
    "iso_utc",
    "load_release_schema",
    "load_schema",
    "loads_strict",
    "model_views",
    "parse_manifest",
    "schema_errors",
    "tool_info",
]

MANIFEST_SCHEMA = "onnxpack.manifest/1"
MANIFEST_NAME = "manifest.json"
#: A release of several files (models and assets): ``models[]`` (each what schema 1 says of its one model),
#: ``assets[]`` and ``skipped[]``. Schema-1 bundles still verify.
RELEASE_SCHEMA = "onnxpack.manifest/2"
SCHEMAS = (MANIFEST_SCHEMA, RELEASE_SCHEMA)
#: What schema 2 says of each model: the sections schema 1 has for its one model.
MODEL_SECTIONS = ("model", "inspection", "compatibility", "smoke", "ort_format", "provenance", "findings", "fixes",
                  "prove_ort")
#: A manifest larger than this is refused before it is read (it lists a handful of files).
MAX_MANIFEST_BYTES = 16 * 2**20
#: Roles a bundle member can have (``files[].role``).
ROLES = ("model", "external-data", "ort-model", "ort-config", "readme", "checksums", "smoke-input", "smoke-output",
         "asset")

_KEYWORDS = frozenset(
    {
        "$schema",
        "$id",
        "$ref",
        "$defs",
        "title",
        "description",
        "type",
        "const",
        "enum",
        "anyOf",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "maxItems",
    }
)


def tool_info() -> dict[str, str]:
    return {"name": "onnxpack", "version": __version__}


def iso_utc(epoch: int) -> str:
    """``2024-01-02T03:04:05Z`` for a Unix time."""
    return _dt.datetime.fromtimestamp(epoch, _dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- strict JSON ---------------------------------------------------------------------------------


def loads_strict(data: bytes, what: str = MANIFEST_NAME) -> Any:
    """Parse UTF-8 JSON, rejecting duplicate keys, NaN/Infinity, bad UTF-8 and absurd nesting."""
    if len(data) > MAX_MANIFEST_BYTES:
        raise codes.MANIFEST_TOO_LARGE.error(file=what, size=len(data), limit=MAX_MANIFEST_BYTES)
    try:
        return strictjson.loads(data)
    except (ValueError, RecursionError) as e:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise codes.MANIFEST_JSON.error(file=what, reason=str(e)) from None


def dumps_manifest(doc: Mapping[str, Any]) -> bytes:
    """Canonical bytes of a manifest: UTF-8, 2-space indent, key order as built, trailing newline."""
    return (json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


# -- schema --------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def load_schema() -> dict[str, Any]:
    """The manifest JSON Schema shipped in resources/."""
    raw = resource_path("manifest.schema.json").read_bytes()
    schema = loads_strict(raw, "manifest.schema.json")
    assert isinstance(schema, dict)
    _check_keywords(schema)
    return schema


@functools.lru_cache(maxsize=1)
def load_release_schema() -> dict[str, Any]:
    """Schema 2 (a release of several files), derived from schema 1's file: its sections of a model are each
    ``models[]`` item's, its definitions are shared (one source of truth for both)."""
    one = load_schema()
    props = one["properties"]
    model_doc = {"type": "object", "additionalProperties": False,
                 "required": [k for k in one["required"] if k in MODEL_SECTIONS],
                 "properties": {k: props[k] for k in MODEL_SECTIONS}}
    paths = {"type": "array", "items": {"$ref": "#/$defs/path"}}
    asset = {"type": "object", "additionalProperties": False, "required": ["path", "role", "size", "sha256"],
             "properties": {"path": {"$ref": "#/$defs/path"},
                            "role": {"enum": ["label-map", "tokenizer", "config", "other"]},
                            "size": {"$ref": "#/$defs/int64"}, "sha256": {"$ref": "#/$defs/sha256"}}}
    skipped = {"type": "object", "additionalProperties": False, "required": ["path", "reason"],
               "properties": {"path": {"type": "string", "minLength": 1, "maxLength": 4096},
                              "reason": {"type": "string", "minLength": 1, "maxLength": 200}}}
    bundle = {"type": "object", "additionalProperties": False, "required": ["name", "version", "root", "models"],
              "properties": {"name": {"$ref": "#/$defs/name"}, "version": {"$ref": "#/$defs/semver"},
                             "root": {"type": "string", "maxLength": 255}, "models": paths}}
    schema = {
        "type": "object", "additionalProperties": False,
        "required": ["schema", "tool", "created", "bundle", "files", "models", "assets", "skipped", "findings",
                     "release"],
        "properties": {
            "schema": {"const": RELEASE_SCHEMA}, "tool": props["tool"], "created": props["created"],
            "created_from": props["created_from"], "bundle": bundle, "files": props["files"],
            "models": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/model_doc"}},
            "assets": {"type": "array", "items": {"$ref": "#/$defs/asset"}},
            "skipped": {"type": "array", "items": {"$ref": "#/$defs/skipped"}},
            "findings": props["findings"], "release": props["release"], "about": props["about"],
            "signature": props["signature"],
        },
        "$defs": {**one["$defs"], "model_doc": model_doc, "asset": asset, "skipped": skipped},
    }  # fmt: skip
    _check_keywords(schema)
    return schema


def model_views(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each model of a manifest as a schema-1 document (the release's own sections with that model's): what the
    per-model checks of verify read. A schema-1 manifest is its own one view."""
    if doc.get("schema") != RELEASE_SCHEMA:
        return [dict(doc)]
    shared = {k: v for k, v in doc.items() if k not in ("models", "assets", "skipped", "bundle", "findings")}
    return [{**shared, "schema": MANIFEST_SCHEMA, "prove_ort": None, **m} for m in doc.get("models", [])]


def _check_keywords(node: Any, where: str = "#") -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in _KEYWORDS:
                raise RuntimeError(f"manifest schema uses {key!r} at {where}, which the built-in validator lacks")
            if key in ("properties", "$defs"):
                for name, sub in value.items():
                    _check_keywords(sub, f"{where}/{key}/{name}")
            elif key in ("items", "additionalProperties"):
                _check_keywords(value, f"{where}/{key}")
            elif key == "anyOf":
                for i, sub in enumerate(value):
                    _check_keywords(sub, f"{where}/anyOf/{i}")


_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _equal(a: Any, b: Any) -> bool:
    # JSON equality: True is not 1.
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else bool(a == b)


# Each keyword's check: (node, schema, root, where, errors) -> True when the rest of the schema does not apply.
_Check = Callable[[Any, Mapping[str, Any], Mapping[str, Any], str, list[str]], bool]


def _check_ref(node: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str, errors: list[str]) -> bool:
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise RuntimeError(f"unsupported $ref {ref!r}")
        _validate(node, root["$defs"][ref[len("#/$defs/") :]], root, where, errors)
    return False


def _check_any_of(node: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str,
                  errors: list[str]) -> bool:
    if "anyOf" not in schema:
        return False
    trials: list[list[str]] = []
    for sub in schema["anyOf"]:
        trial: list[str] = []
        _validate(node, sub, root, where, trial)
        if not trial:
            return False
        trials.append(trial)
    # The one form whose type matched (e.g. the object of "null or object") says what is wrong inside it.
    typed = [t for t in trials if not t[0].startswith(f"{where}: expected ")]
    if len(typed) == 1:
        errors.extend(typed[0])
    else:
        errors.append(f"{where}: {json.dumps(node, ensure_ascii=False)[:80]} matches none of the allowed forms")
    return False


def _check_type(node: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str, errors: list[str]) -> bool:
    if "type" not in schema:
        return False
    types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    if any(_TYPES[t](node) for t in types):
        return False
    errors.append(f"{where}: expected {' or '.join(types)}, got {json.dumps(node, ensure_ascii=False)[:80]}")
    return True


def _check_value(node: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str,
                 errors: list[str]) -> bool:
    if "const" in schema and not _equal(node, schema["const"]):
        errors.append(f"{where}: must be {json.dumps(schema['const'])}")
    if "enum" in schema and not any(_equal(node, e) for e in schema["enum"]):
        errors.append(f"{where}: {json.dumps(node, ensure_ascii=False)[:80]} is not one of {schema['enum']}")
    return False


def _check_string(node: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str,
                  errors: list[str]) -> bool:
    if not isinstance(node, str):
        return False
    if "minLength" in schema and len(node) < schema["minLength"]:
        errors.append(f"{where}: shorter than {schema['minLength']} characters")
    if "maxLength" in schema and len(node) > schema["maxLength"]:
        errors.append(f"{where}: longer than {schema['maxLength']} characters")
    if "pattern" in schema and not _pattern(schema["pattern"]).search(node):
        errors.append(f"{where}: {node[:80]!r} does not have the required form")
    return False


def _check_number(node: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str,
                  errors: list[str]) -> bool:
    if not _TYPES["number"](node):
        return False
    if "minimum" in schema and node < schema["minimum"]:
        errors.append(f"{where}: {node} is below the minimum {schema['minimum']}")
    if "maximum" in schema and node > schema["maximum"]:
        errors.append(f"{where}: {node} is above the maximum {schema['maximum']}")
    return False


def _check_array(node: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str,
                 errors: list[str]) -> bool:
    if not isinstance(node, list):
        return False
    if "minItems" in schema and len(node) < schema["minItems"]:
        errors.append(f"{where}: needs at least {schema['minItems']} item(s)")
    if "maxItems" in schema and len(node) > schema["maxItems"]:
        errors.append(f"{where}: has more than {schema['maxItems']} item(s)")
    if "items" in schema:
        for i, item in enumerate(node):
            _validate(item, schema["items"], root, f"{where}[{i}]", errors)
    return False


def _check_object(node: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str,
                  errors: list[str]) -> bool:
    if not isinstance(node, dict):
        return False
    props = schema.get("properties", {})
    for key in schema.get("required", []):
        if key not in node:
            errors.append(f"{where}: required key {key!r} is missing")
    extra = schema.get("additionalProperties", True)
    for key, value in node.items():
        sub = f"{where}.{key}"
        if key in props:
            _validate(value, props[key], root, sub, errors)
        elif extra is False:
            errors.append(f"{where}: unexpected key {key!r}")
        elif isinstance(extra, dict):
            _validate(value, extra, root, sub, errors)
    return False


#: The checks in the order their errors are reported (a wrong type stops the rest).
_CHECKS: tuple[_Check, ...] = (_check_ref, _check_any_of, _check_type, _check_value, _check_string, _check_number,
                               _check_array, _check_object)  # fmt: skip
@functools.lru_cache(maxsize=64)
def _pattern(pattern: str) -> re.Pattern[str]:
    """A schema ``pattern`` with JSON Schema's (ECMA-262's) meaning of ``$``, the end of the string: Python's ``$``
    also matches before a final line feed, which let "1.0.0\\n" pass ``^...$``. ``$`` outside a character class
    becomes ``\\Z``."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        out.append("\\Z" if c == "$" and not in_class else c)
        i += 1
    return re.compile("".join(out))




def _validate(node: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str, errors: list[str]) -> None:
    for check in _CHECKS:
        if check(node, schema, root, where, errors):
            return


def schema_errors(doc: Any) -> list[str]:
    """Every way ``doc`` violates the manifest schema (empty list when valid)."""
    errors: list[str] = []
    release = isinstance(doc, dict) and doc.get("schema") == RELEASE_SCHEMA
    schema = load_release_schema() if release else load_schema()
    _validate(doc, schema, schema, "manifest", errors)
    return errors


def parse_manifest(data: bytes, what: str = MANIFEST_NAME) -> dict[str, Any]:
    """Strictly parse and schema-check a manifest; raise InputError naming every violation."""
    doc = loads_strict(data, what)
    if not isinstance(doc, dict) or doc.get("schema") not in SCHEMAS:
        found = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
        raise codes.MANIFEST_SCHEMA.error(variant="foreign", file=what, found=found, expected=MANIFEST_SCHEMA)
    errors = schema_errors(doc)
    if errors:
        raise codes.MANIFEST_SCHEMA.error(variant="listed_more" if len(errors) > 5 else None, file=what,
                                          problems="; ".join(errors[:5]), more=len(errors) - 5)
    return doc
