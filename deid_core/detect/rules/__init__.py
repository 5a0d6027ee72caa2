"""Rule-based PHI detectors: dates, ages, contacts, SSNs, context-driven IDs and addresses.

``build_rule_detector()`` returns the ``rules`` detector. Its spans may overlap (a merger resolves
that); spans found by two patterns with the same offsets and type are reported once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deid_core.detect.base import Detector, Pattern, PatternDetector
from deid_core.detect.rules.action_items import action_item_patterns
from deid_core.detect.rules.ages import age_patterns, age_value
from deid_core.detect.rules.article_names import article_name_patterns
from deid_core.detect.rules.contact import contact_patterns
from deid_core.detect.rules.date_lists import date_list_patterns
from deid_core.detect.rules.dates import date_patterns
from deid_core.detect.rules.event_dates import event_date_patterns
from deid_core.detect.rules.ids import id_patterns
from deid_core.detect.rules.initials_legend import initials_legend_patterns
from deid_core.detect.rules.initials_lists import initials_list_patterns
from deid_core.detect.rules.line_end_initials import line_end_initial_patterns
from deid_core.detect.rules.location import location_patterns
from deid_core.detect.rules.login_cells import login_cell_patterns
from deid_core.detect.rules.obfuscated import obfuscated_patterns
from deid_core.detect.rules.plural_titles import plural_title_patterns
from deid_core.detect.rules.quoted_names import quoted_name_patterns
from deid_core.detect.rules.rooms import room_patterns
from deid_core.detect.rules.signer_columns import signer_column_patterns
from deid_core.detect.rules.signoffs import signoff_patterns
from deid_core.detect.rules.spoken_names import spoken_name_patterns
from deid_core.detect.rules.staff_initials import staff_initial_patterns
from deid_core.detect.rules.staff_names import staff_name_patterns
from deid_core.detect.rules.state_after_town import state_after_town_patterns
from deid_core.detect.rules.typed_columns import typed_column_patterns
from deid_core.detect.rules.union_locals import union_local_patterns
from deid_core.detect.rules.work_phrases import work_phrase_patterns
from schemas import EnrichedNote, Span

RULES_SOURCE = "rules"


def rule_patterns() -> list[Pattern]:
    """Every rule pattern, grouped by family (dates, ages, contact/SSN, spelled-out contacts, IDs, locations)."""
    return [
        *date_patterns(), *date_list_patterns(), *age_patterns(), *contact_patterns(), *obfuscated_patterns(), *id_patterns(), *location_patterns(),
        *signoff_patterns(), *staff_initial_patterns(), *action_item_patterns(), *login_cell_patterns(), *line_end_initial_patterns(), *signer_column_patterns(), *staff_name_patterns(), *plural_title_patterns(), *article_name_patterns(), *spoken_name_patterns(), *quoted_name_patterns(), *initials_list_patterns(), *initials_legend_patterns(), *room_patterns(), *event_date_patterns(),
        *state_after_town_patterns(), *work_phrase_patterns(), *union_local_patterns(), *typed_column_patterns(),
    ]


@dataclass(frozen=True, slots=True)
class RuleDetector:
    """A ``PatternDetector`` that reports each (start, end, type) once, with the best-scoring pattern."""

    name: str
    patterns: Sequence[Pattern]

    def detect(self, note: EnrichedNote) -> list[Span]:
        if not note.text:
            return []
        raw = PatternDetector(self.name, self.patterns).detect(note)
        best: dict[tuple[int, int, str], Span] = {}
        for span in raw:
            key = (span.start, span.end, span.type.value)
            kept = best.get(key)
            if kept is None or span.score > kept.score:
                best[key] = span
        return sorted(best.values(), key=lambda s: (s.start, s.end, s.type.value))


def build_rule_detector() -> Detector:
    """The ``rules`` detector used by the pipeline."""
    return RuleDetector(RULES_SOURCE, tuple(rule_patterns()))


__all__ = ["RULES_SOURCE", "RuleDetector", "age_value", "build_rule_detector", "rule_patterns"]
