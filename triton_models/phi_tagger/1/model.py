"""Triton python-backend entry point for the PHI tagger.

It runs deid_core.tagger.runtime.TaggerRuntime, the same code InProcessTagger runs, on the weights in
``artifact/`` beside this file. The python backend stub does not see a virtualenv by itself: set
``DEID_TRITON_SITE_PACKAGES`` (os.pathsep-separated) to the site-packages holding torch and deid-stream
(scripts/services.sh does this for tests); in a production image, install them into the image's Python.
"""

from __future__ import annotations

import json
import os
import site

import triton_python_backend_utils as pb_utils  # provided by the python backend

THREADS_ENV = "DEID_TAGGER_THREADS"


def _extend_path() -> None:
    for entry in os.environ.get("DEID_TRITON_SITE_PACKAGES", "").split(os.pathsep):
        if entry:
            site.addsitedir(entry)


def _threads_per_instance(model_config: str) -> int:
    """``$DEID_TAGGER_THREADS``, else the cores shared among this model's CPU instances (each instance is
    its own stub process; more threads than that per instance would only contend)."""
    from deid_core.tagger.threads import usable_cpus

    if os.environ.get(THREADS_ENV, "").strip():
        return max(1, int(os.environ[THREADS_ENV]))
    groups = json.loads(model_config or "{}").get("instance_group", [])
    instances = sum(int(g.get("count", 1)) for g in groups if g.get("kind", "KIND_CPU") == "KIND_CPU") or 1
    return max(1, usable_cpus() // instances)


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        _extend_path()
        from deid_core.tagger import wire
        from deid_core.tagger.runtime import TaggerRuntime
        from deid_core.tagger.threads import limit_threads

        self._wire = wire
        artifact = os.path.join(args["model_repository"], args["model_version"], "artifact")
        device = "cpu"
        if args.get("model_instance_kind") == "GPU":
            device = f"cuda:{args.get('model_instance_device_id', '0')}"
        else:
            # Before the weights load: NumPy's BLAS and (if asked for) torch size their pools from it.
            limit_threads(_threads_per_instance(args.get("model_config", "")))
        # On a CPU this is the NumPy engine, on a GPU torch: the same TaggerRuntime InProcessTagger runs.
        self._runtime = TaggerRuntime.load(artifact, device=device)

    def execute(self, requests: list[object]) -> list[object]:
        # One model call for every text of every request the dynamic batcher merged.
        texts: list[str] = []
        sizes: list[int] = []
        for request in requests:
            codes = pb_utils.get_input_tensor_by_name(request, "TEXT").as_numpy()
            lengths = pb_utils.get_input_tensor_by_name(request, "TEXT_LENGTH").as_numpy()
            batch = self._wire.decode_texts(codes, lengths)
            sizes.append(len(batch))
            texts.extend(batch)
        spans = self._runtime.tag(texts)
        responses = []
        pos = 0
        for n in sizes:
            out = pb_utils.Tensor("SPANS", self._wire.encode_spans(spans[pos : pos + n]))
            pos += n
            responses.append(pb_utils.InferenceResponse(output_tensors=[out]))
        return responses

    def finalize(self) -> None:
        self._runtime = None
