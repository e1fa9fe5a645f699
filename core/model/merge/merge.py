"""Merge external data into one self-contained .onnx, streaming, or consolidate it into one aligned data file.

The plan (what is merged, in which layout, the exact sizes) is :mod:`.mergeplan`; here its output is written to
files on disk, atomically, and proven to be the source model before it takes its final name.
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from ... import errorcodes
from ...atomic import (
    atomic_file,
    check_free_space,
    check_output_path,
    output_folder,
    pending_path,
    refuse_inside_inputs,
)
from ...errors import ExternalDataError, InputError
from ...progress import CancelToken, ProgressCallback, check_cancel
from ..layout import AUTO, LAYOUTS, Layout
from .mergeparts import WirePath, tensor_paths
from .mergeplan import DEFAULT_ALIGN, MergePlan, plan_merge

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .earlycompare import EarlyComparison

__all__ = [
    "DEFAULT_ALIGN",
    "LAYOUTS",
    "MergePlan",
    "MergeResult",
    "MergeRun",
    "WirePath",
    "merge_model",
    "plan_merge",
    "tensor_paths",
]


@dataclass
class MergeResult:
    """What ``merge_model`` wrote."""

    source: Path
    model_path: Path
    data_path: Path | None
    layout: Layout
    model_size: int
    data_size: int
    tensors: int
    external_bytes: int
    align: int | None
    checksum: str | None
    seconds: float
    plan: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": str(self.source),
            "model_path": str(self.model_path),
            "data_path": str(self.data_path) if self.data_path else None,
            "layout": self.layout.value,
            "model_size": self.model_size,
            "data_size": self.data_size,
            "total_size": self.model_size + self.data_size,
            "tensors": self.tensors,
            "external_bytes": self.external_bytes,
            "align": self.align,
            "checksum": self.checksum,
            "seconds": round(self.seconds, 3),
        }


class MergeRun(TypedDict, total=False):
    """How :func:`merge_model` runs (keyword arguments, all optional): ``force`` replaces an existing output,
    ``progress``/``cancel`` as everywhere."""

    force: bool
    progress: ProgressCallback | None
    cancel: CancelToken | None


def merge_model(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    data_dir: str | os.PathLike[str] | None = None,
    *,
    layout: str = AUTO,
    align: int = DEFAULT_ALIGN,
    checksum: bool = False,
    **run: Unpack[MergeRun],
) -> MergeResult:
    """Merge ``path`` into ``out`` (and ``out``.data for the external layout), atomically.

    Refuses an output equal to the model or one of its data files, an existing output unless
    ``force`` (then it is replaced atomically), and a folder without the free space needed.
    A failed or cancelled run leaves no file behind. ``run``: see :class:`MergeRun`.
    """
    start = time.perf_counter()
    out_path = Path(out)
    if out_path.is_dir():
        raise errorcodes.OUTPUT_IS_DIR.error(variant="merge", output=out_path)
    plan = plan_merge(path, data_dir, layout=layout, align=align, checksum=checksum,
                      data_location=Layout.data_name(out_path.name), cancel=run.get("cancel"))
    inputs = plan.input_files
    targets = [out_path]
    if plan.layout is Layout.EXTERNAL:
        targets.append(out_path.with_name(plan.data_location))
    for t in targets:  # before a missing output folder is created, which must not be inside an input either
        refuse_inside_inputs(t, inputs)
    with output_folder(out_path.parent):
        return _write_merged(plan, targets, inputs, run, start)


def _write_merged(plan: MergePlan, targets: list[Path], inputs: list[Path], run: MergeRun,
                  start: float) -> MergeResult:
    force, cancel = run.get("force", False), run.get("cancel")
    dests = [_check_target(t, inputs, force) for t in targets]
    _check_writable(dests[0].parent)
    check_free_space(dests[0].parent, plan.total_size)
    from .proof import prove_same_bytes

    def prove(written: Any, compared: Collection[Any]) -> None:
        """The output is the source (the same structure, every tensor byte-equal: core/model/merge/proof.py) before it
        takes its final name (``compared``: the tensors compared as they were written, earlycompare.py)."""
        written.flush()
        check_cancel(cancel)
        pending = pending_path(written)
        try:
            prove_same_bytes(plan.model, plan.table, pending, dests[0].parent, cancel, compared=compared)
        except (InputError, ExternalDataError):
            if not pending.exists():  # not a problem of the input: the output vanished under us
                raise errorcodes.OUTPUT_WRITE.error(variant="merge_vanished", output=dests[0]) from None
            raise

    return _write_and_prove(plan, dests, run, prove, start)


def _write_and_prove(plan: MergePlan, dests: list[Path], run: MergeRun,
                     prove: Callable[[Any, Collection[Any]], None], start: float) -> MergeResult:
    """Write the output, each tensor compared with the source as soon as it is written (earlycompare.py: its thread
    and its handles on the written files end before a file takes its name or is removed, which Windows refuses for
    a file held open), and prove it."""
    from .earlycompare import EarlyComparison

    force, progress, cancel = run.get("force", False), run.get("progress"), run.get("cancel")
    digest: str | None = None
    if plan.layout is Layout.SINGLE:
        with atomic_file(dests[0], overwrite=force) as f:
            with EarlyComparison(plan.table, cancel) as early:
                plan.write_single(f, progress, cancel, copied=_told(early, pending_path(f)))
                compared = early.finish()
            prove(f, compared)
    else:
        committed_data = False
        try:
            with atomic_file(dests[0], overwrite=force) as mf:
                with atomic_file(dests[1], overwrite=force) as df, EarlyComparison(plan.table, cancel) as early:
                    digest = plan.write_external(mf, df, progress, cancel, copied=_told(early, pending_path(df)))
                    compared = early.finish()
                committed_data = True  # the data file is in place; the model's rename follows
                prove(mf, compared)
        except BaseException:
            if committed_data:
                with contextlib.suppress(OSError):
                    dests[1].unlink()
            raise
    return MergeResult(
        source=plan.source,
        model_path=dests[0],
        data_path=dests[1] if plan.layout is Layout.EXTERNAL else None,
        layout=plan.layout,
        model_size=plan.model_size,
        data_size=plan.data_size,
        tensors=plan.tensors,
        external_bytes=plan.external_bytes,
        align=plan.align if plan.layout is Layout.EXTERNAL else None,
        checksum=digest,
        seconds=time.perf_counter() - start,
        plan=plan.to_dict(),
    )


def _told(early: EarlyComparison, written: Path) -> Callable[[Any, int], None]:
    """The merge's ``copied`` callback: each tensor written into ``written`` is compared at once."""
    return lambda ref, offset: early.copied(ref, written, offset)


def _check_writable(folder: Path) -> None:
    """A read-only folder or file system is said to be one (its free space reads 0 there: not "no space")."""
    read_only = False
    with contextlib.suppress(OSError, AttributeError):
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    if read_only or not os.access(folder, os.W_OK):
        if read_only:
            raise errorcodes.OUTPUT_WRITE.error(variant="read_only_fs", folder=folder)
        raise errorcodes.OUTPUT_WRITE.error(variant="read_only", folder=folder)


def _check_target(target: Path, inputs: list[Path], force: bool) -> Path:
    dest = check_output_path(target, inputs, overwrite=force)
    with contextlib.suppress(FileNotFoundError):
        mode = os.lstat(dest).st_mode
        if not stat.S_ISREG(mode):  # a FIFO, device or socket: --force replaces files, nothing else
            raise errorcodes.OUTPUT_WRITE.error(variant="not_regular", output=target)
    for inp in inputs:
        with contextlib.suppress(OSError):
            if dest.exists() and os.path.samefile(dest, inp):
                raise errorcodes.OUTPUT_IS_INPUT.error(variant="hard_link", output=target, input=inp)
    return dest

