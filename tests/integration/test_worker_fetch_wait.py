"""The consumer fetch wait the worker sets (workers/transport.py) is the one aiokafka's fetcher runs with,
on a started consumer against the real broker."""

from __future__ import annotations

import uuid

import aiokafka
import pytest

from workers.transport import set_fetch_wait

pytestmark = [pytest.mark.broker]


async def test_a_started_consumer_fetches_with_the_wait_set_before_start(kafka_bootstrap: str) -> None:
    consumer = aiokafka.AIOKafkaConsumer(
        f"fetch-wait-{uuid.uuid4().hex[:8]}", bootstrap_servers=kafka_bootstrap, group_id=None, fetch_max_wait_ms=1500
    )
    set_fetch_wait(consumer, 80)
    await consumer.start()
    try:
        assert consumer._fetcher._fetch_max_wait_ms == 80
    finally:
        await consumer.stop()
