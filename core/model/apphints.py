"""The desktop app's own remedies for the model file's codes (core/model/codes.py),
where the window has a better way than a flag.

Each is registered with its code (onnxpack.core.codes app_remedy) as a template naming the app's controls
(``{opt:NAME}``) and actions (``{act:NAME}``) as data; gui/hints.py renders it in the app's language. The command
line and JSON show the code's own ``hint``."""

from __future__ import annotations

from ..codes import app_remedy
from . import codes

app_remedy(
    codes.EXTDATA_MISSING,
    'Put the .data file next to the .onnx file (same folder, same name as written in the model), or choose '
    'where it is with {act:locate_data_file}',
)
app_remedy(
    codes.MERGE_TOO_LARGE,
    'Above 2 GiB the bundle keeps the weights in one aligned .onnx.data beside the model; nothing to do.',
)
app_remedy(
    codes.MODEL_IS_ORT,
    'Open the original .onnx model; tick "Also include an ORT-format (.ort) variant" to ship an .ort too.',
)
app_remedy(codes.MODEL_IS_DATA, 'Open the .onnx model file that uses this data file; keep the data file beside it.')
app_remedy(
    codes.BUNDLE_NOT_ZIP,
    'Open the NAME-VERSION.zip that onnxpack made to verify it; open a model file to inspect the model.',
)
app_remedy(
    codes.PREVIOUS_NOT_BUNDLE,
    'Under "Previous bundle" in the Bundle tab, choose the .zip of the release before this one.',
)
app_remedy(codes.MODEL_IS_ZIP, 'If it is an onnxpack bundle, open it to verify it; otherwise extract the model first.')
