"""The tagger's building blocks: tokenizer, BIO conversion, CRF decoding, windows, training (the Triton
wire format: test_triton_wire.py)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from deid_core.tagger.crf import CRF
from deid_core.tagger.encode import encode_texts
from deid_core.tagger.labels import bio_constraints, spans_to_tags, tag_names, tags_to_spans
from deid_core.tagger.runtime import TaggerRuntime, make_windows
from deid_core.tagger.tokenize import tokenize
from deid_core.tagger.vocab import UNK, Vocab
from deid_tools.train.train import GoldDoc, TrainConfig, train
from schemas import PhiType, Span


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Results02/20/2087", ["Results", "02", "/", "20", "/", "2087"]),
        ("MC#0937884Date", ["MC", "#", "0937884", "Date"]),
        ("JohnSmith", ["John", "Smith"]),
        ("MRIScan", ["MRI", "Scan"]),
        ("SMITH, JOHN A", ["SMITH", ",", "JOHN", "A"]),
        ("José's", ["José", "'", "s"]),  # accented letters split no word
        ("Sinéad Ó DálaighSmith", ["Sinéad", "Ó", "Dálaigh", "Smith"]),
        ("ØST", ["Ø", "ST"]),  # a letter with no base letter is a token of its own
    ],
)
def test_tokenizer_splits_glued_tokens(text: str, expected: list[str]) -> None:
    assert [t.text for t in tokenize(text)] == expected


def test_an_accented_name_reaches_the_model_as_its_base_spelling() -> None:
    """The synthetic training text is ASCII: its vocabularies know "Sinead", not "Sinéad"."""
    vocab = Vocab.build([tokenize("Sinead Dalaigh saw Sinead Dalaigh")], min_word_count=1)
    accented, plain = encode_texts(["Sinéad Dálaigh"], vocab), encode_texts(["Sinead Dalaigh"], vocab)
    assert accented.words.tolist() == plain.words.tolist() != [UNK, UNK]
    assert accented.chars.tolist() == plain.chars.tolist()
    assert vocab.encode_chars("Dálaigh") == vocab.encode_chars("Dalaigh")
    assert [t.text for t in tokenize("Sinéad Dálaigh")] == ["Sinéad", "Dálaigh"]


@given(st.text(max_size=200))
def test_tokens_cover_all_non_space_characters_with_exact_offsets(text: str) -> None:
    tokens = tokenize(text)
    covered = set()
    for tok in tokens:
        assert text[tok.start : tok.end] == tok.text
        covered.update(range(tok.start, tok.end))
    assert covered == {i for i, ch in enumerate(text) if not ch.isspace()}


def test_bio_round_trip_keeps_token_aligned_spans() -> None:
    text = "Seen by Ann Lee on 03/05/2014 at Mercy Hospital."
    spans = [Span(8, 15, PhiType.DOCTOR), Span(19, 29, PhiType.DATE), Span(33, 47, PhiType.HOSPITAL)]
    names = tag_names()
    index = {n: i for i, n in enumerate(names)}
    tokens = tokenize(text)
    back = tags_to_spans(tokens, spans_to_tags(tokens, spans, index), names, 0.9, "tagger")
    assert [(s.start, s.end, s.type) for s in back] == [(s.start, s.end, s.type) for s in spans]


def test_adjacent_spans_of_the_same_type_stay_separate() -> None:
    text = "Ann Lee Bo Kim"
    spans = [Span(0, 7, PhiType.PATIENT), Span(8, 14, PhiType.PATIENT)]
    names = tag_names()
    tokens = tokenize(text)
    back = tags_to_spans(tokens, spans_to_tags(tokens, spans, {n: i for i, n in enumerate(names)}), names, 0.9, "t")
    assert [(s.start, s.end) for s in back] == [(0, 7), (8, 14)]


def test_crf_viterbi_matches_brute_force() -> None:
    torch.manual_seed(0)
    names = ["O", "B-DATE", "I-DATE", "B-AGE", "I-AGE"]
    allowed, allowed_start = bio_constraints(names)
    crf = CRF(len(names), allowed, allowed_start)
    with torch.no_grad():
        crf.transitions.normal_()
        crf.start.normal_()
        crf.end.normal_()
    emissions = torch.randn(3, 4, len(names))
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 1, 0], [1, 0, 0, 0]], dtype=torch.bool)
    decoded = crf.decode(emissions, mask)
    trans = crf._trans()
    start = crf._start()
    for b in range(3):
        n = int(mask[b].sum())
        best, best_path = None, None
        for path in itertools.product(range(len(names)), repeat=n):
            score = start[path[0]] + emissions[b, 0, path[0]] + crf.end[path[-1]]
            for i in range(1, n):
                score = score + trans[path[i - 1], path[i]] + emissions[b, i, path[i]]
            if best is None or score > best:
                best, best_path = score, list(path)
        assert decoded[b] == best_path
        assert not names[best_path[0]].startswith("I-")


@given(st.integers(0, 2000), st.integers(20, 300), st.integers(0, 60))
def test_windows_assign_every_token_exactly_once(n_tokens: int, size: int, overlap: int) -> None:
    overlap = min(overlap, size // 2)
    windows = make_windows(n_tokens, 0, size, overlap)
    owned = [i for w in windows for i in range(w.keep_from, w.keep_to)]
    assert owned == list(range(n_tokens))
    for w in windows:
        assert w.start <= w.keep_from <= w.keep_to <= w.end and w.end - w.start <= size


def _toy_docs(n: int, seed: int) -> list[GoldDoc]:
    rng = random.Random(seed)
    first = ["John", "Mary", "Alice", "Robert", "Linda", "James", "Karen", "Omar", "Wei", "Priya"]
    last = ["Smith", "Jones", "Garcia", "Nguyen", "Patel", "Brown", "Okafor", "Kim", "Rossi", "Cohen"]
    docs = []
    for i in range(n):
        name = f"{rng.choice(first)} {rng.choice(last)}"
        date = f"{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/20{rng.randint(10, 24)}"
        prefix = rng.choice(["Patient ", "Seen today: ", "Pt "])
        text = f"{prefix}{name} was admitted on {date} with BP 120/80 and Na 135."
        s = len(prefix)
        d = text.index(date)
        docs.append(GoldDoc(str(i), text, (Span(s, s + len(name), PhiType.PATIENT), Span(d, d + len(date), PhiType.DATE))))
    return docs


@pytest.mark.slow
def test_training_learns_a_toy_task_and_round_trips_through_disk(tmp_path: Path) -> None:
    docs = _toy_docs(260, seed=1)
    reports = train(docs[:200], docs[200:], tmp_path, TrainConfig(epochs=8, patience=3, seed=3))
    assert max(r.dev_f1 for r in reports) >= 0.9
    runtime = TaggerRuntime.load(tmp_path, device="cpu")
    texts = [d.text for d in docs[200:210]] + ["", "x" * 3000]
    first = runtime.tag(texts)
    assert first == runtime.tag(texts), "inference is deterministic"
    found = {(s.start, s.end, s.type) for s in first[0]}
    assert {(s.start, s.end, s.type) for s in docs[200].spans} <= found
    assert first[-2] == []


@pytest.mark.slow
def test_training_continues_from_an_artifact(tmp_path: Path) -> None:
    """``init_from`` starts from a trained artifact's vocabulary and weights: zero epochs of learning
    (learning rate 0) give back the same spans, and the epoch scores as the artifact's best did."""
    docs = _toy_docs(260, seed=1)
    first_dir, second_dir = tmp_path / "a", tmp_path / "b"
    before = train(docs[:200], docs[200:], first_dir, TrainConfig(epochs=4, patience=3, seed=3))
    reports = train(
        _toy_docs(40, seed=9), docs[200:], second_dir,
        TrainConfig(epochs=1, patience=1, seed=4, learning_rate=0.0, init_from=str(first_dir)),
    )
    texts = [d.text for d in docs[200:230]]
    assert TaggerRuntime.load(second_dir, device="cpu").tag(texts) == TaggerRuntime.load(first_dir, device="cpu").tag(texts)
    assert reports[0].dev_f1 == max(r.dev_f1 for r in before)


