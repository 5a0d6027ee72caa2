"""Training the BiLSTM-CRF tagger: seeded, CPU-friendly, early stopping on dev strict F1."""

from __future__ import annotations

import datetime as dt
import json
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import torch

from deid_core.tagger.labels import bio_constraints, spans_to_tags, tag_names
from deid_core.tagger.model import BiLstmCrf, ModelConfig
from deid_core.tagger.runtime import (
    ARTIFACT_FORMAT,
    CONFIG_FILE,
    VOCAB_FILE,
    WEIGHTS_FILE,
    TaggerRuntime,
    make_windows,
    pad_batch,
)
from deid_core.tagger.tokenize import Token, tokenize
from deid_core.tagger.vocab import Vocab
from deid_tools.eval.model import GoldDoc
from schemas import Span

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TrainConfig:
    epochs: int = 30
    patience: int = 4
    batch_windows: int = 64
    learning_rate: float = 2e-3
    window_tokens: int = 200
    window_overlap: int = 25
    """Inference windows (written to tagger.json). 25 tokens of overlap rather than 50: the recurrence
    runs over 12 % fewer positions and every set moved by at most 0.4 points (see the model card)."""
    train_window_tokens: int = 120
    seed: int = 13
    threads: int | None = None
    lexicon: bool = True
    """Feed the shared lexicons' token classes to the model (``Vocab.lexicon``)."""
    model: dict[str, object] = field(default_factory=dict)
    init_from: str | None = None
    """A trained artifact to continue from: its vocabulary, model shape and weights (fine-tuning on new
    data); words the new data adds are unknown words to it, as at run time."""


@dataclass(frozen=True, slots=True)
class EpochReport:
    epoch: int
    loss: float
    dev_precision: float
    dev_recall: float
    dev_f1: float
    seconds: float


def strict_prf(gold: Sequence[Sequence[Span]], pred: Sequence[Sequence[Span]]) -> tuple[float, float, float]:
    tp = fp = fn = 0
    for g, p in zip(gold, pred, strict=True):
        gs = {(s.start, s.end, s.type) for s in g}
        ps = {(s.start, s.end, s.type) for s in p}
        tp += len(gs & ps)
        fp += len(ps - gs)
        fn += len(gs - ps)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def _training_windows(
    docs: Sequence[tuple[list[Token], list[int]]], size: int, overlap: int, names: Sequence[str]
) -> list[tuple[list[Token], list[int]]]:
    index = {n: i for i, n in enumerate(names)}
    out = []
    for tokens, tags in docs:
        for w in make_windows(len(tokens), 0, size, overlap):
            window_tags = tags[w.start : w.end]
            # A window can open inside a span; its first tag must be B- for the BIO-constrained CRF,
            # otherwise the gold path is impossible and the loss is meaningless.
            first = names[window_tags[0]] if window_tags else "O"
            if first.startswith("I-"):
                window_tags = [index["B-" + first[2:]], *window_tags[1:]]
            out.append((tokens[w.start : w.end], window_tags))
    return out


