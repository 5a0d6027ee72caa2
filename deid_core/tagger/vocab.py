"""Word and character vocabularies, and the encoding of tokens into model inputs."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from deid_core.lexicon import N_TOKEN_CLASSES, load_token_classes
from deid_core.tagger.tokenize import N_CASING_CLASSES, Token, casing_class
from deid_core.textfold import fold_accents, latin_folds

PAD, UNK = 0, 1
MAX_WORD_CHARS = 20
_DIGITS = re.compile(r"\d")


def normalize_word(text: str) -> str:
    # Digits carry their shape, not their value: "2014" and "1987" share an embedding. Accented Latin
    # letters fold to their base letter: the synthetic training text is ASCII, so "Sinéad" would
    # otherwise be an unknown word where "Sinead" is a known one.
    return _DIGITS.sub("0", fold_accents(text).lower())


def _char_lookup(chars: dict[str, int]) -> dict[str, int]:
    """A character vocabulary plus, for each accented Latin letter it lacks, its base letter's id."""
    out = {ch: i for ch, i in chars.items() if len(ch) == 1}
    for ch, base in latin_folds().items():
        if ch not in out and base in out:
            out[ch] = out[base]
    return out


@dataclass(frozen=True, slots=True)
class Vocab:
    """How a token's spelling becomes model inputs: word id, character ids and style id.

    The style id is the casing class, and with ``lexicon`` set also what the shared lexicons know of the
    word (first name, surname, ordinary word, place, person cue, place head; ``deid_core.lexicon``):
    ``casing + N_CASING_CLASSES * lexicon_class``. Folding both into one id keeps the model's inputs
    (and the Triton wire contract) the same shape; only the style table grows (8 -> 512 rows).
    """

    words: dict[str, int]
    chars: dict[str, int]
    lexicon: bool = False
    char_lookup: dict[str, int] = field(init=False, repr=False, compare=False)
    """Character -> id, accented Latin letters that ``chars`` lacks as their base letter's id; made once."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "char_lookup", _char_lookup(self.chars))

    @property
    def n_styles(self) -> int:
        return N_CASING_CLASSES * (N_TOKEN_CLASSES if self.lexicon else 1)

    def style_function(self) -> Callable[[str], int]:
        """``spelling -> style id`` (binds the lexicon table once; call it per distinct spelling)."""
        if not self.lexicon:
            return casing_class
        classes = load_token_classes()
        get = classes.get
        def style(text: str) -> int:
            low = text.lower()
            # "Raúl" is in no list as written; "raul" is.
            cls = get(low, 0) or (0 if low.isascii() else get(fold_accents(low), 0))
            return casing_class(text) + N_CASING_CLASSES * cls

        return style

    @classmethod
    def build(
        cls, token_lists: Iterable[Sequence[Token]], min_word_count: int = 2, max_words: int = 30_000, lexicon: bool = False
    ) -> Vocab:
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
        return cls(words, chars, lexicon)

    def encode_word(self, text: str) -> int:
        return self.words.get(normalize_word(text), UNK)

    def encode_chars(self, text: str) -> list[int]:
        get = self.char_lookup.get
        return [get(ch, UNK) for ch in text[:MAX_WORD_CHARS]]

    def encode(self, tokens: Sequence[Token]) -> EncodedTokens:
        n = len(tokens)
        style = self.style_function()
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
            casing=np.fromiter((style(t.text) for t in tokens), dtype=np.int64, count=n),
            spaces=np.fromiter((1 + int(t.space_before) for t in tokens), dtype=np.int64, count=n),
        )

    def save(self, path: Path) -> None:
        data: dict[str, object] = {"words": self.words, "chars": self.chars}
        if self.lexicon:
            data["lexicon"] = True  # absent in vocabularies made before lexicon features
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Vocab:
        data = json.loads(path.read_text(encoding="utf-8"))  # spellings hold accented letters
        return cls(data["words"], data["chars"], bool(data.get("lexicon", False)))


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
