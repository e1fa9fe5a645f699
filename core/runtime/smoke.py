"""Smoke-run a model with ONNX Runtime on the CPU in an isolated child process, and compare two models.

The options and results are in :mod:`.smokeoptions`, the child seen from the parent in :mod:`.childrun`, the
findings in :mod:`.smokefindings`, the saved outputs in :mod:`.outputfiles`; the child itself is
:mod:`.smoke_child`. This module is the parent's side of a run: check the model, load the inputs, run, report.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from .. import errorcodes
from ..atomic import make_temp_dir
from ..child.childproc import (
    SMOKE_TARGET,
    ChildProcess,
    target_name,  # noqa: F401 - tests/test_smoke.py reaches it through this module
)
from ..errors import (
    ModelFormatError,  # noqa: F401 - tests/test_smoke.py reaches it through this module
)
from ..findings import Severity
from ..model.modelfile import FileKind, ModelLocation, Window, load_structure, locate_model, sniff
from ..progress import CancelToken, ProgressCallback
from . import codes
from .childrun import ERRORS as _ERRORS  # noqa: F401 - tests/test_smoke.py reaches it through this module
from .childrun import Target, run_in_child, start_child
from .inputfiles import InputSpec, LoadedInput, load_input_file
from .outputfiles import safe_output_filename, save_outputs
from .smokefindings import compare_findings, smoke_result
from .smokeoptions import RECIPE_SCHEMA, SCHEMA, CompareResult, SmokeOptions, SmokeResult

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "RECIPE_SCHEMA",
    "SCHEMA",
    "ChildProcess",
    "CompareResult",
    "KnownModel",
    "SmokeOptions",
    "SmokeResult",
    "SmokeRun",
    "compare_models",
    "run_in_child",
    "safe_output_filename",
    "save_outputs",
    "smoke_test",
    "start_child",
]

#: Test-only fault injection passed to the child ({"action": "segfault"|"sleep"|"raise", "when": ...}).
_TEST_HOOK: dict[str, Any] | None = None


class SmokeRun(TypedDict, total=False):
    """How :func:`smoke_test` and :func:`compare_models` run (keyword arguments, all optional).

    ``options`` (default: ``SmokeOptions()``), ``save_outputs_to`` (a folder for the outputs as .npy),
    ``progress``/``cancel``, ``child``: a smoke child started earlier (:func:`start_child`), and ``answers``: what
    answers the child's questions (core/child/childask.py: "measure-source", before it loads
    ``KnownModel.source_by_path``).
    """

    options: SmokeOptions | None
    save_outputs_to: str | os.PathLike[str] | None
    progress: ProgressCallback | None
    cancel: CancelToken | None
    child: ChildProcess | None
    answers: Callable[[Any], Any] | None


@contextlib.contextmanager
def _early_child(target: Target, given: ChildProcess | None) -> Iterator[ChildProcess | None]:
    """``given`` (started by the caller even earlier), else a child started now; stopped at the end."""
    child = given if given is not None and given.usable else start_child(target)
    if given is not None and child is not given:
        given.discard()
    try:
        yield child
    finally:
        if child is not None:
            child.discard()


@dataclass(frozen=True)
class KnownModel:
    """A model its caller has located and validated already (a bundle's source, its merged copy): the smoke run does
    not parse it again in this process.

    ``protected``: the files that must never be written (the model and its data files); ``window``/``name``: the
    model is that byte range of its file (a stored ZIP entry, so named); ``inline``: the caller wrote the file
    itself with no external data in it, so the child gives ONNX Runtime its bytes without parsing it first;
    ``role``: what progress and messages call it ("bundled", "original"; default: the comparison's own words);
    ``by_path``: the same model laid out as the end user has it, in a private folder the caller wrote and validated:
    the child creates its session from that path, as an app does, and measures the load (core/runtime/loadcost.py);
    ``source_by_path``: after the run, the child also loads this model (the source, validated) by its path and
    measures that, once the parent answers its question (``SmokeRun.answers``).
    """

    location: ModelLocation
    protected: tuple[Path, ...]
    window: Window | None = None
    name: str | None = None
    inline: bool = False
    role: str = ""
    by_path: Path | None = None
    source_by_path: Path | None = None


Model = str | os.PathLike[str] | KnownModel


@dataclass
class _Prepared:
    location: ModelLocation
    spec: dict[str, Any]
    protected: list[Path]  # files that must never be written (model + its data files)
    name: str  # what messages call the model (its file name, or its entry name inside an archive)


def _prepare_model(path: Model, data_dir: str | os.PathLike[str] | None, label: str,
                   window: Window | None = None, name: str | None = None) -> _Prepared:
    """Locate and validate a model in the parent, so bad input fails fast with a clear message.

    ``window``: the model is that byte range of ``path`` (a stored ZIP entry named ``name``), read in place. A
    :class:`KnownModel` is taken as its caller validated it.
    """
    from ..model.extdata.extresolve import resolve_external_data

    if isinstance(path, KnownModel):
        return _known(path, label)
    loc = locate_model(path, data_dir)
    kind = sniff(loc.model, window)
    protected = [loc.model]
    shown = name or loc.model.name
    if kind is FileKind.ORT:
        if window is not None:
            raise errorcodes.USAGE.error(variant="ort_in_archive", model=shown)
        spec = _spec(loc, kind, shown, label)
    else:
        model = load_structure(loc.model, window)  # raises ModelFormatError for empty/text/zip/garbage
        table = resolve_external_data(model, loc.data_dir)
        table.raise_if_invalid()
        protected += [loc.data_dir / name for name in table.files]
        spec = _spec(loc, kind, shown, label, window)
    return _Prepared(loc, spec, protected, shown)


def _known(known: KnownModel, label: str) -> _Prepared:
    given, window = known.location, known.window  # absolute: the child works in a folder of its own
    loc = ModelLocation(given.model.absolute(), given.data_dir.absolute(), given.folder)
    shown = known.name or loc.model.name
    spec = _spec(loc, sniff(loc.model, window), shown, known.role or label, window)
    spec["inline"] = known.inline
    if known.by_path is not None:
        spec["by_path"] = str(known.by_path.absolute())
    if known.source_by_path is not None:
        spec["source_by_path"] = str(known.source_by_path.absolute())
    return _Prepared(loc, spec, list(known.protected), shown)


def _spec(loc: ModelLocation, kind: FileKind, shown: str, label: str, window: Window | None = None) -> dict[str, Any]:
    """The child's description of one model: where it is, what kind, its byte range, what messages call it."""
    spec: dict[str, Any] = {"path": str(loc.model), "data_dir": str(loc.data_dir), "label": shown, "shown": shown,
                            "role": label,
                            "kind": "ort" if kind is FileKind.ORT else "onnx", "file_name": shown.rsplit("/", 1)[-1]}
    if kind is not FileKind.ORT:
        spec["window"] = list(window) if window is not None else None
    if label:
        spec["label"] = f"{label} {shown}"
    return spec


def _load_inputs(options: SmokeOptions) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, str], list[LoadedInput]]:
    supplied: dict[str, np.ndarray[Any, Any]] = {}
    values: dict[str, str] = {}
    loaded: list[LoadedInput] = []
    for name, text in options.inputs.items():
        if name in options.literal:
            values[name] = text
            continue
        spec = InputSpec.parse(name, text, options.base_dir)
        if spec.file is None:
            assert spec.value is not None
            values[name] = spec.value
            continue
        li = load_input_file(spec)
        want = options.input_digests.get(name)
        if want and want.lower() != li.sha256:
            raise codes.INPUT_DIGEST.error(name=name, file=str(spec.file), actual=li.sha256, recorded=want)
        if li.array.dtype.kind == "U" or li.array.dtype.kind == "S":
            li.array = li.array.astype(object)
        supplied[name] = li.array
        loaded.append(li)
    return supplied, values, loaded


