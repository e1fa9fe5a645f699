"""--target-app files built to make a regular expression backtrack (issue 39's fuzz re-run, D1 and D2): each is read in
linear time. Run in a child with a time limit far above the linear time (under a second here) and far below the
quadratic one (hours at these sizes), so a regression fails instead of hanging the suite."""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = {
    "requirements: a run of spaces without a comment": ("requirements.txt",
                                                         "'onnxruntime==1.20.1\\n' + ' ' * 200000 + 'x\\n'", "1.20.1"),
    "requirements: a run of tabs": ("requirements.txt",
                                    "'onnxruntime==1.20.1\\n' + '\\t' * 200000 + 'x\\n'", "1.20.1"),
    "requirements: continuation lines": ("requirements.txt",
                                         "'onnxruntime \\\\\\n' + ' \\\\\\n' * 200000 + '>=1.17.3\\n'", "1.17.3"),
    "uv.lock: a run of blank lines": ("uv.lock",
                                      "'version = 1\\n' + '\\n' * 500000 + "
                                      "'[[package]]\\nname = \"onnxruntime\"\\nversion = \"1.20.1\"\\n'", "1.20.1"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_read_in_linear_time(case: str, tmp_path):
    name, text, version = CASES[case]
    script = f"""
from pathlib import Path
from onnxpack.core.checks import appformats as a
text = {text}
p = Path({str(tmp_path / name)!r})
if p.name == "requirements.txt":
    found = a.requirements_txt(p, text)
else:
    found = a.uv_lock(p, text) if hasattr(a, "uv_lock") else None
    if found is None:
        raise SystemExit("no uv.lock reader")
print(",".join(f.version for f in found))
line = a.line_of(text, a.toml_anchors("onnxruntime", "{version}"))
print(line)
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    assert version in r.stdout.splitlines()[0]
