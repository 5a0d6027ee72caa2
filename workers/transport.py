"""The worker's faust app with a configurable consumer fetch wait (``DEID_CONSUMER_FETCH_WAIT_MS``).

faust's aiokafka driver builds the worker's consumer with a fixed ``fetch_max_wait_ms=1500`` and no
setting for it. A broker holds a fetch for up to that long when no data is waiting at the time of the
request: Apache Kafka answers as soon as ``fetch.min.bytes`` arrive, but some Kafka-protocol brokers
(tansu, which the demo and the tests run) hold every such fetch for the full wait, so a note could sit
up to 1.5 s in the broker before the worker saw it. The wait is the only thing changed here; everything
else is faust's driver as it is.
"""

from __future__ import annotations

from typing import Any

import aiokafka
import faust
from faust.transport.drivers import aiokafka as faust_aiokafka

# The attribute aiokafka's consumer keeps the constructor's fetch_max_wait_ms in, read when start()
# builds its fetcher. Private, so its presence is checked (an aiokafka that renames it fails at start-up).
_WAIT_ATTRIBUTE = "_fetch_max_wait_ms"


class FetchWaitError(RuntimeError):
    """The installed aiokafka does not keep the fetch wait where this module sets it."""


def set_fetch_wait(consumer: aiokafka.AIOKafkaConsumer, wait_ms: int) -> None:
    """Set the fetch wait of a consumer that has not started yet."""
    if not isinstance(getattr(consumer, _WAIT_ATTRIBUTE, None), int):
        raise FetchWaitError(
            f"aiokafka {aiokafka.__version__} keeps no {_WAIT_ATTRIBUTE}; unset DEID_CONSUMER_FETCH_WAIT_MS"
        )
    setattr(consumer, _WAIT_ATTRIBUTE, wait_ms)


class _ConsumerThread(faust_aiokafka.AIOKafkaConsumerThread):
    def _create_worker_consumer(self, transport: faust_aiokafka.Transport) -> aiokafka.AIOKafkaConsumer:
        consumer = super()._create_worker_consumer(transport)
        wait_ms = getattr(self.app, "fetch_wait_ms", None)
        if wait_ms is not None:
            set_fetch_wait(consumer, wait_ms)
        return consumer


class _Consumer(faust_aiokafka.Consumer):
    def _new_consumer_thread(self) -> faust_aiokafka.AIOKafkaConsumerThread:
        return _ConsumerThread(self, loop=self.loop, beacon=self.beacon)


class FetchWaitTransport(faust_aiokafka.Transport):
    """faust's aiokafka transport whose worker consumer takes its fetch wait from the app."""

    Consumer = _Consumer


class DeidApp(faust.App):
    """``faust.App`` whose consumer fetches with ``fetch_wait_ms`` (None: faust's own 1500 ms)."""

    def __init__(self, *args: Any, fetch_wait_ms: int | None = None, **kwargs: Any) -> None:
        self.fetch_wait_ms = fetch_wait_ms
        super().__init__(*args, **kwargs)

    def _new_transport(self) -> FetchWaitTransport:
        return FetchWaitTransport(self.conf.broker_consumer, self)
