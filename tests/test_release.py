"""Release versioning: semver, the interface diff rules of seed 004, suggested bump, model_version."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from onnxpack.core.errors import InputError, RefusedError
from onnxpack.core.release.versions import (
    SemVer,
    check_new_version,
    decode_model_version,
    diff_interfaces,
    diff_manifests,
    encode_model_version,
    parse_semver,
)


def _v(name: str, elem: str = "FLOAT", shape: list[Any] | None = None, optional: bool = False) -> dict[str, Any]:
    return {"name": name, "elem_type": elem, "shape": ["batch", 3] if shape is None else shape, "optional": optional}


def _iface(inputs: list[dict[str, Any]], outputs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"inputs": inputs, "outputs": outputs if outputs is not None else [_v("y")]}


def _impacts(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    return [(c.kind, c.impact) for c in diff_interfaces(old, new)]


# -- semver ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1.0.0", "0.0.0", "10.20.30", "1.0.0-rc.1", "1.0.0-alpha+build.5", "1.2.3+x"])
def test_semver_roundtrip(text: str) -> None:
    assert str(parse_semver(text)) == text


@pytest.mark.parametrize("text", ["1.0", "v1.0.0", "01.0.0", "1.0.0-", "1.0.0-01", "1.0.0+", "a.b.c", "", "1.0.0 x"])
def test_semver_rejects(text: str) -> None:
    with pytest.raises(InputError) as e:
        parse_semver(text)
    assert e.value.code == "BAD_VERSION" and e.value.hint


def test_semver_precedence_follows_semver_org() -> None:
    chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
             "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0"]
    versions = [parse_semver(t) for t in chain]
    assert sorted(reversed(versions)) == versions
    assert not parse_semver("1.0.0+a") < parse_semver("1.0.0+b")  # build metadata has no precedence


def test_bump_rules() -> None:
    v = parse_semver("1.2.3")
    assert (str(v.bump("major")), str(v.bump("minor")), str(v.bump("patch"))) == ("2.0.0", "1.3.0", "1.2.4")
    assert str(parse_semver("2.0.0-rc.1").bump("major")) == "2.0.0"
    assert str(parse_semver("1.3.0-rc.1").bump("minor")) == "1.3.0"
    assert str(parse_semver("1.3.1-rc.1").bump("minor")) == "1.4.0"
    assert str(parse_semver("1.2.3-rc.1").bump("patch")) == "1.2.3"


def test_model_version_encoding() -> None:
    assert encode_model_version(parse_semver("1.2.3")) == 1_002_003
    assert decode_model_version(1_002_003) == "1.2.3"
    assert encode_model_version(parse_semver("9000.999.999")) == 9_000_999_999
    for bad in ("1.1000.0", "1.0.1000", "9223372036854.0.0"):
        with pytest.raises(InputError) as e:
            encode_model_version(parse_semver(bad))
        assert e.value.code == "MODEL_VERSION_RANGE"


# -- interface diff (seed 004) ------------------------------------------------------------------------


def test_identical_interface_has_no_changes() -> None:
    assert diff_interfaces(_iface([_v("x")]), _iface([_v("x")])) == []


def test_removed_input_and_output_are_major() -> None:
    assert _impacts(_iface([_v("x"), _v("z", "INT64", [1])]), _iface([_v("x")])) == [("input_removed", "major")]
    assert _impacts(_iface([_v("x")], [_v("y"), _v("p")]), _iface([_v("x")], [_v("y")])) == [
        ("output_removed", "major")
    ]


def test_renamed_input_and_output_are_major() -> None:
    assert _impacts(_iface([_v("x")]), _iface([_v("image")])) == [("input_renamed", "major")]
    assert _impacts(_iface([_v("x")], [_v("y")]), _iface([_v("x")], [_v("probs")])) == [("output_renamed", "major")]


def test_changed_element_type_is_major() -> None:
    assert _impacts(_iface([_v("x")]), _iface([_v("x", "FLOAT16")])) == [("input_type_changed", "major")]


def test_changed_shape_is_major() -> None:
    assert _impacts(_iface([_v("x", shape=["b", 3])]), _iface([_v("x", shape=["b", 1])])) == [
        ("input_shape_changed", "major")
    ]
    assert _impacts(_iface([_v("x", shape=["b", 3])]), _iface([_v("x", shape=["b", 3, 1])])) == [
        ("input_shape_changed", "major")
    ]
    # an input narrowed (symbolic -> fixed) breaks callers passing other sizes
    assert _impacts(_iface([_v("x", shape=["b", 3])]), _iface([_v("x", shape=[1, 3])])) == [
        ("input_shape_narrowed", "major")
    ]


def test_compatible_widening_is_minor() -> None:
    assert _impacts(_iface([_v("x", shape=[1, 3])]), _iface([_v("x", shape=["batch", 3])])) == [
        ("input_shape_widened", "minor")
    ]
    assert _impacts(_iface([_v("x", shape=[1, 3])]), _iface([_v("x", shape=None)])) == [
        ("input_shape_widened", "minor")
    ]
    # outputs are the other way round: narrowing is compatible, widening is not
    assert _impacts(_iface([_v("x")], [_v("y", shape=["b", 3])]), _iface([_v("x")], [_v("y", shape=[1, 3])])) == [
        ("output_shape_narrowed", "minor")
    ]
    assert _impacts(_iface([_v("x")], [_v("y", shape=[1, 3])]), _iface([_v("x")], [_v("y", shape=["b", 3])])) == [
        ("output_shape_widened", "major")
    ]


def test_new_inputs_optional_minor_required_major() -> None:
    assert _impacts(_iface([_v("x")]), _iface([_v("x"), _v("scale", shape=[1], optional=True)])) == [
        ("input_added_optional", "minor")
    ]
    assert _impacts(_iface([_v("x")]), _iface([_v("x"), _v("scale", "INT64", [1])])) == [
        ("input_added_required", "major")
    ]
    assert _impacts(_iface([_v("x")], [_v("y")]), _iface([_v("x")], [_v("y"), _v("extra")])) == [
        ("output_added", "minor")
    ]


def test_reorder_and_dim_rename() -> None:
    a, b = _v("a", shape=[1]), _v("b", "INT64", [2])
    assert ("inputs_reordered", "major") in _impacts(_iface([a, b]), _iface([b, a]))
    assert _impacts(_iface([_v("x", shape=["batch", 3])]), _iface([_v("x", shape=["N", 3])])) == [
        ("input_shape_renamed", "patch")
    ]


# -- manifest diff, suggestion, refusal ---------------------------------------------------------------


def _manifest(version: str, inputs: list[dict[str, Any]], sha: str = "a" * 64, oldest: str = "1.13") -> dict[str, Any]:
    return {
        "model": {"name": "m", "version": version},
        "inspection": {"inputs": inputs, "outputs": [_v("y")], "opsets": {"ai.onnx": 17}, "metadata": {}},
        "compatibility": {"oldest_ort": oldest},
        "provenance": {"files": [{"path": "m.onnx", "role": "model", "size": 1, "sha256": sha}]},
    }


def test_weights_only_is_patch_and_nothing_is_none() -> None:
    old = _manifest("1.4.2", [_v("x")])
    same = diff_manifests(old, copy.deepcopy(old))
    assert (same.bump, str(same.suggested)) == ("none", "1.4.3")
    weights = diff_manifests(old, _manifest("?", [_v("x")], sha="b" * 64))
    assert (weights.bump, str(weights.suggested)) == ("patch", "1.4.3")
    assert [c.kind for c in weights.changes] == ["content_changed"]


def test_suggestions_per_bump() -> None:
    old = _manifest("1.4.2", [_v("x", shape=[1, 3])])
    minor = diff_manifests(old, _manifest("?", [_v("x", shape=["b", 3])], sha="b" * 64))
    assert (minor.bump, str(minor.suggested)) == ("minor", "1.5.0")
    major = diff_manifests(old, _manifest("?", [_v("image", "UINT8", [1, 3])], sha="b" * 64))
    assert (major.bump, str(major.suggested)) == ("major", "2.0.0")
    runtime = diff_manifests(old, _manifest("?", [_v("x", shape=[1, 3])], oldest="1.17"))
    assert (runtime.bump, [c.kind for c in runtime.changes]) == ("major", ["runtime_raised"])


def test_version_must_be_greater_unless_forced() -> None:
    diff = diff_manifests(_manifest("1.4.2", [_v("x")]), _manifest("?", [_v("x")], sha="b" * 64))
    for text in ("1.4.2", "1.4.1", "1.4.2+rebuild", "1.4.2-rc.1"):
        with pytest.raises(RefusedError) as e:
            check_new_version(parse_semver(text), diff)
        assert e.value.code == "VERSION_NOT_GREATER" and "1.4.3" in (e.value.hint or "")
    assert check_new_version(parse_semver("1.4.3"), diff) == []
    forced = check_new_version(parse_semver("1.4.2"), diff, force=True)
    assert [f.code for f in forced] == ["VERSION_NOT_GREATER"] and diff.forced


def test_underbump_is_a_warning() -> None:
    diff = diff_manifests(_manifest("1.4.2", [_v("x")]), _manifest("?", [_v("image")]))
    assert diff.bump == "major"
    assert [f.code for f in check_new_version(parse_semver("1.5.0"), diff)] == ["VERSION_UNDERBUMP"]
    assert check_new_version(parse_semver("2.0.0-rc.1"), diff) == []
    assert isinstance(diff.to_dict()["changes"], list) and SemVer(1, 0, 0) < SemVer(1, 0, 1)


# -- issue 26 item 4: a batch axis made dynamic is minor ------------------------------------------------------


def test_a_dim_made_symbolic_on_an_input_and_the_outputs_that_follow_it_is_minor() -> None:
    old = _iface([_v("x", shape=[1, 3, 64])], [_v("logits", shape=[1, 10]), _v("feat", shape=[1, 3, 64])])
    new = _iface([_v("x", shape=["batch", 3, 64])],
                 [_v("logits", shape=["batch", 10]), _v("feat", shape=["batch", 3, 64])])  # fmt: skip
    changes = diff_interfaces(old, new)
    assert [(c.kind, c.subject, c.impact) for c in changes] == [
        ("input_shape_widened", "x", "minor"),
        ("output_shape_widened", "logits", "minor"),
        ("output_shape_widened", "feat", "minor"),
    ]
    assert "widened with the input it follows" in changes[1].message
    assert diff_manifests(_release_of("1.0.0", old), _release_of("1.1.0", new), source="v1.zip").bump == "minor"


def test_real_output_breaks_stay_major_beside_a_batch_axis() -> None:
    old = _iface([_v("x", shape=[1, 3])], [_v("logits", shape=[1, 10])])
    # the classes went 10 -> 12 while the batch became dynamic: major
    assert _impacts(old, _iface([_v("x", shape=["batch", 3])], [_v("logits", shape=["batch", 12])])) == [
        ("input_shape_widened", "minor"), ("output_shape_changed", "major")]
    # an output widened under a name no input took, or from another size than the input's: major
    assert _impacts(old, _iface([_v("x", shape=["batch", 3])], [_v("logits", shape=["n", 10])]))[1] == (
        "output_shape_widened", "major")
    assert _impacts(_iface([_v("x", shape=[1, 3])], [_v("y", shape=[2, 10])]),
                    _iface([_v("x", shape=["batch", 3])], [_v("y", shape=["batch", 10])]))[1] == (
        "output_shape_widened", "major")  # fmt: skip
    # an output alone made symbolic, the inputs unchanged: major as before
    assert _impacts(_iface([_v("x", shape=[1, 3])], [_v("y", shape=[1, 10])]),
                    _iface([_v("x", shape=[1, 3])], [_v("y", shape=["batch", 10])])) == [
        ("output_shape_widened", "major")]  # fmt: skip


def _release_of(version: str, iface: dict[str, Any]) -> dict[str, Any]:
    return {"model": {"name": "m", "version": version}, "inspection": iface, "provenance": {"files": []},
            "compatibility": {}}  # fmt: skip


def test_version_not_greater_hint_words_a_none_change() -> None:
    iface = _iface([_v("x")])
    diff = diff_manifests(_release_of("1.0.0", iface), _release_of("1.0.0", iface), source="v1.zip")
    assert diff.bump == "none"
    with pytest.raises(RefusedError) as e:
        check_new_version(parse_semver("1.0.0"), diff)
    assert e.value.hint == ("Use 1.0.1 (the next patch version: nothing changed), or pass "
                            "--allow-version-not-greater to release it anyway.")  # fmt: skip
    assert "none change" not in (e.value.hint or "")
    diff.changes = diff_interfaces(iface, _iface([_v("x"), _v("extra", optional=True)]))
    with pytest.raises(RefusedError) as e:
        check_new_version(parse_semver("1.0.0"), diff)
    assert (e.value.hint or "").startswith("Use 1.1.0 (suggested for a minor change)")


# -- issue 41 item 14: an output's fixed dim made symbolic where the input was already dynamic is minor ----------------


def test_an_output_dim_made_symbolic_after_an_input_already_dynamic_is_minor() -> None:
    # a re-export of the same checkpoint: the input's batch axis was dynamic in both, the output's was traced as 1
    old = _iface([_v("input_ids", "INT64", ["batch", "seq"])], [_v("logits", shape=[1, 2])])
    new = _iface([_v("input_ids", "INT64", ["batch", "seq"])], [_v("logits", shape=["batch", 2])])
    changes = diff_interfaces(old, new)
    assert [(c.kind, c.subject, c.impact) for c in changes] == [("output_shape_widened", "logits", "minor")]
    assert "already dynamic" in changes[0].message
    assert diff_manifests(_release_of("1.0.0", old), _release_of("1.1.0", new)).bump == "minor"
    # the input's dim renamed as well (a patch on the input): the output follows the new name, still minor
    renamed = _iface([_v("input_ids", "INT64", ["N", "seq"])], [_v("logits", shape=[1, 2])])
    assert _impacts(renamed, new) == [("input_shape_renamed", "patch"), ("output_shape_widened", "minor")]
    # one dim following the dynamic input, another widened with a widened input: minor
    old2 = _iface([_v("a", shape=["batch", 3]), _v("b", shape=[4])], [_v("y", shape=[1, 4])])
    new2 = _iface([_v("a", shape=["batch", 3]), _v("b", shape=["k"])], [_v("y", shape=["batch", "k"])])
    assert _impacts(old2, new2) == [("input_shape_widened", "minor"), ("output_shape_widened", "minor")]


def test_an_output_widened_beside_a_dynamic_input_stays_major_where_it_follows_nothing() -> None:
    old = _iface([_v("x", shape=["batch", 3])], [_v("y", shape=[1, 10])])
    # a name no input has, or unknown: nothing says the output follows the caller's input
    assert _impacts(old, _iface([_v("x", shape=["batch", 3])], [_v("y", shape=["n", 10])])) == [
        ("output_shape_widened", "major")]
    assert _impacts(old, _iface([_v("x", shape=["batch", 3])], [_v("y", shape=[None, 10])])) == [
        ("output_shape_widened", "major")]
    # the class count changing beside it: major
    assert _impacts(old, _iface([_v("x", shape=["batch", 3])], [_v("y", shape=["batch", 12])])) == [
        ("output_shape_changed", "major")]
    # an input fixed in the new release (narrowed) is no dynamic axis to follow
    assert _impacts(old, _iface([_v("x", shape=[1, 3])], [_v("y", shape=["batch", 10])])) == [
        ("input_shape_narrowed", "major"), ("output_shape_widened", "major")]
