"""Value pools for people, places and contacts the header does not know.

Invented ward, facility and town names (syllable + syllable), hospital abbreviations built from those
facilities, employers, schools, churches, agencies, nickname pairs, professions in their everyday
wordings, and contacts written to dodge patterns (spelled-out digits, ``name at example dot com``,
handles, extensions, pagers). These lists are written here on purpose and never imported from
``deid_core.lexicon``: if the generator drew from the detectors' own lexicons, evaluation would only
measure the overlap of two copies of one list.
"""

from __future__ import annotations

import random

# Syllables for invented proper names: "Hart" + "well" -> "Hartwell".
_HEADS: tuple[str, ...] = (
    "Hart", "Brad", "Whit", "Dun", "Kes", "Ash", "Thorn", "Pem", "Wick", "Sel", "Ald", "Mar", "Gran", "Hol",
    "Lang", "Pres", "Calder", "Fen", "Brom", "Cor", "Tal", "Wex", "Rad", "Bel", "Hal", "Nor", "Stan",
    "Quen", "Mer", "Ever", "Oak", "Win", "Crans", "Lud", "Ros", "Bix", "Yar", "Gil", "Har", "Kin",
)
_TAILS: tuple[str, ...] = (
    "well", "ley", "comb", "more", "ton", "ford", "bury", "field", "wood", "brook", "mont", "ridge",
    "stead", "ham", "worth", "dale", "hurst", "wick", "by", "gate", "stow", "mere", "cott", "haven",
)
WINGS: tuple[str, ...] = ("North", "South", "East", "West")
FACILITY_HEADS: tuple[str, ...] = (
    "General", "General Hospital", "Memorial Hospital", "Medical Center", "Regional Hospital",
    "Community Hospital", "Rehabilitation Hospital", "Nursing and Rehabilitation Center", "Health Center",
    "Hospice House", "Senior Living", "Dialysis Center", "Family Practice", "Manor", "Behavioral Hospital",
)
SAINT_NAMES: tuple[str, ...] = (
    "Brendan", "Cyril", "Agatha", "Ignatius", "Bridget", "Casimir", "Hedwig", "Ambrose", "Clement",
    "Monica", "Rita", "Jude", "Dymphna", "Leo", "Columba", "Adalbert",
)
INDUSTRIES: tuple[str, ...] = (
    "Foundry", "Tool & Die", "Paper Company", "Logistics", "Mills", "Precision Machining", "Plastics",
    "Distribution", "Auto Body", "Landscaping", "Credit Union", "Savings Bank", "Dairy", "Printing",
    "Roofing", "Seafood", "Textiles", "Freight", "Electric", "Construction",
)
_NATURE: tuple[str, ...] = ("Quarry", "Maple", "Cedar", "Pine", "Mill", "Fox", "Birch", "Stone", "Elm",
                            "Heron", "Willow", "Orchard", "Bay", "Granite")
_FEATURE: tuple[str, ...] = ("Hill", "Brook", "Ridge", "Pond", "Meadow", "Hollow", "Point", "Run", "Park")
SCHOOL_KINDS: tuple[str, ...] = ("Elementary", "Elementary School", "Middle School", "High School", "High",
                                 "Academy", "Montessori", "Preschool", "Community College", "Regional High")
DENOMINATIONS: tuple[str, ...] = ("Baptist", "Lutheran", "Methodist", "Pentecostal", "Congregational",
                                  "Presbyterian", "Episcopal", "Adventist")
