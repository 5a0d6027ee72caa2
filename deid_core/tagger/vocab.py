"""Word and character vocabularies, and the encoding of tokens into model inputs."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

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

    def encode(self, tokens: Sequence[Token]) -> tuple[list[int], list[list[int]], list[int], list[int]]:
        words = [self.encode_word(t.text) for t in tokens]
        chars = [self.encode_chars(t.text) for t in tokens]
        casing = [casing_class(t.text) for t in tokens]
        spaces = [1 + int(t.space_before) for t in tokens]
        return words, chars, casing, spaces

    def save(self, path: Path) -> None:
        path.write_text(json.dumps({"words": self.words, "chars": self.chars}, ensure_ascii=False))

    @classmethod
    def load(cls, path: Path) -> Vocab:
        data = json.loads(path.read_text())
        return cls(data["words"], data["chars"])
