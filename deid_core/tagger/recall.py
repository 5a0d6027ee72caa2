"""The tagger's recall bias: numbers in ``tagger.json`` that trade precision for recall at decode time.

Invariant: with bias ``b`` (``recall_bias``) and extra biases ``e[c]`` per category
(``category_recall_bias``, e.g. ``{"NAME": 1.0}``), the CRF decodes as if every entity tag's emission score
at every token were ``b + e[category of the tag]`` higher than the trained model says (implemented as ``b``
off the outside tag's output bias and ``e[c]`` onto the tags of category ``c``: only differences between
tags at a token matter to Viterbi). ``b = 0`` and no extra is the model as trained; a larger bias only ever
tags more tokens as PHI (of that category) where a path through them was within the bias of the best path.
Training picks its epoch with no bias; the shipped values are an operating point chosen afterwards on
held-out development sets (``scripts/recall_bias_sweep.py``), never on the blind set.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from deid_core.tagger.labels import OUTSIDE
from schemas import PhiCategory, PhiType

OUT_BIAS = "out.bias"
META_KEY = "recall_bias"
CATEGORY_KEY = "category_recall_bias"


def _safe(value: object, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise ValueError(f"tagger.json {key} must be a finite number >= 0 (a negative one would lower recall)")
    return float(value)


def recall_bias_of(meta: Mapping[str, Any]) -> float:
    """The artifact's bias (0.0 when ``tagger.json`` has none); refused unless a finite number >= 0."""
    return _safe(meta.get(META_KEY, 0.0), META_KEY)


def category_biases_of(meta: Mapping[str, Any]) -> dict[PhiCategory, float]:
    """The artifact's extra bias per category (none when ``tagger.json`` has none); refused unless a
    mapping of known category names to finite numbers >= 0."""
    value = meta.get(CATEGORY_KEY, {})
    if not isinstance(value, Mapping):
        raise ValueError(f"tagger.json {CATEGORY_KEY} must map category names to numbers")
    known = {c.value for c in PhiCategory}
    if any(not isinstance(k, str) or k not in known for k in value):
        raise ValueError(f"tagger.json {CATEGORY_KEY} names a category that does not exist; known: {sorted(known)}")
    return {PhiCategory(k): _safe(v, CATEGORY_KEY) for k, v in value.items()}


def biased_output(
    out_bias: np.ndarray, tag_names: Sequence[str], bias: float, by_category: Mapping[PhiCategory, float] | None = None
) -> np.ndarray:
    """A float32 copy of the output layer's bias with ``bias`` taken off the outside tag and each
    category's extra bias added to that category's tags."""
    biased = np.array(out_bias, dtype=np.float32)
    names = list(tag_names)
    biased[names.index(OUTSIDE)] -= np.float32(bias)
    extras = by_category or {}
    for i, name in enumerate(names):
        if name != OUTSIDE and (extra := extras.get(PhiType(name[2:]).category)):
            biased[i] += np.float32(extra)
    return biased
