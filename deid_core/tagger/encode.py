"""Tokenising and encoding a batch of texts as arrays, for inference.

``tokenize`` + ``Vocab.encode`` build a ``Token`` object and several Python calls per token, which cost
more than the model itself on CPU. Here one compiled ``re.split`` per text yields the tokens and the gaps
between them, offsets come from a cumulative sum of their lengths, and everything the model reads from
a token's spelling (word id, casing class, characters) is computed once per distinct spelling in the
batch. The result is exactly what ``tokenize`` and ``Vocab.encode`` give (tests/unit/test_detect_speed.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from deid_core.tagger.tokenize import TOKEN_PATTERN
from deid_core.tagger.vocab import MAX_WORD_CHARS, UNK, Vocab, normalize_word
from deid_core.textfold import fold_accents

# The token pattern as one capturing group: re.split then alternates gap, token, gap, ..., gap. The gaps
# are whitespace only, because the pattern's last alternative matches any other non-space character.
_SPLIT = re.compile(f"({TOKEN_PATTERN})")


@dataclass(frozen=True, slots=True)
class TextTokens:
    """The tokens of one text: character offsets, spacing and the index of their spelling in the batch."""

    starts: np.ndarray  # (n,) int64
    ends: np.ndarray  # (n,) int64
    spaces: np.ndarray  # (n,) int64: 1 + whether whitespace (or the text start) precedes the token
    distinct: np.ndarray  # (n,) int64 index into EncodedBatch's per-spelling arrays

    def __len__(self) -> int:
        return len(self.starts)


@dataclass(frozen=True, slots=True)
class EncodedBatch:
    """Texts' tokens plus the model inputs of each distinct spelling among them."""

    texts: list[TextTokens]
    words: np.ndarray  # (d,) word ids
    casing: np.ndarray  # (d,) style ids: casing class (+ lexicon class, see Vocab)
    chars: np.ndarray  # (d, MAX_WORD_CHARS) character ids, 0-padded
    char_lengths: np.ndarray  # (d,) 1..MAX_WORD_CHARS

    @property
    def n_distinct(self) -> int:
        return len(self.words)


def encode_texts(texts: Sequence[str], vocab: Vocab) -> EncodedBatch:
    spellings: dict[str, int] = {}
    tokens: list[TextTokens] = []
    for text in texts:
        parts = _SPLIT.split(fold_accents(text))
        lengths = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
        bounds = np.cumsum(lengths)
        # parts[2k+1] is token k: it ends at bounds[2k+1] and starts where gap k ends.
        ends = bounds[1::2]
        starts = bounds[0:-1:2]
        gaps = lengths[0:-1:2]
        # Spellings from the text itself: the folded view only decides where tokens start and end.
        toks = parts[1::2] if text.isascii() else [text[s:e] for s, e in zip(starts.tolist(), ends.tolist(), strict=True)]
        spaces = np.where(gaps > 0, 2, 1)
        if len(spaces):
            spaces[0] = 2  # the first token always counts as preceded by a space (tokenize's rule)
        index = spellings.setdefault
        distinct = np.fromiter((index(t, len(spellings)) for t in toks), dtype=np.int64, count=len(toks))
        tokens.append(TextTokens(starts, ends, spaces, distinct))
    d = len(spellings)
    words = np.fromiter((vocab.words.get(normalize_word(s), UNK) for s in spellings), dtype=np.int64, count=d)
    style = vocab.style_function()
    casing = np.fromiter((style(s) for s in spellings), dtype=np.int64, count=d)
    chars, char_lengths = _char_ids(list(spellings), vocab)
    return EncodedBatch(tokens, words, casing, chars, char_lengths)


def _char_ids(spellings: list[str], vocab: Vocab) -> tuple[np.ndarray, np.ndarray]:
    """Vocab.encode_chars for every spelling at once: one code-point array, one sorted lookup."""
    d = len(spellings)
    clipped = [s[:MAX_WORD_CHARS] for s in spellings]
    char_lengths = np.fromiter(map(len, clipped), dtype=np.int64, count=d)
    chars = np.zeros((d, MAX_WORD_CHARS), dtype=np.int64)
    if not d:
        return chars, char_lengths
    codes = np.frombuffer("".join(clipped).encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    keys, values = _char_table(vocab)
    at = np.minimum(np.searchsorted(keys, codes), len(keys) - 1)
    ids = np.where(keys[at] == codes, values[at], UNK)
    rows = np.repeat(np.arange(d), char_lengths)
    cols = np.arange(len(codes)) - np.repeat(np.cumsum(char_lengths) - char_lengths, char_lengths)
    chars[rows, cols] = ids
    return chars, char_lengths


def _char_table(vocab: Vocab) -> tuple[np.ndarray, np.ndarray]:
    # Only single characters can match; "<pad>" and "<unk>" are names, not characters.
    pairs = sorted((ord(ch), i) for ch, i in vocab.char_lookup.items())
    if not pairs:
        return np.full(1, -1, dtype=np.int64), np.full(1, UNK, dtype=np.int64)
    keys, values = zip(*pairs, strict=True)
    return np.array(keys, dtype=np.int64), np.array(values, dtype=np.int64)
