"""The registry of progress steps: what a long operation reports it is doing, as a code and its values.

A :class:`Step` is a template in :func:`onnxpack.core.codes.render` syntax (``{file}`` is a value the call site
passes by name), defined once here with :func:`step`. A call site reports the step and its values, never prose::

    report(progress, "inspect", 0, 1, steps.READING, file=path.name)

The event's ``message`` is the English the command line prints (rendered here); the desktop app renders the
step's template translated in Qt Linguist's "Stages" context (gui/messages.py ``stage_detail``), so rewording a
step's English never leaves the app matching stale text. A value may itself be a :class:`Said` (a step with its
values, e.g. "original victory.onnx"), rendered the same way wherever the outer step is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .codes import render

__all__ = ["BY_NAME", "Said", "Step", "step"]

#: Every step, by name (filled by :func:`step` as this module is imported).
BY_NAME: dict[str, Step] = {}


@dataclass(frozen=True)
class Step:
    """One kind of progress detail: its name and English template (and variants of the wording, by name)."""

    name: str
    text: str
    variants: Mapping[str, str] = field(default_factory=dict)

    def template(self, variant: str | None = None) -> str:
        """The template of ``variant`` (the main one when None or empty)."""
        return self.variants[variant] if variant else self.text

    def texts(self) -> tuple[str, ...]:
        """Every template: the main one, then each variant's."""
        return (self.text, *self.variants.values())

    def __call__(self, variant: str | None = None, **values: Any) -> Said:
        """This step with its values (and wording ``variant``)."""
        return Said(self.name, MappingProxyType(dict(values)), variant or "")


@dataclass(frozen=True)
class Said:
    """A step as reported: the step's name, its values and its wording's variant ("": the main one). Plain data
    (it crosses from the smoke child to the parent); ``str()`` is its English."""

    step: str
    values: Mapping[str, Any] = field(default_factory=dict)
    variant: str = ""

    def __str__(self) -> str:
        return render(BY_NAME[self.step].template(self.variant), {k: _english(v) for k, v in self.values.items()})

    def __reduce__(self) -> tuple[Any, ...]:  # a MappingProxyType does not pickle: send a dict
        return (Said, (self.step, dict(self.values), self.variant))


def _english(value: Any) -> Any:
    return str(value) if isinstance(value, Said) else value


def step(name: str, text: str, *, variants: Mapping[str, str] | None = None) -> Step:
    """Register a step (once: a name defined twice is a bug) and return it."""
    if name in BY_NAME:
        raise ValueError(f"step {name} is defined twice")
    s = Step(name, text, MappingProxyType(dict(variants or {})))
    BY_NAME[name] = s
    return s


# --- every stage ---------------------------------------------------------------------------------------------------
DONE = step("DONE", "done")
READING = step("READING", "reading {file}")
HASHING = step("HASHING", "hashing {file}")
# a model of the smoke run or a comparison, named by its role
MODEL = step("MODEL", "{name}", variants={
    "original": "original {name}",
    "other": "other {name}",
    "bundled": "bundled {name}",
})  # fmt: skip

# --- validation (core/checks/validate.py, core/release/gate.py, fixes.py) ------------------------------------------
INSPECTING = step("INSPECTING", "inspecting")
STRUCTURE = step("STRUCTURE", "structure")
CHECKER = step("CHECKER", "checker")
WAITING_CHECKER = step("WAITING_CHECKER", "waiting for the onnx checker")
RETARGETING = step("RETARGETING", "retargeting for ONNX Runtime {version}")

# --- the smoke run in its child (core/runtime/childrun.py, smoke_child.py) ------------------------------------------
CHILD_STARTING = step("CHILD_STARTING", "starting ONNX Runtime in a child process")
SESSION = step("SESSION", "creating the ONNX Runtime session for {model}")
SESSION_CREATED = step("SESSION_CREATED", "session created ({seconds:.2f} s)")
RUNNING = step("RUNNING", "running {model}")
FIRST_RUN_DONE = step("FIRST_RUN_DONE", "first run done")
RUN_OF = step("RUN_OF", "run {run}/{runs} of {model}")
LOADING_WAYS = step("LOADING_WAYS", "loading {model} the ways apps load it")
TRYING_INPUTS = step("TRYING_INPUTS", "outputs with NaN/Inf: trying other inputs ({profile})")
SEARCHING_SIZES = step("SEARCHING_SIZES", "searching sizes for {dims}")

# --- the ORT format (core/runtime/ortformat.py) -----------------------------------------------------------------------
ORT_COPYING = step("ORT_COPYING", "validating and copying the model")
ORT_CONVERTING = step("ORT_CONVERTING", "converting with onnxruntime")
ORT_SMOKE = step("ORT_SMOKE", "smoke-running the .ort against the .onnx")
ORT_MOVING = step("ORT_MOVING", "moving the results into place")

# --- --prove-ort (core/runtime/prove.py, releaseenvs.py) -------------------------------------------------------------
PROVE_PREPARING = step("PROVE_PREPARING", "onnxruntime {version}: preparing")
PROVE_REFERENCE = step("PROVE_REFERENCE", "reference run (installed onnxruntime)")
PROVE_RUNNING = step("PROVE_RUNNING", "running on onnxruntime {version}")
FETCHING = step("FETCHING", "fetching onnxruntime {version} and numpy {numpy} from {index}")
DOWNLOADING = step("DOWNLOADING", "downloading {file}")
CREATING_ENV = step("CREATING_ENV", "creating the environment of onnxruntime {version}")
INSTALLING = step("INSTALLING", "installing {ort} and {numpy}")

# --- the bundle (core/release/*) -------------------------------------------------------------------------------------
COMPARING_HASHES = step("COMPARING_HASHES", "comparing the tensor hashes")
MEASURING_LOAD_COST = step("MEASURING_LOAD_COST", "measuring the end user's load time and memory")
WRITING_MANIFEST = step("WRITING_MANIFEST", "writing README.txt and manifest.json")
COPYING_AS_IS = step("COPYING_AS_IS", "copying the files as they are")
COPIED = step("COPIED", "{file}")
MODEL_OF = step("MODEL_OF", "model {index} of {count}: {entry}")
ADDING = step("ADDING", "adding {member}")
