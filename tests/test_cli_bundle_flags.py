"""`bundle` takes the same smoke-input flags as `smoke`, and "Copy CLI command" reproduces them."""

from __future__ import annotations

import io
import shlex
from pathlib import Path

from onnxpack.cli import Environment, build_parser
from onnxpack.cli.cmd_bundle import options_from_args
from onnxpack.core.release.bundle import cli_command


def test_bundle_smoke_flags_round_trip_through_cli_command(tmp_path: Path) -> None:
    env = Environment(stdout=io.StringIO(), stderr=io.StringIO(), vars={})
    argv = [
        "bundle", "model.onnx", "-o", str(tmp_path), "--version", "1.2.3",
        "--dim", "batch_size=2", "--range", "input=0.25:0.75", "--seed", "7", "--timeout", "30", "--no-search",
    ]
    args = build_parser().parse_args(argv)
    opts = options_from_args(args, env)
    assert opts.smoke is not None
    assert opts.smoke.dims == {"batch_size": 2}
    assert opts.smoke.ranges == {"input": (0.25, 0.75)}
    assert (opts.smoke.seed, opts.smoke.timeout, opts.smoke.search) == (7, 30.0, False)
    again = build_parser().parse_args(shlex.split(cli_command(opts))[1:])
    assert options_from_args(again, env) == opts
