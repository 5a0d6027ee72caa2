"""The reproducible training job behind ``deid train``: data, training, evaluation, model card.

Everything is seeded: the corpus (``deid_tools.corpus``), the model initialisation and the batch order,
so the same command on the same machine reproduces the shipped weights' metrics.
"""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

from deid_core.tagger.recall import category_biases_of, recall_bias_of
from deid_core.tagger.runtime import TaggerRuntime
from deid_tools.eval.model import GoldDoc
from deid_tools.train.train import EpochReport, TrainConfig, train
from schemas import EnrichedNote, PatientHeader, Span

CARD_FILE = "MODEL_CARD.md"
METRICS_FILE = "metrics.json"
HANDWRITTEN_GOLD = Path(__file__).resolve().parents[3] / "eval" / "handwritten" / "gold.jsonl"


@dataclass(frozen=True, slots=True)
class JobConfig:
    train_n: int = 3000
    dev_n: int = 300
    test_n: int = 400
    corpus_seed: int = 0
    train: TrainConfig = TrainConfig()
    train_gold: str | None = None
    """Gold files (JSONL or i2b2 2006/2014 XML, see deid_tools.eval.load_gold) used instead of the synthetic corpus."""
    dev_gold: str | None = None
    test_gold: str | None = None
    augment_gold: tuple[str, ...] = ()
    """Hand-written development gold files whose surrogate copies join the training notes
    (``deid_tools.train.augment``); never the blind hand-written set."""
    augment_copies: int = 8
    augment_seed: int = 0
    hard_names: float = 0.0
    """Share of the copies' given names drawn from names that are also words or very short
    (``deid_tools.train.augment.hard_first_names``)."""
    lower_share: float = 0.0
    """Share of the copies lower-cased whole."""
    handwritten_gold: str | None = None
    """Notes nobody trained or tuned on, reported beside the synthetic test split (default: the repo's
    eval/handwritten set when it is there)."""


@dataclass(frozen=True, slots=True)
class LabelledNote:
    doc: GoldDoc
    patient: PatientHeader | None


def corpus_split(split: str, n: int, seed: int) -> list[LabelledNote]:
    from deid_tools.corpus import generate_notes

    return [
        LabelledNote(GoldDoc(g.id, g.text, g.spans), g.patient) for g in generate_notes(split, n, seed=seed)  # type: ignore[arg-type]
    ]


def gold_split(path: str) -> list[LabelledNote]:
    """Notes from a user's own gold files, e.g. a licensed i2b2 copy (no patient headers)."""
    from deid_tools.eval import load_gold

    return [LabelledNote(d, None) for d in load_gold(path)]


def _split(split: str, n: int, seed: int, path: str | None) -> list[LabelledNote]:
    return gold_split(path) if path else corpus_split(split, n, seed)


def _rows(report: object, rows: Sequence[str]) -> dict[str, dict[str, dict[str, float]]]:
    out: dict[str, dict[str, dict[str, float]]] = {}
    for level in ("token", "strict"):
        out[level] = {}
        for row in rows:
            try:
                m = report.metric(level, row)  # type: ignore[attr-defined]
            except (KeyError, ValueError):
                continue
            out[level][row] = {"precision": round(m.precision, 4), "recall": round(m.recall, 4), "f1": round(m.f1, 4)}
    return out


def evaluate_split(runtime: TaggerRuntime, notes: Sequence[LabelledNote]) -> dict[str, object]:
    """Tagger alone, and the full pipeline as the service runs it (local detectors + tagger, hygiene,
    merge), on one split."""
    from deid_core.detect.registry import LOCAL_DETECTORS, build_detectors
    from deid_core.pipeline import DetectionPipeline
    from deid_tools.eval import evaluate
    from schemas import PhiCategory

    gold = [n.doc for n in notes]
    started = time.perf_counter()
    tagged = runtime.tag([n.doc.text for n in notes])
    tag_seconds = time.perf_counter() - started
    pipeline = DetectionPipeline(build_detectors(LOCAL_DETECTORS))
    full: dict[str, list[Span]] = {}
    for note, spans in zip(notes, tagged, strict=True):
        enriched = EnrichedNote(note.doc.id, note.doc.text, note.patient)
        full[note.doc.id] = pipeline.combine(enriched, pipeline.detect_local(enriched), spans)
    rows = ["ALL", "HIPAA", *[c.value for c in PhiCategory]]
    chars = sum(len(n.doc.text) for n in notes)
    return {
        "notes": len(notes),
        "chars": chars,
        "tagger_chars_per_s": round(chars / max(tag_seconds, 1e-9)),
        "tagger": _rows(evaluate(gold, {n.doc.id: s for n, s in zip(notes, tagged, strict=True)}), rows),
        "pipeline": _rows(evaluate(gold, full), rows),
    }


