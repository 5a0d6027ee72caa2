"""TritonTagger: the tagger served by a Triton Inference Server, over gRPC (asyncio).

One ``tag`` call sends the batch as requests of at most ``max_batch_size`` rows; Triton's dynamic
batcher may merge them with other workers' requests. Failures are retried with exponential backoff up
to ``retries`` times, then raised as ``TaggerUnavailable`` so the caller can pause instead of emitting
an incompletely processed note.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from deid_core.tagger import wire
from deid_core.tagger.base import TaggerUnavailable
from deid_core.tagger.runtime import SPAN_SCORE
from schemas import Span

log = logging.getLogger(__name__)


class TritonTagger:
    def __init__(
        self,
        url: str,
        *,
        model_name: str = "phi_tagger",
        model_version: str = "",
        max_batch_size: int = 64,
        timeout_s: float = 30.0,
        retries: int = 3,
        backoff_s: float = 0.5,
    ) -> None:
        import tritonclient.grpc.aio as grpcclient

        self._grpc = grpcclient
        # Made on first use: a gRPC aio channel belongs to the event loop it was made in, and the CLI
        # builds its tagger before asyncio.run starts the loop that calls it ("attached to a different
        # loop" on every call otherwise). One TritonTagger therefore serves one event loop.
        self._client_: Any = None
        self.url = url
        self.model_name = model_name
        self.requested_version = model_version
        self.model_version = model_version or "latest"
        self.max_batch_size = max_batch_size
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_s = backoff_s

    @property
    def _client(self) -> Any:
        if self._client_ is None:
            self._client_ = self._grpc.InferenceServerClient(url=self.url)
        return self._client_

    async def ready(self) -> bool:
        try:
            return bool(await self._client.is_model_ready(self.model_name, self.requested_version))
        except Exception:  # noqa: BLE001 - any transport error means "not ready"
            return False

    async def _infer(self, texts: Sequence[str]) -> list[list[Span]]:
        codes, lengths = wire.encode_texts(texts)
        inputs = [self._grpc.InferInput("TEXT", list(codes.shape), "INT32"), self._grpc.InferInput("TEXT_LENGTH", list(lengths.shape), "INT32")]
        inputs[0].set_data_from_numpy(codes)
        inputs[1].set_data_from_numpy(lengths)
        result = await self._client.infer(
            self.model_name,
            inputs,
            model_version=self.requested_version,
            outputs=[self._grpc.InferRequestedOutput("SPANS")],
            client_timeout=self.timeout_s,
        )
        return wire.decode_spans(result.as_numpy("SPANS"), SPAN_SCORE)

    async def tag(self, texts: Sequence[str]) -> list[list[Span]]:
        if not texts:
            return []
        chunks = [texts[i : i + self.max_batch_size] for i in range(0, len(texts), self.max_batch_size)]
        results = await asyncio.gather(*(self._tag_chunk(c) for c in chunks))
        return [spans for chunk in results for spans in chunk]

    async def _tag_chunk(self, texts: Sequence[str]) -> list[list[Span]]:
        delay = self.backoff_s
        for attempt in range(self.retries + 1):
            try:
                return await self._infer(texts)
            except Exception as exc:  # noqa: BLE001 - tritonclient raises its own and grpc errors
                if attempt == self.retries:
                    raise TaggerUnavailable(
                        f"Triton at {self.url} model {self.model_name} failed after {attempt + 1} attempts: {type(exc).__name__}"
                    ) from None
                log.warning("triton call failed (%s), retry %d/%d in %.1fs", type(exc).__name__, attempt + 1, self.retries, delay)
                await asyncio.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if self._client_ is not None:
            await self._client_.close()
            self._client_ = None
