from __future__ import annotations

import asyncio
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deid_core.surrogate import HmacKey, InMemoryMappingStore, SurrogateConfig, Surrogator, patient_scope
from deid_core.surrogate.dates import parse_date
from deid_core.surrogate.names import name_pools
from schemas import EnrichedNote, PatientHeader, PhiType, Span

KEY = HmacKey(b"engine-test-secret-0123456789abcdef", "v1")
P1 = "patient:p1"


@pytest.fixture
def surrogator() -> Surrogator:
    return Surrogator(InMemoryMappingStore(), KEY)


def _classes(text: str) -> list[str]:
    return ["9" if c.isdigit() else "A" if c.isupper() else "a" if c.islower() else c for c in text]


def _case(token: str) -> str:
    return "upper" if len(token) > 1 and token.isupper() else "lower" if token.islower() else "title"


# -- names -----------------------------------------------------------------------------------------------


async def test_name_tokens_map_separately_and_consistently(surrogator: Surrogator) -> None:
    full = await surrogator.surrogate_for(P1, PhiType.PATIENT, "John Smith")
    first, last = full.split(" ")
    assert first != "John" and last != "Smith"
    assert await surrogator.surrogate_for(P1, PhiType.PATIENT, "Smith") == last
    assert await surrogator.surrogate_for(P1, PhiType.DOCTOR, "John") == first
    assert await surrogator.surrogate_for(P1, PhiType.PATIENT, "Mr. Smith's") == f"Mr. {last}'s"
    initial = await surrogator.surrogate_for(P1, PhiType.PATIENT, "A")
    assert await surrogator.surrogate_for(P1, PhiType.PATIENT, "SMITH, JOHN A") == (
        f"{last.upper()}, {first.upper()} {initial}"
    )
    assert await surrogator.surrogate_for(P1, PhiType.PATIENT, "smith") == last.lower()


async def test_first_names_keep_gender(surrogator: Surrogator) -> None:
    pools = name_pools()
    for name in ("Mary", "Patricia", "Jennifer"):
        out = await surrogator.surrogate_for(P1, PhiType.PATIENT, name)
        assert out in pools.female and out != name
    for name in ("Robert", "Michael", "William"):
        out = await surrogator.surrogate_for(P1, PhiType.PATIENT, name)
        assert out in pools.male and out != name


async def test_unknown_tokens_become_last_names(surrogator: Surrogator) -> None:
    out = await surrogator.surrogate_for(P1, PhiType.PATIENT, "Quackenbush")
    assert out in name_pools().last


async def test_initials_stay_initials(surrogator: Surrogator) -> None:
    out = await surrogator.surrogate_for(P1, PhiType.DOCTOR, "J.S.")
    assert re.fullmatch(r"[A-Z]\.[A-Z]\.", out) and out != "J.S."
    assert await surrogator.surrogate_for(P1, PhiType.DOCTOR, "J.") == out[:2]
    js = await surrogator.surrogate_for(P1, PhiType.DOCTOR, "JS")
    assert js == out[0] + out[2]


async def test_hyphenated_and_apostrophe_names(surrogator: Surrogator) -> None:
    out = await surrogator.surrogate_for(P1, PhiType.PATIENT, "Mary O'Brien-Jones")
    assert re.fullmatch(r"[A-Z][a-z]+ [A-Z][A-Za-z']+-[A-Z][a-z]+", out), out
    assert "Brien" not in out and "Jones" not in out.split("-")[1:]


async def test_titles_and_credentials_are_kept(surrogator: Surrogator) -> None:
    out = await surrogator.surrogate_for(P1, PhiType.DOCTOR, "Dr. Susan Lee, MD")
    assert out.startswith("Dr. ") and out.endswith(", MD") and "Susan" not in out and "Lee" not in out


async def test_username_is_format_preserving(surrogator: Surrogator) -> None:
    out = await surrogator.surrogate_for(P1, PhiType.USERNAME, "jsmith42")
    assert _classes(out) == _classes("jsmith42") and out != "jsmith42"


name_token = st.sampled_from(
    ["John", "Smith", "Mary", "Garcia", "Lee", "Robert", "O'Neil", "Quackenbush", "Ann"]
)


