"""Output keys stay the same across a key rotation while the old key is configured as a previous key."""

from __future__ import annotations

from pathlib import Path

from schemas.events import EventFormat
from workers.compose import build_processor
from workers.processor import InMemoryDemographics, TopicNames
from workers.settings import WorkerSettings


def test_output_keys_survive_a_rotation_rollout(tmp_path: Path) -> None:
    old = tmp_path / "v1.key"
    old.write_text("v1:" + "a" * 40)
    new = tmp_path / "v2.key"
    new.write_text("v2:" + "b" * 40)
    before = build_processor(WorkerSettings(secret_file=str(old)), InMemoryDemographics(), TopicNames())
    during = build_processor(
        WorkerSettings(secret_file=str(new), previous_secret_files=(str(old),)), InMemoryDemographics(), TopicNames()
    )
    after = build_processor(WorkerSettings(secret_file=str(new)), InMemoryDemographics(), TopicNames())
    key = before.output_key(EventFormat.HL7V2, "MSG00001")
    assert during.output_key(EventFormat.HL7V2, "MSG00001") == key
    assert after.output_key(EventFormat.HL7V2, "MSG00001") != key  # documented: once the old key is dropped
    assert during.pipeline.surrogator.key.version == "v2"  # audit records the current key's version
