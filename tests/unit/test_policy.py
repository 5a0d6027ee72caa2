"""Policies: loading and validation, resolution order, structured actions, text actions."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from deid_core.message import datetimes
from deid_core.message.actions import MessageContext, pseudonymize, structured_value
from deid_core.message.policy import (
    SHIPPED,
    PolicyError,
    PolicyResolver,
    load_policy,
    parse_policy,
    shipped_policy,
)
from deid_core.message.text import replace_spans, reported, zip3
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import HmacKey
from deid_core.surrogate.store import InMemoryMappingStore
from schemas import PhiType, Span
from schemas.message import Kind, Leaf, LeafSpec, Role
from schemas.policy import Action

KEY = HmacKey(b"unit-test-secret-unit-test-secret", "v1")

MINIMAL = """
name: mine
version: "2"
defaults: {name: label, location: redact, address: redact, contact: redact, identifier: redact, date: shift,
           text: scan, code: keep, number: keep, attachment: redact, unknown: redact}
"""


def _leaf(path: str, kind: Kind, value: str = "x", phi: PhiType | None = None, datatype: str = "", **kw: object) -> Leaf:
    return Leaf(path, kind, value, phi, datatype, **kw)  # type: ignore[arg-type]


def _ctx(offset: int = -10, on: dt.date = dt.date(2024, 6, 1), patient_id: str | None = "P1") -> MessageContext:
    return MessageContext("patient:P1", patient_id, offset, on)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_policies_load_and_cover_every_kind(name: str) -> None:
    policy = shipped_policy(name)
    assert policy.name == name and policy.version and policy.hipaa_pathway
    assert set(policy.defaults) == set(Kind)
    assert policy.defaults[Kind.UNKNOWN] is Action.REDACT  # fail closed


def test_default_policy_is_surrogate() -> None:
    assert load_policy(None).name == "surrogate"


def test_user_policy_file(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(MINIMAL)
    policy = load_policy(path)
    assert policy.name == "mine" and policy.defaults[Kind.NAME] is Action.LABEL


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("name: x\nversion: '1'\ndefaults: {name: keep}", "every kind"),
        (MINIMAL.replace("date: shift", "date: scan"), "does not apply"),
        (MINIMAL.replace("number: keep", "number: shift"), "does not apply"),
        (MINIMAL + "overrides: [{action: keep}]", "at least one"),
        (MINIMAL + "bogus: 1", "Extra inputs"),
        ("[1, 2", "not valid YAML"),
        ("- a list", "mapping"),
    ],
)
def test_bad_policies_are_refused_with_a_reason(text: str, problem: str) -> None:
    with pytest.raises(PolicyError, match=problem):
        parse_policy(text, "p.yaml")


def test_policy_errors_do_not_echo_values() -> None:
    with pytest.raises(PolicyError) as err:
        parse_policy(MINIMAL + "types: {SECRET-VALUE-123: keep}", "p.yaml")
    assert "SECRET-VALUE-123" not in str(err.value)


def test_unknown_policy_name_or_missing_file() -> None:
    with pytest.raises(PolicyError, match="no such policy file"):
        load_policy("no-such-policy")


def test_resolution_order_override_then_type_then_kind() -> None:
    policy = parse_policy(
        MINIMAL
        + """
types: {ZIP: keep, STATE: keep}
overrides:
  - {path: "PID-11.5", action: redact}
  - {path: "Z*", action: keep}
  - {path: "nodesByType('HumanName')", kind: name, action: keep}
  - {path: "*.id", kind: identifier, action: pseudonymize}
