"""The end user's load cost (core/runtime/loadcost.py): each layout loaded by path where nothing before it peaked
higher (the shipped one by the smoke run's own session on Linux), its time and the memory it adds in the manifest,
README.txt and the app; a warning when the shipped single file costs more.

Timings and memory are machine-dependent: tests check what is recorded and how it is judged, never the values."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import jsonschema
import onnx
import pytest

from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.manifest import load_schema
from onnxpack.core.release.verify.verify import verify_bundle
from onnxpack.core.runtime import loadcost
from tests import factory


def _doc(shipped_s: float, source_s: float, shipped_mib: int, source_mib: int,
         layouts: tuple[str, str] = ("single", "external")) -> dict[str, Any]:
    mib = 2**20
    doc: dict[str, Any] = {
        "method": "m", "ort_version": "1.32.0",
        "shipped": {"layout": layouts[0], "load_s": shipped_s, "peak_bytes": shipped_mib * mib,
                    "baseline_bytes": 50 * mib},
        "source": {"layout": layouts[1], "load_s": source_s, "peak_bytes": source_mib * mib,
                   "baseline_bytes": 50 * mib},
    }
    doc["time_ratio"] = round(shipped_s / source_s, 2)
    doc["memory_ratio"] = round(shipped_mib / source_mib, 2)
    return doc


def test_heavier_warns_when_the_single_file_costs_more_and_names_the_layout_option() -> None:
    found = loadcost.heavier(_doc(4.8, 2.4, 2533, 1609), "model.onnx")
    assert [f.code for f in found] == ["LOAD_COST_HEAVY"]
    assert "--layout external" in found[0].hint and "--layout keep" in found[0].hint
    assert "2.00x the load time" in found[0].message and "1.57x the memory" in found[0].message
    assert "2.4 GiB against 2.40 s and 1.5 GiB" in found[0].message  # what each load added: peak less baseline
    # memory alone over the line is enough
    assert [f.code for f in loadcost.heavier(_doc(2.5, 2.4, 2533, 1609), "m")] == ["LOAD_COST_HEAVY"]


@pytest.mark.parametrize("doc", [
    _doc(2.5, 2.4, 1700, 1609),  # within 1.25x both
    _doc(0.03, 0.01, 61, 60),  # 3x the time of a small model, but by milliseconds: noise, not a cost
    _doc(0.3, 0.1, 60, 60),  # 3x, but 0.2 s
    _doc(0.2, 0.1, 100, 60),  # 1.67x the memory, but 40 MiB
    _doc(4.8, 2.4, 2533, 1609, ("external", "single")),  # not the merged layout
    _doc(4.8, 2.4, 2533, 1609, ("single", "single")),
])
def test_heavier_stays_quiet(doc: dict[str, Any]) -> None:
    assert loadcost.heavier(doc, "m") == []


def test_heavier_without_a_measure_of_both_sides() -> None:
    doc = _doc(4.8, 2.4, 2533, 1609)
    doc["source"] = {"layout": "external", "error": "refused"}
    del doc["time_ratio"], doc["memory_ratio"]
    assert loadcost.heavier(doc, "m") == []
    assert loadcost.heavier(None, "m") == []


def test_the_peak_is_reset_between_two_loads_in_one_process(tmp_path: Path) -> None:
    """A large session first, a small one after it: the second's peak is its own, not the first's (Linux)."""
    if not loadcost.can_reset_peak():
        pytest.skip("a process cannot reset its peak here")
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    def model(path: Path, n: int) -> Path:
        w = numpy_helper.from_array(np.ones((n, n), dtype=np.float32), "W")
        graph = helper.make_graph([helper.make_node("MatMul", ["X", "W"], ["Y"])], "g",
                                  [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, n])],
                                  [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, n])], [w])
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
        return path

    big, small = model(tmp_path / "big.onnx", 4096), model(tmp_path / "small.onnx", 8)  # 64 MiB of weights
    with loadcost.started(1) as cost:
        doc = loadcost.measure(cost, loadcost.Layouts(big, "single", small, "single"), "x")
    assert doc["shipped"]["peak_bytes"] - doc["source"]["peak_bytes"] > 48 * 2**20


def test_resetting_the_peak_starts_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Between two measured loads the child hands freed memory back without naming the C library first (ctypes'
    find_library runs `ldconfig -p` in a subprocess each time)."""
    if not loadcost.can_reset_peak():
        pytest.skip("a process cannot reset its peak here")
    import subprocess

    started: list[Any] = []
    real = subprocess.Popen.__init__

    def spy(self: Any, *args: Any, **kwargs: Any) -> None:
        started.append(args[0] if args else kwargs.get("args"))
        real(self, *args, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", spy)
    loadcost._reset_peak()
    assert started == []
    assert loadcost.peak_resident_bytes() > 0


def test_peak_resident_bytes_reads_this_process() -> None:
    first = loadcost.peak_resident_bytes()
    assert first is not None and first > 1 << 20
    statm = Path("/proc/self/statm")
    held = int(statm.read_text().split()[1]) * 4096 if statm.exists() else first
    block = bytearray(first - held + (64 << 20))  # touched: resident, 64 MiB beyond the peak so far
    block[::4096] = b"x" * len(block[::4096])
    second = loadcost.peak_resident_bytes()
    assert second is not None and second >= first + (48 << 20)


@pytest.mark.parametrize("processes", [2, 1])
def test_measure_loads_each_layout_by_path(tmp_path: Path, processes: int) -> None:
    """Each in a fresh process (2), or the source after the shipped one in the same process, its peak reset (1:
    Linux)."""
    if processes == 1 and not loadcost.can_reset_peak():
        pytest.skip("a process cannot reset its peak here")
    source = factory.external_model(tmp_path / "src")
    single = tmp_path / "single" / "model.onnx"
    single.parent.mkdir()
    onnx.save(onnx.load(str(source)), str(single))
    with loadcost.started(processes) as cost:
        doc = loadcost.measure(cost, loadcost.Layouts(single, "single", source, "external"), "1.32.0")
    assert ("then the source in it" in doc["method"]) == (processes == 1)
    for key, layout in (("shipped", "single"), ("source", "external")):
        side = doc[key]
        assert side["layout"] == layout and "error" not in side, side
        assert side["load_s"] >= 0 and side["peak_bytes"] >= side["baseline_bytes"] > 0
    assert doc["time_ratio"] >= 0 and doc["memory_ratio"] > 0
    jsonschema.validate(doc, {**load_schema()["$defs"]["smoke"]["properties"]["load_cost"],
                              "$defs": load_schema()["$defs"]})


def test_added_bytes_is_the_peak_less_what_the_process_held() -> None:
    assert loadcost.added_bytes({"peak_bytes": 300, "baseline_bytes": 100}) == 200
    assert loadcost.added_bytes({"peak_bytes": 300}) == 300  # a record without a baseline: its peak
    assert loadcost.added_bytes({"peak_bytes": 100, "baseline_bytes": 120}) == 0
    assert loadcost.added_bytes({"error": "refused"}) is None


def test_measure_takes_the_shipped_load_the_smoke_run_measured(tmp_path: Path) -> None:
    """On Linux the smoke run's own session measured the shipped layout: only the source is loaded (fresh process),
    and the layouts are compared by what each load added, whatever each process held before it."""
    source = factory.external_model(tmp_path / "src")
    shipped = {"load_s": 0.5, "peak_bytes": 400 * 2**20, "baseline_bytes": 300 * 2**20}
    with loadcost.started(1) as cost:
        doc = loadcost.measure(cost, loadcost.Layouts(tmp_path / "nowhere.onnx", "single", source, "external"),
                               "1.32.0", shipped=shipped)
    assert "smoke run's own session" in doc["method"]
    assert doc["shipped"] == {"layout": "single", **shipped, "added_bytes": 100 * 2**20}  # never loaded again
    src = doc["source"]
    assert "error" not in src and src["added_bytes"] == src["peak_bytes"] - src["baseline_bytes"]
    # what each added, a load below the noise (64 MiB) counted as 64 MiB
    assert doc["memory_ratio"] == round(100 * 2**20 / max(src["added_bytes"], loadcost.MIN_MEMORY_BYTES), 2)
    jsonschema.validate(doc, {**load_schema()["$defs"]["smoke"]["properties"]["load_cost"],
                              "$defs": load_schema()["$defs"]})


def test_measure_records_a_layout_onnx_runtime_refuses(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    with loadcost.started(1) as cost:
        doc = loadcost.measure(cost, loadcost.Layouts(bad, "single", None, "external"), "1.32.0")
    assert doc["shipped"]["error"] and doc["source"]["error"]
    assert "time_ratio" not in doc and loadcost.heavier(doc, "m") == []


def _bundle(model: Path, out: Path, **kw: Any) -> Any:
    return build_bundle(BundleOptions(model=model, out_dir=out, version="1.0.0", source_date_epoch=1_700_000_000,
                                      **kw))


def test_bundle_records_the_load_cost_in_manifest_readme_and_verifies(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    model = factory.external_model(tmp_path / "src")
    started: list[Any] = []
    real = loadcost.started
    monkeypatch.setattr(loadcost, "started", lambda *a: started.append(a) or real(*a))
    r = _bundle(model, tmp_path / "out")
    cost = r.manifest["smoke"]["load_cost"]
    assert (cost["shipped"]["layout"], cost["source"]["layout"]) == ("single", "external")
    assert all("load_s" in cost[k] and "error" not in cost[k] for k in ("shipped", "source"))
    assert all(cost[k]["added_bytes"] == cost[k]["peak_bytes"] - cost[k]["baseline_bytes"] for k in cost
               if k in ("shipped", "source"))
    # Linux: the smoke run's own session was the shipped layout's load (one session of it, not two), and the smoke
    # child loaded the source after the run: no load-cost process at all
    assert ("both in the smoke run's process" in cost["method"]) == loadcost.can_reset_peak()
    assert (started == []) == loadcost.can_reset_peak()
    jsonschema.validate(r.manifest, load_schema(), cls=jsonschema.Draft202012Validator)
    with zipfile.ZipFile(r.zip_path) as zf:
        assert json.loads(zf.read("manifest.json"))["smoke"]["load_cost"] == cost
        readme = zf.read("README.txt").decode()
        assert not any(n.startswith("loadcost") for n in zf.namelist())
    assert "Loading model.onnx by its path" in readme and "as it came (external)" in readme
    report = verify_bundle(r.zip_path)
    assert report.ok, report.problems
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["model-1.0.0.zip"]


def test_the_load_is_measured_on_the_copy_the_merge_teed_not_on_an_extraction(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped file the end user's load is measured on is written by the merge beside the ZIP entry, from the same
    buffers: the smoke run finds it whole, with the entry's bytes, and nothing copies the entry out after the merge."""
    import hashlib

    from onnxpack.core.release import endload, modelstage

    model = factory.external_model(tmp_path / "src")
    seen: list[tuple[Path, str]] = []
    real_shipped = endload.shipped_file

    def shipped_file(target: Any, teed: Any, *source: Any) -> Path:
        path = real_shipped(target, teed, *source)
        seen.append((path, hashlib.sha256(path.read_bytes()).hexdigest()))
        return path

    monkeypatch.setattr(modelstage, "shipped_file", shipped_file)
    r = _bundle(model, tmp_path / "out")
    assert len(seen) == 1
    path, digest = seen[0]
    assert path.parent.name == "merged" and path.name == "model.onnx"  # the work folder's copy
    entry = next(f for f in r.files if f["path"] == "model.onnx")
    assert digest == entry["sha256"]
    assert "load_s" in r.manifest["smoke"]["load_cost"]["shipped"]
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["model-1.0.0.zip"]


def test_no_load_cost_leaves_it_out_and_repeats_byte_for_byte(tmp_path: Path) -> None:
    model = factory.external_model(tmp_path / "src")
    a = _bundle(model, tmp_path / "a", load_cost=False)
    b = _bundle(model, tmp_path / "b", load_cost=False)
    assert "load_cost" not in a.manifest["smoke"]
    assert a.zip_path.read_bytes() == b.zip_path.read_bytes()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_app_says_the_load_cost(qapp: Any) -> None:
    from onnxpack.gui import i18n
    from onnxpack.gui.loads_view import LoadsBox, load_rows_of

    i18n.install_translators(qapp, "en")

    manifest = {"model": {"entry": "gpt2.onnx"}, "smoke": {"ort_version": "1.32.0",
                                                          "load_cost": _doc(4.8, 2.4, 2533, 1609)}}
    rows = load_rows_of(manifest)
    assert [e for e, _ in rows] == ["gpt2.onnx"]  # shown although no load matrix was recorded (a large model)
    box = LoadsBox()
    box.show_loads(rows, recorded=True)
    text = box.note.text()
    assert "gpt2.onnx" in text and "4.80 s" in text and "2483 MiB" in text and "2.00x" in text  # 2533 - 50


@pytest.mark.parametrize(("doc", "said"), [
    (_doc(4.8, 2.4, 2533, 1609), True),  # seconds and hundreds of MiB apart
    (_doc(2.5, 2.4, 1700, 1609), True),  # 0.1 s, but 91 MiB apart
    (_doc(0.03, 0.01, 61, 60), False),  # a small model: milliseconds and 1 MiB, whatever the ratio
    (_doc(0.3, 0.1, 60, 60), False),  # 3x, but 0.2 s
])
def test_ratios_are_said_only_beyond_the_noise(doc: dict[str, Any], said: bool) -> None:
    """README.txt and the app state the ratios only where the loads differ by more than the measurement's noise
    (MIN_SECONDS, MIN_MEMORY_BYTES); otherwise they say the layouts load alike."""
    from onnxpack.core.release.readme import _load_cost

    assert loadcost.noticeable(doc) is said
    text = "\n".join(_load_cost({"model": {"entry": "m.onnx"}, "smoke": {"load_cost": doc}}))
    assert ("x the time" in text) is said
    assert ("loads as the source's does" in text) is not said
    half = {k: v for k, v in doc.items() if k != "source"} | {"source": {"layout": "external", "error": "refused"}}
    assert not loadcost.noticeable(half)


def test_the_measured_loads_wait_for_each_other_and_for_the_proof() -> None:
    """On Linux the smoke child measures the shipped layout (its first session) and then the source: until the first
    session is created the bundle's one-load lock is held (a release's other model measures no load beside it) and
    the proof's hashing waits; before the source's load the child asks, and is answered once the proof is done and
    the lock is held again, until the smoke run ends. Every report still reaches the caller."""
    import threading

    from onnxpack.core import steps
    from onnxpack.core.errors import Cancelled
    from onnxpack.core.progress import STEPS, CancelToken, report
    from onnxpack.core.release import endload

    lock = endload.ONE_LOAD_AT_A_TIME
    seen: list[str] = []
    proved: list[str] = []
    loads = endload.MeasuredLoads(lambda e: seen.append(e.step), True, lambda: proved.append("proof"))
    assert not lock.acquire(blocking=False)
    waited = threading.Event()

    def wait() -> None:
        loads.wait(CancelToken())
        waited.set()

    thread = threading.Thread(target=wait)
    thread.start()
    report(loads.progress, "smoke", 0, 1, steps.RUNNING, unit=STEPS, model="m")  # not the session: still waiting
    assert not waited.wait(0.3)
    report(loads.progress, "smoke", 0, 1, steps.SESSION_CREATED, unit=STEPS, seconds=1.0)
    thread.join(5)
    assert waited.is_set() and seen == ["RUNNING", "SESSION_CREATED"]
    assert lock.acquire(blocking=False)  # free between the two loads
    lock.release()

    assert loads.answer("something else") is False and proved == []
    assert loads.answer(endload.MEASURE_SOURCE) is True and proved == ["proof"]
    assert not lock.acquire(blocking=False)  # held for the source's load
    loads.done()
    loads.done()  # again (the bundle's finally): harmless, the lock is not released twice
    assert lock.acquire(blocking=False)
    lock.release()

    stop = CancelToken()
    never = endload.MeasuredLoads(None, True, lambda: None)
    try:
        stop.cancel()
        with pytest.raises(Cancelled):
            never.wait(stop)
    finally:
        never.done()
    endload.MeasuredLoads(None, False, lambda: None).wait(CancelToken())  # nothing measured: nothing to wait for


def test_a_layout_the_smoke_run_did_not_measure_is_recorded_as_such(tmp_path: Path) -> None:
    """The smoke child measures both layouts on Linux; one it did not load is recorded, never a failure."""
    layouts = loadcost.Layouts(tmp_path / "m.onnx", "single", tmp_path / "src.onnx", "external")
    shipped = {"load_s": 0.5, "peak_bytes": 400, "baseline_bytes": 300}
    doc = loadcost.measure(None, layouts, "1.32.0", shipped=shipped)
    assert doc["shipped"]["added_bytes"] == 100 and "not measured" in doc["source"]["error"]
    assert "time_ratio" not in doc and loadcost.heavier(doc, "m") == []
    nothing = loadcost.measure(None, layouts, "1.32.0")
    assert "error" in nothing["shipped"] and "error" in nothing["source"]
    jsonschema.validate(nothing, {**load_schema()["$defs"]["smoke"]["properties"]["load_cost"],
                                  "$defs": load_schema()["$defs"]})


@pytest.mark.parametrize("measured_in_child", [True, False])
def test_the_source_bundled_as_it_came_is_not_loaded_again(tmp_path: Path, measured_in_child: bool) -> None:
    """The shipped file is the source file byte for byte: its one load is the source's too (recorded as such, the
    ratios 1), whether the smoke run measured it or a load-cost process does; the source is never loaded."""
    model = tmp_path / "m.onnx"
    onnx.save(factory.add_model(), model)
    shipped = {"load_s": 0.5, "peak_bytes": 400 * 2**20, "baseline_bytes": 300 * 2**20} if measured_in_child else None
    asked: list[list[Path]] = []
    real = loadcost._loads

    def loads(cost: Any, index: int, paths: list[Path], cancel: Any) -> list[dict[str, Any]]:
        asked.append(paths)
        return real(cost, index, paths, cancel)

    with pytest.MonkeyPatch.context() as mp, loadcost.started(1) as cost:
        mp.setattr(loadcost, "_loads", loads)
        doc = loadcost.measure(cost, loadcost.Layouts(model, "single", tmp_path / "elsewhere.onnx", "single",
                                                      same=True), "1.32.0", shipped=shipped)
    assert asked == ([] if measured_in_child else [[model]])  # the shipped file only, never the source
    a, b = doc["shipped"], doc["source"]
    assert "error" not in a and b == {**a, "same_as_shipped": True}
    assert doc["time_ratio"] == 1.0 and doc["memory_ratio"] == 1.0 and loadcost.heavier(doc, "m") == []
    assert "byte for byte" in doc["method"]
    jsonschema.validate(doc, {**load_schema()["$defs"]["smoke"]["properties"]["load_cost"],
                              "$defs": load_schema()["$defs"]})


def test_a_single_file_bundled_as_it_came_records_one_load(tmp_path: Path) -> None:
    """The bundle ships a self-contained source as it is: the manifest, README.txt and the app say its one load is
    the source's too, without a second load or a ratio of noise."""
    from onnxpack.core.release.readme import _load_cost

    model = tmp_path / "src" / "m.onnx"
    model.parent.mkdir()
    onnx.save(factory.add_model(), model)
    r = _bundle(model, tmp_path / "out")
    cost = r.manifest["smoke"]["load_cost"]
    assert cost["source"].get("same_as_shipped") is True, cost
    assert {k: v for k, v in cost["source"].items() if k != "same_as_shipped"} == cost["shipped"]
    assert cost["time_ratio"] == cost["memory_ratio"] == 1.0
    jsonschema.validate(r.manifest, load_schema(), cls=jsonschema.Draft202012Validator)
    text = "\n".join(_load_cost(r.manifest))
    assert "as it came (single): the same file, byte for byte" in text and "loads as the source's" not in text
    with zipfile.ZipFile(r.zip_path) as zf:
        assert "the same file, byte for byte" in zf.read("README.txt").decode()


class _Spies:
    """What the bundle's model stage did: the files the smoke run loaded the shipped model from, the tensor hashers
    made, the entries copied out after the merge."""

    def __init__(self, mp: pytest.MonkeyPatch) -> None:
        from onnxpack.core.release import modelstage

        self.by_path: list[Path | None] = []
        self.hashers = 0
        self.copied: list[int] = []
        real_run, real_copy, real_hasher = modelstage.run_smoke, modelstage.copy_range, modelstage.TensorHasher
        spies = self

        def run_smoke(plan: Any, target: Any, *a: Any) -> Any:
            spies.by_path.append(target.by_path)
            return real_run(plan, target, *a)

        def copy_range(src: Any, fd: int, offset: int, length: int, *a: Any, **k: Any) -> int:
            spies.copied.append(length)
            return real_copy(src, fd, offset, length, *a, **k)

        class Hasher(real_hasher):  # type: ignore[misc, valid-type]
            def __init__(self) -> None:
                spies.hashers += 1
                super().__init__()

        mp.setattr(modelstage, "run_smoke", run_smoke)
        mp.setattr(modelstage, "copy_range", copy_range)
        mp.setattr(modelstage, "TensorHasher", Hasher)


def test_a_single_file_that_ships_as_it_came_is_measured_on_itself(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A self-contained source bundled as one file comes out as the source byte for byte: its end user's load is
    measured on the source file itself (no copy teed beside the entry, none copied out after), and no tensor is
    hashed one by one (the file's SHA-256 is the proof). The source stays where and as it was."""
    from onnxpack.core.model.merge import proof

    model = tmp_path / "src" / "m.onnx"
    model.parent.mkdir()
    onnx.save(factory.add_model(n=4096), model)
    before = (model.read_bytes(), model.stat().st_mtime_ns)
    spies = _Spies(monkeypatch)
    r = _bundle(model, tmp_path / "out")
    assert r.equal["weights"]["method"] == proof.FILE_METHOD
    assert spies.by_path == [model] and spies.hashers == 0 and spies.copied == []
    cost = r.manifest["smoke"]["load_cost"]
    assert "load_s" in cost["shipped"] and cost["source"].get("same_as_shipped") is True
    assert (model.read_bytes(), model.stat().st_mtime_ns) == before
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["m-1.0.0.zip"]
    assert verify_bundle(r.zip_path, smoke=True).ok


@pytest.mark.parametrize("as_it_came", [True, False])
def test_where_one_process_cannot_measure_two_loads_a_file_shipped_as_it_came_starts_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, as_it_came: bool) -> None:
    """Where a process's peak cannot be reset (Windows, macOS) each measured load has a process of its own, started
    while the smoke run goes on: one when the shipped file is the source byte for byte, two otherwise."""
    if as_it_came:
        model = tmp_path / "src" / "m.onnx"
        model.parent.mkdir()
        onnx.save(factory.add_model(), model)
    else:
        model = factory.external_model(tmp_path / "src")
    counts: list[int | None] = []
    real = loadcost.started
    monkeypatch.setattr(loadcost, "can_reset_peak", lambda: False)
    monkeypatch.setattr(loadcost, "started", lambda count=None: counts.append(count) or real(count))
    r = _bundle(model, tmp_path / "out")
    cost = r.manifest["smoke"]["load_cost"]
    assert "load_s" in cost["shipped"] and "load_s" in cost["source"]
    assert counts == ([1] if as_it_came else [None])
    assert (cost["source"].get("same_as_shipped") is True) == as_it_came


def _out_of_order(model: onnx.ModelProto) -> bytes:
    """``model`` as protobuf parses it but never writes it: its opset imports before the other fields (protobuf
    merges the two pieces). The same size as ``model.SerializeToString()``, other bytes."""
    rest = onnx.ModelProto()
    rest.CopyFrom(model)
    rest.ClearField("opset_import")
    opsets = onnx.ModelProto()
    opsets.opset_import.extend(model.opset_import)
    return opsets.SerializeToString() + rest.SerializeToString()


def test_a_single_file_that_does_not_come_out_as_it_came_is_proven_and_measured_the_long_way(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Predicted to ship as it came (self-contained, no fix, the same size), a file protobuf would write otherwise
    does not: its tensors are hashed for the fingerprint after the merge, the entry is copied out for the end user's
    load, and the source is loaded too. The fingerprint is the model's whatever its layout: that of the same model
    with external data."""
    from onnxpack.core.model.merge import proof

    m = factory.add_model(n=4096)
    body = _out_of_order(m)
    assert len(body) == len(m.SerializeToString()) and body != m.SerializeToString()
    model = tmp_path / "src" / "m.onnx"
    model.parent.mkdir()
    model.write_bytes(body)
    spies = _Spies(monkeypatch)
    r = _bundle(model, tmp_path / "out")
    weights = r.equal["weights"]
    assert weights["method"] == proof.METHOD and weights["tensors"] == 3
    assert spies.hashers == 1 and len(spies.copied) == (1 if loadcost.can_reset_peak() else 0)
    cost = r.manifest["smoke"]["load_cost"]
    assert "load_s" in cost["shipped"] and "load_s" in cost["source"] and "same_as_shipped" not in cost["source"]
    assert model.read_bytes() == body
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["m-1.0.0.zip"]
    assert verify_bundle(r.zip_path, smoke=True).ok

    ext = tmp_path / "ext" / "m.onnx"
    ext.parent.mkdir()
    onnx.save(m, ext, save_as_external_data=True, all_tensors_to_one_file=True, location="m.onnx.data",
              size_threshold=0)
    other = _bundle(ext, tmp_path / "out-ext", load_cost=False)
    assert other.equal["weights"]["fingerprint_sha256"] == weights["fingerprint_sha256"]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_app_says_one_load_for_a_file_shipped_as_it_came(qapp: Any, lang: str) -> None:
    from onnxpack.gui import i18n
    from onnxpack.gui.loads_view import LoadsBox

    i18n.install_translators(qapp, lang)
    try:
        doc = _doc(0.2, 0.2, 160, 160, ("single", "single"))
        doc["source"]["same_as_shipped"] = True
        text = LoadsBox().cost_text("m.onnx", doc)
        assert "m.onnx" in text and "0.20" in text and "110 MiB" in text  # 160 - 50
        assert ("byte for byte" in text) if lang == "en" else ("バイト単位で同一" in text)
        assert "1.00x" not in text
    finally:
        i18n.install_translators(qapp, "en")



@pytest.mark.skipif(not loadcost.can_reset_peak(), reason="the smoke run measures the loads itself only on Linux")
@pytest.mark.parametrize("answer", [True, False])
def test_the_original_compared_is_the_measured_load_of_the_source(tmp_path: Path, answer: bool) -> None:
    """The bundle compares the outputs of a model merged from external data with the original's: the original's
    session is the end user's measured load of the source by its path, not one more session of it (issue 40 §4).
    When the parent says not to measure, the original is opened the child's own way, and nothing is measured."""
    from onnxpack.core.model.merge.merge import merge_model
    from onnxpack.core.model.modelfile import locate_model
    from onnxpack.core.runtime.smoke import KnownModel, compare_models

    src = factory.external_model(tmp_path / "src", n=4096)
    shipped = tmp_path / "shipped" / "m.onnx"
    shipped.parent.mkdir()
    merge_model(src, shipped)
    asked: list[Any] = []
    bundled = KnownModel(locate_model(shipped), (shipped,), by_path=shipped, source_by_path=src, role="bundled")
    original = KnownModel(locate_model(src), (src, src.with_name("model.onnx.data")), role="original")
    res = compare_models(bundled, original, answers=lambda q: asked.append(q) or answer)
    assert res.ok and res.outputs and all(row["bitwise_equal"] for row in res.outputs)
    assert asked == ["measure-source"]  # asked once: one load of the source
    assert res.other is not None
    measured = res.original.source_load_measured
    if answer:
        assert res.other.load == "by path" and measured is not None and "error" not in measured
        assert res.other.session_create_s == measured["load_s"]  # the measured load is the original's session
    else:
        assert res.other.load.startswith("model bytes") and measured is None
