"""Worker settings from the environment (prefix ``DEID_``) or a ``.env``-style file."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class WorkerSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DEID_", env_file=None, extra="ignore")

    app_id: str = "deid-stream"
    kafka_bootstrap: str = "127.0.0.1:9092"
    topic_notes_in: str = "deid.notes.in"
    topic_demographics: str = "deid.demographics"
    topic_notes_out: str = "deid.notes.out"
    topic_json_out: str | None = "deid.notes.json"
    topic_dead_letter: str = "deid.deadletter"
    topic_audit: str = "deid.audit"
    topic_partitions: int = Field(default=4, ge=1)
    create_topics: bool = Field(
        default=True, description="create the input topics with topic_partitions if missing (off where deploy/ creates them)"
    )
    batch_max: int = Field(default=32, ge=1, description="notes per pipeline run (one tagger call)")
    batch_wait_ms: int = Field(default=200, ge=1, description="longest wait to fill a batch")
    retry_backoff_ms: int = Field(default=500, ge=1, description="first pause when a dependency is down")
    retry_backoff_max_ms: int = Field(default=10_000, ge=1)
    triton_url: str | None = Field(default=None, description="Triton gRPC host:port; unset = in-process tagger")
    store: str = Field(default="memory", description="'memory' or a redis:// URL")
    secret_file: str | None = None
    production: bool = False
    data_dir: str | None = Field(default=None, description="faust's local state directory (default: ./<app_id>-data)")
    lake_path: str | None = Field(default=None, description="directory of the Parquet data-lake sink; unset = off")
    # tansu (tests, embedded default) holds JoinGroup for half the session timeout: keep it short there.
    broker_session_timeout_s: float = 6.0
    broker_heartbeat_interval_s: float = 1.0
    web_port: int = Field(default=6066, ge=0)