def train(
    train_docs: Sequence[GoldDoc],
    dev_docs: Sequence[GoldDoc],
    out_dir: Path,
    config: TrainConfig = TrainConfig(),
    *,
    progress: Callable[..., object] | None = None,
    version: str = "1",
) -> list[EpochReport]:
    """Train, keep the best epoch by dev strict F1, write weights + vocab + config into ``out_dir``."""
    random.seed(config.seed)
    torch.manual_seed(config.seed)
    if config.threads:
        torch.set_num_threads(config.threads)
    names = tag_names()
    index = {n: i for i, n in enumerate(names)}
    train_tokens = [tokenize(d.text) for d in train_docs]
    start = Path(config.init_from) if config.init_from else None
    vocab = Vocab.load(start / VOCAB_FILE) if start else Vocab.build(train_tokens, lexicon=config.lexicon)
    labelled = [(toks, spans_to_tags(toks, d.spans, index)) for toks, d in zip(train_tokens, train_docs, strict=True)]
    # Encode once; every epoch reuses the arrays.
    windows = [
        (vocab.encode(toks), torch.tensor(tags))
        for toks, tags in _training_windows(labelled, config.train_window_tokens, config.train_window_tokens // 4, names)
    ]
    if start:
        model_config = ModelConfig(**json.loads((start / CONFIG_FILE).read_text(encoding="utf-8"))["model"])
    else:
        model_config = ModelConfig(
            n_words=len(vocab.words), n_chars=len(vocab.chars), n_tags=len(names), n_styles=vocab.n_styles, **config.model  # type: ignore[arg-type]
        )
    allowed, allowed_start = bio_constraints(names)
    model = BiLstmCrf(model_config, allowed, allowed_start)
    if start:
        state = torch.load(start / WEIGHTS_FILE, map_location="cpu", weights_only=True)
        model.load_state_dict({k: v.float() if v.is_floating_point() else v for k, v in state.items()})
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    runtime = TaggerRuntime(
        model, vocab, names, version=version, window_tokens=config.window_tokens, window_overlap=config.window_overlap
    )
    reports: list[EpochReport] = []
    best_f1, best_state, stale = -1.0, None, 0
    out_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(config.seed)
    started_all = time.perf_counter()
    for epoch in range(1, config.epochs + 1):
        started = time.perf_counter()
        model.train()
        rng.shuffle(windows)
        # Batches of similar length: sort within shuffled buckets of 50 batches.
        bucket = config.batch_windows * 50
        ordered = []
        for b in range(0, len(windows), bucket):
            ordered += sorted(windows[b : b + bucket], key=lambda w: len(w[0]))
        batches = [ordered[i : i + config.batch_windows] for i in range(0, len(ordered), config.batch_windows)]
        rng.shuffle(batches)
        iterator = progress(batches, desc=f"epoch {epoch}", unit="batch", leave=False) if progress else batches
        total = 0.0
        for batch_items in iterator:  # type: ignore[attr-defined]
            batch = pad_batch([enc for enc, _ in batch_items])
            tags = torch.zeros_like(batch.words)
            for i, (_, t) in enumerate(batch_items):
                tags[i, : len(t)] = t
            optimizer.zero_grad()
            loss = model.loss(batch, tags)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            total += loss.item()
        model.eval()
        pred = runtime.tag([d.text for d in dev_docs])
        p, r, f1 = strict_prf([d.spans for d in dev_docs], pred)
        report = EpochReport(epoch, total / max(1, len(batches)), p, r, f1, time.perf_counter() - started)
        reports.append(report)
        log.info("epoch %d loss %.3f dev P %.3f R %.3f F1 %.3f", epoch, report.loss, p, r, f1)
        if progress is not None:
            print(
                f"epoch {epoch:2d}  loss {report.loss:8.3f}  dev strict P {p:.3f} R {r:.3f} F1 {f1:.3f}  ({report.seconds:.0f} s)",
                flush=True,
            )
        if f1 > best_f1:
            best_f1, stale = f1, 0
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        else:
            stale += 1
            if stale >= config.patience:
                break
    assert best_state is not None
    # float16 on disk halves the shipped size; the runtime upcasts on load.
    torch.save({k: (v.half() if v.is_floating_point() else v) for k, v in best_state.items()}, out_dir / WEIGHTS_FILE)
    vocab.save(out_dir / VOCAB_FILE)
    meta = {
        "format": ARTIFACT_FORMAT,
        "version": version,
        "architecture": "char+word BiLSTM-CRF (Dernoncourt et al. 2017)",
        "model": model_config.to_json(),
        "tags": names,
        "recall_bias": 0.0,  # the model as trained; a shipped operating point is chosen afterwards (tagger/recall.py)
        "window_tokens": config.window_tokens,
        "window_overlap": config.window_overlap,
        "trained_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "training_seconds": round(time.perf_counter() - started_all, 1),
        "best_dev_strict_f1": round(best_f1, 4),
        "epochs_run": len(reports),
        "seed": config.seed,
    }
    (out_dir / CONFIG_FILE).write_text(json.dumps(meta, indent=2), encoding="utf-8")
    return reports
