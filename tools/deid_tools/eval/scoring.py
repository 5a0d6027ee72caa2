"""Scoring predicted PHI spans against gold annotations.

Rows
    ``ALL``: every span, type ignored (binary PHI vs not). ``HIPAA``: binary, restricted to spans whose
    subtype has ``PhiType.hipaa``. One row per :class:`~schemas.PhiCategory` and one per
    :class:`~schemas.PhiType` present in gold or predictions: only spans of that category (subtype) on
    both sides, and a match requires the same category (subtype).

Units and matches (all micro-averaged: counts are summed over documents, then scored)
    strict  -- entity level; a predicted span matches a gold span when start and end are equal.
    relaxed -- entity level; a predicted span matches a gold span when they overlap by >= 1 character.
    end2    -- entity level, the i2b2 2014 "relaxed" rule: equal start, ends differing by <= 2 characters.
    token   -- ``\\w+`` tokens (the ``\\w+|[^\\w\\s]`` tokenizer minus pure punctuation). A token's gold
               label is the type of the gold span covering any of its characters (the earliest-starting
               one if several do), and likewise its predicted label. Token and its label play the role
               of a span: the token "matches" itself when both labels are set.

Counting, for a row with gold set G and prediction set P
    tp = gold units in G with a matching unit in P; fn = |G| - tp.
    fp = units in P matching no gold unit of the row; precision = (|P| - fp) / |P|; recall = tp / |G|.
    Entity matching is not one-to-one: one predicted span overlapping two gold spans finds both, and
    both halves of a split prediction count as correct. So precision is computed on the prediction
    side and equals tp / (tp + fp) only when matching happens to be one-to-one (always for strict
    unless a file holds duplicate spans). Undefined scores are ``nan`` (``-`` in the table, ``null`` in
    JSON); F1 is 0 when precision or recall is 0.

HIPAA row, exactly
    G = gold spans of HIPAA subtypes; P = predictions of HIPAA subtypes. A gold HIPAA span is found if a
    prediction of *any* subtype matches it (it gets removed whatever we call it). A HIPAA-typed
    prediction is correct if it matches a gold span of *any* subtype (removing non-HIPAA PHI is not an
    error). The token level applies the same rule to token labels.

Typed rows at the token level compare labels: for row T, tp = tokens with gold label in T and predicted
label in T; fp = predicted in T, gold not in T (including no gold label); fn = gold in T, predicted not.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence

from deid_tools.eval.model import EvalInputError, GoldDoc
from deid_tools.eval.report import LEVELS, EvalReport, Level, Metrics, RowKind, RowResult
from deid_tools.eval.tokens import scored_tokens
from schemas import PhiCategory, PhiType, Span

_Unit = tuple[int, int, PhiType]
_RowKey = tuple[RowKind, str]
_ALL: _RowKey = ("binary", "ALL")
_HIPAA: _RowKey = ("binary", "HIPAA")


def evaluate(gold: Sequence[GoldDoc], predictions: Mapping[str, Sequence[Span]]) -> EvalReport:
    """Score ``predictions`` (document id -> spans over the gold text) against ``gold``.

    Gold documents without an entry in ``predictions`` count as having no predictions. Raises
    :class:`EvalInputError` for predictions of ids not in gold, duplicate gold ids and spans that fall
    outside their document's text.
    """
    ids = {doc.id for doc in gold}
    if len(ids) != len(gold):
        raise EvalInputError("gold: duplicate document ids")
    unknown = sorted(set(predictions) - ids)
    if unknown:
        shown = ", ".join(repr(i) for i in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
        raise EvalInputError(f"predictions: {len(unknown)} document id(s) not in gold: {shown}")

    tally = _Tally()
    missing = 0
    for doc in gold:
        if doc.id not in predictions:
            missing += 1
        g = _units(doc.spans, len(doc.text), f"gold document {doc.id!r}")
        p = _units(predictions.get(doc.id, ()), len(doc.text), f"predictions for document {doc.id!r}")
        tally.count_entities(g, p)
        tally.score("strict", g, p, _strict_matches(g, p), _strict_matches(p, g))
        tally.score("end2", g, p, _end2_matches(g, p), _end2_matches(p, g))
        tally.score("relaxed", g, p, _overlap_matches(g, p), _overlap_matches(p, g))
        g_tok, p_tok = _token_units(doc.text, g, p)
        tally.score(
            "token",
            g_tok,
            p_tok,
            [[pt] if pt is not None else [] for pt in _labels_at(g_tok, p_tok)],
            [[gt] if gt is not None else [] for gt in _labels_at(p_tok, g_tok)],
        )
    return tally.report(len(gold), missing)


def _units(spans: Iterable[Span], text_len: int, where: str) -> list[_Unit]:
    units = sorted((s.start, s.end, s.type) for s in spans)
    bad = next((u for u in units if u[1] > text_len), None)
    if bad is not None:
        raise EvalInputError(f"{where}: span {bad[0]}:{bad[1]} outside the text (length {text_len})")
    return units


def _strict_matches(a: list[_Unit], b: list[_Unit]) -> list[list[PhiType]]:
    """For each unit of ``a``, the types of the units of ``b`` with the same offsets."""
    index: dict[tuple[int, int], list[PhiType]] = {}
    for s, e, t in b:
        index.setdefault((s, e), []).append(t)
    return [index.get((s, e), []) for s, e, _ in a]


def _end2_matches(a: list[_Unit], b: list[_Unit]) -> list[list[PhiType]]:
    index: dict[int, list[tuple[int, PhiType]]] = {}
    for s, e, t in b:
        index.setdefault(s, []).append((e, t))
    return [[t for e2, t in index.get(s, ()) if abs(e2 - e) <= 2] for s, e, _ in a]


def _overlap_matches(a: list[_Unit], b: list[_Unit]) -> list[list[PhiType]]:
    """For each unit of ``a``, the types of the units of ``b`` sharing at least one character.

    ``b`` is sorted by start, so the candidates for ``[s, e)`` start in ``[s - longest + 1, e)``.
    """
    if not b:
        return [[] for _ in a]
    starts = [u[0] for u in b]
    longest = max(u[1] - u[0] for u in b)
    out: list[list[PhiType]] = []
    for s, e, _ in a:
        lo = bisect_right(starts, s - longest)
        hi = bisect_left(starts, e)
        out.append([b[k][2] for k in range(lo, hi) if b[k][1] > s])
    return out


def _token_units(text: str, gold: list[_Unit], pred: list[_Unit]) -> tuple[list[_Unit], list[_Unit]]:
    """Label word tokens from the spans; returns the gold-labelled and the predicted-labelled tokens."""
    if not gold and not pred:
        return [], []
    tokens = scored_tokens(text)
    starts = [t.start for t in tokens]
    ends = [t.end for t in tokens]

    def label(spans: list[_Unit]) -> list[_Unit]:
        labels: dict[int, PhiType] = {}
        for s, e, t in spans:  # sorted by start: the earliest-starting covering span wins
            for k in range(bisect_right(ends, s), bisect_left(starts, e)):
                labels.setdefault(k, t)
        return [(starts[k], ends[k], t) for k, t in sorted(labels.items())]

    return label(gold), label(pred)


def _labels_at(a: list[_Unit], b: list[_Unit]) -> list[PhiType | None]:
    """For each token of ``a``, its label in ``b`` (token sets share offsets, each token at most once)."""
    index = {(s, e): t for s, e, t in b}
    return [index.get((s, e)) for s, e, _ in a]


class _Tally:
    """Per (level, row) counts: gold units, gold found, predicted units, predictions correct."""

    def __init__(self) -> None:
        self._counts: dict[tuple[Level, _RowKey], list[int]] = {}
        self._entities: dict[_RowKey, list[int]] = {}

    def count_entities(self, gold: list[_Unit], pred: list[_Unit]) -> None:
        for side, units in ((0, gold), (1, pred)):
            for _, _, t in units:
                for row in _rows(t):
                    self._entities.setdefault(row, [0, 0])[side] += 1

    def score(
        self,
        level: Level,
        gold: list[_Unit],
        pred: list[_Unit],
        gold_matches: list[list[PhiType]],
        pred_matches: list[list[PhiType]],
    ) -> None:
        """``gold_matches[i]``: types of the predicted units matching ``gold[i]``; ``pred_matches`` likewise."""
        for side, units, matches in ((0, gold, gold_matches), (2, pred, pred_matches)):
            for (_, _, t), other in zip(units, matches, strict=True):
                cat = t.category
                for row in _rows(t):
                    kind = row[0]
                    if kind == "binary":
                        hit = bool(other)
                    elif kind == "category":
                        hit = any(o.category is cat for o in other)
                    else:
                        hit = t in other
                    c = self._counts.setdefault((level, row), [0, 0, 0, 0])
                    c[side] += 1
                    c[side + 1] += hit

    def report(self, documents: int, missing: int) -> EvalReport:
        keys = [_ALL, _HIPAA]
        for cat in PhiCategory:
            if ("category", cat.value) in self._entities:
                keys.append(("category", cat.value))
                keys.extend(
                    ("type", t.value)
                    for t in PhiType
                    if t.category is cat and ("type", t.value) in self._entities
                )
        rows = []
        for key in keys:
            g, p = self._entities.get(key, (0, 0))
            metrics = {lv: Metrics.from_counts(*self._counts.get((lv, key), (0, 0, 0, 0))) for lv in LEVELS}
            rows.append(RowResult(name=key[1], kind=key[0], gold=g, predicted=p, **metrics))
        return EvalReport(rows=tuple(rows), documents=documents, documents_without_predictions=missing)


def _rows(t: PhiType) -> tuple[_RowKey, ...]:
    return _ROWS[t]


_ROWS: dict[PhiType, tuple[_RowKey, ...]] = {
    t: ((_ALL, _HIPAA) if t.hipaa else (_ALL,)) + (("category", t.category.value), ("type", t.value))
    for t in PhiType
}
