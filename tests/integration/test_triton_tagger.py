"""The tagger served by a real tritonserver gives exactly the spans of the in-process tagger."""

from __future__ import annotations

import socket

import pytest

from deid_core.tagger import default_model_dir
from deid_core.tagger.base import TaggerUnavailable
from deid_core.tagger.inprocess import InProcessTagger
from deid_core.tagger.triton import TritonTagger
from deid_tools.corpus import generate_notes

pytestmark = pytest.mark.triton


async def test_triton_and_in_process_taggers_agree(triton_grpc_url: str) -> None:
    texts = [n.text for n in generate_notes("test", 40, seed=5)]
    texts += ["", "short", "x" * 9000, "Zoë Ünal, née Çelik, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 seen 3/4/2019"]
    local = InProcessTagger.from_directory(default_model_dir())
    remote = TritonTagger(triton_grpc_url, max_batch_size=16)
    try:
        assert await remote.ready()
        expected = await local.tag(texts)
        got = await remote.tag(texts)
    finally:
        await remote.close()
    assert len(got) == len(texts)
    assert [[(s.start, s.end, s.type) for s in doc] for doc in got] == [[(s.start, s.end, s.type) for s in doc] for doc in expected]
    assert sum(len(doc) for doc in got) > 0


async def test_concurrent_requests_are_answered_in_order(triton_grpc_url: str) -> None:
    import asyncio

    texts = [n.text for n in generate_notes("dev", 24, seed=9)]
    remote = TritonTagger(triton_grpc_url, max_batch_size=1)
    try:
        singles = await asyncio.gather(*(remote.tag([t]) for t in texts))
        batched = await remote.tag(texts)
    finally:
        await remote.close()
    assert [s[0] for s in singles] == batched


async def test_unreachable_triton_fails_closed_with_a_clear_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    remote = TritonTagger(f"127.0.0.1:{port}", retries=2, backoff_s=0.05, timeout_s=2)
    try:
        assert not await remote.ready()
        with pytest.raises(TaggerUnavailable, match="failed after 3 attempts"):
            await remote.tag(["Seen by Dr. Lee."])
    finally:
        await remote.close()
