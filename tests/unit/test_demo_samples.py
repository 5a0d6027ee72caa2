"""The bundled demo samples come out with no original name, id, contact, address or date.

The demo publishes ``workers/samples``; every value that their structured fields hold as a name, an
identifier, a contact, an address part or a date is searched for in the de-identified output, and so is
every name the message header gives (which the notes repeat).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from deid_core.detect.registry import build_detectors
from deid_core.message import datetimes
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


_TITLES = {"mr", "mrs", "ms", "miss", "dr", "jr", "sr", "ii", "iii", "iv", "md", "do", "rn", "phd"}


def _is_title(value: str) -> bool:
    return value.strip(" .").lower() in _TITLES


@pytest.mark.parametrize("policy_name", SHIPPED)
@pytest.mark.parametrize("sample", _samples(), ids=lambda p: p.name)
def test_sample_leaves_nothing_original(sample: Path, policy_name: str) -> None:
    """Every PHI-bearing value leaves changed (or removed), and the patient's names are gone from the notes."""
    policy = shipped_policy(policy_name)
    detection = DetectionPipeline(build_detectors(["rules", "header"]), None)
    pipeline = MessagePipeline(detection, Surrogator(InMemoryMappingStore(), KEY), policy, build_loaders())
    loaded = pipeline.load(sample.read_bytes())
    (result,) = asyncio.run(pipeline.deidentify([(loaded, loaded.patient)]))
    assert not isinstance(result, Exception)
    unchanged = []
    for leaf in loaded.leaves():
        if leaf.kind not in _SEARCHED or leaf.phi_type in _KEPT[policy_name] or _is_title(leaf.value):
            continue
        if policy_name == "limited-data-set" and leaf.kind in (Kind.DATE, Kind.LOCATION):
            continue
        parsed = datetimes.parse(leaf.value, leaf.datatype) if leaf.kind is Kind.DATE else None
        if parsed is not None and parsed.precision == "year":
            continue  # a year alone is no identifier, and a shift of days may leave it as it was
        if leaf.result is not None and leaf.result.strip() == leaf.value.strip():
            unchanged.append(leaf.path)
    assert not unchanged, f"{len(unchanged)} PHI values left unchanged in {sample.name}: {unchanged[:10]}"
    if loaded.patient is not None:
        notes = "\n".join(n.text for n in result.notes)
        parts = {p for name in loaded.patient.names for p in name.split() if len(p) >= 4 and not _is_title(p)}
        assert not [p for p in parts if re.search(rf"\b{re.escape(p)}\b", notes)]
