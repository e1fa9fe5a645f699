"""ORT-format conversion with onnxruntime's own converter, from a validated copy, then smoke-compared."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from .. import classcodes, errorcodes, steps
from ..atomic import atomic_dir, check_free_space, output_folder, refuse_inside_inputs
from ..child.childhandles import frozen as _frozen  # (a name of its own here: tests stand in for it)
from ..child.childproc import child_environ
from ..findings import Finding
from ..model import codes as model_codes
from ..model.layout import Layout
from ..model.modelfile import PROTOBUF_LIMIT, FileKind, load_structure, locate_model, sniff
from ..progress import STEPS, CancelToken, ProgressCallback, check_cancel, report
from . import codes
from .childrun import run_in_child
from .ortdefaults import DEFAULT_ATOL, DEFAULT_RTOL, OPTIMIZATION_STYLES, TARGET_PLATFORMS
from .smoke import compare_models
from .smokeoptions import CompareResult, SmokeOptions

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "DEFAULT_ATOL",
    "DEFAULT_RTOL",
    "OPTIMIZATION_STYLES",
    "ORT_NONDETERMINISM",
    "TARGET_PLATFORMS",
    "OrtCheck",
    "OrtConversion",
    "convert_to_ort",
]

_STAGE = "ort"
_CONVERTER = "onnxruntime.tools.convert_onnx_models_to_ort"
# Read by the converter: another level changes both the optimizations and the output file names.
_LEVEL_VAR = "ORT_CONVERT_ONNX_MODELS_TO_ORT_OPTIMIZATION_LEVEL"

# Why the .ort bytes are not reproducible (recorded in bundle manifests). Measured with onnxruntime 1.32:
# KernelTypeStrResolver::SaveToOrtFormat writes its tables in the iteration order of an Abseil hash map,
# and Abseil seeds its hash with an address that address-space layout randomisation moves in every
# process. The vectors themselves are sorted by key, so only where those tables sit in the buffer (and
# the offsets pointing at them) changes: the same model, converted twice, gives the same content and the
# same size but different bytes. With randomisation switched off the bytes repeat, and neither the folder
# nor the file name of the conversion is embedded, so nothing we pass to the converter is the cause.
ORT_NONDETERMINISM = (
    "onnxruntime's converter writes part of the .ort FlatBuffer (the kernel type-string tables) in the "
    "order of a hash map seeded per process by address-space layout randomisation: converting the same "
    "model again gives the same content and size but different bytes"
)


@dataclass
class OrtConversion:
    """Result of :func:`convert_to_ort`: the files written and the comparison with the .onnx."""

    ok: bool
    out_dir: Path
    ort_model: Path
    config: Path | None
    files: list[dict[str, Any]]  # {name, size}
    optimization_style: str
    target_platform: str | None
    compare: CompareResult
    converter_log: str
    findings: list[Finding] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "onnxpack.ort/1",
            "ok": self.ok,
            "out_dir": str(self.out_dir),
            "ort_model": str(self.ort_model),
            "config": None if self.config is None else str(self.config),
            "files": self.files,
            "optimization_style": self.optimization_style,
            "target_platform": self.target_platform,
            "tolerance": {"atol": self.compare.atol, "rtol": self.compare.rtol},
            "compare": self.compare.to_dict(),
            "converter_log": self.converter_log,
            "findings": [f.to_dict() for f in self.findings],
        }


def _write_validated_copy(model_path: Path, data_dir: Path, dest: Path, cancel: CancelToken | None) -> None:
    """Write a self-contained copy (external data inlined from validated bytes) for the converter.

    The converter then never resolves a path named by the (untrusted) model.
    """
    import onnx

    from ..model.extdata.extreader import ExternalDataReader
    from ..model.extdata.extresolve import resolve_external_data

    model = load_structure(model_path)  # our own fresh object: safe to modify
    table = resolve_external_data(model, data_dir, cancel=cancel)
    table.raise_if_invalid()
    total = model.ByteSize() + sum((r.data_length or 0) for r in table.refs)
    if total >= PROTOBUF_LIMIT:
        raise codes.ORT_TOO_LARGE.error(file=model_path.name, bytes=total)
    check_free_space(dest.parent, total)
    with ExternalDataReader(table) as reader:
        for r in table.refs:
            check_cancel(cancel)
            t = r.ref.tensor
            t.raw_data = reader.read(r, cancel=cancel)
            del t.external_data[:]
            t.data_location = onnx.TensorProto.DEFAULT
    dest.write_bytes(model.SerializeToString())


def _utf8_text_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
    """``open`` whose text files are UTF-8 unless told otherwise (binary files as ``open``)."""
    if "b" not in mode and len(args) < 2:  # (args: buffering, encoding, ...)
        kwargs.setdefault("encoding", "utf-8")
    return open(file, mode, *args, **kwargs)


def _converter_child(conn: Any, job: dict[str, Any]) -> None:
    """Spawn-child entry used when frozen (no `python -m`): call the converter's function directly."""
    buf = io.StringIO()
    try:
        import onnxruntime as ort

        ort.set_default_logger_severity(3)
        os.environ.pop(_LEVEL_VAR, None)
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            # imported here: its logger's handler (logging.basicConfig at import) then writes into the log too
            from onnxruntime.tools import convert_onnx_models_to_ort as conv
            from onnxruntime.tools.ort_format_model import utils as ort_utils

            # Its config (required_operators.config) is written by open(path, "w"): the locale's encoding, which on
            # Windows cannot write the Japanese of a path listed in it (UnicodeEncodeError). The `python -m` run has
            # PYTHONUTF8=1; this child, a re-run of the frozen app's executable, opens that module's text files so.
            ort_utils.open = _utf8_text_open  # type: ignore[attr-defined]

            conv.convert_onnx_models_to_ort(
                Path(job["src"]),
                output_dir=Path(job["out"]),
                optimization_styles=[conv.OptimizationStyle[job["style"]]],
                target_platform=job["target"],
            )
        conn.send(("result", {"returncode": 0, "log": buf.getvalue()}))
    except BaseException as e:  # report everything; the parent turns it into RuntimeFailure
        conn.send(("result", {"returncode": 1, "log": buf.getvalue() + f"\n{type(e).__name__}: {e}"}))
    finally:
        conn.close()


