"""Staff initials and short staff names that the tagger misses: typist initials ending a line, initials
before a credential, and lower-case initials or names right after a staff role word. Initials closing a
line (the note's last, a signing dash, log entries, a column of them) are ``line_end_initials``.

* **Author/typist initials at a line's end** (``...DPM   RO/mt``, ``prescriber 3/11. DW / OF``,
  ``Ph.D.  /  rs:cy``): both halves are staff; after a column gap, a sentence's end or a slash.
  ``signoff_dictation`` takes them alone on their line.
* **A dictation mark opening a line** (``OBS/mk   dictated 2/3/26``, ``-- IF/bk``): the author's capitals
  and the typist's lower case, alone on the line or before a gap or the dictation's word.
* **Initials before a credential** (``ANB, IBCLC``): two to four letters in one case.
* **A dated dash signature** (``-- AW 04/23/2026``, ``-- OF RN  3/12/26``): capitals after a dash opening a
  line, a credential perhaps, then the date.
* **Opening a log entry** (``03/02 HV: Ms. Lowry lost her ride``): capitals and a colon after the entry's
  date or time at a line's start.
* **Owning an action item** is ``action_items``.
* **Signing an entry** (``ECH - signed 11/20/25``, ``SDA - documented``, ``Documented by RDI 11/22/25``,
  ``written by AN;``): capitals at a line's start before a signing verb, or after "<verb> by".
* **A signing field** (``Signed: HK /``, ``attestation: KM``, ``asst: DM``): capitals after a signing or
  assisting label and its colon (``initial_labels``).
* **The last line's pair** (``SH/TO``, ``-- ME / th``, ``od/kmt`` ending the note): both halves staff,
  even in capitals, when one of them at least is no abbreviation.
* **After a discipline, in parentheses** (``OT (PR):``, ``SLP (HM)``): a team conference's members,
  capitals only; a test or a unit in parentheses (``PT (INR)``) is no initials.
* **After a role word** (``RN jt``, ``scribe g.wu``, ``Extern: j. marchetti``, ``cosigned 3/22 ra``):
  lower-case initials, or an initial and a surname, ending the phrase; a login there (``scribe:
  ncabral``: an initial or two and a listed surname, no word or name itself) is a USERNAME.

All typed DOCTOR (staff). Guards: a credential, unit or clinical abbreviation is no initials (``RN/BSN``,
``mg/dL``, ``PO/IV``, ``MSN, RN``), a mixed-case half is a credential (``AuD / jm``), two ordinary
words are a choice (``yes/no``, ``he/him``), and after a role an ordinary word is the sentence going on
(``RN aware``, ``tech ok.``) unless a credential follows it.
"""

from __future__ import annotations

import re
from functools import cache

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import letter_start, phrase_start
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_SCORE = 0.75


@cache
def credential_words() -> frozenset[str]:
    """Credentials and the other never-a-name words written after a signature (``RN``, ``MSW``, ``PhD``),
    lower case."""
    cues = load_lexicons().cues
    return cues["credentials"] | cues["not_names"]


def _one_case(part: str) -> bool:
    return part.isupper() or part.islower()


def not_initials(part: str) -> bool:
    """A unit, route or abbreviation (any case), or a credential written in capitals (``RN``; a
    lower-case ``np`` may be someone's initials)."""
    low = part.lower()
    cues = load_lexicons().cues
    if part.islower() and low in cues["function_words"]:
        return True  # "RN on", "tech in"; "DW / OF" are two people's initials
    return low in cues["not_initials"] or (not part.islower() and low in credential_words())


@cache
def _signature() -> re.Pattern[str]:
    """A name's comma and a credential, any case (``Solberg, MD``, ``MLS(ASCP)``, ``PhD``;
    ``signature_credentials`` in cues.yaml); the caller refuses one in small letters."""
    creds = sorted(load_lexicons().cues["signature_credentials"], key=len, reverse=True)
    return re.compile(r",[ \t]*((?i:" + "|".join(re.escape(c) for c in creds) + r"))\b")


