"""A table's signer column: initials in the cells under a header that says who did it.

Flowsheets, logs and audit tables end each row with who did it (``| by |``, ``| init |``, ``| RN |``),
and those cells hold initials, one or a few (``| OA, TV, security |``, ``| RA / CRNA Pham |``). Under
such a header the column is the evidence: a cell's part of two to four letters in one case is a staff
member's initials even when it spells a clinical abbreviation or a word elsewhere (``| AF |``,
``| RA |``, ``| xr |``, ``| ah |``), which the other initials rules refuse without it. Roles,
credentials, relations and function words in small letters are no initials there (``| RN |``, ``| PT |``,
``| mom |``, ``| and |``; in capitals a function word's letters are, ``| AT |``), nor the patient or nobody (``| pt |``, ``| none |``). A part with a digit and lower-case
letters is a login (``| jdelacruz2 |``). A capitalised word there is a person when it is a given name
or no dictionary word (``| Bo |``, ``| An |``, ``| Ximo |``; not ``| Security |``). DOCTOR.

Tables are read by ``deid_core.detect.tables``. Header words are data (``staff_marks.yaml``,
``signer_columns``).
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from deid_core.detect.rules.staff_initials import credential_words
from deid_core.detect.tables import header_of
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_SCORE = 0.75
# One part of a cell: after the cell's pipe or a separator inside it (",", "/", "&"), up to the next.
_PART = (
    r"(?m)(?:(?<=\|)|(?<=[,/&]))[ \t]*"
    r"(?P<i>[A-Za-z]{2,4}(?:-[A-Z])?|[A-Z][a-z]{1,11}|[a-z][a-z._]{1,15}\d{1,3})"
    r"[ \t]*(?=[|,/&]|$)"
)
_LOGIN = re.compile(r"[a-z][a-z._]{1,15}\d{1,3}")
# Values of a signer cell that name no one: the patient, nobody, not known.
_NOT_SIGNERS = frozenset({"pt", "self", "na", "none", "unk", "tbd", "yes", "no", "ok"})


def _signer_cell(text: str, m: re.Match[str]) -> bool:
    part = m.group("i")
    if _LOGIN.fullmatch(part) is None and not _signer_word(part):
        return False
    found = header_of(text, m.start("i"))
    if found is None:
        return False
    header, on_header = found
    return not on_header and header in load_lexicons().cues["signer_columns"]


def _signer_word(part: str) -> bool:
    """Initials in one case, or a capitalised given name or word no dictionary knows (``| Bo |``,
    ``| An |``, ``| Ximo |``); not a role, credential, relation or the patient or nobody."""
    low = part.lower()
    lex = load_lexicons()
    cues = lex.cues
    if low in credential_words() or low in _NOT_SIGNERS or low in cues["discipline_roles"] or low in cues["relations"]:
        return False  # "| PT |", "| mom |": a role or who called, not who signed
    if part.isupper():
        return len(part) <= 4  # "| AT |", "| IS |": capitals under a signer's header, a word's letters or not
    if part.islower():
        return len(part) <= 4 and low not in cues["function_words"]
    return low in lex.first_names or not lex.is_word(low)  # "| Bo |", "| An |"; not "| Security |"


def _type_of(text: str, m: re.Match[str]) -> PhiType:
    return PhiType.USERNAME if _LOGIN.fullmatch(m.group("i")) else PhiType.DOCTOR


def signer_column_patterns() -> list[Pattern]:
    return [
        Pattern(
            "staff_signer_column",
            _PART,
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_signer_cell,
            resolve_type=_type_of,
            gate=("|",),
        ),
    ]
