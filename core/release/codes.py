"""The finding and error codes that ``onnxpack.core.release`` produces (the registry: ``onnxpack.core.codes``)."""

from __future__ import annotations

from ..codes import define
from ..errors import InputError, RefusedError
from ..findings import Severity

__all__: list[str] = []

#: The remedy of a bundle that is not what its manifest or signature says (the entries below repeat it; the verify
#: report gives it to an error that has no hint of its own).
HINT_TAMPER = "The bundle was modified after it was built. Get it again from its publisher, or rebuild it."
_TAMPER = HINT_TAMPER

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

# Each entry: NAME = define("NAME", SEVERITY, "message template", "remedy template") for a finding, or
# NAME = define("NAME", kind=SomeError, text="message template", hint="remedy", summary="in general words").
_ = define

# bundle
# core/release/bundle.py (and its stages): the options' effects, the gate, retargeting, the proofs, the variants
MODEL_VERSION_TAGS = define(
    "MODEL_VERSION_TAGS", WARNING,
    "model_version {model_version} cannot carry the pre-release/build part of {version}",
    "Release managers reading model_version see only MAJOR.MINOR.PATCH.",
)
SIGNING_KEY_READABLE = define(
    "SIGNING_KEY_READABLE", WARNING, "{warning}", "Keep the private key readable by you only.",
)
FIX_IR_NOT_NEEDED = define(
    "FIX_IR_NOT_NEEDED", INFO, "ONNX Runtime {version} already loads the model; ir_version left as it is",
)
RELEASE_NAME_CHANGED = define(
    "RELEASE_NAME_CHANGED", WARNING, "The previous release is named {previous!r}, this one {name!r}",
)
FIX_IR_NOT_POSSIBLE = define(
    "FIX_IR_NOT_POSSIBLE", kind=RefusedError,
    text="{opt:fix_ir} cannot make the model load in ONNX Runtime {version}: {reason}",
    hint="Re-export the model for a lower opset, or target a newer ORT.",
    summary="Lowering the IR version cannot make the model load in the target ONNX Runtime",
)
BUNDLE_FINDINGS = define(
    "BUNDLE_FINDINGS", kind=RefusedError,
    text="The model has error-level findings, so it is not bundled: {listing}",
    hint="Run `onnxpack check` on the model for every finding.",
    # more findings than the three listed
    variants={"more": "The model has error-level findings, so it is not bundled: {listing} (and {more} more)"},
    variant_hints={"more": "Run `onnxpack check` on the model for every finding."},
    summary="The model has error-level findings, so it is not bundled",
)
SOURCE_CHANGED = define(
    "SOURCE_CHANGED", kind=RefusedError,
    text="{files} changed while it was being bundled; the bundle was not written",
    hint="Wait until whatever writes the model has finished (an export or a copy still running?), then run again.",
    summary="A source file changed while it was being bundled; the bundle was not written",
)
ORT_FORMAT_TOO_LARGE = define(
    "ORT_FORMAT_TOO_LARGE", kind=InputError,
    text="{opt:ort_format} needs a model under 2 GiB (the ORT format is a single FlatBuffer)",
    hint="Drop {opt:ort_format} for this model.",
    summary="An ORT-format variant needs a model under 2 GiB",
)
RETARGET_NOT_EQUAL = define(
    "RETARGET_NOT_EQUAL", kind=RefusedError,
    text="onnx.version_converter's rewrite for ONNX Runtime {version} does not give bitwise the same outputs as "
         "{model}: {outputs} (max abs diff up to {max_abs})",
    # none of its outputs could be compared
    variants={"no_outputs": "onnx.version_converter's rewrite for ONNX Runtime {version} does not give bitwise the "
                            "same outputs as {model}: no outputs to compare"},
    hint="Re-export the model for the target's opset.",
    summary="The model rewritten by the ONNX version converter does not give the same outputs as the original",
)
PROVE_ORT_FAILED = define(
    "PROVE_ORT_FAILED", kind=RefusedError,
    text="The bundled model fails on ONNX Runtime {versions}: {detail}",
    hint="Retarget it for the oldest of them ({opt:target_ort} X.Y {opt:fix_ir}), or prove newer releases only.",
    summary="The bundled model fails on an ONNX Runtime release it was to be proven on",
)
ORT_FORMAT_MISMATCH = define(
    "ORT_FORMAT_MISMATCH", kind=RefusedError,
    text="The ORT-format variant failed its check: {detail}",
    hint="Drop {opt:ort_format}, or report the model to the ONNX Runtime project.",
    # without an error finding of its own
    variants={"outputs": "The ORT-format variant failed its check: the .ort model's outputs differ from the .onnx "
                         "model's"},
    summary="The ORT-format variant failed its check",
)
# core/release/metadata.py: the release metadata (--license, --author, --homepage, --labels)
ABOUT_LICENSE = define(
    "ABOUT_LICENSE", kind=InputError,
    text="{opt:license} {license!r} is not an SPDX licence expression ({reason})",
    hint="Use an identifier from https://spdx.org/licenses/ such as MIT, Apache-2.0 or CC-BY-4.0 (combine with "
         "AND/OR), or LicenseRef-NAME for your own.",
    summary="The license is not an SPDX license expression",
)
ABOUT_AUTHOR = define(
    "ABOUT_AUTHOR", kind=InputError, text="An {opt:author} is empty",
    hint="Give each author's name (and e-mail), e.g. 'Ada <ada@example.org>'.",
    summary="An author's name is empty",
)
ABOUT_HOMEPAGE = define(
    "ABOUT_HOMEPAGE", kind=InputError, text="{opt:homepage} {homepage!r} is not an http(s) address",
    hint="Give the full address, e.g. https://example.org/model.",
    summary="The homepage is not an http(s) address",
)
ABOUT_LABELS = define(
    "ABOUT_LABELS", kind=InputError,
    text="The class labels contain an empty label",
    hint="Give one non-empty label per class, in output order.",
    variants={
        "count": "{count} labels (at most {limit})",
        "unreadable": "Cannot read the labels file {file}: {reason}",
        "encoding": "The labels file {file} is not UTF-8 text",
        "unmatched": "{count} class labels, but no output has {count} classes (last dimensions: {outputs})",
    },
    summary="The class labels cannot be used",
    variant_hints={
        "count": "Check the labels file.",
        "unreadable": "Give a text file, one label per line.",
        "encoding": "Save it as UTF-8, one label per line.",
        "unmatched": "Give one label per class of the output, in order (or pass {opt:allow_unmatched_labels} to keep "
                     "them).",
    },
)
# core/release/manifest.py: reading a manifest (verify reports these as findings under the same names)
# (Also findings: verify reports a bundle's manifest under the same codes, core/release/verify/verify_manifest.py: the
# variants "declared", "read", "verify_foreign", "violation" and "more".)
MANIFEST_TOO_LARGE = define(
    "MANIFEST_TOO_LARGE", ERROR, kind=InputError,
    text="{file} is {size} bytes, more than the {limit} a manifest may have",
    hint="This is not an onnxpack manifest.",
    variants={"declared": "{file} declares {size} bytes (cap {limit})"},
    summary="The manifest is larger than a manifest may be",
    variant_hints={"declared": _TAMPER},
)
MANIFEST_JSON = define(
    "MANIFEST_JSON", ERROR, kind=InputError, text="{file} is not valid strict JSON: {reason}",
    hint="The manifest was damaged or edited by hand; rebuild the bundle with `onnxpack bundle`.",
    # the reader's error (its message) reported by verify
    variants={"read": "{detail}"},
    summary="The manifest is not valid JSON",
    variant_hints={"read": _TAMPER},
)
MANIFEST_SCHEMA = define(
    "MANIFEST_SCHEMA", ERROR, kind=InputError, text="{file} does not match the manifest schema: {problems}",
    hint="The manifest was damaged or edited by hand; rebuild the bundle with `onnxpack bundle`.",
    variants={"foreign": "{file} is not an onnxpack manifest (schema {found!r}, expected {expected!r})",
              "verify_foreign": "{file} has schema {found!r}, expected {expected!r}",
              "violation": "{file}: {problem}",
              # more violations than the five listed
              "listed_more": "{file} does not match the manifest schema: {problems} (and {more} more)",
              "more": "{file}: {more} more violations"},
    summary="The manifest does not follow the onnxpack manifest schema",
    # "foreign": a document that is not an onnxpack manifest at all; "more": no remedy of its own
    variant_hints={"foreign": "Give a bundle made by `onnxpack bundle` or its manifest.json.",
                   "verify_foreign": "This bundle was made by another tool or a newer onnxpack.",
                   "violation": _TAMPER,
                   "more": ""},
)