def _make_job(models: list[_Prepared], options: SmokeOptions, supplied: dict[str, Any], values: dict[str, str],
              empty_dir: str, return_outputs: bool) -> dict[str, Any]:
    opts = options.to_job()
    opts["values"] = values
    return {
        "models": [m.spec for m in models],
        "options": opts,
        "supplied": supplied,
        "empty_dir": empty_dir,
        "return_outputs": return_outputs,
        "hook": _TEST_HOOK,
    }



def _execute(models: list[_Prepared], options: SmokeOptions, *, return_outputs: bool,
             progress: ProgressCallback | None, cancel: CancelToken | None,
             child: ChildProcess | None, answers: Callable[[Any], Any] | None = None
             ) -> tuple[dict[str, Any], list[LoadedInput]]:
    supplied, values, loaded = _load_inputs(options)
    if answers is not None:
        child = child if child is not None else ChildProcess(SMOKE_TARGET)
        child.answers = answers
    # ORT's (empty) lookup folder, named onnxpack-smoke-PID-RANDOM like every temporary, so that the next run
    # removes it if this one is killed (README, "When a run is killed").
    empty_dir = make_temp_dir("smoke")
    try:
        job = _make_job(models, options, supplied, values, str(empty_dir), return_outputs)
        what = f"The smoke run of {models[0].name}"
        if len(models) > 1:
            what = f"The comparison of {models[0].name} with {models[1].name}"
        raw = run_in_child(SMOKE_TARGET, job, timeout=float(options.timeout), what=what, cancel=cancel,
                           progress=progress, child=child)
    finally:
        shutil.rmtree(empty_dir, ignore_errors=True)
    return raw, loaded