def test_training_windows_never_open_with_an_inside_tag() -> None:
    from deid_tools.train.train import _training_windows

    names = tag_names()
    index = {n: i for i, n in enumerate(names)}
    text = " ".join(["word"] * 10 + ["Mercy", "General", "Hospital", "of", "Springfield"] + ["word"] * 10)
    tokens = tokenize(text)
    start = text.index("Mercy")
    tags = spans_to_tags(tokens, [Span(start, start + len("Mercy General Hospital of Springfield"), PhiType.HOSPITAL)], index)
    windows = _training_windows([(tokens, tags)], 8, 2, names)
    assert len(windows) > 2
    assert all(not names[t[0]].startswith("I-") for _, t in windows)


def test_the_shipped_artifact_loads_under_an_ascii_locale() -> None:
    # Triton's python stub may run with LANG unset (ASCII): the vocabulary's accented spellings once made
    # its model fail to load there while every test in a UTF-8 shell passed.
    import os
    import subprocess
    import sys

    from deid_core.tagger import default_model_dir

    vocab = (default_model_dir() / "vocab.json").read_bytes()
    assert any(b > 127 for b in vocab)  # the case this guards: spellings beyond ASCII
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONUTF8", "PYTHONIOENCODING"))}
    env.update(LC_ALL="C", PYTHONUTF8="0")
    code = "from deid_core.tagger import default_model_dir; from deid_core.tagger.runtime import TaggerRuntime; TaggerRuntime.load(default_model_dir(), device='cpu')"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-500:]