def _table(metrics: dict[str, dict[str, dict[str, float]]]) -> list[str]:
    lines = ["| row | token P | token R | token F1 | strict P | strict R | strict F1 |", "|---|---|---|---|---|---|---|"]
    for row, tok in metrics["token"].items():
        st = metrics["strict"].get(row, {})
        lines.append(
            f"| {row} | {tok['precision']:.3f} | {tok['recall']:.3f} | {tok['f1']:.3f} | "
            f"{st.get('precision', float('nan')):.3f} | {st.get('recall', float('nan')):.3f} | {st.get('f1', float('nan')):.3f} |"
        )
    return lines


def augmented_notes(config: JobConfig) -> list[LabelledNote]:
    """Surrogate copies of ``config.augment_gold``'s notes; refuses the blind hand-written set."""
    from deid_tools.train.augment import surrogate_copies

    blind = HANDWRITTEN_GOLD.resolve().parent
    docs = []
    for path in config.augment_gold:
        resolved = Path(path).resolve()
        if blind in (resolved, resolved.parent):
            raise ValueError("the blind hand-written set is for evaluation only, never for training")
        docs += [n.doc for n in gold_split(path)]
    copies = surrogate_copies(docs, config.augment_copies, config.augment_seed, config.hard_names, config.lower_share)
    return [LabelledNote(d, None) for d in copies]


def _augment_line(config: JobConfig) -> str:
    if not config.augment_gold:
        return ""
    shapes = ""
    if config.hard_names or config.lower_share:
        shapes = (
            f" A share of {config.hard_names:g} of their given names come from names that are also words or very "
            f"short, and a share of {config.lower_share:g} of the copies are lower-cased whole."
        )
    return (
        f" Plus {config.augment_copies} surrogate copies (seed {config.augment_seed}) of each hand-written "
        f"development note in {', '.join(config.augment_gold)}: the notes' context with other PHI values "
        f"(`deid_tools.train.augment`).{shapes} The blind hand-written set is never trained on."
    )


def _augment_args(config: JobConfig) -> str:
    if not config.augment_gold:
        return ""
    args = "".join(f" --augment-gold {p}" for p in config.augment_gold) + f" --augment-copies {config.augment_copies}"
    if config.hard_names:
        args += f" --hard-names {config.hard_names:g}"
    if config.lower_share:
        args += f" --lower-share {config.lower_share:g}"
    return args


def _start_args(train: TrainConfig) -> str:
    # TrainConfig has slots: its class attribute is a descriptor, so the default comes from an instance.
    args = f" --learning-rate {train.learning_rate:g}" if train.learning_rate != TrainConfig().learning_rate else ""
    return args + (f" --init-from {train.init_from}" if train.init_from else "")


def _data_line(config: JobConfig) -> str:
    return _base_data_line(config) + _augment_line(config)


def _base_data_line(config: JobConfig) -> str:
    if config.train_gold or config.dev_gold or config.test_gold:
        return (
            f"- Data: train {config.train_gold or 'synthetic'}, dev {config.dev_gold or 'synthetic'}, "
            f"test {config.test_gold or 'synthetic'} (user-supplied gold where a path is given)."
        )
    return (
        f"- Data: synthetic notes from `deid_tools.corpus` (no real patient data): train {config.train_n}, dev {config.dev_n}, "
        f"test {config.test_n} notes, corpus seed {config.corpus_seed}. Train/dev/test come from disjoint template "
        "families, so dev/test measure generalisation beyond the training phrasings."
    )


def _decode_line(meta: dict[str, object]) -> str:
    bias = recall_bias_of(meta)
    extras = {c.value: v for c, v in category_biases_of(meta).items() if v}
    if not bias and not extras:
        return "- Decoding: the model as trained (recall bias 0; `deid_core/tagger/recall.py`)."
    more = "".join(f", and {category}'s tags by {value:g} more," for category, value in sorted(extras.items()))
    return (
        f"- Decoding: recall bias {bias:g} (tagger.json `recall_bias`, `category_recall_bias`): every entity tag's "
        f"score is raised by {bias:g}{more} before the CRF decodes, an operating point chosen on held-out "
        "development sets with `scripts/recall_bias_sweep.py`; the training curve below is at bias 0, the "
        "evaluations at this bias."
    )