def _typist_pair(text: str, m: re.Match[str]) -> bool:
    a, b = m.group("a"), m.group("b")
    line_start = text.rfind("\n", 0, m.start()) + 1
    # a credential as written, not a lower-case word ("if so, do NOW/it" is no signature)
    signed = any(not c.group(1).islower() for c in _signature().finditer(text, line_start, m.start()))
    if signed and _one_case(a) and b.islower() and len(b) <= 3:
        # "N. Obi-Whitaker, MD, pathology fellow   NOW/it", "W. Verhoeven, MD -- WA/tv": on a signature's
        # line the author's and the typist's marks are initials even where they spell a word or a state.
        return True
    if m.groupdict().get("more") is not None:
        return False  # before a time or a parenthesis only on a signature's line ("AST/ALT (rising)")
    if not (_one_case(a) and _one_case(b)) or not_initials(a) or not_initials(b):
        return False
    if a.isupper() and b.isupper() and "/" in m.group(0).replace(" / ", ""):
        return False  # "AST/ALT", "CBC/LFT": paired tests; two people's capitals are spaced ("DW / OF")
    if a.islower() and b.isupper():
        return False  # the typist's initials come second, in lower case
    lex = load_lexicons()
    return not (lex.is_word(a) and lex.is_word(b))  # "yes/no": a choice, not two people


def _before_credential(text: str, m: re.Match[str]) -> bool:
    cred = m.group("c")
    if cred.islower() or cred.lower() not in credential_words():
        return False  # credentials are written in capitals ("IBCLC", "AuD")
    ini = m.group("i")
    if text[max(0, m.start() - 3) : m.start()].rstrip().endswith(","):
        return False  # "Rafaela Montenegro, MS, CGC": one of a list of credentials
    return _one_case(ini) and not not_initials(ini) and ini.lower() not in credential_words() and not load_lexicons().is_word(ini)


_CREDENTIAL_AFTER = re.compile(r"[ \t]*,[ \t]*([A-Za-z][A-Za-z\-]{1,8})\b")


def _after_role(text: str, m: re.Match[str]) -> bool:
    value = m.group("n")
    if text[max(0, m.start() - 3) : m.start()].rstrip().endswith(","):
        return False  # "Odile Varga, RN ov": the credential of the name before, not a role before a name
    if "." in value:
        return True  # "j. marchetti", "g.wu": an initial and a surname
    if not_initials(value) or value.lower() in credential_words():
        return False
    if not load_lexicons().is_word(value):
        return True
    if m.group("d"):
        return True  # "cosigned 3/22/2025 ra": a signature's date, then whose
    # "co-sign bac, CNM": an ordinary word that a credential follows is still initials.
    cred = _CREDENTIAL_AFTER.match(text, m.end())
    return cred is not None and not cred.group(1).islower() and cred.group(1).lower() in credential_words()


def _login_after_role(text: str, m: re.Match[str]) -> bool:
    return login_shaped(m.group("n"))


def login_shaped(token: str) -> bool:
    """A login: no word or name itself, and a surname the lists know once its digits and one or two
    leading initials are taken off (``ncabral``, ``lpham``, ``aokafor1``; not ``kelsey``)."""
    login = token.rstrip("0123456789")
    lex = load_lexicons()
    if lex.in_use(login) or lex.is_name(login) or login in credential_words():
        return False  # "RN kelsey": a name in small letters, left to the name readers; "rn cwon": a credential
    return any(login[k:] in lex.surnames for k in (1, 2) if len(login) - k >= 3)


def capital_initials(ini: str) -> bool:
    """Capitals that are no unit, credential or clinical abbreviation ("PR" a route, "INR" a test)."""
    cues = load_lexicons().cues
    return not (not_initials(ini) or ini.lower() in credential_words() or ini.lower() in cues["clinical_abbreviations"])