"""
    )
    r = PolicyResolver(policy)
    assert r.action(_leaf("PID-11.5.1", Kind.ADDRESS, phi=PhiType.ZIP)) is Action.REDACT  # override first
    assert r.action(_leaf("NK1-4.5.1", Kind.ADDRESS, phi=PhiType.ZIP)) is Action.KEEP  # then the type
    assert r.action(_leaf("NK1-4.3.1", Kind.ADDRESS, phi=PhiType.CITY)) is Action.REDACT  # then the kind
    assert r.action(_leaf("ZPI-3.1.1", Kind.UNKNOWN)) is Action.KEEP
    assert r.action(_leaf("PID-3.1.1", Kind.IDENTIFIER)) is Action.REDACT
    assert r.action(_leaf("Patient.name.given", Kind.NAME, types=("HumanName",))) is Action.KEEP
    assert r.action(_leaf("Practitioner.name.given", Kind.NAME)) is Action.LABEL
    assert r.action(_leaf("Patient.id", Kind.IDENTIFIER)) is Action.PSEUDONYMIZE
    assert r.action(_leaf("Patient.identifier.id", Kind.IDENTIFIER)) is Action.REDACT


def test_path_patterns_stop_at_boundaries() -> None:
    policy = parse_policy(MINIMAL + 'overrides: [{path: "PID-5", action: keep}, {path: "Patient.name", action: keep}]')
    r = PolicyResolver(policy)
    assert r.action(_leaf("PID-5.1.1", Kind.NAME)) is Action.KEEP
    assert r.action(_leaf("PID-50.1.1", Kind.NAME)) is Action.LABEL
    assert r.action(_leaf("Patient.name.family", Kind.NAME)) is Action.KEEP
    assert r.action(_leaf("Patient.nameSuffix", Kind.NAME)) is Action.LABEL


def test_specs_resolve_like_leaves() -> None:
    r = PolicyResolver(shipped_policy("surrogate"))
    assert r.action(LeafSpec("MSH-10.1.1", Kind.TEXT)) is Action.PSEUDONYMIZE
    assert r.action(LeafSpec("ZXX-1.1.1", Kind.UNKNOWN)) is Action.REDACT


# -- dates ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "datatype", "shifted", "year"),
    [
        ("19300122000000+0215", "TS", "19300112000000+0215", "1930"),
        ("20240305", "DT", "20240224", "2024"),
        ("202403", "TS", "202403", "2024"),
        ("2024", "DTM", "2024", "2024"),
        ("2024-03-05T10:11:12.5-05:00", "dateTime", "2024-02-24T10:11:12.5-05:00", "2024"),
        ("2024-03-05T10:11:12Z", "instant", "2024-02-24T10:11:12Z", "2024-01-01T00:00:00Z"),
        ("2024-03-05", "date", "2024-02-24", "2024"),
    ],
)
def test_structured_dates_keep_precision_and_zone(value: str, datatype: str, shifted: str, year: str) -> None:
    assert datetimes.shift(value, datatype, -10) == shifted
    assert datetimes.year_only(value, datatype) == year


@pytest.mark.parametrize("value", ["", "2024-13-01", "20241301", "yesterday", "2024030", "0000-00-00"])
def test_unreadable_dates_are_none(value: str) -> None:
    assert datetimes.shift(value, "TS", 5) is None


# -- structured actions --------------------------------------------------------------------------------


async def _value(leaf: Leaf, action: Action, policy_name: str = "surrogate", **ctx: object) -> str | None:
    surrogator = Surrogator(InMemoryMappingStore(), KEY)
    return await structured_value(leaf, action, _ctx(**ctx), shipped_policy(policy_name), surrogator, KEY)  # type: ignore[arg-type]


async def test_shift_moves_dates_by_the_message_offset() -> None:
    assert await _value(_leaf("MSH-7.1.1", Kind.DATE, "20240305120000", datatype="DTM"), Action.SHIFT) == "20240224120000"


async def test_birth_dates_of_people_over_89_are_removed() -> None:
    old = _leaf("PID-7.1.1", Kind.DATE, "19300122", datatype="TS", role=Role.BIRTH_DATE)
    young = _leaf("PID-7.1.1", Kind.DATE, "19800122", datatype="TS", role=Role.BIRTH_DATE)
    assert await _value(old, Action.SHIFT) is None
    assert await _value(old, Action.KEEP) is None
    assert await _value(young, Action.SHIFT) == "19800112"
    # The Limited Data Set keeps ages, so it keeps birth dates too.
    assert await _value(old, Action.KEEP, "limited-data-set") == "19300122"


async def test_generalize_dates_and_zip() -> None:
    assert await _value(_leaf("PID-7.1.1", Kind.DATE, "19800122", datatype="TS"), Action.GENERALIZE) == "1980"
    assert await _value(_leaf("PID-11.5.1", Kind.ADDRESS, "02139", PhiType.ZIP), Action.GENERALIZE) == "021"
    assert await _value(_leaf("PID-11.5.1", Kind.ADDRESS, "03601-1234", PhiType.ZIP), Action.GENERALIZE) == "000"
    assert await _value(_leaf("PID-11.1.1", Kind.ADDRESS, "1 Main St", PhiType.STREET), Action.GENERALIZE) is None
    assert zip3("not a zip") is None


async def test_pseudonyms_are_keyed_and_the_patient_id_gets_the_patient_pseudonym() -> None:
    surrogator = Surrogator(InMemoryMappingStore(), KEY)
    other = _leaf("MSH-10.1.1", Kind.TEXT, "MSG-00042")
    assert await _value(other, Action.PSEUDONYMIZE) == pseudonymize(KEY, "MSG-00042")
    assert "00042" not in pseudonymize(KEY, "MSG-00042")
    own = _leaf("PID-3.1.1", Kind.IDENTIFIER, "P1")
    assert await _value(own, Action.PSEUDONYMIZE) == await surrogator.pseudonym("P1")
    assert await _value(own, Action.SURROGATE) == await surrogator.pseudonym("P1")


async def test_label_redact_keep_and_binary_scan() -> None:
    name = _leaf("PID-5.1.1", Kind.NAME, "Smith", PhiType.PATIENT)
    assert await _value(name, Action.LABEL) == "[PATIENT]"
    assert await _value(name, Action.REDACT) is None
    assert await _value(name, Action.KEEP) == "Smith"
    surrogate = await _value(name, Action.SURROGATE)
    assert surrogate and surrogate != "Smith"
    photo = _leaf("Patient.photo.data", Kind.ATTACHMENT, "AAAA", binary=True)
    assert await _value(photo, Action.SCAN) is None


# -- text actions --------------------------------------------------------------------------------------

TEXT = "Seen 03/05/2014 in Boston, MA 02139 by Dr. Ann Lee; aged 93, sister 45."


def _spans() -> list[Span]:
    def span(s: str, t: PhiType) -> Span:
        i = TEXT.index(s)
        return Span(i, i + len(s), t, 1.0, frozenset({"test"}))

    return [
        span("03/05/2014", PhiType.DATE), span("Boston", PhiType.CITY), span("MA", PhiType.STATE),
        span("02139", PhiType.ZIP), span("Ann Lee", PhiType.DOCTOR), span("93", PhiType.AGE), span("45", PhiType.AGE),
    ]  # fmt: skip


async def test_safe_harbor_text() -> None:
    policy = shipped_policy("safe-harbor")
    out, changed = await replace_spans(TEXT, _spans(), policy, Surrogator(InMemoryMappingStore(), KEY), "patient:P1")
    assert out == "Seen 2014 in [CITY], MA 021 by Dr. [DOCTOR]; aged 90+, sister 45."
    assert {s.type for s in changed} == {PhiType.DATE, PhiType.CITY, PhiType.ZIP, PhiType.DOCTOR, PhiType.AGE}
    assert [s.type for s in reported(policy, _spans(), TEXT)] == [s.type for s in changed]


async def test_limited_data_set_text_keeps_dates_and_places() -> None:
    policy = shipped_policy("limited-data-set")
    out, _ = await replace_spans(TEXT, _spans(), policy, Surrogator(InMemoryMappingStore(), KEY), "patient:P1")
    assert out == "Seen 03/05/2014 in Boston, MA 02139 by Dr. [DOCTOR]; aged 93, sister 45."


async def test_mask_and_redact_text_actions() -> None:
    policy = parse_policy(MINIMAL + "detected_text: {default: mask, types: {CITY: redact}}")
    out, _ = await replace_spans(TEXT, _spans()[:3], policy, Surrogator(InMemoryMappingStore(), KEY), "patient:P1")
    assert out == "Seen **/**/**** in , ** 02139 by Dr. Ann Lee; aged 93, sister 45."
