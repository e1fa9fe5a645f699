"""Resolve and read external tensor data ourselves, under the rules of security.md.

onnx and onnxruntime each resolve ``external_data`` paths, with different (and historically
buggy) rules, and neither verifies ``checksum``. We apply the stricter union of both and read
validated bytes ourselves; nothing else in onnxpack opens an external-data file.

This module gathers the names: the records (:mod:`.extref`), the location and file checks (:mod:`.extlocation`),
resolving a model's references (:mod:`.extresolve`) and reading their bytes (:mod:`.extreader`).
"""

from __future__ import annotations

from .extreader import ExternalDataReader
from .extref import CHUNK, KNOWN_KEYS, ExternalRef, ExternalTable, sha1_file
from .extresolve import raw_data_size_finding, resolve_external_data

__all__ = [
    "CHUNK",
    "KNOWN_KEYS",
    "ExternalDataReader",
    "ExternalRef",
    "ExternalTable",
    "raw_data_size_finding",
    "resolve_external_data",
    "sha1_file",
]
