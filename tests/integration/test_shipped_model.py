"""The shipped tagger, with rules and header, on held-out notes (template families never trained on)."""

from __future__ import annotations

import json

import pytest

from deid_core.detect.registry import build_detectors
from deid_core.pipeline import DetectionPipeline
from deid_core.tagger import build_tagger, default_model_dir
from deid_tools.corpus import generate_notes
from deid_tools.eval import GoldDoc, evaluate
from schemas import EnrichedNote

pytestmark = pytest.mark.slow


def test_shipped_artifact_is_small_and_self_describing() -> None:
    directory = default_model_dir()
    assert (directory / "weights.pt").stat().st_size <= 30 * 1024 * 1024
    meta = json.loads((directory / "tagger.json").read_text())
    assert meta["architecture"].startswith("char+word BiLSTM-CRF")
    assert (directory / "MODEL_CARD.md").exists()


async def test_full_pipeline_hipaa_recall_on_held_out_notes() -> None:
    notes = list(generate_notes("test", 100, seed=0))
    pipeline = DetectionPipeline(build_detectors(["rules", "header"]), build_tagger())
    try:
        found = await pipeline.detect_batch([EnrichedNote(n.id, n.text, n.patient) for n in notes])
    finally:
        await pipeline.close()
    report = evaluate([GoldDoc(n.id, n.text, n.spans) for n in notes], {n.id: s for n, s in zip(notes, found, strict=True)})
    # The target for the whole pipeline on the held-out test split.
    assert report.metric("token", "HIPAA").recall >= 0.98
