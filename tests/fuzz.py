"""Mutation fuzzer for the command line: mutated models through inspect/check, mutated bundles through verify.

Run from the project root (bounded by counts and by ``--seconds``):

    python -m tests.fuzz --models 10000 --check-every 10 --bundles 1000 --smoke-every 50 --seed 1

Every mutant runs through the real command line in-process (``onnxpack.cli.main``, the code path of the
installed command; the checker and smoke runs still use their child processes). A run fails when any
mutant ends with exit status 3 (an internal error), lets an exception escape, prints a traceback, changes
its input, or leaves a file anywhere but where it may write (nothing, for these commands). Failing
mutants are kept under ``--keep DIR`` to reproduce them. ``tests/test_fuzz.py`` runs a short campaign in
the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import sys
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from onnxpack.cli import Environment
from onnxpack.cli import main as cli_main

__all__ = ["Campaign", "main", "run_campaign"]

_TMP_VARS = ("TMPDIR", "TMP", "TEMP")


# ----------------------------------------------------------------------------------------------- seeds


def _seed_models() -> dict[str, onnx.ModelProto]:
    """Small models that reach every place a tensor can live (initializers, sparse, Constant, subgraphs)."""
    rng = np.random.default_rng(0)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])
    w = numpy_helper.from_array(rng.standard_normal(64).astype(np.float32).reshape(16, 4)[:4], "W")
    plain = helper.make_model(
        helper.make_graph([helper.make_node("MatMul", ["x", "W"], ["y"])], "plain", [x], [y], [w]),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    const = helper.make_node("Constant", [], ["c"], value=numpy_helper.from_array(np.ones(4, np.float32), "c"))
    then_g = helper.make_graph([helper.make_node("Add", ["x", "c"], ["t"])], "then", [],
                               [helper.make_tensor_value_info("t", TensorProto.FLOAT, ["batch", 4])])
    else_g = helper.make_graph([helper.make_node("Sub", ["x", "c"], ["e"])], "else", [],
                               [helper.make_tensor_value_info("e", TensorProto.FLOAT, ["batch", 4])])
    cond = numpy_helper.from_array(np.array(True), "cond")
    nested = helper.make_model(
        helper.make_graph([const, helper.make_node("If", ["cond"], ["y"], then_branch=then_g, else_branch=else_g)],
                          "nested", [x], [y], [cond]),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    sparse_vals = numpy_helper.from_array(np.array([1.0, 2.0], np.float32), "S")
    sparse_idx = numpy_helper.from_array(np.array([1, 6], np.int64), "S_idx")
    sparse = helper.make_sparse_tensor(sparse_vals, sparse_idx, [4, 4])
    with_sparse = helper.make_model(
        helper.make_graph([helper.make_node("MatMul", ["x", "S"], ["y"])], "sparse", [x], [y],
                          sparse_initializer=[sparse]),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    return {"plain": plain, "nested": nested, "sparse": with_sparse}


def _write_seed(model: onnx.ModelProto, folder: Path, external: bool) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "model.onnx"
    if external:
        onnx.save_model(model, str(path), save_as_external_data=True, all_tensors_to_one_file=True,
                        location="model.onnx.data", size_threshold=0)
    else:
        onnx.save_model(model, str(path))
    return path


# ------------------------------------------------------------------------------------------- mutations


def _flip(data: bytearray, rnd: random.Random) -> None:
    for _ in range(rnd.randint(1, 8)):
        if data:
            data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)


def _splice(data: bytearray, rnd: random.Random) -> None:
    if not data:
        return
    pos = rnd.randrange(len(data))
    choice = rnd.random()
    if choice < 0.3:
        del data[pos:]  # truncate
    elif choice < 0.6:
        data[pos:pos] = rnd.randbytes(rnd.randint(1, 16))  # insert
    elif choice < 0.8:
        data[pos:pos + 4] = rnd.choice([b"\xff\xff\xff\xff", b"\x00\x00\x00\x00", b"\x7f\xff\xff\xff",
                                        b"\xff\xff\xff\xff\x0f", b"\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01"])
    else:
        n = rnd.randint(1, 64)
        data[pos:pos + n] = data[pos:pos + n][::-1]


def _structural(model: onnx.ModelProto, rnd: random.Random) -> onnx.ModelProto:
    """Protobuf-valid but hostile values in the places onnxpack interprets."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    tensors = list(m.graph.initializer) + [s.values for s in m.graph.sparse_initializer]
    for node in m.graph.node:
        tensors += [a.t for a in node.attribute if a.HasField("t")]
    choice = rnd.randrange(10)
    if choice == 0:
        m.ir_version = rnd.choice([-1, 0, 2, 99, 2**31, 2**62])
    elif choice == 1 and m.opset_import:
        m.opset_import[0].version = rnd.choice([-5, 0, 1, 6, 99, 2**40])
        if rnd.random() < 0.3:
            m.opset_import[0].domain = rnd.choice(["ai.onnx.ml", "x" * 300, "\u202e", "com.microsoft"])
    elif choice == 2 and tensors:
        t = rnd.choice(tensors)
        if t.dims:
            t.dims[rnd.randrange(len(t.dims))] = rnd.choice([-1, -4, 0, 2**31, 2**62])
    elif choice == 3 and tensors:
        t = rnd.choice(tensors)
        t.data_location = TensorProto.EXTERNAL
        del t.external_data[:]
        for key in rnd.sample(["location", "offset", "length", "checksum", "extra"], rnd.randint(0, 5)):
            e = t.external_data.add()
            e.key = key
            e.value = rnd.choice(["../../etc/passwd", "/etc/passwd", "C:\\x", "\\\\srv\\x", "model.onnx.data",
                                  "NUL .txt", "COM\u00b9", "a\u202eb", "", "-1", "1" * 400, "0x10", "1e3", "4096",
                                  "model.onnx", ".", "sub//x", "*/_ORT_MEM_ADDR_/*", "0"])
    elif choice == 4 and tensors:
        t = rnd.choice(tensors)
        t.data_type = rnd.choice([0, 8, 16, 23, 99, -1 & 0x7FFFFFFF])
    elif choice == 5:
        m.graph.initializer.extend([m.graph.initializer[0]] if m.graph.initializer else [])
    elif choice == 6 and m.graph.node:
        n = rnd.choice(list(m.graph.node))
        n.op_type = rnd.choice(["", "Scale", "NoSuchOp", "If", "Loop"])
        n.domain = rnd.choice(["", "custom.x", "ai.onnx.ml"])
    elif choice == 7:
        m.graph.input[0].type.tensor_type.elem_type = rnd.choice([0, 99, 8])
        dims = m.graph.input[0].type.tensor_type.shape.dim
        if dims:
            dims[0].dim_value = rnd.choice([-3, 0, 2**62])
    elif choice == 8:
        m.metadata_props.add(key=rnd.choice(["", "x" * 10000, "\x00"]), value="v")
        m.model_version = rnd.choice([-1, 2**62])
    else:
        m.graph.node.add().CopyFrom(helper.make_node("Identity", ["missing"], ["y"]))
    return m


