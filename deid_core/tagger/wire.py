"""The numeric wire format between TritonTagger and the Triton model (see triton_models/phi_tagger).

Texts travel as zero-padded Unicode code points plus lengths, so offsets are Python ``str`` offsets
on both sides; spans travel as ``[start, end, type index]`` rows padded with -1.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from schemas import PhiType, Span

WIRE_TYPES: tuple[PhiType, ...] = tuple(PhiType)
_TYPE_INDEX = {t: i for i, t in enumerate(WIRE_TYPES)}
LENGTH_BUCKET = 256  # pad lengths to a multiple, so more requests share a shape and batch together


def encode_texts(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.array([[len(t)] for t in texts], dtype=np.int32)
    longest = max((len(t) for t in texts), default=0)
    width = max(LENGTH_BUCKET, -(-longest // LENGTH_BUCKET) * LENGTH_BUCKET)
    codes = np.zeros((len(texts), width), dtype=np.int32)
    for i, t in enumerate(texts):
        if t:
            codes[i, : len(t)] = np.frombuffer(t.encode("utf-32-le"), dtype=np.uint32)
    return codes, lengths


def decode_texts(codes: np.ndarray, lengths: np.ndarray) -> list[str]:
    flat = lengths.reshape(-1)
    return [codes[i, : int(n)].astype(np.uint32).tobytes().decode("utf-32-le") for i, n in enumerate(flat)]


def encode_spans(span_lists: Sequence[Sequence[Span]]) -> np.ndarray:
    width = max(1, max((len(s) for s in span_lists), default=0))
    out = np.full((len(span_lists), width, 3), -1, dtype=np.int32)
    for i, spans in enumerate(span_lists):
        for j, s in enumerate(spans):
            out[i, j] = (s.start, s.end, _TYPE_INDEX[s.type])
    return out


def decode_spans(rows: np.ndarray, score: float, source: str = "tagger") -> list[list[Span]]:
    result = []
    for doc in rows:
        result.append(
            [
                Span(int(s), int(e), WIRE_TYPES[int(t)], score, frozenset({source}), "model=bilstm-crf")
                for s, e, t in doc
                if s >= 0
            ]
        )
    return result
