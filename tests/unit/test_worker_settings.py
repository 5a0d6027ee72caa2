from __future__ import annotations

from pathlib import Path

import pytest

from workers.compose import ConfigurationError, build_processor
from workers.processor import InMemoryDemographics, TopicNames
from workers.settings import WorkerSettings


def test_settings_from_file_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "deid.env"
    path.write_text("DEID_BATCH_MAX=8\nDEID_TOPIC_NOTES_IN=in.file\nDEID_STORE=redis://example:6379/0\n")
    monkeypatch.setenv("DEID_TOPIC_NOTES_IN", "in.env")
    settings = WorkerSettings(_env_file=path)  # type: ignore[call-arg]
    assert settings.batch_max == 8
    assert settings.topic_notes_in == "in.env", "the environment overrides the file"
    assert settings.store == "redis://example:6379/0"


def test_production_mode_refuses_the_development_key() -> None:
    settings = WorkerSettings(production=True, secret_file=None)
    with pytest.raises(ConfigurationError, match="production mode"):
        build_processor(settings, InMemoryDemographics(), TopicNames())
