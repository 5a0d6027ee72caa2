"""Synthetic value pools and surface-form generators for the gold corpus.

Everything is drawn from a per-note ``random.Random`` and a per-note seeded ``Faker``; nothing here is
real patient data. Surface-form functions return *pieces*: ``(text, PhiType | None)`` tuples, where
``None`` marks non-PHI glue (titles such as ``Dr.``, the ``'s`` of a possessive, credentials) so that
the renderer can record exact offsets while concatenating.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from schemas import Address, Identifier, PatientHeader, PhiType

if TYPE_CHECKING:
    from faker import Faker

Piece = tuple[str, PhiType | None]
P = PhiType

STATES: tuple[tuple[str, str], ...] = (
    ("AL", "Alabama"), ("AZ", "Arizona"), ("CA", "California"), ("CO", "Colorado"), ("CT", "Connecticut"),
    ("FL", "Florida"), ("GA", "Georgia"), ("IL", "Illinois"), ("IN", "Indiana"), ("IA", "Iowa"),
    ("KY", "Kentucky"), ("LA", "Louisiana"), ("ME", "Maine"), ("MD", "Maryland"), ("MA", "Massachusetts"),
    ("MI", "Michigan"), ("MN", "Minnesota"), ("MO", "Missouri"), ("NE", "Nebraska"), ("NV", "Nevada"),
    ("NH", "New Hampshire"), ("NJ", "New Jersey"), ("NM", "New Mexico"), ("NY", "New York"),
    ("NC", "North Carolina"), ("OH", "Ohio"), ("OK", "Oklahoma"), ("OR", "Oregon"), ("PA", "Pennsylvania"),
    ("RI", "Rhode Island"), ("SC", "South Carolina"), ("TN", "Tennessee"), ("TX", "Texas"), ("UT", "Utah"),
    ("VT", "Vermont"), ("VA", "Virginia"), ("WA", "Washington"), ("WI", "Wisconsin"),
)
CITIES: tuple[str, ...] = (
    "Boston", "Worcester", "Springfield", "Lowell", "Framingham", "Quincy", "Brockton", "Providence",
    "Hartford", "Albany", "Syracuse", "Buffalo", "Scranton", "Allentown", "Camden", "Trenton", "Baltimore",
    "Richmond", "Raleigh", "Durham", "Charlotte", "Atlanta", "Savannah", "Tampa", "Orlando", "Miami",
    "Nashville", "Memphis", "Louisville", "Columbus", "Dayton", "Toledo", "Detroit", "Lansing", "Chicago",
    "Peoria", "Madison", "Milwaukee", "Minneapolis", "Duluth", "Des Moines", "Omaha", "Wichita", "Tulsa",
    "Dallas", "Austin", "El Paso", "Houston", "Albuquerque", "Phoenix", "Tucson", "Denver", "Boise",
    "Salt Lake City", "Reno", "Sacramento", "Fresno", "Oakland", "San Diego", "Portland", "Spokane",
    "Tacoma", "Burlington", "Manchester", "Nashua", "Bangor", "New Haven", "Stamford", "Pawtucket",
    "Fall River", "New Bedford", "Pittsfield", "Chelsea", "Revere", "Malden", "Medford", "Newton",
)
COUNTRIES: tuple[str, ...] = (
    "Haiti", "Brazil", "Portugal", "Cape Verde", "Vietnam", "China", "India", "Ireland", "Italy", "Mexico",
    "Guatemala", "El Salvador", "Dominican Republic", "Puerto Rico", "Jamaica", "Nigeria", "Ghana", "Kenya",
    "Somalia", "Ethiopia", "Russia", "Ukraine", "Poland", "Greece", "Lebanon", "Syria", "Iraq", "Cambodia",
    "Philippines", "Korea", "Japan", "Germany", "France", "England", "Canada", "Colombia", "Peru",
)
LOCATION_OTHER: tuple[str, ...] = (
    "Fenway Park", "Logan Airport", "Cape Cod", "Lake Winnipesaukee", "the Berkshires", "Yellowstone",
    "the Grand Canyon", "Disney World", "Walden Pond", "Niagara Falls", "Central Park", "Camp Lejeune",
    "Fort Bragg", "Martha's Vineyard", "Nantucket", "the Outer Banks", "Mount Washington", "Lake Tahoe",
    "Harvard Square", "Copley Square", "Quincy Market", "the Catskills", "Acadia", "Myrtle Beach",
)
PROFESSIONS: tuple[str, ...] = (
    "teacher", "welder", "electrician", "plumber", "carpenter", "truck driver", "bus driver", "nurse",
    "accountant", "lawyer", "engineer", "software engineer", "mechanic", "chef", "line cook", "waitress",
    "firefighter", "police officer", "mail carrier", "farmer", "librarian", "pharmacist", "dentist",
    "construction worker", "roofer", "painter", "secretary", "cashier", "bank teller", "janitor",
    "machinist", "security guard", "hairdresser", "social worker", "professor", "architect", "pilot",
    "longshoreman", "fisherman", "landscaper", "real estate agent", "paralegal", "dental hygienist",
    "home health aide", "veterinarian", "electrical engineer", "investment banker", "musician",
)
DEPARTMENTS: tuple[str, ...] = (
    "Cardiology", "Oncology", "Hematology/Oncology", "Pulmonary Medicine", "Gastroenterology", "Nephrology",
    "Neurology", "Neurosurgery", "Orthopedics", "Urology", "Endocrinology", "Rheumatology", "Dermatology",
    "Infectious Disease", "Internal Medicine", "Family Medicine", "General Surgery", "Vascular Surgery",
    "Cardiac Surgery", "Thoracic Surgery", "Obstetrics and Gynecology", "Physical Therapy", "Radiology",
    "Pathology", "Psychiatry", "Behavioral Health", "Geriatrics", "Palliative Care", "Transplant Surgery",
    "Interventional Radiology", "Anticoagulation Service", "Pediatrics", "Sleep Medicine", "Wound Care",
)
HOSPITAL_SUFFIXES: tuple[str, ...] = (
    "General Hospital", "Medical Center", "Memorial Hospital", "Community Hospital", "Regional Medical Center",
    "Hospital", "University Hospital", "Health Center", "Rehabilitation Hospital", "Clinic",
)
SAINTS: tuple[str, ...] = (
    "St. Mary's", "St. Luke's", "St. Joseph's", "St. Anne's", "St. Vincent's", "St. Elizabeth's",
    "Good Samaritan", "Holy Family", "Mercy", "Sacred Heart", "Saint Francis", "Our Lady of Grace",
)
SCHOOL_SUFFIXES: tuple[str, ...] = ("High School", "Elementary School", "Middle School", "Community College",
                                    "Academy", "State University", "Day Care")
INSURERS: tuple[str, ...] = (
    "Blue Cross Blue Shield", "Harvard Pilgrim", "Tufts Health Plan", "Aetna", "Cigna", "UnitedHealthcare",
    "Humana", "Fallon Health", "Neighborhood Health Plan", "MassHealth", "Medicare", "Medicaid",
)
NICKNAMES: dict[str, str] = {
    "William": "Bill", "Robert": "Bob", "Richard": "Dick", "James": "Jim", "John": "Jack", "Joseph": "Joe",
    "Thomas": "Tom", "Michael": "Mike", "Charles": "Chuck", "Edward": "Ed", "Anthony": "Tony",
    "Elizabeth": "Liz", "Margaret": "Peggy", "Katherine": "Kate", "Jennifer": "Jen", "Patricia": "Pat",
    "Susan": "Sue", "Deborah": "Debbie", "Rebecca": "Becky", "Christopher": "Chris", "Daniel": "Dan",
    "Kimberly": "Kim", "Nicholas": "Nick", "Samuel": "Sam", "Alexander": "Alex", "Jacqueline": "Jackie",
    "Theodore": "Ted", "Barbara": "Barb", "Dorothy": "Dot", "Gerald": "Jerry", "Lawrence": "Larry",
}
HOLIDAYS: tuple[str, ...] = (
    "Christmas", "Christmas Eve", "Thanksgiving", "New Year's Eve", "New Year's Day", "Easter", "Labor Day",
    "Memorial Day", "the 4th of July", "Halloween", "Valentine's Day", "Mother's Day", "Father's Day",
)
WEEKDAYS: tuple[str, ...] = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS: tuple[str, ...] = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
)
_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
         "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(n: int) -> str:
    if n < 20:
        return _ONES[n]
    if n < 100:
        t, o = divmod(n, 10)
        return _TENS[t] + (f"-{_ONES[o]}" if o else "")
    rest = n - 100
    return "one hundred" + (f" {number_words(rest)}" if rest else "")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass
class Person:
    first: str
    last: str
    sex: str  # "F" or "M"
    middle: str = ""
    nickname: str | None = None
    relation: str = ""  # for relatives: wife, son, ...

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"


@dataclass
class Cast:
    """Everything one note may mention: the header's patient plus people and places outside the header."""

    patient_id: str
    pt: Person
    visit: dt.date
    dob: dt.date
    age: int
    mrn: str
    ssn: str
    healthplan: str
    account: str
    street: str
    apt: str
    city: str
    state: tuple[str, str]
    zip: str
    home_phone: str
    cell_phone: str
    email: str
    nok: list[Person]
    others: list[Person]  # relatives and contacts NOT in the header
    doctors: dict[str, Person]  # role -> person; roles in HEADER_ROLES go into the header
    nurses: list[Person]
    hospital: str
    hospital2: str
    department: str
    department2: str
    room: str
    profession: str
    profession2: str
    employer: str
    school: str
    insurer: str
    country: str
    location: str
    city2: str
    state2: tuple[str, str]
    usernames: list[str]
    extra: dict[str, str] = field(default_factory=dict)

    def header(self) -> PatientHeader:
        pt = self.pt
        names = [f"{pt.first} {pt.middle + ' ' if pt.middle else ''}{pt.last}", f"{pt.last}, {pt.first}"]
        return PatientHeader(
            patient_id=self.patient_id,
            names=names,
            mrn=self.mrn,
            identifiers=[
                Identifier(value=self.healthplan, type=P.HEALTHPLAN, system=self.insurer),
                Identifier(value=self.account, type=P.ACCOUNT),
                Identifier(value=self.ssn, type=P.SSN),
            ],
            birth_date=self.dob,
            sex=pt.sex,
            address=Address(street=[self.street] + ([self.apt] if self.apt else []), city=self.city,
                            state=self.state[0], zip=self.zip, country="USA"),
            phones=[self.home_phone, self.cell_phone],
            emails=[self.email],
            next_of_kin=[p.full for p in self.nok],
            doctors=[self.doctors[r].full for r in HEADER_ROLES],
        )


