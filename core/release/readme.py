"""The receiver's README.txt inside a bundle: what the model is, its interface, and how to load and run it."""

from __future__ import annotations

from typing import Any

from ..model.layout import Layout
from ..runtime.loadcost import MIN_MEMORY_BYTES, MIN_SECONDS, added_bytes, noticeable
from . import snippets
from .checksums import CHECKSUMS_NAME
from .manifest import MANIFEST_NAME, RELEASE_SCHEMA, model_views
from .snippets import CSHARP_ORT, LANGUAGES, RUST_ORT

__all__ = ["receiver_readme"]

def receiver_readme(manifest: dict[str, Any]) -> str:
    """README.txt for the people who receive the bundle (plain text, English, one Japanese line on the data file)."""
    if manifest.get("schema") == RELEASE_SCHEMA:
        return _release_readme(manifest)
    lines: list[str] = []
    for section in _SECTIONS:
        lines += section(manifest)
    return "\n".join(lines) + "\n"


def _release_readme(manifest: dict[str, Any]) -> str:
    """README.txt of a release of several files: what it holds, then each model's interface, loading examples and
    layout, then the assets, the files and how to check them."""
    b = manifest["bundle"]
    title = f"{b['name']} {b['version']}"
    root = b["root"]
    models, assets = manifest["models"], manifest["assets"]
    where = f"the folder {root}/" if root else "the top of the archive"
    lines = [title, "=" * len(title), "",
             f"{len(models)} ONNX model{'s' if len(models) != 1 else ''} and {len(assets)} file"
             f"{'s' if len(assets) != 1 else ''} the app reads beside them, at their paths in {where}.",
             f"Extract this archive where the app expects {where}: every model and file keeps its path; onnxpack's",
             f"own files ({MANIFEST_NAME}, README.txt, {CHECKSUMS_NAME}, smoke/) stay beside that folder, not in it.",
             "", "Models:"]
    for m in models:
        oldest = m["compatibility"]["oldest_ort"]
        layout = "self-contained" if m["model"]["layout"] == Layout.SINGLE else f"weights in {m['model']['data']}"
        lines.append(f"  {m['model']['entry']}  ({layout}" + (f"; ONNX Runtime {oldest} or newer)" if oldest else ")"))
    if assets:
        lines += ["", "Files the app reads beside the models:"]
        lines += [f"  {a['path']}  ({a['role']}, {a['size']} bytes)" for a in assets]
    views = model_views(manifest)
    lines += _about(views[0])
    for view in views:
        entry = view["model"]["entry"]
        heading = f"Model {entry}"
        lines += ["", "", heading, "=" * len(heading)]
        lines += _heading(view)[3:]
        lines += _proven(view)
        lines += _interface(view)
        lines += _examples(view)
        lines += _layout(view)
        lines += _loads(view)
        lines += _load_cost(view)
    lines += _files(manifest)
    named = {**views[0], "model": {**views[0]["model"], "name": b["name"], "version": b["version"]}}
    lines += _checking(named)
    lines += _made_by(manifest)
    return "\n".join(lines) + "\n"


def _shape(v: dict[str, Any]) -> str:
    if v["shape"] is None:
        return "?"
    return "[" + ", ".join("?" if d is None else str(d) for d in v["shape"]) + "]"


def _heading(manifest: dict[str, Any]) -> list[str]:
    """The title, the model's description, what it is and which ONNX Runtime loads it."""
    m, insp = manifest["model"], manifest["inspection"]
    title = f"{m['name']} {m['version']}"
    lines = [title, "=" * len(title), ""]
    if insp["doc_string"]:
        lines += [insp["doc_string"].strip(), ""]
    lines += [
        f"An ONNX model (IR version {insp['ir_version']}, opsets "
        + ", ".join(f"{d} {v}" for d, v in sorted(insp["opsets"].items()))
        + f"), produced by {insp['producer_name'] or 'an unknown exporter'} {insp['producer_version']}".rstrip()
        + ".",
    ]
    oldest = manifest["compatibility"]["oldest_ort"]
    if oldest:
        lines.append(f"It loads in ONNX Runtime {oldest} or newer.")
    return lines


def _proven(manifest: dict[str, Any]) -> list[str]:
    """The ONNX Runtime releases the model was proven on (--prove-ort)."""
    proven = manifest.get("prove_ort")
    if not proven:
        return []
    # a frozen onnxpack proves on the onnxruntime it carries by itself: no wheel (core/runtime/prove.py, its note)
    source = ("each its official wheel from PyPI" if all(p.get("wheel") for p in proven["releases"])
              else "from their official wheels on PyPI or carried by the frozen onnxpack")
    lines = [f"Proven on these ONNX Runtime releases ({source}, outputs compared with "
             f"ONNX Runtime {proven['reference_ort']}):"]
    for p in proven["releases"]:
        same = ("bitwise-equal outputs" if p["outputs_bitwise_equal"]
                else f"outputs within {proven['atol']:g} (largest difference {p['max_abs_diff']:.3g})")
        lines.append(f"  {p['version']}: {'loads it, ' + same if p['ok'] else 'FAILED: ' + str(p['message'])}")
    return lines + [f"  ({note})" for note in proven.get("notes") or []]


