"""The bundled demo samples come out with no original name, id, contact, address or date.

The demo publishes ``workers/samples``; every value that their structured fields hold as a name, an
identifier, a contact, an address part or a date is searched for in the de-identified output, and so is
every name the message header gives (which the notes repeat).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from deid_core.detect.registry import build_detectors
from deid_core.message.path import MessagePipeline
from deid_core.message.policy import SHIPPED, shipped_policy
from deid_core.pipeline import DetectionPipeline
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import HmacKey
from deid_core.surrogate.store import InMemoryMappingStore
from schemas.message import Kind
from schemas.phi import PhiType
from workers.compose import build_loaders

SAMPLES = Path(__file__).resolve().parents[2] / "workers" / "samples"
KEY = HmacKey(b"demo-samples-test-secret-demo-samples", "v1")
_SEARCHED = {Kind.NAME, Kind.IDENTIFIER, Kind.CONTACT, Kind.ADDRESS, Kind.DATE, Kind.LOCATION}
# What each policy keeps on purpose (documented in docs/policy.md).
_KEPT: dict[str, set[PhiType]] = {
    "surrogate": set(),
    "safe-harbor": {PhiType.STATE, PhiType.COUNTRY},
    "limited-data-set": {PhiType.CITY, PhiType.STATE, PhiType.ZIP, PhiType.COUNTRY},
}


def _samples() -> list[Path]:
    return sorted(p for p in SAMPLES.iterdir() if p.suffix in (".hl7", ".json"))


@pytest.mark.parametrize("policy_name", SHIPPED)
@pytest.mark.parametrize("sample", _samples(), ids=lambda p: p.name)
def test_sample_leaves_nothing_original(sample: Path, policy_name: str) -> None:
    policy = shipped_policy(policy_name)
    detection = DetectionPipeline(build_detectors(["rules", "header"]), None)
    pipeline = MessagePipeline(detection, Surrogator(InMemoryMappingStore(), KEY), policy, build_loaders())
    raw = sample.read_bytes()
    loaded = pipeline.load(raw)
    originals = {
        leaf.value.strip()
        for leaf in loaded.leaves()
        if leaf.kind in _SEARCHED
        and leaf.phi_type not in _KEPT[policy_name]
        and not (policy_name == "limited-data-set" and leaf.kind in (Kind.DATE, Kind.LOCATION))
        and len(leaf.value.strip()) >= 4
    }
    if loaded.patient is not None:
        originals |= {part for name in loaded.patient.names for part in name.split() if len(part) >= 4}
    (result,) = asyncio.run(pipeline.deidentify([(loaded, loaded.patient)]))
    assert not isinstance(result, Exception)
    text = result.output.decode("utf-8", errors="replace")
    notes = "\n".join(n.text for n in result.notes)
    leaked = sorted(v for v in originals if v in text or v in notes)
    assert not leaked, f"{len(leaked)} original values survive in {sample.name} under {policy_name}"
