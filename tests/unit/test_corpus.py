"""The synthetic gold corpus: determinism, exact offsets, coverage, split hygiene and look-alikes."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from deid_tools.corpus import (
    TEMPLATE_FAMILIES,
    GoldNote,
    families,
    generate_notes,
    note_from_json,
    note_kinds,
    note_to_json,
    read_jsonl,
    write_jsonl,
)
from deid_tools.corpus.render import parse_family
from deid_tools.corpus.values import NICKNAMES, number_words
from schemas import PatientHeader, PhiType

ROOT = Path(__file__).resolve().parents[2]
SPLITS = ("train", "dev", "test")


@cache
def corpus(split: str, n: int = 200) -> tuple[GoldNote, ...]:
    return tuple(generate_notes(split, n, seed=0))  # type: ignore[arg-type]


def _digest(notes: tuple[GoldNote, ...]) -> str:
    blob = json.dumps([note_to_json(n) for n in notes], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


# --- determinism -------------------------------------------------------------------------------------


def test_same_arguments_same_notes() -> None:
    a = tuple(generate_notes("test", 40, seed=0))
    b = tuple(generate_notes("test", 40, seed=0))
    assert _digest(a) == _digest(b)


def test_note_i_does_not_depend_on_n_and_seeds_differ() -> None:
    short = tuple(generate_notes("dev", 10, seed=3))
    assert _digest(short) == _digest(corpus_prefix("dev", 30, 3, 10))
    assert _digest(tuple(generate_notes("dev", 10, seed=4))) != _digest(short)


def corpus_prefix(split: str, n: int, seed: int, k: int) -> tuple[GoldNote, ...]:
    return tuple(generate_notes(split, n, seed=seed))[:k]  # type: ignore[arg-type]


def test_deterministic_across_processes_and_hash_seeds() -> None:
    code = (
        "import hashlib, json\n"
        "from deid_tools.corpus import generate_notes, note_to_json\n"
        "blob = json.dumps([note_to_json(n) for n in generate_notes('test', 25, seed=0)], sort_keys=True)\n"
        "print(hashlib.sha256(blob.encode()).hexdigest())\n"
    )
    digests = set()
    for hash_seed in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    assert digests == {_digest(tuple(generate_notes("test", 25, seed=0)))}


# --- offsets -----------------------------------------------------------------------------------------

# Deliberate mid-word boundaries: ages glued to a sex letter or "yo" (``93M``, ``72yo``).
_AGE_GLUE = re.compile(r"(?i)[mf]\b|yo\b")

_SHAPES: dict[PhiType, re.Pattern[str]] = {
    # Numbers, with an extension written with them, or an extension alone, or digits spelled out.
    PhiType.PHONE: re.compile(r"^([\d()+ .\-]{5,}( (x|ext\.?|extension) ?\d+)?|(x|ext\.? |extension )\d{2,5}"
                              r"|\d{3,7}|[a-z]+([ ,.\-]+[a-z]+){9})$"),  # pagers: 3-7 digits
    PhiType.FAX: re.compile(r"^[\d()+ .\-]{7,}( (x|ext\.?) ?\d+)?$"),
    PhiType.SSN: re.compile(r"^\d{3}[- ]?\d{2}[- ]?\d{4}$"),
    PhiType.EMAIL: re.compile(r"^([^@\s]+@[^@\s]+\.[a-z]+|[\w. ]+ [(\[]?at[)\]]? [\w-]+( [(\[]?dot[)\]]? |\.)[a-z]+)$",
                              re.I),
    PhiType.ZIP: re.compile(r"^\d{5}(-\d{4})?$"),
    PhiType.IPADDR: re.compile(r"^\d{1,3}(\.\d{1,3}){3}$"),
    PhiType.AGE: re.compile(r"^(\d{1,3}(st|nd|rd|th)?|[a-z]+(-[a-z]+)?( hundred( [a-z-]+)?)?)$", re.I),
    PhiType.URL: re.compile(r"^(https?://|www\.)?[\w.-]+\.(com|org|net|info|biz)(/\S*)?$", re.I),
}


@pytest.mark.parametrize("split", SPLITS)
def test_spans_are_exact_sorted_and_well_formed(split: str) -> None:
    for note in corpus(split):
        prev_end = 0
        for s in note.spans:
            assert s.sources == frozenset({"gold"}) and s.score == 1.0
            assert isinstance(s.type, PhiType)
            assert prev_end <= s.start < s.end <= len(note.text), note.id
            prev_end = s.end
            value = note.text[s.start:s.end]
            assert value == value.strip() and "\n" not in value, (note.id, s)
            before = note.text[s.start - 1] if s.start else " "
            after = note.text[s.end:s.end + 2]
            assert not before.isalnum(), (note.id, s, note.text[s.start - 5:s.end])
            if after[:1].isalnum():
                assert s.type is PhiType.AGE and _AGE_GLUE.match(after + " "), (note.id, s, value, after)
            shape = _SHAPES.get(s.type)
            if shape is not None:
                assert shape.match(value), (note.id, s.type, value)


def test_possessives_label_only_the_name() -> None:
    hits = 0
    for note in corpus("train") + corpus("test"):
        for s in note.spans:
            if s.type in (PhiType.PATIENT, PhiType.DOCTOR) and note.text[s.end:s.end + 2] == "'s":
                hits += 1
                assert not note.text[s.start:s.end].endswith("'s")
    assert hits > 0


def test_titles_and_credentials_are_outside_doctor_spans() -> None:
    docs = [n.text[s.start:s.end] for n in corpus("test") for s in n.spans if s.type is PhiType.DOCTOR]
    assert docs and not any(d.lower().startswith(("dr.", "dr ")) or d.endswith(("MD", "M.D.", "RN")) for d in docs)
    contexts = [n.text[max(0, s.start - 4):s.start] for n in corpus("test") for s in n.spans if s.type is PhiType.DOCTOR]
    assert any(c.endswith(("Dr. ", "Dr ")) for c in contexts)


# --- coverage ----------------------------------------------------------------------------------------


def test_every_phi_type_appears_in_test_split_several_times() -> None:
    counts = Counter(s.type for n in corpus("test") for s in n.spans)
    missing = {t.value: counts[t] for t in PhiType if counts[t] < 3}
    assert not missing


@pytest.mark.parametrize("split", SPLITS)
def test_at_least_twenty_kinds_per_split(split: str) -> None:
    assert len({n.kind for n in corpus(split)}) >= 20
    assert len(note_kinds()) >= 20


def test_surface_form_variety() -> None:
    notes = corpus("test") + corpus("train")
    pts = [n.text[s.start:s.end] for n in notes for s in n.spans if s.type is PhiType.PATIENT]
    assert any(re.fullmatch(r"[A-Z'-]+, [A-Z]+( [A-Z])?", p) for p in pts), "LAST, FIRST"
    assert any(re.fullmatch(r"[A-Z]\. [A-Z][a-z'-]+", p) for p in pts), "J. Smith"
    assert any(re.fullmatch(r"[A-Z]{2,3}", p) for p in pts) or any(
        re.fullmatch(r"[a-z]{2,3}", n.text[s.start:s.end]) for n in notes for s in n.spans if s.type is PhiType.USERNAME)
    assert any(p.islower() for p in pts), "lowercase names in nursing notes"
    assert any("-" in p for p in pts), "hyphenated names"
    dates = [n.text[s.start:s.end] for n in notes for s in n.spans if s.type is PhiType.DATE]
    shapes = {
        "mm/dd/yyyy": r"\d{2}/\d{2}/\d{4}", "m/d/yy": r"\d{1,2}/\d{1,2}/\d{2}", "iso": r"\d{4}-\d{2}-\d{2}",
        "long": r"[A-Z][a-z]+ \d{1,2}(st|nd|rd|th)?, \d{4}", "d-Mon-y": r"\d{1,2}-[A-Z][a-z]{2}-\d{4}",
        "Mon d": r"[A-Z][a-z]{2} \d{1,2}", "m/yy": r"\d{1,2}/\d{2}", "month year": r"[A-Z][a-z]+ \d{4}",
        "'yy": r"'\d{2}", "year": r"\d{4}", "weekday+date": r"(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)(day)?,? .*\d.*",
        "holiday": r"Christmas( Eve)?|Thanksgiving|Easter|Labor Day|Memorial Day|Halloween|4th of July|.*'s (Day|Eve)",
    }
    for name, pat in shapes.items():
        assert any(re.fullmatch(pat, d) for d in dates), name
    ages = [n.text[s.start:s.end] for n in notes for s in n.spans if s.type is PhiType.AGE]
    assert any(a.isdigit() for a in ages) and any(a.isalpha() for a in ages)
    phones = {re.sub(r"\d", "9", n.text[s.start:s.end]) for n in notes for s in n.spans if s.type is PhiType.PHONE}
    assert len(phones) >= 6


# --- split hygiene -----------------------------------------------------------------------------------


def test_families_are_disjoint_and_every_kind_has_three() -> None:
    assert set(TEMPLATE_FAMILIES.values()) == set(SPLITS)
    by_split = {sp: {f.name for f in families(sp)} for sp in SPLITS}
    assert not (by_split["train"] & by_split["dev"]) and not (by_split["train"] & by_split["test"])
    assert not (by_split["dev"] & by_split["test"])
    assert set(TEMPLATE_FAMILIES) == set().union(*by_split.values())
    for kind in note_kinds():
        fams = [f for f in families() if f.kind == kind]
        assert len(fams) >= 3 and {f.split for f in fams} == set(SPLITS), kind
    for sp in SPLITS:
        for note in corpus(sp):
            assert note.split == sp and TEMPLATE_FAMILIES[note.family] == sp


def test_family_texts_differ_between_splits() -> None:
    train_lines = {line.strip() for f in families("train") for line in f.text.splitlines() if len(line.strip()) > 25}
    test_lines = {line.strip() for f in families("test") for line in f.text.splitlines() if len(line.strip()) > 25}
    assert not (train_lines & test_lines)


# --- look-alikes -------------------------------------------------------------------------------------

LOOKALIKES = (
    r"Parkinson disease", r"Murphy'?s? sign", r"Foley catheter", r"Babinski", r"Down syndrome", r"Hodgkin lymphoma",
    r"Apgars?", r"\bBP:? \d{2,3}/\d{2,3}", r"\bL4-L5\b", r"\b\d+(\.\d+)? mg\b", r"\bq\d+h\b", r"\bNa \d+",
    r"\bK \d\.\d", r"\bHR \d+", r"\bSpO2 \d+%", r"\bpain:? \d{1,2}/10\b", r"\bGCS \d+", r"\bfor \d+ days\b", r"\bx 2\b",
)


def test_lookalikes_present_and_never_labelled() -> None:
    notes = corpus("train") + corpus("test")
    for pat in LOOKALIKES:
        found = 0
        for note in notes:
            for m in re.finditer(pat, note.text, re.I):
                found += 1
                assert not any(s.start < m.end() and m.start() < s.end for s in note.spans), (pat, note.id)
        assert found, pat


# --- headers -----------------------------------------------------------------------------------------


def _name_tokens(header: PatientHeader) -> set[str]:
    toks = set()
    for name in header.names:
        for t in re.split(r"[ ,]+", name):
            if len(t) > 1:
                toks.add(t.lower())
                if t in NICKNAMES:
                    toks.add(NICKNAMES[t].lower())
    return toks


@pytest.mark.parametrize("split", SPLITS)
def test_note_mentions_header_patient_and_more(split: str) -> None:
    mrn_hits = dob_present = outside_names = outside_doctors = 0
    for note in corpus(split):
        h = note.patient
        assert h.patient_id and h.mrn and h.birth_date and h.address and h.phones and h.next_of_kin and h.doctors
        toks = _name_tokens(h)
        pts = [note.text[s.start:s.end].lower() for s in note.spans if s.type is PhiType.PATIENT]
        assert any(set(re.split(r"[ ,.]+", p)) & toks for p in pts), note.id
        if h.mrn in note.text or h.mrn.replace("-", "") in note.text:
            mrn_hits += 1
        dob_present += str(h.birth_date.year) in note.text
        kin = {t.lower() for n in h.next_of_kin for t in n.split()}
        outside_names += any(not (set(re.split(r"[ ,.]+", p)) & (toks | kin)) for p in pts)
        docs = {t.lower() for d in h.doctors for t in d.split()}
        dspans = [note.text[s.start:s.end].lower() for s in note.spans if s.type is PhiType.DOCTOR]
        outside_doctors += any(not (set(re.split(r"[ ,.]+", d)) & docs) for d in dspans)
    n = len(corpus(split))
    assert mrn_hits > n * 0.35 and dob_present > n * 0.15
    assert outside_names > n * 0.1 and outside_doctors > n * 0.3


def test_nursing_notes_are_lowercase() -> None:
    rn = [n for n in corpus("train") + corpus("test") if n.kind == "nursing_note"]
    assert rn and all(n.text == n.text.lower() for n in rn)


# --- serialisation -----------------------------------------------------------------------------------


def test_json_round_trip() -> None:
    notes = corpus("test")[:50]
    buf = io.StringIO()
    assert write_jsonl(notes, buf) == 50
    lines = buf.getvalue().splitlines()
    for line, note in zip(lines, notes, strict=True):
        d = json.loads(line)
        assert set(d) == {"id", "text", "spans", "patient", "kind", "family", "split"}
        assert PatientHeader.model_validate(d["patient"]) == note.patient
        back = note_from_json(d)
        assert back.text == note.text and back.id == note.id and back.family == note.family
        assert [(s.start, s.end, s.type) for s in back.spans] == [(s.start, s.end, s.type) for s in note.spans]
    again = list(read_jsonl(io.StringIO(buf.getvalue())))
    assert [n.id for n in again] == [n.id for n in notes]


def test_write_jsonl_to_path(tmp_path: Path) -> None:
    path = tmp_path / "gold.jsonl"
    assert write_jsonl(generate_notes("dev", 5), path) == 5
    assert len(list(read_jsonl(path))) == 5


# --- pieces ------------------------------------------------------------------------------------------


def test_number_words() -> None:
    assert number_words(72) == "seventy-two"
    assert number_words(19) == "nineteen"
    assert number_words(90) == "ninety"
    assert number_words(104) == "one hundred four"


def test_family_dsl() -> None:
    secs = parse_family("pre {pt}\n#*?0.5 A: | B:\nx || y\n?0.3 z\n#/\nsig")
    assert secs[0].titles == () and secs[0].lines[0].alts == ("pre {pt}",)
    assert secs[1].titles == ("A:", "B:") and secs[1].shuffle and secs[1].p == 0.5
    assert secs[1].lines[0].alts == ("x", "y") and secs[1].lines[1].p == 0.3
    assert secs[2].line_mode and not secs[2].titles


def test_unknown_split_rejected() -> None:
    with pytest.raises(ValueError):
        next(generate_notes("validation", 1))  # type: ignore[arg-type]


def test_generation_speed() -> None:
    t0 = time.perf_counter()
    notes = list(generate_notes("train", 1000, seed=1))
    assert len(notes) == 1000
    assert time.perf_counter() - t0 < 30
