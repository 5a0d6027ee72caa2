"""The ``lexicon`` detector: people, places, organisations, professions, transcript speakers and the
people of tables' person columns, found from cue words and the shared lexicons (``deid_core.lexicon``),
for the PHI that neither the header nor the rules know.

Its spans carry the source ``lexicon``, which the merger ranks below the tagger: where both found the
same words, the tagger's type wins; where only the lexicon did, the words are still covered (union).
"""

from __future__ import annotations

from dataclasses import dataclass

from deid_core.detect.lexical.attendees import AttendeeDetector
from deid_core.detect.lexical.people import PeopleDetector
from deid_core.detect.lexical.person_columns import PersonColumnDetector
from deid_core.detect.lexical.places import PlacesDetector
from deid_core.detect.lexical.professions import ProfessionDetector
from deid_core.detect.lexical.speakers import SpeakerDetector
from deid_core.detect.lexical.tokens import TokenView
from deid_core.lexicon import Lexicons, load_lexicons
from schemas import EnrichedNote, Span

SOURCE = "lexicon"


@dataclass(frozen=True, slots=True)
class LexiconDetector:
    people: PeopleDetector
    places: PlacesDetector
    professions: ProfessionDetector
    speakers: SpeakerDetector
    columns: PersonColumnDetector
    attendees: AttendeeDetector
    name: str = SOURCE

    def detect(self, note: EnrichedNote) -> list[Span]:
        if not note.text:
            return []
        view = TokenView(note.text)  # tokenised once for the three that read tokens
        spans = [
            *self.people.spans(view), *self.places.spans(view), *self.professions.spans(view),
            *self.speakers.spans(note.text), *self.columns.spans(note.text),
            *self.attendees.spans(note.text),
        ]
        return sorted(spans, key=lambda s: (s.start, s.end, s.type.value))


def build_lexicon_detector(lexicons: Lexicons | None = None) -> LexiconDetector:
    lex = load_lexicons() if lexicons is None else lexicons
    return LexiconDetector(
        PeopleDetector(lex), PlacesDetector(lex), ProfessionDetector(lex), SpeakerDetector(lex), PersonColumnDetector(lex),
        AttendeeDetector(lex),
    )


__all__ = ["SOURCE", "LexiconDetector", "build_lexicon_detector"]
