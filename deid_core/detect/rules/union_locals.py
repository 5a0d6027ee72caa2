"""A trade union's local by its number (``union carpenter (Local 1127)``, ``drunk his way out of the
Local 417``, ``Cascade Meatcutters Local 12``): ORGANIZATION. ``Local`` capitalised before a number
names a union branch; in lower case it is the ordinary word (``local 2 cm margin``). The union's name
before it, when there is one, is the tagger's to find; the merge joins the two. A measure is no union
(``Local 2 cm margin`` opening a sentence)."""

from __future__ import annotations

from deid_core.detect.base import Pattern
from schemas import PhiType


def union_local_patterns() -> list[Pattern]:
    return [
        Pattern(
            "union_local",
            # not a measure opening a sentence ("Local 2 cm margin", "Local 1.5 cm flap")
            r"(?<![\w\-])Local[ \t]+\d{1,4}(?![\w/\-]|[.,]\d|[ \t]*(?:%|(?i:cm|mm|mg|mcg|ml|cc|g|kg|units?|x|hours?|hrs?|days?|weeks?|wks?|min)\b))",
            PhiType.ORGANIZATION,
            score=0.8,
            flags=0,
            gate=("local",),
        ),
    ]
