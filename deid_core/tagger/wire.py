"""The numeric contract between TritonTagger and the Triton model (triton_models/phi_tagger), version 2.

The client tokenises and encodes (``encode.encode_texts``, vectorised) and keeps each token's character
offsets; the model only runs the network and the CRF decoding and answers a tag id per token, which the
client turns into spans. Tokenising in the python backend's stub had capped a GPU server at the speed
of one Python thread per model instance (docs/deployment.md, "Triton on a GPU").

One batch row is one text; every tensor is INT32 except ``ARTIFACT``:

    TOKENS    [n, -1, 2]   per token: (row of this text's SPELLINGS, spacing class 1|2)
    SPELLINGS [n, -1, 22]  per distinct spelling of this text: word id, style id, 20 char ids (0-padded)
    COUNTS    [n, 2]       (tokens, spellings) of the text; rows past them are padding, never read
    TAGS      [n, -1]      (model -> client) tag id per token, -1 past the text's token count
    ARTIFACT  [n, 1]       (model -> client, INT64) fingerprint of the model's vocabularies and tag set

Padding is chosen per request, to that request's longest text: the inputs are declared
``allow_ragged_batch``, so Triton's dynamic batcher merges requests of any shapes and the python backend
sees each request's own tensors (length buckets would only add padding). Spellings are deduplicated per
text on the client (a batch row cannot carry a table shared by the request) and, for the NumPy engine,
again across all merged requests in the stub, so its character LSTM runs once per distinct spelling
per execution (torch finds repeats itself, on the device).

The client's ids mean something only with the vocabulary of the model that reads them: the client
encodes with its own copy of the artifact (``DEID_TAGGER_MODEL_DIR``) and refuses any answer whose
``ARTIFACT`` differs from its own. The contract version itself is a model config parameter
(``CONTRACT_PARAMETER``) that the client checks before its first request.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from deid_core.tagger.encode import EncodedBatch, TextTokens, encode_texts
from deid_core.tagger.labels import tag_array_to_spans
from deid_core.tagger.tokenize import N_CASING_CLASSES, TOKEN_PATTERN
from deid_core.tagger.vocab import MAX_WORD_CHARS, Vocab
from schemas import Span

CONTRACT_VERSION = "2"
CONTRACT_PARAMETER = "deid_input_contract"
INPUTS = ("TOKENS", "SPELLINGS", "COUNTS")
OUTPUTS = ("TAGS", "ARTIFACT")
SPELLING_WIDTH = 2 + MAX_WORD_CHARS


def artifact_fingerprint(vocab: Vocab, tag_names: Sequence[str]) -> int:
    """63 bits of a SHA-256 over what gives the client's ids and the model's tag ids their meaning: the
    vocabularies, the tag set and the tokeniser (its pattern and limits), and for a vocabulary whose style
    ids fold in lexicon classes the lexicon table, as each side's code and data have them."""
    blob = json.dumps(
        {"words": vocab.words, "chars": vocab.chars, "tags": list(tag_names), "token_pattern": TOKEN_PATTERN,
         "max_word_chars": MAX_WORD_CHARS, "casing_classes": N_CASING_CLASSES,
         "lexicon": _lexicon_digest() if vocab.lexicon else None},
        sort_keys=True, ensure_ascii=False, separators=(",", ":"),
    )  # fmt: skip
    return int.from_bytes(hashlib.sha256(blob.encode("utf-8")).digest()[:8], "big") >> 1