HEADER_ROLES: tuple[str, ...] = ("att", "pcp", "ref")
OTHER_ROLES: tuple[str, ...] = ("con", "res", "rad", "path", "surg", "anes", "cov", "psych", "cards")
ADULT_RELATIONS_F: tuple[str, ...] = ("wife", "daughter", "sister", "mother", "niece", "granddaughter", "partner")
ADULT_RELATIONS_M: tuple[str, ...] = ("husband", "son", "brother", "father", "nephew", "grandson", "partner")


def _person(fake: Faker, rng: random.Random, sex: str | None = None, last: str | None = None) -> Person:
    sex = sex or rng.choice("FM")
    if rng.random() < 0.2:
        pool = [k for k in NICKNAMES if (k in _FEMALE_NICK) == (sex == "F")]
        first = rng.choice(pool)
    else:
        first = fake.first_name_female() if sex == "F" else fake.first_name_male()
    if last is None:
        last = fake.last_name()
        if rng.random() < 0.08:
            last = f"{last}-{fake.last_name()}"
    middle = (fake.first_name_female() if sex == "F" else fake.first_name_male()) if rng.random() < 0.6 else ""
    return Person(first=first, last=last, sex=sex, middle=middle, nickname=NICKNAMES.get(first))


_FEMALE_NICK = frozenset({"Elizabeth", "Margaret", "Katherine", "Jennifer", "Patricia", "Susan", "Deborah",
                          "Rebecca", "Kimberly", "Jacqueline", "Barbara", "Dorothy"})


