"""Make the Linux build fit its size budget: strip debug info from the Python runtime, trim ICU's data.

Two measured wins on Linux (Windows builds have neither problem: python.org's DLLs carry no debug
info and Qt on Windows uses the ICU of the OS):

* ``strip_debug`` — the Python runtime (libpython + lib-dynload) of a source-built interpreter carries
  DWARF debug info (libpython 23 MB → 6 MB), Qt's ICU libraries carry symbol tables, and ml_dtypes' extension
  (an onnx dependency) ships 23 MB of DWARF (25 MB → 1.9 MB). Libraries edited by auditwheel/patchelf are never
  touched (``strip`` can break them).
* ``trim_icu`` — PySide6's libicudata.so.73 holds all ICU data (31 MB: every locale's currency, unit,
  region and language names, transliterators, break iterators, ~200 legacy codepages). Qt Core calls
  only collation (ucol_*), case mapping (u_strTo*), time-zone names (ucal_*) and converters (ucnv_*).
  We repack the data with ICU's own ``icupkg`` keeping the root, English and Japanese data of those
  services plus the Japanese and Windows codepages, then link a data-only library exporting the same
  ``icudtNN_dat`` symbol. No library does this; ICU's documented way is a custom data build, which
  needs ICU's sources. If ``icupkg`` or a C compiler is missing the original library is kept.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

__all__ = [
    "ICU_KEEP_LOCALES",
    "MANYLINUX_SYSTEM_LIBS",
    "icu_item_wanted",
    "prune_unreferenced",
    "strip_debug",
    "trim_icu",
]

# Libraries every manylinux wheel may assume the system provides (PEP 599 / PEP 600 policy), so the
# PySide6, numpy and onnxruntime wheels we freeze already rely on the system's copies.
MANYLINUX_SYSTEM_LIBS = (
    "libgcc_s.so.1", "libstdc++.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libc.so.6", "libnsl.so.1",
    "libutil.so.1", "libpthread.so.0", "libresolv.so.2", "libX11.so.6", "libXext.so.6", "libXrender.so.1",
    "libICE.so.6", "libSM.so.6", "libGL.so.1", "libgobject-2.0.so.0", "libgthread-2.0.so.0", "libglib-2.0.so.0",
)  # fmt: skip

ICU_KEEP_LOCALES = ("root", "en", "en_US", "en_001", "ja", "ja_JP")
# ICU data trees Qt never reads (it formats numbers/dates/names with its own CLDR tables).
_ICU_DROP_TREES = ("brkitr", "curr", "lang", "rbnf", "region", "translit", "unit")
_ICU_DROP_FILES = ("unames.icu", "confusables.cfu", "confusablesWholeScript.cfu", "*.spp")
# Codepages kept: every single-byte one (each a few KB: Windows-125x, ISO-8859-x, ...) and the Japanese
# multi-byte ones (Shift_JIS/Windows-31J, EUC-JP, JIS X 0212); the other CJK tables are 100-500 KB each.
_ICU_SMALL_CNV = 20_000
_ICU_KEEP_CNV = ("ibm-943_*", "ibm-33722_*", "euc-jp-*", "ibm-954_*", "jisx-*")
_LOCALE_RE = re.compile(r"^[a-z]{2,3}(_[A-Za-z0-9]*)*\.res$")
_TREE_SPECIAL = ("res_index.res", "pool.res")


def icu_item_wanted(item: str, size: int) -> bool:
    """Decide for one item of the ICU package (e.g. ``coll/de.res``, ``ibm-943_P15A-2003.cnv``) of ``size`` bytes."""
    tree, _, name = item.rpartition("/")
    if tree in _ICU_DROP_TREES:
        return False
    if any(fnmatch.fnmatch(name, p) for p in _ICU_DROP_FILES):
        return False
    if name.endswith(".cnv"):
        return size < _ICU_SMALL_CNV or any(fnmatch.fnmatch(name, p) for p in _ICU_KEEP_CNV)
    if tree == "coll":  # every locale's sort order: QFileSystemModel (file dialogs) sorts with QCollator
        return True
    if name in _TREE_SPECIAL or name == "root.res":
        return True
    if _LOCALE_RE.match(name):
        return name[: -len(".res")] in ICU_KEEP_LOCALES
    return True  # .icu/.nrm/.cfu data, supplemental .res (zoneinfo64, metaZones, likelySubtags, ...)


def _run(argv: list[str], cwd: Path | None = None) -> str:
    return subprocess.run(argv, cwd=cwd, check=True, capture_output=True, text=True).stdout


def _data_symbol(lib: Path) -> tuple[str, int, int]:
    """(symbol name, file offset, size) of the ``icudtNN_dat`` blob in an ICU data library."""
    syms = _run(["readelf", "-W", "--dyn-syms", str(lib)])
    m = re.search(r":\s*([0-9a-f]+)\s+(0x[0-9a-f]+|\d+)\s+OBJECT\s+GLOBAL\s+\S+\s+(\d+)\s+(icudt\d+_dat)\b", syms)
    if not m:
        raise ValueError(f"{lib} exports no icudtNN_dat symbol")
    addr, size, ndx, name = int(m.group(1), 16), int(m.group(2), 0), int(m.group(3)), m.group(4)
    for line in _run(["readelf", "-W", "-S", str(lib)]).splitlines():
        sm = re.match(r"\s*\[\s*(\d+)\]\s+\S+\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s", line)
        if sm and int(sm.group(1)) == ndx:
            return name, addr - int(sm.group(2), 16) + int(sm.group(3), 16), size
    raise ValueError(f"{lib}: section {ndx} of {name} not found")


#: Where distributions install administration tools that a non-root user's PATH lacks (Debian's icu-devtools puts
#: ``icupkg`` in /usr/sbin).
SBIN_DIRS = ("/usr/local/sbin", "/usr/sbin", "/sbin")


def find_tool(name: str, extra: Iterable[str] = SBIN_DIRS) -> str | None:
    """``name`` on PATH, else in one of the ``extra`` folders (the system's sbin); None when neither has it."""
    return shutil.which(name) or shutil.which(name, path=os.pathsep.join(extra))


def trim_icu(lib: Path, workdir: Path) -> Path | None:
    """Build a trimmed copy of ICU data library ``lib`` in ``workdir``; None when the tools are missing."""
    icupkg, cc = find_tool("icupkg"), shutil.which("cc") or shutil.which("gcc")
    if not (icupkg and cc and shutil.which("readelf")):
        print(f"slim: icupkg/cc/readelf not found; keeping the full {lib.name}", file=sys.stderr)
        return None
    symbol, offset, size = _data_symbol(lib)
    pkg = symbol.replace("_dat", "l")  # icudt73_dat -> icudt73l (little-endian package name)
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    with open(lib, "rb") as f:
        f.seek(offset)
        (workdir / f"{pkg}.dat").write_bytes(f.read(size))
    _run([icupkg, "-l", "-o", str(workdir / "items.txt"), str(workdir / f"{pkg}.dat")])
    items = (workdir / "items.txt").read_text().split()
    (workdir / "items").mkdir()
    _run([icupkg, "-x", str(workdir / "items.txt"), "-d", str(workdir / "items"), str(workdir / f"{pkg}.dat")])
    drop = [i for i in items if not icu_item_wanted(i, (workdir / "items" / i).stat().st_size)]
    # The output's file name is the package name ICU looks items up under: keep it, in another folder.
    (workdir / "trimmed").mkdir()
    for _ in range(10):  # an item that depends on a dropped one (a codepage extending a big table) goes too
        (workdir / "drop.txt").write_text("\n".join(drop) + "\n")
        r = subprocess.run([icupkg, "-r", str(workdir / "drop.txt"), str(workdir / f"{pkg}.dat"),
                            str(workdir / "trimmed" / f"{pkg}.dat")], capture_output=True, text=True)  # fmt: skip
        dependents = re.findall(r"Item (\S+) depends on missing item", r.stdout + r.stderr)
        if r.returncode == 0 or not dependents:
            break
        drop += dependents
    if r.returncode != 0:
        raise RuntimeError(f"icupkg failed: {(r.stdout + r.stderr)[-2000:]}")
    (workdir / "data.S").write_text(
        f"\t.section .rodata\n\t.balign 16\n\t.globl {symbol}\n\t.type {symbol}, @object\n{symbol}:\n"
        f'\t.incbin "trimmed/{pkg}.dat"\n\t.size {symbol}, .-{symbol}\n\t.section .note.GNU-stack,"",@progbits\n'
    )
    out = workdir / lib.name
    _run([cc, "-shared", "-nostdlib", f"-Wl,-soname,{lib.name}", "-o", lib.name, "data.S"], cwd=workdir)
    print(f"slim: {lib.name}: {len(items) - len(drop)}/{len(items)} ICU items kept, "
          f"{lib.stat().st_size / 2**20:.1f} MB -> {out.stat().st_size / 2**20:.1f} MB", file=sys.stderr)  # fmt: skip
    return out


def _strip_mode(src: str) -> str | None:
    """How to strip one binary: ``"unneeded"``, ``"debug"`` or ``None`` (leave it alone).

    * the interpreter's own files and Qt's ICU libraries (Qt's build, not edited by auditwheel/patchelf):
      debug info and unneeded symbols;
    * a wheel's library that carries DWARF debug info and was NOT edited by auditwheel/patchelf (no RPATH or
      RUNPATH into a ``*.libs`` folder, not inside one): only the debug sections, which the loader never maps.
      This is ml_dtypes' extension (onnx imports it): 25 MB with debug info, 1.9 MB without.
    """
    path = Path(src).resolve()
    roots = {Path(p).resolve() for p in (sys.base_prefix, sys.base_exec_prefix)}
    if any(root in path.parents for root in roots) and "site-packages" not in path.parts:
        return "unneeded"
    if path.parent.parts[-3:] == ("PySide6", "Qt", "lib") and path.name.startswith("libicu"):
        return "unneeded"
    if "site-packages" in path.parts and _has_debug_info(path) and not _auditwheel_edited(path):
        return "debug"
    return None


def _readelf(flag: str, path: Path) -> str:
    if not shutil.which("readelf"):
        return ""
    return subprocess.run(["readelf", "-W", flag, str(path)], capture_output=True, text=True).stdout


def _has_debug_info(path: Path) -> bool:
    return " .debug_info " in _readelf("-S", path)


def _auditwheel_edited(path: Path) -> bool:
    """auditwheel grafts libraries into ``<pkg>.libs`` and points RPATH/RUNPATH at them with patchelf, which
    moves sections in ways ``strip`` is known to mangle: such files are never touched."""
    if any(part.endswith(".libs") for part in path.parts):
        return True
    dynamic = _readelf("-d", path)
    return bool(re.search(r"\((?:RPATH|RUNPATH)\)[^\n]*\.libs", dynamic))


def strip_debug(entries: Iterable[tuple[str, str, str]], workdir: Path) -> list[tuple[str, str, str]]:
    """TOC binaries with the strippable ELF files (see :func:`_strip_mode`) replaced by stripped copies
    (``--strip-unneeded`` keeps every symbol dynamic linking uses; ``--strip-debug`` keeps every symbol)."""
    strip = shutil.which("strip")
    result = []
    for dest, src, typecode in entries:
        mode = _strip_mode(src) if strip and sys.platform.startswith("linux") else None
        if mode is not None:
            out = workdir / dest
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, out)
            _run([str(strip), f"--strip-{mode}", str(out)])
            if out.stat().st_size < Path(src).stat().st_size:
                result.append((dest, str(out), typecode))
                continue
        result.append((dest, src, typecode))
    return result


def _needed(path: str) -> list[str]:
    out = subprocess.run(["readelf", "-W", "-d", path], capture_output=True, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", out)


def prune_unreferenced(entries: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """Drop top-level shared libraries that no kept binary needs any more, and the manylinux system set.

    PyInstaller resolves dependencies before the spec drops files (e.g. the GTK theme plug-in pulls in
    cairo/pango/gdk-pixbuf); what nothing kept links to is dead weight. Everything inside a folder
    (extension modules, Qt libraries and plug-ins) and libpython is a root.
    """
    if not shutil.which("readelf"):
        return entries
    by_name = {d: (d, s, t) for d, s, t in entries if "/" not in d and ".so" in d}
    roots = [e for e in entries if e[0] not in by_name or e[0].startswith("libpython")]
    reached: set[str] = set()
    stack = [s for _d, s, t in roots if t in ("BINARY", "EXTENSION")]
    while stack:
        for name in _needed(stack.pop()):
            if name in by_name and name not in reached:
                reached.add(name)
                stack.append(by_name[name][1])
    keep = {n for n in by_name if (n in reached or n.startswith("libpython")) and n not in MANYLINUX_SYSTEM_LIBS}
    return [e for e in entries if e[0] not in by_name or e[0] in keep]
