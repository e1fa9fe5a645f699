"""The finding and error codes of --prove-ort (``onnxpack.core.runtime``'s prove.py, wheels.py, releaseenvs.py and
fetch.py): the releases named, the package index, the wheels and their environments, and the proof's findings (the
registry: ``onnxpack.core.codes``)."""

from __future__ import annotations

from ..codes import define
from ..errors import InputError, RuntimeFailure
from ..findings import Severity

__all__: list[str] = []

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

# prove.py, wheels.py, releaseenvs.py: --prove-ort
BAD_PROVE_ORT = define(
    "BAD_PROVE_ORT", kind=InputError, text="Not an ONNX Runtime release: {item!r}",
    hint="Give releases like 1.16.3,1.20.1, a MAJOR.MINOR (its newest patch), newest, or auto (the oldest release "
         "the model claims plus the newest).",
    summary="Not a list of ONNX Runtime releases to prove the model on",
)
#: The variants' remedies are worded at the call site (wheels._NETWORK_HINTS).
PROVE_NETWORK = define(
    "PROVE_NETWORK", kind=RuntimeFailure,
    text="Cannot reach the package index ({index}) to fetch ONNX Runtime wheels: {reason}",
    hint="{opt:prove_ort} downloads each release's official wheel once (then it is cached): connect to the internet, "
         "set ONNXPACK_PYPI_URL to a reachable PyPI mirror, or leave {opt:prove_ort} out.",
    variants={
        "status": "The package index answered {status} for {url}",
        "not_json": "The package index sent something that is not JSON for {url}",
        "no_releases": "The package index has no release list of {package} at {url}",
        "download": "Cannot download {file}: {reason}",
        "bad_entry": "The package index sent an answer onnxpack cannot use for {url}: its entry for {package} "
                     "{version} is not a list of files",
        "bad_url": "The package index sent an answer onnxpack cannot use for {url}: the URL of {file} is not a URL",
        # a URL the policy does not allow (core/runtime/fetch.py check_url)
        "refused": "Cannot reach the package index ({index}) to fetch ONNX Runtime wheels: {url!r} is not an https "
                   "URL on {index} or {host}; onnxpack only follows those",
        "download_refused": "Cannot download {file}: {url!r} is not an https URL on {index} or {host}; onnxpack only "
                            "follows those",
        "missing_file": "The package index ({index}) does not list {file}, the official wheel of {version}",
    },
    summary="The package index with the ONNX Runtime wheels cannot be reached",
    variant_hints={
        "no_releases": "Set ONNXPACK_PYPI_URL to a PyPI mirror with the JSON API, or unset it.",
        "not_json": "Try again later, or set ONNXPACK_PYPI_URL to a PyPI mirror.",
        "status": "Try again later, or set ONNXPACK_PYPI_URL to a PyPI mirror.",
        "download": "Check the internet connection (or ONNXPACK_PYPI_URL) and try again.",
        "download_refused": "Check the internet connection (or ONNXPACK_PYPI_URL) and try again.",
    },
)
PROVE_NO_PYTHON = define(
    "PROVE_NO_PYTHON", kind=InputError,
    text="{opt:prove_ort} needs a Python interpreter to create environments, and this is the frozen onnxpack "
         "executable",
    hint="Set ONNXPACK_PYTHON to a CPython 3.10+ executable, or run onnxpack installed with pip.",
    variants={"tags": "Cannot ask {python} which wheels it installs: {error}",
              "carried": "Proving on onnxruntime {version} needs a Python interpreter to create that release's "
                         "environment, and this is the frozen onnxpack executable: by itself it proves only on the "
                         "onnxruntime {carried} it carries"},
    summary="Proving on ONNX Runtime releases needs a Python interpreter",
    variant_hints={"tags": "Give a CPython interpreter with pip.",
                   "carried": "Prove on {carried} alone ({opt:prove_ort} {carried}), or set ONNXPACK_PYTHON to a "
                              "CPython 3.10+ executable with pip (onnxpack makes the environments with it), or run "
                              "onnxpack installed with pip."},
)
PROVE_NO_WHEEL = define(
    "PROVE_NO_WHEEL", kind=InputError,
    text="onnxruntime {version} has no official wheel for {here} (its wheels are for: {platforms})",
    hint="Prove another release (CPython 3.11 wheels exist from 1.15.0 on), or run onnxpack on a Python that release "
         "has wheels for.",
    variants={"any": "PyPI has no wheel of any ONNX Runtime release for {here}",
              "minor": "PyPI has no wheel of ONNX Runtime {minor} for {here}",
              "numpy": "No numpy release that onnxruntime {version} accepts has an official wheel for {here} among "
                       "those onnxpack knows ({known})"},
    summary="That ONNX Runtime release has no official wheel for this Python and platform",
    variant_hints={
        "any": "Official CPython 3.11 wheels exist from onnxruntime 1.15.0 on (3.10: 1.12.0, 3.12: 1.16.2); prove an "
               "available release, or run onnxpack on another Python.",
        "minor": "Official CPython 3.11 wheels exist from onnxruntime 1.15.0 on (3.10: 1.12.0, 3.12: 1.16.2); prove "
                 "an available release, or run onnxpack on another Python.",
    },
)
PROVE_NO_RELEASE = define(
    "PROVE_NO_RELEASE", kind=InputError, text="onnxruntime {version} is not on the package index",
    hint="Give a released version, e.g. 1.16.3 (see https://pypi.org/project/onnxruntime/#history).",
    variants={"unknown": "onnxruntime {version} is not one of the releases whose official wheels onnxpack knows "
                         "(their SHA-256s ship with onnxpack; the newest it knows is {newest}), so its wheel cannot be "
                         "checked"},
    summary="That ONNX Runtime release does not exist on the package index",
    variant_hints={"unknown": "Prove a release onnxpack knows (a MAJOR.MINOR, newest or auto picks one), or update "
                              "onnxpack."},
)
PROVE_WHEEL_HASH = define(
    "PROVE_WHEEL_HASH", kind=RuntimeFailure,
    text="The download of {file} does not match the SHA-256 of the official wheel, which onnxpack carries ({actual} "
         "instead of {expected}); it was deleted",
    hint="Try again (a proxy may have altered it); if it repeats, do not trust that network path.",
    variants={"missing": "The package index gives no SHA-256 for {file}",
              "bad_name": "{file!r} is not a wheel's file name onnxpack can store",
              "unsafe": "{file} holds {member!r}, which no official wheel holds (a .pth file runs code at every "
                        "start of Python; a path must stay inside its folder); it is not installed"},
    summary="A downloaded ONNX Runtime wheel does not match the official wheel's hash",
    variant_hints={"missing": "Use the official index (unset ONNXPACK_PYPI_URL)."},
)
#: Per step of making the environment (core/runtime/releaseenvs.py): creating the virtual environment (the main
#: text, "venv_*"), installing the wheels ("install*"), reading a cached wheel ("read"), the environment as installed
#: ("left"); "{step}" failed with the last line of its output, "{step}_status" without output (its exit status),
#: "{step}_timeout" did not finish.
PROVE_ENV = define(
    "PROVE_ENV", kind=RuntimeFailure, text="Creating a virtual environment for onnxruntime {version} failed: {last}",
    hint="Check the internet connection and try again; the details show pip's output.",
    variants={
        "venv_status": "Creating a virtual environment for onnxruntime {version} failed: exit status {status}",
        "venv_timeout": "Creating a virtual environment for onnxruntime {version} did not finish within {timeout} s",
        "install": "Installing {ort} and {numpy} failed: {last}",
        "install_status": "Installing {ort} and {numpy} failed: exit status {status}",
        "install_timeout": "Installing {ort} and {numpy} did not finish within {timeout} s",
        "read": "Reading {file} failed: {reason}",
        "left": "Installing onnxruntime {version} failed: it left {file} in {folder}",
    },
    summary="The environment for an ONNX Runtime release could not be created",
    variant_hints={"venv_timeout": "Try again.", "install_timeout": "Try again."},
)
PROVE_INPUTS = define(
    "PROVE_INPUTS", kind=InputError, text="Cannot make inputs to prove the model with: {problems}",
    hint="Give the sizes the model needs with {opt:dim} NAME=VALUE.",
    summary="No inputs could be made to prove the model with",
)
PROVE_REFERENCE = define(
    "PROVE_REFERENCE", kind=RuntimeFailure,
    text="The reference run with the installed onnxruntime failed: {detail}",
    hint="Run `onnxpack smoke` on the model to see why.",
    summary="The reference run with the installed ONNX Runtime failed",
)
PROVE_ORT_NOT_LOADED = define(
    "PROVE_ORT_NOT_LOADED", ERROR, "ONNX Runtime {version} (its official wheel) cannot run {model}: {detail}",
    "`onnxpack bundle {opt:target_ort} {minor} {opt:fix_ir} {opt:prove_ort} {version}` retargets the released copy "
    "and proves it on that release.",
)
PROVE_ORT_MISMATCH = define(
    "PROVE_ORT_MISMATCH", ERROR,
    "ONNX Runtime {version} runs {model} but its outputs differ from ONNX Runtime {reference}'s beyond atol {atol} / "
    "rtol {rtol} (largest difference {difference})",
    "Do not ship the model for that release without checking the difference matters; report it to the ONNX Runtime "
    "project if it should not.",
)
PROVE_ORT_OK = define(
    "PROVE_ORT_OK", INFO,
    "ONNX Runtime {version} (its official wheel) runs {model}: bitwise-equal outputs with ONNX Runtime {reference}",
    # the outputs are not bitwise equal, but within the tolerance
    variants={"tolerance": "ONNX Runtime {version} (its official wheel) runs {model}: outputs within tolerance "
                           "(largest difference {difference}) with ONNX Runtime {reference}",
              # the frozen app's own onnxruntime (no wheel: prove.py's _carried_child)
              "carried": "ONNX Runtime {version} (the one this frozen onnxpack carries) runs {model}: bitwise-equal "
                         "outputs with ONNX Runtime {reference}",
              "carried_tolerance": "ONNX Runtime {version} (the one this frozen onnxpack carries) runs {model}: "
                                   "outputs within tolerance (largest difference {difference}) with ONNX Runtime "
                                   "{reference}"},
)
