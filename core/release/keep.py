"""``bundle --layout keep``: a model's files shipped as they are (the .onnx and its external-data files, at their
paths), still validated, smoke-run and proven.

The proof is the files' bytes: each source file is hashed by a reader of its own (the provenance thread) and its
bundled copy by the ZIP writer, from the bytes it stores; equal sizes and SHA-256 for every file, with the sources
unchanged from start to end (SourceWatch), mean the app receives the very files that were validated and run. Nothing
about the model may change (no --fix-ir or --set-model-version: they rewrite it).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from .. import steps
from ..background import Background
from ..child.childproc import ChildProcess
from ..model.layout import Layout
from ..model.merge.proof import FILE_METHOD, WeightsProof
from ..progress import STEPS, check_cancel, report
from . import codes, foldercodes
from .fixes import apply_fixes
from .gate import Checked, CheckerGate
from .manifest_build import Provenance, model_facts
from .members import Member, Role
from .modelstage import ModelDone, Proven, Run, hash_sources
from .plan import BundlePlan
from .smokerun import SmokeTarget, equality, run_smoke
from .sources import SourceWatch, source_files_of
from .zipwriter import DeterministicZip, EntryRecord

__all__ = ["full_reader", "keep_stage"]

def full_reader(f: BinaryIO, name: str) -> Callable[[int], bytes]:
    """``f.read`` for DeterministicZip.write_stream, refusing a file that ends before the size it had (it changed
    while being bundled) instead of leaving the entry short."""
    def read(n: int) -> bytes:
        data = f.read(n)
        if not data:
            raise codes.SOURCE_CHANGED.error(files=name)
        return data

    return read


def _copy_into(src: Path, name: str, z: DeterministicZip, tee: Path, run: Run) -> EntryRecord:
    size = os.stat(src).st_size
    with open(src, "rb") as f, open(tee, "xb") as copy:
        return z.write_stream(name, size, full_reader(f, src.name), cancel=run.cancel, tee=copy)


def keep_stage(plan: BundlePlan, checked: Checked, checker: CheckerGate, run: Run, f: BinaryIO,
               z: DeterministicZip, child: ChildProcess | None) -> ModelDone:
    """Ship the model's files as they are; smoke-run the copy; prove the bundled files are the sources."""
    del f  # (the model is run from its copy in the work folder: its data files must lie beside it)
    opts, progress, cancel = plan.opts, run.progress, run.cancel
    fixed = apply_fixes(plan, checked.val, progress, cancel)
    if fixed.fixes or fixed.retarget is not None:
        raise foldercodes.LAYOUT_KEEP_CHANGED.error()
    if opts.ort_format:
        raise foldercodes.LAYOUT_KEEP_CHANGED.error(variant="ort_format")
    loc = plan.location
    data = source_files_of(checked.val)
    sources = [loc.model, *data]
    watch = SourceWatch.of(sources)
    hasher = Background(hash_sources(sources), cancel, "onnxpack-provenance")
    copy_dir = run.work / "kept"
    copy_dir.mkdir()
    folder = posixpath.dirname(plan.model_entry)
    try:
        report(progress, "merge", 0, len(sources), steps.COPYING_AS_IS, unit=STEPS)
        model_copy = copy_dir / loc.model.name
        members = [Member(Role.MODEL, _copy_into(loc.model, plan.model_entry, z, model_copy, run))]
        for i, d in enumerate(data, 1):
            rel = d.relative_to(loc.data_dir).as_posix()
            target = copy_dir / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            members.append(Member(Role.EXTERNAL_DATA, _copy_into(d, posixpath.join(folder, rel), z, target, run)))
            report(progress, "merge", i, len(sources), steps.COPIED, unit=STEPS, file=rel)
        check_cancel(cancel)
        gated = checker.verdict()
        hashes = hasher.join()
    finally:
        hasher.stop()
    for src, m in zip(sources, members, strict=True):
        if hashes.get(src) != (m.record.size, m.record.sha256):
            raise codes.SOURCE_CHANGED.error(files=src.name)
    insp = checked.val.inspection
    proof = WeightsProof(insp.initializers.count + insp.constants.count,
                         insp.initializers.bytes + insp.constants.bytes, members[0].record.sha256, FILE_METHOD)
    proven = Proven()
    if opts.run_smoke:
        smoke_target = SmokeTarget(model_copy, None, plan.model_entry, copy_dir, not data, tuple(sources))
        smoked = run_smoke(plan, smoke_target, run.work, opts.compare_outputs is True, child, watch, progress,
                           cancel)  # fmt: skip
        equal = equality(loc.model.name, plan.model_entry, proof, smoked.rows)
        proven = Proven({**smoked.doc, "equal": equal}, equal, smoked.extra, smoked.findings)
        report(progress, "smoke", 1, 1, steps.DONE, unit=STEPS)
    if opts.prove_ort:
        from .proveort import prove_ort

        rep = prove_ort(plan, checker.checked, model_copy, fixed.source.model, proven.smoke, progress, cancel)
        proven = Proven(proven.smoke, proven.equal, proven.extra, proven.findings, rep)
    extra = [Member(role, z.write_bytes(path, body)) for path, (role, body) in sorted(proven.extra.items())]
    layout = Layout.EXTERNAL if data else Layout.SINGLE
    provenance = Provenance(insp.layout, loc.model, loc.data_dir, tuple(sources), hashes)
    facts = model_facts(checked.val, fixed.source.model, layout, None, provenance, opts.target_ort)
    data_member = members[1].path if len(members) > 1 else None
    return ModelDone(layout, None, fixed, gated, proven, None, (*members, *extra), facts, watch, data_member)
