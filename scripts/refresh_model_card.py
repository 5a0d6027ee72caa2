"""Re-measure the shipped tagger's model card with this checkout's detectors (no training).

    .venv/bin/python scripts/refresh_model_card.py [ARTIFACT_DIR]

ARTIFACT_DIR defaults to the shipped model (triton_models/phi_tagger/1/artifact). The card's
full-pipeline rows depend on the rules, lexicons and hygiene as well as on the weights: run this after
changing them, and commit the card and metrics.json with the change.
"""

from __future__ import annotations

import sys
from pathlib import Path

from deid_core.tagger import default_model_dir
from deid_tools.train.job import refresh_evaluation


def main(argv: list[str]) -> int:
    out_dir = Path(argv[0]) if argv else default_model_dir()
    metrics = refresh_evaluation(out_dir)
    for split, ev in metrics["eval"].items():  # type: ignore[union-attr]
        token = ev["pipeline"]["token"]["ALL"]
        print(f"{split}: full pipeline token P {token['precision']:.3f} R {token['recall']:.3f}")
    print(f"wrote {out_dir / 'MODEL_CARD.md'} and metrics.json")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