# verify and the archive
# One entry per name: codes both raised and reported are registered as what produces their wording here.
# MANIFEST_JSON, MANIFEST_SCHEMA and MANIFEST_TOO_LARGE are the manifest reader's errors (core/release/manifest.py,
# the bundle's section), SIGNATURE_INVALID/SIGNATURE_UNSUPPORTED signing.py's errors and VERSION_NOT_GREATER the
# refusal of versions.py: verify (and a forced version) report them as findings under the same name. SMOKE_FAILED
# is the bundle's too (its main text: a smoke run's own words).
_CRAFTED = "Do not use this archive: it was damaged or crafted. Get the bundle again from its publisher."

# zipcheck.py: the archive's structure, judged before any member is read
ZIP_NOT_ZIP = _("ZIP_NOT_ZIP", ERROR, "The file is not a ZIP archive (no end-of-central-directory record)", _CRAFTED)
ZIP_TRUNCATED = _("ZIP_TRUNCATED", ERROR, "The ZIP end record is truncated", _CRAFTED)
ZIP_TRAILING_DATA = _(
    "ZIP_TRAILING_DATA", ERROR, "{count} byte(s) after the end of the ZIP end record", _CRAFTED,
    variants={"missing": "{count} byte(s) missing from the end of the ZIP end record",
              "locator": "Unaccounted bytes between the ZIP64 end record and its locator"},
)  # fmt: skip
ZIP_BAD_END = _(
    "ZIP_BAD_END", ERROR, "The ZIP64 end record is missing or damaged", _CRAFTED,
    variants={"field": "The ZIP64 end record is damaged: it says {value} for the {field}, the ZIP end record {old}"},
)  # fmt: skip
ZIP_MULTIDISK = _(
    "ZIP_MULTIDISK", ERROR, "The archive claims to span several disks", _CRAFTED,
    variants={"member": "Member {name!r} starts on another disk"},
)  # fmt: skip
ZIP_TOO_LARGE = _(
    "ZIP_TOO_LARGE", ERROR, "The archive declares {entries} entries / {bytes} directory bytes", _CRAFTED,
    variants={"member": "Member {name!r} declares {size} bytes (cap {cap})"},
)  # fmt: skip
ZIP_GAP = _(
    "ZIP_GAP", ERROR, "{count} unaccounted byte(s) before member {name!r}", _CRAFTED,
    variants={"directory": "{count} unaccounted byte(s) before the central directory",
              "end": "The central directory does not end where the end record starts ({gap} bytes)"},
)  # fmt: skip
ZIP_LEADING_DATA = _("ZIP_LEADING_DATA", ERROR, "{count} unaccounted byte(s) before the first entry", _CRAFTED)
ZIP_OVERLAP = _(
    "ZIP_OVERLAP", ERROR, "Member {name!r} overlaps the previous entry", _CRAFTED,
    variants={"directory": "Member {name!r} extends into the central directory",
              "end": "The central directory does not end where the end record starts ({gap} bytes)"},
)  # fmt: skip
ZIP_BAD_DIRECTORY = _(
    "ZIP_BAD_DIRECTORY", ERROR, "The central directory is damaged (bad entry header)", _CRAFTED,
    variants={"truncated": "The central directory is truncated",
              "extra": "Member {name!r} has a damaged extra field",
              "unaccounted": "The central directory has unaccounted bytes"},
)  # fmt: skip
ZIP_BAD_NAME = _(
    "ZIP_BAD_NAME", ERROR, "Member name {name!r} {why}", _CRAFTED,
    variants={"unicode_path": "Member {name!r} carries a second (Unicode path) name",
              "encoding": "Member name {raw!r} is not valid UTF-8"},
)  # fmt: skip
ZIP_DIRECTORY = _(
    "ZIP_DIRECTORY", ERROR, "Member {name!r} is a directory entry", _CRAFTED,
    variants={"name": "Member name {name!r} {why}"},
)  # fmt: skip
ZIP_ENCRYPTED = _("ZIP_ENCRYPTED", ERROR, "Member {name!r} is encrypted", _CRAFTED)
ZIP_COMPRESSION = _(
    "ZIP_COMPRESSION", ERROR, "Member {name!r} uses compression method {method} (only stored/deflate)", _CRAFTED
)
ZIP_SYMLINK = _(
    "ZIP_SYMLINK", ERROR, "Member {name!r} is a symbolic link", _CRAFTED,
    variants={"reparse": "Member {name!r} is a reparse point (link)"},
)  # fmt: skip
ZIP_SPECIAL = _("ZIP_SPECIAL", ERROR, "Member {name!r} is a special file (mode {mode})", _CRAFTED)
ZIP_BAD_SIZE = _(
    "ZIP_BAD_SIZE", ERROR, "Stored member {name!r} declares {size} bytes but occupies {stored}", _CRAFTED
)
ZIP_RATIO = _(
    "ZIP_RATIO", ERROR,
    "Member {name!r} would expand {stored} bytes to {size} (ratio above {ratio}: a zip bomb?)", _CRAFTED,
)  # fmt: skip
ZIP_BAD_HEADER = _(
    "ZIP_BAD_HEADER", ERROR, "Member {name!r}: no local header at its offset", _CRAFTED,
    variants={"extra": "Member {name!r}: damaged local extra field"},
)  # fmt: skip
ZIP_HEADER_MISMATCH = _(
    "ZIP_HEADER_MISMATCH", ERROR,
    "Member {name!r}: local header disagrees with the central directory ({fields})", _CRAFTED,
)  # fmt: skip
ZIP_DUPLICATE = _(
    "ZIP_DUPLICATE", ERROR, "Member name {name!r} appears twice", _CRAFTED,
    variants={"folded": "Member names {first!r} and {name!r} are the same after case folding / normalisation"},
)  # fmt: skip
ZIP_NAME_CONFLICT = _(
    "ZIP_NAME_CONFLICT", ERROR, "Member {name!r} is a file, but {folder!r} uses it as a folder", _CRAFTED
)

