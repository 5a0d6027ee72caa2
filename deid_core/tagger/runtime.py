"""Loading a trained tagger and tagging batches of texts: the code both InProcessTagger and the Triton
python backend run, so the two give identical spans.

On a CPU the model runs in NumPy (``engine.NumpyBiLstmCrf``): importing torch alone takes longer than
tagging a typical batch, and the NumPy engine is lighter per call too. torch is imported only for a GPU,
for training, or when asked for (``engine="torch"`` or ``DEID_TAGGER_ENGINE=torch``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from deid_core.tagger.encode import EncodedBatch, encode_texts
from deid_core.tagger.engine import NumpyBiLstmCrf
from deid_core.tagger.labels import bio_constraint_masks, tag_array_to_spans
from deid_core.tagger.recall import OUT_BIAS, biased_output, category_biases_of, recall_bias_of
from deid_core.tagger.vocab import EncodedTokens, Vocab
from deid_core.tagger.weights import load_state_dict
from schemas import Span

if TYPE_CHECKING:
    import torch

    from deid_core.tagger.model import Batch, BiLstmCrf

CONFIG_FILE = "tagger.json"
VOCAB_FILE = "vocab.json"
WEIGHTS_FILE = "weights.pt"
SOURCE = "tagger"
ARTIFACT_FORMAT = 2
"""Bumped whenever the module layout changes, so old weights fail with a clear message."""
SPAN_SCORE = 0.9
ENGINE_ENV = "DEID_TAGGER_ENGINE"


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
    import torch

    from deid_core.tagger.model import Batch

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


@dataclass(frozen=True, slots=True)
class WindowBatch:
    """Windows of one model call, longest first: each position's spelling index and spacing class."""

    distinct: np.ndarray  # (N, T) index into the EncodedBatch's per-spelling arrays; padding repeats a real one
    spaces: np.ndarray  # (N, T)
    lengths: np.ndarray  # (N,) descending, >= 1


class TagEngine(Protocol):
    """What runs the model: ``prepare`` once per ``tag`` call, ``predict`` once per window batch."""

    device: object

    def prepare(self, batch: EncodedBatch) -> object: ...

    def predict(self, batch: EncodedBatch, prepared: object, windows: WindowBatch) -> np.ndarray:
        """Tag ids (N, T); positions past a window's length are ignored."""
        ...


class NumpyEngine:
    """The CPU engine: ``engine.NumpyBiLstmCrf``, no torch."""

    device: str = "cpu"

    def __init__(self, model: NumpyBiLstmCrf) -> None:
        self.model = model

    def prepare(self, batch: EncodedBatch) -> object:
        return self.model.char_representations(batch)

    def predict(self, batch: EncodedBatch, prepared: object, windows: WindowBatch) -> np.ndarray:
        assert isinstance(prepared, np.ndarray)
        emissions = self.model.emissions(batch, prepared, windows.distinct, windows.spaces, windows.lengths)
        return self.model.viterbi.decode(emissions, windows.lengths)


class TorchEngine:
    """The torch model itself: for GPUs, for training-time evaluation, and as the reference the NumPy
    engine is checked against. Inputs are exactly what ``pad_batch`` builds from ``Vocab.encode``."""

    def __init__(self, model: BiLstmCrf, device: str | torch.device | None = None) -> None:
        import torch

        self.device = torch.device(device) if device is not None else torch.device("cpu")
        self.model = model.to(self.device).eval()

    def prepare(self, batch: EncodedBatch) -> object:
        return None

    def predict(self, batch: EncodedBatch, prepared: object, windows: WindowBatch) -> np.ndarray:
        import torch

        from deid_core.tagger.model import Batch

        n, t = windows.distinct.shape
        mask = np.arange(t)[None, :] < windows.lengths[:, None]
        mask[:, 0] = True
        c = max(1, int(batch.char_lengths[windows.distinct[mask]].max(initial=1)))
        arrays = (
            np.where(mask, batch.words[windows.distinct], 0),
            np.where(mask[:, :, None], batch.chars[windows.distinct][:, :, :c], 0),
            np.where(mask, batch.casing[windows.distinct], 0),
            np.where(mask, windows.spaces, 0),
            mask,
        )
        with torch.inference_mode():
            paths = self.model.predict(Batch(*(torch.from_numpy(np.ascontiguousarray(a)) for a in arrays)).to(self.device))
        out = np.zeros((n, t), dtype=np.int64)
        for i, path in enumerate(paths):
            out[i, : len(path)] = path
        return out


