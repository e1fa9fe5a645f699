"""Mutation fuzzer for the command line: mutated models through inspect/check/merge, mutated bundles through verify.

Run from the project root (bounded by counts and by ``--seconds``):

    python -m tests.fuzz --models 10000 --check-every 10 --merge-every 2 --bundles 1000 --smoke-every 50 --seed 1

Every mutant runs through the real command line in-process (``onnxpack.cli.main``, the code path of the
installed command; the checker and smoke runs still use their child processes). A run fails when any
mutant ends with exit status 3 (an internal error), lets an exception escape, prints a traceback, changes
its input, or leaves a file anywhere but where it may write (nothing, for these commands; merge writes only its
output, outside the mutant's folder), and a merge that succeeds must have written exactly ``onnx.load`` of its
input (``merge-compared``/``merge-differs``). Model mutants: bit flips and splices, hostile values in the structure
(also tensors in function attribute defaults), and fields duplicated on the wire, which protobuf merges. Bundle
mutants: raw bytes, manifest values, member names, hostile smoke recipes and hostile .npy/.npz input members. Failing
mutants are kept under ``--keep DIR`` to reproduce them. ``tests/test_fuzz.py`` runs a short campaign in
the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
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
from google.protobuf.message import Message
from onnx import TensorProto, helper, numpy_helper

from onnxpack.cli import Environment
from onnxpack.cli import main as cli_main
from onnxpack.core.model.tensors import tensor_fields
from onnxpack.core.model.wire import WireField, iter_fields, varint
from onnxpack.core.model.wire import tag as wire_tag

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
    big = numpy_helper.from_array(rng.standard_normal(512).astype(np.float32), "B")  # 2 KiB: a skeleton range
    fn = helper.make_function("local", "AddDefault", ["a"], ["b"],
                              [helper.make_node("Constant", [], ["k"], value=numpy_helper.from_array(
                                  np.ones(512, np.float32), "k")), helper.make_node("Add", ["a", "k"], ["b"])],
                              [helper.make_opsetid("", 17)])
    fn.attribute_proto.append(helper.make_attribute("bias", numpy_helper.from_array(np.zeros(512, np.float32), "d")))
    xb = helper.make_tensor_value_info("x", TensorProto.FLOAT, [512])
    yb = helper.make_tensor_value_info("y", TensorProto.FLOAT, [512])
    const_big = helper.make_node("Constant", [], ["c"], value=numpy_helper.from_array(
        np.arange(512, dtype=np.float32), "c"))
    with_big = helper.make_model(
        helper.make_graph([const_big, helper.make_node("Add", ["x", "B"], ["t"]),
                           helper.make_node("Add", ["t", "c"], ["u"]),
                           helper.make_node("AddDefault", ["u"], ["y"], domain="local")], "big", [xb], [yb], [big]),
        functions=[fn], opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)],
    )
    return {"plain": plain, "nested": nested, "sparse": with_sparse, "big": with_big}


def _write_seed(model: onnx.ModelProto, folder: Path, external: bool) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "model.onnx"
    if external:  # onnx.save_model moves the tensors of the model it is given out: never the shared seed
        copy = onnx.ModelProto()
        copy.CopyFrom(model)
        onnx.save_model(copy, str(path), save_as_external_data=True, all_tensors_to_one_file=True,
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
    choice = rnd.randrange(11)
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
        m.model_version = rnd.choice([-1, 2**62, -(2**63)])
    elif choice == 9:
        m.graph.node.add().CopyFrom(helper.make_node("Identity", ["missing"], ["y"]))
    else:  # a tensor in a function attribute default (FunctionProto.attribute_proto): big, small or external
        fn = m.functions[0] if m.functions else m.functions.add(domain="local", name="F", output=["o"])
        if not m.functions[0].node:
            fn.node.add().CopyFrom(helper.make_node("Constant", [], ["o"], value_float=0.0))
        t = numpy_helper.from_array(np.arange(rnd.choice([1, 4, 256, 512]), dtype=np.float32), "fd")
        if rnd.random() < 0.5:
            t.ClearField("raw_data")
            t.data_location = TensorProto.EXTERNAL
            for key, value in (("location", rnd.choice(["/etc/hostname", "x/_ORT_MEM_ADDR_/y", "model.onnx.data",
                                                        "../x", "./model.onnx.data", "data..bin", "model.onnx"])),
                               ("offset", rnd.choice(["0", "4096", "-1"])), ("length", rnd.choice(["4", "16", "64"])),
                               *([("extra", "1")] if rnd.random() < 0.2 else [])):
                e = t.external_data.add()
                e.key, e.value = key, value
        fn.attribute_proto.add().CopyFrom(helper.make_attribute(rnd.choice(["v", "bias", ""]), t))
    return m


def _holder_fields(data: bytes) -> list[tuple[list[WireField], str]]:
    """Every length-delimited field on the way to a tensor (onnx's descriptors), with its chain of enclosing fields
    and its message type."""
    fields = tensor_fields()
    out: list[tuple[list[WireField], str]] = []
    stack: list[tuple[int, int, str, list[WireField]]] = [(0, len(data), "onnx.ModelProto", [])]
    while stack and len(out) < 5000:
        start, end, kind, chain = stack.pop()
        subs = fields.get(kind, {})
        try:
            found = list(iter_fields(data, start, end))
        except ValueError:
            continue
        for f in found:
            if f.wire_type == 2 and f.number in subs and len(chain) < 60:
                out.append(([*chain, f], subs[f.number][0]))
                stack.append((f.payload_start, f.end, subs[f.number][0], [*chain, f]))
    return out


def _duplicate_field(data: bytearray, rnd: random.Random) -> None:
    """Protobuf merges a singular message field that occurs twice: insert a second occurrence of a field on the
    way to a tensor (a copy, some of its fields, or one scalar such as ``data_location``) and fix every enclosing
    length prefix, so the file stays valid protobuf that onnx.load reads as one merged message."""
    places = _holder_fields(bytes(data))
    if not places:
        return
    tensors = [p for p in places if p[1] == "onnx.TensorProto"]
    chain, kind = rnd.choice(tensors if tensors and rnd.random() < 0.5 else places)  # tensors: where weights hide
    f = chain[-1]
    try:
        inner = list(iter_fields(bytes(data), f.payload_start, f.end))
    except ValueError:  # not a message after all (a field number reused with other bytes): copy it whole
        inner = []
    choice = rnd.random()
    if choice < 0.2:
        payload = bytes(data[f.payload_start:f.end])
    elif choice < 0.5 and inner:
        picked = sorted(rnd.sample(inner, rnd.randint(1, len(inner))), key=lambda g: g.start)
        payload = b"".join(bytes(data[g.start:g.end]) for g in picked)
    elif choice < 0.9 and kind == "onnx.TensorProto":
        payload = rnd.choice([
            wire_tag(14, 0) + varint(rnd.choice([0, 1])),  # data_location = DEFAULT / EXTERNAL
            wire_tag(9, 2) + varint(4) + b"\0\0\x80?",  # raw_data: one float
            wire_tag(2, 0) + varint(rnd.choice([1, 7, 11])),  # data_type
            wire_tag(8, 2) + varint(1) + b"n",  # name
            wire_tag(13, 2) + varint(10) + wire_tag(1, 2) + varint(3) + b"foo" + wire_tag(2, 2) + varint(1) + b"1",
        ])
    else:
        payload = b""
    ins = wire_tag(f.number, 2) + varint(len(payload)) + payload
    data[f.end:f.end] = ins
    delta = len(ins)
    for a in reversed(chain[:-1]):  # innermost first: each prefix lies before the ones already rewritten
        new_len = a.end - a.payload_start + delta
        prefix = varint(new_len)
        delta += len(prefix) - (a.payload_start - a.length_start)
        data[a.length_start:a.payload_start] = prefix


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


def _run_cli(argv: list[str], sandbox: Path, camp: Campaign, label: str, keep: Path | None) -> int:
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
        _fail(camp, label, argv, problem, sandbox, keep, text)
    return status


def _fail(camp: Campaign, label: str, argv: list[str], problem: str, sandbox: Path, keep: Path | None,
          text: str = "") -> None:
    camp.failures.append(f"{label}: {' '.join(argv[:1])}: {problem}")
    if keep is not None:
        dest = keep / f"{len(camp.failures):05d}-{label}"
        shutil.copytree(sandbox, dest, dirs_exist_ok=True)
        (dest / "FAILURE.txt").write_text(f"{argv}\n{problem}\n{text}", encoding="utf-8")


def _all_tensors(msg: Message) -> list[TensorProto]:
    """Every TensorProto inside ``msg``, by a plain walk over whatever fields are set (independent of onnxpack)."""
    found: list[TensorProto] = []
    stack = [msg]
    while stack:
        m = stack.pop()
        if isinstance(m, TensorProto):
            found.append(m)
            continue
        for fd, value in m.ListFields():
            if fd.message_type is not None:
                repeated = getattr(fd, "is_repeated", None)
                repeated = fd.label == fd.LABEL_REPEATED if repeated is None else repeated
                stack.extend(value if repeated else [value])
    return found


def _onnx_reading(path: Path) -> bytes:
    """``onnx.save(onnx.load(path))``'s bytes, with every tensor's external data loaded the way onnx loads it.

    onnx.load resolves the external data of initializers and node attributes only: a tensor in a function's
    attribute defaults (``FunctionProto.attribute_proto``) stays external there, while a merge (rightly) embeds
    it. Such a tensor is loaded here with onnx's own ``load_external_data_for_tensor`` and onnx's finishing steps.
    """
    from onnx.external_data_helper import load_external_data_for_tensor, uses_external_data

    model = onnx.load(str(path))
    for t in _all_tensors(model):
        if uses_external_data(t):
            load_external_data_for_tensor(t, str(path.parent))
            t.data_location = TensorProto.DEFAULT
            del t.external_data[:]
    return model.SerializeToString()


def _check_merge(camp: Campaign, path: Path, out: Path, label: str, sandbox: Path, keep: Path | None) -> None:
    """A merge that succeeded must have written exactly ``onnx.save(onnx.load(input))`` (protobuf's own reading,
    duplicated fields merged and external data resolved by onnx: :func:`_onnx_reading`) and never the skeleton's
    private marker."""
    try:
        want = _onnx_reading(path)
    except Exception:  # onnx refuses what onnxpack merged (e.g. a rule only onnxpack has): nothing to compare
        camp.runs["merge-oracle-unavailable"] += 1
        return
    camp.runs["merge-compared"] += 1
    got = out.read_bytes()
    if got != want or b"onnxpack-inline" in got:
        camp.runs["merge-differs"] += 1
        _fail(camp, label, ["merge"], f"the merged model ({len(got)} bytes) is not onnx.load of the input "
              f"({len(want)} bytes)", sandbox, keep)


def _fuzz_models(camp: Campaign, rnd: random.Random, n: int, check_every: int, work: Path, deadline: float,
                 keep: Path | None, merge_every: int = 0) -> None:
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
        how = rnd.random()
        if how < 0.35 and target == path:  # duplicated fields on the wire: valid protobuf, merged by protobuf
            data = bytearray(path.read_bytes())
            for _ in range(rnd.randint(1, 3)):
                _duplicate_field(data, rnd)
            path.write_bytes(bytes(data))
            camp.runs["mutant-duplicated-fields"] += 1
        elif how < 0.6:
            data = bytearray(target.read_bytes())
            rnd.choice([_flip, _splice])(data, rnd)
            target.write_bytes(bytes(data))
        label = f"{name}-{'ext' if external else 'single'}-{i}"
        _run_cli(["inspect", str(path), "--json"], sandbox, camp, label, keep)
        if check_every and i % check_every == 0:
            _run_cli(["check", str(path), "--json"], sandbox, camp, label, keep)
        if merge_every and i % merge_every == 0:
            out = work / f"out{i}" / "merged.onnx"
            if _run_cli(["merge", str(path), "-o", str(out), "--json"], sandbox, camp, label, keep) == 0:
                _check_merge(camp, path, out, label, sandbox, keep)
            shutil.rmtree(out.parent, ignore_errors=True)
        shutil.rmtree(sandbox, ignore_errors=True)


def _npy_bytes(shape: tuple[int, ...], data: bytes, descr: str = "<f4") -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": descr, "fortran_order": False, "shape": shape})
    return buf.getvalue() + data


def _hostile_input(rnd: random.Random) -> tuple[bytes, str]:
    """An input file a bundle's recipe could name: a lying .npy header, a pickle, a compression bomb, garbage."""
    choice = rnd.randrange(6)
    if choice == 0:  # the header declares 1.18 GB, the file holds nothing
        npy = _npy_bytes((12000, 3, 64, 128), b"")
    elif choice == 1:  # a pickled object array
        npy = _npy_bytes((1,), b"\x80\x04N.", "|O")
    elif choice == 2:  # the right shape, zeros: compresses 1000:1
        buf = io.BytesIO()
        np.save(buf, np.zeros((rnd.choice([1, 2, 16]), 3, 64, 128), np.float32))
        npy = buf.getvalue()
    elif choice == 3:  # an overflowing shape
        npy = _npy_bytes((2**31, 2**31), b"")
    elif choice == 4:
        npy = _npy_bytes(tuple([1] * 70), b"\0" * 4)  # rank above 64
    else:
        npy = rnd.randbytes(rnd.randint(0, 64))
    if rnd.random() < 0.3:
        return npy, "npy"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", rnd.choice([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])) as z:
        z.writestr(rnd.choice(["input.npy", "x.npy", "../x.npy"]), npy)
    return out.getvalue(), "npz"


def _bundle_mutation(data: bytes, rnd: random.Random) -> bytes:
    choice = rnd.randrange(7)
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
    elif choice == 5:  # a hostile recipe in an otherwise intact bundle: dims, runs, seed, ranges
        doc = json.loads(members["manifest.json"])
        recipe = doc["smoke"]["recipe"]
        key, values = rnd.choice([
            ("dims", [{"batch_size": v} for v in (12000, 2**31 - 1, 2**62, 2**63 - 1, -5, 0, 1.5, True, "1")]),
            ("runs", [0, -1, 10**6, 1.5, True]),
            ("seed", [-1, 2**64, 1.5, "0"]),
            ("ranges", [{"input": [-1e308, 1e308]}, {"input": [1, 0]}, {"input": [0]}, {"input": "0:1"}]),
            ("default_dim", [-1, 2**40, 0]),
            ("atol", [-1, 1e308]),
        ])
        recipe[key] = rnd.choice(values)
        members["manifest.json"] = json.dumps(doc).encode()
    elif choice == 6:  # a recipe input file that is a hostile .npz/.npy, listed with its true size and digest
        doc = json.loads(members["manifest.json"])
        blob, fmt = _hostile_input(rnd)
        name = f"smoke/inputs/00.{fmt}"
        members[name] = blob
        doc["files"].append({"path": name, "role": "smoke-input", "size": len(blob),
                             "sha256": hashlib.sha256(blob).hexdigest()})
        for v in doc["smoke"]["recipe"]["inputs"].values():
            v.update(source="file", file=name, format=fmt, member=rnd.choice([None, "input", "x"]),
                     sha256=hashlib.sha256(blob).hexdigest())
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
                 keep: Path | None = None, log: Callable[[str], None] | None = None,
                 merge_every: int = 0) -> Campaign:
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
            _fuzz_models(camp, rnd, models, check_every, work, deadline, keep, merge_every)
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
    p.add_argument("--merge-every", type=int, default=0,
                   help="also merge every Nth model and compare the output with onnx.load of the input (0: never)")
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
                        args.keep, log=None if args.json else lambda s: print(s, file=sys.stderr),
                        merge_every=args.merge_every)
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

