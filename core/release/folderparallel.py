"""A release's models two at a time, one per core: each model's stage (retarget, merge, smoke run,
proof) writes into a ZIP of its own in the work folder; the release's ZIP then takes each model's entries in the
release's order, read back and hashed again (their SHA-256 must be what the model's stage recorded).

So the bundle's bytes are those of the models run one after another, whatever order they finish in. A model that
fails stops the others (they are cancelled) and its error, the first in the release's order, is raised; nothing is
left behind (the work folder and the pending ZIP go, as for one model). Progress follows one model at a time, in
the release's order: the reports of a model that ran ahead are kept, and shown once the models before it are done
(every step; of a run of byte counts its first and last), so the app's Progress tab counts the models as it does
for a run one after another.
"""

from __future__ import annotations

import threading
import zipfile
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO, cast

from .. import classcodes
from ..atomic import scratch_file
from ..child.childproc import SMOKE_TARGET, ChildProcess, child_for
from ..errors import Cancelled
from ..progress import BYTES, CancelToken, ProgressCallback, ProgressEvent, check_cancel
from .gate import Checked, start_checker
from .keep import full_reader
from .members import Member
from .modelstage import ModelDone, Run, model_stage
from .plan import BundlePlan
from .zipwriter import DeterministicZip

__all__ = ["WORKERS", "write_models_in_parallel"]

#: Models at once.
WORKERS = 2


class _Either(CancelToken):
    """Cancelled when the user cancels (``outer``) or a model of the release failed (this token's own flag)."""

    def __init__(self, outer: CancelToken | None) -> None:
        super().__init__()
        self.outer = outer

    @property
    def cancelled(self) -> bool:
        return super().cancelled or (self.outer is not None and self.outer.cancelled)

    def raise_if_cancelled(self) -> None:
        if self.cancelled:
            raise Cancelled()

    def wait(self, timeout: float) -> bool:
        step = min(timeout, 0.05)
        waited = 0.0
        while waited < timeout:
            if self.cancelled or super().wait(step):
                return True
            waited += step
        return self.cancelled


class _InOrder:
    """Progress of one model at a time, in the release's order (see the module docstring)."""

    def __init__(self, progress: ProgressCallback | None, count: int) -> None:
        self.progress = progress
        self.lock = threading.Lock()
        self.front = 0
        self.kept: list[list[ProgressEvent]] = [[] for _ in range(count)]

    def of(self, index: int) -> ProgressCallback | None:
        if self.progress is None:
            return None

        def report(ev: ProgressEvent) -> None:
            with self.lock:
                if index == self.front:
                    self._send(ev)
                else:
                    kept = self.kept[index]
                    if (ev.unit == BYTES and len(kept) > 1 and ev.total > 0
                            and all(k.stage == ev.stage and k.unit == BYTES and k.total > 0 for k in kept[-2:])):
                        kept[-1] = ev  # of a run of byte counts (a merge's chunks) its first and latest are enough
                    else:
                        kept.append(ev)

        return report

    def finished(self, index: int) -> None:
        """Model ``index`` is done: the next model's kept reports are shown, and it is followed from now on."""
        with self.lock:
            if index != self.front:
                return
            self.front += 1
            if self.front < len(self.kept):
                for ev in self.kept[self.front]:
                    self._send(ev)
                self.kept[self.front] = []

    def _send(self, ev: ProgressEvent) -> None:
        assert self.progress is not None
        self.progress(ev)


def write_models_in_parallel(plans: list[BundlePlan], checked: list[Checked], work: Path, zip_path: Path,
                             z: DeterministicZip, first_child: ChildProcess, progress: ProgressCallback | None,
                             cancel: CancelToken | None) -> list[ModelDone]:
    """Each model's stage in its own part ZIP, :data:`WORKERS` at a time; their entries into ``z`` in order."""
    from .folderbundle import named  # (here: folderbundle imports this module when a release runs in parallel)

    opts = plans[0].opts
    stop = _Either(cancel)
    shown = _InOrder(progress, len(plans))
    first = [first_child]

    def one(i: int) -> tuple[ModelDone, Path]:
        mp, ch = plans[i], checked[i]
        check_cancel(stop)
        child = first.pop() if i == 0 else child_for(SMOKE_TARGET, None, opts.sign_key_password_env,
                                                      opts.sigstore_identity_token_env)  # fmt: skip
        mine = shown.of(i)
        checker = start_checker(mp, ch, child, mine, stop)
        try:
            mwork = work / f"model-{i}"
            mwork.mkdir()
            part = mwork / "part.zip"
            run = Run(mine, stop, zip_path, mwork)
            with scratch_file(part) as pf, DeterministicZip(pf, epoch=mp.epoch, compress=opts.compress) as pz:
                done = named(mp, lambda: model_stage(mp, ch, checker, run, pf, pz, child if opts.run_smoke else None))
            return done, part
        except BaseException:
            stop.cancel()  # the other models stop: the release fails
            raise
        finally:
            checker.stop()
            child.discard()

    futures: list[Future[tuple[ModelDone, Path]]] = []
    try:
        with ThreadPoolExecutor(WORKERS, thread_name_prefix="onnxpack-model") as pool:
            futures = [pool.submit(one, i) for i in range(len(plans))]
            for i, fut in enumerate(futures):
                try:
                    fut.result()
                except BaseException:
                    stop.cancel()
                    break
                shown.finished(i)
    finally:
        first_child.discard()
    _raise_first_failure(futures, cancel)
    return [_copy_into(z, *fut.result(), stop) for fut in futures]


def _raise_first_failure(futures: list[Future[tuple[ModelDone, Path]]], cancel: CancelToken | None) -> None:
    """The first model's error in the release's order; a sibling's cancellation only when nothing else failed."""
    errors = [e for e in (fut.exception() for fut in futures if fut.done()) if e is not None]
    real = [e for e in errors if not isinstance(e, Cancelled)]
    if real:
        raise real[0]
    if errors:
        check_cancel(cancel)
        raise errors[0]


def _copy_into(z: DeterministicZip, done: ModelDone, part: Path, cancel: CancelToken) -> ModelDone:
    """The model's entries from its part ZIP into ``z``, in the order it wrote them, each hashed again and required
    to have the SHA-256 its stage recorded."""
    members: list[Member] = []
    with zipfile.ZipFile(part) as zr:
        for m in done.members:
            info = zr.getinfo(m.record.name)
            with zr.open(info) as src:
                record = z.write_stream(m.record.name, info.file_size, full_reader(cast(BinaryIO, src), m.record.name),
                                        compress=info.compress_type == zipfile.ZIP_DEFLATED, cancel=cancel)
            if (record.size, record.sha256) != (m.record.size, m.record.sha256):
                raise classcodes.INTERNAL.error(variant="part_changed", member=m.record.name)
            members.append(Member(m.role, record))
    part.unlink()
    return replace(done, members=tuple(members))