# ----------------------------------------------------------------------------------------------- runs


@dataclass
class Campaign:
    """Counts of a fuzz run, and the mutants that failed it."""

    runs: Counter[str] = field(default_factory=Counter)
    exits: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "runs": dict(self.runs), "exits": dict(self.exits), "failures": self.failures[:50],
                "failure_count": len(self.failures), "seconds": round(self.seconds, 1)}


def _tree(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file() or p.is_symlink()}


def _run_cli(argv: list[str], sandbox: Path, camp: Campaign, label: str, keep: Path | None) -> None:
    """One command on one mutant: record its exit status, fail on exit 3, tracebacks and stray writes."""
    before = _tree(sandbox)
    out, err = io.StringIO(), io.StringIO()
    problem = None
    try:
        status = int(cli_main(argv, Environment(stdout=out, stderr=err, vars={})))
    except BaseException as e:  # main() must never raise
        status, problem = -1, f"exception escaped: {type(e).__name__}: {e}"
    text = out.getvalue() + err.getvalue()
    camp.runs[argv[0]] += 1
    camp.exits[f"{argv[0]} {status}"] += 1
    if problem is None and status == 3:
        problem = "exit 3: " + text.strip().splitlines()[0][:300] if text.strip() else "exit 3"
    if problem is None and "Traceback (most recent call last)" in text:
        problem = "traceback in the output"
    if problem is None and "--json" in argv:
        try:
            json.loads(out.getvalue())
        except ValueError:
            problem = "--json output is not one JSON document"
    if problem is None and _tree(sandbox) != before:
        problem = "the input folder changed"
    if problem is not None:
        camp.failures.append(f"{label}: {' '.join(argv[:1])}: {problem}")
        if keep is not None:
            dest = keep / f"{len(camp.failures):05d}-{label}"
            shutil.copytree(sandbox, dest, dirs_exist_ok=True)
            (dest / "FAILURE.txt").write_text(f"{argv}\n{problem}\n{text}", encoding="utf-8")


