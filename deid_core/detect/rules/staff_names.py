"""Given names that no name list knows, found by where they are written: after a staff label and its
colon, before a credential, or in quotes after a naming word.

* **After a staff label** (``Nurse: Ama``, ``MA: Vy``, ``Scribe: Oyelaran (RN)``): one capitalised word
  ending the field (a column gap, the line's end, a semicolon or a parenthesis after it; not a language,
  ``Interpreter: Somali``). DOCTOR.
* **Before a credential** (``reviewed by Ama, RN``, ``Tuyet, LPN``): one capitalised word, a comma and a
  credential in capitals. DOCTOR.
* **In quotes after a naming word** (``called "An" by her parents``, ``name given: "Rocky"``,
  ``prefers "May"``) or before a legal name (``"Pops" (real name Harlan Mayweather)``): one
  capitalised word, or two or three capitals, in quotes. PATIENT (the person the note is about or one of theirs; span hygiene spreads the
  name to its other mentions).

* **Introducing oneself** (``Hi, it's Precious, the nurse``, ``this is Ty from transport``): one
  capitalised given name or unknown word after "this is" or "it's", before a comma, a full stop, a
  parenthesis or "from", "with", "calling". PATIENT; not a month or weekday (``it's Monday.``).

Guards: the word is no credential, title, language or abbreviation in capitals; after a label or before
a credential no function or ordinary word either (``Nurse: Present``, ``Reviewed, RN``; a name that is
also a word, ``Hope``, is left to the name detectors, which read it with its other evidence). After a
naming word the quotes are the evidence: ``"Rocky"`` is a name.
"""

from __future__ import annotations

import re
from functools import cache

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import phrase_alternatives
from deid_core.detect.rules.staff_initials import credential_words
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_SCORE = 0.7
# Staff labels of one word or two, not the cue verbs of the same list ("per", "paged", "seen by").
# "Pt:" is the patient's field, whose "LAST, FIRST" the name detectors read whole.
_NOT_LABELS = frozenset({"per", "paged", "covering", "on-call", "cc", "attn", "dr", "doctor", "pt"})


@cache
def _label_before() -> re.Pattern[str]:
    """A staff label ending right before a colon (searched in the text before it)."""
    cues = load_lexicons().cues
    labels = [w for w in cues["staff"] if w not in _NOT_LABELS and " by" not in w and " with" not in w]
    return re.compile(rf"(?<![\w\-])(?:{phrase_alternatives(frozenset(labels))})[ \t]*\Z", re.IGNORECASE)


def _after_label(text: str, m: re.Match[str]) -> bool:
    # The scan starts at the colon (rare, so fast); the label before it is checked here.
    return _label_before().search(text, max(0, m.start() - 40), m.start()) is not None and _unknown(text, m)


@cache
def _credentials() -> str:
    # Not the credentials that are also state codes: "Bethlehem, PA" is a town. Written in capitals here.
    cues = load_lexicons().cues
    creds = [c.upper() for c in credential_words() if c not in cues["ambiguous_state_codes"] and c != "dc"]
    creds.sort(key=len, reverse=True)
    return "|".join(re.escape(c) for c in creds)


def _no_name(word: str, *, quoted: bool = False) -> bool:
    """A credential, a title, an abbreviation written in capitals (``AMA``; ``Ama`` is a name) or, unless
    quoted after a naming word, a function word: never a given name."""
    cues = load_lexicons().cues
    low = word.lower()
    if low in credential_words() or low in cues["titles"] or low in cues["languages"]:
        return True
    if word.isupper() and (low in cues["clinical_abbreviations"] or low in cues["not_initials"]):
        return True
    return not quoted and low in cues["function_words"]


def _unknown(text: str, m: re.Match[str]) -> bool:
    """No ordinary word either (``Nurse: Present``, ``Reviewed, RN``)."""
    word = m.group("n")
    return not _no_name(word) and not load_lexicons().is_word(word)


def _quoted(text: str, m: re.Match[str]) -> bool:
    """After a naming word a quoted word is a name even when it is also a word (``"Rocky"``, ``"An"``)."""
    return not _no_name(m.group("n"), quoted=True)


_CALENDAR_WORD = re.compile(
    r"(?:Jan|Feb|Mar|Apr|May|June?|July?|Aug|Sept?|Oct|Nov|Dec|Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*"
)


def _introduced(text: str, m: re.Match[str]) -> bool:
    """``Hi, this is Precious, the nurse``: a given name (a word too, perhaps) or a word no dictionary
    knows; not a month or weekday (``it's Monday.``), a credential or an abbreviation."""
    word = m.group("n")
    if _no_name(word) or _CALENDAR_WORD.fullmatch(word):
        return False
    lex = load_lexicons()
    return word.lower() in lex.first_names or not lex.is_word(word)


def staff_name_patterns() -> list[Pattern]:
    return [
        Pattern(
            "staff_label_name",
            r":[ \t]*(?P<n>[A-Z][a-z]{1,12})(?=[ \t]*(?:$|[(;])|[ \t]{2,})",
            PhiType.DOCTOR,
            score=_SCORE,
            group="n",
            flags=re.MULTILINE,
            validate=_after_label,
            gate=(":",),
        ),
        Pattern(
            "staff_name_credential",
            rf"(?<![\w.'’\-])(?P<n>[A-Z][a-z]{{1,12}}),[ \t]*(?:{_credentials()})(?![\w\-])",
            PhiType.DOCTOR,
            score=_SCORE,
            group="n",
            flags=0,
            validate=_unknown,
            gate=(",",),
        ),
        Pattern(
            "quoted_given_name",
            r"(?i:\b(?:called|named|nicknamed|goes[ \t]+by|known[ \t]+as|aka|name[ \t]+given|prefers|preferred(?:[ \t]+name)?))[ \t]*(?::[ \t]*)?"
            r"[\"\u201c](?P<n>[A-Z][a-z]{1,14}|[A-Z]{2,3})[\"\u201d]",
            PhiType.PATIENT,
            score=_SCORE,
            group="n",
            flags=0,
            validate=_quoted,
            gate=("called", "named", "goes", "known", "aka", "name", "prefer"),
        ),
        Pattern(
            "self_introduction",
            # "Hi, this is Precious, the nurse from...", "it's Ty from transport": a caller names herself.
            r"(?i:\b(?:this[ \t]+is|it['\u2019]s|it[ \t]+is))[ \t]+(?P<n>[A-Z][a-z]{1,14})"
            r"(?=[ \t]*(?:[,.(;!]|(?i:from|with|at|calling|here)\b))",
            PhiType.PATIENT,
            score=_SCORE,
            group="n",
            flags=0,
            validate=_introduced,
            gate=("this is", "it's", "it is", "it\u2019s"),
        ),
        Pattern(
            "quoted_name_before_real_name",
            # '"Pops" (real name Harlan Mayweather)': a street or nick name, then the legal one.
            r"[\"\u201c](?P<n>[A-Z][a-z]{1,14}|[A-Z]{2,3})[\"\u201d][ \t]*\((?i:real|legal|given|birth)[ \t]+name\b",
            PhiType.PATIENT,
            score=_SCORE,
            group="n",
            flags=0,
            validate=_quoted,
            gate=("real name", "legal name", "given name", "birth name"),
        ),
    ]
