"""Template rendering with exact gold offsets.

A family's template is a small line-oriented DSL (see ``parse_family``). Rendering concatenates pieces
left to right and records each PHI piece's offsets at the moment it is appended, so the gold spans are
exact by construction; nothing is ever searched for afterwards.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from deid_tools.corpus import filler
from deid_tools.corpus.slots import ExtraSlots, person_forms
from deid_tools.corpus.values import (
    HOLIDAYS,
    Cast,
    Person,
    Piece,
    age_forms,
    date_forms,
    ids,
    mrn_forms,
    phone_forms,
)
from schemas import PhiType, Span

if TYPE_CHECKING:
    from faker import Faker

P = PhiType
GOLD = frozenset({"gold"})


class Tpl(str):
    """A piece that is itself a template and must be expanded."""


# --- the builder -------------------------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z]{5,}")


@dataclass
class Noise:
    typo: float = 0.0
    drop_period: float = 0.0
    double_space: float = 0.0
    newline: float = 0.0

    @classmethod
    def level(cls, x: float) -> Noise:
        return cls(typo=0.012 * x, drop_period=0.08 * x, double_space=0.02 * x, newline=0.012 * x)


class Builder:
    """Accumulates text; PHI pieces get spans, glue pieces get noise (PHI values are never perturbed)."""

    def __init__(self, rng: random.Random, noise: Noise, case: str = "") -> None:
        self.rng, self.noise, self.case = rng, noise, case
        self.parts: list[str] = []
        self.spans: list[Span] = []
        self.pos = 0

    def _cased(self, s: str) -> str:
        out = s.lower() if self.case == "lower" else s.upper() if self.case == "upper" else s
        # Offsets rely on casing preserving length (true for the ASCII values we generate).
        assert len(out) == len(s)
        return out

    def _append(self, s: str) -> None:
        self.parts.append(s)
        self.pos += len(s)

    def glue(self, s: str, noisy: bool = True) -> None:
        if not s:
            return
        if noisy:
            s = self._perturb(s)
        self._append(self._cased(s))

    def phi(self, value: str, typ: PhiType) -> None:
        value = self._cased(value)
        assert value and value == value.strip(), "PHI pieces carry no surrounding whitespace"
        start = self.pos
        self._append(value)
        self.spans.append(Span(start, self.pos, typ, 1.0, GOLD, "gold"))
        assert self.text_so_far()[start:self.pos] == value

    def text_so_far(self) -> str:
        joined = "".join(self.parts)
        self.parts = [joined]
        return joined

    def _perturb(self, s: str) -> str:
        n, rng = self.noise, self.rng
        if n.typo and rng.random() < 0.5:
            def typo(m: re.Match[str]) -> str:
                w = m.group(0)
                if rng.random() >= n.typo * 4:
                    return w
                i = rng.randint(1, len(w) - 3)
                return w[:i] + w[i + 1] + w[i] + w[i + 2:]
            s = _WORD.sub(typo, s)
        if n.drop_period and ". " in s:
            s = re.sub(r"(?<=[a-z])\. (?=[A-Z])", lambda m: " " if rng.random() < n.drop_period else m.group(0), s)
        if (n.double_space or n.newline) and " " in s:
            def ws(m: re.Match[str]) -> str:
                r = rng.random()
                if r < n.newline:
                    return "\n"
                if r < n.newline + n.double_space:
                    return "  "
                return " "
            s = re.sub(r"(?<=\S) (?=\S)", ws, s)
        return s


# --- the DSL -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Line:
    alts: tuple[str, ...]
    p: float = 1.0


@dataclass(frozen=True)
class Section:
    titles: tuple[str, ...]
    lines: tuple[Line, ...]
    p: float = 1.0
    shuffle: bool = False
    line_mode: bool = False


_SEC = re.compile(r"^#(?P<flags>(?:[*/]|\?[0-9.]+)*)\s*(?P<titles>.*)$")
_OPT = re.compile(r"^\?(?P<p>[0-9.]+)\s+(?P<rest>.*)$")


def parse_family(text: str) -> tuple[Section, ...]:
    """Parse the family DSL.

    ``# Title A | Title B`` starts a section (flags right after ``#``: ``*`` shuffle with the other ``*``
    sections, ``?0.6`` presence probability, ``/`` keep one line per template line); an empty title means
    none. Other lines are sentence slots whose alternatives are separated by ``||``; ``?0.5 `` in front
    makes one optional. Lines before the first ``#`` form an untitled line-mode preamble.
    """
    sections: list[Section] = []
    titles: tuple[str, ...] = ()
    lines: list[Line] = []
    p, shuffle, line_mode = 1.0, False, True

    def flush() -> None:
        if lines or titles:
            sections.append(Section(titles, tuple(lines), p, shuffle, line_mode))

    for raw in text.strip("\n").splitlines():
        line = raw.strip()
        if not line:
            continue
        m = _SEC.match(line)
        if m:
            flush()
            flags = m.group("flags")
            titles = tuple(t.strip() for t in m.group("titles").split("|") if t.strip())
            lines = []
            pm = re.search(r"\?([0-9.]+)", flags)
            p, shuffle, line_mode = (float(pm.group(1)) if pm else 1.0), "*" in flags, "/" in flags
            continue
        prob = 1.0
        om = _OPT.match(line)
        if om:
            prob, line = float(om.group("p")), om.group("rest")
        lines.append(Line(tuple(a.strip() for a in line.split("||")), prob))
    flush()
    return tuple(sections)


_SLOT = re.compile(r"\{([A-Za-z_0-9]+)((?::[^{}:]*)*)\}")


# --- slots -------------------------------------------------------------------------------------------

class Renderer(ExtraSlots):
    """Renders one note for one cast; slot names map to ``_s_<name>`` methods (more in ``ExtraSlots``)."""

    def __init__(self, cast: Cast, fake: Faker, rng: random.Random, builder: Builder, misc: tuple[str, ...],
                 addenda: tuple[str, ...] = ()) -> None:
        self.c, self.fake, self.rng, self.b = cast, fake, rng, builder
        self.misc, self.addenda = misc, addenda
        self._dates: dict[str, dt.date] = {}
        self._people: dict[str, Person] = {}

    # rendering
    def render_sections(self, sections: tuple[Section, ...]) -> None:
        rng = self.rng
        present = [s for s in sections if s.p >= 1.0 or rng.random() < s.p]
        movable = [s for s in present if s.shuffle]
        rng.shuffle(movable)
        it = iter(movable)
        ordered = [next(it) if s.shuffle else s for s in present]
        title_style = rng.choice(("asis", "asis", "upper", "title"))
        for i, sec in enumerate(ordered):
            if sec.titles:
                title = rng.choice(sec.titles)
                if title_style == "upper":
                    title = title.upper() if "{" not in title else title
                elif title_style == "title" and "{" not in title and title.isupper():
                    title = title.title()
                self.template(title, noisy=False)
                self.b.glue(rng.choice(("\n", "\n", " ")) if not sec.line_mode else "\n", noisy=False)
            chosen = [rng.choice(line.alts) for line in sec.lines if line.p >= 1.0 or rng.random() < line.p]
            chosen = [c for c in chosen if c and c != "-"]
            for j, tpl in enumerate(chosen):
                if j:
                    self.b.glue("\n" if sec.line_mode else rng.choice((" ", " ", " ", "  ", "\n")), noisy=False)
                self.template(tpl)
            if i < len(ordered) - 1:
                self.b.glue(rng.choice(("\n\n", "\n\n", "\n", "\n\n\n")), noisy=False)
        if self.addenda:
            self.b.glue("\n\n", noisy=False)
            self.template(rng.choice(self.addenda))

    def template(self, tpl: str, noisy: bool = True) -> None:
        pos = 0
        for m in _SLOT.finditer(tpl):
            self.b.glue(tpl[pos:m.start()], noisy)
            name, args = m.group(1), [a for a in m.group(2).split(":")[1:]]
            fn: Callable[[list[str]], list[Piece | Tpl | str]] | None = getattr(self, f"_s_{name}", None)
            if fn is None:
                raise KeyError(f"unknown slot {{{name}}}")
            for piece in fn(args):
                if isinstance(piece, Tpl):
                    self.template(piece, noisy)
                elif isinstance(piece, str):
                    self.b.glue(piece, noisy)
                elif piece[1] is None:
                    self.b.glue(piece[0], noisy=False)
                else:
                    self.b.phi(piece[0], piece[1])
            pos = m.end()
        self.b.glue(tpl[pos:], noisy)

    # helpers
    def _arg(self, args: list[str], i: int, default: str) -> str:
        return args[i] if len(args) > i and args[i] else default

    def _date(self, event: str) -> dt.date:
        c, rng = self.c, self.rng
        fresh = event in ("past", "recent", "fut", "any")
        if not fresh and event in self._dates:
            return self._dates[event]
        v = c.visit
        d = {
            "visit": lambda: v, "dis": lambda: v, "dob": lambda: c.dob,
            "adm": lambda: v - dt.timedelta(days=rng.randint(2, 12)),
            "op": lambda: v - dt.timedelta(days=rng.randint(0, 3)),
            "recent": lambda: v - dt.timedelta(days=rng.randint(1, 30)),
            "fut": lambda: v + dt.timedelta(days=rng.randint(3, 120)),
        }.get(event.rstrip("0123456789"), lambda: v - dt.timedelta(days=rng.randint(30, 3650)))()
        if not fresh:
            self._dates[event] = d
        return d

    # names
    def _s_pt(self, a: list[str]) -> list[Piece]:
        return person_forms(self.c.pt, P.PATIENT, self._arg(a, 0, "any"), self.rng)

    def _rel(self, who: Person, a: list[str]) -> list[Piece]:
        return person_forms(who, P.PATIENT, self._arg(a, 0, self.rng.choice(("full", "first", "title"))), self.rng)

    def _s_nok(self, a: list[str]) -> list[Piece]:
        return self._rel(self.c.nok[0], a)

    def _s_nok2(self, a: list[str]) -> list[Piece]:
        return self._rel(self.c.nok[1] if len(self.c.nok) > 1 else self.c.others[2], a)

    def _s_rel(self, a: list[str]) -> list[Piece]:
        return self._rel(self.c.others[0], a)

    def _s_rel2(self, a: list[str]) -> list[Piece]:
        return self._rel(self.c.others[1], a)

    def _s_nokw(self, a: list[str]) -> list[str]:
        return [self.c.nok[0].relation]

    def _s_nok2w(self, a: list[str]) -> list[str]:
        return [(self.c.nok[1] if len(self.c.nok) > 1 else self.c.others[2]).relation]

    def _s_relw(self, a: list[str]) -> list[str]:
        return [self.c.others[0].relation]

    def _s_rel2w(self, a: list[str]) -> list[str]:
        return [self.c.others[1].relation]

    def _s_dr(self, a: list[str]) -> list[Piece]:
        form = self._arg(a, 1, "")
        if not form:
            form = self.rng.choice(("dr", "dr", "dr", "drfull", "md", "md", "mdi", "lf", "init"))
        return person_forms(self.c.doctors[self._arg(a, 0, "att")], P.DOCTOR, form, self.rng)

    def _s_rn(self, a: list[str]) -> list[Piece]:
        i = int(self._arg(a, 0, "0"))
        return person_forms(self.c.nurses[i], P.DOCTOR, self._arg(a, 1, "rn"), self.rng)

    def _s_user(self, a: list[str]) -> list[Piece]:
        return [(self.c.usernames[int(self._arg(a, 0, "0"))], P.USERNAME)]

    def _s_sig(self, a: list[str]) -> list[Piece]:
        p = self.c.doctors[self._arg(a, 0, "att")] if self._arg(a, 0, "att") != "rn" else self.c.nurses[0]
        ini = f"{p.first[0]}{p.middle[0] if p.middle else ''}{p.last[0]}"
        ini = ini.lower() if self.rng.random() < 0.6 else ini
        # Sign-off initials are a name, not a login.
        return [(self.rng.choice(("-- ", "--", "- ", "/")), None), (ini, P.DOCTOR)]

    # people-adjacent
    def _s_prof(self, a: list[str]) -> list[Piece]:
        return [(self.c.profession2 if a and a[0] == "2" else self.c.profession, P.PROFESSION)]

    def _s_aprof(self, a: list[str]) -> list[Piece]:
        p = self.c.profession2 if a and a[0] == "2" else self.c.profession
        return [("an " if p[0] in "aeiou" else "a ", None), (p, P.PROFESSION)]

    def _s_org(self, a: list[str]) -> list[Piece]:
        return [(self.c.employer, P.ORGANIZATION)]

    def _s_school(self, a: list[str]) -> list[Piece]:
        return [(self.c.school, P.ORGANIZATION)]

    def _s_ins(self, a: list[str]) -> list[Piece]:
        return [(self.c.insurer, P.ORGANIZATION)]

    # places
    def _s_hosp(self, a: list[str]) -> list[Piece]:
        return [(self.c.hospital2 if a and a[0] == "2" else self.c.hospital, P.HOSPITAL)]

    def _s_dept(self, a: list[str]) -> list[Piece]:
        return [(self.c.department2 if a and a[0] == "2" else self.c.department, P.DEPARTMENT)]

    def _s_room(self, a: list[str]) -> list[Piece]:
        return [(self.c.room, P.ROOM)]

    def _s_street(self, a: list[str]) -> list[Piece]:
        s = self.c.street + (f" {self.c.apt}" if self.c.apt and self.rng.random() < 0.7 else "")
        return [(s, P.STREET)]

    def _s_city(self, a: list[str]) -> list[Piece]:
        return [(self.c.city2 if a and a[0] == "2" else self.c.city, P.CITY)]

    def _s_state(self, a: list[str]) -> list[Piece]:
        st = self.c.state2 if a and a[0] == "2" else self.c.state
        form = self._arg(a, 1, self.rng.choice(("abbr", "abbr", "full")))
        return [(st[0] if form == "abbr" else st[1], P.STATE)]

    def _s_zip(self, a: list[str]) -> list[Piece]:
        z = self.c.zip
        return [(z if self.rng.random() < 0.85 else f"{z}-{self.rng.randint(1000, 9999)}", P.ZIP)]

    def _s_addr(self, a: list[str]) -> list[Piece]:
        sep = self._arg(a, 0, self.rng.choice((", ", "\n")))
        return [*self._s_street([]), (sep, None), *self._s_city([]), (", " if self.rng.random() < 0.8 else " ", None),
                *self._s_state(["", "abbr"]), (self.rng.choice(("  ", " ")), None), *self._s_zip([])]

    def _s_country(self, a: list[str]) -> list[Piece]:
        return [(self.c.country, P.COUNTRY)]

    def _s_loc(self, a: list[str]) -> list[Piece]:
        return [(self.c.location, P.LOCATION_OTHER)]

    # ages and dates
    def _s_age(self, a: list[str]) -> list[Piece]:
        c = self.c
        if c.age < 2 and not a:
            months = (c.visit.year - c.dob.year) * 12 + c.visit.month - c.dob.month - (c.visit.day < c.dob.day)
            return age_forms(max(months, 1), "months", self.rng)
        return age_forms(c.age, self._arg(a, 0, "any"), self.rng, c.pt.sex)

    def _s_rage(self, a: list[str]) -> list[Piece]:
        return age_forms(self.rng.randint(35, 96), self._arg(a, 0, "num"), self.rng)

    def _s_date(self, a: list[str]) -> list[Piece]:
        return date_forms(self._date(self._arg(a, 0, "visit")), self._arg(a, 1, "any"), self.rng)

    def _s_wd(self, a: list[str]) -> list[str]:
        # A bare weekday is not a date element (i2b2 2014 as this project annotates it): plain glue.
        (wd, _), = date_forms(self._date(self._arg(a, 0, "visit")), "weekday", self.rng)
        return [wd]

    def _s_wdate(self, a: list[str]) -> list[Piece]:
        """A weekday written with its date is part of the date: one span (``Thursday, March 7, 2024``)."""
        d = self._date(self._arg(a, 0, "visit"))
        (wd, _), = date_forms(d, "weekday", self.rng)
        (date, _), = date_forms(d, self._arg(a, 1, "any"), self.rng)
        return [(f"{wd}{self.rng.choice((', ', ' '))}{date}", P.DATE)]

    def _s_hol(self, a: list[str]) -> list[Piece]:
        h = self.rng.choice(HOLIDAYS)
        if h.startswith("the "):
            return [("the ", None), (h[4:], P.DATE)]
        return [(h, P.DATE)]

    # contact
    def _s_phone(self, a: list[str]) -> list[Piece]:
        which = self._arg(a, 0, "home")
        num = {"home": self.c.home_phone, "cell": self.c.cell_phone}.get(which)
        if num is None:
            key = f"phone:{which}"
            num = self.c.extra.setdefault(key, f"{self.rng.randint(201, 989)}-{self.rng.randint(200, 989)}-"
                                                f"{self.rng.randint(0, 9999):04d}")
        return phone_forms(num, self.rng, form=self._arg(a, 1, "any"))

    def _s_pager(self, a: list[str]) -> list[Piece]:
        r = self.rng
        return [(r.choice((str(r.randint(10000, 99999)), f"{r.randint(1, 9)}-{r.randint(1000, 9999)}",
                           f"{r.randint(201, 989)}-{r.randint(200, 989)}-{r.randint(0, 9999):04d}")), P.PHONE)]

    def _s_fax(self, a: list[str]) -> list[Piece]:
        r = self.rng
        num = self.c.extra.setdefault("fax", f"{r.randint(201, 989)}-{r.randint(200, 989)}-{r.randint(0, 9999):04d}")
        return phone_forms(num, r, P.FAX)

    def _s_email(self, a: list[str]) -> list[Piece]:
        if a and a[0] == "dr":
            d = self.c.doctors[self._arg(a, 1, "att")]
            dom = self.c.extra.setdefault("dom", self.fake.domain_word() + self.rng.choice(("health.org", "med.org", ".org")))
            return [(f"{d.first[0].lower()}{d.last.lower().replace('-', '')}@{dom}", P.EMAIL)]
        if a and a[0] == "nok":
            n = self.c.nok[0]
            return [(f"{n.first.lower()}{self.rng.randint(1, 99)}@{self.fake.free_email_domain()}", P.EMAIL)]
        return [(self.c.email, P.EMAIL)]

    def _s_url(self, a: list[str]) -> list[Piece]:
        return [(ids(self.rng, self.fake, "url"), P.URL)]

    def _s_ip(self, a: list[str]) -> list[Piece]:
        return [(ids(self.rng, self.fake, "ip"), P.IPADDR)]

    # identifiers
    def _s_ssn(self, a: list[str]) -> list[Piece]:
        s = self.c.ssn
        return [(s if self.rng.random() < 0.8 else s.replace("-", " " if self.rng.random() < 0.5 else ""), P.SSN)]

    def _s_mrn(self, a: list[str]) -> list[Piece]:
        return [(mrn_forms(self.c.mrn, self.rng), P.MEDICALRECORD)]

    def _s_hp(self, a: list[str]) -> list[Piece]:
        return [(self.c.healthplan, P.HEALTHPLAN)]

    def _s_acct(self, a: list[str]) -> list[Piece]:
        return [(self.c.account, P.ACCOUNT)]

    def _fresh(self, kind: str, typ: PhiType) -> list[Piece]:
        return [(ids(self.rng, self.fake, kind), typ)]

    def _s_lic(self, a: list[str]) -> list[Piece]:
        return self._fresh("lic", P.LICENSE)

    def _s_plate(self, a: list[str]) -> list[Piece]:
        return self._fresh("plate", P.VEHICLE)

    def _s_vin(self, a: list[str]) -> list[Piece]:
        return self._fresh("vin", P.VEHICLE)

    def _s_device(self, a: list[str]) -> list[Piece]:
        return self._fresh("device", P.DEVICE)

    def _s_bioid(self, a: list[str]) -> list[Piece]:
        return self._fresh("bioid", P.BIOID)

    def _s_acc(self, a: list[str]) -> list[Piece]:
        key = f"acc{self._arg(a, 0, '')}"
        return [(self.c.extra.setdefault(key, ids(self.rng, self.fake, "accession")), P.IDNUM)]

    def _s_idnum(self, a: list[str]) -> list[Piece]:
        return self._fresh("idnum", P.IDNUM)

    def _s_misc(self, a: list[str]) -> list[Tpl]:
        return [Tpl(self.rng.choice(self.misc))]

    # plain glue
    def _s_he(self, a: list[str]) -> list[str]:
        return ["she" if self.c.pt.sex == "F" else "he"]

    def _s_He(self, a: list[str]) -> list[str]:
        return ["She" if self.c.pt.sex == "F" else "He"]

    def _s_his(self, a: list[str]) -> list[str]:
        return ["her" if self.c.pt.sex == "F" else "his"]

    def _s_His(self, a: list[str]) -> list[str]:
        return ["Her" if self.c.pt.sex == "F" else "His"]

    def _s_him(self, a: list[str]) -> list[str]:
        return ["her" if self.c.pt.sex == "F" else "him"]

    def _s_sexw(self, a: list[str]) -> list[str]:
        young = self.c.age < 18
        return [("girl" if young else "woman") if self.c.pt.sex == "F" else ("boy" if young else "man")]

    def _s_sexa(self, a: list[str]) -> list[str]:
        return ["female" if self.c.pt.sex == "F" else "male"]

    def _s_mf(self, a: list[str]) -> list[str]:
        return [self.c.pt.sex]

    def _s_time(self, a: list[str]) -> list[str]:
        r = self.rng
        return [r.choice((f"{r.randint(0, 23):02d}:{r.choice((0, 5, 15, 30, 45, 50)):02d}",
                          f"{r.randint(0, 23):02d}{r.choice((0, 15, 30, 45)):02d}",
                          f"{r.randint(1, 12)}:{r.randint(0, 59):02d} {r.choice(('AM', 'PM', 'am', 'pm'))}"))]

    def _s_vitals(self, a: list[str]) -> list[str]:
        return [filler.vitals(self.rng)]

    def _s_labs(self, a: list[str]) -> list[str]:
        return [filler.labs(self.rng)]

    def _s_meds(self, a: list[str]) -> list[str]:
        return [filler.meds(self.rng, ", " if a and a[0] == "inline" else "\n")]

    def _s_eponym(self, a: list[str]) -> list[str]:
        return [filler.eponym(self.rng)]

    def _s_look(self, a: list[str]) -> list[str]:
        return [filler.lookalike(self.rng)]

    def _s_exam(self, a: list[str]) -> list[str]:
        return [filler.exam(self.rng)]

    def _s_pmh(self, a: list[str]) -> list[str]:
        return [filler.pmh(self.rng, inline=bool(a and a[0] == "inline"))]

    def _s_hpi(self, a: list[str]) -> list[str]:
        return [filler.hpi_long(self.rng) if a and a[0] == "long" or self.rng.random() < 0.5 else filler.hpi(self.rng)]

    def _s_course(self, a: list[str]) -> list[str]:
        return [filler.course(self.rng)]

    def _s_psh(self, a: list[str]) -> list[str]:
        return [filler.psh(self.rng)]

    def _s_rosl(self, a: list[str]) -> list[str]:
        return [filler.ros_long(self.rng)]

    def _s_shx(self, a: list[str]) -> list[str]:
        return [filler.social_generic(self.rng)]

    def _s_fhx(self, a: list[str]) -> list[str]:
        return [filler.fhx(self.rng)]

    def _s_instr(self, a: list[str]) -> list[str]:
        return [filler.instructions(self.rng)]

    def _s_radf(self, a: list[str]) -> list[str]:
        return [filler.rad_findings(self.rng)]

    def _s_mse(self, a: list[str]) -> list[str]:
        return [filler.mse(self.rng)]

    def _s_gross(self, a: list[str]) -> list[str]:
        return [filler.gross(self.rng)]

    def _s_inrtable(self, a: list[str]) -> list[Piece | str]:
        """INR history rows, one dated line each (the dates are PHI)."""
        rng, out = self.rng, []
        back = 0
        for k in range(rng.randint(3, 7)):
            back += rng.randint(7, 28)
            if k:
                out.append("\n")
            out.extend(date_forms(self._date("visit") - dt.timedelta(days=back), rng.choice(("short", "num")), rng))
            out.append(f"{rng.choice(('  ', ': ', ' | '))}INR {rng.uniform(1.4, 4.0):.1f}{rng.choice(('  ', ' | '))}"
                       f"{rng.choice(('5 mg daily', '35 mg/wk', '7.5 mg M/W/F, 5 mg other days', '2.5 mg daily'))}")
        return out

    def _s_labtable(self, a: list[str]) -> list[Piece | str]:
        """A small lab table whose column dates are PHI: ``03/02  Na 135 ...`` rows."""
        rng, out = self.rng, []
        days = sorted(rng.sample(range(0, 10), rng.randint(2, 4)), reverse=True)
        for k, back in enumerate(days):
            d = self._date("visit") - dt.timedelta(days=back)
            if k:
                out.append("\n")
            out.extend(date_forms(d, rng.choice(("short", "num")), rng))
            out.append(rng.choice((": ", "  ", " - ")) + filler.labs(rng))
        return out

    def _s_plan(self, a: list[str]) -> list[str]:
        return [filler.plan(self.rng)]

    def _s_ros(self, a: list[str]) -> list[str]:
        return [filler.ros(self.rng)]

    def _s_all(self, a: list[str]) -> list[str]:
        return [filler.allergies(self.rng)]

    def _s_cc(self, a: list[str]) -> list[str]:
        return [filler.complaint(self.rng)]