def _about(manifest: dict[str, Any]) -> list[str]:
    """The release metadata: licence, authors, homepage, class labels."""
    about = manifest.get("about")
    if not about:
        return []
    lines = ["", "About this release", "------------------"]
    if about.get("license"):
        lines.append(f"License: {about['license']} (SPDX)")
    if about.get("authors"):
        lines.append("Authors: " + "; ".join(about["authors"]))
    if about.get("homepage"):
        lines.append(f"Homepage: {about['homepage']}")
    if about.get("labels"):
        lines.append(f"Class labels, in output order ({len(about['labels'])}):")
        lines += [f"  {i}: {label}" for i, label in enumerate(about["labels"])]
    return lines


def _interface(manifest: dict[str, Any]) -> list[str]:
    insp = manifest["inspection"]
    lines = ["", "Interface", "---------", "Inputs:"]
    for v in insp["inputs"]:
        opt = " (optional)" if v.get("optional") else ""
        lines.append(f"  {v['name']}: {v['elem_type']} {_shape(v)}{opt}")
    lines.append("Outputs:")
    for v in insp["outputs"]:
        lines.append(f"  {v['name']}: {v['elem_type']} {_shape(v)}")
    symbolic = sorted({d for v in insp["inputs"] + insp["outputs"] for d in (v["shape"] or []) if isinstance(d, str)})
    if symbolic:
        lines.append(f"Named dimensions ({', '.join(symbolic)}) can take any size; the same name means the same size.")
    return lines


def _files(manifest: dict[str, Any]) -> list[str]:
    lines = ["", "Files", "-----"]
    for f in sorted(manifest["files"], key=lambda f: f["path"]):
        lines.append(f"  {f['path']}  ({f['role']}, {f['size']} bytes)")
    lines.append("  README.txt  (this file)")
    lines.append(f"  {CHECKSUMS_NAME}  (the SHA-256 of every file above; check with `sha256sum -c {CHECKSUMS_NAME}`)")
    lines.append(f"  {MANIFEST_NAME}  (sizes and SHA-256 of every file; check with `onnxpack verify`)")
    return lines


def _examples(manifest: dict[str, Any]) -> list[str]:
    """Loading and running the model in each language."""
    m, insp = manifest["model"], manifest["inspection"]
    entry = m["entry"]
    lines = ["", "Loading and running the model", "-----------------------------",
             f"In {', '.join(LANGUAGES[:-1])} and {LANGUAGES[-1]}: each example loads the model by its file path",
             "and runs it once on zeros of the right type and shape (named dimensions are set to 1). onnxpack's CI",
             "runs the Python, JavaScript and C++ examples of bundles like this one; the Rust and C# examples",
             f"follow the documented APIs of the ort crate {RUST_ORT} and Microsoft.ML.OnnxRuntime {CSHARP_ORT}",
             "but are not compiled by onnxpack's CI.", ""]
    lines += snippets.python(entry, insp["inputs"], insp["outputs"])
    lines += [""]
    lines += snippets.javascript(entry, insp["inputs"], m["layout"] == Layout.SINGLE)
    lines += [""]
    lines += snippets.browser(entry, m.get("data") if m["layout"] == Layout.EXTERNAL else None, insp["inputs"])
    lines += [""]
    lines += snippets.cpp(entry, insp["inputs"], insp["outputs"])
    lines += [""]
    lines += snippets.rust(entry, insp["inputs"])
    lines += [""]
    lines += snippets.csharp(entry, insp["inputs"])
    return lines


def _layout(manifest: dict[str, Any]) -> list[str]:
    """Whether the model is self-contained, or where its weights are; the ORT-format variant."""
    m = manifest["model"]
    entry = m["entry"]
    if m["layout"] == Layout.SINGLE:
        lines = [
            "",
            f"{entry} is self-contained: all weights are inside it, so it can also be embedded in an",
            "application and loaded from memory (commit_from_memory / CreateSessionFromArray, or a buffer in",
            "InferenceSession.create in JavaScript).",
        ]
    else:
        lines = [
            "",
            f"IMPORTANT: the weights are in {m['data']}, which must stay in the same folder as {entry}",
            "and keep its name. Load the model from its file path; it cannot be loaded from memory",
            "(commit_from_memory / CreateSessionFromArray, a buffer in JavaScript), because ONNX Runtime then",
            "cannot find the data file.",
            f"重要: {m['data']} は {entry} と同じフォルダーに同じ名前で置いてください。",
        ]
    if m.get("ort_entry"):
        lines += [
            "",
            f"{m['ort_entry']} is the same model in ONNX Runtime's ORT format (for minimal/mobile builds of",
            "ONNX Runtime); load it the same way as the .onnx file. Unlike the other files it is not",
            "byte-for-byte reproducible: ONNX Runtime's converter orders some of its tables differently in",
            "every run, so rebuilding this bundle gives the same model in different .ort bytes (and another line",
            f"for it in {CHECKSUMS_NAME}).",
        ]
    return lines


