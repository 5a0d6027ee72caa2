"""Coverage: every field of HL7 v2.5.1 and every element of every FHIR R4 resource gets an action.

The field and element lists come from the libraries' own definitions (hl7apy's v2.5.1 tables, the
fhir.resources R4B models), never from a hand list. Under every shipped policy each resolves to an
action; and no value of a PHI-bearing kind is kept where the policy's documented pathway removes it.
"""

from __future__ import annotations

from functools import cache

import pytest

from deid_core.message.hl7 import codec as hl7
from deid_core.message.policy import SHIPPED, PolicyResolver, shipped_policy
from schemas.message import Kind, LeafSpec
from schemas.phi import PhiType
from schemas.policy import Action, allowed_actions

_PHI_KINDS = {Kind.NAME, Kind.ADDRESS, Kind.CONTACT, Kind.IDENTIFIER, Kind.DATE, Kind.LOCATION}
# What each policy may keep of a PHI-bearing kind, by design (docs/policy.md).
_MAY_KEEP: dict[str, set[PhiType | Kind]] = {
    "surrogate": set(),
    "safe-harbor": {PhiType.STATE, PhiType.COUNTRY},
    "limited-data-set": {PhiType.CITY, PhiType.STATE, PhiType.ZIP, PhiType.COUNTRY, Kind.DATE, Kind.LOCATION},
}


@cache
def hl7_specs() -> tuple[LeafSpec, ...]:
    return tuple(spec for segment in hl7.segment_names() for spec in hl7.field_specs(segment))


@cache
def fhir_specs() -> tuple[LeafSpec, ...]:
    from deid_core.message.fhir import codec as fhir

    return tuple(spec for rt in fhir.resource_types() for spec in fhir.element_specs(rt))


def test_the_tables_are_complete() -> None:
    segments = hl7.segment_names()
    assert len(segments) >= 140 and {"GT1", "IN1", "NTE", "ORC", "EVN", "PD1", "ROL", "SPM"} <= set(segments)
    fields = {spec.path.split(".")[0] for spec in hl7_specs()}
    assert len(fields) >= 1500
    from deid_core.message.fhir import codec as fhir

    assert len(fhir.resource_types()) >= 140


def _check(specs: tuple[LeafSpec, ...], policy_name: str) -> None:
    resolver = PolicyResolver(shipped_policy(policy_name))
    kept_phi: list[str] = []
    for spec in specs:
        action = resolver.action(spec)
        assert action in allowed_actions(spec.kind) or action is Action.PSEUDONYMIZE, spec.path
        if spec.kind is Kind.UNKNOWN:
            assert action is Action.REDACT, spec.path
        if spec.kind in _PHI_KINDS and action is Action.KEEP:
            if spec.kind not in _MAY_KEEP[policy_name] and spec.phi_type not in _MAY_KEEP[policy_name]:
                kept_phi.append(spec.path)
    assert not kept_phi, f"{len(kept_phi)} PHI-bearing paths kept, e.g. {kept_phi[:5]}"


@pytest.mark.parametrize("policy_name", SHIPPED)
def test_every_hl7_field_resolves(policy_name: str) -> None:
    _check(hl7_specs(), policy_name)


@pytest.mark.parametrize("policy_name", SHIPPED)
def test_every_fhir_element_resolves(policy_name: str) -> None:
    _check(fhir_specs(), policy_name)


def test_known_fields_get_the_expected_actions() -> None:
    surrogate = PolicyResolver(shipped_policy("surrogate"))
    by_path = {s.path: s for s in hl7_specs()}
    assert surrogate.action(by_path["GT1-3.1.1"]) is Action.SURROGATE  # guarantor's family name
    assert surrogate.action(by_path["MSH-7.1.1"]) is Action.SHIFT
    assert surrogate.action(by_path["MSH-10.1.1"]) is Action.PSEUDONYMIZE
    assert surrogate.action(by_path["NTE-3.1.1"]) is Action.SCAN
    safe = PolicyResolver(shipped_policy("safe-harbor"))
    assert safe.action(by_path["PID-7.1.1"]) is Action.GENERALIZE
    assert safe.action(by_path["PID-11.4.1"]) is Action.KEEP  # state
    assert safe.action(by_path["PID-11.5.1"]) is Action.GENERALIZE  # ZIP -> ZIP3
