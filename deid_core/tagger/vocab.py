"""Word and character vocabularies, and the encoding of tokens into model inputs."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from deid_core.tagger.tokenize import Token, casing_class

PAD, UNK = 0, 1
MAX_WORD_CHARS = 20
_DIGITS = re.compile(r"\d")


def normalize_word(text: str) -> str:
    # Digits carry their shape, not their value: "2014" and "1987" share an embedding.
    return _DIGITS.sub("0", text.lower())


@dataclass(frozen=True, slots=True)
class Vocab:
    words: dict[str, int]
    chars: dict[str, int]

    @classmethod
    def build(cls, token_lists: Iterable[Sequence[Token]], min_word_count: int = 2, max_words: int = 30_000) -> Vocab:
        word_counts: Counter[str] = Counter()
        char_counts: Counter[str] = Counter()
        for tokens in token_lists:
            for tok in tokens:
                word_counts[normalize_word(tok.text)] += 1
                char_counts.update(tok.text[:MAX_WORD_CHARS])
        words = {"<pad>": PAD, "<unk>": UNK}
        for w, c in sorted(word_counts.items(), key=lambda kv: (-kv[1], kv[0])):
            if c < min_word_count or len(words) >= max_words:
                break
            words[w] = len(words)
        chars = {"<pad>": PAD, "<unk>": UNK}
        for ch, _ in sorted(char_counts.items(), key=lambda kv: (-kv[1], kv[0])):
            chars[ch] = len(chars)
        return cls(words, chars)

    def encode_word(self, text: str) -> int:
        return self.words.get(normalize_word(text), UNK)

    def encode_chars(self, text: str) -> list[int]:
        return [self.chars.get(ch, UNK) for ch in text[:MAX_WORD_CHARS]]

    def encode(self, tokens: Sequence[Token]) -> EncodedTokens:
        n = len(tokens)
        chars = np.zeros((n, MAX_WORD_CHARS), dtype=np.int64)
        char_lengths = np.zeros(n, dtype=np.int64)
        for i, t in enumerate(tokens):
            ids = self.encode_chars(t.text)
            chars[i, : len(ids)] = ids
            char_lengths[i] = len(ids)
        return EncodedTokens(
            words=np.fromiter((self.encode_word(t.text) for t in tokens), dtype=np.int64, count=n),
            chars=chars,
            char_lengths=char_lengths,
            casing=np.fromiter((casing_class(t.text) for t in tokens), dtype=np.int64, count=n),
            spaces=np.fromiter((1 + int(t.space_before) for t in tokens), dtype=np.int64, count=n),
        )

    def save(self, path: Path) -> None:
        path.write_text(json.dumps({"words": self.words, "chars": self.chars}, ensure_ascii=False))

    @classmethod
    def load(cls, path: Path) -> Vocab:
        data = json.loads(path.read_text())
        return cls(data["words"], data["chars"])


@dataclass(frozen=True, slots=True)
class EncodedTokens:
    """Model inputs for a token sequence; slicing gives the inputs of a window."""

    words: np.ndarray  # (n,)
    chars: np.ndarray  # (n, MAX_WORD_CHARS)
    char_lengths: np.ndarray  # (n,)
    casing: np.ndarray  # (n,)
    spaces: np.ndarray  # (n,)

    def __len__(self) -> int:
        return len(self.words)

    def window(self, start: int, end: int) -> EncodedTokens:
        return EncodedTokens(
            self.words[start:end], self.chars[start:end], self.char_lengths[start:end],
            self.casing[start:end], self.spaces[start:end],
        )