def smoke_test(
    path: Model,
    data_dir: str | os.PathLike[str] | None = None,
    *,
    window: Window | None = None,
    name: str | None = None,
    **run: Unpack[SmokeRun],
) -> SmokeResult:
    """Run ``path`` (.onnx with validated external data, or .ort) with ONNX Runtime on the CPU.

    The session lives in a child process with ``options.timeout``; a crash or time-out raises
    RuntimeFailure, a model ORT cannot load raises RuntimeFailure (code ORT_LOAD), bad external data
    ExternalDataError. A run that fails on the generated inputs (after the bounded size search)
    returns ``ok=False`` with an error finding that names the flags to try. ``window``: the model is that byte
    range of ``path`` (a stored ZIP entry named ``name``); ``run``: see :class:`SmokeRun`.
    """
    options = run.get("options") or SmokeOptions()
    options.validate()
    save_to = run.get("save_outputs_to")
    with _early_child(SMOKE_TARGET, run.get("child")) as child:  # its imports overlap the validation below
        prepared = _prepare_model(path, data_dir, "", window, name)
        raw, loaded = _execute([prepared], options, return_outputs=save_to is not None, progress=run.get("progress"),
                               cancel=run.get("cancel"), child=child, answers=run.get("answers"))
    result = smoke_result(raw, 0, str(prepared.location.model), prepared.name, options, loaded)
    if save_to is not None and raw.get("arrays"):
        result.saved_outputs = save_outputs(raw["arrays"], Path(save_to), protected=prepared.protected)
    return result


def compare_models(
    original: Model,
    other: Model,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    other_data_dir: str | os.PathLike[str] | None = None,
    other_window: Window | None = None,
    other_name: str | None = None,
    **run: Unpack[SmokeRun],
) -> CompareResult:
    """Run both models in one child on the same inputs (generated for ``original``) and compare outputs.

    Per output: bitwise equality, else max absolute / relative difference; the pass line is
    ``|other - original| <= atol + rtol * |original|`` (options.atol/rtol; 0/0 = equal values).
    The sessions are created one after the other, so only one model is in memory at a time.
    """
    options = run.get("options") or SmokeOptions()
    options.validate()
    save_to = run.get("save_outputs_to")
    with _early_child(SMOKE_TARGET, run.get("child")) as child:  # its imports overlap the validation below
        first = _prepare_model(original, data_dir, "original")
        second = _prepare_model(other, other_data_dir, "other", other_window, other_name)
        if first.location.model == second.location.model and first.location.data_dir == second.location.data_dir:
            raise errorcodes.USAGE.error(variant="same_file", model=str(first.location.model))
        raw, loaded = _execute([first, second], options, return_outputs=save_to is not None,
                               progress=run.get("progress"), cancel=run.get("cancel"), child=child,
                               answers=run.get("answers"))
    orig = smoke_result(raw, 0, str(first.location.model), first.name, options, loaded)
    if save_to is not None and raw.get("arrays"):
        orig.saved_outputs = save_outputs(raw["arrays"], Path(save_to), protected=first.protected)
    if raw.get("compare") is None:
        return CompareResult(False, orig, None, [], options.atol, options.rtol, list(orig.findings))
    oth = smoke_result(raw, 1, str(second.location.model), second.name, options, loaded)
    rows = list(raw["compare"]["outputs"])
    findings = compare_findings(raw, second.name, options)
    all_findings = orig.findings + oth.findings + findings
    ok = orig.ok and oth.ok and not any(f.severity is Severity.ERROR for f in findings)
    return CompareResult(ok, orig, oth, rows, options.atol, options.rtol, all_findings)
