"""A short, fixed-seed fuzz campaign (tests/fuzz.py) in every test run: no internal error, traceback or stray write,
and every merge that succeeds writes exactly what onnx.load reads from its input."""

from __future__ import annotations

from tests.fuzz import run_campaign


def test_short_fuzz_campaign() -> None:
    camp = run_campaign(models=300, check_every=50, bundles=120, smoke_every=40, seed=7, seconds=120, merge_every=5)
    assert camp.failures == []
    assert camp.runs["inspect"] == 300 and camp.runs["check"] == 6 and camp.runs["verify"] == 120
    assert camp.runs["merge"] == 60
    # merges were compared with onnx.load of their inputs (duplicated wire fields among them), none differed
    assert camp.runs["merge-compared"] > 10 and camp.runs["mutant-duplicated-fields"] > 50
    assert camp.runs["merge-differs"] == 0
    # the mutants reach every outcome: accepted, refused as bad input, refused as bad usage/format
    assert {k for k in camp.exits if k.startswith("inspect")} >= {"inspect 0", "inspect 1", "inspect 2"}
    assert camp.exits["verify 1"] > 0
