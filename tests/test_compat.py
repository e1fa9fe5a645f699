"""ONNX Runtime compatibility: the release table, oldest ORT, --target-ort, and lowering ir_version."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxpack.core.checks import compat
from onnxpack.core.checks.compat import (
    ORT_RELEASES,
    check_target,
    installed_ort_version,
    lower_ir_possible,
    min_ir_for_features,
    oldest_ort,
    parse_version,
    released_limits,
)
from onnxpack.core.checks.ortreleases import ORT_TO_ONNX
from onnxpack.core.errors import InputError
from tests.factory import add_model

ROOT = Path(__file__).resolve().parent.parent
ORT_TO_ONNX_VERSIONS = {row[0] for row in ORT_TO_ONNX}

# ort-compat.md, official table: ORT -> (ai.onnx opset, ai.onnx.ml opset, IR)
OFFICIAL = {
    "1.20": (21, 4, 10), "1.19": (21, 4, 10), "1.18": (21, 4, 10), "1.17": (20, 4, 9), "1.16": (19, 3, 9),
    "1.15": (19, 3, 8), "1.14": (18, 3, 8), "1.13": (17, 3, 8), "1.12": (17, 3, 8), "1.11": (16, 2, 8),
    "1.10": (15, 2, 8), "1.9": (15, 2, 8), "1.8": (14, 2, 7), "1.7": (13, 2, 7), "1.6": (13, 2, 7),
    "1.5": (12, 2, 7), "1.4": (12, 2, 7), "1.3": (12, 2, 7), "1.2": (11, 2, 6), "1.1": (11, 2, 6),
    "1.0": (11, 2, 6),
}
# ort-compat.md, derived rows: ORT -> (ai.onnx opset, IR)
# core/checks/ortreleases.py, rows measured on each release's wheel: ORT -> (ai.onnx opset, IR)
DERIVED = {"1.21": (22, 10), "1.22": (22, 10), "1.23": (23, 11), "1.24": (25, 13), "1.25": (26, 13),
           "1.26": (26, 13), "1.27": (26, 13), "1.28": (26, 13), "1.29": (26, 13), "1.30": (26, 13),
           "1.31": (26, 13), "1.32": (28, 14)}


def test_table_matches_the_reference_document() -> None:
    rows = {r.version: r for r in ORT_RELEASES}
    assert set(rows) >= set(OFFICIAL) | set(DERIVED)
    assert set(rows) - set(OFFICIAL) - set(DERIVED) <= {installed_ort_version()}
    for v, (opset, ml, ir) in OFFICIAL.items():
        r = rows[v]
        assert (r.opset, r.ml_opset, r.ir, r.derived) == (opset, ml, ir, False), v
    for v, (opset, ir) in DERIVED.items():
        r = rows[v]
        assert (r.opset, r.ir, r.derived) == (opset, ir, True), v
    assert [r.key for r in ORT_RELEASES] == sorted(r.key for r in ORT_RELEASES)


def test_limits_come_from_onnx_version_table() -> None:
    vt = {row[0]: row[1:4] for row in onnx.helper.VERSION_TABLE}
    for r in ORT_RELEASES:
        _ir, opset, _ml = vt[r.onnx]
        assert r.opset == opset  # only a few IR/ml figures are overridden by ORT's official table


@pytest.mark.parametrize(
    ("ir", "opsets", "oldest"),
    [
        (8, {"ai.onnx": 17}, "1.12"),
        (6, {"": 11}, "1.0"),
        (7, {"": 11}, "1.3"),  # IR 7 arrived with ORT 1.3
        (3, {"ai.onnx": 7}, "1.0"),
        (9, {"ai.onnx": 19}, "1.16"),  # 1.15 has opset 19 but only IR 8
        (8, {"ai.onnx": 19}, "1.15"),
        (8, {"ai.onnx": 16, "ai.onnx.ml": 3}, "1.12"),  # ORT 1.11 only had ml opset 2
        (10, {"ai.onnx": 21, "ai.onnx.ml": 5}, "1.21"),  # ml 5 only in derived rows
        (13, {"ai.onnx": 26}, "1.25"),
    ],
)
def test_oldest_ort(ir: int, opsets: dict[str, int], oldest: str) -> None:
    r = oldest_ort(ir, opsets)
    assert r.oldest is not None and r.oldest.version == oldest
    assert r.oldest.derived == (oldest in DERIVED)
    assert not r.newer_than_known


def test_newer_than_any_known_release() -> None:
    newest = ORT_RELEASES[-1]
    r = oldest_ort(newest.ir + 1, {"ai.onnx": newest.opset + 1})
    assert r.oldest is None and r.newer_than_known
    assert r.blockers == [f"IR version {newest.ir + 1} > {newest.ir}",
                          f"ai.onnx opset {newest.opset + 1} > {newest.opset}"]


def test_the_installed_onnxruntime_is_a_row_with_its_measured_limits() -> None:
    """The lock's onnxruntime must be in the table with the limits it really has (requirements/probe_ort.py)."""
    installed = installed_ort_version()
    assert installed is not None
    probe = subprocess.run([sys.executable, str(ROOT / "requirements" / "probe_ort.py"), "--json"],
                           capture_output=True, text=True, check=True, timeout=120)
    measured = json.loads(probe.stdout)
    row = next((r for r in ORT_RELEASES if r.version == installed), None)
    assert row is not None, f"onnxruntime {installed} is missing from core/checks/ortreleases.py: {measured}"
    got = {"ir_version": row.ir, "ai_onnx_opset": row.opset, "ai_onnx_ml_opset": row.ml_opset}
    if row.derived:  # our own measured row: exactly what the release loads
        assert got == {k: measured[k] for k in got}, f"row {installed} disagrees with the measurement {measured}"
    else:  # ORT's official table may be conservative (1.18-1.20 state ai.onnx.ml 4, yet load 5), never generous
        assert all(got[k] <= measured[k] for k in got), f"official row {installed} claims more than {measured}"
    assert row.version in ORT_TO_ONNX_VERSIONS  # a real table row, not the fallback for an unknown release


