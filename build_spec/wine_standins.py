"""Stand-in DLLs for the Wine *test prefix* only (never shipped): what Qt ≥ 6.10 imports and Wine 8 lacks.

    python build_spec/wine_standins.py OUT_DIR SITE_PACKAGES

Qt6Core.dll imports ``ucnv_*`` from ``icuuc.dll`` (a system DLL since Windows 10 1903; Wine has none), and the
``qwindows`` platform plug-in imports ``mscms.dll`` functions Wine only stubs (``WcsCreateIccProfile`` aborts when a
real window opens). For each, every function the shipped PE files import from it is written as a stub that
fails ("not supported"), compiled with Debian's mingw-w64 into ``OUT_DIR/<name>.dll``. Generated from the import
tables rather than a fixed list, so a Qt update that imports one more function still loads. Written by hand
because no packaged library makes "a DLL exporting these names that fails cleanly".
Stdlib only; needs ``x86_64-w64-mingw32-gcc`` and ``x86_64-w64-mingw32-objdump``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

__all__ = ["STANDINS", "build", "imported_functions", "main", "parse_imports", "stub_source"]

GCC = "x86_64-w64-mingw32-gcc"
OBJDUMP = "x86_64-w64-mingw32-objdump"
# dll -> PE files (globbed under site-packages) whose imports from it the stand-in must export
STANDINS = {
    "icuuc.dll": ["PySide6/Qt6Core.dll"],
    "mscms.dll": ["PySide6/plugins/platforms/qwindows.dll", "PySide6/Qt6Gui.dll"],
}
# Functions that report failure through an out-parameter rather than their return value.
_ERROR_OUT = {
    # UConverter *ucnv_open(const char *name, UErrorCode *err): U_FILE_ACCESS_ERROR, so Qt uses its own codecs.
    "ucnv_open": "(const char *name, int *err) { (void)name; if (err) *err = 4; return 0; }",
}


def imported_functions(pe: Path, dll: str) -> list[str]:
    """Names ``pe`` imports from ``dll`` (case-insensitive), read from ``objdump -p``."""
    text = subprocess.run([OBJDUMP, "-p", str(pe)], capture_output=True, text=True, check=True).stdout
    return parse_imports(text, dll)


def parse_imports(text: str, dll: str) -> list[str]:
    """The function names listed under ``DLL Name: <dll>`` in ``objdump -p`` output."""
    names: list[str] = []
    current = None
    for line in text.splitlines():
        m = re.match(r"\s*DLL Name:\s*(\S+)", line)
        if m:
            current = m.group(1).lower()
            continue
        if current == dll.lower():
            f = re.match(r"\s*[0-9a-fA-F]+\s+<none>\s+[0-9a-fA-F]+\s+(\w+)\s*$", line) or re.match(
                r"\s*[0-9a-fA-F]+\s+[0-9a-fA-F]+\s+(\w+)\s*$", line
            )
            if f:
                names.append(f.group(1))
    return names


def stub_source(dll: str, functions: list[str]) -> str:
    lines = [f"/* Stand-in {dll} for a Wine test prefix (build_spec/wine_standins.py): every function fails. */",
             "#include <windows.h>"]  # fmt: skip
    for name in sorted(set(functions)):
        if name in _ERROR_OUT:
            lines.append(f"__declspec(dllexport) void *{name}{_ERROR_OUT[name]}")
        else:  # x64 calls are caller-cleaned: one zero-argument stub fits every signature
            lines.append(
                f"__declspec(dllexport) ULONG_PTR {name}(void) {{ SetLastError(ERROR_NOT_SUPPORTED); return 0; }}"
            )
    return "\n".join(lines) + "\n"


def build(out_dir: Path, site_packages: Path) -> list[Path]:
    """Write and compile every stand-in whose importers exist; returns the DLLs written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for dll, importers in STANDINS.items():
        functions: list[str] = []
        for rel in importers:
            pe = site_packages / rel
            if pe.is_file():
                functions += imported_functions(pe, dll)
        if not functions:
            print(f"wine_standins: nothing imports {dll}: not needed")
            continue
        src = out_dir / f"{Path(dll).stem}_standin.c"
        src.write_text(stub_source(dll, functions), encoding="utf-8")
        target = out_dir / dll
        subprocess.run([GCC, "-shared", "-O2", "-s", "-o", str(target), str(src)], check=True)
        print(f"wine_standins: {dll} with {len(set(functions))} failing functions")
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    build(Path(args[0]), Path(args[1]))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("LC_ALL", "C")
    sys.exit(main())
