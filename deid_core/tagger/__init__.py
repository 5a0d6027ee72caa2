"""The neural PHI tagger: model code and the Tagger seam (in-process or Triton); training is in deid_tools.train."""

from __future__ import annotations

import os
from pathlib import Path

from deid_core.tagger.base import Tagger, TaggerUnavailable

__all__ = ["Tagger", "TaggerUnavailable", "default_model_dir", "build_tagger"]

MODEL_DIR_ENV = "DEID_TAGGER_MODEL_DIR"


def default_model_dir() -> Path:
    """The shipped weights: ``$DEID_TAGGER_MODEL_DIR`` or the repository's Triton model directory."""
    env = os.environ.get(MODEL_DIR_ENV)
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "triton_models" / "phi_tagger" / "1" / "artifact"


def build_tagger(triton_url: str | None = None, model_dir: str | Path | None = None) -> Tagger:
    """A TritonTagger when a Triton gRPC URL is given (no torch import), else the in-process model (NumPy on
    a CPU, see deid_core.tagger.runtime)."""
    if triton_url:
        from deid_core.tagger.triton import TritonTagger

        return TritonTagger(triton_url)
    from deid_core.tagger.inprocess import InProcessTagger

    directory = Path(model_dir) if model_dir else default_model_dir()
    if not (directory / "weights.pt").exists():
        raise FileNotFoundError(f"no tagger weights in {directory}; train with 'deid train' or set {MODEL_DIR_ENV}")
    return InProcessTagger.from_directory(directory)
