"""The desktop app's own remedies for ONNX Runtime's codes (core/runtime/codes.py, provecodes.py),
where the window has a better way than a flag.

Each is registered with its code (onnxpack.core.codes app_remedy) as a template naming the app's controls
(``{opt:NAME}``) and actions (``{act:NAME}``) as data; gui/hints.py renders it in the app's language. The command
line and JSON show the code's own ``hint``."""

from __future__ import annotations

from ..codes import app_remedy
from . import codes, provecodes

_SMALLER_SIZES = 'Set smaller sizes under Symbolic dimensions in the Bundle tab, or untick the smoke run.'
_INPUTS = (
    'In the Bundle tab, give an .npy file for this input under "Input data", or leave it empty to use '
    'generated data.'
)


app_remedy(codes.DIM_UNKNOWN, 'Set its size under Symbolic dimensions in the Bundle tab (0 = automatic).')
app_remedy(codes.SMOKE_TIMEOUT, _SMALLER_SIZES)
app_remedy(codes.INPUT_FILE_MISSING, _INPUTS)
app_remedy(codes.INPUT_FILE_FORMAT, _INPUTS)
app_remedy(codes.INPUT_FILE_MEMBER, _INPUTS)
app_remedy(codes.INPUT_DTYPE, _INPUTS)
app_remedy(codes.INPUT_SHAPE, _INPUTS)
app_remedy(codes.INPUT_VALUE, _INPUTS)
app_remedy(codes.SMOKE_INPUT_DEFAULT, _INPUTS)
app_remedy(codes.SMOKE_INPUT_OMITTED, _INPUTS)
app_remedy(
    codes.SMOKE_NON_FINITE,
    'Give real input data (.npy) under Input data in the Bundle tab: generated values may be outside what the'
    ' model expects.',
)
app_remedy(
    provecodes.PROVE_NETWORK,
    'Connect to the internet (each release is downloaded once, then cached), or do not prove on ONNX Runtime '
    'releases.',
)
app_remedy(provecodes.PROVE_NO_WHEEL,
           'Choose a release with a wheel for this Python (for Python 3.11: 1.15.0 and newer).')
app_remedy(provecodes.PROVE_NO_RELEASE, 'Give a released version, e.g. 1.16.3.')
app_remedy(provecodes.PROVE_WHEEL_HASH, 'Try again; if it repeats, do not trust this network connection.')
app_remedy(provecodes.PROVE_ENV, 'Check the internet connection and try again; the details show the output of pip.')
app_remedy(
    provecodes.PROVE_NO_PYTHON,
    'Set ONNXPACK_PYTHON to a Python 3.10+ interpreter, or use onnxpack installed with pip.',
)
app_remedy(provecodes.PROVE_INPUTS, 'Give the sizes the model needs under Symbolic dimensions in the Bundle tab.')
app_remedy(provecodes.PROVE_REFERENCE, 'Smoke-run the model to see why it fails.')
app_remedy(provecodes.BAD_PROVE_ORT, 'Give releases like 1.16.3,1.20.1, a MAJOR.MINOR, newest, or auto.')
app_remedy(
    provecodes.PROVE_ORT_NOT_LOADED,
    'Bundle with that release as the target runtime and the IR version lowered: onnxpack retargets the '
    'released copy and proves it.',
)
app_remedy(provecodes.PROVE_ORT_MISMATCH,
           'Check whether the difference matters before shipping the model for that release.')
app_remedy(
    codes.SMOKE_RUN_FAILED,
    'Give real sizes under Symbolic dimensions or real data under Input data in the Bundle tab.',
)
app_remedy(
    codes.SMOKE_DIMS_SEARCHED,
    "Set these sizes (or the model's real sizes) under Symbolic dimensions in the Bundle tab.",
)
app_remedy(codes.SMOKE_MEMORY, _SMALLER_SIZES)
app_remedy(codes.SMOKE_INPUT_TOO_LARGE, _SMALLER_SIZES)