# verify_manifest.py: the manifest and its list of files against the archive
ZIP_DAMAGED = _(
    "ZIP_DAMAGED", ERROR, "{path} cannot be read intact: {detail}", _TAMPER,
    variants={"read": "{path} cannot be read: {detail}"},
)  # fmt: skip
MANIFEST_MISSING = _(
    "MANIFEST_MISSING", ERROR, "The archive has no manifest.json",
    "This is not an onnxpack bundle, or its manifest was removed.",
)  # fmt: skip
MANIFEST_SELF = _("MANIFEST_SELF", ERROR, "The manifest lists itself ({path!r})", _TAMPER)
MANIFEST_BAD_PATH = _(
    "MANIFEST_BAD_PATH", ERROR, "The manifest lists a path outside the bundle: {path!r} {why}", _TAMPER
)
MANIFEST_DUPLICATE = _("MANIFEST_DUPLICATE", ERROR, "The manifest lists {path!r} twice", _TAMPER)
MANIFEST_INCONSISTENT = _(
    "MANIFEST_INCONSISTENT", ERROR, "The manifest points to {path!r} as {role}, but lists no such file", _TAMPER,
    variants={"no_data": "The manifest says 'external' layout but names no data file",
              "entry": "The manifest's model entry {entry!r} is not an .onnx file",
              "models": "The manifest lists {count} files as models ({models}), not one per model it describes",
              "prove_ort": "The manifest's prove_ort section contradicts itself: {detail}",
              "prove_failed": "The manifest's prove_ort section records a failed proof (failed: {releases}); "
                              "onnxpack does not build such a bundle",
              "prove_not_ok": "The manifest's prove_ort section records a failed proof (ok false); onnxpack does not "
                              "build such a bundle"},
)  # fmt: skip
FILE_MISSING = _("FILE_MISSING", ERROR, "{path} is listed in the manifest but not in the archive", _TAMPER)
FILE_SIZE = _("FILE_SIZE", ERROR, "{path} has {size} bytes; the manifest says {listed}", _TAMPER)
FILE_EXTRA = _("FILE_EXTRA", ERROR, "{path} is in the archive but not listed in the manifest", _TAMPER)
FILE_HASH = _("FILE_HASH", ERROR, "{path}: SHA-256 is {actual}, the manifest says {listed}", _TAMPER)
CHECKSUMS_MISMATCH = _("CHECKSUMS_MISMATCH", ERROR, "{detail}", _TAMPER, variants={
    # SHA256SUMS larger than any bundle's can be: not read
    "too_large": "{path} has {size:,} bytes, more than a bundle's SHA256SUMS can need ({limit:,}); it was not read",
})
FINDINGS_OMITTED = _(
    "FINDINGS_OMITTED", INFO, "And {more} more {kind} findings like those above (the first {listed} are listed)",
    "Fix the problems listed: the others are of the same kind.",
)  # fmt: skip