#: The load matrix's modes as README.txt words them.
_LOAD_WORDS = {
    "path": "by its path", "other-cwd": "by a relative path from another working directory",
    "bytes": "from bytes (commit_from_memory, CreateSessionFromArray, a buffer)",
    "bytes-folder": "from bytes, with the session option naming its folder",
    "symlink": "through a symbolic link (as a Hugging Face cache links its files)",
    "non-ascii": "from a folder named with Japanese characters and a space",
}


def _loads(manifest: dict[str, Any]) -> list[str]:
    """Which ways of loading the model were proven (the smoke run's load matrix), and what to do where one fails."""
    smoke = manifest.get("smoke") or {}
    rows = smoke.get("loads")
    if not rows:
        return []
    lines = ["", f"Proven ways to load {manifest['model']['entry']} (ONNX Runtime {smoke['ort_version']}, each giving "
                 "the reference outputs bit for bit):"]
    for row in rows:
        words = _LOAD_WORDS.get(row["mode"], row["mode"])
        lines.append(f"  {words}: " + ("yes" if row["ok"] else f"NO. {row.get('remedy', '')}"))
    return lines


def _mib(n: Any) -> str:
    return f"{n / 2**20:.0f} MiB" if isinstance(n, int) else "?"


def _load_cost(manifest: dict[str, Any]) -> list[str]:
    """What loading the shipped layout costs against the source's layout (measured when it was bundled)."""
    cost = (manifest.get("smoke") or {}).get("load_cost")
    if not cost:
        return []
    lines = ["", f"Loading {manifest['model']['entry']} by its path (InferenceSession(path), ONNX Runtime "
                 f"{cost['ort_version']}; the memory is what the load adds to its process; measured when it was "
                 "bundled):"]
    for key, what in (("shipped", "as shipped"), ("source", "as it came")):
        side = cost[key]
        if "error" in side:
            lines.append(f"  {what} ({side['layout']}): not measured ({side['error']})")
        elif side.get("same_as_shipped"):
            lines.append(f"  {what} ({side['layout']}): the same file, byte for byte: the same load")
            return lines
        else:
            lines.append(f"  {what} ({side['layout']}): {side['load_s']:.2f} s, {_mib(added_bytes(side))} "
                         f"(process peak {_mib(side.get('peak_bytes'))})")
    if "time_ratio" in cost and noticeable(cost):
        lines.append(f"  the shipped layout: {cost['time_ratio']:.2f}x the time, "
                     f"{cost.get('memory_ratio', 0):.2f}x the memory of the source's")
    elif "time_ratio" in cost:
        lines.append(f"  the shipped layout loads as the source's does (within {MIN_SECONDS} s and "
                     f"{MIN_MEMORY_BYTES // 2**20} MiB, the measurement's noise)")
    return lines


def _checking(manifest: dict[str, Any]) -> list[str]:
    """How to check the bundle, with onnxpack and without; how to check its signature."""
    m = manifest["model"]
    zip_name = f"{m['name']}-{m['version']}.zip"
    lines = [
        "",
        "Checking this bundle",
        "--------------------",
        f"    onnxpack verify {zip_name}          (sizes, SHA-256, archive safety)",
        f"    onnxpack verify {zip_name} --smoke  (also re-runs the recorded test inference)",
        f"Without onnxpack, in the folder the bundle was extracted to (every file but {MANIFEST_NAME}):",
        f"    sha256sum -c {CHECKSUMS_NAME}             (Linux; on macOS: shasum -a 256 -c {CHECKSUMS_NAME})",
        f"    Get-FileHash {m['entry']} -Algorithm SHA256",
        f"        (Windows PowerShell: compare each file's hash with its line in {CHECKSUMS_NAME})",
        "",
    ]
    sig = manifest.get("signature")
    if sig:
        lines += [
            f"The bundle is signed: {sig['file']} signs every other file with the publisher's key (OpenSSF",
            f"model-signing; public key SHA-256 {sig['public_key_sha256']}). Check it with the publisher's",
            "public key, obtained from the publisher directly (not from this bundle):",
            f"    onnxpack verify {zip_name} --key PUBLISHER.pub",
            "or, in the extracted folder, with model-signing itself:",
            f"    model_signing verify key . --signature {sig['file']} --public_key PUBLISHER.pub",
            "",
        ]
    return lines


def _made_by(manifest: dict[str, Any]) -> list[str]:
    return [f"Made by {manifest['tool']['name']} {manifest['tool']['version']}."]


#: The README's sections, in order.
_SECTIONS = (_heading, _proven, _about, _interface, _files, _examples, _layout, _loads, _load_cost, _checking,
             _made_by)
