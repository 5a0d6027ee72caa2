"""A worker that talks to Triton loads neither torch nor the tooling (corpus, training, evaluation).

Checked in a fresh interpreter: importing the worker modules and building its processor from settings
with ``DEID_TRITON_URL`` set (the Triton client connects on first use, so nothing is contacted).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_PROBE = """
import json, sys
import workers.app, workers.cli, workers.processor
from workers.compose import build_processor
from workers.processor import InMemoryDemographics, TopicNames
from workers.settings import WorkerSettings
processor = build_processor(WorkerSettings(), InMemoryDemographics(), TopicNames())
tooling = ("deid_core.corpus", "deid_core.eval", "deid_core.tagger.train", "deid_core.tagger.job")
print(json.dumps({
    "tagger": type(processor.pipeline.detection.tagger).__name__,
    "torch": sorted(m for m in sys.modules if m == "torch" or m.startswith("torch.")),
    "tooling": sorted(m for m in sys.modules if m.startswith(tooling)),
}))
"""


def test_triton_worker_imports_no_torch_and_no_tooling() -> None:
    env = {**os.environ, "DEID_TRITON_URL": "127.0.0.1:1"}
    out = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["tagger"] == "TritonTagger"
    assert found["torch"] == []
    assert found["tooling"] == []