def _fuzz_models(camp: Campaign, rnd: random.Random, n: int, check_every: int, work: Path, deadline: float,
                 keep: Path | None) -> None:
    seeds = _seed_models()
    names = sorted(seeds)
    for i in range(n):
        if time.monotonic() > deadline:
            return
        name = rnd.choice(names)
        external = rnd.random() < 0.5
        sandbox = work / f"m{i}"
        path = _write_seed(seeds[name], sandbox, external)
        if rnd.random() < 0.35:  # hostile values in the structure, written as they are (no onnx.save checks)
            with contextlib.suppress(ValueError, onnx.onnx_cpp2py_export.checker.ValidationError):
                path.write_bytes(_structural(onnx.load(str(path), load_external_data=False), rnd).SerializeToString())
        data_file = path.with_name("model.onnx.data")
        target = data_file if external and data_file.exists() and rnd.random() < 0.4 else path
        if rnd.random() < 0.5:
            data = bytearray(target.read_bytes())
            rnd.choice([_flip, _splice])(data, rnd)
            target.write_bytes(bytes(data))
        label = f"{name}-{'ext' if external else 'single'}-{i}"
        _run_cli(["inspect", str(path), "--json"], sandbox, camp, label, keep)
        if check_every and i % check_every == 0:
            _run_cli(["check", str(path), "--json"], sandbox, camp, label, keep)
        shutil.rmtree(sandbox, ignore_errors=True)


def _bundle_mutation(data: bytes, rnd: random.Random) -> bytes:
    choice = rnd.randrange(5)
    if choice == 0:  # raw bytes anywhere (headers, directory, data)
        buf = bytearray(data)
        rnd.choice([_flip, _splice])(buf, rnd)
        return bytes(buf)
    src = zipfile.ZipFile(io.BytesIO(data))
    members = {i.filename: src.read(i) for i in src.infolist()}
    if choice == 1:  # the manifest's values
        doc = json.loads(members["manifest.json"])
        key = rnd.choice(["size", "sha256", "path", "role"])
        entry = rnd.choice(doc["files"])
        entry[key] = rnd.choice([10**400, -1, "../x", "/etc/passwd", None, [], {}, "manifest.json", "a\u202eb",
                                 "victory.onnx/x", 1.5, True])
        members["manifest.json"] = json.dumps(doc).encode()
    elif choice == 4:  # only the smoke recipe: the bundle stays intact, so verify --smoke reaches it
        doc = json.loads(members["manifest.json"])
        for v in doc["smoke"]["recipe"]["inputs"].values():
            v["source"] = rnd.choice(["file", "value", "spec"])
            v["file"] = v["value"] = v["spec"] = rnd.choice(["/etc/passwd", "../x.npy", "smoke/../../x", "README.txt",
                                                             "/proc/self/environ", "victory.onnx", "1", "-1e400"])
        doc["smoke"]["recipe"]["dims"] = rnd.choice([{}, {"batch": -1}, {"batch": 10**30}, {"x": 0}])
        members["manifest.json"] = json.dumps(doc).encode()
    elif choice == 2:  # names and extra members
        name = rnd.choice(["../evil", "/abs", "a\\b", "C:x", "COM\u00b9.txt", "x\u0085y", "victory.onnx/out.npy",
                           "MANIFEST.JSON", "manifest.json"])
        members[name] = b"x"
    else:  # a member's bytes
        name = rnd.choice(sorted(members))
        buf = bytearray(members[name])
        _flip(buf, rnd)
        members[name] = bytes(buf)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, blob in members.items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            if rnd.random() < 0.05:  # an entry that claims to be a link, from any host
                info.create_system = rnd.choice([0, 3, 5, 16, 30])
                info.external_attr = (0o120777 << 16)
            with contextlib.suppress(Exception):
                z.writestr(info, blob)
    return out.getvalue()


