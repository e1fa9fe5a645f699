"""Print the pinned entries (with their hashes) of some packages from a hash-locked requirements file.

Usage: python build_spec/pick_requirements.py requirements/app.txt setuptools wheel > tools.txt

.ci/windows uses it to give its own small venv exactly the locked build backend, so the stage runs on a fresh
machine outside .ci/run's venv. Standard library only.
"""

from __future__ import annotations

import re
import sys

__all__ = ["pick"]


def pick(text: str, names: set[str]) -> str:
    """The entries of ``names`` in a ``uv pip compile``/``pip-compile`` file, continuation lines included."""
    wanted = {n.lower().replace("_", "-") for n in names}
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text)
    found = {}
    for block in blocks:
        name = re.split(r"[=<>!~;\[ ]", block, maxsplit=1)[0].lower().replace("_", "-")
        if name in wanted:
            found[name] = "\n".join(line for line in block.splitlines() if not line.lstrip().startswith("#"))
    missing = wanted - set(found)
    if missing:
        raise SystemExit(f"not pinned in the lock: {', '.join(sorted(missing))}")
    return "\n".join(found[n].rstrip() for n in sorted(found)) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(pick(f.read(), set(sys.argv[2:])))