@st.composite
def names(draw: st.DrawFn) -> str:
    tokens = draw(st.lists(name_token, min_size=1, max_size=3))
    styled = [draw(st.sampled_from([t, t.upper(), t.lower()])) for t in tokens]
    return draw(st.sampled_from([" ", ", "])).join(styled)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=60)
@given(names())
def test_name_surrogate_keeps_token_count_and_case_style(surrogator: Surrogator, original: str) -> None:
    out = asyncio.run(surrogator.surrogate_for(P1, PhiType.PATIENT, original))
    sep = ", " if ", " in original else " "
    before, after = original.split(sep), out.split(sep)
    assert len(after) == len(before)
    for a, b in zip(before, after, strict=True):
        assert _case(b) == _case(a), (original, out)
        assert a.lower() != b.lower()


# -- dates -----------------------------------------------------------------------------------------------


async def test_date_offset_is_stable_nonzero_and_in_range(surrogator: Surrogator) -> None:
    offsets = [await surrogator.date_offset_days(f"patient:{i}") for i in range(200)]
    assert all(1 <= abs(o) <= 365 for o in offsets)
    assert any(o < 0 for o in offsets) and any(o > 0 for o in offsets)
    assert len(set(offsets)) > 100
    assert [await surrogator.date_offset_days(f"patient:{i}") for i in range(200)] == offsets


async def test_date_offset_respects_config() -> None:
    s = Surrogator(
        InMemoryMappingStore(), KEY, SurrogateConfig(date_shift_min_days=10, date_shift_max_days=12)
    )
    offsets = [await s.date_offset_days(f"p{i}") for i in range(50)]
    assert all(10 <= abs(o) <= 12 for o in offsets)


async def test_dates_shift_by_the_patient_offset_and_keep_format(surrogator: Surrogator) -> None:
    offset = await surrogator.date_offset_days(P1)
    for original in ("03/05/2014", "March 5th, 2014", "2014-03-05T10:22:00", "5-Mar-2014", "Mar 5", "2012"):
        out = await surrogator.surrogate_for(P1, PhiType.DATE, original)
        a, b = parse_date(original), parse_date(out)
        assert a is not None and b is not None
        assert b.shape == a.shape
        if a.has_day and a.has_year:
            assert (b.value - a.value).days == offset


async def test_unparseable_dates_get_a_generic_stand_in(surrogator: Surrogator) -> None:
    out = await surrogator.surrogate_for(P1, PhiType.DATE, "Christmas")
    assert "Christmas" not in out and parse_date(out) is not None
    assert await surrogator.surrogate_for(P1, PhiType.DATE, "Christmas") == out


# -- ages ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        ("93", "90+"),
        ("93 yo", "90+ yo"),
        ("90", "90+"),
        ("ninety-three", "90+"),
        ("93-year-old", "90+ year-old"),
        ("89", "89"),
        ("45 y/o", "45 y/o"),
        ("8 months", "8 months"),
        ("in her 90s", "in her 90+"),
        ("93yo", "90+yo"),
    ],
)
async def test_ages(surrogator: Surrogator, original: str, expected: str) -> None:
    assert await surrogator.surrogate_for(P1, PhiType.AGE, original) == expected


async def test_age_cap_is_configurable() -> None:
    s = Surrogator(InMemoryMappingStore(), KEY, SurrogateConfig(age_cap=85, age_cap_text="85+"))
    assert await s.surrogate_for(P1, PhiType.AGE, "87") == "85+"


# -- identifiers and locations ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("type_", "original"),
    [
        (PhiType.PHONE, "(617) 555-1234"),
        (PhiType.FAX, "617.555.9876"),
        (PhiType.SSN, "123-45-6789"),
        (PhiType.ZIP, "02115"),
        (PhiType.ZIP, "02115-1234"),
        (PhiType.MEDICALRECORD, "MRN-0012345"),
        (PhiType.HEALTHPLAN, "HP99887766"),
        (PhiType.ACCOUNT, "4411-2233-99"),
        (PhiType.LICENSE, "AB1234567"),
        (PhiType.VEHICLE, "7XYZ123"),
        (PhiType.DEVICE, "SN-88A7-22"),
        (PhiType.BIOID, "BIO778"),
        (PhiType.IDNUM, "00123"),
        (PhiType.USERNAME, "jsmith42"),
    ],
)
async def test_ids_keep_format_class_and_length(
    surrogator: Surrogator, type_: PhiType, original: str
) -> None:
    out = await surrogator.surrogate_for(P1, type_, original)
    assert out != original
    assert _classes(out) == _classes(original)
    assert await surrogator.surrogate_for(P1, type_, original) == out


