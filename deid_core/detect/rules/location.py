"""LOCATION patterns: street addresses, PO boxes, ``City, ST 02114`` lines, ZIP codes, rooms.

A bare 5-digit number is far more often a lab value or an ID than a ZIP, so ZIPs are only tagged
after a state or the word "zip"; cities and states only inside a full ``City, ST ZIP`` line, where a
postal code's ZIP starts with its area's digit (``MA 02114``; ``Lupe Fifita, ID 40117`` is an id).
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import followed_by_unit, word_start
from schemas import PhiType

STATE_ABBREVIATIONS = (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND "
    "OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR VI GU AS MP"
).split()
STATE_NAMES = (
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware", "Florida",
    "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine",
    "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska",
    "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio",
    "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas",
    "Utah", "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming", "Puerto Rico",
    "District of Columbia",
)
_STATE = (
    "(?:"
    + "|".join(f"{w[0]}(?<!\\w{w[0]}){w[1:]}" for w in sorted(STATE_NAMES, key=len, reverse=True))
    + "|"
    + "|".join(f"{w[0]}(?<!\\w{w[0]}){w[1:]}" for w in STATE_ABBREVIATIONS)
    + r"|M(?<!\wM)ass\.|C(?<!\wC)alif\.|P(?<!\wP)enn\.)"
)
_ZIP = r"\d{5}(?:-\d{4})?(?![\d\-])"
_CITY_WORD = r"(?:[A-Z][a-z]+(?:['\u2019][A-Za-z]+)?|[A-Z]{3,}|St\.)"
# The city is found by looking back from the state. A multi-word city ("New York", "Salt Lake City")
# needs a clear left edge (line start, comma, "in"/"at"/...); otherwise one word, so that
# "Seen at Oak Street Boston, MA" does not swallow the street.
_CITY_BEFORE_MULTI = re.compile(
    rf"(?:^|[,\n.;:]|\b(?:in|from|near))[ \t]*(?P<city>{_CITY_WORD}(?:[ \-]{_CITY_WORD}){{0,2}}),?[ \t]+$"
)
_CITY_BEFORE_ONE = re.compile(rf"\b(?P<city>{_CITY_WORD}),?[ \t]+$")
_CITY_WINDOW = 60


_STATE_BEFORE = re.compile(rf"(?P<state>{_STATE})(?![A-Za-z]),?[ \t]+$")
_STATE_WINDOW = 30


def _state_before(text: str, m: re.Match[str]) -> re.Match[str] | None:
    return _STATE_BEFORE.search(text, max(0, m.start() - _STATE_WINDOW), m.start())


# The first digit of the ZIP codes of each state's postal code (USPS national areas): a postal code before
# a five-digit number of another area is no state and ZIP ("Lupe Fifita, ID 40117": an interpreter's id).
_ZIP_AREAS = {
    "0": "CT MA ME NH NJ PR RI VT VI", "1": "DE NY PA", "2": "DC MD NC SC VA WV", "3": "AL FL GA MS TN",
    "4": "IN KY MI OH", "5": "IA MN MT ND SD WI", "6": "IL KS MO NE", "7": "AR LA OK TX", "8": "AZ CO ID NM NV UT WY",
    "9": "AK CA HI OR WA GU AS MP",
}
_ZIP_AREA_OF = {code: digit for digit, codes in _ZIP_AREAS.items() for code in codes.split()}


def _zip_after_state(text: str, m: re.Match[str]) -> bool:
    state = _state_before(text, m)
    if state is None:
        return False
    area = _ZIP_AREA_OF.get(state.group("state"))
    return area is None or m.group()[0] == area


def _state_and_city(text: str, m: re.Match[str]) -> list[tuple[int, int, PhiType]]:
    state = _state_before(text, m)
    if state is None:
        return []
    spans = [(state.start("state"), state.end("state"), PhiType.STATE)]
    lo = max(0, state.start() - _CITY_WINDOW)
    city = _CITY_BEFORE_MULTI.search(text, lo, state.start())
    if city is None or any(w.rstrip(".") in _SUFFIX_WORDS for w in city.group("city").split()):
        city = _CITY_BEFORE_ONE.search(text, lo, state.start())
    if city is not None:
        spans.append((city.start("city"), city.end("city"), PhiType.CITY))
    return spans


_STREET_SUFFIX = (
    r"(?:Street|St|Avenue|Ave|Av|Road|Rd|Boulevard|Blvd|Drive|Dr(?!\.?[ \t]+[A-Z][a-z])|Lane|Ln|Court|Ct|Place|Pl|Way|Terrace|Ter"
    r"|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Trail|Trl|Turnpike|Tpke|Pike|Plaza|Plz|Alley|Crescent|Commons"
    r"|Heights|Hts|Expressway|Expy|Freeway|Fwy"
    r"|STREET|AVENUE|AVE|ROAD|RD|BOULEVARD|BLVD|DRIVE|LANE|LN|COURT|PLACE|PARKWAY|PKWY|HIGHWAY|HWY|CIRCLE"
    r"|TERRACE|TURNPIKE|PLAZA)"
)
_SUFFIX_WORDS = frozenset(re.findall(r"[A-Za-z]+", _STREET_SUFFIX))
_DIRECTION = r"(?:[NSEW]|NE|NW|SE|SW|North|South|East|West)"
_UNIT = r"(?i:apt|apartment|suite|ste|unit|fl|floor|rm|room|bldg|building|\#)"
_STREET = (
    r"\d(?<![\w\-/.,]\d)\d{0,5}[A-Z]?(?:-\d{1,4})?[ \t]+"
    rf"(?:{_DIRECTION}\.?[ \t]+)?"
    r"(?:(?:[A-Z][a-z]+|[A-Z]{2,}|\d{1,3}(?:st|nd|rd|th))\.?[ \t]+){1,3}"
    rf"{_STREET_SUFFIX}(?![\w\-])"
    rf"(?:\.?,?[ \t]+{_DIRECTION}(?![\w\-]))?"
    rf"(?:\.?,?[ \t]+{_UNIT}\.?[ \t]*(?:\#[ \t]*)?[A-Z0-9](?:[A-Z0-9\-]{{0,6}})(?![\w\-]))?"
)


def _not_a_count(text: str, m: re.Match[str]) -> bool:
    return not followed_by_unit(text, m.end())


_HEAD_OF = re.compile(r"head\s+of\s+$", re.IGNORECASE)
_ANGLE_AFTER = re.compile(r"\s*(?:°|deg(?:rees?)?\b)", re.IGNORECASE)


def _a_bed(text: str, m: re.Match[str]) -> bool:
    """Not an angle: "head of bed 30-45 degrees" is a position, not a bed number."""
    if _HEAD_OF.search(text, max(0, m.start() - 12), m.start()) or _ANGLE_AFTER.match(text, m.end()):
        return False
    return _not_a_count(text, m)


_CREDENTIAL_CODES = frozenset({"MD", "PA", "DC"})


def _issuing_state(text: str, m: re.Match[str]) -> bool:
    return not (m["st"] in _CREDENTIAL_CODES and m["what"].lower().startswith("lic"))


def location_patterns() -> list[Pattern]:
    return [
        # Starts at the ZIP digits (rarer than capitals, so a faster scan) and checks the state behind it.
        Pattern(
            "address_state_zip", r"\d(?<![\w\-]\d)\d{4}(?:-\d{4})?(?![\d\-])",
            PhiType.ZIP, score=0.85, flags=0, validate=_zip_after_state, extra_spans=_state_and_city,
        ),
        Pattern("zip_after_cue", rf"{word_start(('zip',))}\b(?i:\s*code)?[\s:\#]{{0,4}}(?P<zip>{_ZIP})",
                PhiType.ZIP, score=0.9, group="zip", flags=0, gate=("zip",)),
        Pattern("street_address", _STREET, PhiType.STREET, score=0.85, flags=0),
        # The state that issued a plate ("NH plate 8RTW 441", "VT license plate", "MA reg"): a postal code
        # right before the plate word.
        Pattern(
            "state_of_plate",
            rf"(?P<st>[A-Z](?<!\w[A-Z])[A-Z](?<={'|'.join(STATE_ABBREVIATIONS)}))[ \t]+(?=(?i:license[ \t]+)?(?i:plates?|tags?|reg(?:istration)?)\b)",
            PhiType.STATE, score=0.8, group="st", flags=0, gate=("plate", "tag", "reg"),
        ),
        # The state that issued a licence or a benefit ("MN license LP 6127", "IA lic RPH-2287", "CA driver's
        # license", "his Michigan DL", "NC Medicaid ID", "PA Attorney I.D. No."). Before a bare "license" or
        # "lic", MD, PA and DC are a profession's credential (a physician's, a physician assistant's, a
        # chiropractor's).
        Pattern(
            "state_of_issue",
            rf"(?P<st>{_STATE})[ \t]+(?=(?P<what>(?i:driver'?s?[ \t]+licen[cs]e|DL|Medicaid|licen[cs]e|lic\b\.?|"
            r"attorney|state[ \t]+bar|bar[ \t]+(?:no|number|\#)))(?:\b|(?<=\.)))",
            PhiType.STATE, score=0.8, group="st", flags=0, validate=_issuing_state,
            gate=("lic", "dl", "medicaid", "attorney", "bar"),
        ),
        # A numbered road named without a house number ("our Route 9 office", "off Hwy 12"): capitalised,
        # so "route of administration" and "Route: PO" never match.
        Pattern(
            "street_numbered_road",
            # A full stop may end the sentence after it ("staying on Route 9."); a dot before a digit is a decimal.
            r"\b(?:Route|Rte\.?|Highway|Hwy\.?|State[ \t]+Road|County[ \t]+Road)[ \t]+\d{1,3}[A-Z]?(?![\w\-/%]|\.\d)",
            PhiType.STREET, score=0.7, flags=0, validate=_not_a_count, gate=("route", "rte", "highway", "hwy", "road"),
        ),
        Pattern(
            "street_po_box",
            r"\b(?:P\.?[ \t]?O\.?[ \t]*Box|Post[ \t]+Office[ \t]+Box)[ \t]*(?:\#[ \t]*)?\d{1,7}(?!\d)",
            PhiType.STREET, score=0.9, gate=("box",),
        ),
        # A rural route's box, the address of a farm or a ranch ("RR 2 Box 118", "Rt 2 Box 118").
        Pattern(
            "street_rural_route",
            r"\b(?:RR|R\.R\.|Rt\.?|Rte\.?|Route|Rural[ \t]+Route|HC|Star[ \t]+Route)[ \t]*\d{1,3},?[ \t]+Box[ \t]*(?:\#[ \t]*)?\d{1,6}(?!\d)",
            PhiType.STREET, score=0.9, flags=0, gate=("box",),
        ),
        # An interstate after a word of travel ("driving at night on I-90", "off I-35E"); "I-131" alone
        # may be an isotope, and "Alien # on I-94" names an immigration form.
        Pattern(
            "street_interstate",
            r"(?<!\#[ \t])\b(?i:on|off|via|along|near|took|take|taking|from|onto)[ \t]+(?P<road>I-\d{1,3}[NSEW]?)(?![\w\-])",
            PhiType.STREET, score=0.7, group="road", flags=0, gate=("i-",),
        ),
        Pattern(
            "room_number",
            rf"{word_start(('room', 'rm'))}\b(?i:\.?[ \t]*(?:(?:\#|no\.?)[ \t]*)?)"
            r"(?P<room>\d{1,4}[A-Za-z]?(?:-[A-Za-z0-9]{1,3})?)(?![\w\-])",
            PhiType.ROOM, score=0.8, group="room", flags=0, validate=_not_a_count, gate=("room", "rm"),
        ),
        Pattern(
            "room_bed",
            # "bed 12B", "bed 4-12" (room 4, bed 12), "bed 208A" (three or four digits need the bed letter),
            # an emergency department's "bay 3", a dialysis or
            # infusion "chair 11" ("wheelchair" never matches: the word must start there).
            # A full stop may end the sentence after it ("bed 4-12."); a dot before a digit is a decimal.
            r"\b(?:bed|bay|chair)[ \t]*(?:(?:\#|no\.?)[ \t]*)?(?P<room>\d{1,2}[A-Z]?(?:-\d{1,2}[A-Z]?)?|\d{3,4}[A-Z])(?![\w\-/]|\.\d)",
            PhiType.ROOM, score=0.6, group="room", validate=_a_bed, gate=("bed", "bay", "chair"),
        ),
    ]
