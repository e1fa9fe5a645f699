"""Verifying a release bundle: its listing and hashes, recipe, signature, smoke run, and the report."""

__all__: list[str] = []