def write_model_card(out_dir: Path, meta: dict[str, object], config: JobConfig, reports: Sequence[EpochReport], evals: dict[str, dict[str, object]]) -> None:
    weights = out_dir / "weights.pt"
    threads = config.train.threads or torch.get_num_threads()
    lines = [
        "# PHI tagger model card",
        "",
        f"- Architecture: {meta['architecture']}; {sum(1 for _ in meta['tags'])} BIO tags over the i2b2 2014 subtypes."  # type: ignore[attr-defined]
        ,
        f"- Trained: {meta['trained_at']} on {platform.machine()} CPU, torch {torch.__version__}, "
        f"{threads} threads; training time {meta['training_seconds']} s over {meta['epochs_run']} epochs "
        "(early stopping on dev strict F1).",
        f"- Weights: {weights.stat().st_size / 1e6:.1f} MB (float16 on disk).",
        _decode_line(meta),
        _data_line(config),
        f"- Reproduce: `deid train --train-n {config.train_n} --dev-n {config.dev_n} --test-n {config.test_n} "
        f"--corpus-seed {config.corpus_seed} --seed {config.train.seed} --epochs {config.train.epochs}"
        f"{_augment_args(config)}{_start_args(config.train)} --threads {threads}`.",
        "",
        "## Training curve",
        "",
        "| epoch | loss | dev strict P | dev strict R | dev strict F1 | seconds |",
        "|---|---|---|---|---|---|",
        *[
            f"| {r.epoch} | {r.loss:.3f} | {r.dev_precision:.3f} | {r.dev_recall:.3f} | {r.dev_f1:.3f} | {r.seconds:.0f} |"
            for r in reports
        ],
    ]
    for split, ev in evals.items():
        lines += [
            "",
            f"## {split} {'set, never trained or tuned on' if split == 'hand-written' else 'split'} "
            f"({ev['notes']} notes, {ev['chars']} chars; tagger alone {ev['tagger_chars_per_s']:,} chars/s on CPU)",
            "",
            "### Tagger alone",
            "",
            *_table(ev["tagger"]),  # type: ignore[arg-type]
            "",
            "### Full pipeline (rules + header + lexicon + tagger, hygiene, merged)",
            "",
            *_table(ev["pipeline"]),  # type: ignore[arg-type]
        ]
    lines += [
        "",
        "HIPAA rows: binary PHI vs not, over the HIPAA Safe Harbor subtypes (see `tools/deid_tools/eval/scoring.py`).",
        "",
    ]
    (out_dir / CARD_FILE).write_text("\n".join(lines), encoding="utf-8")


def run_training_job(out_dir: Path, config: JobConfig, progress: Callable[..., object] | None = None) -> dict[str, object]:
    train_notes = _split("train", config.train_n, config.corpus_seed, config.train_gold) + augmented_notes(config)
    dev_notes = _split("dev", config.dev_n, config.corpus_seed, config.dev_gold)
    test_notes = _split("test", config.test_n, config.corpus_seed, config.test_gold)
    reports = train([n.doc for n in train_notes], [n.doc for n in dev_notes], out_dir, config.train, progress=progress)
    evals = _evaluate_and_write_card(out_dir, config, reports, dev_notes, test_notes)
    metrics = {"job": {**asdict(config), "train": asdict(config.train)}, "epochs": [asdict(r) for r in reports], "eval": evals}
    (out_dir / METRICS_FILE).write_text(json.dumps(metrics, indent=2), encoding="utf-8")
    return metrics


def _evaluate_and_write_card(
    out_dir: Path, config: JobConfig, reports: Sequence[EpochReport], dev_notes: Sequence[LabelledNote], test_notes: Sequence[LabelledNote]
) -> dict[str, dict[str, object]]:
    """The artifact in ``out_dir`` measured on the dev and test notes and the hand-written set; its model
    card written from them. One place for a trained and a refreshed artifact alike."""
    runtime = TaggerRuntime.load(out_dir, device="cpu")
    evals = {"dev": evaluate_split(runtime, dev_notes), "test": evaluate_split(runtime, test_notes)}
    handwritten = config.handwritten_gold or (str(HANDWRITTEN_GOLD) if HANDWRITTEN_GOLD.exists() else None)
    if handwritten:
        evals["hand-written"] = evaluate_split(runtime, gold_split(handwritten))
    meta = json.loads((out_dir / "tagger.json").read_text(encoding="utf-8"))
    write_model_card(out_dir, meta, config, reports, evals)
    return evals


def refresh_evaluation(out_dir: Path) -> dict[str, object]:
    """Re-evaluate a trained artifact with this checkout's detectors and rewrite its model card and metrics.

    The training record (job settings, epochs) is kept from ``metrics.json``; only the evaluations are
    measured again, on the same splits as the job that trained it. The full-pipeline rows depend on the
    rules, lexicons and hygiene as well as the weights, so they go stale when those change.
    """
    metrics = json.loads((out_dir / METRICS_FILE).read_text(encoding="utf-8"))
    job = dict(metrics["job"])
    config = JobConfig(**{**job, "augment_gold": tuple(job.get("augment_gold", ())), "train": TrainConfig(**job["train"])})
    reports = [EpochReport(**r) for r in metrics["epochs"]]
    dev_notes = _split("dev", config.dev_n, config.corpus_seed, config.dev_gold)
    test_notes = _split("test", config.test_n, config.corpus_seed, config.test_gold)
    metrics["eval"] = _evaluate_and_write_card(out_dir, config, reports, dev_notes, test_notes)
    (out_dir / METRICS_FILE).write_text(json.dumps(metrics, indent=2), encoding="utf-8")
    return metrics
