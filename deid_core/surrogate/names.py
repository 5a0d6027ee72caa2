"""Split a person-name mention into tokens that map one by one, and keep everything else.

``SMITH, JOHN A`` becomes ``[last SMITH] ", " [first JOHN] " " [initial A]``; each mapped token is
replaced by a surrogate of the same role, so ``Smith`` maps to the same surname whether it appears
in ``John Smith``, ``Mr. Smith's`` or ``SMITH, JOHN``. A token is a first name when it is in the
locale's first-name lists (male, female or both: that decides the surrogate's gender), an initial
when it is one letter (or two or three capitals that are no known name, such as ``JS``), and a
surname otherwise. Honorifics and credentials (``Mr.``, ``Dr``, ``Jr``, ``MD``) and a possessive
``'s`` are kept. Case is kept per token: ``SMITH`` -> ``JONES``, ``smith`` -> ``jones``.
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass

_KEEP = frozenset(
    "mr mrs ms miss mx dr prof sir dame rev jr sr ii iii iv md rn np pa phd dds dmd mph facs lpn crna".split()
)
_TOKEN_RE = re.compile(
    r"(?P<word>[^\W\d_]+(?:['\u2019][^\W\d_]{2,})*)|(?P<digits>\d+)|(?P<other>.)", re.DOTALL
)


@dataclass(frozen=True, slots=True)
class NamePools:
    male: tuple[str, ...]
    female: tuple[str, ...]
    last: tuple[str, ...]
    male_set: frozenset[str]
    female_set: frozenset[str]
    last_set: frozenset[str]

    def first_pool(self, gender: str) -> tuple[str, ...]:
        if gender == "male":
            return self.male
        if gender == "female":
            return self.female
        return self.male + self.female


@functools.cache
def name_pools(locale: str = "en_US") -> NamePools:
    """Faker's first and last names for ``locale`` (falls back to en_US when it has none)."""
    try:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        male, female, last = provider.first_names_male, provider.first_names_female, provider.last_names
    except (ImportError, AttributeError):
        provider = importlib.import_module("faker.providers.person.en_US").Provider
        male, female, last = provider.first_names_male, provider.first_names_female, provider.last_names
    male_t, female_t, last_t = (tuple(dict.fromkeys(x)) for x in (male, female, last))
    return NamePools(
        male=male_t,
        female=female_t,
        last=last_t,
        male_set=frozenset(n.lower() for n in male_t),
        female_set=frozenset(n.lower() for n in female_t),
        last_set=frozenset(n.lower() for n in last_t),
    )


@dataclass(frozen=True, slots=True)
class NamePiece:
    """``role`` is ``keep`` (copied as is), ``first``, ``last``, ``initial`` or ``digits``."""

    text: str
    role: str
    gender: str = ""  # for first names: "male", "female" or "any"

    @property
    def normalized(self) -> str:
        return self.text.lower()


def case_of(token: str) -> str:
    if len(token) > 1 and token.isupper():
        return "upper"
    if token.islower():
        return "lower"
    return "title"


def apply_name_case(surrogate: str, case: str) -> str:
    if case == "upper":
        return surrogate.upper()
    if case == "lower":
        return surrogate.lower()
    return surrogate


def split_name(text: str, pools: NamePools) -> list[NamePiece]:
    pieces: list[NamePiece] = []
    for m in _TOKEN_RE.finditer(text):
        tok = m.group(0)
        if m["digits"] is not None:
            pieces.append(NamePiece(tok, "digits"))
            continue
        if m["other"] is not None:
            pieces.append(NamePiece(tok, "keep"))
            continue
        low = tok.lower()
        prev = pieces[-1].text if pieces else ""
        if low == "s" and prev in ("'", "\u2019"):
            pieces.append(NamePiece(tok, "keep"))  # possessive
        elif low in _KEEP and len(tok) > 1:
            pieces.append(NamePiece(tok, "keep"))
        elif len(tok) == 1:
            pieces.append(NamePiece(tok, "initial"))
        elif low in pools.male_set or low in pools.female_set:
            male, female = low in pools.male_set, low in pools.female_set
            gender = "any" if male and female else "male" if male else "female"
            pieces.append(NamePiece(tok, "first", gender))
        elif len(tok) <= 3 and tok.isupper() and low not in pools.last_set:
            pieces.extend(NamePiece(c, "initial") for c in tok)  # "JS" reads as initials
        else:
            pieces.append(NamePiece(tok, "last"))
    return pieces