CHURCH_HEADS: tuple[str, ...] = ("First", "Second", "Grace", "Calvary", "Bethel", "Emmanuel", "Trinity", "Zion")
AGENCY_FORMS: tuple[str, ...] = (
    "{w} Visiting Nurse Association", "{w} VNA", "Elder Services of {w}", "{w} Home Care", "{w} Council on Aging",
    "{w} Adult Day Health", "{w} Housing Authority", "{w} Community Action", "{w} Hospice and Palliative Care",
    "{w} Recovery Services", "{w} Family Services",
)
# Formal name -> everyday name, with the sex the formal name is usually given to.
NICK_PAIRS: tuple[tuple[str, str, str], ...] = (
    ("Eleanor", "Ellie", "F"), ("Francis", "Frank", "M"), ("Henrietta", "Hattie", "F"), ("Wilhelmina", "Mina", "F"),
    ("Cornelius", "Neil", "M"), ("Alfred", "Fred", "M"), ("Josephine", "Jo", "F"), ("Florence", "Flo", "F"),
    ("Harold", "Hal", "M"), ("Gertrude", "Trudy", "F"), ("Mildred", "Millie", "F"), ("Benjamin", "Ben", "M"),
    ("Virginia", "Ginny", "F"), ("Eugene", "Gene", "M"), ("Augustus", "Gus", "M"), ("Catherine", "Cathy", "F"),
    ("Frederick", "Fritz", "M"), ("Lucinda", "Cindy", "F"), ("Leonard", "Len", "M"), ("Isabella", "Izzy", "F"),
    ("Roberta", "Bobbie", "F"), ("Salvatore", "Sal", "M"), ("Winifred", "Winnie", "F"), ("Archibald", "Archie", "M"),
)
# Occupations as people say them; some are multi-word ("school bus driver") on purpose.
JOBS: tuple[str, ...] = (
    "school bus driver", "forklift operator", "welder", "electrician", "librarian", "line cook", "crossing guard",
    "long-haul trucker", "sheet metal worker", "dental assistant", "pipefitter", "bartender", "barber",
    "postal clerk", "seamstress", "tailor", "shipyard worker", "meat cutter", "stonemason", "bookkeeper",
    "insurance adjuster", "dispatcher", "HVAC technician", "day care worker", "custodian", "bricklayer",
    "warehouse worker", "nanny", "rideshare driver", "nail technician", "lobsterman", "mill worker",
    "paramedic", "court stenographer", "piano teacher", "toll collector", "grocery clerk", "mason",
    "hairstylist", "cabinetmaker", "auto mechanic", "tax preparer", "firefighter", "machinist",
)
_DIGITS: tuple[str, ...] = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
TLDS: tuple[str, ...] = ("com", "net", "org")


def invented_word(rng: random.Random) -> str:
    return rng.choice(_HEADS) + rng.choice(_TAILS)


def ward(rng: random.Random) -> str:
    """A named ward or unit: ``Hartwell 4``, ``Bradley 2 North``, ``Pod C``, ``Whitcomb Pavilion``."""
    w, n = invented_word(rng), rng.randint(2, 12)
    return rng.choice((f"{w} {n}", f"{w} {n}", f"{w} {n} {rng.choice(WINGS)}", f"{w} {n}{rng.choice('ABC')}",
                       f"Pod {rng.choice('ABCDEF')}", f"{w} Pavilion", f"{w} {n} ICU", f"{w} {n} Step-Down"))


def facility(rng: random.Random) -> str:
    """An invented facility name whose capitalised words give a 2-4 letter abbreviation."""
    head = rng.choice(FACILITY_HEADS)
    r = rng.random()
    if r < 0.25:
        return f"Saint {rng.choice(SAINT_NAMES)} {head if head != 'General' else 'Hospital'}"
    if r < 0.45:
        return f"{rng.choice(_NATURE)} {rng.choice(_FEATURE)} {head}"
    return f"{invented_word(rng)} {head}"


def abbreviation(name: str) -> str:
    """``Saint Cyril Medical Center`` -> ``SCMC``; function words do not count."""
    letters = "".join(w[0] for w in name.split() if w[0].isupper())
    return letters[:4] if len(letters) >= 2 else (name[:3].upper())


def town(rng: random.Random) -> str:
    return rng.choice((invented_word(rng), invented_word(rng), f"East {invented_word(rng)}",
                       f"{invented_word(rng)} Falls", f"North {invented_word(rng)}"))


