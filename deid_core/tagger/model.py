"""The char+word BiLSTM-CRF of Dernoncourt et al. (2017), the baseline neural PHI tagger.

Character embeddings (25) -> character BiLSTM (25 per direction) concatenated with word embeddings
(100) and small casing / spacing embeddings -> dropout 0.5 -> BiLSTM (100 per direction) -> per-token
tag scores -> CRF.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

from deid_core.tagger.crf import CRF
from deid_core.tagger.tokenize import N_CASING_CLASSES


@dataclass(frozen=True, slots=True)
class ModelConfig:
    n_words: int
    n_chars: int
    n_tags: int
    word_dim: int = 100
    char_dim: int = 25
    char_hidden: int = 25
    hidden: int = 100
    casing_dim: int = 8
    dropout: float = 0.5

    def to_json(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Batch:
    words: torch.Tensor  # (B, T) long
    chars: torch.Tensor  # (B, T, C) long
    casing: torch.Tensor  # (B, T) long
    spaces: torch.Tensor  # (B, T) long
    mask: torch.Tensor  # (B, T) bool

    def to(self, device: torch.device) -> Batch:
        return Batch(*(t.to(device) for t in (self.words, self.chars, self.casing, self.spaces, self.mask)))


class BiLstmCrf(nn.Module):
    def __init__(self, config: ModelConfig, allowed: torch.Tensor, allowed_start: torch.Tensor) -> None:
        super().__init__()
        self.config = config
        c = config
        self.word_emb = nn.Embedding(c.n_words, c.word_dim, padding_idx=0)
        self.char_emb = nn.Embedding(c.n_chars, c.char_dim, padding_idx=0)
        self.char_lstm = nn.LSTM(c.char_dim, c.char_hidden, batch_first=True, bidirectional=True)
        self.casing_emb = nn.Embedding(N_CASING_CLASSES, c.casing_dim, padding_idx=0)
        self.space_emb = nn.Embedding(3, 4, padding_idx=0)
        in_dim = c.word_dim + 2 * c.char_hidden + c.casing_dim + 4
        self.dropout = nn.Dropout(c.dropout)
        self.lstm = nn.LSTM(in_dim, c.hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * c.hidden, c.n_tags)
        self.crf = CRF(c.n_tags, allowed, allowed_start)

    def _char_repr(self, chars: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, t, n = chars.shape
        flat = chars.reshape(b * t, n)
        real = mask.reshape(b * t)
        out = torch.zeros(b * t, 2 * self.config.char_hidden, device=chars.device)
        if real.any():
            words = flat[real]
            lengths = (words != 0).sum(1).clamp(min=1)
            packed = pack_padded_sequence(self.char_emb(words), lengths.cpu(), batch_first=True, enforce_sorted=False)
            _, (h, _) = self.char_lstm(packed)
            out[real] = torch.cat([h[0], h[1]], dim=1)
        return out.reshape(b, t, -1)

    def emissions(self, batch: Batch) -> torch.Tensor:
        x = torch.cat(
            [
                self.word_emb(batch.words),
                self._char_repr(batch.chars, batch.mask),
                self.casing_emb(batch.casing),
                self.space_emb(batch.spaces),
            ],
            dim=2,
        )
        lengths = batch.mask.sum(1).clamp(min=1)
        packed = pack_padded_sequence(self.dropout(x), lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, _ = self.lstm(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=x.shape[1])
        return self.out(self.dropout(out))

    def loss(self, batch: Batch, tags: torch.Tensor) -> torch.Tensor:
        return self.crf.neg_log_likelihood(self.emissions(batch), tags, batch.mask)

    @torch.no_grad()
    def predict(self, batch: Batch) -> list[list[int]]:
        return self.crf.decode(self.emissions(batch), batch.mask)
