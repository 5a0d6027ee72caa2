"""Evaluation results: per-row, per-level metrics, a text table and a JSON form.

See :mod:`deid_tools.eval.scoring` for what the numbers mean.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from schemas import PhiCategory, PhiType

Level = Literal["token", "strict", "relaxed", "end2"]
LEVELS: tuple[Level, ...] = ("token", "strict", "relaxed", "end2")
LEVEL_TITLES: dict[Level, str] = {
    "token": "token",
    "strict": "strict",
    "relaxed": "relaxed (overlap)",
    "end2": "i2b2 (end+-2)",
}
RowKind = Literal["binary", "category", "type"]
NAN = float("nan")


@dataclass(frozen=True, slots=True)
class Metrics:
    """Counts and scores of one row at one level.

    ``tp`` counts gold units found and ``fn`` gold units missed; ``fp`` counts predicted units that
    match no gold unit. ``precision`` is computed on the prediction side (matched predictions / all
    predictions), so it equals ``tp / (tp + fp)`` only where matching is one-to-one. ``nan`` where
    undefined (no predictions, no gold); ``f1`` is 0 when either score is 0.
    """

    tp: int
    fp: int
    fn: int
    precision: float
    recall: float
    f1: float

    @classmethod
    def from_counts(cls, gold: int, found: int, predicted: int, correct: int) -> Metrics:
        precision = correct / predicted if predicted else NAN
        recall = found / gold if gold else NAN
        if precision == 0 or recall == 0:
            f1 = 0.0
        elif math.isnan(precision) or math.isnan(recall):
            f1 = NAN
        else:
            f1 = 2 * precision * recall / (precision + recall)
        return cls(
            tp=found, fp=predicted - correct, fn=gold - found, precision=precision, recall=recall, f1=f1
        )

    def to_json(self) -> dict[str, object]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": _num(self.precision),
            "recall": _num(self.recall),
            "f1": _num(self.f1),
        }


EMPTY = Metrics.from_counts(0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class RowResult:
    """One row: all PHI, the HIPAA subset, a category or a subtype. Counts are entity (span) counts."""

    name: str
    kind: RowKind
    gold: int
    predicted: int
    token: Metrics
    strict: Metrics
    relaxed: Metrics
    end2: Metrics

    def level(self, level: Level) -> Metrics:
        return getattr(self, level)  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class EvalReport:
    rows: tuple[RowResult, ...]
    """ALL, HIPAA, then every category and subtype present in gold or predictions, in taxonomy order."""
    documents: int
    documents_without_predictions: int

    def metric(self, level: str, row: str) -> Metrics:
        """``level`` in :data:`LEVELS`; ``row`` is ``ALL``, ``HIPAA``, a category or a subtype name.

        Categories win over the same-named subtype (AGE, DATE, PROFESSION), whose numbers are identical.
        A valid row with nothing in gold or predictions gives zero counts and ``nan`` scores.
        """
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
        kind, name = _row_key(row)
        for r in self.rows:
            if r.kind == kind and r.name == name:
                return r.level(level)  # type: ignore[arg-type]
        return EMPTY

    def format_table(self) -> str:
        """A fixed-width table; ``-`` marks undefined scores. Same-named subtype rows are folded into
        their category row; other subtypes are indented under their category."""
        name_w = max([len(r.name) + 2 for r in self.rows] + [8])
        cell_w = 6
        group_w = 3 * cell_w + 1
        lead = " " * (name_w + 14)
        head1 = lead + "".join(f" |{LEVEL_TITLES[lv]:>{group_w}}" for lv in LEVELS)
        head2 = f"{'row':<{name_w}}{'gold':>7}{'pred':>7}" + "".join(
            f" | {'P':>{cell_w}}{'R':>{cell_w}}{'F1':>{cell_w}}" for _ in LEVELS
        )
        lines = [head1, head2, "-" * len(head2)]
        for r in self.rows:
            if r.kind == "type" and r.name == PhiType(r.name).category.value:
                continue
            label = ("  " + r.name) if r.kind == "type" else r.name
            cells = "".join(
                " | " + "".join(f"{_fmt(v):>{cell_w}}" for v in (m.precision, m.recall, m.f1))
                for m in (r.level(lv) for lv in LEVELS)
            )
            lines.append(f"{label:<{name_w}}{r.gold:>7}{r.predicted:>7}{cells}")
        lines.append(
            f"documents: {self.documents} ({self.documents_without_predictions} without predictions); "
            "gold/pred are span counts; token scores are over word tokens"
        )
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        """JSON-ready dict; undefined scores are ``null``."""
        return {
            "documents": self.documents,
            "documents_without_predictions": self.documents_without_predictions,
            "levels": {lv: LEVEL_TITLES[lv] for lv in LEVELS},
            "rows": [
                {
                    "row": r.name,
                    "kind": r.kind,
                    "gold": r.gold,
                    "predicted": r.predicted,
                    **{lv: r.level(lv).to_json() for lv in LEVELS},
                }
                for r in self.rows
            ],
        }


def _row_key(row: str) -> tuple[RowKind, str]:
    name = row.strip().upper()
    if name in ("ALL", "HIPAA"):
        return "binary", name
    if name in PhiCategory.__members__:
        return "category", name
    try:
        return "type", PhiType.parse(name).value
    except ValueError:
        raise KeyError(f"unknown row {row!r}: expected ALL, HIPAA, a PHI category or a PHI subtype") from None


def _num(value: float) -> float | None:
    return None if math.isnan(value) else value


def _fmt(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.3f}"
