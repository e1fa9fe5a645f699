"""Bare onnxruntime: ``InferenceSession(path)`` and one run on random inputs (a reference of pipeline.py)."""

from __future__ import annotations

import sys

import numpy as np
import onnxruntime as ort

sess = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
feeds = {i.name: np.random.default_rng(0).standard_normal([d if isinstance(d, int) else 1 for d in i.shape]).astype(
    np.float32) for i in sess.get_inputs()}
sess.run(None, feeds)
