"""Frozen entry point of the console executable ``onnxpack``: ``--self-test [REPORT.json]`` or the CLI."""

import time

_STARTED_AT = time.time()  # first line of Python: the fallback start-up clock of the self-test

import multiprocessing  # noqa: E402
import sys  # noqa: E402


def main() -> None:
    # First of all: a 'spawn' child of the frozen app (checker, smoke run) re-runs this executable with
    # multiprocessing's arguments; freeze_support() runs the child's work and exits there.
    multiprocessing.freeze_support()
    if len(sys.argv) > 1 and sys.argv[1] == "--self-test":
        from onnxpack.gui.selftest import main as self_test

        sys.exit(self_test(sys.argv[2:], started_at=_STARTED_AT))
    from onnxpack.cli import run

    run()


if __name__ == "__main__":
    main()