# verify_signature.py: model.sig against the archive
SIGNATURE_MISSING = _(
    "SIGNATURE_MISSING", ERROR, "The bundle has no model.sig, so it is not signed (or its signature was removed)",
    "Ask the publisher for a signed bundle; without one, you cannot tell who made it.",
    variants={"absent": "The bundle has no model.sig, so it is not signed (or its signature was removed)",
              "stripped": "The manifest says the bundle is signed, but model.sig is missing: the signature was "
                          "removed"},
    variant_hints={"stripped": _TAMPER},
)  # fmt: skip
SIGNATURE_KEY = _(
    "SIGNATURE_KEY", ERROR, "The manifest names another signing key than the one that signed the bundle", _TAMPER
)
SIGNATURE_MISMATCH = _(
    "SIGNATURE_MISMATCH", ERROR, "{path} is not covered by the signature (added after signing)", _TAMPER,
    variants={"unsigned": "{path} is not covered by the signature (added after signing)",
              "changed": "{path} is not the file that was signed (SHA-256 {actual}, signed {signed})",
              "removed": "{path} was signed but is missing from the archive"},
)  # fmt: skip

# verify_smoke.py and verify_recipe.py: the recorded smoke run, repeated
SMOKE_SKIPPED = _(
    "SMOKE_SKIPPED", WARNING, "The smoke run was skipped because the bundle failed verification",
    "Fix the problems above first.",
)  # fmt: skip
SMOKE_NOT_RECORDED = _(
    "SMOKE_NOT_RECORDED", WARNING,
    "The bundle records no smoke run (built with {opt:no_smoke}); ran with default inputs, nothing to compare with",
    "Rebuild the bundle without {opt:no_smoke} to record one.",
)  # fmt: skip
SMOKE_FAILED = _(
    "SMOKE_FAILED", ERROR, "{detail}", "",
    variants={"failed": "The smoke run failed",  # without a message of its own
              "recipe": "The recorded smoke recipe cannot be repeated: {detail}",
              # the recipe's inputs are refused before the run (verify_recipe.py): the same words, another remedy
              "recipe_inputs": "The recorded smoke recipe cannot be repeated: {detail}",
              "now": "The recorded smoke run failed now: {detail}",
              "now_failed": "The recorded smoke run failed now"},  # without a message of its own
    variant_hints={
        "recipe": _TAMPER,
        "recipe_inputs": "The bundle was altered, or made with smoke inputs larger than verify repeats (1 GiB): get "
                         "it again from its publisher, or rebuild it with smaller {opt:dim} values.",
        "now": "Check the ONNX Runtime installation; the model or recipe may need another runtime.",
        "now_failed": "Check the ONNX Runtime installation; the model or recipe may need another runtime.",
    },
)  # fmt: skip
SMOKE_MISMATCH = _(
    "SMOKE_MISMATCH", ERROR,
    "Output {name} differs from the recorded run (same ONNX Runtime {ort_version}): SHA-256 {sha256} vs {recorded}",
    _TAMPER,
    variants={"missing": "Output {name} is missing from the re-run",
              "no_reference": "Output {name} differs from the recorded run (another ONNX Runtime version) and the "
                              "bundle holds no reference values to compare within a tolerance",
              "unreadable": "Output {name}: reference values unreadable ({detail})",
              "tolerance": "Output {name} differs from the recorded run beyond atol={atol}, rtol={rtol}: max abs "
                           "diff {max_abs}, max rel diff {max_rel}",
              # a kind of difference (core/runtime/outputfacts.py compare_values' "differs")
              "tolerance_shape": "Output {name} differs from the recorded run beyond atol={atol}, rtol={rtol}: shape "
                                 "{original} vs {other}",
              "tolerance_dtype": "Output {name} differs from the recorded run beyond atol={atol}, rtol={rtol}: dtype "
                                 "{original} vs {other}",
              "tolerance_non_finite": "Output {name} differs from the recorded run beyond atol={atol}, rtol={rtol}: "
                                      "NaN/Inf in different places",
              "tolerance_strings": "Output {name} differs from the recorded run beyond atol={atol}, rtol={rtol}: "
                                   "{mismatched} string(s) differ"},
    variant_hints={"no_reference": "Re-run with the recorded ONNX Runtime version for an exact comparison."},
)  # fmt: skip
SMOKE_WITHIN_TOLERANCE = _(
    "SMOKE_WITHIN_TOLERANCE", INFO,
    "Output {name} is within atol={atol}, rtol={rtol} of the recorded run (max abs diff {max_abs}, max rel diff "
    "{max_rel}); digests differ because the ONNX Runtime version differs",
)  # fmt: skip
BUNDLE_CHANGED = _(
    "BUNDLE_CHANGED", kind=InputError, text="{file} changed while its model was smoke-run",
    hint="Make sure nothing writes the bundle while it is verified, and verify it again.",
    summary="The bundle changed while its model was smoke-run",
)  # fmt: skip