def _fuzz_bundles(camp: Campaign, rnd: random.Random, n: int, smoke_every: int, work: Path, deadline: float,
                  keep: Path | None) -> None:
    made = work / "source"
    made.mkdir()
    err = io.StringIO()
    status = cli_main(["bundle", "-o", str(made), "--version", "1.0.0"],
                      Environment(stdout=io.StringIO(), stderr=err, vars={}))
    if int(status) != 0:
        camp.failures.append(f"could not build the seed bundle (exit {int(status)}): {err.getvalue()[:500]}")
        return
    seed = next(made.glob("*.zip")).read_bytes()
    for i in range(n):
        if time.monotonic() > deadline:
            return
        sandbox = work / f"b{i}"
        sandbox.mkdir()
        path = sandbox / "bundle.zip"
        path.write_bytes(_bundle_mutation(seed, rnd))
        argv = ["verify", str(path), "--json"]
        if smoke_every and i % smoke_every == 0:
            argv.append("--smoke")
        _run_cli(argv, sandbox, camp, f"bundle-{i}", keep)
        shutil.rmtree(sandbox, ignore_errors=True)


def run_campaign(models: int, check_every: int, bundles: int, smoke_every: int, seed: int, seconds: float,
                 keep: Path | None = None, log: Callable[[str], None] | None = None) -> Campaign:
    """Run one bounded campaign; see the module docstring."""
    camp = Campaign()
    rnd = random.Random(seed)
    start = time.monotonic()
    deadline = start + seconds
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        work = Path(tmp) / "work"
        private_tmp = Path(tmp) / "tmp"  # the campaign's own temporary folder: what is left there is ours
        work.mkdir()
        private_tmp.mkdir()
        saved = {v: os.environ.get(v) for v in _TMP_VARS}
        saved_tempdir, cwd = tempfile.tempdir, os.getcwd()
        os.environ.update(dict.fromkeys(_TMP_VARS, str(private_tmp)))
        tempfile.tempdir = str(private_tmp)
        os.chdir(work)  # a stray relative write would land here and show up below
        try:
            _fuzz_models(camp, rnd, models, check_every, work, deadline, keep)
            if log:
                log(f"models done: {dict(camp.runs)} in {time.monotonic() - start:.0f} s")
            _fuzz_bundles(camp, rnd, bundles, smoke_every, work, deadline, keep)
        finally:
            os.chdir(cwd)
            tempfile.tempdir = saved_tempdir
            for var, value in saved.items():
                if value is None:
                    os.environ.pop(var, None)
                else:
                    os.environ[var] = value
        strays = [p.name for p in work.iterdir() if p.name != "source" and not p.name.startswith(("m", "b"))]
        if strays:
            camp.failures.append(f"files written to the working folder: {strays}")
        left = sorted(p.name for p in private_tmp.iterdir())
        if left:
            camp.failures.append(f"temporaries left in the temporary folder: {left[:5]}")
    camp.seconds = time.monotonic() - start
    return camp


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.splitlines()[0])
    p.add_argument("--models", type=int, default=1000, help="mutated models through inspect (default 1000)")
    p.add_argument("--check-every", type=int, default=10, help="also run check on every Nth model (0: never)")
    p.add_argument("--bundles", type=int, default=200, help="mutated bundles through verify (default 200)")
    p.add_argument("--smoke-every", type=int, default=50, help="verify --smoke every Nth bundle (0: never)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seconds", type=float, default=3600, help="stop after this long (default 3600)")
    p.add_argument("--keep", type=Path, help="copy failing mutants here")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    camp = run_campaign(args.models, args.check_every, args.bundles, args.smoke_every, args.seed, args.seconds,
                        args.keep, log=None if args.json else lambda s: print(s, file=sys.stderr))
    if args.json:
        print(json.dumps(camp.to_dict(), indent=2))
    else:
        print(f"{sum(camp.runs.values())} runs in {camp.seconds:.0f} s: {dict(camp.runs)}")
        for k, v in sorted(camp.exits.items()):
            print(f"  {k}: {v}")
        print(f"{len(camp.failures)} failure(s)")
        for f in camp.failures[:50]:
            print("  " + f)
    return 0 if camp.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