def read_meta(directory: Path) -> dict[str, Any]:
    """``tagger.json`` of an artifact, refused unless this code reads its format."""
    meta: dict[str, Any] = json.loads((directory / CONFIG_FILE).read_text(encoding="utf-8"))
    if meta.get("format") != ARTIFACT_FORMAT:
        raise ValueError(
            f"tagger artifact in {directory} has format {meta.get('format')}, this code reads format "
            f"{ARTIFACT_FORMAT}; retrain with 'deid train'"
        )
    return meta


def _cuda_driver_present() -> bool:
    # Cheap and torch-free: only a host with the NVIDIA driver loaded can have CUDA, and only there is
    # it worth importing torch (about 2 s) to ask.
    return os.path.exists("/proc/driver/nvidia/version")


class TaggerRuntime:
    def __init__(
        self, model: NumpyBiLstmCrf | BiLstmCrf, vocab: Vocab, tag_names: list[str], *, version: str = "dev",
        window_tokens: int = 200, window_overlap: int = 25, max_batch_windows: int | None = None,
        device: str | torch.device | None = None,
    ) -> None:
        """``model`` is a ``NumpyBiLstmCrf`` or a torch ``BiLstmCrf`` (run on ``device``).

        ``max_batch_windows``: windows per model call; by default 64 for torch (as trained and measured)
        and 256 for NumPy, whose per-step cost is mostly fixed overhead at 64 rows and whose memory stays
        near 60 MB at 256 (no (T, N, input) array is built).
        """
        self.engine: TagEngine = NumpyEngine(model) if isinstance(model, NumpyBiLstmCrf) else TorchEngine(model, device)
        if max_batch_windows is None:
            max_batch_windows = 256 if isinstance(self.engine, NumpyEngine) else 64
        self.device = self.engine.device
        self.vocab = vocab
        self.tag_names = tag_names
        self.version = version
        self.window_tokens = window_tokens
        self.window_overlap = window_overlap
        self.max_batch_windows = max_batch_windows

    @property
    def fork_safe(self) -> bool:
        return isinstance(self.engine, NumpyEngine)

    @property
    def input_sizes(self) -> tuple[int, int, int]:
        """Rows of the model's word, style and character tables: the bounds of the ids it can read."""
        m = self.engine.model  # type: ignore[attr-defined]
        if isinstance(m, NumpyBiLstmCrf):
            return m.n_words, m.n_styles, m.n_chars
        return m.word_emb.num_embeddings, m.config.n_styles, m.char_emb.num_embeddings

    @property
    def wants_distinct_spellings(self) -> bool:
        """Whether ``tag_encoded`` gains from a spelling table without repeats: the NumPy engine runs its
        character LSTM once per table row, the torch model finds repeats itself on its device."""
        return isinstance(self.engine, NumpyEngine)

    @classmethod
    def load(
        cls, directory: str | Path, device: str | torch.device | None = None, engine: str | None = None,
        recall_bias: float | None = None, category_bias: Mapping[str, float] | None = None,
    ) -> TaggerRuntime:
        """The artifact in ``directory``.

        ``engine``: "numpy" (CPU, no torch import), "torch", or None for ``$DEID_TAGGER_ENGINE`` else
        automatic: torch when a non-CPU ``device`` is asked for or, with no device given, when CUDA is
        available; NumPy otherwise. ``recall_bias``: decode with this bias instead of the artifact's
        (``deid_core.tagger.recall``; for sweeps that choose the operating point); ``category_bias``: the
        same for the extra bias per category (``{"NAME": 1.0}``).
        """
        directory = Path(directory)
        meta = read_meta(directory)
        names = list(meta["tags"])
        bias = recall_bias_of(meta if recall_bias is None else {"recall_bias": recall_bias})
        extra = category_biases_of(meta if category_bias is None else {"category_recall_bias": category_bias})
        engine = engine or os.environ.get(ENGINE_ENV) or None
        if engine not in (None, "numpy", "torch"):
            raise ValueError(f"unknown tagger engine {engine!r}; use 'numpy' or 'torch'")
        if engine is None:
            wants_gpu = device is not None and str(device) != "cpu"
            engine = "torch" if wants_gpu or (device is None and _cuda_driver_present() and _torch_cuda()) else "numpy"
        options: dict[str, Any] = {
            "version": str(meta.get("version", "dev")),
            "window_tokens": int(meta.get("window_tokens", 200)),
            "window_overlap": int(meta.get("window_overlap", 25)),
        }
        vocab = Vocab.load(directory / VOCAB_FILE)
        if engine == "numpy":
            if device is not None and str(device) != "cpu":
                raise ValueError(f"the numpy tagger engine runs on the CPU only, not {device}")
            allowed, _ = bio_constraint_masks(names)  # the start constraint is in the saved crf.start_penalty
            state = load_state_dict(directory / WEIGHTS_FILE)
            state[OUT_BIAS] = biased_output(state[OUT_BIAS], names, bias, extra)
            model = NumpyBiLstmCrf(state, allowed)
            return cls(model, vocab, names, **options)
        import torch

        from deid_core.tagger.labels import bio_constraints
        from deid_core.tagger.model import BiLstmCrf, ModelConfig

        torch_model = BiLstmCrf(ModelConfig(**meta["model"]), *bio_constraints(names))
        state = torch.load(directory / WEIGHTS_FILE, map_location="cpu", weights_only=True)
        state = {k: v.float() for k, v in state.items()}
        state[OUT_BIAS] = torch.from_numpy(biased_output(state[OUT_BIAS].numpy(), names, bias, extra))
        torch_model.load_state_dict(state)
        if device is None:
            device = "cuda" if torch.cuda.is_available() else "cpu"
        return cls(torch_model, vocab, names, device=device, **options)

    def _window_batches(self, batch: EncodedBatch) -> list[tuple[list[Window], WindowBatch]]:
        windows = [
            w for i, toks in enumerate(batch.texts) for w in make_windows(len(toks), i, self.window_tokens, self.window_overlap)
        ]
        # Longest first so each batch holds windows of similar length (less padding).
        windows.sort(key=lambda w: w.end - w.start, reverse=True)
        if not windows:
            return []
        offsets = np.cumsum([0] + [len(t) for t in batch.texts])
        flat_distinct = np.concatenate([t.distinct for t in batch.texts])
        flat_spaces = np.concatenate([t.spaces for t in batch.texts])
        out = []
        for b in range(0, len(windows), self.max_batch_windows):
            chunk = windows[b : b + self.max_batch_windows]
            first = np.array([offsets[w.text_index] + w.start for w in chunk], dtype=np.int64)
            lengths = np.array([w.end - w.start for w in chunk], dtype=np.int64)
            steps = np.arange(int(lengths[0]))
            # Past its length a row repeats its last token: any real index will do, it is never read back.
            pos = first[:, None] + np.minimum(steps[None, :], lengths[:, None] - 1)
            out.append((chunk, WindowBatch(flat_distinct[pos], flat_spaces[pos], lengths)))
        return out

    def tag_arrays(self, texts: Sequence[str]) -> tuple[EncodedBatch, list[np.ndarray]]:
        """The encoded texts and each text's tag id per token."""
        batch = encode_texts(texts, self.vocab)
        return batch, self.tag_encoded(batch)

    def tag_encoded(self, batch: EncodedBatch) -> list[np.ndarray]:
        """Each text's tag id per token, for texts already encoded (by this process or, through
        ``deid_core.tagger.wire``, by a Triton client). Token offsets are not read."""
        tags = [np.zeros(len(t), dtype=np.int64) for t in batch.texts]
        prepared = self.engine.prepare(batch)
        for chunk, windows in self._window_batches(batch):
            paths = self.engine.predict(batch, prepared, windows)
            for w, path in zip(chunk, paths, strict=True):
                tags[w.text_index][w.keep_from : w.keep_to] = path[w.keep_from - w.start : w.keep_to - w.start]
        return tags

    def tag(self, texts: Sequence[str]) -> list[list[Span]]:
        batch, tags = self.tag_arrays(texts)
        return [
            tag_array_to_spans(toks.starts, toks.ends, t, self.tag_names, SPAN_SCORE, SOURCE)
            for toks, t in zip(batch.texts, tags, strict=True)
        ]


def _torch_cuda() -> bool:
    import torch

    return bool(torch.cuda.is_available())
