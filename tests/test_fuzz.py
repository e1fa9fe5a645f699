"""A short, fixed-seed fuzz campaign (tests/fuzz.py) in every test run: no internal error, traceback or stray write."""

from __future__ import annotations

from tests.fuzz import run_campaign


def test_short_fuzz_campaign() -> None:
    camp = run_campaign(models=300, check_every=50, bundles=120, smoke_every=40, seed=7, seconds=120)
    assert camp.failures == []
    assert camp.runs["inspect"] == 300 and camp.runs["check"] == 6 and camp.runs["verify"] == 120
    # the mutants reach every outcome: accepted, refused as bad input, refused as bad usage/format
    assert {k for k in camp.exits if k.startswith("inspect")} >= {"inspect 0", "inspect 1", "inspect 2"}
    assert camp.exits["verify 1"] > 0
