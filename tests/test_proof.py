"""The single-pass bundle: the tensor-hash equality proof, the shipped ZIP entry read in place, page release."""

from __future__ import annotations

import mmap
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest

from onnxpack.core.errors import InputError, ModelFormatError, OnnxpackError
from onnxpack.core.model.extdata.extreader import ExternalDataReader
from onnxpack.core.model.extdata.extresolve import resolve_external_data
from onnxpack.core.model.merge import proof
from onnxpack.core.model.merge.merge import plan_merge
from onnxpack.core.model.modelfile import load_structure
from onnxpack.core.release import modelstage as bundle_mod
from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.verify.verify import verify_bundle
from onnxpack.core.runtime.smoke_child import _pages_released
from tests import factory

EPOCH = 1_700_000_000


def _source(tmp_path: Path) -> tuple[Any, dict[Any, str]]:
    """An external-data model's plan and its tensor digests, read the way the merge reads them."""
    plan = plan_merge(factory.external_model(tmp_path / "src", n=512))
    return plan, _digests(plan.table)


def _digests(table: Any) -> dict[Any, str]:
    """Every tensor's SHA-256, from a TensorHasher watching one read of each (as the bundle's merge reads them)."""
    with ExternalDataReader(table) as reader, proof.TensorHasher() as hasher:
        reader.tensor_observer = hasher
        for ref in table.refs:
            if ref.data_length:
                reader.read(ref)
        return hasher.finish()


def _write(model: onnx.ModelProto, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, path)
    return path


def test_the_merged_copy_is_proven_equal(tmp_path: Path) -> None:
    plan, digests = _source(tmp_path)
    merged = _write(onnx.load(str(plan.source)), tmp_path / "out" / "m.onnx")  # onnx inlines the external data
    got = proof.prove_same_model(plan.model, plan.table, digests, merged, merged.parent)
    assert got.tensors == 3
    assert got.tensor_bytes == 512 * 4 * 2 + 4
    assert got.to_dict()["method"] == proof.METHOD and len(got.fingerprint_sha256) == 64


def test_one_changed_weight_is_named(tmp_path: Path) -> None:
    plan, digests = _source(tmp_path)
    model = onnx.load(str(plan.source))
    w2 = next(t for t in model.graph.initializer if t.name == "W2")
    raw = bytearray(w2.raw_data)
    raw[100] ^= 1  # one bit of one weight
    w2.raw_data = bytes(raw)
    merged = _write(model, tmp_path / "out" / "m.onnx")
    with pytest.raises(OnnxpackError) as e:
        proof.prove_same_model(plan.model, plan.table, digests, merged, merged.parent)
    assert e.value.code == "MERGE_NOT_EQUAL" and "'W2'" in e.value.message


def test_a_changed_graph_with_the_same_weights_is_caught(tmp_path: Path) -> None:
    plan, digests = _source(tmp_path)
    model = onnx.load(str(plan.source))
    model.graph.node[0].op_type = "Sub"
    merged = _write(model, tmp_path / "out" / "m.onnx")
    with pytest.raises(OnnxpackError) as e:
        proof.prove_same_model(plan.model, plan.table, digests, merged, merged.parent)
    assert e.value.code == "MERGE_NOT_EQUAL" and "structure" in e.value.message


def test_digests_come_from_the_bytes_read_not_from_bookkeeping(tmp_path: Path) -> None:
    """A tensor the merge never read whole has no digest: the proof refuses instead of trusting anything."""
    plan, digests = _source(tmp_path)
    merged = _write(onnx.load(str(plan.source)), tmp_path / "out" / "m.onnx")
    partial = dict(list(digests.items())[1:])
    with pytest.raises(OnnxpackError) as e:
        proof.prove_same_model(plan.model, plan.table, partial, merged, merged.parent)
    assert e.value.code == "INTERNAL"


def test_tensor_hasher_ignores_partial_and_out_of_order_reads(tmp_path: Path) -> None:
    plan, _ = _source(tmp_path)
    ref = next(r for r in plan.table.refs if r.data_length)
    h = proof.TensorHasher()
    h(ref, 0, b"\0" * 10)
    h(ref, 20, b"\0" * 10)  # a gap: not a whole read
    assert h.finish() == {}


