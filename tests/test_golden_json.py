"""Golden ``--json`` outputs (and exit statuses) of every CLI command on a small corpus (issue 31).

The files in tests/golden/ (one per case: the argv, the exit status and the normalised JSON document on stdout) were
generated from commit 8fd72b3, *before* the core/ refactor, so the refactor can show that no command's machine-readable
output changed. Each case runs ``python -m onnxpack.cli`` in a child process, in the order of ``CASES`` (later cases
reuse what earlier ones wrote: the ``verify`` cases check the bundle ``bundle-external`` made, ``inspect-ort`` the .ort
that ``ort-single`` made).

Only what legitimately varies between runs and machines is normalised (see ``normalise`` and its rules): the tmp folder
and the installed package's resources folder (placeholders), temp-file names, timings, tool/runtime versions, and what
ONNX Runtime computes (output hashes and statistics, differences between outputs: they depend on the CPU's kernels),
plus the few bytes that embed those (the bundle's manifest.json, SHA256SUMS and smoke reference outputs, .ort files
written by ORT's converter) and a freshly generated key's fingerprint. Codes, messages, hints, severities, subjects, key
sets, ordering, exit statuses, sizes and hashes of model bytes are compared as they are. A dropped value keeps its key
and type: it becomes ``"<dropped float: timing>"`` and the like. Bundles are built with SOURCE_DATE_EPOCH set, so their
dates and bytes are reproducible.

Regenerate (only when a change of output is intended, and say so in the commit)::

    ONNXPACK_REGEN_GOLDEN=1 pytest tests/test_golden_json.py

Regenerate from an old commit (how the committed files were made; the old code is imported instead of the checkout)::

    git worktree add /work/golden-base 8fd72b3
    mkdir -p /work/golden-pkg/onnxpack && touch /work/golden-pkg/onnxpack/__init__.py
    for d in core cli gui resources; do ln -s /work/golden-base/$d /work/golden-pkg/onnxpack/$d; done
    PYTHONPATH=/work/golden-pkg python -c 'import onnxpack.core; print(onnxpack.core.__file__)'  # /work/golden-pkg/...
    PYTHONPATH=/work/golden-pkg ONNXPACK_REGEN_GOLDEN=1 pytest tests/test_golden_json.py
    git worktree remove --force /work/golden-base

(The empty ``onnxpack/__init__.py`` makes the old tree a regular package, so it shadows the editable install's
``onnxpack`` namespace completely; the child processes inherit PYTHONPATH. tests/factory.py, which builds the corpus,
comes from the checkout.) The same recipe without ONNXPACK_REGEN_GOLDEN checks any commit in isolation from
uncommitted edits, and from a stale editable install: its link tree misses modules added since ``pip install -e``.
"""

from __future__ import annotations

import concurrent.futures
import difflib
import importlib.resources
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from tests import factory

GOLDEN = Path(__file__).resolve().parent / "golden"
REGEN = os.environ.get("ONNXPACK_REGEN_GOLDEN") == "1"
EPOCH = "1700000000"  # SOURCE_DATE_EPOCH of every child: bundles get fixed dates and bytes


# ---------------------------------------------------------------------------------------------------------- corpus


