"""The desktop app's own remedies for the checks' codes (core/checks/codes.py),
where the window has a better way than a flag.

Each is registered with its code (onnxpack.core.codes app_remedy) as a template naming the app's controls
(``{opt:NAME}``) and actions (``{act:NAME}``) as data; gui/hints.py renders it in the app's language. The command
line and JSON show the code's own ``hint``."""

from __future__ import annotations

from ..codes import app_remedy
from . import codes

app_remedy(
    codes.EXTDATA_UNALIGNED,
    "Harmless: the bundle's own data file (used above 2 GiB) is written 64 KiB-aligned.",
)
app_remedy(codes.IR_LOWERABLE, '{opt:fix_ir}.')
app_remedy(codes.MERGE_FITS, 'Bundling writes it as one self-contained .onnx file; nothing to do.')
app_remedy(
    codes.BAD_TARGET_ORT,
    'Choose a release from the Target ONNX Runtime list in the Bundle tab, or leave it empty.',
)
app_remedy(codes.TARGET_APP_UNKNOWN, 'Choose the target ONNX Runtime yourself, or update onnxpack.')
app_remedy(
    codes.TARGET_APP_UNREADABLE,
    'Give the Cargo.lock, .csproj, packages.lock.json, package-lock.json, requirements.txt, pyproject.toml or'
    ' uv.lock of the app.',
)
app_remedy(codes.TARGET_APP_NONE, 'Choose the target ONNX Runtime yourself, or give the file that pins ONNX Runtime.')
app_remedy(
    codes.ORT_TARGET_UNSUPPORTED,
    'Re-export for a lower opset or IR, choose a newer Target ONNX Runtime in the Bundle tab, or '
    '{opt:fix_ir}.',
)
