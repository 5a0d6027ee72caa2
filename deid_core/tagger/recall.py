"""The tagger's recall bias: one number in ``tagger.json`` that trades precision for recall at decode time.

Invariant: with bias ``b`` the CRF decodes as if every entity tag's emission score at every token were
``b`` higher than the trained model says (implemented as ``b`` off the outside tag's output bias, which
is the same thing to Viterbi: only differences between tags at a token matter). ``b = 0`` is the model
as trained; a larger ``b`` only ever tags more tokens as PHI where a path through them was within ``b``
of the best all-outside path. Training picks its epoch at ``b = 0``; the shipped value is an operating
point chosen afterwards on held-out development sets (``scripts/recall_bias_sweep.py``), never on the
blind set.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from deid_core.tagger.labels import OUTSIDE

OUT_BIAS = "out.bias"
META_KEY = "recall_bias"


def recall_bias_of(meta: Mapping[str, Any]) -> float:
    """The artifact's bias (0.0 when ``tagger.json`` has none); refused unless a finite number >= 0."""
    value = meta.get(META_KEY, 0.0)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise ValueError(f"tagger.json {META_KEY} must be a finite number >= 0 (a negative one would lower recall)")
    return float(value)


def biased_output(out_bias: np.ndarray, tag_names: Sequence[str], bias: float) -> np.ndarray:
    """A float32 copy of the output layer's bias with ``bias`` taken off the outside tag."""
    biased = np.array(out_bias, dtype=np.float32)
    biased[list(tag_names).index(OUTSIDE)] -= np.float32(bias)
    return biased