def test_bundle_without_the_output_comparison_records_the_hash_proof(tmp_path: Path) -> None:
    src = factory.external_model(tmp_path / "src", n=512)
    res = build_bundle(BundleOptions(src, tmp_path / "out", "1.0.0", source_date_epoch=EPOCH, compare_outputs=False))
    assert res.equal is not None
    assert res.equal["methods"] == [proof.METHOD] and res.equal["outputs"] == []
    assert res.equal["weights"]["tensors"] == 3
    assert res.manifest["smoke"]["equal"] == res.equal
    assert verify_bundle(res.zip_path, smoke=True).ok


def test_small_models_also_compare_outputs_by_default(tmp_path: Path) -> None:
    src = factory.external_model(tmp_path / "src", n=512)
    res = build_bundle(BundleOptions(src, tmp_path / "out", "1.0.0", source_date_epoch=EPOCH))
    assert res.equal is not None and res.equal["methods"] == [proof.METHOD, "outputs"]
    assert [r["bitwise_equal"] for r in res.equal["outputs"]] == [True]


def test_a_single_file_bundled_as_it_is_is_proven_by_its_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    """A single file without external data ships byte for byte: its SHA-256 is the proof. No tensor is hashed again,
    and the original is not run a second time (its outputs could not differ) unless --compare-outputs always."""
    import hashlib

    from onnxpack.core.runtime import smoke as smoke_mod

    def no_proof(*_a: Any) -> Any:
        raise AssertionError("the tensor proof ran")

    monkeypatch.setattr(bundle_mod, "prove_same_model", no_proof)
    runs: list[int] = []
    real_execute = smoke_mod._execute

    def count(models: list[Any], *a: Any, **k: Any) -> Any:
        runs.append(len(models))
        return real_execute(models, *a, **k)

    monkeypatch.setattr(smoke_mod, "_execute", count)
    src = _write(factory.add_model(n=1024), tmp_path / "src" / "m.onnx")
    sha = hashlib.sha256(src.read_bytes()).hexdigest()
    res = build_bundle(BundleOptions(src, tmp_path / "out", "1.0.0", source_date_epoch=EPOCH))
    assert res.equal is not None and res.equal["methods"] == [proof.FILE_METHOD] and res.equal["outputs"] == []
    weights = res.equal["weights"]
    assert weights == {"method": proof.FILE_METHOD, "tensors": 3, "tensor_bytes": 1024 * 4 * 2 + 4,
                       "fingerprint_sha256": sha}
    assert next(f for f in res.manifest["files"] if f["role"] == "model")["sha256"] == sha
    assert runs == [1]  # the bundled model alone
    assert verify_bundle(res.zip_path, smoke=True).ok

    runs.clear()
    res = build_bundle(BundleOptions(src, tmp_path / "out2", "1.0.0", source_date_epoch=EPOCH, compare_outputs=True))
    assert res.equal is not None and res.equal["methods"] == [proof.FILE_METHOD, "outputs"]
    assert [r["bitwise_equal"] for r in res.equal["outputs"]] == [True] and runs == [2]


def test_a_single_file_a_fix_changes_gets_the_tensor_proof(tmp_path: Path) -> None:
    """Bytes that differ from the source's (here a new model_version) are proven the long way."""
    src = _write(factory.add_model(n=1024), tmp_path / "src" / "m.onnx")
    res = build_bundle(BundleOptions(src, tmp_path / "out", "1.0.0", source_date_epoch=EPOCH,
                                     set_model_version=True))
    assert res.equal is not None and res.equal["methods"] == [proof.METHOD, "outputs"]


