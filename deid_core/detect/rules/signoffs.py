"""Sign-offs: the author's initials or name at the end of an entry (``-- jmw``, ``HE/md``, ``/ss/ R. Patel``).

Typed DOCTOR: initials in a sign-off stand for a clinician's name (as the corpus and the hand-written
set's guideline annotate them). A single dash is a list mark ("- no"), so bare initials need two dashes, a dash-like rule or a
slash before them, alone at the end of their line, or a column gap after a credential or role that
ends a signature (``Ada Quist, RN      aq``).
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from schemas import PhiType


def signoff_patterns() -> list[Pattern]:
    return [
        Pattern(
            "signoff_initials",
            r"(?m)^[ \t]*(?:-{2,}|[—–]|/)[ \t]*([A-Za-z]{2,4})\.?[ \t]*$",
            PhiType.DOCTOR,
            score=0.8,
            group=1,
            flags=0,
            gate=("-", "/", "—", "–"),
        ),
        # Dictation initials: author/typist ("HE/md", "JS/kl") alone on a line.
        Pattern(
            "signoff_dictation",
            r"(?m)^[ \t]*([A-Z]{2,4}/[a-z]{2,4})[ \t]*$",
            PhiType.DOCTOR,
            score=0.8,
            group=1,
            flags=0,
            gate=("/",),
        ),
        # Initials after a label that says whose they are ("Dictated: RA/mq", "Signatures: JB / KT",
        # "Histotech: rk."), ending the phrase; not a title or a yes/no answer.
        Pattern(
            "signoff_labelled_initials",
            r"(?mi:\b(?:dictated|transcribed|typed|signatures?|initials|histotech|scribe)[ \t]*:[ \t]*)"
            r"(?!(?i:no|yes|na|dr|mr|ms|mrs|md|rn|pa|np)\b)(?P<a>[A-Za-z]{2,3})"
            r"(?:[ \t]*/[ \t]*(?!(?i:no|yes|na|dr|mr|ms|mrs|md|rn|pa|np)\b)(?P<b>[A-Za-z]{2,3}))?"
            r"(?=[ \t]*(?:[.;,]|$|[ \t]{2,}))",
            PhiType.DOCTOR,
            score=0.75,
            group="a",
            flags=0,
            extra_groups=(("b", PhiType.DOCTOR),),
            gate=("dictated", "transcribed", "typed", "signature", "initials", "histotech", "scribe"),
        ),
        # Initials at the end of a signature line, set apart by a column gap after the writer's
        # credential or role ("Ada Quist, RN      aq"): the writer's own initials, not a dose route.
        Pattern(
            "signoff_after_credential",
            r"(?m)\b(?:RN|MD|DO|NP|PA-C|PA|LPN|BSN|CNA|DPT|PT|OTR/L|OT|SLP|MSW|LCSW|RD|RRT|PharmD|CPhT|EMT|ATC"
            r"|(?i:nurse|paramedic|therapist|pharmacist|social worker))(?:[ \t]*\t[ \t]*| {3,})([a-z]{2,3})[ \t]*$",
            PhiType.DOCTOR,
            score=0.75,
            group=1,
            flags=0,
            gate=("   ", "\t"),
        ),
        # Initials in capitals right after "Signed" / "Co-signed by" with no colon, before the date, the
        # time or the end of the phrase ("Signed JRK 03/02/2024 14:10"); not a credential ("Signed MD").
        Pattern(
            "signoff_signed_initials",
            r"\b(?:[Ss]igned|SIGNED|[Cc]o-?signed|[Ii]nitialed)(?:[ \t]+by)?[ \t]+"
            r"(?!(?:MD|DO|RN|NP|PA|DR|MR|MS|LPN|APRN|CNM|CRNA|PT|OT|EMT|ATC|SLP)\b)([A-Z]{2,3})"
            r"(?=[ \t]*(?:[.;,]|$|[ \t]\d))",
            PhiType.DOCTOR,
            score=0.75,
            group=1,
            flags=re.MULTILINE,
            gate=("signed", "initialed"),
        ),
        Pattern(
            "signoff_signed",
            r"/s{1,2}/[ \t]*([A-Z][A-Za-z'’\-]*\.?(?:[ \t]+[A-Z][A-Za-z'’\-]*\.?){0,3})",
            PhiType.DOCTOR,
            score=0.85,
            group=1,
            flags=0,
            gate=("/s",),
        ),
    ]
