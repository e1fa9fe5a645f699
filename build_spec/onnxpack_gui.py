"""Frozen entry point of the windowed executable ``onnxpack-gui``: ``--self-test [REPORT.json]`` or the GUI."""

import time

_STARTED_AT = time.time()  # first line of Python: the fallback start-up clock of the self-test

import multiprocessing  # noqa: E402
import sys  # noqa: E402


def main() -> None:
    # First of all: a 'spawn' child of the frozen app (checker, smoke run) re-runs this executable with
    # multiprocessing's arguments; freeze_support() runs the child's work and exits there.
    multiprocessing.freeze_support()
    from onnxpack.gui.app import run  # handles --self-test too

    sys.exit(run(started_at=_STARTED_AT))


if __name__ == "__main__":
    main()
