"""Issue 41 item 15: the command line's tables align Japanese (double-width) names by the columns they take."""

from __future__ import annotations

import io
import unicodedata

from onnxpack.cli import Environment
from onnxpack.cli.output import display_width, print_table


def test_display_width_counts_wide_characters_twice_and_marks_not_at_all() -> None:
    assert display_width("model.onnx") == 10
    assert display_width("勝利モデル.onnx") == 15  # five wide characters, five narrow
    assert display_width("ｶﾅ") == 2  # halfwidth katakana are narrow
    nfd = unicodedata.normalize("NFD", "データ")  # a macOS file name: the dakuten as combining marks
    assert len(nfd) == 4 and display_width(nfd) == 6
    assert display_width("a\u200db") == 2  # a zero-width joiner takes no column


def test_a_table_of_japanese_file_names_lines_up() -> None:
    out = io.StringIO()
    rows = [["勝利モデル.onnx", "1.2 MiB", "ok"], ["model.onnx", "3.0 KiB", "ok"],
            [unicodedata.normalize("NFD", "データ.bin"), "12 B", "missing"]]  # fmt: skip
    print_table(Environment(stdout=out, stderr=io.StringIO(), vars={}), ["file", "size", "state"], rows)
    lines = out.getvalue().splitlines()
    assert len(lines) == 5
    # every row's second column starts at the same screen column as the header's
    starts = {display_width(line[: line.index(size)]) for line, size in zip(
        [lines[0], lines[2], lines[3], lines[4]], ["size", "1.2 MiB", "3.0 KiB", "12 B"], strict=True)}  # fmt: skip
    assert starts == {2 + 15 + 2}
    assert lines[1] == "  " + "-" * 15 + "  " + "-" * 7 + "  " + "-" * 7