def test_a_merge_that_changes_a_weight_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from onnxpack.core.model.merge import mergewrite

    real = mergewrite.Writer.write

    def flipping(self: Any, data: Any) -> Any:
        """One bit of the first large piece written differs from what was read (what a merge bug would look like)."""
        if len(data) >= 1024 and not getattr(self, "flipped", False):
            self.flipped = True
            data = bytearray(data)
            data[len(data) // 2] ^= 1
        return real(self, data)

    monkeypatch.setattr(mergewrite.Writer, "write", flipping)
    src = factory.external_model(tmp_path / "src", n=512)
    out = tmp_path / "out"
    with pytest.raises(OnnxpackError) as e:
        build_bundle(BundleOptions(src, out, "1.0.0", source_date_epoch=EPOCH, compare_outputs=False))
    assert e.value.code == "MERGE_NOT_EQUAL"
    assert not out.exists() or [p.name for p in out.iterdir()] == []


def test_the_smoke_run_and_the_proof_read_the_stored_zip_entry(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """No temporary copy of a single-file model: both read the entry in the ZIP being written."""
    seen: list[tuple[Path, Any]] = []
    real = proof.prove_same_model

    def spy(*args: Any) -> Any:
        seen.append((args[3], args[6] if len(args) > 6 else None))
        return real(*args)

    monkeypatch.setattr(bundle_mod, "prove_same_model", spy)
    src = factory.external_model(tmp_path / "src", n=512)
    res = build_bundle(BundleOptions(src, tmp_path / "out", "1.0.0", source_date_epoch=EPOCH))
    (path, window), = seen
    assert window is not None and path.parent == tmp_path / "out" and path.name != res.zip_path.name
    with zipfile.ZipFile(res.zip_path) as zf:
        info = zf.getinfo("model.onnx")
        assert info.compress_type == zipfile.ZIP_STORED and info.file_size == window[1]
        assert zf.read(info) == res.zip_path.read_bytes()[window[0]:window[0] + window[1]]


def test_a_deflated_bundle_still_proves_from_a_copy(tmp_path: Path) -> None:
    src = factory.external_model(tmp_path / "src", n=512)
    res = build_bundle(BundleOptions(src, tmp_path / "out", "1.0.0", source_date_epoch=EPOCH, compress=True,
                                     compare_outputs=False))
    assert res.equal is not None and res.equal["methods"] == [proof.METHOD]
    assert verify_bundle(res.zip_path, smoke=True).ok


def test_a_model_window_parses_like_the_file_and_is_bounds_checked(tmp_path: Path) -> None:
    model = factory.add_model(n=1024)
    alone = _write(model, tmp_path / "m.onnx")
    body = alone.read_bytes()
    packed = tmp_path / "packed.bin"
    packed.write_bytes(b"x" * 777 + body + b"y" * 99)
    got = load_structure(packed, (777, len(body)))
    table = resolve_external_data(got, tmp_path)
    assert table.ok and [r.offset for r in table.refs] == [
        777 + r.offset for r in resolve_external_data(load_structure(alone), tmp_path).refs  # type: ignore[operator]
    ]
    with pytest.raises(ModelFormatError):
        load_structure(packed, (777, len(body) + 200))


def test_verify_smoke_reads_the_model_in_place_and_notices_a_change(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    src = factory.external_model(tmp_path / "src", n=512)
    res = build_bundle(BundleOptions(src, tmp_path / "out", "1.0.0", source_date_epoch=EPOCH))
    from onnxpack.core.runtime import smoke

    calls: list[dict[str, Any]] = []
    real = smoke.smoke_test

    def touching(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        result = real(*args, **kwargs)
        os.utime(res.zip_path, ns=(1, 1))  # somebody rewrote the archive during the run
        return result

    monkeypatch.setattr(smoke, "smoke_test", touching)
    with pytest.raises(InputError) as e:
        verify_bundle(res.zip_path, smoke=True)
    assert e.value.code == "BUNDLE_CHANGED"
    assert calls and calls[0]["window"] is not None and calls[0]["name"] == "model.onnx"


def test_released_pages_read_back_the_same_bytes(tmp_path: Path) -> None:
    data = np.random.default_rng(1).integers(0, 255, 8 << 20, dtype=np.uint8).tobytes()
    path = tmp_path / "w.bin"
    path.write_bytes(data)
    with open(path, "rb") as f:
        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    view = memoryview(m)
    with _pages_released([m], every=0.001):
        total = sum(bytes(view[i:i + 4096]) == data[i:i + 4096] for i in range(0, len(data), 4096))
    assert total == len(data) // 4096
    assert bytes(view[-10:]) == data[-10:]
    view.release()
    m.close()
    with _pages_released([m], every=0.001):  # a closed map is skipped, not an error
        pass



def test_the_bundle_reads_the_source_structure_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stages hand each other the loaded skeleton: validation, fixes, merge plan and proof do not re-read it."""
    from onnxpack.core.model import skeleton

    src = factory.external_model(tmp_path / "src", n=512)
    reads: list[Path] = []
    real = skeleton.read_skeleton

    def counting(path: Path, window: Any = None) -> Any:
        reads.append(Path(path))
        return real(path, window)

    monkeypatch.setattr(skeleton, "read_skeleton", counting)
    build_bundle(BundleOptions(src, tmp_path / "out", "1.0.0", source_date_epoch=EPOCH, compare_outputs=False,
                               set_model_version=True))
    assert reads.count(src) == 1, reads


def test_a_bundle_runs_the_shipped_model_first_and_the_source_once(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison runs the bytes that ship three times (the smoke record: its timings, its nondeterminism check)
    and the source once: its outputs are what is compared."""
    from onnxpack.core.runtime import smoke as smoke_mod

    seen: list[tuple[list[Any], Any, dict[str, Any]]] = []
    real_execute = smoke_mod._execute

    def spy(models: list[Any], options: Any, **k: Any) -> Any:
        raw, loaded = real_execute(models, options, **k)
        seen.append((models, options, raw))
        return raw, loaded

    monkeypatch.setattr(smoke_mod, "_execute", spy)
    src = factory.external_model(tmp_path / "src", n=512)
    res = build_bundle(BundleOptions(src, tmp_path / "out", "1.0.0", source_date_epoch=EPOCH))
    assert res.equal is not None and res.equal["methods"] == [proof.METHOD, "outputs"]
    (models, options, raw), = seen
    assert [m.spec.get("inline") for m in models] == [True, False]  # the merged entry (written by us), the source
    assert options.compare_runs == 1 and options.runs == 3
    assert [len(m["run_times"]) for m in raw["models"]] == [3, 1]
    assert res.manifest["smoke"]["recipe"]["runs"] == 3


def test_tensors_are_compared_in_balanced_shares_and_the_first_difference_is_found(tmp_path: Path) -> None:
    """first_different shares the tensors out by bytes, one thread a share: whatever the number of threads and the
    chunk size, equal files compare equal, a changed byte in any tensor is found at that tensor, and a share that
    fails (a data file cut short) fails the whole."""
    from onnx import helper, numpy_helper

    rng = np.random.default_rng(1)
    inits = [numpy_helper.from_array(rng.standard_normal(n).astype(np.float32), f"w{i}")
             for i, n in enumerate([4096, 300, 70_000, 1024, 9000, 5])]
    nodes = [helper.make_node("Identity", [t.name], [f"o{i}"]) for i, t in enumerate(inits)]
    graph = helper.make_graph(nodes, "g", [], [helper.make_tensor_value_info(f"o{i}", onnx.TensorProto.FLOAT, None)
                                               for i in range(len(inits))], inits)
    model = tmp_path / "a" / "m.onnx"
    model.parent.mkdir()
    factory.save_with_external(helper.make_model(graph), model)
    copy = tmp_path / "b"
    copy.mkdir()
    for p in model.parent.iterdir():
        (copy / p.name).write_bytes(p.read_bytes())
    sides = []
    for folder in (model.parent, copy):
        structure = load_structure(folder / "m.onnx")
        table = resolve_external_data(structure, folder)
        sides.append((proof._contents(structure, table), table))
    (a, ta), (b, tb) = sides
    assert [type(c) for c in a] == [type(c) for c in b]
    for n in (1, 2, 3, 8):
        assert proof.first_different(a, ta, b, tb, threads=n, chunk=4096) is None

    shares = proof._shares([(i, proof._size(c)) for i, c in enumerate(a)], 2)
    assert sorted(i for share in shares for i in share) == list(range(len(a)))
    assert all(share == sorted(share) for share in shares)  # each in tensor order
    loads = [sum(proof._size(a[i]) for i in share) for share in shares]
    assert max(loads) - min(loads) <= max(map(proof._size, a))

    data = next(p for p in copy.iterdir() if p.name != "m.onnx")
    body = data.read_bytes()
    for i, ref in enumerate(b):
        if ref is None or isinstance(ref, bytes):
            continue
        changed = bytearray(body)
        changed[ref.offset + ref.data_length - 1] ^= 0x80  # the tensor's last byte
        data.write_bytes(bytes(changed))
        for n in (1, 3):
            assert proof.first_different(a, ta, b, tb, threads=n, chunk=4096) == i

    data.write_bytes(body[: len(body) // 2])
    with pytest.raises(OnnxpackError):
        proof.first_different(a, ta, b, tb, threads=3, chunk=4096)
