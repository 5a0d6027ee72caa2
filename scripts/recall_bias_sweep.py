"""Token precision and recall of the full pipeline at several tagger recall biases, to choose the
shipped operating point (``recall_bias`` and ``category_recall_bias`` in tagger.json; see
``deid_core/tagger/recall.py``).

    .venv/bin/python scripts/recall_bias_sweep.py GOLD.jsonl [GOLD.jsonl ...] --bias 0 0.5 1 1.5 2
    .venv/bin/python scripts/recall_bias_sweep.py GOLD.jsonl ... --bias 1.5 --name-bias 0 0.5 1 1.5

``--name-bias``: extra bias on the name tags on top of each ``--bias`` (every pair is run).

Gold files are pooled into one evaluation. Pass held-out development sets only (sets the shipped
weights never trained on): never the blind set, whose figures are reported, not tuned on. The weights
and vocabulary are linked, not copied; each bias runs ``deid eval`` on a temporary artifact.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from deid_core.tagger import default_model_dir
from deid_core.tagger.recall import CATEGORY_KEY, META_KEY
from deid_core.tagger.runtime import CONFIG_FILE, VOCAB_FILE, WEIGHTS_FILE


def _artifact(source: Path, bias: float, name_bias: float, into: Path) -> Path:
    into.mkdir()
    for name in (WEIGHTS_FILE, VOCAB_FILE):
        (into / name).symlink_to((source / name).resolve())
    meta = json.loads((source / CONFIG_FILE).read_text(encoding="utf-8"))
    meta[META_KEY] = bias
    meta[CATEGORY_KEY] = {"NAME": name_bias} if name_bias else {}
    (into / CONFIG_FILE).write_text(json.dumps(meta), encoding="utf-8")
    return into


def _evaluate(gold: Path, artifact: Path) -> dict[str, dict]:
    command = [sys.executable, "-m", "workers.cli", "eval", "--gold", str(gold), "--tagger-model-dir", str(artifact)]
    out = subprocess.run([*command, "--json", "--no-progress"], check=True, capture_output=True, text=True).stdout
    return {row["row"]: row for row in json.loads(out)["rows"]}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gold", nargs="+", type=Path, help="held-out development gold files (pooled)")
    parser.add_argument("--bias", nargs="+", type=float, default=[0.0, 0.5, 1.0, 1.5, 2.0])
    parser.add_argument("--name-bias", nargs="+", type=float, default=[0.0], help="extra bias on name tags (default: %(default)s)")
    parser.add_argument("--artifact", type=Path, default=None, help="tagger artifact (default: the shipped one)")
    args = parser.parse_args(argv)
    source = args.artifact or default_model_dir()
    with tempfile.TemporaryDirectory() as tmp:
        pooled = Path(tmp) / "pooled.jsonl"
        pooled.write_text("".join(g.read_text(encoding="utf-8") for g in args.gold), encoding="utf-8")
        print("bias  name+  token P  token R  HIPAA P  HIPAA R  NAME R (relaxed)")
        pairs = [(bias, extra) for bias in args.bias for extra in args.name_bias]
        for i, (bias, extra) in enumerate(pairs):
            rows = _evaluate(pooled, _artifact(source, bias, extra, Path(tmp) / f"b{i}"))
            a, h, n = rows["ALL"]["token"], rows["HIPAA"]["token"], rows["NAME"]["relaxed"]
            print(
                f"{bias:4.2f}  {extra:4.2f}   {a['precision']:.4f}   {a['recall']:.4f}   {h['precision']:.4f}   "
                f"{h['recall']:.4f}   {n['recall']:.4f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
