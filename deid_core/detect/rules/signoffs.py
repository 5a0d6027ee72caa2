"""Sign-offs: the author's initials or name at the end of an entry (``-- jmw``, ``HE/md``, ``/ss/ R. Patel``).

Typed DOCTOR: initials in a sign-off stand for a clinician's name (as the corpus and the hand-written
set's guideline annotate them). A single dash is a list mark ("- no"), so bare initials need two dashes, a dash-like rule or a
slash before them, alone at the end of their line, or a column gap after a credential or role that
ends a signature (``Ada Quist, RN      aq``). A signature legend line pairs a writer's initials with their
login or name (``MAK   mabou-khalil``, ``kb -- kiera beaudoin rn``), and initials after a double dash
before a credential sign an entry (``-- OF RN, night shift``), whatever word their letters spell.
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from deid_core.lexicon import load_lexicons
from schemas import PhiType

# The credentials that close a signature (one list for the patterns that read one).
_CREDENTIALS = r"RN|MD|DO|NP|PA-C|PA|LPN|BSN|CNA|DPT|PT|OTR/L|OT|SLP|MSW|LCSW|RD|RRT|PharmD|CPhT|EMT|ATC"


def _legend_of_the_writer(text: str, m: re.Match[str]) -> bool:
    """The letters are the writer's: a login that opens with them and ends in a listed surname
    (``MAK   mabou-khalil``, ``ME   mebanks``), or names whose initials they are (``kb -- kiera
    beaudoin rn``). Not an abbreviation before a word or a drug (``ED   education``, ``IV   ivermectin``)."""
    ini = m.group("i").lower()
    words = m.group("w").split()
    lex = load_lexicons()
    if len(words) == 1:
        login = words[0].rstrip("0123456789")
        tails = (login[1:], login[2:], *login.split("-")[1:])
        return login.startswith(ini[:2]) and not lex.in_use(login) and any(
            len(t) > 2 and t in lex.surnames for t in tails
        )
    names = words[: len(ini)]
    return (
        len(names) == len(ini)
        and "".join(w[0] for w in names) == ini
        and all(lex.is_name(w) or not lex.in_use(w) for w in names)
        and not all(lex.is_word(w) for w in names)
    )


def _no_role(text: str, m: re.Match[str]) -> bool:
    """Not a credential's or a discipline's letters (``RN``, ``PT``, ``SW``)."""
    low = m.group(1).lower()
    return low not in load_lexicons().cues["discipline_roles"] and low not in load_lexicons().cues["credentials"]


def _login_of_the_name(text: str, m: re.Match[str]) -> bool:
    """The login holds the name's surname (``tvasilescu -- T. Vasilescu RN``)."""
    surname = m.group("name").split()[-1].split(".")[-1].lower()
    return len(surname) > 2 and surname in m.group("u")


def _login(text: str, m: re.Match[str]) -> list[tuple[int, int, PhiType]]:
    if " " in m.group("w") or "\t" in m.group("w"):
        return []  # a name: the name detectors type it
    return [(m.start("w"), m.end("w"), PhiType.USERNAME)]


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
            rf"(?m)\b(?:{_CREDENTIALS}"
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
        # A signature legend line: the initials open it, then a column gap or a dash and the writer's login
        # (perhaps named so) or lower-case name ("MAK   mabou-khalil", "PNS   login pnakamura", "kb -- kiera
        # beaudoin rn  kbeaudoin").
        Pattern(
            "signoff_legend_line",
            r"(?m)^[ \t]*(?P<i>[A-Z]{2,3}|[a-z]{2,3})(?:[ \t]{2,}|\t|[ \t]+-{1,2}[ \t]+)(?:(?i:login|user|id)[ \t]*:?[ \t]+)?"
            r"(?P<w>[a-z][a-z'’\-]*[a-z]\d{0,2}(?:[ \t][a-z][a-z'’\-]*[a-z]){0,2})(?=[ \t]|$)",
            PhiType.DOCTOR,
            score=0.75,
            group="i",
            flags=0,
            validate=_legend_of_the_writer,
            extra_spans=_login,
            gate=("  ", "\t", "-"),
        ),
        # A login opening a legend line before its owner's name ("tvasilescu -- T. Vasilescu RN").
        Pattern(
            "signoff_login_legend",
            r"(?m)^[ \t]*(?P<u>[a-z][a-z\-]{3,}\d{0,2})[ \t]+(?:-{1,2}|[—–=:])[ \t]+"
            r"(?P<name>(?:[A-Z][a-z'’\-]+|[A-Z]\.)[ \t]*[A-Z][a-z'’\-]+)",
            PhiType.USERNAME,
            score=0.8,
            group="u",
            flags=0,
            validate=_login_of_the_name,
            gate=("-", "—", "–", "=", ":"),
        ),
        # Capitals alone on their line before a date and perhaps a time sign an entry ("IS 02/17/2026 15:40"),
        # even when their letters spell a word; not a role's or a credential's ("RN 02/17/2026").
        Pattern(
            "signoff_initials_dated",
            r"(?m)^[ \t]*([A-Z]{2,3})[ \t]+\d{1,2}/\d{1,2}/\d{2,4}(?:[ \t]+\d{1,2}:?\d{2})?[ \t]*$",
            PhiType.DOCTOR,
            score=0.75,
            group=1,
            flags=0,
            validate=_no_role,
            gate=("/",),
        ),
        # Initials after a double dash and before a credential sign an entry ("-- OF RN, night shift"),
        # even when their letters spell a word.
        Pattern(
            "signoff_initials_credential",
            rf"(?m)^[ \t]*(?:-{{2,}}|[—–])[ \t]*([A-Z]{{2,3}})[ \t]*,?[ \t]+(?:{_CREDENTIALS})\b",
            PhiType.DOCTOR,
            score=0.8,
            group=1,
            flags=0,
            gate=("--", "—", "–"),
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
