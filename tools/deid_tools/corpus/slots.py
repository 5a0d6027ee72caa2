"""Slots for people, places and contacts the header does not know (mixed into ``Renderer``).

Typing follows the i2b2 2014 guideline as the hand-written evaluation set spells it out: relatives,
household members, neighbours, friends, teachers, clergy of the patient's own church, interpreters and
non-clinical case managers are PATIENT; clinicians and clinical staff (social workers, therapists,
aides, chaplains on the team) are DOCTOR; sign-off initials are names. A value is drawn once per note
and key (``{fam:kid}`` is the same daughter every time she is mentioned).
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

from deid_tools.corpus import lookalikes, pools
from deid_tools.corpus.values import Cast, Person, Piece, _person, name_forms, phone_forms
from schemas import PhiType

if TYPE_CHECKING:
    from faker import Faker

P = PhiType

# key -> (relation words for a woman, for a man, shares the patient's surname)
HOUSEHOLD: dict[str, tuple[tuple[str, ...], tuple[str, ...], bool]] = {
    "kid": (("daughter", "eldest daughter", "stepdaughter"), ("son", "oldest son", "stepson"), True),
    "kid2": (("daughter", "younger daughter"), ("son", "youngest son"), True),
    "sib": (("sister", "older sister", "twin sister", "half-sister"), ("brother", "older brother", "half-brother"), True),
    "sib2": (("sister", "little sister", "baby sister"), ("brother", "little brother", "baby brother"), True),
    "gkid": (("granddaughter",), ("grandson",), True),
    "nbr": (("neighbor", "neighbour", "upstairs neighbor"), ("neighbor", "neighbour", "next-door neighbor"), False),
    "friend": (("friend", "close friend", "landlady", "girlfriend"), ("friend", "roommate", "landlord", "boyfriend"), False),
    "cm": (("case manager", "care coordinator"), ("case manager", "care coordinator"), False),
    "interp": (("interpreter",), ("interpreter",), False),
    "teacher": (("teacher", "guidance counselor", "principal"), ("teacher", "guidance counselor", "coach"), False),
    "clergy": (("pastor",), ("pastor", "priest", "deacon"), False),
    "gp": (("grandmother", "grandma"), ("grandfather", "grandpa"), True),
}
# key -> role words for clinical staff outside the header (typed DOCTOR)
STAFF: dict[str, tuple[str, ...]] = {
    "sw": ("social worker", "LICSW", "SW"), "pt": ("physical therapist", "PT"), "ot": ("occupational therapist", "OT"),
    "chap": ("chaplain",), "hha": ("home health aide", "HHA"), "vna": ("visiting nurse", "VNA nurse"),
    "pharm": ("pharmacist",), "diet": ("dietitian",), "phleb": ("phlebotomist", "lab tech"), "psy": ("psychologist",),
}


def _a(args: list[str], i: int, default: str) -> str:
    return args[i] if len(args) > i and args[i] else default


def person_forms(p: Person, typ: PhiType, form: str, rng: random.Random) -> list[Piece]:
    """``name_forms`` plus the surfaces templates rarely produce."""
    if form == "fi":  # Petra K.
        return [(f"{p.first} {p.last[0]}.", typ)]
    if form == "caps":  # HAROLD LINDQVIST
        return [(f"{p.first} {p.last}".upper(), typ)]
    if form == "capsfirst":
        return [(p.first.upper(), typ)]
    if form == "split":  # a name broken by a line break: two spans
        return [(p.first, typ), ("\n", None), (p.last, typ)]
    if form in ("nickpar", "nickq"):  # Margaret (Peggy) Smith / Eleanor "Ellie" Smith: three spans
        if not p.nickname:
            return name_forms(p, typ, "full", rng)
        if form == "nickpar":
            return [(p.first, typ), (" (", None), (p.nickname, typ), (") ", None), (p.last, typ)]
        return [(p.first, typ), (' "', None), (p.nickname, typ), ('" ', None), (p.last, typ)]
    if form == "nickonly":
        return [(p.nickname or p.first, typ)]
    if form == "firstonly":
        return [(p.first, typ)]
    if form == "possfirst":
        return [(p.first, typ), ("'s", None)]
    if form == "title":  # Mr. Ostrowski, with the title outside the span
        title = ("Ms." if rng.random() < 0.6 else "Mrs.") if p.sex == "F" else "Mr."
        return [(title + " ", None), (p.last, typ)]
    return name_forms(p, typ, form, rng)


class ExtraSlots:
    """``_s_*`` slot methods; the host class provides the cast, Faker, rng and a per-note people cache."""

    c: Cast
    fake: Faker
    rng: random.Random
    _people: dict[str, Person]

    # people ------------------------------------------------------------------------------------------
    def _xperson(self, key: str) -> Person:
        if key not in self._people:
            rng = self.rng
            fem, masc, same_last = HOUSEHOLD.get(key, (("",), ("",), False))
            p = _person(self.fake, rng, None, self.c.pt.last if same_last and rng.random() < 0.75 else None)
            if rng.random() < 0.3:  # give some people a formal name with an everyday one
                formal, nick, sex = rng.choice(pools.NICK_PAIRS)
                p.first, p.nickname, p.sex = formal, nick, sex
            if key in HOUSEHOLD:
                p.relation = rng.choice(fem if p.sex == "F" else masc)
            elif key in STAFF:
                p.relation = rng.choice(STAFF[key])
            self._people[key] = p
        return self._people[key]

    def _s_fam(self, a: list[str]) -> list[Piece]:
        form = _a(a, 1, self.rng.choice(("firstonly", "firstonly", "full", "title", "fi", "first")))
        return person_forms(self._xperson(_a(a, 0, "kid")), P.PATIENT, form, self.rng)

    def _s_famw(self, a: list[str]) -> list[str]:
        return [self._xperson(_a(a, 0, "kid")).relation]

    def _s_staff(self, a: list[str]) -> list[Piece]:
        form = _a(a, 1, self.rng.choice(("full", "firstonly", "fi", "init", "full")))
        return person_forms(self._xperson(_a(a, 0, "sw")), P.DOCTOR, form, self.rng)

    def _s_staffw(self, a: list[str]) -> list[str]:
        return [self._xperson(_a(a, 0, "sw")).relation]

    def _s_ptx(self, a: list[str]) -> list[Piece]:
        return person_forms(self.c.pt, P.PATIENT, _a(a, 0, "firstonly"), self.rng)

    def _s_nokx(self, a: list[str]) -> list[Piece]:
        who = self.c.nok[int(_a(a, 1, "0"))] if int(_a(a, 1, "0")) < len(self.c.nok) else self.c.others[2]
        return person_forms(who, P.PATIENT, _a(a, 0, "firstonly"), self.rng)

    def _s_drx(self, a: list[str]) -> list[Piece]:
        return person_forms(self.c.doctors[_a(a, 0, "att")], P.DOCTOR, _a(a, 1, "fi"), self.rng)

    def _s_ini(self, a: list[str]) -> list[Piece]:
        """Sign-off initials (``-- jmw``, ``/JW``): a name, typed DOCTOR."""
        who = _a(a, 0, "att")
        p = self.c.nurses[int(who[2:] or 0)] if who.startswith("rn") else (
            self._xperson(who) if who in STAFF else self.c.doctors[who])
        ini = pools.initials(p.first, p.middle, p.last, self.rng)
        return [(self.rng.choice(("-- ", "--", "- ", "/", "")), None), (ini, P.DOCTOR)]

    # places ------------------------------------------------------------------------------------------
    def _kept(self, key: str, make: str) -> str:
        rng, c = self.rng, self.c
        if key not in c.extra:
            c.extra[key] = {
                "ward": lambda: pools.ward(rng), "fac": lambda: pools.facility(rng), "town": lambda: pools.town(rng),
                "emp": lambda: pools.employer(rng, self.fake.last_name()), "sch": lambda: pools.school(rng),
                "church": lambda: pools.church(rng), "agency": lambda: pools.agency(rng),
                "pharm": lambda: pools.pharmacy(rng), "job": lambda: rng.choice(pools.JOBS),
            }[make]()
        return c.extra[key]

    def _s_ward(self, a: list[str]) -> list[Piece]:
        return [(self._kept(f"ward{_a(a, 0, '')}", "ward"), P.DEPARTMENT)]

    def _s_fac(self, a: list[str]) -> list[Piece]:
        return [(self._kept(f"fac{_a(a, 0, '')}", "fac"), P.HOSPITAL)]

    def _s_fabbr(self, a: list[str]) -> list[Piece]:
        return [(pools.abbreviation(self._kept(f"fac{_a(a, 0, '')}", "fac")), P.HOSPITAL)]

    def _s_town(self, a: list[str]) -> list[Piece]:
        if _a(a, 0, "") == "real":
            return [(self.c.city2, P.CITY)]
        return [(self._kept(f"town{_a(a, 0, '')}", "town"), P.CITY)]

    def _s_emp(self, a: list[str]) -> list[Piece]:
        return [(self._kept(f"emp{_a(a, 0, '')}", "emp"), P.ORGANIZATION)]

    def _s_sch(self, a: list[str]) -> list[Piece]:
        return [(self._kept("sch", "sch"), P.ORGANIZATION)]

    def _s_church(self, a: list[str]) -> list[Piece]:
        return [(self._kept("church", "church"), P.ORGANIZATION)]

    def _s_agency(self, a: list[str]) -> list[Piece]:
        return [(self._kept(f"agency{_a(a, 0, '')}", "agency"), P.ORGANIZATION)]

    def _s_pharm(self, a: list[str]) -> list[Piece]:
        return [(self._kept("pharm", "pharm"), P.ORGANIZATION)]

    # professions and ages ----------------------------------------------------------------------------
    def _s_job(self, a: list[str]) -> list[Piece]:
        return [(self._kept(f"job{_a(a, 0, '')}", "job"), P.PROFESSION)]

    def _s_ajob(self, a: list[str]) -> list[Piece]:
        j = self._kept(f"job{_a(a, 0, '')}", "job")
        return [("an " if j[0] in "aeiouAEIOU" else "a ", None), (j, P.PROFESSION)]

    def _s_bday(self, a: list[str]) -> list[Piece]:
        """A birthday ordinal (``her 90th``): the age."""
        n = self.c.age + (1 if _a(a, 0, "") == "next" else 0)
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return [(f"{n}{suffix}", P.AGE)]

    # contacts ----------------------------------------------------------------------------------------
    def _num(self, key: str) -> str:
        r = self.rng
        return self.c.extra.setdefault(f"num:{key}", f"{r.randint(201, 989)}-{r.randint(200, 989)}-{r.randint(0, 9999):04d}")

    def _s_phonew(self, a: list[str]) -> list[Piece]:
        num = self.c.cell_phone if _a(a, 0, "") == "cell" else self._num(_a(a, 0, "w"))
        return [(pools.spelled_phone(num, self.rng), P.PHONE)]

    def _s_phx(self, a: list[str]) -> list[Piece]:
        """A number with its extension, one span (``781-555-0117 x2291``)."""
        (num, _), = phone_forms(self._num(_a(a, 0, "office")), self.rng)
        num = re.split(r" (?:x|ext)", num)[0]  # phone_forms may already have added one
        return [(f"{num} {pools.extension(self.rng)}", P.PHONE)]

    def _s_ext(self, a: list[str]) -> list[Piece]:
        key = f"ext{_a(a, 0, '')}"
        return [(self.c.extra.setdefault(key, pools.extension(self.rng)), P.PHONE)]

    def _s_pgr(self, a: list[str]) -> list[Piece]:
        """Pager: the cue is glue, the number is PHONE."""
        return [(self.rng.choice(("pager ", "pgr ", "pager #", "beeper ", "pgr# ")), None), (pools.pager(self.rng), P.PHONE)]

    def _s_emailx(self, a: list[str]) -> list[Piece]:
        who = self._xperson(a[0]) if a and a[0] in HOUSEHOLD else (self.c.nok[0] if a and a[0] == "nok" else self.c.pt)
        return [(pools.obfuscated_email(who.first, who.last, self.rng, self.fake.domain_word()), P.EMAIL)]

    def _s_handle(self, a: list[str]) -> list[Piece]:
        who = self._xperson(a[0]) if a and a[0] in HOUSEHOLD else self.c.pt
        return [("@" + pools.handle(who.first, who.last, self.rng), P.USERNAME)]

    def _s_portal(self, a: list[str]) -> list[Piece]:
        p = self.c.pt
        return [(self.c.extra.setdefault("portal", pools.handle(p.first, p.last, self.rng)), P.USERNAME)]

    # look-alikes (glue) ------------------------------------------------------------------------------
    def _s_la(self, a: list[str]) -> list[str]:
        return [lookalikes.lookalike(self.rng, _a(a, 0, "any"))]

    def _s_rwd(self, a: list[str]) -> list[str]:
        return [lookalikes.relative_weekday(self.rng)]
