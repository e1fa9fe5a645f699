"""Input generation and loading for smoke runs (pure functions: no ONNX Runtime session, no child)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, numpy_helper

from onnxpack.core.errors import InputError
from onnxpack.core.runtime.inputs import (
    InputMeta,
    InputSpec,
    anonymous_dim_key,
    generate_inputs,
    load_input_file,
    parse_dim,
    parse_input,
    parse_range,
)

TYPES = {
    "f32": ("tensor(float)", np.float32),
    "f16": ("tensor(float16)", np.float16),
    "i32": ("tensor(int32)", np.int32),
    "i64": ("tensor(int64)", np.int64),
    "u8": ("tensor(uint8)", np.uint8),
    "b": ("tensor(bool)", np.bool_),
    "s": ("tensor(string)", np.object_),
}


def test_parse_flags() -> None:
    assert parse_dim("sequence=512") == ("sequence", 512)
    assert parse_dim("x[2]=64") == ("x[2]", 64)
    assert parse_range("x=-1:1.5") == ("x", (-1.0, 1.5))
    assert parse_input("sr=16000") == ("sr", "16000")
    for bad in ("sequence", "=3", "a=-1", "a=1.5", "a=x"):
        with pytest.raises(InputError) as e:
            parse_dim(bad)
        assert e.value.hint and "--dim" in e.value.hint
    for bad in ("x=1", "x=2:1", "x=a:b", "x=0:inf"):
        with pytest.raises(InputError):
            parse_range(bad)


def test_every_element_type_is_generated_with_a_shared_symbolic_dim() -> None:
    metas = [InputMeta(n, t, ["batch", 3]) for n, (t, _) in TYPES.items()]
    g = generate_inputs(metas, seed=0, dims={"batch": 4})
    for name, (_, dtype) in TYPES.items():
        arr = g.feeds[name]
        assert arr.dtype == np.dtype(dtype), name
        assert arr.shape == (4, 3)
        assert g.recipe[name]["source"] == "generated"
        assert g.recipe[name]["shape"] == [4, 3]
    assert g.dims == {"batch": 4} and g.dim_sources == {"batch": "option"}
    assert g.feeds["f32"].std() > 0.3  # standard normal, not constant
    assert g.feeds["i64"].min() >= 0 and g.feeds["i64"].max() <= 9  # small integer range
    assert all(isinstance(s, str) for s in g.feeds["s"].ravel())
    assert g.recipe["f32"]["distribution"] == "normal(0,1)"


def test_generation_is_reproducible_and_per_input() -> None:
    a = InputMeta("a", "tensor(float)", [5])
    b = InputMeta("b", "tensor(float)", [5])
    one = generate_inputs([a, b], seed=7)
    two = generate_inputs([b, a], seed=7)  # order does not matter
    only_a = generate_inputs([a], seed=7)  # other inputs do not shift a's values
    np.testing.assert_array_equal(one.feeds["a"], two.feeds["a"])
    np.testing.assert_array_equal(one.feeds["a"], only_a.feeds["a"])
    assert not np.array_equal(one.feeds["a"], one.feeds["b"])
    assert not np.array_equal(one.feeds["a"], generate_inputs([a], seed=8).feeds["a"])


def test_default_unnamed_dims_ranges_and_scalars() -> None:
    metas = [
        InputMeta("x", "tensor(float)", [None, "seq", 2]),
        InputMeta("sr", "tensor(int64)", []),
        InputMeta("flag", "tensor(bool)", [1]),
    ]
    g = generate_inputs(
        metas, seed=0, dims={anonymous_dim_key("x", 0): 2}, values={"sr": "16000", "flag": "true"},
        ranges={"x": (5.0, 6.0)},
    )
    assert g.feeds["x"].shape == (2, 1, 2)
    assert g.dim_sources == {"x[0]": "option", "seq": "default"}
    assert g.feeds["x"].min() >= 5.0 and g.feeds["x"].max() < 6.0
    assert g.feeds["sr"].shape == () and int(g.feeds["sr"]) == 16000 and g.feeds["sr"].dtype == np.int64
    assert g.feeds["flag"].tolist() == [True]
    assert g.recipe["sr"] == {"source": "value", "value": "16000", "dtype": "int64", "shape": []}
    with pytest.raises(InputError) as e:
        generate_inputs([InputMeta("sr", "tensor(int64)", [])], values={"sr": "fast"})
    assert "--input sr=16000" in (e.value.hint or "")


def test_supplied_arrays_bind_dims_and_are_checked() -> None:
    metas = [InputMeta("ids", "tensor(int64)", ["batch", "seq"]), InputMeta("mask", "tensor(int64)", ["batch", "seq"])]
    g = generate_inputs(metas, supplied={"ids": np.zeros((2, 7), np.int64)})
    assert g.feeds["mask"].shape == (2, 7)  # shares batch/seq with the supplied input
    assert g.dim_sources == {"batch": "input:ids", "seq": "input:ids"}
    with pytest.raises(InputError, match="int32"):
        generate_inputs(metas, supplied={"ids": np.zeros((2, 7), np.int32)})
    with pytest.raises(InputError, match="rank"):
        generate_inputs(metas, supplied={"ids": np.zeros((2,), np.int64)})
    with pytest.raises(InputError, match="batch"):
        generate_inputs(metas, dims={"batch": 3}, supplied={"ids": np.zeros((2, 7), np.int64)})
    with pytest.raises(InputError, match="fixes it at 3"):
        generate_inputs([InputMeta("x", "tensor(float)", [3])], supplied={"x": np.zeros(4, np.float32)})
    with pytest.raises(InputError, match="no input named"):
        generate_inputs(metas, values={"nope": "1"})


def test_optional_and_initializer_backed_inputs_are_not_fed() -> None:
    metas = [
        InputMeta("x", "tensor(float)", [2]),
        InputMeta("o", "optional(tensor(float))", [2]),
        InputMeta("w", "tensor(float)", [1], overridable=True),
        InputMeta("q", "seq(tensor(float))", []),
    ]
    g = generate_inputs(metas)
    assert set(g.feeds) == {"x"}
    assert g.recipe["o"]["source"] == "omitted"
    assert g.recipe["w"]["source"] == "initializer"
    assert g.problems and "seq(tensor(float))" in g.problems[0]
    fed = generate_inputs(metas[:3], supplied={"w": np.ones(1, np.float32)})
    assert set(fed.feeds) == {"x", "w"}


def _pb(path: Path, arr: np.ndarray) -> Path:
    path.write_bytes(numpy_helper.from_array(arr, "t").SerializeToString())
    return path


def test_load_npy_npz_pb_with_digests(tmp_path: Path) -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.save(tmp_path / "a.npy", a)
    np.savez(tmp_path / "one.npz", only=a)
    np.savez(tmp_path / "many.npz", x=a, y=a * 2)
    _pb(tmp_path / "input_0.pb", a)
    cases = {
        "a.npy": ("npy", None, a),
        "one.npz": ("npz", "only", a),
        "many.npz:y": ("npz", "y", a * 2),
        "input_0.pb": ("pb", None, a),
    }
    for text, (fmt, member, want) in cases.items():
        spec = InputSpec.parse("x", text, tmp_path)
        li = load_input_file(spec)
        np.testing.assert_array_equal(li.array, want)
        assert (li.format, li.member) == (fmt, member)
        assert li.sha256 == hashlib.sha256(spec.file.read_bytes()).hexdigest()  # type: ignore[union-attr]
        assert li.recipe()["sha256"] == li.sha256
    # An npz member named like the input is picked without ':member'.
    assert load_input_file(InputSpec.parse("y", "many.npz", tmp_path)).member == "y"
    with pytest.raises(InputError, match="2 arrays"):
        load_input_file(InputSpec.parse("z", "many.npz", tmp_path))
    with pytest.raises(InputError, match="no array 'q'"):
        load_input_file(InputSpec.parse("x", "many.npz:q", tmp_path))


def test_unsafe_or_broken_input_files_are_refused(tmp_path: Path) -> None:
    np.save(tmp_path / "obj.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(InputError, match="pickled"):
        load_input_file(InputSpec.parse("x", "obj.npy", tmp_path))
    t = numpy_helper.from_array(np.zeros(4, np.float32), "t")
    onnx.external_data_helper.set_external_data(t, location="../../etc/passwd")
    t.data_location = TensorProto.EXTERNAL
    t.ClearField("raw_data")
    (tmp_path / "ext.pb").write_bytes(t.SerializeToString())
    with pytest.raises(InputError, match="external data"):
        load_input_file(InputSpec.parse("x", "ext.pb", tmp_path))
    (tmp_path / "junk.pb").write_bytes(b"\xff\xff\xff\xff garbage")
    with pytest.raises(InputError):
        load_input_file(InputSpec.parse("x", "junk.pb", tmp_path))
    with pytest.raises(InputError, match="not found"):
        InputSpec.parse("x", "missing.npy", tmp_path)


def test_value_or_file_resolution(tmp_path: Path) -> None:
    assert InputSpec.parse("sr", "16000").value == "16000"
    assert InputSpec.parse("lang", "ja").value == "ja"
    np.save(tmp_path / "16000", np.zeros(1))  # a file of that name wins (np.save adds .npy)
    assert InputSpec.parse("sr", "16000.npy", tmp_path).file == tmp_path / "16000.npy"