# versions.py: the release's version against the previous release
BAD_VERSION = _(
    "BAD_VERSION", kind=InputError, text="{what} {version!r} is not a semantic version",
    hint="Use MAJOR.MINOR.PATCH, e.g. 1.0.0 or 2.1.0-rc.1 (semver.org); no leading 'v', no leading zeros.",
    summary="The version is not a semantic version",
)  # fmt: skip
MODEL_VERSION_RANGE = _(
    "MODEL_VERSION_RANGE", kind=InputError,
    text="Version {version} cannot be written into model_version (MAJOR*1000000 + MINOR*1000 + PATCH needs MINOR "
         "and PATCH below 1000)",
    hint="Drop {opt:set_model_version}, or use a version with smaller components.",
    summary="This version cannot be written into model_version",
)  # fmt: skip
#: Also a warning: the version released anyway ({opt:allow_version_not_greater}), its "forced" variant.
VERSION_NOT_GREATER = _(
    "VERSION_NOT_GREATER", WARNING, kind=RefusedError,
    text="Version {version} is not greater than the previous release {previous}",
    hint="Use {suggested} ({why}), or pass {opt:allow_version_not_greater} to release it anyway.",
    variants={"forced": "Version {version} is not greater than {previous} (forced)"},
    summary="The version is not greater than the previous release's",
    variant_hints={"forced": "The suggested version is {suggested}."},
)  # fmt: skip
VERSION_UNDERBUMP = _(
    "VERSION_UNDERBUMP", WARNING,
    "Version {version} is a smaller step than this {bump} change needs (suggested {suggested})", "{changes}",
)  # fmt: skip

