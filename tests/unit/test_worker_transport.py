"""The worker's consumer fetch wait (workers/transport.py): faust fixes it at 1500 ms; the setting replaces it."""

from __future__ import annotations

import aiokafka
import pytest

from workers.app import create_app
from workers.settings import WorkerSettings
from workers.transport import FetchWaitError, set_fetch_wait

FAUST_FIXED_WAIT_MS = 1500


async def _worker_consumer_wait(settings: WorkerSettings) -> int:
    app = create_app(settings, lambda table: None)  # type: ignore[arg-type,return-value]
    consumer = app.consumer._thread._create_worker_consumer(app.transport)
    try:
        return int(consumer._fetch_max_wait_ms)
    finally:
        await consumer.stop()  # never started: only releases what the constructor made


@pytest.mark.parametrize(("setting", "expected"), [(None, FAUST_FIXED_WAIT_MS), (100, 100), (750, 750)])
async def test_the_worker_consumer_fetches_with_the_configured_wait(setting: int | None, expected: int) -> None:
    settings = WorkerSettings(app_id=f"fetch-wait-{setting}", consumer_fetch_wait_ms=setting)
    assert await _worker_consumer_wait(settings) == expected


async def test_aiokafka_starts_its_fetcher_with_the_attribute_that_is_set() -> None:
    # The attribute is aiokafka's own; if a new aiokafka stops reading it, the setting must fail loudly.
    consumer = aiokafka.AIOKafkaConsumer(bootstrap_servers="127.0.0.1:1", fetch_max_wait_ms=1234)
    try:
        set_fetch_wait(consumer, 80)
        assert consumer._fetch_max_wait_ms == 80
    finally:
        await consumer.stop()


def test_a_consumer_without_the_attribute_is_refused() -> None:
    class Other:
        pass

    with pytest.raises(FetchWaitError, match="DEID_CONSUMER_FETCH_WAIT_MS"):
        set_fetch_wait(Other(), 100)  # type: ignore[arg-type]


def test_the_setting_is_bounded() -> None:
    with pytest.raises(ValueError):
        WorkerSettings(consumer_fetch_wait_ms=0)
