"""Evaluation of PHI detection against gold annotations (the library behind ``deid eval``).

Load gold with :func:`load_gold` (JSONL, i2b2 2014 or 2006 XML) and predictions with
:func:`load_predictions`, then :func:`evaluate`. Scoring definitions are in :mod:`deid_tools.eval.scoring`.
"""

from deid_tools.eval.gold import load_gold, load_predictions, read_gold
from deid_tools.eval.i2b2 import I2B2_2006_TYPES
from deid_tools.eval.model import EvalInputError, GoldDoc, GoldSet
from deid_tools.eval.report import LEVELS, EvalReport, Metrics, RowResult
from deid_tools.eval.scoring import evaluate
from deid_tools.eval.tokens import Token, scored_tokens, tokenize

__all__ = [
    "I2B2_2006_TYPES",
    "LEVELS",
    "EvalInputError",
    "EvalReport",
    "GoldDoc",
    "GoldSet",
    "Metrics",
    "RowResult",
    "Token",
    "evaluate",
    "load_gold",
    "load_predictions",
    "read_gold",
    "scored_tokens",
    "tokenize",
]
