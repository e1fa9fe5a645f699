"""Refresh resources/ort_wheels.json: the SHA-256 of every official onnxruntime (and numpy) wheel `--prove-ort` may
install, for the releases onnxpack knows (core/checks/ortreleases.py), read from PyPI's JSON API over HTTPS.

`--prove-ort` checks each downloaded wheel against this committed table, never against the hash the index sends
with the file (issue 39: an index that supplies both the wheel and its hash proves nothing). Run it when a new
ONNX Runtime release gets a row in the compatibility table, review the diff (only additions are expected: a hash of
a published file never changes) and commit it.

Run: ``python benchmarks/refresh_wheel_hashes.py [--check]`` (``--check``: exit 1 when the table differs from PyPI).
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import json  # noqa: E402
import re  # noqa: E402
import ssl  # noqa: E402
import urllib.request  # noqa: E402

TABLE = _HERE.parent / "resources" / "ort_wheels.json"
PYPI = "https://pypi.org/pypi/{package}/json"
#: The interpreters and platforms that matter: CPython 3.9+ (3.9 for benchmarks/probe_releases.py --python),
#: manylinux x86_64 / aarch64, 64-bit Windows (x64, arm64), macOS.
_PY = re.compile(r"cp3(9|1\d)t?")
_PLATFORM = re.compile(r"(manylinux\w*_(x86_64|aarch64)(\.manylinux\w*_(x86_64|aarch64))*|win_amd64|win_arm64|"
                       r"macosx_\w+)")
_RELEASE = re.compile(r"\d+\.\d+\.\d+")
#: numpy: 1.26.4 (onnxruntime < 1.19 was built against numpy 1), and the newest patch of each numpy 2 minor from 2.2
#: on (2.2 is the last with CPython 3.10 wheels; newer minors cover newer interpreters).
_NUMPY_1 = "1.26.4"
_NUMPY_2_FROM = (2, 2)


def _vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def _get(package: str) -> dict:
    url = PYPI.format(package=package)
    with urllib.request.urlopen(url, timeout=120, context=ssl.create_default_context()) as r:
        return json.loads(r.read(256 << 20))


def _wheels(package: str, version: str, files: list[dict]) -> dict[str, str]:
    """{file name without "PACKAGE-VERSION-" and ".whl": sha256} of the wheels that matter."""
    out = {}
    prefix = f"{package}-{version}-"
    for f in files:
        name = str(f.get("filename", ""))
        if f.get("packagetype") != "bdist_wheel" or f.get("yanked") or not name.startswith(prefix):
            continue
        rest = name[len(prefix):-len(".whl")]
        parts = rest.split("-")
        if len(parts) != 3 or not _PY.fullmatch(parts[0]) or not _PLATFORM.fullmatch(parts[2]):
            continue
        sha = str((f.get("digests") or {}).get("sha256", ""))
        if re.fullmatch(r"[0-9a-f]{64}", sha):
            out[rest] = sha
    return dict(sorted(out.items()))


def build() -> dict:
    from onnxpack.core.checks.ortreleases import ORT_TO_ONNX

    known = {row[0] for row in ORT_TO_ONNX}
    ort = _get("onnxruntime")["releases"]
    table_ort = {}
    for version in sorted((v for v in ort if _RELEASE.fullmatch(v)), key=_vkey):
        if ".".join(version.split(".")[:2]) in known and (wheels := _wheels("onnxruntime", version, ort[version])):
            table_ort[version] = wheels
    np_releases = _get("numpy")["releases"]
    newest_of: dict[tuple[int, ...], str] = {}
    for v in (v for v in np_releases if _RELEASE.fullmatch(v)):
        k = _vkey(v)
        if k[0] == 2 and k[:2] >= _NUMPY_2_FROM and (k[:2] not in newest_of or _vkey(newest_of[k[:2]]) < k):
            newest_of[k[:2]] = v
    table_np = {}
    for version in sorted([_NUMPY_1, *newest_of.values()], key=_vkey):
        if wheels := _wheels("numpy", version, np_releases[version]):
            table_np[version] = wheels
    return {
        "schema": "onnxpack.wheel-hashes/1",
        "about": "SHA-256 of the official wheels --prove-ort installs, from https://pypi.org/pypi/PACKAGE/json; "
                 "refreshed by benchmarks/refresh_wheel_hashes.py. A key is the wheel's file name without "
                 "'PACKAGE-VERSION-' and '.whl'.",
        "packages": {"onnxruntime": table_ort, "numpy": table_np},
    }


def render(table: dict) -> str:
    return json.dumps(table, indent=1, sort_keys=False) + "\n"


def main(argv: list[str]) -> int:
    text = render(build())
    if "--check" in argv:
        same = TABLE.is_file() and TABLE.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{TABLE} differs from PyPI: run benchmarks/refresh_wheel_hashes.py")
        return 0 if same else 1
    TABLE.write_text(text, encoding="utf-8")
    doc = json.loads(text)["packages"]
    print(f"{TABLE}: onnxruntime {len(doc['onnxruntime'])} releases "
          f"({sum(len(w) for w in doc['onnxruntime'].values())} wheels), numpy {', '.join(doc['numpy'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
