"""Contract 2 against a real tritonserver: requests of any padding merge, a request outside the contract
is refused on its own, and a client whose artifact differs from the served one fails at once."""

from __future__ import annotations

import asyncio
import json
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from deid_core.tagger import default_model_dir, wire
from deid_core.tagger.triton import ContractMismatch, TritonTagger

pytestmark = pytest.mark.triton


async def test_a_client_with_another_vocabulary_fails_naming_both_fingerprints(triton_grpc_url: str, tmp_path: Path) -> None:
    for name in ("tagger.json", "vocab.json"):
        shutil.copy(default_model_dir() / name, tmp_path / name)
    vocab = json.loads((tmp_path / "vocab.json").read_text())
    vocab["words"]["zz-retrained"] = vocab["words"].pop(next(w for w in vocab["words"] if w not in ("<pad>", "<unk>")))
    (tmp_path / "vocab.json").write_text(json.dumps(vocab))
    remote = TritonTagger(triton_grpc_url, model_dir=tmp_path, retries=3, backoff_s=1.0)
    served = wire.ClientArtifact.load(default_model_dir()).fingerprint
    started = time.monotonic()
    try:
        with pytest.raises(ContractMismatch) as err:
            await remote.tag(["Seen by Dr. Ann Lee on 03/04/2019."])
    finally:
        await remote.close()
    assert f"{served:016x}" in str(err.value) and f"{remote.artifact.fingerprint:016x}" in str(err.value)
    assert time.monotonic() - started < 1.0  # not retried


async def test_a_request_outside_the_contract_is_refused_and_the_model_stays_up(triton_grpc_url: str) -> None:
    import tritonclient.grpc.aio as grpcclient
    from tritonclient.utils import InferenceServerException

    artifact = wire.ClientArtifact.load(default_model_dir())
    request = wire.encode_request(["Seen by Dr. Ann Lee."], artifact.vocab)
    tokens = request.tokens.copy()
    tokens[0, 0, 0] = -1  # a negative row NumPy would silently read from the end
    client = grpcclient.InferenceServerClient(url=triton_grpc_url)
    try:
        inputs = []
        for name, array in zip(wire.INPUTS, (tokens, request.spellings, request.counts), strict=True):
            inputs.append(grpcclient.InferInput(name, list(array.shape), "INT32"))
            inputs[-1].set_data_from_numpy(np.ascontiguousarray(array))
        with pytest.raises(InferenceServerException, match="spelling row"):
            await client.infer("phi_tagger", inputs)
    finally:
        await client.close()
    remote = TritonTagger(triton_grpc_url)
    try:
        assert len(await remote.tag(["Seen by Dr. Ann Lee."])) == 1
    finally:
        await remote.close()


async def test_requests_of_different_padding_are_batched_together(triton_grpc_url: str) -> None:
    import tritonclient.grpc.aio as grpcclient

    texts = ["a"] + ["Seen by Dr. Ann Lee on 03/04/2019 at St. Mary's, MRN 0937884. " * k for k in range(1, 24)]
    stats = grpcclient.InferenceServerClient(url=triton_grpc_url)
    remote = TritonTagger(triton_grpc_url, max_batch_size=1)

    async def counts() -> tuple[int, int]:
        s = (await stats.get_inference_statistics("phi_tagger", as_json=True))["model_stats"]
        return sum(int(m["inference_stats"]["success"].get("count", 0)) for m in s), sum(int(m.get("execution_count", 0)) for m in s)

    async def settled(last: tuple[int, int], quiet_s: float = 0.5, limit_s: float = 15.0) -> tuple[int, int]:
        deadline = asyncio.get_running_loop().time() + limit_s
        while asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(quiet_s)
            now = await counts()
            if now == last:
                return now
            last = now
        return last

    try:
        await remote.tag(texts[:1])  # the contract check and a warm model first
        before = await settled(await counts())
        await asyncio.gather(*(remote.tag([t]) for t in texts))
        # The server counts a request when it releases it, which can come after the client has its
        # answer: read the statistics once they stop moving (a CI run read 6 of 24 right away).
        after = await settled(await counts())
    finally:
        await remote.close()
        await stats.close()
    requests, executions = after[0] - before[0], after[1] - before[1]
    assert requests == len(texts)
    assert executions < requests  # shapes differ in every request, and still some were merged
