"""Tagger spans that are things with the shape of a place or a name: a car and its model year read as a
street number and street (``2011 Subaru Outback``), a section heading in capitals read as an institution
or a person (``PHYSICAL THERAPY & REHAB``), an instrument's eponym (``Goldmann``, ``Modified Ashworth 1``), a device by its maker (``CADD Solis``), a drug (``Cannabidiol``). Used by ``deid_core.hygiene`` on tagger-only spans.
"""

from __future__ import annotations

import re

from deid_core.lexicon import Lexicons

# Makes and common models of cars, the words that follow a model year ("a 2016 Honda Civic").
CAR_WORDS = frozenset({
    "acura", "audi", "bmw", "buick", "cadillac", "chevrolet", "chevy", "chrysler", "dodge", "fiat", "ford",
    "gmc", "honda", "hyundai", "infiniti", "jeep", "kia", "lexus", "mazda", "mercedes", "mitsubishi", "nissan",
    "pontiac", "saturn", "subaru", "suzuki", "tesla", "toyota", "volkswagen", "vw", "volvo",
    "accord", "altima", "camry", "civic", "corolla", "cr-v", "crv", "elantra", "equinox", "escape", "explorer",
    "f-150", "f150", "focus", "forester", "fusion", "impala", "jetta", "malibu", "odyssey", "outback", "pilot",
    "prius", "rav4", "rogue", "sentra", "sienna", "silverado", "sonata", "tacoma", "tahoe", "tundra", "wrangler",
    "minivan", "pickup", "sedan", "hatchback",
})
# A model year, then one to three words of a make and model.
_MODEL_YEAR = re.compile(r"(?:19[5-9]\d|20[0-4]\d)\s+([\w\-]+(?:\s+[\w\-]+){0,2})")
_STREET_WORD = re.compile(r"(?i)\b(?:st|street|rd|road|ave|avenue|blvd|lane|ln|dr|drive|way|ct|court|pl|place|hwy|highway|route|pike|terrace|circle)\b")
_LETTERS = re.compile(r"[^\W\d_]+")
# Drug names are long; a short word with a drug's ending ("Nisol") may be anything.
_MIN_DRUG = 7
_YEAR = re.compile(r"\s*(\d{4})")
# Capitalised words before a span on its line, each followed by a space, "&" or "/".
_CAPITAL_WORDS = re.compile(r"[ \t]*(?:[A-Z][A-Z'’]*[ \t&/]+)+")
# Capitalised words after a span, each after a space, "&" or "/".
_CAPITAL_TAIL = re.compile(r"(?:[ \t&/]+[A-Z][A-Z'’]*)+")
# After a heading: the end of its line, or a dash or colon before its subtitle.
_HEADING_END = re.compile(r"[ \t]*(?:$|\r?\n|[-–—:])", re.MULTILINE)


def instrument_eponym(value: str, lexicons: Lexicons) -> bool:
    """A tagger name or place that opens with an instrument's or scale's eponym (``Ashworth 1``,
    ``Goldmann``): the instrument, not a person or a place."""
    words = _LETTERS.findall(value)
    return bool(words) and words[0].lower() in lexicons.cues["instrument_eponyms"] and len(words) <= 2


def device_name(words: list[str], lexicons: Lexicons) -> bool:
    """A tagger name, place or user name whose letter runs ``words`` hold a medical device's maker or
    product line (``Actigraph GT9X``, ``CADD Solis``): the device, which names no one."""
    return not lexicons.cues["device_brands"].isdisjoint(w.lower() for w in words)


def drug_name(words: list[str], lexicons: Lexicons) -> bool:
    """A tagger name or place whose letter runs ``words`` are one listed brand (``Spiriva``) or one word of
    seven letters or more ending in a generic drug's stem and no listed name (``Cannabidiol``,
    ``Dupilumab``): the drug."""
    if len(words) == 1 and words[0].lower() in lexicons.cues["drug_brands"]:
        return True
    if len(words) != 1 or len(words[0]) < _MIN_DRUG or lexicons.is_name(words[0]):
        return False
    return words[0].lower().endswith(tuple(lexicons.cues["drug_stems"]))


def is_street_word(word: str) -> bool:
    """``Road``, ``St``, ``Avenue``: a word that ends a street's name."""
    return _STREET_WORD.fullmatch(word) is not None


def car_model(value: str) -> bool:
    """``2016 Honda Civic``, ``2008 Corolla``: a model year and a car's make or model, no street word."""
    m = _MODEL_YEAR.fullmatch(value.strip())
    if m is None or _STREET_WORD.search(value):
        return False
    return any(w.lower() in CAR_WORDS for w in m.group(1).split())


def capital_heading(text: str, start: int, end: int, lexicons: Lexicons) -> bool:
    """A heading: the span opens its line (or only capitalised words of the heading come before it), has no
    lower-case letter, ends the line or comes before a dash or a colon, and is two ordinary words or more (``LABOR & DELIVERY - ADMISSION NOTE``). A name in
    capitals (``OKAFOR, BENEDIKT``) has a word no dictionary lists; one word (``LA``) may be initials."""
    line_start = text.rfind("\n", 0, start) + 1
    # The heading's first words may be left out of the span ("HOME <INFUSION PHARMACY> - CALL LOG"):
    # they are judged with it.
    if text[line_start:start].strip(" \t") and _CAPITAL_WORDS.fullmatch(text, line_start, start) is None:
        return False
    # ... and its last ones too ("<PRIMARY CARE> VISIT - INTERPRETER").
    tail = _CAPITAL_TAIL.match(text, end)
    end = tail.end() if tail else end
    value = text[line_start:end]
    if any(c.islower() for c in value) or not _HEADING_END.match(text, end):
        return False
    words = [w for w in _LETTERS.findall(value) if len(w) > 1]
    return len(words) >= 2 and all(lexicons.is_word(w.lower()) and w.lower() not in lexicons.first_names for w in words)


def model_year(value: str) -> re.Match[str] | None:
    """The model year of a car (``2016`` of ``2016 Honda Civic``): a date, while the car is not PHI."""
    return _YEAR.match(value) if car_model(value) else None


_ITEM_LABEL = re.compile(r"([A-Z])\.(?:[ \t]+[A-Za-z]+)?")
_WORD_AFTER = re.compile(r"[ \t]*([A-Za-z]+)")


def item_label(text: str, start: int, end: int, lexicons: Lexicons) -> bool:
    """A list item's label read as an initial (``B. Left axillary sentinel node``, ``C.`` of a pathology
    report's parts): one capital and a period opening the line, an ordinary word after it, and a line
    with the letter before or after it as a label too (``A. ...``). ``J. Smith`` opening a line is a
    name: no ``I.`` or ``K.`` line beside it."""
    m = _ITEM_LABEL.fullmatch(text, start, end)
    if m is None or text[text.rfind("\n", 0, start) + 1 : start].strip(" \t"):
        return False
    after = _WORD_AFTER.match(text, start + 2)
    if after is None or not lexicons.is_word(after.group(1)):
        return False
    letter = ord(m.group(1))
    siblings = "".join(chr(c) for c in (letter - 1, letter + 1) if ord("A") <= c <= ord("Z"))
    return re.search(rf"(?m)^[ \t]*[{siblings}]\.[ \t]", text) is not None
