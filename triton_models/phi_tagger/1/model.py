"""Triton python-backend entry point for the PHI tagger: the network and the CRF decoding only.

Clients (deid_core.tagger.triton.TritonTagger) send encoded tokens in the contract of
deid_core.tagger.wire and get a tag id per token back; tokenising stays with them. The network is
deid_core.tagger.runtime.TaggerRuntime, the same code InProcessTagger runs, on the weights in
``artifact/`` beside this file. The python backend stub does not see a virtualenv by itself: set
``DEID_TRITON_SITE_PACKAGES`` (os.pathsep-separated) to the site-packages holding torch and deid-stream
(scripts/services.sh does this for tests); in a production image, install them into the image's Python.
"""

from __future__ import annotations

import json
import os
import site
from typing import Any

import triton_python_backend_utils as pb_utils  # provided by the python backend

THREADS_ENV = "DEID_TAGGER_THREADS"
# Optional config parameter: windows per model call (TaggerRuntime.max_batch_windows), for GPU tuning.
WINDOWS_PARAMETER = "max_batch_windows"


def _extend_path() -> None:
    for entry in os.environ.get("DEID_TRITON_SITE_PACKAGES", "").split(os.pathsep):
        if entry:
            site.addsitedir(entry)


def _threads_per_instance(config: dict[str, Any]) -> int:
    """``$DEID_TAGGER_THREADS``, else the cores shared among this model's CPU instances (each instance is
    its own stub process; more threads than that per instance would only contend)."""
    from deid_core.tagger.threads import usable_cpus

    if os.environ.get(THREADS_ENV, "").strip():
        return max(1, int(os.environ[THREADS_ENV]))
    groups = config.get("instance_group", [])
    instances = sum(int(g.get("count", 1)) for g in groups if g.get("kind", "KIND_CPU") == "KIND_CPU") or 1
    return max(1, usable_cpus() // instances)


def _parameter(config: dict[str, Any], key: str) -> str | None:
    value = config.get("parameters", {}).get(key)
    return None if value is None else str(value.get("string_value", ""))


def _check_config(config: dict[str, Any], wire: Any) -> None:
    """Refuse to load under a config.pbtxt written for another contract than the code below implements."""
    declared = _parameter(config, wire.CONTRACT_PARAMETER)
    if declared != wire.CONTRACT_VERSION:
        raise RuntimeError(
            f"config.pbtxt declares input contract {declared!r} ({wire.CONTRACT_PARAMETER}), this model.py and "
            f"deid_core implement contract {wire.CONTRACT_VERSION!r}: deploy the config, model.py and deid_core together"
        )
    dims = {i["name"]: [int(d) for d in i.get("dims", [])] for i in config.get("input", [])}
    if set(dims) != set(wire.INPUTS) or dims["SPELLINGS"][-1:] != [wire.SPELLING_WIDTH]:
        raise RuntimeError(f"config.pbtxt inputs {dims} are not contract {wire.CONTRACT_VERSION}'s {wire.INPUTS}")


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        _extend_path()
        from deid_core.tagger import wire
        from deid_core.tagger.runtime import TaggerRuntime
        from deid_core.tagger.threads import limit_threads

        self._wire = wire
        config = json.loads(args.get("model_config") or "{}")
        _check_config(config, wire)
        artifact = os.path.join(args["model_repository"], args["model_version"], "artifact")
        device = "cpu"
        if args.get("model_instance_kind") == "GPU":
            device = f"cuda:{args.get('model_instance_device_id', '0')}"
            from deid_core.tagger.cudnn import check_cudnn

            check_cudnn()  # before the weights load: a mismatched cuDNN fails here, naming both versions
        else:
            # Before the weights load: NumPy's BLAS and (if asked for) torch size their pools from it.
            limit_threads(_threads_per_instance(config))
        # On a CPU this is the NumPy engine, on a GPU torch: the same TaggerRuntime InProcessTagger runs.
        self._runtime = TaggerRuntime.load(artifact, device=device)
        windows = _parameter(config, WINDOWS_PARAMETER)
        if windows:
            self._runtime.max_batch_windows = max(1, int(windows))
        self._fingerprint = wire.artifact_fingerprint(self._runtime.vocab, self._runtime.tag_names)
        self._sizes = self._runtime.input_sizes
        self._warm_up(device)
        if device != "cpu":
            from deid_core.tagger.cudnn import check_cudnn

            check_cudnn()  # again: cuDNN loads its sub-libraries at first use, and they must match too

    def _warm_up(self, device: str) -> None:
        """One tiny batch now, so that a broken GPU stack fails the load rather than the first request."""
        from deid_core.tagger.encode import encode_texts

        batch = encode_texts(["Seen by Dr. Lee on 3/4/2019 at St. Mary's."], self._runtime.vocab)
        try:
            self._runtime.tag_encoded(batch)
        except Exception as exc:
            if device == "cpu":
                raise
            from deid_core.tagger.cudnn import describe_cudnn

            raise RuntimeError(f"the tagger failed its first batch on {device}: {exc}; {describe_cudnn()}") from exc

    def execute(self, requests: list[Any]) -> list[Any]:
        # One model call for every text of every request the dynamic batcher merged; a request that does
        # not fit the contract gets an error of its own and the others go on.
        wire = self._wire
        parts, sizes, responses = [], [], [None] * len(requests)
        for k, request in enumerate(requests):
            tensors = [pb_utils.get_input_tensor_by_name(request, name).as_numpy() for name in wire.INPUTS]
            problem = wire.check_request(*tensors, self._sizes)
            if problem:
                responses[k] = pb_utils.InferenceResponse(error=pb_utils.TritonError(f"contract {wire.CONTRACT_VERSION}: {problem}"))
                continue
            parts.append(tensors)
            sizes.append((k, len(tensors[2])))
        if parts:
            tags = self._runtime.tag_encoded(wire.decode_requests(parts, distinct=self._runtime.wants_distinct_spellings))
            pos = 0
            for k, n in sizes:
                answer = wire.encode_answer(tags[pos : pos + n], self._fingerprint)
                pos += n
                out = [pb_utils.Tensor(name, array) for name, array in zip(wire.OUTPUTS, answer, strict=True)]
                responses[k] = pb_utils.InferenceResponse(output_tensors=out)
        return responses

    def finalize(self) -> None:
        self._runtime = None