def _lexicon_digest() -> str:
    from deid_core.lexicon import load_token_classes

    table = json.dumps(sorted(load_token_classes().items()), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(table.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class ClientArtifact:
    """What a client needs of the tagger artifact: the vocabularies to encode with and the tag names."""

    vocab: Vocab
    tag_names: tuple[str, ...]
    fingerprint: int

    @classmethod
    def load(cls, directory: str | Path) -> ClientArtifact:
        from deid_core.tagger.runtime import VOCAB_FILE, read_meta

        directory = Path(directory)
        names = tuple(read_meta(directory)["tags"])
        vocab = Vocab.load(directory / VOCAB_FILE)
        return cls(vocab, names, artifact_fingerprint(vocab, names))


@dataclass(frozen=True, slots=True)
class Request:
    """One request's tensors, and the token offsets the client keeps to turn tags into spans."""

    tokens: np.ndarray  # (n, T, 2) int32
    spellings: np.ndarray  # (n, D, SPELLING_WIDTH) int32
    counts: np.ndarray  # (n, 2) int32
    texts: list[TextTokens]


def encode_request(texts: Sequence[str], vocab: Vocab) -> Request:
    batch = encode_texts(texts, vocab)
    table = np.concatenate([batch.words[:, None], batch.casing[:, None], batch.chars], axis=1).astype(np.int32)
    rows = [np.unique(t.distinct, return_inverse=True) for t in batch.texts]
    width_t = max(1, max((len(t) for t in batch.texts), default=0))
    width_d = max(1, max((len(u) for u, _ in rows), default=0))
    tokens = np.zeros((len(texts), width_t, 2), dtype=np.int32)
    spellings = np.zeros((len(texts), width_d, SPELLING_WIDTH), dtype=np.int32)
    counts = np.zeros((len(texts), 2), dtype=np.int32)
    for i, (t, (used, local)) in enumerate(zip(batch.texts, rows, strict=True)):
        n = len(t)
        tokens[i, :n, 0] = local
        tokens[i, :n, 1] = t.spaces
        spellings[i, : len(used)] = table[used]
        counts[i] = (n, len(used))
    return Request(tokens, spellings, counts, batch.texts)


def decode_tags(
    request: Request, tags: np.ndarray, artifact: np.ndarray, client: ClientArtifact, score: float, source: str
) -> list[list[Span]]:
    """The spans of each text from the model's answer; a ``ContractError`` for an answer made with another
    artifact, a ``ValueError`` for one that does not fit the request."""
    n = len(request.texts)
    fingerprints = {int(f) for f in np.asarray(artifact).reshape(-1)}
    if fingerprints != {client.fingerprint}:
        theirs = ", ".join(f"{f:016x}" for f in sorted(fingerprints))
        raise ContractError(
            f"the Triton model's artifact (fingerprint {theirs}) is not the one this client encodes with "
            f"({client.fingerprint:016x}): vocabularies, tag set or tokeniser differ; give the workers the "
            "served version's artifact (DEID_TAGGER_MODEL_DIR)"
        )
    counts = request.counts[:, 0].astype(np.int64)
    if tags.ndim != 2 or tags.shape[0] != n or tags.shape[1] < int(counts.max(initial=0)):
        raise ValueError(f"TAGS of shape {tags.shape} for {n} texts of up to {int(counts.max(initial=0))} tokens")
    inside = np.arange(tags.shape[1])[None, :] < counts[:, None]
    if (tags[~inside] != -1).any() or (tags[inside] < 0).any() or (tags[inside] >= len(client.tag_names)).any():
        raise ValueError("TAGS holds tag ids outside the tag set or padding where a token is")
    return [
        tag_array_to_spans(t.starts, t.ends, tags[i, : len(t)].astype(np.int64), client.tag_names, score, source)
        for i, t in enumerate(request.texts)
    ]


class ContractError(RuntimeError):
    """Client and model do not speak the same contract or encode with the same artifact."""


def check_request(
    tokens: np.ndarray, spellings: np.ndarray, counts: np.ndarray, sizes: tuple[int, int, int]
) -> str | None:
    """Why a request's tensors cannot be read (None when they can). ``sizes``: rows of the model's word,
    style and character tables. Every index is checked: NumPy would wrap a negative one around silently."""
    n_words, n_styles, n_chars = sizes
    if tokens.ndim != 3 or tokens.shape[2] != 2:
        return f"TOKENS has shape {tokens.shape}, expected [n, tokens, 2]"
    if spellings.ndim != 3 or spellings.shape[2] != SPELLING_WIDTH:
        return f"SPELLINGS has shape {spellings.shape}, expected [n, spellings, {SPELLING_WIDTH}]"
    if counts.shape != (len(tokens), 2) or len(spellings) != len(tokens):
        return f"COUNTS {counts.shape}, TOKENS {tokens.shape} and SPELLINGS {spellings.shape} disagree on the batch size"
    n_tok, n_sp = counts[:, 0], counts[:, 1]
    if (n_tok < 0).any() or (n_tok > tokens.shape[1]).any() or (n_sp < 0).any() or (n_sp > spellings.shape[1]).any():
        return "COUNTS outside the padded shapes"
    tok = tokens[np.arange(tokens.shape[1])[None, :] < n_tok[:, None]]  # (sum tokens, 2)
    row_limit = np.repeat(n_sp, n_tok)
    if (tok[:, 0] < 0).any() or (tok[:, 0] >= row_limit).any() or ((tok[:, 1] != 1) & (tok[:, 1] != 2)).any():
        return "TOKENS names a spelling row past the text's count or a spacing class other than 1, 2"
    sp = spellings[np.arange(spellings.shape[1])[None, :] < n_sp[:, None]]  # (sum spellings, W)
    words, casing, chars = sp[:, 0], sp[:, 1], sp[:, 2:]
    if (words < 0).any() or (words >= n_words).any() or (casing < 1).any() or (casing >= n_styles).any():
        return "SPELLINGS holds a word or style id outside the model's tables"
    if (chars < 0).any() or (chars >= n_chars).any() or (chars[:, 0] == 0).any() or ((chars[:, 1:] != 0) & (chars[:, :-1] == 0)).any():
        return "SPELLINGS holds char ids outside the model's table, or not as a 0-padded non-empty prefix"
    return None


def decode_requests(parts: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]], *, distinct: bool = True) -> EncodedBatch:
    """The texts of several checked requests (TOKENS, SPELLINGS, COUNTS each) as one ``EncodedBatch``.

    ``distinct``: each spelling once across all texts, for an engine whose character LSTM runs once per
    row of the spelling table (NumPy: a quarter of the rows, a third of the time); the torch model finds
    the distinct spellings itself, on the device. Token offsets stay with the client: zeros here.
    """
    rows, spaces, local = [], [], []
    n_tok: list[np.ndarray] = []
    n_sp: list[np.ndarray] = []
    for tokens, spellings, counts in parts:
        tok = tokens[np.arange(tokens.shape[1])[None, :] < counts[:, :1]]
        local.append(tok[:, 0])
        spaces.append(tok[:, 1])
        rows.append(spellings[np.arange(spellings.shape[1])[None, :] < counts[:, 1:]])
        n_tok.append(counts[:, 0])
        n_sp.append(counts[:, 1])
    tok_counts = np.concatenate(n_tok).astype(np.int64)
    sp_counts = np.concatenate(n_sp).astype(np.int64)
    # A text's spelling rows follow the previous texts' rows: offset its local row numbers by their count.
    row = np.concatenate(local).astype(np.int64) + np.repeat(np.cumsum(sp_counts) - sp_counts, tok_counts)
    table = np.concatenate(rows)
    if distinct:
        table, inverse = _unique_rows(table)
        row = inverse[row]
    all_spaces = np.concatenate(spaces).astype(np.int64)
    bounds = np.cumsum(tok_counts)[:-1]
    texts = []
    for d, s in zip(np.split(row, bounds), np.split(all_spaces, bounds), strict=True):
        zeros = np.zeros(len(d), dtype=np.int64)
        texts.append(TextTokens(zeros, zeros, s, d))
    table = table.astype(np.int64)
    chars = table[:, 2:]
    return EncodedBatch(texts, table[:, 0], table[:, 1], chars, np.count_nonzero(chars, axis=1).astype(np.int64))


