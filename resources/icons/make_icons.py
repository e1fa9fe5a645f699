"""Build the onnxpack application icon: SVG master, PNG sizes and a multi-size Windows .ico (run with Qt).

Usage: python resources/icons/make_icons.py   (writes into resources/icons/; deterministic output)

The SVG is the master; PNGs are rendered from it with QSvgRenderer + QPainter into a QImage.
The .ico is assembled here by hand because Qt's ICO image writer stores a single image per file,
while Windows picks the best of several sizes (16…256 px) from one .ico. Entries are PNG-compressed,
which the ICO format allows since Windows Vista (ICONDIRENTRY followed by a plain PNG stream).
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

__all__ = ["ICO_SIZES", "PNG_SIZES", "SVG", "build_ico", "main", "render_png"]

HERE = Path(__file__).resolve().parent
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)  # 256 is the largest size an .ico entry can declare

# A parcel (isometric box) carrying a small three-node graph: "a model, packed for release".
SVG = """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <title>onnxpack</title>
  <rect x="8" y="8" width="240" height="240" rx="48" ry="48" fill="#1d5fa8"/>
  <path d="M128 40 L212 84 L128 128 L44 84 Z" fill="#ffffff"/>
  <path d="M44 84 L128 128 L128 220 L44 176 Z" fill="#d9e6f5"/>
  <path d="M212 84 L128 128 L128 220 L212 176 Z" fill="#b3cdea"/>
  <path d="M86 62 L170 106 L170 130 L186 122 L186 98 L102 54 Z" fill="#f2b233"/>
  <g stroke="#1d5fa8" stroke-width="7" stroke-linecap="round">
    <line x1="66" y1="124" x2="104" y2="176"/>
    <line x1="66" y1="124" x2="106" y2="136"/>
    <line x1="106" y1="136" x2="104" y2="176"/>
  </g>
  <g fill="#1d5fa8">
    <circle cx="66" cy="124" r="11"/>
    <circle cx="106" cy="136" r="11"/>
    <circle cx="104" cy="176" r="11"/>
  </g>
</svg>
"""


def render_png(renderer: QSvgRenderer, size: int) -> bytes:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.convertToFormat(QImage.Format.Format_ARGB32).save(buf, "PNG"):
        raise RuntimeError(f"Qt could not encode the {size}px PNG")
    buf.close()
    return bytes(data.data())


def build_ico(pngs: dict[int, bytes]) -> bytes:
    """ICONDIR + one ICONDIRENTRY per size + the PNG streams (all little-endian)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))  # reserved, type 1 = icon, count
    offset = 6 + 16 * len(sizes)
    entries, blobs = [], []
    for size in sizes:
        blob = pngs[size]
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries.append(struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset))
        blobs.append(blob)
        offset += len(blob)
    return header + b"".join(entries) + b"".join(blobs)


def main(out_dir: Path = HERE) -> list[Path]:
    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    svg_path = out_dir / "onnxpack.svg"
    svg_path.write_text(SVG, encoding="utf-8")
    written.append(svg_path)
    renderer = QSvgRenderer(QByteArray(SVG.encode("utf-8")))
    if not renderer.isValid():
        raise RuntimeError("the icon SVG does not parse")
    pngs = {size: render_png(renderer, size) for size in PNG_SIZES}
    for size, blob in pngs.items():
        path = out_dir / f"onnxpack-{size}.png"
        path.write_bytes(blob)
        written.append(path)
    ico = out_dir / "onnxpack.ico"
    ico.write_bytes(build_ico({s: pngs[s] for s in ICO_SIZES}))
    written.append(ico)
    return written


if __name__ == "__main__":
    for p in main():
        print(p.relative_to(HERE.parent.parent))
