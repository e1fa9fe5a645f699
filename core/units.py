"""Human-readable byte sizes, shared by the engine's messages, the command line and the GUI.

One way for every size a message prints: :func:`format_bytes` ("1.3 GiB"), and where the exact count matters, the
count with thousands separators after it, "1.3 GiB (1,419,987,486 bytes)" (a registry template writes
``{readable} ({bytes:,} bytes)``, or ``{size:,} bytes`` alone: never a bare ``{size} bytes``)."""

from __future__ import annotations

__all__ = ["format_bytes"]


def format_bytes(n: int | None) -> str:
    """``1536`` -> ``"1.5 KiB"``; ``None`` (unknown) -> ``"-"``."""
    if n is None:
        return "-"
    if n >= 1024**5 * 1024:  # beyond TiB: integer arithmetic (float() overflows for a hostile 400-digit size)
        return f"{n >> 40} TiB"
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} B"
