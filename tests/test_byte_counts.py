"""Issue 41 item 15: a byte count is printed one way (core/units.py): "2.9 GiB (3,097,457,199 bytes)", never
"3097457199 bytes" beside "1,419,987,486 bytes"."""

from __future__ import annotations

import re

from onnxpack.core import registry
from onnxpack.core.checks import codes as check_codes
from onnxpack.core.model import codes as model_codes
from onnxpack.core.units import format_bytes


def test_a_model_too_large_to_merge_says_its_size_as_one_that_fits_does() -> None:
    big, small = 3_097_457_199, 1_419_987_486
    too_large = model_codes.MERGE_TOO_LARGE.finding(model="m.onnx", bytes=big, approx=False,
                                                    readable=format_bytes(big))  # fmt: skip
    fits = check_codes.MERGE_FITS.finding(model="m.onnx", bytes=small, approx=False, readable=format_bytes(small))
    assert "would be 2.9 GiB (3,097,457,199 bytes), above" in too_large.message
    assert "would be 1.3 GiB (1,419,987,486 bytes), under" in fits.message
    about = model_codes.MERGE_TOO_LARGE.finding(variant="approx", model="m.onnx", bytes=big, approx=True,
                                                readable=format_bytes(big))  # fmt: skip
    assert "would be about 2.9 GiB (3,097,457,199 bytes)" in about.message
    merge = model_codes.MERGE_TOO_LARGE.error(variant="merge", what="m.onnx", bytes=big, limit=2**31)
    assert "3,097,457,199 bytes" in merge.message and "(2,147,483,648 bytes)" in merge.message


def test_the_model_floors_counts_of_bytes_have_thousands_separators() -> None:
    bare = [(c.name, t) for c in registry().values() if c.name in vars(model_codes)
            for t in (*c.messages(), *c.remedies()) if re.search(r"\{\w+\} bytes", t)]  # fmt: skip
    assert bare == []
    short = model_codes.EXTDATA_LENGTH_MISMATCH.finding("W", label="'W'", length=1_000_000, dtype="FLOAT",
                                                       dims=[500_000], expected=2_000_000)  # fmt: skip
    assert "1,000,000 bytes of external data, but FLOAT [500000] needs 2,000,000" in short.message
