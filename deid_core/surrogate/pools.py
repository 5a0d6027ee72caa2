"""Curated replacement pools for locations, organizations and professions.

Cities, streets, companies, states and countries come from Faker (seeded per mapping key, so the
choice is deterministic); hospitals, departments, professions and other locations from the small
fictional lists below. Short all-capital originals (``MGH``, ``ICU``) are acronyms and get a random
acronym of the same length instead of a spelled-out name. Case style is kept (all caps, lowercase,
or as the pool writes it).
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

from deid_core.surrogate.formats import shape_preserving
from schemas import PhiType

if TYPE_CHECKING:  # Faker is imported at the first location surrogate: `deid detect` never needs it
    from faker import Faker

HOSPITAL_STEMS = (
    "Riverside", "Lakeview", "Northfield", "Cedar Grove", "Maple Valley", "Harborview", "Fairhaven",
    "Brookside", "Pinecrest", "Westbrook", "Stonebridge", "Oakridge", "Silver Lake", "Meadowbrook",
    "Clearwater", "Highland Park", "Saint Brendan", "Saint Agnes", "Mercy Ridge", "Greenfield",
    "Ashford", "Bayside", "Elmwood", "Kingsley", "Hollis", "Redfield", "Summit", "Willow Creek",
    "Eastgate", "Southport", "Granite Falls", "Rosewood", "Thornton", "Fox Hollow", "Larkspur",
)  # fmt: skip
HOSPITAL_KINDS = (
    "Hospital", "Medical Center", "General Hospital", "Regional Medical Center", "Community Hospital",
    "Clinic", "Health Center", "Memorial Hospital", "Rehabilitation Center", "Infirmary",
)  # fmt: skip
# Longest first so "Regional Medical Center" wins over "Medical Center".
_KIND_RE = re.compile(
    r"\b(" + "|".join(sorted((re.escape(k) for k in HOSPITAL_KINDS), key=len, reverse=True)) + r")\s*$",
    re.IGNORECASE,
)
DEPARTMENTS = (
    "Cardiology", "Oncology", "Neurology", "Radiology", "Orthopedics", "Gastroenterology",
    "Nephrology", "Pulmonology", "Dermatology", "Endocrinology", "Urology", "Rheumatology",
    "Hematology", "Internal Medicine", "Family Medicine", "Emergency Department", "Pediatrics",
    "Obstetrics", "Psychiatry", "Physical Therapy", "Infectious Disease", "Ophthalmology",
)  # fmt: skip
PROFESSIONS = (
    "teacher", "accountant", "electrician", "carpenter", "nurse", "engineer", "librarian",
    "mechanic", "chef", "plumber", "architect", "bus driver", "pharmacist", "firefighter",
    "farmer", "retail clerk", "software developer", "journalist", "painter", "truck driver",
    "social worker", "paralegal", "welder", "bank teller", "dental hygienist", "police officer",
    "construction worker", "graphic designer", "real estate agent", "postal worker",
)  # fmt: skip
OTHER_LOCATIONS = (
    "the community center", "the public library", "the county fairgrounds", "the town park",
    "the bus terminal", "the shopping mall", "the ski lodge", "the harbor", "the train station",
    "the recreation center", "the senior center", "the high school", "the stadium", "the beach",
)  # fmt: skip
_ACRONYM_RE = re.compile(r"^[A-Z]{2,6}$")


def keep_case(original: str, candidate: str) -> str:
    letters = [c for c in original if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return candidate.upper()
    if letters and all(c.islower() for c in letters):
        return candidate.lower()
    return candidate


def _pick(rng: random.Random, pool: tuple[str, ...] | list[str], original: str) -> str:
    avoid = original.strip().lower()
    choices = [p for p in pool if p.lower() != avoid] or list(pool)
    return rng.choice(choices)


def _seeded(fake: Faker, rng: random.Random) -> Faker:
    fake.seed_instance(rng.getrandbits(64))
    return fake


_ROOM_WORD_RE = re.compile(r"[A-Za-z]{3,}")


def _room(original: str, rng: random.Random) -> str:
    """Numbers and short codes replaced; words such as ``Room``, ``Bed`` or ``Suite`` kept."""
    out, last = [], 0
    for m in _ROOM_WORD_RE.finditer(original):
        out.append(original[last : m.start()])
        out.append(m.group(0))
        last = m.end()
    out.append(original[last:])
    # Even chunks lie between words; odd chunks are the kept words.
    result = "".join(
        shape_preserving(chunk, rng) if i % 2 == 0 and any(c.isalnum() for c in chunk) else chunk
        for i, chunk in enumerate(out)
    )
    return result if result != original else shape_preserving(original, rng)


def _hospital(original: str, rng: random.Random) -> str:
    m = _KIND_RE.search(original)
    kind = m.group(1).title() if m else rng.choice(HOSPITAL_KINDS)
    return f"{rng.choice(HOSPITAL_STEMS)} {kind}"


def _street(original: str, rng: random.Random, fake: Faker) -> str:
    m = re.match(r"^\s*(\d+[A-Za-z]?)(\s+)", original)
    name = _seeded(fake, rng).street_name()
    if m:
        return f"{shape_preserving(m.group(1), rng)}{m.group(2)}{name}"
    return name


def _state(original: str, rng: random.Random, fake: Faker) -> str:
    provider_states = fake.provider("faker.providers.address")
    if _ACRONYM_RE.match(original.strip()) and len(original.strip()) == 2:
        return _pick(rng, list(provider_states.states_abbr), original)  # type: ignore[union-attr]
    return _pick(rng, list(provider_states.states), original)  # type: ignore[union-attr]


def _country(original: str, rng: random.Random, fake: Faker) -> str:
    countries = list(fake.provider("faker.providers.address").countries)  # type: ignore[union-attr]
    return _pick(rng, [c for c in countries if len(c) <= 24], original)


def location_surrogate(type_: PhiType, original: str, rng: random.Random, fake: Faker) -> str:
    """A pool surrogate for a location, organization or profession, never the original itself."""
    stripped = original.strip()
    if type_ is PhiType.ROOM:
        return _room(original, rng)
    if type_ in (PhiType.HOSPITAL, PhiType.ORGANIZATION, PhiType.DEPARTMENT) and _ACRONYM_RE.match(stripped):
        return shape_preserving(original, rng)
    for _ in range(8):
        if type_ is PhiType.HOSPITAL:
            candidate = _hospital(original, rng)
        elif type_ is PhiType.ORGANIZATION:
            candidate = _seeded(fake, rng).company()
        elif type_ is PhiType.CITY:
            candidate = _seeded(fake, rng).city()
        elif type_ is PhiType.STREET:
            candidate = _street(original, rng, fake)
        elif type_ is PhiType.STATE:
            candidate = _state(original, rng, fake)
        elif type_ is PhiType.COUNTRY:
            candidate = _country(original, rng, fake)
        elif type_ is PhiType.DEPARTMENT:
            candidate = _pick(rng, DEPARTMENTS, original)
        elif type_ is PhiType.PROFESSION:
            candidate = _pick(rng, PROFESSIONS, original)
        elif type_ is PhiType.LOCATION_OTHER:
            candidate = _pick(rng, OTHER_LOCATIONS, original)
        else:
            raise ValueError(f"{type_} has no location pool")
        candidate = keep_case(original, candidate)
        if candidate.lower() != stripped.lower():
            return candidate
    return shape_preserving(original, rng)