def _save(model: onnx.ModelProto, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(model.SerializeToString())
    return path


def build_corpus(root: Path) -> None:
    """The models, below ``root`` (the children's working folder, so argv holds relative paths)."""
    _save(factory.add_model(), root / "single" / "model.onnx")
    factory.external_model(root / "external")
    # Warnings only: W1 keeps its data inline but carries an external_data entry (EXTDATA_IGNORED).
    m = factory.add_model()
    entry = m.graph.initializer[0].external_data.add()
    entry.key, entry.value = "location", "ignored.data"
    _save(m, root / "warn" / "model.onnx")
    # A warning from the compatibility table: ai.onnx opset 5 (OPSET_TOO_OLD).
    _save(factory.add_model(opset=5), root / "oldopset" / "model.onnx")
    # An initializer no node uses.
    m = factory.add_model()
    m.graph.initializer.append(numpy_helper.from_array(np.arange(8, dtype=np.float32), "UNUSED"))
    _save(m, root / "unused" / "model.onnx")
    # IR 10 / opset 21: too new for ONNX Runtime 1.17 (errors with --target-ort 1.17, retargetable with --fix-ir).
    _save(factory.add_model(ir=10, opset=21), root / "ir10" / "model.onnx")
    # External data outside the model's folder (error-level findings: EXTDATA_OUTSIDE_DIR).
    factory.save_with_external(factory.add_model(), root / "badloc" / "model.onnx", location="../outside.data")
    # Unreadable inputs.
    whole = factory.add_model().SerializeToString()
    (root / "truncated").mkdir()
    (root / "truncated" / "model.onnx").write_bytes(whole[: len(whole) // 2])
    (root / "garbage").mkdir()
    (root / "garbage" / "model.onnx").write_bytes(b"this is not an ONNX model\x00\xff" * 8)
    # The shipped sample, copied (its path in the repository differs between checkouts).
    sample = importlib.resources.files("onnxpack.resources") / "sample"
    (root / "sample").mkdir()
    for name in ("victory.onnx", "victory.onnx.data"):
        (root / "sample" / name).write_bytes((sample / name).read_bytes())


def tamper(root: Path) -> None:
    """bundles/tampered.zip: bundles/model-1.0.0.zip with one byte of W1's data in the stored model.onnx flipped."""
    src = root / "bundles" / "model-1.0.0.zip"
    data = bytearray(src.read_bytes())
    w1 = numpy_helper.to_array(factory.add_model().graph.initializer[0]).tobytes()
    at = data.find(w1)
    assert at > 0 and data.find(w1, at + 1) < 0, "W1's bytes must occur once, stored (uncompressed)"
    data[at + 5] ^= 0x01
    (root / "bundles" / "tampered.zip").write_bytes(bytes(data))


# ----------------------------------------------------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]
    before: Callable[[Path], None] | None = None  # prepares files in the working folder first
    needs: str | None = None  # a module the case needs (else it is skipped)
    chain: str = ""  # cases of one chain run one after the other, in CASES order; chains run in parallel


def C(
    name: str,
    *argv: str,
    before: Callable[[Path], None] | None = None,
    needs: str | None = None,
    chain: str = "",
) -> Case:
    return Case(name, argv, before, needs, chain or name)


CASES: list[Case] = [
    # inspect
    C("inspect-single", "inspect", "single/model.onnx", "--json"),
    C("inspect-external-folder", "inspect", "external", "--json"),
    C("inspect-sample", "inspect", "sample/victory.onnx", "--json"),
    C("inspect-truncated", "inspect", "truncated/model.onnx", "--json"),
    C("inspect-garbage", "inspect", "garbage/model.onnx", "--json"),
    C("inspect-missing", "inspect", "nowhere/model.onnx", "--json"),
    C("inspect-no-model", "inspect", "--json"),
    # check
    C("check-single", "check", "single/model.onnx", "--json"),
    C("check-external", "check", "external/model.onnx", "--json"),
    C("check-warn", "check", "warn/model.onnx", "--json"),
    C("check-oldopset", "check", "oldopset/model.onnx", "--json"),
    C("check-unused", "check", "unused/model.onnx", "--json"),
    C("check-ir10", "check", "ir10/model.onnx", "--json"),
    C("check-ir10-target-1.17", "check", "ir10/model.onnx", "--target-ort", "1.17", "--json"),
    C("check-badloc", "check", "badloc/model.onnx", "--json"),
    C("check-sample", "check", "sample/victory.onnx", "--json"),
    C("check-garbage", "check", "garbage/model.onnx", "--json"),
    C("check-data-file", "check", "external/model.onnx.data", "--json"),
    C("check-bad-target", "check", "single/model.onnx", "--target-ort", "banana", "--json"),
    # merge
    C("merge-external", "merge", "external/model.onnx", "-o", "merged/model.onnx", "--json", chain="merge"),
    C("merge-exists", "merge", "external/model.onnx", "-o", "merged/model.onnx", "--json", chain="merge"),
    C("merge-layout-external", "merge", "external/model.onnx", "-o", "merged-ext/model.onnx", "--layout", "external",
      "--checksum", "--json"),
    C("merge-sample", "merge", "sample/victory.onnx", "-o", "merged-sample", "--json"),
    C("merge-badloc", "merge", "badloc/model.onnx", "-o", "merged-badloc/model.onnx", "--json"),
    C("merge-truncated", "merge", "truncated/model.onnx", "-o", "merged-truncated/model.onnx", "--json"),
    # smoke
    C("smoke-single", "smoke", "single/model.onnx", "--json"),
    C("smoke-external", "smoke", "external/model.onnx", "--json"),
    C("smoke-sample", "smoke", "sample/victory.onnx", "--json"),
    C("smoke-compare", "smoke", "single/model.onnx", "--compare", "external/model.onnx", "--json"),
    C("smoke-garbage", "smoke", "garbage/model.onnx", "--json"),
    C("smoke-missing-input-file", "smoke", "single/model.onnx", "--input", "X=nowhere.npy", "--json"),
    # ort (writes ortout/model.ort, inspected next)
    C("ort-single", "ort", "single/model.onnx", "-o", "ortout", "--json", chain="ort"),
    C("inspect-ort", "inspect", "ortout/model.ort", "--json", chain="ort"),
    C("merge-ort", "merge", "ortout/model.ort", "-o", "merged-ort/model.onnx", "--json", chain="ort"),
    # bundle (bundles/model-1.0.0.zip is verified below)
    C("bundle-external", "bundle", "external/model.onnx", "-o", "bundles", "--version", "1.0.0", "--json",
      chain="bundle"),
    C("bundle-exists", "bundle", "external/model.onnx", "-o", "bundles", "--version", "1.0.0", "--json",
      chain="bundle"),
    C("bundle-default-sample", "bundle", "-o", "bundles-sample", "--version", "0.1.0", "--json"),
    C("bundle-warn", "bundle", "warn/model.onnx", "-o", "bundles-warn", "--version", "1.0.0", "--json"),
    C("bundle-unused", "bundle", "unused/model.onnx", "-o", "bundles-unused", "--version", "1.0.0", "--json"),
    C("bundle-ir10-target-1.17", "bundle", "ir10/model.onnx", "-o", "bundles-ir10", "--version", "1.0.0",
      "--target-ort", "1.17", "--json", chain="ir10"),
    C("bundle-ir10-fix-ir", "bundle", "ir10/model.onnx", "-o", "bundles-ir10", "--version", "1.0.0",
      "--target-ort", "1.17", "--fix-ir", "--json", chain="ir10"),
    C("bundle-badloc", "bundle", "badloc/model.onnx", "-o", "bundles-badloc", "--version", "1.0.0", "--json"),
    C("bundle-garbage", "bundle", "garbage/model.onnx", "-o", "bundles-garbage", "--version", "1.0.0", "--json"),
    C("bundle-bad-version", "bundle", "single/model.onnx", "-o", "bundles-bad", "--version", "one", "--json"),
    # verify
    C("verify-ok", "verify", "bundles/model-1.0.0.zip", "--json", chain="bundle"),
    C("verify-smoke", "verify", "--smoke", "bundles/model-1.0.0.zip", "--json", chain="bundle"),
    C("verify-tampered", "verify", "bundles/tampered.zip", "--json", chain="bundle", before=tamper),
    C("verify-model-not-bundle", "verify", "single/model.onnx", "--json"),
    C("verify-missing", "verify", "bundles/nowhere.zip", "--json"),
    # keygen (the key is random: its fingerprint is dropped)
    C("keygen", "keygen", "-o", "keys", "--json", needs="cryptography"),
]


# ------------------------------------------------------------------------------------------------------ normaliser


def dropped(value: Any, why: str) -> Any:
    """``value`` with every scalar replaced by a marker naming its type and why it was dropped (shape kept)."""
    if isinstance(value, dict):
        return {k: dropped(v, why) for k, v in value.items()}
    if isinstance(value, list):
        return [dropped(v, why) for v in value]
    if value is None:
        return None  # "not measured" is deterministic
    return f"<dropped {type(value).__name__}: {why}>"


# Keys whose values are wall-clock durations: vary run to run.
TIMING_KEYS = {"seconds", "session_create_s", "first_run_s", "median_run_s", "run_times_s", "elapsed_s"}
# Keys holding versions of the tools installed (onnxpack, ONNX Runtime, onnx, Python, the OS): vary by machine/lock.
VERSION_KEYS = {"onnxpack_version", "ort_version", "recorded_ort_version", "checked_with_ort", "onnx_version",
                "python_version", "python", "platform", "machine"}
# Keys, inside a list named "outputs", holding what ONNX Runtime computed (hashes and statistics of output tensors,
# differences between two runs' outputs): the kernels, hence the last bits, depend on the CPU.
COMPUTED_OUTPUT_KEYS = {"sha256", "recorded_sha256", "min", "max", "mean", "std", "max_abs", "max_rel"}
# Bundle members whose bytes embed the computed outputs (the .npy references; SHA256SUMS and manifest.json list
# their hashes, the manifest also the ORT/onnxpack versions): their sha256 varies by CPU. Their sizes are kept: hashes
# have a fixed length, and so have the version strings of a lock (ORT 1.24.4 and 1.32.0 alike).
COMPUTED_MEMBER_ROLES = {"smoke-output", "checksums", "manifest"}
# Keys holding the end user's load cost measured on this machine (smoke.load_cost): time, memory and their ratios.
MEASURED_KEYS = {"load_s", "peak_bytes", "baseline_bytes", "added_bytes", "time_ratio", "memory_ratio"}
# Bundle members that say those measured numbers (README.txt, manifest.json): their size and sha256 vary run to run,
# and so does the bundle's size.
MEASURED_MEMBER_ROLES = {"readme", "manifest"}
# Keys holding text another tool printed (the ORT converter's log): varies with that tool's release.
TOOL_LOG_KEYS = {"converter_log"}
# Keys holding what a fresh random key pair hashes to: new on each keygen.
RANDOM_KEYS = {"public_key_sha256"}
# Names of onnxpack's own temporary files/folders embed the process id and random hex.
TEMP_NAME = re.compile(r"\.onnxpack-tmp-[0-9]+-[0-9a-f]+")


def normalise(doc: Any, replacements: list[tuple[str, str]]) -> Any:
    """The JSON document with the machine- and run-dependent values dropped (see the rules above)."""

    def text(s: str) -> str:
        for old, new in replacements:  # the tmp folder and the resources folder become placeholders
            s = s.replace(old, new)
        if os.sep == "\\":  # Windows prints paths with backslashes; the goldens (and this corpus's texts) use "/"
            s = s.replace("\\", "/")
        return TEMP_NAME.sub(".onnxpack-tmp-<ID>", s)

    def walk(v: Any, key: str | None, parent_key: str | None) -> Any:
        if isinstance(v, dict):
            out: dict[str, Any] = {}
            ort_bytes = _names_ort_file(v)
            for k, x in v.items():
                if k in TIMING_KEYS:
                    out[k] = dropped(x, "timing")
                elif k in VERSION_KEYS or (key == "tool" and k == "version"):
                    out[k] = dropped(x, "tool version")
                elif key == "outputs" and k in COMPUTED_OUTPUT_KEYS:
                    out[k] = dropped(x, "computed by ORT")
                elif k in MEASURED_KEYS:
                    out[k] = dropped(x, "measured on this machine")
                elif key == "load_cost" and k == "method":  # one process for both layouts on Linux, two elsewhere
                    out[k] = dropped(x, "how this OS measures")
                elif v.get("role") in MEASURED_MEMBER_ROLES and (
                        k in ("size", "actual_size") or (k in ("sha256", "actual_sha256") and v["role"] == "readme")):
                    out[k] = dropped(x, "says measured load times")
                elif k == "size" and ((isinstance(v.get("bundle"), str) and v.get("schema") == "onnxpack.bundle/1")
                                      or (key == "archive" and parent_key is None)):  # the ZIP's size (verify's too)
                    out[k] = dropped(x, "holds measured load times")
                elif k in ("sha256", "actual_sha256") and v.get("role") in COMPUTED_MEMBER_ROLES:
                    out[k] = dropped(x, "embeds ORT-computed outputs")
                elif ort_bytes and k in ("size", "sha256", "actual_size", "actual_sha256", "total_size",
                                         "model_size"):
                    # .ort files are FlatBuffers written by ORT's converter: their bytes vary with the ORT release.
                    out[k] = dropped(x, "written by the ORT converter")
                elif k in TOOL_LOG_KEYS:
                    out[k] = dropped(x, "other tool's log")
                elif k in RANDOM_KEYS:
                    out[k] = dropped(x, "random key")
                else:
                    out[k] = walk(x, k, key)
            return out
        if isinstance(v, list):
            # Items of a list keep the list's key, so "outputs" applies to each output's dict.
            return [walk(x, key, parent_key) for x in v]
        if isinstance(v, str):
            return text(v)
        return v

    return walk(doc, None, None)


def _names_ort_file(d: dict[str, Any]) -> bool:
    """A dict describing a .ort file: a file entry named *.ort, or an inspection of an ORT-format model."""
    if d.get("format") == "ort":
        return True
    return any(isinstance(d.get(k), str) and d[k].endswith(".ort") for k in ("path", "name"))


# --------------------------------------------------------------------------------------------------------- running


def _child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ONNXPACK_")}  # no debug/cache/python overrides
    env.update(SOURCE_DATE_EPOCH=EPOCH, PYTHONIOENCODING="utf-8", QT_QPA_PLATFORM="offscreen")
    return env


def _replacements(root: Path) -> list[tuple[str, str]]:
    res = Path(str(importlib.resources.files("onnxpack.resources")))
    pairs = {str(root): "<TMP>", str(root.resolve()): "<TMP>", root.as_posix(): "<TMP>",
             str(res): "<RESOURCES>", str(res.resolve()): "<RESOURCES>", res.as_posix(): "<RESOURCES>"}
    for name in ("victory.onnx", "victory.onnx.data"):  # an editable install links each file, not the folder
        pairs[str((res / "sample" / name).resolve().parent)] = "<RESOURCES>/sample"
    # Longest first, so a folder inside another is replaced before its parent; JSON-escaped forms are not needed
    # (the document is parsed before).
    return sorted(pairs.items(), key=lambda p: -len(p[0]))


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every case run once, in one working folder (each chain in order, chains in parallel): name -> golden record."""
    root = tmp_path_factory.mktemp("golden")
    build_corpus(root)
    env = _child_env()
    replacements = _replacements(root)
    chains: dict[str, list[Case]] = {}
    for case in CASES:
        if case.needs is None or _importable(case.needs):
            chains.setdefault(case.chain, []).append(case)

    def run_chain(cases: list[Case]) -> list[tuple[str, dict[str, Any]]]:
        done = []
        for case in cases:
            if case.before is not None:
                try:
                    case.before(root)
                except (OSError, AssertionError) as e:  # e.g. an earlier case did not write its bundle
                    done.append((case.name, {"argv": list(case.argv), "preparation failed": repr(e)}))
                    continue
            r = subprocess.run([sys.executable, "-m", "onnxpack.cli", *case.argv], cwd=root, env=env,
                               capture_output=True, text=True, encoding="utf-8", timeout=180)  # fmt: skip
            try:
                doc = json.loads(r.stdout)
            except json.JSONDecodeError as e:
                raise AssertionError(f"{case.name}: stdout is not one JSON document\n{r.stdout}\n{r.stderr}") from e
            record = {"argv": list(case.argv), "exit_status": r.returncode, "stdout": normalise(doc, replacements)}
            done.append((case.name, record))
        return done

    with concurrent.futures.ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 2)) as pool:
        finished = [pair for chain in pool.map(run_chain, chains.values()) for pair in chain]
    return dict(finished)


def _importable(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def _dump(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Case, results: dict[str, dict[str, Any]]) -> None:
    if case.name not in results:
        pytest.skip(f"needs {case.needs}")
    path = GOLDEN / f"{case.name}.json"
    got = _dump(results[case.name])
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8", newline="\n")
        return
    assert path.exists(), f"no golden file {path.name}: run with ONNXPACK_REGEN_GOLDEN=1 (see the module docstring)"
    want = path.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), f"golden/{path.name}", "now"))
        pytest.fail(f"{case.name}: the --json output or exit status changed\n{diff}")


def test_no_orphan_golden_files() -> None:
    """Every golden file belongs to a case (a renamed or removed case must take its file along)."""
    names = {c.name for c in CASES}
    orphans = sorted(p.name for p in GOLDEN.glob("*.json") if p.stem not in names)
    if REGEN:
        for name in orphans:
            (GOLDEN / name).unlink()
        return
    assert not orphans, f"golden files without a case: {orphans}"


def test_normaliser_keeps_what_is_deterministic() -> None:
    """The normaliser drops only the listed values: codes, messages, sizes and model hashes pass through."""
    doc = {
        "findings": [{"severity": "error", "code": "X", "message": "/t/m/a.onnx: bad", "hint": "h", "subject": "W"}],
        "files": [{"path": "model.onnx", "role": "model", "size": 10, "sha256": "ab"},
                  {"path": "manifest.json", "role": "manifest", "size": 5, "sha256": "cd"}],
        "outputs": [{"name": "Y", "sha256": "ef", "min": -1.5, "shape": [1, 2], "finite": True}],
        "timings": {"runs": 3, "run_times_s": [0.1, 0.2]},
        "tool": {"name": "onnxpack", "version": "0.1.0"},
        "version": "1.0.0",
    }
    got = normalise(doc, [("/t", "<TMP>")])
    assert got["findings"][0] == {**doc["findings"][0], "message": "<TMP>/m/a.onnx: bad"}  # type: ignore[index]
    assert got["files"][0] == doc["files"][0]  # type: ignore[index]
    assert got["files"][1]["sha256"] == "<dropped str: embeds ORT-computed outputs>"
    assert got["files"][1]["size"] == "<dropped int: says measured load times>"  # smoke.load_cost's numbers
    assert got["outputs"][0] == {"name": "Y", "sha256": "<dropped str: computed by ORT>",
                                 "min": "<dropped float: computed by ORT>", "shape": [1, 2], "finite": True}
    assert got["timings"] == {"runs": 3, "run_times_s": ["<dropped float: timing>"] * 2}
    assert got["tool"] == {"name": "onnxpack", "version": "<dropped str: tool version>"}
    assert got["version"] == "1.0.0"  # the model's release version is no tool version
