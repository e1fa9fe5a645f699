"""Verify's re-run of a bundle's recorded smoke test, compared with the recorded outputs (exactly, or numerically
against the stored reference values when the ONNX Runtime version differs)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...child.childproc import ChildProcess
from ...errors import InputError
from ...findings import Finding, Severity
from ...model.layout import Layout
from ...progress import CancelToken, ProgressCallback
from .. import codes
from .verify_manifest import ToHash
from .verify_recipe import input_file_bytes
from .verify_report import reported

if TYPE_CHECKING:
    from ...runtime.smoke import SmokeOptions, SmokeResult

__all__ = ["CROSS_VERSION_ATOL", "CROSS_VERSION_RTOL", "InPlace", "Rerun", "identity", "in_place_model", "rerun_smoke"]

#: Tolerance used when the recorded run came from another ONNX Runtime version.
CROSS_VERSION_ATOL = 1e-4
CROSS_VERSION_RTOL = 1e-3

Identity = tuple[int, int, int, int]


def identity(st: os.stat_result) -> Identity:
    """What tells a file apart from a changed one: device, inode, size and modification time."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def in_place_model(doc: dict[str, Any], to_hash: ToHash) -> str | None:
    """The model entry when the smoke run can read it in place: one self-contained file, stored uncompressed."""
    entry = doc.get("model", {}).get("entry")
    found = to_hash.get(entry) if isinstance(entry, str) else None
    if found is None or doc["model"].get("layout") != Layout.SINGLE or found[1].method != 0 or found[0].role != "model":
        return None
    return str(entry)


@dataclass(frozen=True)
class InPlace:
    """The model read in place in the archive: the archive, the model's byte range in it, and the archive's
    identity when it was hashed (the archive must not change until the run ends)."""

    archive: Path
    window: tuple[int, int]
    identity: Identity


@dataclass(frozen=True)
class Rerun:
    """How to repeat a bundle's smoke run: its manifest, the folder its files were extracted to and which members
    they are, the model in place (or None: extracted too), and the child process started for it."""

    doc: dict[str, Any]
    root: Path
    members: set[str]
    progress: ProgressCallback | None = None
    cancel: CancelToken | None = None
    in_place: InPlace | None = None
    child: ChildProcess | None = None

    @property
    def entry(self) -> str:
        return str(self.doc["model"]["entry"])

    def run(self, options: SmokeOptions, save_outputs_to: Path | None = None) -> SmokeResult:
        from ...runtime.smoke import smoke_test

        at = self.in_place
        if at is None:
            return smoke_test(self.root / self.entry, options=options, save_outputs_to=save_outputs_to,
                              progress=self.progress, cancel=self.cancel, child=self.child)  # fmt: skip
        result = smoke_test(at.archive, self.root, options=options, save_outputs_to=save_outputs_to,
                            progress=self.progress, cancel=self.cancel, window=at.window, name=self.entry,
                            child=self.child)  # fmt: skip
        if identity(os.stat(at.archive)) != at.identity:
            raise codes.BUNDLE_CHANGED.error(file=at.archive.name)
        return result


def _not_repeated(recorded: dict[str, Any]) -> dict[str, Any]:
    """The smoke section of a report whose recorded run could not be repeated."""
    return {"ran": False, "ok": False, "ort_version": None, "recorded_ort_version": recorded.get("ort_version"),
            "comparison": "none", "outputs": []}  # fmt: skip


def rerun_smoke(rerun: Rerun, problems: list[Finding]) -> dict[str, Any]:
    """Repeat the recorded smoke run and compare with the recorded outputs; the report's smoke section."""
    recorded = rerun.doc.get("smoke")
    if recorded is None:
        return _unrecorded(rerun, problems)
    result = _repeat(rerun, recorded, problems)
    if result is None:
        return _not_repeated(recorded)
    same_ort = result.ort_version == recorded["ort_version"]
    out: dict[str, Any] = {
        "ran": True,
        "ok": result.ok,
        "ort_version": result.ort_version,
        "recorded_ort_version": recorded["ort_version"],
        "comparison": "exact" if same_ort else "tolerance",
        "atol": None if same_ort else CROSS_VERSION_ATOL,
        "rtol": None if same_ort else CROSS_VERSION_RTOL,
        "outputs": [],
    }
    if not result.ok:
        errs = [f for f in result.findings if f.severity is Severity.ERROR]
        why = errs[0].message if errs else result.error
        variant = "now" if why else "now_failed"
        problems.append(codes.SMOKE_FAILED.finding(rerun.entry, variant=variant, detail=why or ""))
        return out
    now = {o["name"]: o for o in result.outputs}
    for rec in recorded["outputs"]:
        out["outputs"].append(_compare_output(rerun.root, rec, now.get(rec["name"]), result, same_ort, problems))
    return out