def _capital_group(text: str, m: re.Match[str]) -> bool:
    """The match's initials ``i`` (after a discipline, or signing an entry) pass ``capital_initials``."""
    return capital_initials(m.group("i"))


def _last_line_pair(text: str, m: re.Match[str]) -> bool:
    """Both halves in one case, and one at least no unit, credential or clinical abbreviation: the other
    is then initials too (``-- ME / th``, ``od/kmt``: an author and a typist sign together)."""
    a, b = m.group("a"), m.group("b")
    return all(_one_case(x) for x in (a, b)) and any(capital_initials(x) for x in (a, b))


_SIGNING_VERBS = (
    "documented", "entered", "written", "charted", "completed", "dictated", "transcribed", "typed", "scored", "read",
    "reviewed", "interpreted", "verified", "performed", "witnessed", "attested",
)  # fmt: skip


def _cue_start(key: str) -> str:
    """The phrases of one cue list of staff_marks.yaml, case-insensitive, after no word character or hyphen."""
    return phrase_start(load_lexicons().cues[key])


def staff_initial_patterns() -> list[Pattern]:
    return [
        Pattern(
            "staff_typist_line_end",
            # (the gap's first blank only: linear on long blank runs)
            # or after a signature's dash, and before a time, a date or a parenthesis on a signature's line
            r"(?m)(?:(?<![ \t])[ \t]{2,}|(?<![ \t])\t|[.;/][ \t]+|(?<=[ \t])-{1,2}[ \t]+)(?P<a>[A-Za-z]{2,4})(?:[ \t]*/[ \t]*|:)(?P<b>[A-Za-z]{2,4})"
            r"(?:\.?[ \t]*$|(?P<more>[ \t]+(?=\(|\d{1,2}[:/]\d)))",
            PhiType.DOCTOR,
            score=_SCORE,
            group="a",
            flags=0,
            validate=_typist_pair,
            extra_groups=(("b", PhiType.DOCTOR),),
            gate=("/", ":"),
        ),
        Pattern(
            "staff_typist_line_start",
            # "OBS/mk   dictated 2/3/26", "-- IF/bk": a dictation mark opening its line, the author's capitals
            # and the typist's lower case, then the line's end, a column gap or the dictation's word.
            r"(?m)^[ \t]*(?:-{1,2}[ \t]*)?(?P<a>[A-Z]{2,4})/(?P<b>[a-z]{2,3})"
            r"(?=[ \t]*$|[ \t]{2,}|[ \t]+(?i:dictated|transcribed|typed|d:|t:))",
            PhiType.DOCTOR,
            score=_SCORE,
            group="a",
            flags=0,
            validate=_typist_pair,
            extra_groups=(("b", PhiType.DOCTOR),),
            gate=("/",),
        ),
        Pattern(
            "staff_initials_credential",
            r"(?<![\w.'’\-/])(?P<i>[A-Za-z]{2,4}),[ \t]*(?P<c>[A-Za-z][A-Za-z\-]{1,8})\b",
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_before_credential,
            gate=(",",),
        ),
        Pattern(
            "staff_initials_dash_dated",
            # "-- AW 04/23/2026", "-- TEN  4/23/27 17:20", "-- OF RN  3/12/26": a dash opens a line, then
            # capitals, perhaps a credential, and the signature's date.
            r"(?m)^[ \t]*(?:-{1,2}|[—–])[ \t]*(?P<i>[A-Z]{2,3})(?:,?[ \t]+[A-Z][A-Za-z\-]{1,6})?[ \t]+\d{1,2}/\d{1,2}/\d{2,4}",
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_capital_group,
            gate=("-", "—", "–"),
        ),
        Pattern(
            "staff_initials_log_entry",
            # "03/02 HV: Ms. Lowry lost her ride", "0715 KM: handoff": initials opening a dated log entry.
            r"(?m)^[ \t]*(?:\d{1,2}/\d{1,2}(?:/\d{2,4})?[ \t]+)?(?:\d{1,2}:\d{2}|\d{4}|\d{1,2}/\d{1,2}(?:/\d{2,4})?)"
            r"[ \t]+(?P<i>[A-Z]{2,3})[ \t]*:",
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_capital_group,
            gate=(":",),
        ),
        Pattern(
            "staff_initials_signing",
            r"(?m)^[ \t]*(?P<i>[A-Z]{2,4})[ \t]*[-–—/][ \t]*"
            r"(?i:e-?signed|signed|documented|dictated|transcribed|entered|attested|authenticated)\b",
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_capital_group,
        ),
        Pattern(
            "staff_initials_signed_by",
            letter_start(_SIGNING_VERBS, r"\w") + r"[ \t]+(?i:by)[ \t]+"  # "signed by": signoffs.py
            r"(?P<i>[A-Z]{2,4})(?=[ \t]*(?:[.;,)]|$|[ \t]\d))",
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=re.MULTILINE,
            validate=_capital_group,
            gate=(" by",),
        ),
        # A form's signing field ("Signed: HK / RN educator", "Radiologist attestation: KM", "asst: DM").
        Pattern(
            "staff_initials_field",
            rf"{_cue_start('initial_labels')}[ \t]*:[ \t]*(?P<i>[A-Z]{{2,3}})"
            r"(?=[ \t]*(?:[.;,)/]|$)|[ \t]{2,}|[ \t]\d)",
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=re.MULTILINE,
            validate=_capital_group,
            gate=(":",),
        ),
        Pattern(
            "staff_pair_note_end",
            r"(?:\A|\n)[ \t]*(?:(?:-{1,2}|[—–])[ \t]*)?(?P<a>[A-Za-z]{2,4})[ \t]*/[ \t]*(?P<b>[A-Za-z]{2,4})\.?\s*\Z",
            PhiType.DOCTOR,
            score=_SCORE,
            group="a",
            flags=0,
            validate=_last_line_pair,
            extra_groups=(("b", PhiType.DOCTOR),),
            gate=("/",),
        ),
        Pattern(
            "staff_after_discipline",
            rf"{_cue_start('discipline_roles')}[ \t]*\((?P<i>[A-Z]{{2,3}})\)",
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_capital_group,
            gate=("(",),
        ),
        Pattern(
            "staff_initials_named",
            # "(initials RA)", "document reviewed, initialed MA": the word says they are initials, so
            # even a clinical abbreviation's or a credential's shape is someone's.
            r"\b(?i:initials|initialed|initialled)[ \t]*:?[ \t]+(?P<i>[A-Z]{2,4})(?![\w\-/])",
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            gate=("initial",),
        ),
        Pattern(
            "staff_after_role",
            rf"{_cue_start('initial_roles')}(?:[ \t]*:)?[ \t]+(?P<d>\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?[ \t]+)?"
            r"(?P<n>[a-z]{2,3}|[a-z]\.[ \t]?[a-z][a-z'’]+(?:-[a-z]+)?)(?=[ \t]*(?:[.,;)]|$))",
            PhiType.DOCTOR,
            score=_SCORE,
            group="n",
            flags=re.MULTILINE,
            validate=_after_role,
        ),
        Pattern(
            "staff_login_after_role",
            # "scribe: ncabral", "entered by mkowal": a login after a signing role, one letter or two and a
            # surname (or the surname alone) in small letters, no word.
            rf"{_cue_start('initial_roles')}(?:[ \t]*:)?[ \t]+(?P<n>[a-z]{{4,16}}\d{{0,3}})(?=[ \t]*(?:[.;)]|[ \t]{{2}}|$))",
            PhiType.USERNAME,
            score=_SCORE,
            group="n",
            flags=re.MULTILINE,
            validate=_login_after_role,
        ),
    ]
