"""Surrogate copies of development notes for training (deid_tools.train.augment) keep the text around
the spans, move the spans with the replacements, change the PHI, and never take the blind set."""

from __future__ import annotations

from pathlib import Path

import pytest

from deid_tools.eval.model import GoldDoc
from deid_tools.train.augment import surrogate_copies, surrogate_copy
from deid_tools.train.job import HANDWRITTEN_GOLD, JobConfig, augmented_notes
from schemas import PhiType, Span

TEXT = "Seen by Dr. Ines Okafor on 03/14/2024 at Ashby 5 West. Daughter Ximena (555-201-3344) visits."


def _doc() -> GoldDoc:
    def span(value: str, typ: PhiType) -> Span:
        start = TEXT.index(value)
        return Span(start=start, end=start + len(value), type=typ)

    return GoldDoc(
        "n1",
        TEXT,
        (
            span("Ines Okafor", PhiType.DOCTOR),
            span("03/14/2024", PhiType.DATE),
            span("Ashby 5 West", PhiType.DEPARTMENT),
            span("Ximena", PhiType.PATIENT),
            span("555-201-3344", PhiType.PHONE),
        ),
    )


def _outside(doc: GoldDoc) -> list[str]:
    cuts = [0, *(x for s in doc.spans for x in (s.start, s.end)), len(doc.text)]
    return [doc.text[cuts[i] : cuts[i + 1]] for i in range(0, len(cuts), 2)]


def test_copies_keep_the_context_and_replace_every_span() -> None:
    doc = _doc()
    for k in range(6):
        copy = surrogate_copy(doc, k, seed=0)
        assert _outside(copy) == _outside(doc)
        assert [s.type for s in copy.spans] == [s.type for s in doc.spans]
        for old, new in zip(doc.spans, copy.spans, strict=True):
            if old.type is not PhiType.DEPARTMENT:  # a ward may keep its shape and swap its proper word
                assert doc.text[old.start : old.end] != copy.text[new.start : new.end]


def test_copies_are_deterministic_and_differ_between_copies() -> None:
    first = surrogate_copies([_doc()], 3, seed=5)
    assert first == surrogate_copies([_doc()], 3, seed=5)
    assert len({d.text for d in first}) == 3
    assert [d.id for d in first] == ["n1~0", "n1~1", "n1~2"]


def test_the_blind_set_is_refused() -> None:
    if not HANDWRITTEN_GOLD.exists():
        pytest.skip("no blind hand-written set in this checkout")
    with pytest.raises(ValueError, match="evaluation only"):
        augmented_notes(JobConfig(augment_gold=(str(HANDWRITTEN_GOLD),)))
    with pytest.raises(ValueError, match="evaluation only"):
        augmented_notes(JobConfig(augment_gold=(str(Path(HANDWRITTEN_GOLD).parent),)))


def test_hard_names_and_lower_case_copies_keep_the_invariant() -> None:
    """With every given name drawn from the hard pool and every copy lower-cased, the text outside the
    spans is the original's (lower-cased), the spans still hold their surrogates, and the given name is
    a word-like or short name."""
    from deid_core.lexicon import load_lexicons
    from deid_tools.train.augment import hard_first_names

    hard = hard_first_names(load_lexicons())
    assert {"grace", "per", "bo", "june"} <= set(hard)
    assert not {"my", "us", "among"} & set(hard)
    doc = _doc()
    for k in range(4):
        copy = surrogate_copy(doc, k, seed=0, hard=hard, hard_share=1.0, lower_share=1.0)
        assert copy.text == copy.text.lower()
        assert _outside(copy) == [part.lower() for part in _outside(doc)]
        daughter = next(s for s in copy.spans if s.type is PhiType.PATIENT)
        assert copy.text[daughter.start : daughter.end] in hard


def test_the_default_copies_do_not_move_when_the_new_shapes_are_off() -> None:
    assert surrogate_copies([_doc()], 3, seed=5) == surrogate_copies([_doc()], 3, seed=5, hard_share=0.0, lower_share=0.0)


def test_the_model_cards_reproduce_line_names_only_options_that_differ() -> None:
    from deid_tools.train.job import _start_args
    from deid_tools.train.train import TrainConfig

    assert _start_args(TrainConfig()) == ""
    assert _start_args(TrainConfig(learning_rate=1e-3, init_from="a")) == " --learning-rate 0.001 --init-from a"
