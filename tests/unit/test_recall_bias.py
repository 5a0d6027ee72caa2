"""The tagger's recall bias (deid_core/tagger/recall.py): read from tagger.json, refused when unsafe,
and a larger bias never tags fewer tokens of a single-window text; a category's extra bias moves that
category's tags only."""

from __future__ import annotations

import math

import numpy as np
import pytest

from deid_core.tagger import default_model_dir
from deid_core.tagger.labels import tag_names
from deid_core.tagger.recall import biased_output, category_biases_of, recall_bias_of
from deid_core.tagger.runtime import TaggerRuntime, read_meta
from schemas import PhiCategory, PhiType

TEXTS = [
    "Seen with her daughter Ximena and the neighbour Mr. Ostrowski; Marguerite tolerated it well.",
    "Pt works nights stocking shelves at Kroeger Foods, moved back to Tucson in March 2024.",
    "Call back 555-0147 x2291 or write to petra at example dot com. Room 3A-16, pain 6/10.",
    "Hartwell 4 charge RN Vy called Dr. Okonkwo re: BP 112/70 at 02:10.",
]


def test_a_missing_value_is_the_model_as_trained() -> None:
    assert recall_bias_of({}) == 0.0
    assert recall_bias_of({"recall_bias": 1}) == 1.0


@pytest.mark.parametrize("value", [-0.5, math.nan, math.inf, "1.0", True, None])
def test_unsafe_or_malformed_values_are_refused(value: object) -> None:
    with pytest.raises(ValueError, match="recall_bias"):
        recall_bias_of({"recall_bias": value})


def test_only_the_outside_tag_moves() -> None:
    names = tag_names()
    out = np.linspace(-1, 1, len(names)).astype(np.float16)
    biased = biased_output(out, names, 1.5)
    assert biased.dtype == np.float32
    assert biased[0] == np.float32(out[0]) - np.float32(1.5)
    assert np.array_equal(biased[1:], out[1:].astype(np.float32))
    assert np.array_equal(biased_output(out, names, 0.0), out.astype(np.float32))


def test_the_shipped_artifact_declares_its_bias() -> None:
    assert recall_bias_of(read_meta(default_model_dir())) > 0
    assert set(category_biases_of(read_meta(default_model_dir()))) <= set(PhiCategory)


def test_a_larger_bias_never_tags_fewer_tokens() -> None:
    # One window per text: the Viterbi path maximises (trained score + bias * entity tokens), so the
    # number of entity tokens on the best path cannot fall as the bias grows.
    counts = []
    for bias in (0.0, 0.5, 1.0, 2.0, 4.0):
        runtime = TaggerRuntime.load(default_model_dir(), engine="numpy", recall_bias=bias)
        _, tags = runtime.tag_arrays(TEXTS)
        counts.append([int((t != 0).sum()) for t in tags])
    for lower, higher in zip(counts, counts[1:], strict=False):
        assert all(h >= lo for lo, h in zip(lower, higher, strict=True)), counts
    assert sum(counts[-1]) > sum(counts[0])


def test_the_override_leaves_the_artifact_value_alone_otherwise() -> None:
    shipped = TaggerRuntime.load(default_model_dir(), engine="numpy")
    same = TaggerRuntime.load(default_model_dir(), engine="numpy", recall_bias=recall_bias_of(read_meta(default_model_dir())))
    assert shipped.tag(TEXTS) == same.tag(TEXTS)


def test_no_category_extra_is_none() -> None:
    assert category_biases_of({}) == {}
    assert category_biases_of({"category_recall_bias": {"NAME": 1}}) == {PhiCategory.NAME: 1.0}


@pytest.mark.parametrize(
    "value", [[1.0], "NAME", {"NAMES": 1.0}, {"NAME": -1.0}, {"NAME": math.nan}, {"NAME": "1"}, {"NAME": True}, {1: 1.0}]
)
def test_unsafe_or_malformed_category_extras_are_refused(value: object) -> None:
    with pytest.raises(ValueError, match="category_recall_bias") as error:
        category_biases_of({"category_recall_bias": value})
    assert "NAMES" not in str(error.value)  # the message names the key, never the value it was given


def test_a_category_extra_moves_that_category_s_tags_only() -> None:
    names = tag_names()
    out = np.linspace(-1, 1, len(names)).astype(np.float32)
    biased = biased_output(out, names, 1.5, {PhiCategory.NAME: 0.75})
    for i, name in enumerate(names):
        if name == "O":
            assert biased[i] == out[i] - np.float32(1.5)
        elif PhiType(name[2:]).category is PhiCategory.NAME:
            assert biased[i] == out[i] + np.float32(0.75)
        else:
            assert biased[i] == out[i]


def test_a_larger_name_extra_never_tags_fewer_name_tokens() -> None:
    # One window per text: the best path maximises (trained score + extra * name tokens), so the number
    # of name tokens on it cannot fall as the extra grows.
    names = read_meta(default_model_dir())["tags"]
    is_name = np.array([n != "O" and PhiType(n[2:]).category is PhiCategory.NAME for n in names])
    counts = []
    for extra in (0.0, 0.5, 1.0, 2.0, 4.0):
        runtime = TaggerRuntime.load(default_model_dir(), engine="numpy", category_bias={"NAME": extra})
        _, tags = runtime.tag_arrays(TEXTS)
        counts.append([int(is_name[t].sum()) for t in tags])
    for lower, higher in zip(counts, counts[1:], strict=False):
        assert all(h >= lo for lo, h in zip(lower, higher, strict=True)), counts
    assert sum(counts[-1]) > sum(counts[0])
