"""The desktop app's own remedies for the release's codes (core/release/codes.py),
where the window has a better way than a flag.

Each is registered with its code (onnxpack.core.codes app_remedy) as a template naming the app's controls
(``{opt:NAME}``) and actions (``{act:NAME}``) as data; gui/hints.py renders it in the app's language. The command
line and JSON show the code's own ``hint``."""

from __future__ import annotations

from ..codes import app_remedy
from . import codes

app_remedy(
    codes.FIX_IR_NOT_POSSIBLE,
    'The operators are too new for that runtime: choose a newer Target ONNX Runtime in the Bundle tab, or '
    'export the model with an older opset.',
)
app_remedy(codes.VERSION_NOT_GREATER, 'Use the suggested version, or {opt:allow_version_not_greater}.')
app_remedy(
    codes.ABOUT_LABELS,
    'Give one class label per output class, in order, under Class labels in the Bundle tab (or '
    '{opt:allow_unmatched_labels} to keep them).',
)
app_remedy(
    codes.ABOUT_LICENSE,
    'Type an SPDX identifier under License in the Bundle tab, e.g. MIT, Apache-2.0 or CC-BY-4.0.',
)
app_remedy(codes.ABOUT_HOMEPAGE, 'Type the full address under Homepage in the Bundle tab, e.g. https://example.org.')
app_remedy(codes.ABOUT_AUTHOR, "Separate the names under Authors in the Bundle tab with ';' and leave none empty.")
app_remedy(
    codes.MODEL_VERSION_RANGE,
    'Untick "Write the release version into the model\'s model_version", or use smaller version numbers.',
)
app_remedy(
    codes.SIGNING_KEY,
    'Choose your private key (.key/.pem) under Signing key in the Bundle tab; make one with onnxpack keygen. '
    'Encrypted keys can only be used from the command line.',
)
app_remedy(codes.SIGSTORE_UNREACHABLE, 'Sign with a key instead: choose it under Signing key in the Bundle tab.')
app_remedy(
    codes.PROVE_ORT_FAILED,
    'Retarget the model for the oldest of those releases (set it as the target runtime and lower the IR '
    'version), or prove newer releases only.',
)
app_remedy(
    codes.RETARGET_NOT_EQUAL,
    'Re-export the model for the opset of the target runtime, or choose a newer target runtime.',
)
app_remedy(
    codes.VERSION_UNDERBUMP,
    "The changes that call for a bigger step are listed in the Result tab's release comparison.",
)
app_remedy(codes.SMOKE_NOT_RECORDED, 'Rebuild the bundle with the smoke run ticked to record one.')
app_remedy(codes.BUNDLE_FINDINGS, 'Fix the errors listed in the Findings tab first.')
app_remedy(
    codes.ORT_FORMAT_MISMATCH,
    'Untick "Also include an ORT-format (.ort) variant", or report the model to the ONNX Runtime project.',
)
app_remedy(codes.ORT_FORMAT_TOO_LARGE, 'Untick "Also include an ORT-format (.ort) variant" for this model.')
