"""Contacts written to dodge pattern matching, and handles: spelled-out numbers, ``name at example dot
com``, extensions and pagers on their own, user names and social handles."""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import followed_by_unit, letter_start
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_DIGIT_WORDS = ("zero", "oh", "o", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_DIGIT_WORD = f"(?:{'|'.join(_DIGIT_WORDS)})"
# The first digit word after no letter, spelled to open with a character class (a scan then skips to its
# letters; the whole pattern in IGNORECASE would not).
_FIRST_DIGIT_WORD = letter_start(_DIGIT_WORDS, "A-Za-z")
_TLD = r"(?:com|net|org|edu|gov|us|io|info|biz|co|uk|ca|me|health)"
_AT = r"(?:\s*[\(\[\{]\s*at\s*[\)\]\}]\s*|\s+at\s+)"
_DOT = r"(?:\s*[\(\[\{]\s*dot\s*[\)\]\}]\s*|\s+dot\s+)"


_NUMBER_BEFORE = re.compile(r"\d[\s,;()\-]*$")


def _bare_extension(text: str, m: re.Match[str]) -> bool:
    """An extension on its own: not a dose ("x100 mg") and not the tail of a full number, which the
    phone pattern covers ("(617) 555-0100 ext. 4521")."""
    if followed_by_unit(text, m.end()):
        return False
    return _NUMBER_BEFORE.search(text, max(0, m.start() - 4), m.start()) is None


# What marks the next token as the value given for the cue, rather than the sentence going on.
_VALUE_SEPARATOR = re.compile(r"[:=#\"'“]|\b(?:is|was)\b", re.IGNORECASE)


def _cued_username(text: str, m: re.Match[str]) -> bool:
    """A dictionary word straight after the cue is the sentence going on ("Remote login recorded
    from ...", "login failed twice"), not a handle; it counts only when a separator says it is the
    value ("login: admin", "user name is 'nurse'"). Handles with digits or no dictionary entry
    ("jdoe42", "mkowalski") are kept either way."""
    if _no_word(m.group(1)):
        return True
    return _VALUE_SEPARATOR.search(text, m.start(), m.start(1)) is not None


def _no_word(value: str) -> bool:
    """One with a digit, a dot or an underscore, or a run of letters no word list knows ("cmorrow")."""
    return not value.isalpha() or not load_lexicons().is_word(value)


def _login_shaped(text: str, m: re.Match[str]) -> bool:
    """A login's shape: a digit or a dot in it, or an initial or a first name before a listed surname
    (``dmercier``, ``lukaslind``), and no word of the dictionary or the wider vocabulary."""
    user = m.group("u")
    lex = load_lexicons()
    if len(user) < 5 or lex.in_use(user) or user in lex.first_names or user in lex.cities:
        return False
    if any(c.isdigit() for c in user) or "." in user:
        return True
    return any(
        user[k:] in lex.surnames and not lex.is_word(user[k:]) and (k == 1 or (k >= 3 and user[:k] in lex.first_names))
        for k in range(1, len(user) - 4)
    )


def _not_a_word(text: str, m: re.Match[str]) -> bool:
    """A handle is no dictionary word ("signed today 3/4")."""
    return _no_word(m.group("u"))


def _after_credential(text: str, m: re.Match[str]) -> bool:
    """``Osei, RN, CCRC (wosei)``: the parenthesis follows a credential, so it holds the person's
    login, not a word of the sentence."""
    return m.group("cred").lower() in load_lexicons().cues["not_names"] and _not_a_word(text, m)


def _handle_shaped(text: str, m: re.Match[str]) -> bool:
    """``tad_kb79``, ``j_ortiz_88``: a part that mixes letters and digits, or three parts or more; not a
    label and its number (``covid_19``, ``icd_10``)."""
    parts = m.group("u").split("_")
    return len(parts) >= 3 or any(p[:1].isalpha() and any(ch.isdigit() for ch in p) for p in parts)


def obfuscated_patterns() -> list[Pattern]:
    return [
        # Seven or more digit words in a row ("four one three, five five five, oh one two two").
        Pattern(
            "phone_spelled",
            rf"{_FIRST_DIGIT_WORD}(?i:(?:[\s,\-.]+{_DIGIT_WORD}){{6,}})(?![A-Za-z])",
            PhiType.PHONE,
            score=0.85,
            flags=0,
            gate=("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "zero"),
        ),
        Pattern(
            "email_spelled",
            rf"(?<![\w.+\-])[A-Za-z0-9][A-Za-z0-9._%+\-]*{_AT}[A-Za-z0-9\-]+(?:{_DOT}[A-Za-z0-9\-]+)*{_DOT}{_TLD}(?![A-Za-z])",
            PhiType.EMAIL,
            score=0.85,
            gate=("dot",),
        ),
        # An extension or pager number without the main number ("x2291", "ext 221", "pager 4417").
        Pattern(
            "extension",
            r"(?<![A-Za-z0-9])(?:x\d{3,5}|(?:ext|extension)\.?\s*(?:#\s*)?\d{2,5})(?![\d\-])",
            PhiType.PHONE,
            score=0.8,
            validate=_bare_extension,
            # A service's extension in passing ("Cardiology (ext. 4521) was consulted") is the
            # hospital's, not a person's contact: only one given as a way to reach someone counts.
            context=("call", "called", "phone", "tel", "reach", "reached", "at", "contact", "number", "line",
                     "cell", "work", "home", "mobile", "voicemail", "vm", "callback", "direct", "desk"),
            context_required=True,
            context_window=30,
            gate=("x", "ext"),
        ),
        Pattern(
            "pager",
            r"(?<![A-Za-z])(?:pager|pgr|beeper|bpr)\s*(?:#|no\.?|number)?\s*:?\s*(\d{3,7})(?![\d\-])",
            PhiType.PHONE,
            score=0.85,
            group=1,
            gate=("pager", "pgr", "beeper", "bpr"),
        ),
        Pattern(
            "handle",
            r"(?<![\w.@])@[A-Za-z][A-Za-z0-9_.]{2,30}(?<!\.)",
            PhiType.USERNAME,
            score=0.8,
            flags=0,
            gate=("@",),
        ),
        # "app user rosario.q.67", "handle moth_and_ember": after a bare "user" or "handle" only a value
        # shaped like a handle (a dot, an underscore or a digit inside letters), not "user reports".
        Pattern(
            "username_after_user",
            r"(?<![A-Za-z])(?i:user|handle)[ \t]+(?P<u>[A-Za-z][A-Za-z0-9]+(?:[._][A-Za-z0-9]+)+|[A-Za-z]+\d[A-Za-z0-9_]*)"
            r"(?![\w@]|[.\-]\w)",
            PhiType.USERNAME,
            score=0.75,
            group="u",
            flags=0,
            gate=("user", "handle"),
        ),
        # "Signed cmorrow 08/09/2024 12:40": a sign-off by login, in lower case, before its date or time.
        Pattern(
            "username_signed",
            r"(?<![A-Za-z])(?i:e-?signed|signed|authenticated)(?:[ \t]+by)?:?[ \t]+(?P<u>[a-z][a-z0-9._]{2,20})"
            r"(?=[ \t]+\d)",
            PhiType.USERNAME,
            score=0.75,
            group="u",
            flags=0,
            validate=_not_a_word,
            gate=("signed", "authenticated"),
        ),
        # "Submitted 03/07/2026 04:52 by gkiplagat", "Reply 11/3 15:10 from dmercier:": a login after "by" or
        # "from", shaped like one (an initial or a first name joined to a listed surname, or a digit in it).
        Pattern(
            "username_by",
            r"(?<![A-Za-z])(?:by|from)[ \t]+(?P<u>[a-z][a-z0-9_]{1,20}(?:\.[a-z0-9_]+)*)(?=[ \t]*(?:[.:,;)](?!\w)|$)|[ \t]\d)",
            PhiType.USERNAME,
            score=0.7,
            group="u",
            flags=re.MULTILINE,
            validate=_login_shaped,
            gate=("by ", "from "),
        ),
        # "Wilhelmina Osei, RN, CCRC (wosei)": a login in parentheses after a signature's credential.
        Pattern(
            "username_after_credential",
            r"\b(?P<cred>[A-Z][A-Za-z]{1,5})[ \t]*\((?P<u>[a-z][a-z0-9._]{2,20})\)",
            PhiType.USERNAME,
            score=0.75,
            group="u",
            flags=0,
            validate=_after_credential,
            gate=("(",),
        ),
        # "tad_kb79 messaged": lower-case letters joined by an underscore, with a digit: a handle's shape.
        Pattern(
            "username_snake",
            r"(?<![\w.@/\-])(?P<u>[a-z]+_[a-z0-9_]*\d[a-z0-9_]*)(?![\w@]|[.\-]\w)",
            PhiType.USERNAME,
            score=0.7,
            group="u",
            flags=0,
            validate=_handle_shaped,
            gate=("_",),
        ),
        Pattern(
            "username_cued",
            r"(?<![A-Za-z])(?:user\s?name|user\s?id|login|log-in|screen\s?name|portal\s+(?:user\s?name|user\s?id|user|id|account))"
            r"\s*(?:is|was|of|used)?\s*[:=#]?\s*[\"'“]?([A-Za-z0-9][A-Za-z0-9_.\-]{2,30})(?<![.\-])",
            PhiType.USERNAME,
            score=0.8,
            group=1,
            validate=_cued_username,
            gate=("user", "login", "log-in", "screen", "portal"),
        ),
    ]
