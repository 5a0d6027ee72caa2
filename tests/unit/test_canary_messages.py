"""Canary messages through the whole-message pipeline, in process: no canary survives any shipped policy.

``tests/canary_messages.py`` fills every PHI-bearing field of 71 HL7 segment types (68 of v2.5.1, PRT,
two Z-segments) and every PHI-bearing element of 28 FHIR R4 resource types with canary PHI. Each
message must load (no dead letter), render to a message that re-parses (HL7) or validates (FHIR R4B),
and leave with no canary in the message or its notes, except the kinds a policy keeps on purpose
(``KEPT``). Detection is rules and header evidence only (no tagger), so every canary here must be
caught by the policy or by the header the loader built, not by a model's luck.
``tests/integration/test_canary_worker.py`` runs the same messages through a real worker on a real
broker.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from functools import cache

import hl7
import pytest

from deid_core.detect.registry import build_detectors
from deid_core.message.path import MessagePipeline, MessageResult
from deid_core.message.policy import shipped_policy
from deid_core.pipeline import DetectionPipeline
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import HmacKey
from deid_core.surrogate.store import InMemoryMappingStore
from schemas.events import EventParseError
from tests.canary_messages import (
    FHIR_VARIANTS,
    HL7_MESSAGE_TYPES,
    KINDS,
    all_canary_values,
    canary_cases,
    canary_fhir_bundles,
    canary_hl7_messages,
    describe,
    fhir_bundle,
    fhir_resource_types,
    find,
    hl7_message,
    hl7_segment_types,
    locate,
    validate_fhir,
)
from workers.compose import build_loaders

KEY = HmacKey(b"canary-unit-test-secret-canary-unit", "v1")
# What each shipped policy keeps on purpose (docs/policy.md): limited-data-set keeps dates, cities, ZIP
# codes and facility names (location: keep), which covers wards and insurers' names too.
KEPT: dict[str, tuple[str, ...]] = {
    "surrogate": (),
    "safe-harbor": (),
    "limited-data-set": ("date", "city", "zip", "facility", "ward", "insurer"),
}
# Each policy runs on one case (four HL7 messages, two bundles): each case's messages carry every segment
# and resource type. Case 0's patient was born in 1925 (over 89: birth dates removed, ages aggregated),
# case 1's in 1961, case 2's in 1987.
CASES_RUN = {"surrogate": (1,), "safe-harbor": (0,), "limited-data-set": (2,)}
REQUIRED_SEGMENTS = {
    "MSH", "EVN", "PID", "PD1", "NK1", "PV1", "PV2", "GT1", "IN1", "IN2", "IN3", "NTE", "ORC", "OBR", "OBX",
    "TXA", "SPM", "PRT", "ROL", "AL1", "DG1", "PR1", "ACC", "MRG", "DB1", "CTD", "AUT", "RF1", "SCH", "AIS",
    "AIG", "AIL", "AIP", "RXA", "RXO", "RXE", "RXR", "FT1", "UB2", "ZPI", "ZXT",
}  # fmt: skip


def _pipeline(policy: str) -> MessagePipeline:
    detection = DetectionPipeline(build_detectors(["rules", "header"]), None)
    return MessagePipeline(detection, Surrogator(InMemoryMappingStore(), KEY), shipped_policy(policy), build_loaders())


def _messages(fmt: str, cases: Sequence[int]) -> list[tuple[bytes, bytes]]:
    chosen = [canary_cases()[i] for i in cases]
    if fmt == "hl7v2":
        return [hl7_message(c, n) for c in chosen for n in range(len(HL7_MESSAGE_TYPES))]
    return [fhir_bundle(c, v) for c in chosen for v in range(FHIR_VARIANTS)]


@cache
def _run(policy: str, fmt: str) -> tuple[list[tuple[bytes, MessageResult]], list[str]]:
    """(key, result) per message, and a line per message that was dead-lettered."""
    pipeline = _pipeline(policy)
    loaded, dead = [], []
    for key, raw in _messages(fmt, CASES_RUN[policy]):
        try:
            message = pipeline.load(raw)
        except EventParseError as exc:
            dead.append(f"{key.decode()}: load {exc.code}: {exc.message}")
            continue
        loaded.append((key, message))
    results = asyncio.run(pipeline.deidentify([(m, m.patient) for _, m in loaded]))
    out = []
    for (key, _), result in zip(loaded, results, strict=True):
        if isinstance(result, EventParseError):
            dead.append(f"{key.decode()}: render {result.code}: {result.message}")
        else:
            out.append((key, result))
    return out, dead


# ------------------------------------------------------------------------------------------ the messages


def test_canary_hl7_messages_cover_40_segment_types_and_parse() -> None:
    messages = canary_hl7_messages()
    types = hl7_segment_types(v for _, v in messages)
    assert len(types) >= 40 and REQUIRED_SEGMENTS <= types, sorted(REQUIRED_SEGMENTS - types)
    assert {t for t in types if t.startswith("Z")} >= {"ZPI", "ZXT"}
    for _, value in messages:
        parsed = hl7.parse(value.decode())
        assert sum(1 for seg in parsed if str(seg[0]) == "PID") == 1
        assert str(parsed.segment("MSH")[9]).split("^")[0] in ("ORU", "MDM", "SIU", "ORM")
    # Every case's messages together carry every segment type.
    for case in canary_cases():
        mine = hl7_segment_types(hl7_message(case, n)[1] for n in range(len(HL7_MESSAGE_TYPES)))
        assert mine == types


def test_canary_fhir_bundles_cover_20_resource_types_and_validate() -> None:
    types: set[str] = set()
    for _, value in canary_fhir_bundles():
        bundle = json.loads(value)
        validate_fhir(bundle)
        types |= fhir_resource_types(bundle)
        resources = [e["resource"] for e in bundle["entry"]]
        assert any(r.get("contained") for r in resources)
        assert any(r.get("extension") for r in resources)
        assert "_birthDate" in resources[0]
        assert any(str(ref).startswith("Patient?identifier=") for ref in _references(bundle))
        assert any(str(ref).startswith("#") for ref in _references(bundle))
    assert len(types) >= 20, sorted(types)


def _references(node: object) -> list[str]:
    if isinstance(node, dict):
        own = [node["reference"]] if isinstance(node.get("reference"), str) else []
        return own + [r for v in node.values() for r in _references(v)]
    if isinstance(node, list):
        return [r for v in node for r in _references(v)]
    return []


def test_every_canary_kind_is_planted_and_found() -> None:
    """The search works: in the inputs it finds canaries of every kind (so 0 in the outputs means 0)."""
    values = all_canary_values()
    assert len(values) >= 500
    blob = b"\n".join(v for _, v in canary_hl7_messages() + canary_fhir_bundles())
    found = find(blob, values)
    missing = [k for k in KINDS if not values.by_kind[k] & found]
    assert not missing, missing
    # Codes are never canaries: a kept code cannot be taken for a leak.
    assert not find("A^X1^LN^MR^F^WI^USA^2.16.840.1.113883.19.5", values)


@pytest.mark.parametrize("fmt", ["hl7v2", "fhir"])
def test_loader_reads_every_segment_and_resource(fmt: str) -> None:
    """Every segment type and resource type of the messages yields leaves: none is skipped whole."""
    pipeline = _pipeline("surrogate")
    seen: set[str] = set()
    planted: set[str] = set()
    for _, raw in _messages(fmt, (0,)):
        message = pipeline.load(raw)
        if fmt == "hl7v2":
            planted |= hl7_segment_types([raw])
            seen |= {leaf.path.split("-", 1)[0] for leaf in message.leaves()}
        else:
            planted |= fhir_resource_types(json.loads(raw)) | {"Bundle"}
            seen |= {leaf.path.split(".", 1)[0] for leaf in message.leaves()}
        assert message.patient is not None
        assert message.notes
    assert planted <= seen, sorted(planted - seen)


# --------------------------------------------------------------------------------------------- the leaks


def _leak_report(policy: str, fmt: str, results: Sequence[tuple[bytes, MessageResult]]) -> dict[str, set[str]]:
    """'kind:value' -> the output paths (and 'note') where it was found."""
    values = all_canary_values().without(*KEPT[policy])
    leaks: dict[str, set[str]] = {}
    for _, result in results:
        for value in find(result.output, values):
            for where in locate(result.output, value, fmt):
                leaks.setdefault(describe([value], values)[0], set()).add(where)
        for note in result.notes:
            for value in find(note.text, values):
                leaks.setdefault(describe([value], values)[0], set()).add("note")
    return leaks


def _format_leaks(leaks: dict[str, set[str]]) -> str:
    by_path: dict[str, set[str]] = {}
    for value, paths in leaks.items():
        for path in paths:
            by_path.setdefault(path, set()).add(value.split(":", 1)[0])
    return "\n".join(f"  {path}: {', '.join(sorted(kinds))}" for path, kinds in sorted(by_path.items()))


@pytest.mark.parametrize("fmt", ["hl7v2", "fhir"])
@pytest.mark.parametrize("policy", ["surrogate", "safe-harbor", "limited-data-set"])
def test_no_canary_survives(policy: str, fmt: str) -> None:
    results, dead = _run(policy, fmt)
    assert not dead, "\n".join(dead)
    assert len(results) == len(_messages(fmt, CASES_RUN[policy]))
    for _, result in results:
        if fmt == "hl7v2":
            parsed = hl7.parse(result.output.decode())
            assert sum(1 for seg in parsed if str(seg[0]) == "PID") == 1
        else:
            validate_fhir(json.loads(result.output))
    leaks = _leak_report(policy, fmt, results)
    assert not leaks, f"{len(leaks)} canary values survive {policy} ({fmt}), by where they sit:\n" + _format_leaks(leaks)