def test_an_installed_release_newer_than_the_table_is_still_a_known_row(monkeypatch: pytest.MonkeyPatch) -> None:
    newest = ORT_RELEASES[-1]
    future = f"{newest.key[0]}.{newest.key[1] + 7}"
    monkeypatch.setattr(compat, "installed_ort_version", lambda: future)
    rows = compat._build_releases()
    assert rows[-1].version == future and rows[-1].derived
    assert (rows[-1].ir, rows[-1].opset, rows[-1].ml_opset) == (newest.ir, newest.opset, newest.ml_opset)
    assert rows[:-1] == ORT_RELEASES


def test_released_limits_are_the_newest_onnx_release() -> None:
    limits = released_limits()
    rows = onnx.helper.VERSION_TABLE
    assert limits.ir == max(r[1] for r in rows) and limits.opset == max(r[2] for r in rows)
    assert limits.opset_limit("") == limits.opset_limit("ai.onnx") == limits.opset
    assert limits.opset_limit("ai.onnx.ml") == limits.ml_opset
    assert limits.opset_limit("com.microsoft") is None


def test_opset_below_seven_is_not_supported() -> None:
    r = oldest_ort(3, {"ai.onnx": 6})
    assert r.oldest is None and not r.newer_than_known
    assert r.too_old and "6" in r.too_old[0]
    v = check_target(r, "1.17")
    assert v.loads is False


def test_other_domains_are_listed_not_judged() -> None:
    r = oldest_ort(8, {"ai.onnx": 17, "com.microsoft": 1, "my.custom": 3, "ai.onnx.training": 1})
    assert r.oldest is not None and r.oldest.version == "1.12"
    assert r.other_domains == ["com.microsoft", "my.custom"]


def test_parse_version() -> None:
    assert parse_version("1.17") == (1, 17)
    assert parse_version(" v1.17.3 ") == (1, 17)
    for bad in ("", "1", "one.two", "1.17.3.4", "1.x", "1..2"):
        with pytest.raises(InputError) as ei:
            parse_version(bad)
        assert ei.value.code == "BAD_TARGET_ORT"


def test_target_yes_no() -> None:
    m = add_model(opset=17, ir=8)
    r = oldest_ort(8, {"ai.onnx": 17}, m)
    yes = check_target(r, "1.14", m)
    assert yes.loads is True and yes.release is not None and not yes.release.derived
    no = check_target(r, "1.11", m)
    assert no.loads is False and "ai.onnx opset 17 > 16" in no.reason and no.fix_by_lowering_ir is None
    derived = check_target(r, "1.23", m)
    assert derived.loads is True and "not from ORT's official table" in derived.reason
    assert derived.to_dict()["derived"] is True


