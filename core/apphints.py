"""The desktop app's own remedies for the basics' error codes (core/errorcodes.py),
where the window has a better way than a flag.

Each is registered with its code (onnxpack.core.codes app_remedy) as a template naming the app's controls
(``{opt:NAME}``) and actions (``{act:NAME}``) as data; gui/hints.py renders it in the app's language. The command
line and JSON show the code's own ``hint``."""

from __future__ import annotations

from . import errorcodes
from .codes import app_remedy

app_remedy(errorcodes.OUTPUT_EXISTS, 'Choose another version or output folder, or {opt:force}.')
app_remedy(
    errorcodes.OUTPUT_INSIDE_INPUT,
    "Choose an output folder outside the model's folder; onnxpack never modifies its inputs.",
)
app_remedy(errorcodes.OUTPUT_NO_FOLDER, 'Choose an existing output folder in the Bundle tab.')
