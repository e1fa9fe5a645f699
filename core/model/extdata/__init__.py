"""Resolve and read external tensor data ourselves, under the rules of security.md.

onnx and onnxruntime each resolve ``external_data`` paths, with different (and historically
buggy) rules, and neither verifies ``checksum``. We apply the stricter union of both and read
validated bytes ourselves; nothing else in onnxpack opens an external-data file.

Its modules: the records (:mod:`.extref`), the location and file checks (:mod:`.extlocation`),
resolving a model's references (:mod:`.extresolve`) and reading their bytes (:mod:`.extreader`).
"""

__all__: list[str] = []
