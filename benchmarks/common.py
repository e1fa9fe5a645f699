"""Shared helpers for the benchmarks: synthetic external-data models and time/peak-RSS measurement.

Benchmarks run on demand (`python benchmarks/<name>.py`), never in the test suite.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper
from onnx.external_data_helper import set_external_data

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

__all__ = [
    "ROOT", "Measurement", "TreeMeasurement", "checkout_before", "drop_caches", "make_external_model", "make_mlp_model",
    "measure", "measure_tree", "print_rows",
]


def _external_float(name: str, dims: list[int], location: str, offset: int, nbytes: int) -> TensorProto:
    """A float32 initializer whose ``nbytes`` live at ``offset`` in the data file ``location``."""
    t = TensorProto(name=name, data_type=TensorProto.FLOAT, dims=dims)
    t.raw_data = b""  # onnx >= 1.23's set_external_data requires the field to be present
    set_external_data(t, location=location, offset=offset, length=nbytes)
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    return t


def make_external_model(folder: Path, total_bytes: int, tensor_bytes: int = 64 * 2**20, name: str = "big") -> Path:
    """Write ``folder/NAME.onnx`` + ``NAME.onnx.data`` holding ~``total_bytes`` of float32 weights.

    The data file is written tensor by tensor (never the whole model in memory). The graph sums all
    weights' first elements so every tensor is used: Y = X + sum_i Slice(W_i)[0:1].
    """
    folder.mkdir(parents=True, exist_ok=True)
    location = f"{name}.onnx.data"
    n_tensors = max(1, total_bytes // tensor_bytes)
    count = tensor_bytes // 4
    rng = np.random.default_rng(1)
    inits, nodes = [], []
    acc = "X"
    offset = 0
    with open(folder / location, "wb") as f:
        for i in range(n_tensors):
            arr = rng.standard_normal(min(count, 2**20)).astype(np.float32)
            reps = count // arr.size
            for _ in range(reps):
                f.write(arr.tobytes())
            nbytes = reps * arr.nbytes
            inits.append(_external_float(f"W{i}", [nbytes // 4], location, offset, nbytes))
            offset += nbytes
            nodes.append(helper.make_node("Slice", [f"W{i}", "zero", "one"], [f"s{i}"]))
            nodes.append(helper.make_node("Add", [acc, f"s{i}"], [f"a{i}"]))
            acc = f"a{i}"
    inits += [
        helper.make_tensor("zero", TensorProto.INT64, [1], [0]),
        helper.make_tensor("one", TensorProto.INT64, [1], [1]),
    ]
    nodes.append(helper.make_node("Identity", [acc], ["Y"]))
    graph = helper.make_graph(
        nodes, "big", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1])], initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="bench")
    model.ir_version = 8
    path = folder / f"{name}.onnx"
    path.write_bytes(model.SerializeToString())
    return path


def make_mlp_model(folder: Path, total_bytes: int, width: int = 4096, name: str = "mlp") -> Path:
    """Write ``folder/NAME.onnx`` + ``NAME.onnx.data``: a chain Y = tanh(...tanh(X @ W0)... @ Wn) of
    ``width`` x ``width`` float32 weights, ~``total_bytes`` in all.

    Unlike :func:`make_external_model`, every weight is needed at run time (nothing constant-folds away),
    so ORT reads and pre-packs all of it, as it does for a real network.
    """
    folder.mkdir(parents=True, exist_ok=True)
    location = f"{name}.onnx.data"
    nbytes = width * width * 4
    layers = max(1, total_bytes // nbytes)
    rng = np.random.default_rng(1)
    inits, nodes, h, offset = [], [], "X", 0
    with open(folder / location, "wb") as f:
        for i in range(layers):
            # float32 throughout: dividing by np.sqrt (a float64) made float64 bytes, twice what the tensors declare
            f.write((rng.standard_normal((width, width), dtype=np.float32) / np.float32(np.sqrt(width))).tobytes())
            inits.append(_external_float(f"W{i}", [width, width], location, offset, nbytes))
            offset += nbytes
            nodes.append(helper.make_node("MatMul", [h, f"W{i}"], [f"m{i}"]))
            nodes.append(helper.make_node("Tanh", [f"m{i}"], [f"h{i}"]))
            h = f"h{i}"
    nodes.append(helper.make_node("Identity", [h], ["Y"]))
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["batch", width])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["batch", width])], initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="bench")
    model.ir_version = 8
    path = folder / f"{name}.onnx"
    path.write_bytes(model.SerializeToString())
    return path


@dataclass
class Measurement:
    label: str
    seconds: float
    peak_rss_mb: float
    returncode: int


def ensure_bytecode() -> str:
    """Compile onnxpack's modules to bytecode where this interpreter imports them from, as ``pip install`` does for
    a wheel and PyInstaller for the frozen app: what users run never compiles our source at start-up. An editable
    install has no bytecode of its own, and with ``PYTHONDONTWRITEBYTECODE`` set (this build machine sets it) every
    command would compile all of onnxpack again: 0.1 s of a 0.3 s bundle of the sample. Returns what it did."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("onnxpack")
    roots = [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []
    ok = all(compileall.compile_dir(str(r), quiet=1) for r in roots)
    count = sum(1 for r in roots for _ in r.rglob("*.py"))
    return f"bytecode: {count} onnxpack modules compiled ({', '.join(map(str, roots))}){'' if ok else ' WITH ERRORS'}"


def checkout_before(commit: str, work: Path) -> Path:
    """onnxpack as of ``commit`` (``git archive`` into ``work/before/onnxpack``, compiled to bytecode as
    :func:`ensure_bytecode` does for the installed one); returns the folder to put first on ``PYTHONPATH``."""
    before = work / "before"
    (before / "onnxpack").mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(before / "onnxpack")], input=archive, check=True)
    import compileall

    compileall.compile_dir(str(before / "onnxpack"), quiet=1)
    return before


