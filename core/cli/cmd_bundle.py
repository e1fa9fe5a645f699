"""Placeholder for the cmd_bundle subcommands (being written; replaced by the owning issue)."""

from __future__ import annotations

from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add this module's subcommands to ``subparsers``."""
