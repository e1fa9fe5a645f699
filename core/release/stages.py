"""The bundle pipeline's stages, declared once: their names (what progress events carry), their order, when each
runs and what its progress counts. The command line and the desktop app read this instead of restating it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .options import BundleOptions

__all__ = ["PIPELINE", "STAGE_NAMES", "Stage", "skipped_stages"]


def _always(_opts: BundleOptions) -> bool:
    return True


@dataclass(frozen=True)
class Stage:
    """One stage: its name in progress events, what it does (English; the app words it its own way), whether a run
    with given options reaches it, and what its progress counts (steps, or bytes and then steps)."""

    name: str
    does: str
    runs: Callable[[BundleOptions], bool] = _always
    counts: str = "steps"


#: In order. Of a release of several files, each model passes inspect .. ort in turn; zip also writes the assets.
PIPELINE: tuple[Stage, ...] = (
    Stage("inspect", "read each model's structure, without its weights"),
    Stage("validate", "the onnx checker, shape inference, external-data rules, the target runtime"),
    Stage("merge", "merge each model's external data into its ZIP entry (or copy its files, --layout keep)",
          counts="bytes"),
    Stage("smoke", "run each bundled model with ONNX Runtime and prove it is the original",
          runs=lambda o: o.run_smoke),
    Stage("prove", "run each bundled model on the --prove-ort releases", runs=lambda o: bool(o.prove_ort),
          counts="bytes, then steps"),
    Stage("ort", "convert each model to the ORT format", runs=lambda o: o.ort_format),
    Stage("zip", "write the assets, README.txt, SHA256SUMS, manifest.json (and the signature)"),
)  # fmt: skip

STAGE_NAMES: tuple[str, ...] = tuple(s.name for s in PIPELINE)


def skipped_stages(options: BundleOptions | None) -> list[str]:
    """The stages a run with ``options`` never reaches."""
    if options is None:
        return []
    return [s.name for s in PIPELINE if not s.runs(options)]
