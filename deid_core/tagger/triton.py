"""TritonTagger: the tagger served by a Triton Inference Server, over gRPC (asyncio).

The client tokenises and encodes the texts itself (deid_core.tagger.wire, contract 2) with its copy of
the model artifact (``DEID_TAGGER_MODEL_DIR``, else the repository's), sends token and spelling ids,
and turns the tag ids that come back into spans with the offsets it kept. One ``tag`` call sends the
batch as requests of at most ``max_batch_size`` texts; Triton's dynamic batcher may merge them with
other workers' requests. Before its first request the client checks that the model declares the same
contract, and every answer must carry its artifact's fingerprint: a mismatch raises ``TaggerUnavailable``
at once, naming both sides. Other failures are retried with exponential backoff up to ``retries`` times,
then raised as ``TaggerUnavailable`` so the caller can pause instead of emitting an incompletely
processed note.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deid_core.tagger import wire
from deid_core.tagger.base import TaggerUnavailable
from deid_core.tagger.runtime import SOURCE, SPAN_SCORE
from schemas import Span

log = logging.getLogger(__name__)


class ContractMismatch(TaggerUnavailable):
    """Client and model disagree on the contract or the artifact: retrying cannot help."""


class TritonTagger:
    def __init__(
        self,
        url: str,
        *,
        model_name: str = "phi_tagger",
        model_version: str = "",
        model_dir: str | Path | None = None,
        max_batch_size: int = 64,
        timeout_s: float = 30.0,
        retries: int = 3,
        backoff_s: float = 0.5,
    ) -> None:
        import tritonclient.grpc.aio as grpcclient

        from deid_core.tagger import default_model_dir

        self._grpc = grpcclient
        # Made on first use: a gRPC aio channel belongs to the event loop it was made in, and the CLI
        # builds its tagger before asyncio.run starts the loop that calls it ("attached to a different
        # loop" on every call otherwise). One TritonTagger therefore serves one event loop.
        self._client_: Any = None
        # Loaded now: a worker without the artifact fails at start-up, not at its first note.
        self.artifact = wire.ClientArtifact.load(model_dir if model_dir is not None else default_model_dir())
        self._contract_checked = False
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

    async def _check_contract(self) -> None:
        if self._contract_checked:
            return
        answer = await self._client.get_model_config(
            self.model_name, self.requested_version, as_json=True, client_timeout=self.timeout_s
        )
        parameters = answer.get("config", {}).get("parameters", {})
        declared = parameters.get(wire.CONTRACT_PARAMETER, {}).get("string_value")
        if declared != wire.CONTRACT_VERSION:
            theirs = f"contract {declared}" if declared else f"no {wire.CONTRACT_PARAMETER} (the text-input model, contract 1)"
            raise ContractMismatch(
                f"Triton model {self.model_name} at {self.url} declares {theirs}; this client sends contract "
                f"{wire.CONTRACT_VERSION}: deploy worker and Triton images of the same release"
            )
        self._contract_checked = True

    async def _infer(self, texts: Sequence[str]) -> list[list[Span]]:
        await self._check_contract()
        # Tokenising a large chunk takes tens of milliseconds: off the event loop, so other calls go on.
        request = await asyncio.to_thread(wire.encode_request, texts, self.artifact.vocab)
        inputs = []
        for name, array in zip(wire.INPUTS, (request.tokens, request.spellings, request.counts), strict=True):
            tensor = self._grpc.InferInput(name, list(array.shape), "INT32")
            tensor.set_data_from_numpy(array)
            inputs.append(tensor)
        result = await self._client.infer(
            self.model_name,
            inputs,
            model_version=self.requested_version,
            outputs=[self._grpc.InferRequestedOutput(name) for name in wire.OUTPUTS],
            client_timeout=self.timeout_s,
        )
        tags, artifact = (result.as_numpy(name) for name in wire.OUTPUTS)
        try:
            return wire.decode_tags(request, tags, artifact, self.artifact, SPAN_SCORE, SOURCE)
        except wire.ContractError as exc:
            raise ContractMismatch(f"Triton model {self.model_name} at {self.url}: {exc}") from None

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
            except ContractMismatch:
                raise
            except Exception as exc:  # noqa: BLE001 - tritonclient raises its own and grpc errors
                # The model may have been replaced meanwhile (a new config is one way calls start failing):
                # check the contract again before the next attempt, so a mismatch is named, not retried.
                self._contract_checked = False
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