def _phone(rng: random.Random) -> str:
    """A canonical 10-digit phone as stored in headers: ``617-555-0123``."""
    return f"{rng.randint(201, 989)}-{rng.randint(200, 989)}-{rng.randint(0, 9999):04d}"


def _hospital(fake: Faker, rng: random.Random, city: str) -> str:
    r = rng.random()
    if r < 0.35:
        return f"{city} {rng.choice(HOSPITAL_SUFFIXES)}"
    if r < 0.65:
        return f"{fake.last_name()} {rng.choice(HOSPITAL_SUFFIXES)}"
    if r < 0.9:
        return f"{rng.choice(SAINTS)} {rng.choice(('Hospital', 'Medical Center', 'Hospital Center'))}"
    return f"{fake.last_name()} Clinic"


def _mrn(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.35:
        return f"{rng.choice(('MC', 'MR', 'BH', 'GH', 'UH'))}-{rng.randint(0, 9999999):07d}"
    if r < 0.7:
        return f"{rng.randint(0, 99999999):08d}"
    if r < 0.85:
        return f"{rng.randint(10, 99)}-{rng.randint(10, 99)}-{rng.randint(10, 99)}-{rng.randint(0, 9)}"
    return f"{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.randint(1000000, 9999999)}"


def make_cast(fake: Faker, rng: random.Random, patient_id: str, *, pediatric: bool = False) -> Cast:
    visit = dt.date(2004, 1, 1) + dt.timedelta(days=rng.randint(0, 365 * 20))
    if pediatric:
        age = rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17))
    else:
        age = rng.choice((rng.randint(18, 89), rng.randint(40, 89), rng.randint(60, 104)))
    dob = visit - dt.timedelta(days=age * 365 + rng.randint(age // 4 + 1, age // 4 + 360))
    age = visit.year - dob.year - ((visit.month, visit.day) < (dob.month, dob.day))
    pt = _person(fake, rng)
    if pediatric:
        nok = [_person(fake, rng, "F", pt.last), _person(fake, rng, "M", pt.last if rng.random() < 0.7 else None)]
        nok[0].relation, nok[1].relation = "mother", "father"
    else:
        k = _person(fake, rng)
        if rng.random() < 0.5:
            k.last = pt.last
        k.relation = rng.choice(ADULT_RELATIONS_F if k.sex == "F" else ADULT_RELATIONS_M)
        nok = [k]
    others = []
    for _ in range(3):
        o = _person(fake, rng)
        rels_f = ("sister", "aunt", "friend", "neighbor", "grandmother", "cousin", "stepdaughter", "caregiver")
        rels_m = ("brother", "uncle", "friend", "neighbor", "grandfather", "cousin", "stepson", "roommate")
        o.relation = rng.choice(rels_f if o.sex == "F" else rels_m)
        others.append(o)
    doctors = {r: _person(fake, rng) for r in HEADER_ROLES + OTHER_ROLES}
    city = rng.choice(CITIES) if rng.random() < 0.7 else fake.city()
    state = rng.choice(STATES)
    apt = rng.choice(("", "", "", f"Apt {rng.randint(1, 40)}", f"Unit {rng.randint(1, 9)}{rng.choice('ABC')}"))
    street = fake.street_address()
    if " Apt. " in street or " Suite " in street:
        street = street.split(" Apt. ")[0].split(" Suite ")[0]
    user_people = [doctors["att"], doctors["res"], doctors["cov"]]
    usernames = []
    for p in user_people:
        style = rng.random()
        if style < 0.4:
            usernames.append(f"{p.first[0].lower()}{p.last.lower().replace('-', '')}{rng.randint(1, 99)}")
        elif style < 0.7:
            usernames.append(f"{p.first[0]}{(p.middle or 'X')[0]}{p.last[0]}{rng.randint(10, 999)}".lower())
        else:
            usernames.append(fake.user_name())
    hosp_city = rng.choice(CITIES)
    return Cast(
        patient_id=f"P{rng.randint(0, 10**9):09d}" if not patient_id else patient_id,
        pt=pt, visit=visit, dob=dob, age=age, mrn=_mrn(rng),
        ssn=f"{rng.randint(100, 899):03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}",
        healthplan=rng.choice((f"{rng.choice(('XJH', 'YUB', 'ZGP', 'W'))}{rng.randint(10**8, 10**9 - 1)}",
                               f"{rng.randint(10**8, 10**9 - 1)}-{rng.randint(1, 99):02d}",
                               f"{rng.randint(1, 9)}{rng.choice('ABCDEFGHJK')}{rng.randint(10**6, 10**7 - 1)}"
                               f"{rng.choice('ABCDEFGHJK')}")),
        account=rng.choice((str(rng.randint(10**9, 10**10 - 1)), f"A{rng.randint(10**6, 10**7 - 1)}",
                            f"{rng.randint(100, 999)}-{rng.randint(100000, 999999)}")),
        street=street, apt=apt, city=city, state=state, zip=f"{rng.randint(1001, 99950):05d}",
        home_phone=_phone(rng), cell_phone=_phone(rng),
        email=rng.choice((f"{pt.first.lower()}.{pt.last.lower().replace('-', '')}@{fake.free_email_domain()}",
                          fake.free_email(), f"{pt.first[0].lower()}{pt.last.lower()[:6]}{rng.randint(1, 99)}"
                          f"@{fake.free_email_domain()}")),
        nok=nok, others=others, doctors=doctors,
        nurses=[_person(fake, rng) for _ in range(3)],
        hospital=_hospital(fake, rng, hosp_city), hospital2=_hospital(fake, rng, rng.choice(CITIES)),
        department=rng.choice(DEPARTMENTS), department2=rng.choice(DEPARTMENTS),
        room=rng.choice((str(rng.randint(100, 1299)), f"{rng.randint(2, 12)}{rng.choice('ABCDN')}",
                         f"{rng.randint(2, 14)}{rng.choice('ABC')}-{rng.randint(1, 40):02d}",
                         f"{rng.choice('ABCDEFGW')}{rng.randint(100, 999)}")),
        profession=rng.choice(PROFESSIONS), profession2=rng.choice(PROFESSIONS),
        employer=fake.company(), school=f"{rng.choice(CITIES + (fake.last_name(),))} {rng.choice(SCHOOL_SUFFIXES)}",
        insurer=rng.choice(INSURERS), country=rng.choice(COUNTRIES), location=rng.choice(LOCATION_OTHER),
        city2=rng.choice(CITIES), state2=rng.choice(STATES), usernames=usernames,
    )


# --- surface forms -------------------------------------------------------------------------------------


def name_forms(p: Person, typ: PhiType, form: str, rng: random.Random) -> list[Piece]:
    """A name in one surface form; titles and credentials are glue, only the name is labelled."""
    title = ("Ms." if rng.random() < 0.6 else "Mrs.") if p.sex == "F" else "Mr."
    mid_init = f" {p.middle[0]}." if p.middle and rng.random() < 0.6 else ""
    if form == "any":
        form = rng.choice(("full", "full", "title", "title", "first", "init", "lf", "last"))
    if form == "full":
        first = p.nickname if p.nickname and rng.random() < 0.25 else p.first
        return [(f"{first}{mid_init} {p.last}", typ)]
    if form == "fml":
        return [(f"{p.first} {p.middle + ' ' if p.middle else ''}{p.last}", typ)]
    if form == "lf":  # SMITH, JOHN A
        mi = f" {p.middle[0]}" if p.middle and rng.random() < 0.7 else ""
        return [(f"{p.last.upper()}, {p.first.upper()}{mi}", typ)]
    if form == "lfc":  # Smith, John
        return [(f"{p.last}, {p.first}{mid_init}", typ)]
    if form == "title":
        return [(title + " ", None), (p.last, typ)]
    if form == "last":
        return [(p.last, typ)]
    if form == "first":
        return [(p.nickname if p.nickname and rng.random() < 0.5 else p.first, typ)]
    if form == "nick":
        return [(p.nickname or p.first, typ)]
    if form == "init":  # J. Smith
        return [(f"{p.first[0]}. {p.last}", typ)]
    if form == "ini":  # JS
        return [(f"{p.first[0]}{p.middle[0] if p.middle and rng.random() < 0.5 else ''}{p.last[0]}", typ)]
    if form == "poss":
        return [*name_forms(p, typ, rng.choice(("title", "first", "last")), rng), ("'s", None)]
    if form == "dr":
        return [(rng.choice(("Dr. ", "Dr. ", "Dr ", "DR. ")), None), (p.last, typ)]
    if form == "drfull":
        return [(rng.choice(("Dr. ", "Dr ")), None), (f"{p.first}{mid_init} {p.last}", typ)]
    if form == "md":
        return [(f"{p.first}{mid_init} {p.last}", typ), (rng.choice((", MD", " MD", ", M.D.", ", DO", ", MD, PhD")), None)]
    if form == "mdi":
        return [(f"{p.first[0]}. {p.last}", typ), (rng.choice((", MD", " MD", ", M.D.")), None)]
    if form == "ss":
        return [(rng.choice(("/ss/ ", "/s/ ", "s/ ")), None), (f"{p.first[0]}. {p.last}", typ)]
    if form == "rn":
        return [(f"{p.first} {p.last}", typ), (rng.choice((", RN", " RN", ", LPN", ", NP", ", PA-C", " RN BSN")), None)]
    if form == "drposs":
        return [("Dr. ", None), (p.last, typ), ("'s", None)]
    if form == "lower":
        return [(f"{p.first.lower()} {p.last.lower()}", typ)]
    raise ValueError(f"unknown name form {form!r}")


def date_forms(d: dt.date, form: str, rng: random.Random) -> list[Piece]:
    m, day, y = d.month, d.day, d.year
    mon = MONTHS[m - 1]
    opts: dict[str, tuple[str, ...]] = {
        "num": (f"{m:02d}/{day:02d}/{y}", f"{m}/{day}/{y % 100:02d}", f"{m}/{day}/{y}", f"{y}-{m:02d}-{day:02d}",
                f"{m:02d}-{day:02d}-{y}", f"{m}.{day}.{y % 100:02d}"),
        "long": (f"{mon} {ordinal(day)}, {y}", f"{mon} {day}, {y}", f"{day}-{mon[:3]}-{y}",
                 f"{day:02d}-{mon[:3].upper()}-{y}", f"{day} {mon} {y}", f"{mon[:3]}. {day}, {y}",
                 f"{mon[:3]} {day} {y}"),
        "short": (f"{mon[:3]} {day}", f"{mon} {day}", f"{m}/{day}", f"{mon} {ordinal(day)}", f"{day}-{mon[:3]}",
                  f"{m}/{day:02d}"),
        "my": (f"{mon} {y}", f"{mon[:3]} {y}", f"{m}/{y % 100:02d}", f"{m:02d}/{y}", f"{mon[:3]}-{y % 100:02d}"),
        "year": (str(y), str(y), f"'{y % 100:02d}"),
        "compact": (f"{y}{m:02d}{day:02d}", f"{m:02d}{day:02d}{y % 100:02d}"),
    }
    if form == "any":
        form = rng.choice(("num", "num", "num", "long", "long", "short"))
    if form == "weekday":
        wd = WEEKDAYS[d.weekday()]
        return [(wd if rng.random() < 0.8 else wd[:3], P.DATE)]
    return [(rng.choice(opts[form]), P.DATE)]


def age_forms(age: int, form: str, rng: random.Random, sex: str = "M") -> list[Piece]:
    a = str(age)
    if form == "any":
        form = rng.choice(("yo", "yearold", "yearold", "words", "num", "compact", "yrs"))
    if form == "yo":
        return [(a, P.AGE), (rng.choice((" yo", " y/o", " y.o.", " yo", "yo", " YO")), None)]
    if form == "yearold":
        return [(a, P.AGE), (rng.choice(("-year-old", " year old", "-yr-old", " year-old")), None)]
    if form == "words":
        w = number_words(age)
        return [(w if rng.random() < 0.7 else w.capitalize(), P.AGE), (rng.choice(("-year-old", " year old")), None)]
    if form == "compact":  # 93M, 93 F
        return [(a, P.AGE), (rng.choice(("", " ")) + sex, None)]
    if form == "yrs":
        return [(a, P.AGE), (rng.choice((" yrs", " years", " yrs old", " years of age")), None)]
    if form == "num":
        return [(a, P.AGE)]
    if form == "months":
        return [(a, P.AGE), (rng.choice(("-month-old", " mo", " months", "-mo-old")), None)]
    raise ValueError(f"unknown age form {form!r}")


def phone_forms(number: str, rng: random.Random, typ: PhiType = P.PHONE, form: str = "any") -> list[Piece]:
    a, b, c = number.split("-")
    opts = (f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"{a}.{b}.{c}", f"{a}{b}{c}", f"({a}){b}-{c}", f"1-{a}-{b}-{c}",
            f"+1 {a} {b} {c}", f"{a} {b} {c}", f"{b}-{c}", f"({a}) {b}-{c}")
    if form == "local":
        return [(f"{b}-{c}", typ)]
    v = rng.choice(opts)
    if rng.random() < 0.08:  # an extension written with the number belongs to it
        v += rng.choice((" x", " ext. ", " ext ")) + str(rng.randint(100, 9999))
    return [(v, typ)]


def mrn_forms(mrn: str, rng: random.Random) -> str:
    r = rng.random()
    if r < 0.7:
        return mrn
    if r < 0.85:
        return mrn.replace("-", "")
    return mrn.replace("-", " ")


def ids(rng: random.Random, fake: Faker, kind: str) -> str:
    """Identifiers that are not in the header (generated fresh for each mention)."""
    L = "ABCDEFGHJKLMNPRSTUVWXYZ"
    if kind == "lic":
        return rng.choice((f"{rng.choice(L)}{rng.choice(L)}{rng.randint(10**6, 10**7 - 1)}",
                           str(rng.randint(10**9, 10**10 - 1)), f"{rng.choice(('MD', 'RN', 'PA'))}-{rng.randint(10000, 99999)}",
                           f"{rng.randint(100000, 999999)}", f"S{rng.randint(10**7, 10**8 - 1)}"))
    if kind == "plate":
        return rng.choice((f"{rng.randint(1, 9)}{rng.choice(L)}{rng.choice(L)}{rng.choice(L)}{rng.randint(100, 999)}",
                           f"{rng.choice(L)}{rng.choice(L)}{rng.choice(L)} {rng.randint(1000, 9999)}",
                           f"{rng.randint(100, 999)}-{rng.choice(L)}{rng.choice(L)}{rng.choice(L)}"))
    if kind == "vin":
        return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(17))
    if kind == "device":
        return rng.choice((f"{rng.choice(('PJN', 'RNX', 'SN', 'MDT', 'BSC'))}{rng.randint(100000, 9999999)}",
                           f"{rng.choice(L)}{rng.choice(L)}-{rng.randint(1000, 9999)}-{rng.choice(L)}{rng.randint(10, 99)}",
                           f"{rng.randint(10**7, 10**9)}{rng.choice(L)}"))
    if kind == "bioid":
        return rng.choice((f"FP-{rng.randint(10**6, 10**7 - 1)}", f"{rng.choice(('RET', 'IRS', 'VPR', 'BIO'))}"
                           f"{rng.randint(100000, 999999)}", f"{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}-"
                           f"{rng.choice(L)}{rng.choice(L)}"))
    if kind == "accession":
        return rng.choice((f"{rng.choice(('S', 'SP', 'C', 'H', 'CY'))}{rng.randint(4, 23):02d}-{rng.randint(1000, 99999)}",
                           f"{rng.randint(10, 99)}{rng.choice(L)}{rng.randint(100000, 999999)}",
                           f"{rng.choice(L)}{rng.choice(L)}{rng.randint(10**6, 10**7 - 1)}"))
    if kind == "idnum":
        return rng.choice((f"{rng.randint(10**5, 10**8)}", f"{rng.choice(L)}{rng.randint(10000, 999999)}",
                           f"{rng.randint(100, 999)}-{rng.randint(1000, 9999)}-{rng.choice(L)}",
                           f"{rng.choice(('REQ', 'ORD', 'CLM', 'RX', 'TKT'))}-{rng.randint(100000, 9999999)}"))
    if kind == "ip":
        return rng.choice((fake.ipv4_private(), fake.ipv4_public(), f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"))
    if kind == "url":
        dom = fake.domain_word()
        return rng.choice((f"www.{dom}.com", f"https://{dom}.org/patients/{rng.randint(1000, 99999)}",
                           f"http://www.{dom}.net/{fake.uri_path(deep=1)}", f"https://portal.{dom}health.org",
                           f"{dom}.com/{fake.uri_path(deep=2)}"))
    raise ValueError(f"unknown id kind {kind!r}")