def test_target_outside_the_table() -> None:
    m = add_model()
    r = oldest_ort(8, {"ai.onnx": 17}, m)
    newest = ORT_RELEASES[-1]
    later = f"{newest.key[0]}.{newest.key[1] + 8}"
    newer = check_target(r, later, m)
    assert newer.loads is True and "newer than onnxpack's table" in newer.reason
    big = oldest_ort(newest.ir + 1, {"ai.onnx": newest.opset + 1})
    assert check_target(big, later).loads is None
    assert check_target(r, "0.5").loads is False
    assert check_target(r, "2.0").loads is True


def test_only_ir_too_new_lowering_fixes_it() -> None:
    m = add_model(opset=17, ir=10)
    r = oldest_ort(10, {"ai.onnx": 17}, m)
    assert r.oldest is not None and r.oldest.version == "1.18"
    assert r.oldest_if_ir_lowered is not None and r.oldest_if_ir_lowered.version == "1.12"
    assert r.lowered_ir == 8
    v = check_target(r, "1.14", m)
    assert v.loads is False and v.fix_by_lowering_ir == 8
    assert "lowering ir_version to 8 fixes it" in v.reason
    assert lower_ir_possible(m, 8) == (True, 4, ["initializers that are not graph inputs (IR 4)"])


def test_ir_too_new_but_features_need_it() -> None:
    m = add_model(opset=19, ir=10)
    w = numpy_helper.from_array(np.zeros(4, np.uint8), "f8")
    w.data_type = TensorProto.FLOAT8E4M3FN
    m.graph.initializer.append(w)
    r = oldest_ort(10, {"ai.onnx": 19}, m)
    assert r.min_ir == 9 and r.min_ir_reasons == ["element type FLOAT8E4M3FN (IR 9)"]
    v = check_target(r, "1.15", m)  # 1.15: opset 19 but IR 8
    assert v.loads is False and v.fix_by_lowering_ir is None
    assert "FLOAT8E4M3FN" in v.reason
    assert r.oldest is not None and r.oldest.version == "1.18"  # IR 10 as written
    assert r.oldest_if_ir_lowered is not None and r.oldest_if_ir_lowered.version == "1.16"  # IR 9 is enough
    assert r.lowered_ir == 9


def _model_with(**parts: object) -> onnx.ModelProto:
    m = add_model(ir=13)
    for k, v in parts.items():
        if k == "function":
            body = [helper.make_node("Identity", ["a"], ["b"])]
            m.functions.append(helper.make_function("loc", "F", ["a"], ["b"], body, [helper.make_opsetid("", 17)]))
        elif k == "cast_to":
            m.graph.node.append(helper.make_node("Cast", ["Y"], ["Z"], to=v))
        elif k == "input_type":
            m.graph.input.append(helper.make_tensor_value_info("extra", v, [1]))  # type: ignore[arg-type]
        elif k == "sparse":
            sp = helper.make_sparse_tensor(numpy_helper.from_array(np.ones(1, np.float32), "s"),
                                           numpy_helper.from_array(np.zeros(1, np.int64), "si"), [4])
            m.graph.sparse_initializer.append(sp)
        elif k == "optional":
            opt = helper.make_value_info("o", helper.make_optional_type_proto(
                helper.make_tensor_type_proto(TensorProto.FLOAT, [1])))
            m.graph.value_info.append(opt)
        elif k == "training":
            m.training_info.append(onnx.TrainingInfoProto())
        elif k == "node_metadata":
            helper.set_metadata_props(m.graph.node[0], {"k": "v"})
    return m


@pytest.mark.parametrize(
    ("parts", "min_ir", "reason"),
    [
        ({}, 4, "initializers that are not graph inputs"),
        ({"function": True}, 8, "model-local functions"),
        ({"cast_to": TensorProto.INT4}, 10, "element type INT4"),
        ({"cast_to": TensorProto.FLOAT8E5M2}, 9, "element type FLOAT8E5M2"),
        ({"input_type": TensorProto.FLOAT4E2M1}, 11, "element type FLOAT4E2M1"),
        ({"input_type": TensorProto.BFLOAT16}, 4, "element type BFLOAT16"),
        ({"input_type": TensorProto.UINT2}, 13, "element type UINT2"),
        ({"sparse": True}, 6, "sparse initializers"),
        ({"optional": True}, 8, "optional types"),
        ({"training": True}, 7, "training_info"),
        ({"node_metadata": True}, 10, "metadata_props on nodes"),
    ],
)
def test_min_ir_for_features(parts: dict[str, object], min_ir: int, reason: str) -> None:
    got, reasons = min_ir_for_features(_model_with(**parts))
    assert got == min_ir
    assert any(r.startswith(reason) for r in reasons), reasons
