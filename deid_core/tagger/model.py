"""The char+word BiLSTM-CRF of Dernoncourt et al. (2017), the baseline neural PHI tagger.

Character embeddings (25) -> character BiLSTM (25 per direction) concatenated with word embeddings
(100), small casing / spacing embeddings and (optionally) the lexicon class bits of the token (see
``Vocab``) -> dropout 0.5 -> BiLSTM (100 per direction) -> per-token tag scores -> CRF.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn

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
    n_styles: int = N_CASING_CLASSES
    """``Vocab.n_styles``: style ids are ``casing + N_CASING_CLASSES * lexicon_class``; above
    N_CASING_CLASSES the model reads the lexicon class's bits as extra inputs."""

    @property
    def lexicon_bits(self) -> int:
        return (self.n_styles // N_CASING_CLASSES - 1).bit_length()

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
        self.char_fwd = nn.LSTM(c.char_dim, c.char_hidden, batch_first=True)
        self.char_bwd = nn.LSTM(c.char_dim, c.char_hidden, batch_first=True)
        self.casing_emb = nn.Embedding(N_CASING_CLASSES, c.casing_dim, padding_idx=0)
        self.space_emb = nn.Embedding(3, 4, padding_idx=0)
        # Lexicon classes enter as their bits (first name, surname, ordinary word, ...): each bit is a
        # feature of its own, which generalises where a table row per combination would not.
        bits = c.lexicon_bits
        table = (torch.arange(1 << bits).unsqueeze(1) >> torch.arange(bits)) & 1
        self.register_buffer("lexicon_table", table.float(), persistent=False)
        in_dim = c.word_dim + 2 * c.char_hidden + c.casing_dim + 4 + bits
        self.dropout = nn.Dropout(c.dropout)
        self.lstm_fwd = nn.LSTM(in_dim, c.hidden, batch_first=True)
        self.lstm_bwd = nn.LSTM(in_dim, c.hidden, batch_first=True)
        self.out = nn.Linear(2 * c.hidden, c.n_tags)
        self.crf = CRF(c.n_tags, allowed, allowed_start)

    def _char_repr(self, chars: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, t, n = chars.shape
        flat = chars.reshape(b * t, n)
        real = mask.reshape(b * t)
        out = torch.zeros(b * t, 2 * self.config.char_hidden, device=chars.device)
        if real.any():
            # Words repeat a lot within a batch; run the character LSTM once per distinct spelling.
            words, inverse = torch.unique(flat[real], dim=0, return_inverse=True)
            lengths = (words != 0).sum(1).clamp(min=1)
            states = _bidirectional(self.char_fwd, self.char_bwd, self.char_emb(words), lengths)
            # Each direction's final state sits at the word's last character (forward) or first (backward).
            h = self.config.char_hidden
            last = states[torch.arange(len(words), device=chars.device), lengths - 1, :h]
            first = states[:, 0, h:]
            out[real] = torch.cat([last, first], dim=1)[inverse]
        return out.reshape(b, t, -1)

    def emissions(self, batch: Batch) -> torch.Tensor:
        x = torch.cat(
            [
                self.word_emb(batch.words),
                self._char_repr(batch.chars, batch.mask),
                self.casing_emb(batch.casing % N_CASING_CLASSES),
                self.space_emb(batch.spaces),
                self.lexicon_table[batch.casing // N_CASING_CLASSES],
            ],
            dim=2,
        )
        lengths = batch.mask.sum(1).clamp(min=1)
        out = _bidirectional(self.lstm_fwd, self.lstm_bwd, self.dropout(x), lengths)
        return self.out(self.dropout(out))

    def loss(self, batch: Batch, tags: torch.Tensor) -> torch.Tensor:
        return self.crf.neg_log_likelihood(self.emissions(batch), tags, batch.mask)

    @torch.no_grad()
    def predict(self, batch: Batch) -> list[list[int]]:
        return self.crf.decode(self.emissions(batch), batch.mask)


def _reverse_within_length(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """Reverse each row's first ``length`` steps, leaving the padding where it is (an involution)."""
    steps = torch.arange(x.shape[1], device=x.device).unsqueeze(0)
    idx = lengths.unsqueeze(1) - 1 - steps
    idx = torch.where(idx >= 0, idx, steps)
    return x.gather(1, idx.unsqueeze(-1).expand_as(x))


def _bidirectional(fwd: nn.LSTM, bwd: nn.LSTM, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """A BiLSTM over right-padded rows whose outputs do not depend on how much padding a row has.

    Packed sequences would give the same guarantee, but their CPU backward pass zero-fills the whole
    gate buffer at every time step, which made training several times slower. Right padding never
    reaches a forward LSTM's real steps, and reversing within each row's length keeps it behind the
    backward LSTM's real steps too, so a note tags the same whatever it is batched with.
    """
    forward, _ = fwd(x)
    backward, _ = bwd(_reverse_within_length(x, lengths))
    return torch.cat([forward, _reverse_within_length(backward, lengths)], dim=2)
