"""Families for people, places and contacts the header does not know, and the look-alikes beside them."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import cache

import pytest

from deid_tools.corpus import GoldNote, generate_notes
from deid_tools.corpus.generate import _new_faker, render_note
from deid_tools.corpus.kinds import community, messages
from deid_tools.corpus.pools import NICK_PAIRS, abbreviation, spelled_phone
from deid_tools.corpus.values import NICKNAMES
from schemas import PhiType

P = PhiType
NEW = community.FAMILIES + messages.FAMILIES


@cache
def new_notes() -> tuple[GoldNote, ...]:
    """Eight notes of every new family (about 300 in all)."""
    fake, out = _new_faker(), []
    for spec in NEW:
        for i in range(8):
            rng = random.Random(f"test-outside/{spec.name}/{i}")
            fake.seed_instance(rng.getrandbits(63))
            out.append(render_note(spec, f"{spec.name}-{i}", spec.split, rng, fake))
    return tuple(out)


@cache
def mixed_corpus() -> tuple[GoldNote, ...]:
    return tuple(generate_notes("train", 300, seed=2)) + tuple(generate_notes("test", 300, seed=2))


def _spans(note: GoldNote, typ: PhiType) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, note.text[s.start:s.end]) for s in note.spans if s.type is typ]


_NICKS = {n for _, n, _ in NICK_PAIRS} | set(NICKNAMES.values())

# pattern kind -> predicate over (note, start, end, value) of spans of one type
PATTERNS: dict[str, tuple[PhiType, Callable[[GoldNote, int, int, str], bool]]] = {
    "ward": (P.DEPARTMENT, lambda n, s, e, v: bool(re.fullmatch(r"Pod [A-F]|[A-Z][a-z]+ (\d+\w?( \w+)?|Pavilion)", v))),
    "facility abbreviation": (P.HOSPITAL, lambda n, s, e, v: bool(re.fullmatch(r"[A-Z]{2,4}", v))),
    "spelled-out phone": (P.PHONE, lambda n, s, e, v: bool(re.fullmatch(r"[a-z ,.\-]+", v))),
    "extension alone": (P.PHONE, lambda n, s, e, v: bool(re.fullmatch(r"(x|ext\.? |extension )\d+", v))),
    "number with extension": (P.PHONE, lambda n, s, e, v: bool(re.search(r"\d (x|ext)", v))),
    "pager": (P.PHONE, lambda n, s, e, v: bool(re.search(r"(pager|pgr|beeper) ?#? ?$", n.text[s - 9:s]))),
    "obfuscated e-mail": (P.EMAIL, lambda n, s, e, v: " at " in v or "(at)" in v or "[at]" in v),
    "handle": (P.USERNAME, lambda n, s, e, v: v.startswith("@")),
    "portal user name": (P.USERNAME, lambda n, s, e, v: "@" not in v and n.family.startswith("portal")),
    "sign-off initials": (P.DOCTOR, lambda n, s, e, v: bool(re.fullmatch(r"[a-zA-Z]{2,3}", v))),
    "staff by first name": (P.DOCTOR, lambda n, s, e, v: bool(re.fullmatch(r"[A-Z][a-z]+", v))),
    "name with initial": (P.PATIENT, lambda n, s, e, v: bool(re.fullmatch(r"[A-Z][a-z]+ [A-Z]\.", v))),
    "first name opening a sentence": (P.PATIENT, lambda n, s, e, v: (s == 0 or n.text[s - 1] == "\n"
                                                                     or n.text[s - 2:s] == ". ") and " " not in v),
    "possessive": (P.PATIENT, lambda n, s, e, v: n.text[e:e + 2] == "'s"),
    "ALL CAPS name": (P.PATIENT, lambda n, s, e, v: bool(re.fullmatch(r"[A-Z'-]+ [A-Z'-]+", v))),
    "lowercase name": (P.PATIENT, lambda n, s, e, v: v.islower()),
    "name split by a line break": (P.PATIENT, lambda n, s, e, v: n.text[e:e + 1] == "\n"
                                   and any(x.start == e + 1 for x in n.spans)),
    "nickname next to formal name": (P.PATIENT, lambda n, s, e, v: v in _NICKS and n.text[s - 2:s] in (' "', " (")),
    "neighbour by title": (P.PATIENT, lambda n, s, e, v: "neighbo" in n.text[s - 40:s] and
                           n.text[s - 4:s] in ("Mr. ", "Ms. ", "rs. ")),
    "retired / ex- profession": (P.PROFESSION, lambda n, s, e, v: n.text[s - 8:s].lower() in ("retired ", "ner ex-")
                                 or n.text[s - 3:s] == "Ex-"),
    "employer or agency": (P.ORGANIZATION, lambda n, s, e, v: bool(re.search(r"Sons|Foundry|Mills|VNA|Services|Home Care|"
                                                                         r"Council|Action|Authority|Adult Day", v))),
    "school": (P.ORGANIZATION, lambda n, s, e, v: bool(re.search(r"Elementary|Middle|High|Academy|Montessori", v))),
    "church": (P.ORGANIZATION, lambda n, s, e, v: bool(re.search(r"Church|Parish|Temple|Kingdom Hall|'s$", v))),
    "invented town": (P.CITY, lambda n, s, e, v: bool(re.search(r"(well|ley|ford|bury|field|wood|ton|dale|by|gate)"
                                                                r"( Falls)?$", v))),
    "birthday ordinal": (P.AGE, lambda n, s, e, v: bool(re.fullmatch(r"\d+(st|nd|rd|th)", v))),
    "weekday with its date": (P.DATE, lambda n, s, e, v: bool(re.match(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun)", v))),
}


@pytest.mark.parametrize("kind", sorted(PATTERNS))
def test_new_families_produce_each_pattern(kind: str) -> None:
    typ, pred = PATTERNS[kind]
    hits = [v for n in new_notes() for s, e, v in _spans(n, typ) if pred(n, s, e, v)]
    assert hits, kind


# Text that must never be inside a gold span (look-alikes of PHI).
NEVER_PHI = (
    r"(?i)\b(pain|mood) \d/10\b", r"(?i)\b(mother|father|sister|brother|son|daughter)-in-law\b", r"Berg 44/56", r"Mini-Cog 1/5",
    r"Parkinson's", r"(?i)\bfoley\b", r"(?i)braden", r"(?i)morse fall scale", r"(?i)gleason 3\+4", r"\bManagement\b",
    r"\bGuidelines\b", r"(?i)\b(last|next|this|since|by) (mon|tues|wednes|thurs|fri|satur|sun)day\b",
    r"(?i)spanish-speaking", r"(?i)jordanian", r"(?i)subaru|honda civic", r"(?i)watchman|stimulator|cpm machine",
    r"(?i)\bstage 3b\b", r"(?i)\bt2n1\b",
)


@pytest.mark.parametrize("pat", NEVER_PHI)
def test_lookalikes_never_inside_a_span(pat: str) -> None:
    found = 0
    for note in new_notes() + mixed_corpus():
        for m in re.finditer(pat, note.text):
            found += 1
            assert not any(s.start < m.end() and m.start() < s.end for s in note.spans), (pat, note.id, m.group(0))
    assert found, pat


def test_bare_weekdays_are_never_dates() -> None:
    for note in new_notes() + mixed_corpus():
        for _, _, v in _spans(note, P.DATE):
            assert not re.fullmatch(r"(?i)(mon|tues?|wed(nes)?|thu(rs)?|fri|sat(ur)?|sun)(day)?", v), (note.id, v)


def test_pet_names_are_not_people() -> None:
    pets = 0
    for note in new_notes():
        for m in re.finditer(r"cat named (\w+)|the dog, (\w+)|\((?:the cat)\)|dog \((\w+)\)", note.text):
            pets += 1
            assert not any(s.start < m.end() and m.start() < s.end for s in note.spans), note.id
    assert pets


def test_new_families_mention_the_header_patient() -> None:
    for note in new_notes():
        toks = {t.lower() for name in note.patient.names for t in re.split(r"[ ,]+", name) if len(t) > 1}
        pts = [v.lower() for _, _, v in _spans(note, P.PATIENT)]
        assert any(set(re.split(r"[ ,.\n]+", p)) & toks for p in pts), note.id


def test_value_helpers() -> None:
    assert abbreviation("Saint Cyril Medical Center") == "SCMC"
    assert abbreviation("Hartwell Nursing and Rehabilitation Center") == "HNRC"
    rng = random.Random(0)
    words = spelled_phone("413-555-0122", rng)
    assert re.fullmatch(r"[a-z ,.\-]+", words) and len(re.findall(r"[a-z]+", words)) == 10


def test_new_kinds_reach_the_default_corpus() -> None:
    kinds = {f.kind for f in NEW}
    seen = {n.kind for n in generate_notes("train", 120, seed=0)}
    assert kinds <= seen
