"""BIO tags over the i2b2 subtypes, and conversion between character spans and token tags."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from deid_core.tagger.tokenize import Token
from schemas import PhiType, Span

if TYPE_CHECKING:
    import torch

OUTSIDE = "O"


def tag_names(types: Sequence[PhiType] = tuple(PhiType)) -> list[str]:
    names = [OUTSIDE]
    for t in types:
        names += [f"B-{t.value}", f"I-{t.value}"]
    return names


def bio_constraint_masks(names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """I-X may only follow B-X or I-X; a sequence may not start with I-X. ``allowed[i, j]``: j may follow i."""
    k = len(names)
    allowed = np.ones((k, k), dtype=np.bool_)
    allowed_start = np.ones(k, dtype=np.bool_)
    for j, name in enumerate(names):
        if name.startswith("I-"):
            allowed_start[j] = False
            kind = name[2:]
            for i, prev in enumerate(names):
                if prev not in (f"B-{kind}", f"I-{kind}"):
                    allowed[i, j] = False
    return allowed, allowed_start


def bio_constraints(names: Sequence[str]) -> tuple[torch.Tensor, torch.Tensor]:
    """``bio_constraint_masks`` as torch tensors, for the training model (torch is imported only here)."""
    import torch

    allowed, allowed_start = bio_constraint_masks(names)
    return torch.from_numpy(allowed), torch.from_numpy(allowed_start)


def spans_to_tags(tokens: Sequence[Token], spans: Sequence[Span], index: dict[str, int]) -> list[int]:
    """A token takes the type of the gold span that covers any of its characters (B- on the first token)."""
    tags = [index[OUTSIDE]] * len(tokens)
    ordered = sorted(spans, key=lambda s: s.start)
    j = 0
    prev_span: Span | None = None
    for i, tok in enumerate(tokens):
        while j < len(ordered) and ordered[j].end <= tok.start:
            j += 1
        if j < len(ordered) and ordered[j].start < tok.end:
            span = ordered[j]
            prefix = "I-" if prev_span is span else "B-"
            tags[i] = index[prefix + span.type.value]
            prev_span = span
        else:
            prev_span = None
    return tags


def tags_to_spans(tokens: Sequence[Token], tags: Sequence[int], names: Sequence[str], score: float, source: str) -> list[Span]:
    spans: list[Span] = []
    cur_type: str | None = None
    cur_start = cur_end = 0
    for tok, tag in zip(tokens, tags, strict=True):
        name = names[tag]
        if name == OUTSIDE:
            if cur_type is not None:
                spans.append(Span(cur_start, cur_end, PhiType(cur_type), score, frozenset({source}), "model=bilstm-crf"))
                cur_type = None
            continue
        kind = name[2:]
        if name.startswith("B-") or kind != cur_type:
            if cur_type is not None:
                spans.append(Span(cur_start, cur_end, PhiType(cur_type), score, frozenset({source}), "model=bilstm-crf"))
            cur_type, cur_start = kind, tok.start
        cur_end = tok.end
    if cur_type is not None:
        spans.append(Span(cur_start, cur_end, PhiType(cur_type), score, frozenset({source}), "model=bilstm-crf"))
    return spans


def tag_array_to_spans(
    starts: np.ndarray, ends: np.ndarray, tags: np.ndarray, names: Sequence[str], score: float, source: str
) -> list[Span]:
    """``tags_to_spans`` over token offset arrays, visiting only the tokens not tagged ``O``."""
    tagged = np.flatnonzero(tags != names.index(OUTSIDE))
    spans: list[Span] = []
    cur_type: str | None = None
    cur_start = cur_end = 0
    prev = -2
    for i, tag in zip(tagged.tolist(), tags[tagged].tolist(), strict=True):
        name = names[tag]
        kind = name[2:]
        # A skipped (O) token between two tagged ones closes the open span, as in tags_to_spans.
        if i != prev + 1 or name.startswith("B-") or kind != cur_type:
            if cur_type is not None:
                spans.append(Span(cur_start, cur_end, PhiType(cur_type), score, frozenset({source}), "model=bilstm-crf"))
            cur_type, cur_start = kind, int(starts[i])
        cur_end = int(ends[i])
        prev = i
    if cur_type is not None:
        spans.append(Span(cur_start, cur_end, PhiType(cur_type), score, frozenset({source}), "model=bilstm-crf"))
    return spans