def _unrecorded(rerun: Rerun, problems: list[Finding]) -> dict[str, Any]:
    """No recorded run: run with default inputs, with nothing to compare with."""
    from ...runtime.smoke import SmokeOptions

    problems.append(codes.SMOKE_NOT_RECORDED.finding())
    result = rerun.run(SmokeOptions())
    problems.extend(f for f in result.findings if f.severity is Severity.ERROR)
    return {
        "ran": True,
        "ok": result.ok,
        "ort_version": result.ort_version,
        "recorded_ort_version": None,
        "comparison": "none",
        "outputs": [],
        "run": result.to_dict(),
    }


def _repeat(rerun: Rerun, recorded: dict[str, Any], problems: list[Finding]) -> SmokeResult | None:
    """The recorded recipe run again (None when it cannot be: the problem is reported)."""
    from ...runtime.smoke import SmokeOptions

    try:
        options = SmokeOptions.from_recipe(recorded["recipe"], base_dir=rerun.root, members=rerun.members)
    except InputError as e:  # an untrusted recipe: a problem of the bundle, not of the command line
        problems.append(reported(e, rerun.entry))
        return None
    try:
        return rerun.run(options, rerun.root / ".rerun-outputs")
    except InputError as e:  # the recipe's inputs cannot be used: the bundle's fault, reported as such
        if e.code == codes.BUNDLE_CHANGED.name:
            raise
        problems.append(codes.SMOKE_FAILED.finding(rerun.entry, variant="recipe", detail=e.message))
        return None


def _compare_output(root: Path, rec: dict[str, Any], cur: dict[str, Any] | None, result: SmokeResult,
                    same_ort: bool, problems: list[Finding]) -> dict[str, Any]:  # fmt: skip
    """One recorded output against the re-run's (``cur``; None: missing); its row of the report."""
    name = rec["name"]
    row: dict[str, Any] = {
        "name": name,
        "recorded_sha256": rec["sha256"],
        "sha256": cur["sha256"] if cur else None,
        "equal": False,
    }
    if cur is None:
        problems.append(codes.SMOKE_MISMATCH.finding(name, variant="missing", name=name))
        return row
    row["equal"] = cur["sha256"] == rec["sha256"]
    if row["equal"]:
        return row
    if same_ort:
        problems.append(codes.SMOKE_MISMATCH.finding(name, name=name, ort_version=result.ort_version,
                                                     sha256=cur["sha256"], recorded=rec["sha256"]))  # fmt: skip
        return row
    _compare_reference(root, rec, name, result.saved_outputs.get(name), row, problems)
    return row


def _compare_reference(
    root: Path, rec: dict[str, Any], name: str, saved: str | None, row: dict[str, Any], problems: list[Finding]
) -> None:
    """Another ORT version: compare numerically with the reference output stored in the bundle."""
    import numpy as np

    from ...runtime.smoke_child import compare_values

    if not rec.get("reference") or saved is None:
        problems.append(codes.SMOKE_MISMATCH.finding(name, variant="no_reference", name=name))
        return
    try:
        # the bundle's reference file is judged by its header before it is loaded (a header may claim any shape)
        input_file_bytes(root / rec["reference"], None, f"reference values {rec['reference']}")
        ref = np.load(root / rec["reference"], allow_pickle=False)
        cur = np.load(saved, allow_pickle=False)
    except (OSError, ValueError) as e:
        problems.append(codes.SMOKE_MISMATCH.finding(name, variant="unreadable", name=name, detail=str(e)))
        return
    cmp = compare_values(name, ref, cur, CROSS_VERSION_ATOL, CROSS_VERSION_RTOL)
    row.update(max_abs=cmp["max_abs"], max_rel=cmp["max_rel"], within_tolerance=cmp["within_tolerance"])
    atol, rtol = f"{CROSS_VERSION_ATOL:g}", f"{CROSS_VERSION_RTOL:g}"
    if cmp["within_tolerance"]:
        problems.append(codes.SMOKE_WITHIN_TOLERANCE.finding(name, name=name, atol=atol, rtol=rtol,
                                                             max_abs=cmp["max_abs"], max_rel=cmp["max_rel"]))
    else:
        differs = dict(cmp.get("differs") or {})
        kind = differs.pop("kind", None)
        values = differs if kind else {"max_abs": cmp["max_abs"], "max_rel": cmp["max_rel"]}
        problems.append(codes.SMOKE_MISMATCH.finding(name, variant="tolerance" + (f"_{kind}" if kind else ""),
                                                     name=name, atol=atol, rtol=rtol, **values))  # fmt: skip