@given(st.from_regex(r"[A-Z]{0,3}-?\d{3,10}|\d{3}-\d{2}-\d{4}|\(\d{3}\) \d{3}-\d{4}", fullmatch=True))
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=60)
def test_every_id_surrogate_keeps_format_class(surrogator: Surrogator, original: str) -> None:
    for type_ in (PhiType.MEDICALRECORD, PhiType.PHONE, PhiType.IDNUM):
        out = asyncio.run(surrogator.surrogate_for(P1, type_, original))
        assert _classes(out) == _classes(original) and out != original


async def test_ip_email_url(surrogator: Surrogator) -> None:
    ip = await surrogator.surrogate_for(P1, PhiType.IPADDR, "10.20.30.40")
    assert re.fullmatch(r"\d{2}\.\d{2}\.\d{2}\.\d{2}", ip) and ip != "10.20.30.40"
    email = await surrogator.surrogate_for(P1, PhiType.EMAIL, "john.smith@partners.org")
    assert email.endswith(".org") and "@" in email and "smith" not in email
    url = await surrogator.surrogate_for(P1, PhiType.URL, "https://www.smithclinic.com/dr-smith")
    assert url.startswith("https://www.") and ".com/" in url and "smith" not in url


@pytest.mark.parametrize(
    ("type_", "original"),
    [
        (PhiType.HOSPITAL, "Massachusetts General Hospital"),
        (PhiType.HOSPITAL, "BAYSTATE MEDICAL CENTER"),
        (PhiType.ORGANIZATION, "Acme Corporation"),
        (PhiType.CITY, "Boston"),
        (PhiType.STREET, "12 Oak Street"),
        (PhiType.STATE, "Massachusetts"),
        (PhiType.STATE, "MA"),
        (PhiType.COUNTRY, "Ireland"),
        (PhiType.PROFESSION, "lawyer"),
        (PhiType.DEPARTMENT, "Cardiology"),
        (PhiType.ROOM, "Room 412B"),
        (PhiType.LOCATION_OTHER, "Fenway Park"),
        (PhiType.HOSPITAL, "MGH"),
    ],
)
async def test_locations_come_from_pools_and_keep_case(
    surrogator: Surrogator, type_: PhiType, original: str
) -> None:
    out = await surrogator.surrogate_for(P1, type_, original)
    assert out and out.lower() != original.lower()
    if original.isupper():
        assert out.isupper()
    assert await surrogator.surrogate_for(P1, type_, original) == out


async def test_location_specifics(surrogator: Surrogator) -> None:
    assert (await surrogator.surrogate_for(P1, PhiType.HOSPITAL, "Mercy General Hospital")).endswith(
        " General Hospital"
    )
    street = await surrogator.surrogate_for(P1, PhiType.STREET, "12 Oak Street")
    assert re.match(r"\d\d ", street)
    assert re.fullmatch(r"[A-Z]{2}", await surrogator.surrogate_for(P1, PhiType.STATE, "MA"))
    assert re.fullmatch(r"Room \d{3}[A-Z]", await surrogator.surrogate_for(P1, PhiType.ROOM, "Room 412B"))
    assert re.fullmatch(r"[A-Z]{3}", await surrogator.surrogate_for(P1, PhiType.HOSPITAL, "MGH"))


# -- whole notes and consistency ---------------------------------------------------------------------------


def _note(note_id: str, patient_id: str | None, text: str) -> EnrichedNote:
    return EnrichedNote(note_id, text, PatientHeader(patient_id=patient_id) if patient_id else None)


def _spans(text: str, items: list[tuple[str, PhiType]]) -> list[Span]:
    return sorted(Span(text.index(v), text.index(v) + len(v), t) for v, t in items)