# zipwriter.py: the reproducible ZIP
BAD_SOURCE_DATE_EPOCH = _(
    "BAD_SOURCE_DATE_EPOCH", kind=InputError,
    text="SOURCE_DATE_EPOCH is {value!r}, not a non-negative integer number of seconds",
    hint="Set it to a Unix timestamp such as {example}, or unset it.",
    summary="SOURCE_DATE_EPOCH is not a non-negative whole number of seconds",
)  # fmt: skip

# signing.py: the signing key and certificates, Sigstore, and model.sig (verify reports SIGNATURE_* as findings)
SIGNING_UNAVAILABLE = _(
    "SIGNING_UNAVAILABLE", kind=InputError, text="Signing needs the model-signing library, which is not installed",
    hint="Install the signing support (the OpenSSF model-signing library) from what you installed onnxpack from: in "
         "the onnxpack checkout, pip install '.[sign]'; from a wheel, pip install "
         "'onnxpack-{version}-py3-none-any.whl[sign]'.",
    variants={"frozen": "This build of onnxpack cannot sign or check signatures (model-signing is not included)"},
    summary="This onnxpack cannot sign or check signatures",
    variant_hints={
        "frozen": "Use onnxpack installed with pip, with the signing support: in the onnxpack checkout, pip install "
                  "'.[sign]'.",
    },
)  # fmt: skip
SIGNING_KEY = _(
    "SIGNING_KEY", kind=InputError, text="{path} is not a usable PEM private key ({reason})",
    hint="Give the private key made by 'onnxpack keygen' (NAME.key), not the public key.",
    variants={"encrypted": "The signing key {path} is encrypted",
              "curve": "{path} is not an elliptic-curve P-256/P-384/P-521 key, which model-signing requires",
              "certificate": "An encrypted key cannot sign with a certificate (model-signing does not support it)",
              "public": "{path} is not a PEM public key ({reason})",
              "public_curve": "{path} is not an elliptic-curve public key"},
    summary="The signing key cannot be used",
    variant_hints={
        "encrypted": "Put its password in an environment variable and name it with {opt:sign_key_password_env}.",
        "curve": "Make one with 'onnxpack keygen' or 'openssl ecparam -name prime256v1 -genkey'.",
        "certificate": "Use an unencrypted key kept readable by you only, or sign with the key alone.",
        "public": "Give the public key (NAME.pub), never the private key.",
        "public_curve": "model-signing keys are P-256/384/521.",
    },
)  # fmt: skip
SIGNING_CERTIFICATE = _(
    "SIGNING_CERTIFICATE", kind=InputError, text="The {what} {path} is not a PEM certificate ({reason})",
    hint="Give a PEM certificate file.",
    variants={"unreadable": "Cannot read the {what} {path}: {reason}",
              "other_key": "The certificate {certificate} is not the certificate of the key {path}",
              "cannot_sign": "The certificate {certificate} does not allow signing"},
    summary="The signing certificate cannot be used",
    variant_hints={
        "other_key": "Give the certificate issued for this private key.",
        "cannot_sign": "It needs the digitalSignature key usage or the codeSigning extended key usage.",
    },
)  # fmt: skip
SIGSTORE_UNREACHABLE = _(
    "SIGSTORE_UNREACHABLE", kind=InputError,
    text="Sigstore keyless signing needs its public service, which cannot be reached ({problem})",
    hint="Connect to the internet (a proxy must allow *.sigstore.dev), or sign offline with a key: onnxpack keygen, "
         "then {opt:sign_key}.",
    summary="Sigstore's public service cannot be reached",
)  # fmt: skip
SIGSTORE_FAILED = _(
    "SIGSTORE_FAILED", kind=InputError, text="Sigstore could not be set up: {error}",
    hint="Check the connection to *.sigstore.dev, or sign with a key ({opt:sign_key}).",
    variants={"signing": "Sigstore signing failed: {error}"},
    summary="Sigstore signing failed",
    variant_hints={"signing": "Try again, or sign with a key ({opt:sign_key})."},
)  # fmt: skip
#: Also a finding: verify reports signing.py's errors under this code (its "declared" variant is verify's own).
SIGNATURE_INVALID = _(
    "SIGNATURE_INVALID", ERROR, kind=InputError, text="The signature does not verify with this public key ({error})",
    hint="The bundle was signed with another key, or model.sig was altered. Check that you have the publisher's "
         "public key; otherwise get the bundle again.",
    variants={"certificates": "The signature does not verify with these trusted certificates ({error})",
              "size": "{file} is {size} bytes (cap {cap})",
              "format": "{file} is not a model-signing signature ({error})",
              "certificate": "{file} is signed with a certificate, not a bare key",
              "bare_key": "{file} is signed with a bare key, not a certificate",
              "sigstore": "The Sigstore signature does not verify for {identity} ({issuer}): {error}",
              "declared": "{file} declares {size} bytes (cap {cap})"},
    summary="The signature is not valid, or not of the kind expected",
    variant_hints={
        "declared": _TAMPER,
        "certificate": "Pass {opt:trust} CA.pem with the publisher's root (or intermediate) certificate.",
        "bare_key": "Pass {opt:key} PUBLISHER.pub with the publisher's public key.",
        "sigstore": "The bundle was signed by someone else, or model.sig was altered. Check the identity and issuer "
                    "the publisher signs with.",
    },
)  # fmt: skip
SIGNATURE_UNSUPPORTED = _(
    "SIGNATURE_UNSUPPORTED", kind=InputError, text="{file} signs {identifier} with {algorithm}, not SHA-256 files",
    hint="Sign the folder with model-signing's default (file) serialization.",
    summary="The signature uses a method this onnxpack cannot check",
)  # fmt: skip