def employer(rng: random.Random, last_name: str) -> str:
    ind = rng.choice(INDUSTRIES)
    return rng.choice((f"{invented_word(rng)} {ind}", f"Consolidated {ind}", f"{last_name} & Sons",
                       f"{last_name} {ind}", f"{rng.choice(_NATURE)} {rng.choice(_FEATURE)} {ind}"))


def school(rng: random.Random) -> str:
    kind = rng.choice(SCHOOL_KINDS)
    return rng.choice((f"{rng.choice(_NATURE)} {rng.choice(_FEATURE)} {kind}", f"{invented_word(rng)} {kind}"))


def church(rng: random.Random) -> str:
    return rng.choice((f"St. {rng.choice(SAINT_NAMES)}'s", f"St. {rng.choice(SAINT_NAMES)}'s Parish",
                       f"{rng.choice(CHURCH_HEADS)} {rng.choice(DENOMINATIONS)} Church",
                       f"{invented_word(rng)} Islamic Center", f"Temple Beth {invented_word(rng)}",
                       f"{invented_word(rng)} Kingdom Hall"))


def agency(rng: random.Random) -> str:
    return rng.choice(AGENCY_FORMS).format(w=invented_word(rng))


def pharmacy(rng: random.Random) -> str:
    return rng.choice((f"{invented_word(rng)} Pharmacy", f"{invented_word(rng)} Apothecary",
                       f"{rng.choice(_NATURE)} {rng.choice(_FEATURE)} Pharmacy"))


def spelled_phone(number: str, rng: random.Random) -> str:
    """``413-555-0122`` -> ``four one three, five five five, oh one two two`` (and other groupings)."""
    zero = rng.choice(("zero", "oh"))
    groups = [" ".join(zero if d == "0" else _DIGITS[int(d)] for d in g) for g in number.split("-")]
    if rng.random() < 0.25:
        groups = [g.replace(" ", "-") for g in groups]
    return rng.choice((", ", " ", " - ", "... ")).join(groups)


def obfuscated_email(first: str, last: str, rng: random.Random, domain_word: str) -> str:
    user = rng.choice((f"{first}.{last}", f"{first[0]}{last}", f"{first}{rng.randint(1, 99)}", f"{last}.{first[0]}"))
    user = user.lower().replace("-", "").replace("'", "")
    at, dot = rng.choice((("at", "dot"), ("(at)", "(dot)"), ("[at]", "[dot]"), ("at", ".")))
    dom = f"{domain_word} {dot} {rng.choice(TLDS)}" if dot != "." else f"{domain_word}.{rng.choice(TLDS)}"
    if rng.random() < 0.3 and dot == "dot":
        user = user.replace(".", " dot ")
    return f"{user} {at} {dom}"


def handle(first: str, last: str, rng: random.Random) -> str:
    f, la = first.lower(), last.lower().replace("-", "").replace("'", "")
    return rng.choice((f"{f}{la[:4]}{rng.randint(1, 99)}", f"{f}_{la}", f"the_real_{f}", f"{f[0]}{la}{rng.randint(70, 99)}",
                       f"{f}.{la[0]}", f"{la}{f[0]}_{rng.randint(1, 9)}"))


def extension(rng: random.Random) -> str:
    n = str(rng.randint(100, 9999)) if rng.random() < 0.6 else str(rng.randint(10, 99))
    return rng.choice((f"x{n}" if len(n) >= 3 else f"x{n}0", f"ext {n}", f"ext. {n}", f"extension {n}"))


def pager(rng: random.Random) -> str:
    return str(rng.choice((rng.randint(1000, 9999), rng.randint(100, 999), rng.randint(10000, 99999))))


def initials(first: str, middle: str, last: str, rng: random.Random) -> str:
    ini = f"{first[0]}{middle[0] if middle and rng.random() < 0.6 else ''}{last[0]}"
    return ini.lower() if rng.random() < 0.6 else ini.upper()