def _unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows and each row's index among them.

    Rows are hashed to one uint64 each (a product with fixed odd multipliers, wrapping) and the hashes
    deduplicated; the result is then compared with the input row for row, and only if two different
    rows shared a hash does the exact, several times slower sort of whole rows run.
    """
    if not len(rows):
        return rows.reshape(0, SPELLING_WIDTH), np.zeros(0, dtype=np.int64)
    rows = np.ascontiguousarray(rows)
    keys = rows.astype(np.uint64) @ _MIX
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if not np.array_equal(rows[first][inverse], rows):
        void = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).reshape(-1)
        _, first, inverse = np.unique(void, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
    return rows[first], inverse.astype(np.int64)


_MIX = np.random.default_rng(20261126).integers(1, 2**63, size=SPELLING_WIDTH, dtype=np.uint64) | np.uint64(1)


def encode_answer(tag_arrays: Sequence[np.ndarray], fingerprint: int) -> tuple[np.ndarray, np.ndarray]:
    """TAGS and ARTIFACT for one request: each text's tag ids, padded with -1 to the request's longest
    text, and the model's artifact fingerprint per text."""
    width = max(1, max((len(t) for t in tag_arrays), default=0))
    tags = np.full((len(tag_arrays), width), -1, dtype=np.int32)
    for i, t in enumerate(tag_arrays):
        tags[i, : len(t)] = t
    return tags, np.full((len(tag_arrays), 1), fingerprint, dtype=np.int64)