TEXT1 = "John Smith was seen on 03/05/2014 by Dr. Lee."
TEXT2 = "Follow-up for Smith on 04/01/2014; John doing well."
ITEMS1 = [("John Smith", PhiType.PATIENT), ("03/05/2014", PhiType.DATE), ("Lee", PhiType.DOCTOR)]
ITEMS2 = [("Smith", PhiType.PATIENT), ("04/01/2014", PhiType.DATE), ("John", PhiType.PATIENT)]


async def test_same_patient_two_notes_are_consistent(surrogator: Surrogator) -> None:
    a = await surrogator.deidentify(_note("n1", "p1", TEXT1), _spans(TEXT1, ITEMS1))
    b = await surrogator.deidentify(_note("n2", "p1", TEXT2), _spans(TEXT2, ITEMS2))
    first, last = re.match(r"(\w+) (\w+) was seen", a.text).groups()  # type: ignore[union-attr]
    assert f"Follow-up for {last} on" in b.text and f"; {first} doing well." in b.text
    d1 = parse_date(re.search(r"on (\S+) by", a.text).group(1))  # type: ignore[union-attr]
    d2 = parse_date(re.search(r"on (\S+);", b.text).group(1))  # type: ignore[union-attr]
    assert d1 is not None and d2 is not None
    assert (d2.value - d1.value).days == 27  # 03/05 -> 04/01 stays 27 days apart
    assert a.patient_pseudonym == b.patient_pseudonym and a.patient_pseudonym not in (None, "p1")
    assert a.spans == tuple(_spans(TEXT1, ITEMS1))
    assert a.text.endswith(".") and " was seen on " in a.text and " by Dr. " in a.text


async def test_different_patients_get_different_surrogates(surrogator: Surrogator) -> None:
    outs = [
        await surrogator.deidentify(_note(f"n{i}", f"p{i}", TEXT1), _spans(TEXT1, ITEMS1)) for i in range(6)
    ]
    assert len({o.text.split(" was")[0] for o in outs}) == 6
    offsets = {
        await surrogator.date_offset_days(patient_scope(_note(f"n{i}", f"p{i}", ""))) for i in range(6)
    }
    assert len(offsets) >= 5  # 730 possible offsets: a collision among 6 is unlikely, two almost impossible
    assert len({o.patient_pseudonym for o in outs}) == 6


async def test_note_without_patient_is_its_own_scope(surrogator: Surrogator) -> None:
    assert patient_scope(_note("n9", None, "")) == "note:n9"
    assert patient_scope(_note("n9", "p5", "")) == "patient:p5"
    out = await surrogator.deidentify(_note("n9", None, TEXT1), _spans(TEXT1, ITEMS1))
    assert out.patient_pseudonym is None and "John Smith" not in out.text


async def test_pseudonyms_never_collide_even_in_a_tiny_space(surrogator: Surrogator) -> None:
    # "p0".."p9" share the shape letter+digit (260 values); reservations keep them apart anyway.
    pseudonyms = [await surrogator.pseudonym(f"p{i}") for i in range(40)]
    assert len(set(pseudonyms)) == 40
    assert [await surrogator.pseudonym(f"p{i}") for i in range(40)] == pseudonyms


async def test_concurrent_notes_of_one_patient_agree() -> None:
    store = InMemoryMappingStore()
    workers = [Surrogator(store, KEY) for _ in range(5)]
    results = await asyncio.gather(
        *(w.deidentify(_note(f"n{i}", "p1", TEXT1), _spans(TEXT1, ITEMS1)) for i, w in enumerate(workers))
    )
    assert len({r.text for r in results}) == 1


async def test_other_key_gives_other_surrogates() -> None:
    a = Surrogator(InMemoryMappingStore(), KEY)
    b = Surrogator(InMemoryMappingStore(), HmacKey(b"another-secret-0123456789abcdef", "v2"))
    names = ["John Smith", "Mary Garcia", "Robert Brown"]
    out_a = [await a.surrogate_for(P1, PhiType.PATIENT, n) for n in names]
    out_b = [await b.surrogate_for(P1, PhiType.PATIENT, n) for n in names]
    assert out_a != out_b