def measure(label: str, argv: list[str], env: dict[str, str] | None = None) -> Measurement:
    """Run ``argv`` as a child process; return wall time and the child's peak RSS.

    A child started straight from this (large) Python process reports at least this process's peak
    RSS as its ru_maxrss: Linux carries the pre-exec memory high-water mark across exec (subprocess
    uses vfork). So when GNU time is available the child runs under ``/usr/bin/time -f %M``, which
    forks the command from its own small image, and its figure is used.
    """
    gnu_time = shutil.which("time", path="/usr/bin:/bin")
    report_file = None
    if gnu_time:
        fd, report_file = tempfile.mkstemp(prefix="onnxpack-rss-")
        os.close(fd)
        argv = [gnu_time, "-f", "%M", "-o", report_file, *argv]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0 and proc.stderr is not None:
        sys.stderr.write(f"[{label}] exit {proc.returncode}: {proc.stderr.read().decode(errors='replace')[-2000:]}\n")
    rss_kb = usage.ru_maxrss  # kilobytes on Linux
    if report_file:
        with contextlib.suppress(OSError, ValueError, IndexError):
            rss_kb = int(Path(report_file).read_text().split()[-1])
        Path(report_file).unlink(missing_ok=True)
    return Measurement(label, seconds, rss_kb / 1024, proc.returncode)


@dataclass
class TreeMeasurement(Measurement):
    """A :class:`Measurement` of a process tree: ``peak_rss_mb`` is the largest single process (GNU time's
    figure, or the largest one process seen by polling /proc when that was higher: a process that resets its own
    peak, as onnxpack's smoke child does between two measured loads on Linux (/proc/PID/clear_refs), reports only
    the peak after the reset when it exits), ``tree_peak_mb`` the highest sum over the whole tree seen by polling,
    ``stdout``/``stderr`` the command's output and ``timed_out`` whether it was killed at the time limit."""

    tree_peak_mb: float = 0.0
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False


def _tree_rss_kb(root: int, page_kb: int, with_root: bool = False) -> tuple[int, int]:
    """Summed RSS of ``root``'s descendants (and of ``root`` with ``with_root``), and the largest of them, from
    /proc/PID/task/TID/children and /proc/PID/statm."""
    total, largest, todo, seen = 0, 0, [root], set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        with contextlib.suppress(OSError, ValueError, IndexError):
            if pid != root or with_root:
                rss = int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * page_kb
                total += rss
                largest = max(largest, rss)
            for task in os.scandir(f"/proc/{pid}/task"):
                with contextlib.suppress(OSError, ValueError):
                    todo.extend(int(c) for c in Path(task.path, "children").read_text().split())
    return total, largest


def measure_tree(label: str, argv: list[str], *, timeout: float | None = None, poll: float = 0.02,
                 env: dict[str, str] | None = None, cwd: str | Path | None = None) -> TreeMeasurement:
    """Like :func:`measure`, for commands that start child processes: also polls the summed RSS of the whole
    process tree every ``poll`` seconds (a spike shorter than that can be missed; GNU time's per-process
    maximum cannot), keeps stdout/stderr, and kills the tree after ``timeout`` seconds."""
    gnu_time = shutil.which("time", path="/usr/bin:/bin")
    fd, report_file = tempfile.mkstemp(prefix="onnxpack-rss-")
    os.close(fd)
    run = [gnu_time, "-f", "%M", "-o", report_file, *argv] if gnu_time else list(argv)
    page_kb = os.sysconf("SC_PAGE_SIZE") // 1024
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(run, env=env, cwd=cwd, stdout=out, stderr=err, start_new_session=True)
        tree_kb, one_kb, timed_out = 0, 0, False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            total, largest = _tree_rss_kb(proc.pid, page_kb, with_root=not gnu_time)  # GNU time is not counted
            tree_kb, one_kb = max(tree_kb, total), max(one_kb, largest)
            if timeout is not None and time.perf_counter() - start > timeout and not timed_out:
                timed_out = True
                with contextlib.suppress(OSError):
                    os.killpg(proc.pid, 9)
            time.sleep(poll)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    rss_kb = usage.ru_maxrss
    with contextlib.suppress(OSError, ValueError, IndexError):
        rss_kb = int(Path(report_file).read_text().split()[-1])
    Path(report_file).unlink(missing_ok=True)
    return TreeMeasurement(label, seconds, max(rss_kb, one_kb) / 1024, proc.returncode, tree_kb / 1024, stdout, stderr,
                           timed_out)


def print_rows(title: str, rows: list[Measurement], reference: str | None = None) -> None:
    print(f"\n{title}")
    ref = next((r for r in rows if r.label == reference), None)
    print(f"  {'what':<44} {'time s':>8} {'peak RSS MB':>12} {'x ref':>7}")
    for r in rows:
        ratio = f"{r.seconds / ref.seconds:6.2f}x" if ref and ref.seconds > 0 else ""
        flag = "" if r.returncode == 0 else f"  (exit {r.returncode})"
        print(f"  {r.label:<44} {r.seconds:8.2f} {r.peak_rss_mb:12.1f} {ratio:>7}{flag}")


def drop_caches() -> bool:
    """Empty the page cache for a cold measurement (root only); False when not allowed."""
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def drop_caches_hint() -> str:
    return "page cache is warm (same run); figures compare like with like"

