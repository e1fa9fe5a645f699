"""benchmarks/common.py's measurements of a process tree (the figures the closing notes quote)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks.common import measure_tree

_RESETS_ITS_PEAK = """
import time
held = b"x" * (200 << 20)  # touched: 200 MiB resident
time.sleep(0.5)
del held
with open("/proc/self/clear_refs", "w") as f:  # as onnxpack's smoke child does between two measured loads
    f.write("5")
time.sleep(0.2)
"""


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="a process cannot reset its peak here")
def test_the_largest_process_keeps_a_peak_the_process_reset_itself() -> None:
    m = measure_tree("resets its peak", [sys.executable, "-c", _RESETS_ITS_PEAK], poll=0.02)
    assert m.returncode == 0
    assert m.peak_rss_mb >= 180, m  # not only what it held after the reset
    assert m.tree_peak_mb >= 180, m