def _run_converter(src_dir: Path, out_dir: Path, style: str, target: str | None, timeout: float,
                   cancel: CancelToken | None, progress: ProgressCallback | None) -> str:
    """Run onnxruntime's converter on ``src_dir``; return its log, raise RuntimeFailure on failure.

    Both folders are handed over as absolute paths: the converter resolves them against its own working
    folder, which is ``src_dir`` (so that ``python -m``, which puts the working folder first on
    ``sys.path``, imports nothing from the user's current folder).
    """
    src_dir = Path(os.path.abspath(src_dir))
    out_dir = Path(os.path.abspath(out_dir))
    if _frozen():
        job = {"src": str(src_dir), "out": str(out_dir), "style": style, "target": target}
        res = run_in_child(_converter_child, job, timeout=timeout, what="The ORT-format conversion", cancel=cancel,
                           progress=progress, stage=_STAGE)
        code, log = int(res["returncode"]), str(res["log"])
    else:
        argv = [sys.executable, "-m", _CONVERTER, "--optimization_style", style, "--output_dir", str(out_dir)]
        if target:
            argv += ["--target_platform", target]
        argv.append(str(src_dir))
        env = dict(child_environ(), PYTHONIOENCODING="utf-8", PYTHONUTF8="1")  # UTF-8 config, whatever the locale
        env.pop(_LEVEL_VAR, None)
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=str(src_dir))
        deadline = time.monotonic() + timeout
        try:
            while proc.poll() is None:
                if cancel is not None and cancel.cancelled:
                    raise classcodes.CANCELLED.error(variant="ort_conversion")
                if time.monotonic() > deadline:
                    raise codes.ORT_TIMEOUT.error(timeout=f"{timeout:g}")
                time.sleep(0.05)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        out = proc.stdout.read() if proc.stdout is not None else b""
        if proc.stdout is not None:
            proc.stdout.close()
        code, log = int(proc.returncode), out.decode("utf-8", "replace")
    if code != 0:
        last = [ln for ln in log.strip().splitlines() if ln.strip()]
        if not last:
            raise codes.ORT_CONVERT.error(variant="status", status=code, details=log[-4000:])
        raise codes.ORT_CONVERT.error(detail=last[-1], details=log[-4000:])
    return log


def _normalize_config(path: Path) -> None:
    """Name the converted models by file name only in the config's header comment.

    The converter lists the absolute paths of the .ort files it read the operators from: a temporary
    folder of this conversion (and, for the Runtime style, a second temporary conversion), which would
    make the file differ from run to run and leak local paths into a release. The operator lines below
    the header are left exactly as written.
    """
    lines = path.read_bytes().decode("utf-8", "surrogateescape").splitlines(keepends=True)
    head = 0
    while head < len(lines) and lines[head].startswith("#"):
        head += 1
    listed = [i for i in range(head) if lines[i].startswith("# - ")]
    if not listed:
        return
    entries = []
    for i in listed:
        body = lines[i].rstrip("\r\n")
        entries.append("# - " + Path(body[len("# - "):]).name + lines[i][len(body):])
    for i, entry in zip(listed, sorted(entries), strict=True):
        lines[i] = entry
    path.write_bytes("".join(lines).encode("utf-8", "surrogateescape"))


def _prepare_out_dir(out_dir: Path, protected: list[Path]) -> None:
    refuse_inside_inputs(out_dir, protected)
    if out_dir.exists():
        if not out_dir.is_dir():
            raise errorcodes.OUTPUT_EXISTS.error(variant="not_folder", output=out_dir)
        if any(out_dir.iterdir()):
            raise errorcodes.OUTPUT_EXISTS.error(variant="not_empty", output=out_dir)


