"""Loading a trained tagger and tagging batches of texts: the code both InProcessTagger and the Triton
python backend run, so the two give identical spans."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from deid_core.tagger.labels import bio_constraints, tags_to_spans
from deid_core.tagger.model import Batch, BiLstmCrf, ModelConfig
from deid_core.tagger.tokenize import Token, tokenize
from deid_core.tagger.vocab import EncodedTokens, Vocab
from schemas import Span

CONFIG_FILE = "tagger.json"
VOCAB_FILE = "vocab.json"
WEIGHTS_FILE = "weights.pt"
SOURCE = "tagger"
ARTIFACT_FORMAT = 2
"""Bumped whenever the module layout changes, so old weights fail with a clear message."""
SPAN_SCORE = 0.9


@dataclass(frozen=True, slots=True)
class Window:
    text_index: int
    start: int  # token offsets into that text's token list
    end: int
    keep_from: int  # tokens [keep_from, keep_to) of this window are the ones whose tags are used
    keep_to: int


def make_windows(n_tokens: int, text_index: int, size: int, overlap: int) -> list[Window]:
    """Overlapping windows; each token's tag comes from the window where it sits farthest from an edge."""
    if n_tokens <= size:
        return [Window(text_index, 0, n_tokens, 0, n_tokens)] if n_tokens else []
    stride = size - overlap
    starts = list(range(0, n_tokens - size, stride)) + [n_tokens - size]
    windows = []
    for k, s in enumerate(starts):
        e = s + size
        keep_from = s if k == 0 else (windows[-1].keep_to)
        keep_to = n_tokens if k == len(starts) - 1 else min(e, (e + starts[k + 1]) // 2)
        keep_to = max(keep_to, keep_from)
        # Midpoint between this window's end and the next window's start balances context on both sides.
        windows.append(Window(text_index, s, e, keep_from, keep_to))
    return windows


def pad_batch(items: Sequence[EncodedTokens]) -> Batch:
    b = len(items)
    t = max(1, max(len(e) for e in items))
    c = max(1, max((int(e.char_lengths.max()) for e in items if len(e)), default=1))
    words = np.zeros((b, t), dtype=np.int64)
    chars = np.zeros((b, t, c), dtype=np.int64)
    casing = np.zeros((b, t), dtype=np.int64)
    spaces = np.zeros((b, t), dtype=np.int64)
    mask = np.zeros((b, t), dtype=np.bool_)
    for i, e in enumerate(items):
        n = len(e)
        words[i, :n] = e.words
        chars[i, :n] = e.chars[:, :c]
        casing[i, :n] = e.casing
        spaces[i, :n] = e.spaces
        mask[i, :n] = True
    mask[:, 0] = True  # the CRF needs a first position even for an empty window; it is never read back
    return Batch(*(torch.from_numpy(a) for a in (words, chars, casing, spaces, mask)))


class TaggerRuntime:
    def __init__(
        self, model: BiLstmCrf, vocab: Vocab, tag_names: list[str], *, version: str = "dev",
        window_tokens: int = 200, window_overlap: int = 50, max_batch_windows: int = 64,
        device: torch.device | None = None,
    ) -> None:
        self.device = device or torch.device("cpu")
        self.model = model.to(self.device).eval()
        self.vocab = vocab
        self.tag_names = tag_names
        self.version = version
        self.window_tokens = window_tokens
        self.window_overlap = window_overlap
        self.max_batch_windows = max_batch_windows

    @classmethod
    def load(cls, directory: str | Path, device: str | torch.device | None = None) -> TaggerRuntime:
        directory = Path(directory)
        meta = json.loads((directory / CONFIG_FILE).read_text())
        if meta.get("format") != ARTIFACT_FORMAT:
            raise ValueError(
                f"tagger artifact in {directory} has format {meta.get('format')}, this code reads format "
                f"{ARTIFACT_FORMAT}; retrain with 'deid train'"
            )
        config = ModelConfig(**meta["model"])
        names = list(meta["tags"])
        allowed, allowed_start = bio_constraints(names)
        model = BiLstmCrf(config, allowed, allowed_start)
        state = torch.load(directory / WEIGHTS_FILE, map_location="cpu", weights_only=True)
        model.load_state_dict({k: v.float() for k, v in state.items()})
        if device is None:
            device = "cuda" if torch.cuda.is_available() else "cpu"
        return cls(
            model, Vocab.load(directory / VOCAB_FILE), names, version=str(meta.get("version", "dev")),
            window_tokens=int(meta.get("window_tokens", 200)), window_overlap=int(meta.get("window_overlap", 50)),
            device=torch.device(device),
        )

    def tag_tokens(self, token_lists: Sequence[Sequence[Token]]) -> list[list[int]]:
        windows = [
            w for i, toks in enumerate(token_lists) for w in make_windows(len(toks), i, self.window_tokens, self.window_overlap)
        ]
        out: list[list[int]] = [[0] * len(toks) for toks in token_lists]
        # Encode each text once; windows are slices of it.
        encoded = [self.vocab.encode(toks) for toks in token_lists]
        # Longest first so each batch holds windows of similar length (less padding).
        windows.sort(key=lambda w: w.end - w.start, reverse=True)
        for b in range(0, len(windows), self.max_batch_windows):
            chunk = windows[b : b + self.max_batch_windows]
            batch = pad_batch([encoded[w.text_index].window(w.start, w.end) for w in chunk])
            paths = self.model.predict(batch.to(self.device))
            for w, path in zip(chunk, paths, strict=True):
                dest = out[w.text_index]
                for pos in range(w.keep_from, w.keep_to):
                    dest[pos] = path[pos - w.start]
        return out

    def tag(self, texts: Sequence[str]) -> list[list[Span]]:
        token_lists = [tokenize(t) for t in texts]
        with torch.inference_mode():
            tag_lists = self.tag_tokens(token_lists)
        return [
            tags_to_spans(toks, tags, self.tag_names, SPAN_SCORE, SOURCE)
            for toks, tags in zip(token_lists, tag_lists, strict=True)
        ]
