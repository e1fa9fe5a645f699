"""Facts about a model's outputs (inside the smoke child): their digest, a description, a comparison of two."""

from __future__ import annotations

import hashlib
import math
from typing import Any

import numpy as np

__all__ = ["compare_values", "describe_output", "digest"]


def _hash_into(h: Any, value: Any) -> None:
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "OUS":
            for item in value.reshape(-1, order="C"):
                raw = (item.decode("utf-8", "surrogateescape") if isinstance(item, bytes) else str(item)).encode(
                    "utf-8", "surrogateescape"
                )
                h.update(len(raw).to_bytes(8, "little"))
                h.update(raw)
        else:
            h.update(np.ascontiguousarray(value).data)
    elif isinstance(value, (list, tuple)):
        h.update(b"[%d" % len(value))
        for v in value:
            _hash_into(h, np.asarray(v))
    elif isinstance(value, dict):
        h.update(b"{%d" % len(value))
        for k in sorted(value, key=repr):
            h.update(repr(k).encode("utf-8"))
            _hash_into(h, np.asarray(value[k]))
    else:
        _hash_into(h, np.asarray(value))


def digest(value: Any) -> str:
    """SHA-256 of an output's bytes.

    Tensors: the raw bytes of the array in C (row-major) order and its native little-endian dtype
    (``numpy.ascontiguousarray(a).tobytes()``); shape and dtype are reported separately. String
    tensors: each element (C order) as UTF-8, prefixed by its byte length as 8-byte little-endian.
    Sequences/maps: a canonical concatenation of their elements.
    """
    h = hashlib.sha256()
    _hash_into(h, value)
    return h.hexdigest()


def _float_or_none(x: Any) -> float | None:
    v = float(x)
    return v if math.isfinite(v) else None


def _float_text(x: Any) -> float | str:
    """A float value for JSON: itself when finite, else ``"NaN"``, ``"Inf"`` or ``"-Inf"`` (JSON has no such number;
    a message must not say "None")."""
    v = complex(x).real if isinstance(x, complex) else float(x)
    if math.isfinite(v):
        return v
    return "NaN" if math.isnan(v) else ("Inf" if v > 0 else "-Inf")


def describe_output(name: str, value: Any, elem_type: str) -> dict[str, Any]:
    """Facts about one output: type, shape, finiteness, constancy, digest (JSON-safe)."""
    d: dict[str, Any] = {"name": name, "elem_type": elem_type, "sha256": digest(value)}
    if not isinstance(value, np.ndarray):
        d.update(dtype=type(value).__name__, shape=None, finite=None, nan_count=0, inf_count=0, constant=None,
                 min=None, max=None, size=len(value) if hasattr(value, "__len__") else None)
        return d
    a = value
    d.update(
        dtype="string" if a.dtype.kind in "OUS" else str(a.dtype), shape=[int(s) for s in a.shape], size=int(a.size)
    )
    nan = inf = 0
    finite: bool | None = None
    lo = hi = None
    if a.dtype.kind in "fc":
        nan = int(np.count_nonzero(np.isnan(a)))
        inf = int(np.count_nonzero(np.isinf(a)))
        finite = nan == 0 and inf == 0
        fin = a[np.isfinite(a)] if not finite else a
        if fin.size:
            lo, hi = _float_or_none(np.min(fin)), _float_or_none(np.max(fin))
    elif a.dtype.kind in "iub" and a.size:
        lo, hi = float(np.min(a)), float(np.max(a))
    constant: bool | None = None
    if a.size > 1:
        flat = a.reshape(-1)
        constant = True if a.dtype.kind in "fc" and nan == a.size else bool(np.all(flat == flat[0]))
    d.update(finite=finite, nan_count=nan, inf_count=inf, constant=constant, min=lo, max=hi)
    if constant:
        first = a.reshape(-1)[0]
        d["constant_value"] = (
            str(first) if a.dtype.kind in "OUS" else (_float_text(first) if a.dtype.kind in "fc" else first.item())
        )
    return d


def compare_values(name: str, a: Any, b: Any, atol: float, rtol: float) -> dict[str, Any]:
    """Compare one output of the original (``a``) with the other model's (``b``).

    Pass line (numpy.isclose with ``a`` as reference): ``|b - a| <= atol + rtol * |a|``, NaN only
    where the original has NaN, infinities equal. ``max_rel`` is ``max |b - a| / |a|`` over elements
    with ``a != 0``. ``problem`` says in English why the output cannot be compared (the command line's table and
    ``--json`` show it); ``differs`` says it as data (COMPARE_MISMATCH's variant, ``kind``, and the values it names).
    """
    r: dict[str, Any] = {"name": name, "bitwise_equal": False, "max_abs": None, "max_rel": None,
                         "mismatched": None, "within_tolerance": False, "problem": None}
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
        eq = digest(a) == digest(b)
        r.update(bitwise_equal=eq, within_tolerance=eq, problem=None if eq else "non-tensor outputs differ")
        if not eq:
            r["differs"] = {"kind": "non_tensor"}
        return r
    if a.shape != b.shape:
        r["problem"] = f"shape {list(a.shape)} vs {list(b.shape)}"
        r["differs"] = {"kind": "shape", "original": str(list(a.shape)), "other": str(list(b.shape))}
        return r
    a_str, b_str = a.dtype.kind in "OUS", b.dtype.kind in "OUS"
    if a.dtype != b.dtype and not (a_str and b_str):
        r["problem"] = f"dtype {a.dtype} vs {b.dtype}"
        r["differs"] = {"kind": "dtype", "original": str(a.dtype), "other": str(b.dtype)}
        return r
    if a_str:
        eq = digest(a) == digest(b)
        mism = int(np.count_nonzero(a.astype(str) != b.astype(str))) if a.size else 0
        r.update(bitwise_equal=eq, within_tolerance=eq, mismatched=mism)
        if not eq:
            r["differs"] = {"kind": "strings", "mismatched": mism}
        return r
    bitwise = bool(np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes())
    r["bitwise_equal"] = bitwise
    if bitwise:
        r.update(max_abs=0.0, max_rel=0.0, mismatched=0, within_tolerance=True)
        return r
    af, bf = a.astype(np.float64), b.astype(np.float64)
    nan_a, nan_b = np.isnan(af), np.isnan(bf)
    same_special = (nan_a & nan_b) | (np.isinf(af) & (af == bf))
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.where(same_special, 0.0, np.abs(bf - af))
    diff = np.where(nan_a ^ nan_b, np.inf, diff)
    fin = diff[np.isfinite(diff)]
    r["max_abs"] = float(fin.max()) if fin.size else 0.0
    nz = (af != 0) & np.isfinite(af) & np.isfinite(diff)
    r["max_rel"] = float((diff[nz] / np.abs(af[nz])).max()) if np.any(nz) else 0.0
    ok = diff <= atol + rtol * np.abs(np.where(np.isfinite(af), af, 0.0))
    mism = int(np.count_nonzero(~ok))
    r["mismatched"] = mism
    r["within_tolerance"] = mism == 0
    if not np.all(np.isfinite(diff)):
        r["problem"] = "NaN/Inf in different places"
        r["differs"] = {"kind": "non_finite"}
    return r