class OrtCheck(TypedDict, total=False):
    """How :func:`convert_to_ort` checks the .ort and reports (keyword arguments, all optional): the smoke
    ``options`` (default: ``SmokeOptions()``), the pass line ``atol``/``rtol`` (default DEFAULT_ATOL/DEFAULT_RTOL),
    ``progress``/``cancel``."""

    options: SmokeOptions | None
    atol: float
    rtol: float
    progress: ProgressCallback | None
    cancel: CancelToken | None


def convert_to_ort(
    path: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    data_dir: str | os.PathLike[str] | None = None,
    *,
    optimization_style: str = "Fixed",
    target_platform: str | None = None,
    **check: Unpack[OrtCheck],
) -> OrtConversion:
    """Convert ``path`` to ORT format into ``out_dir`` and prove the .ort computes what the .onnx does.

    onnxruntime's own ``convert_onnx_models_to_ort`` does the conversion (a ``python -m`` subprocess,
    or a spawn child calling it when frozen), on a self-contained validated copy in a temporary folder
    beside ``out_dir``. ``out_dir`` (new or empty) receives ``<model>.ort`` (``<model>.with_runtime_opt.ort``
    for the Runtime style) and ``required_operators.config``, all at once or not at all. The .ort is then
    smoke-run against the original on the same inputs; it passes within ``atol``/``rtol``
    (default 1e-5 / 1e-4) because the converter re-optimizes the graph.

    ``out_dir`` may be relative: it is made absolute first, nothing depends on the current folder. The
    config's header names the converted models by file name only (not the temporary folder), so it repeats
    exactly; the .ort bytes do not (see :data:`ORT_NONDETERMINISM`).
    """
    if optimization_style not in OPTIMIZATION_STYLES:
        raise errorcodes.USAGE.error(variant="optimization_style", choices=", ".join(OPTIMIZATION_STYLES))
    if target_platform not in (None, *TARGET_PLATFORMS):
        raise errorcodes.USAGE.error(variant="target_platform", choices=", ".join(TARGET_PLATFORMS))
    progress, cancel = check.get("progress"), check.get("cancel")
    base = check.get("options") or SmokeOptions()
    smoke_opts = SmokeOptions(**{**base.__dict__, "atol": check.get("atol", DEFAULT_ATOL),
                                 "rtol": check.get("rtol", DEFAULT_RTOL)})
    smoke_opts.validate()
    loc = locate_model(path, data_dir)
    if sniff(loc.model) is FileKind.ORT:
        raise model_codes.MODEL_IS_ORT.error(variant="convert", file=loc.model.name)
    out = Path(os.path.abspath(out_dir))
    _prepare_out_dir(out, loc.protected)
    stem = loc.model.stem or "model"
    report(progress, _STAGE, 0, 4, steps.ORT_COPYING, unit=STEPS)
    if out.exists():
        out.rmdir()  # empty (checked above): recreated atomically below
    with output_folder(out.parent), atomic_dir(out) as tmp:
        src = tmp / ".onnxpack-src"
        conv = tmp / ".onnxpack-converted"
        src.mkdir()
        _write_validated_copy(loc.model, loc.data_dir, src / f"{stem}.onnx", cancel)
        check_cancel(cancel)
        report(progress, _STAGE, 1, 4, steps.ORT_CONVERTING, unit=STEPS)
        log = _run_converter(src, conv, optimization_style, target_platform, smoke_opts.timeout, cancel, progress)
        suffix = ".with_runtime_opt" if optimization_style == "Runtime" else ""
        ort_name = Layout.ORT.model_name(f"{stem}{suffix}")
        config_name = f"required_operators{suffix}.config"
        if not (conv / ort_name).is_file():
            raise codes.ORT_CONVERT.error(variant="missing", file=ort_name, details=log[-4000:])
        shutil.move(str(conv / ort_name), str(tmp / ort_name))
        config: Path | None = None
        if (conv / config_name).is_file():
            shutil.move(str(conv / config_name), str(tmp / config_name))
            _normalize_config(tmp / config_name)
            config = out / config_name
        shutil.rmtree(src)
        shutil.rmtree(conv)
        report(progress, _STAGE, 2, 4, steps.ORT_SMOKE, unit=STEPS)
        cmp = compare_models(loc.model, tmp / ort_name, data_dir=loc.data_dir, options=smoke_opts, cancel=cancel,
                             progress=progress)
        files = [{"name": p.name, "size": p.stat().st_size} for p in sorted(tmp.iterdir())]
        report(progress, _STAGE, 3, 4, steps.ORT_MOVING, unit=STEPS)
    report(progress, _STAGE, 4, 4, steps.DONE, unit=STEPS)
    return OrtConversion(cmp.ok, out, out / ort_name, config, files, optimization_style, target_platform, cmp, log,
                         list(cmp.findings))
