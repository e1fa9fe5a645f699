"""Sizes read the same way in both languages: MERGE_FITS said "about 2434824 bytes" in English where the Japanese
app said "約 2.3 MiB"; it now gives the size in words with the exact count beside it ("2.3 MiB (2,434,824 bytes)"),
and keeps ``bytes`` as a number for --json."""

from __future__ import annotations

from onnxpack.core.checks import codes
from onnxpack.core.units import format_bytes


def test_merge_fits_reads_its_size_in_both_languages(qapp):
    from onnxpack.gui import i18n
    from onnxpack.gui.messages import gui_message

    size = 2_434_824
    exact = codes.MERGE_FITS.finding(model="model.onnx", bytes=size, approx=False, readable=format_bytes(size))
    about = codes.MERGE_FITS.finding(variant="approx", model="model.onnx", bytes=size, approx=True,
                                     readable=format_bytes(size))
    assert exact.message == ("Merged into one file, model.onnx would be 2.3 MiB (2,434,824 bytes), under the 2 GiB "
                             "protobuf limit")
    assert "would be about 2.3 MiB (2,434,824 bytes)" in about.message
    assert exact.params["bytes"] == size  # a number in --json, as before
    try:
        i18n.install_translators(qapp, "en")
        assert gui_message(about) == about.message
        i18n.install_translators(qapp, "ja")
        assert "約 2.3 MiB" in gui_message(about) and "2.3 MiB" in gui_message(exact)
    finally:
        i18n.install_translators(qapp, "en")


def test_the_checks_pass_the_size_in_words(tmp_path):
    from onnxpack.core.checks.validate import validate_model
    from tests import factory

    model = factory.external_model(tmp_path / "m")
    (fits,) = [f for f in validate_model(model, run_checker=False).findings if f.code == "MERGE_FITS"]
    assert fits.params["readable"] == format_bytes(fits.params["bytes"])
    assert f"({fits.params['bytes']:,} bytes)" in fits.message
