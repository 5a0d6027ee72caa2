"""The fast detect path behaves like the plain one: the same spans from forked workers as from one
process, from the NumPy tagger engine as from the torch model, from the array encoder as from
tokenize + Vocab.encode; no torch import where none is needed; thread pools set as documented.

Behaviour only: the speed itself is measured by bench/detect_throughput.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_core.detect.registry import build_detectors
from deid_core.forked import can_fork, detect_in_processes
from deid_core.pipeline import DetectionPipeline
from deid_core.tagger import build_tagger, default_model_dir
from deid_core.tagger.encode import encode_texts
from deid_core.tagger.labels import tag_array_to_spans, tag_names, tags_to_spans
from deid_core.tagger.runtime import TaggerRuntime
from deid_core.tagger.tokenize import tokenize
from deid_core.tagger.vocab import Vocab
from deid_tools.corpus import generate_notes
from schemas import EnrichedNote

ROOT = Path(__file__).resolve().parents[2]
EDGE_TEXTS = [
    "",
    "short",
    " leading space",
    "x" * 9000,
    "Zoë Ünal, née Çelik, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 seen 3/4/2019",
    "a  b\n\nc\t\td",
    "MC#0937884Date Results02/20/2087 JohnSmith MRIScan",
]


def _key(span_lists: list[list[object]]) -> list[list[tuple[object, ...]]]:
    return [[(s.start, s.end, s.type, s.score, s.sources, s.explanation) for s in spans] for spans in span_lists]  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def notes() -> list[EnrichedNote]:
    return [EnrichedNote(g.id, g.text, g.patient) for g in generate_notes("test", 14, seed=21)]


@pytest.mark.skipif(not can_fork(), reason="needs the fork start method")
def test_forked_workers_give_exactly_the_sequential_spans(notes: list[EnrichedNote]) -> None:
    pipeline = DetectionPipeline(build_detectors(["rules", "header"]), build_tagger())
    assert pipeline.fork_safe
    sequential: list[list[object]] = []
    for i in range(0, len(notes), 4):
        sequential.extend(asyncio.run(pipeline.detect_batch(notes[i : i + 4])))
    progress: list[int] = []
    parallel = detect_in_processes(pipeline, notes, 4, workers=2, progress=progress.append)
    assert _key(parallel) == _key(sequential)
    assert sum(progress) == len(notes) and all(n > 0 for n in progress)
    assert sum(len(s) for s in parallel) > 0


@pytest.mark.skipif(not can_fork(), reason="needs the fork start method")
def test_cli_output_is_byte_identical_with_one_or_two_workers(tmp_path: Path, notes: list[EnrichedNote]) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(
        "".join(
            json.dumps({"id": n.note_id, "text": n.text, "patient": n.patient.model_dump(mode="json") if n.patient else None}) + "\n"
            for n in notes
        )
    )
    outputs = []
    for workers in ("1", "2"):
        out = tmp_path / f"out-{workers}.jsonl"
        env = {**os.environ, "DEID_DETECT_WORKERS": workers}
        subprocess.run(
            [sys.executable, "-m", "workers.cli", "detect", "-i", str(path), "-o", str(out), "--batch-size", "3"],
            cwd=ROOT, env=env, check=True, capture_output=True,
        )  # fmt: skip
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert len(outputs[0].splitlines()) == len(notes)


def test_a_bad_worker_count_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"id": "a", "text": "Seen 03/04/2019."}) + "\n")
    env = {**os.environ, "DEID_DETECT_WORKERS": "many"}
    proc = subprocess.run(
        [sys.executable, "-m", "workers.cli", "detect", "-i", str(path), "--detectors", "rules"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 1
    assert "DEID_DETECT_WORKERS must be a whole number" in proc.stderr


@pytest.mark.triton
def test_detect_through_triton_writes_the_in_process_output(tmp_path: Path, triton_grpc_url: str, notes: list[EnrichedNote]) -> None:
    """End to end: the CLI builds its Triton client before its event loop starts, and the local
    detectors run beside the remote call; the output is byte for byte the in-process one."""
    path = tmp_path / "in.jsonl"
    path.write_text(
        "".join(
            json.dumps({"id": n.note_id, "text": n.text, "patient": n.patient.model_dump(mode="json") if n.patient else None}) + "\n"
            for n in notes
        )
    )
    outputs = []
    for extra in (["--triton-url", triton_grpc_url], []):
        out = tmp_path / f"out-{len(extra)}.jsonl"
        subprocess.run(
            [sys.executable, "-m", "workers.cli", "detect", "-i", str(path), "-o", str(out), "--batch-size", "5", *extra],
            cwd=ROOT, check=True, capture_output=True,
        )  # fmt: skip
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]


_IMPORTS_AFTER = """
import json, sys
from workers.cli import main
sys.exit_code = main(sys.argv[1:])
heavy = ["torch", "faust", "fhir.resources", "deid_tools.corpus", "deid_tools.eval"]
print(json.dumps({"code": sys.exit_code, "loaded": [m for m in heavy if m in sys.modules]}))
"""


def _modules_loaded_by_cli(args: list[str], tmp_path: Path) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", _IMPORTS_AFTER, *args, "-o", str(tmp_path / "out.jsonl")],
        cwd=ROOT, capture_output=True, text=True, check=True,
        env={**os.environ, "DEID_DETECT_WORKERS": "1", "DEID_TAGGER_ENGINE": ""},
    )  # fmt: skip
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_detect_with_a_remote_tagger_never_imports_torch(tmp_path: Path) -> None:
    """The whole import and set-up path of ``deid detect --triton-url``, up to the first call (which
    fails: nothing listens on the fake address)."""
    code = (
        "import sys\n"
        "from workers.cli import detection_pipeline, build_parser\n"
        "args = build_parser().parse_args(['detect', '--triton-url', '127.0.0.1:9'])\n"
        "pipeline = detection_pipeline(args)\n"
        "print(type(pipeline.tagger).__name__, 'torch' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert proc.stdout.split() == ["TritonTagger", "False"]


@pytest.mark.skipif(os.path.exists("/proc/driver/nvidia/version"), reason="with CUDA present the tagger uses torch")
def test_detect_in_process_imports_neither_torch_nor_training_or_streaming_code(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"id": "a", "text": "Seen by Dr. Ann Lee on 03/04/2019."}) + "\n")
    result = _modules_loaded_by_cli(["detect", "-i", str(path)], tmp_path)
    assert result == {"code": 0, "loaded": []}


def test_limit_threads_sets_blas_torch_and_the_environment() -> None:
    code = (
        "import json, os\n"
        "import numpy, torch\n"
        "from deid_core.tagger.threads import blas_threads, limit_threads\n"
        "limit_threads(2); two = (blas_threads(), torch.get_num_threads())\n"
        "limit_threads(1); one = (blas_threads(), torch.get_num_threads())\n"
        "print(json.dumps({'two': two, 'one': one, 'env': [os.environ[v] for v in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS')]}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["one"] == [1, 1]
    assert result["two"][1] == 2
    assert result["two"][0] in (2, None)  # None: no OpenBLAS with a thread setter is loaded
    assert result["env"] == ["1", "1", "1"]


@pytest.mark.skipif(not can_fork(), reason="needs the fork start method")
def test_each_worker_gets_its_share_of_the_cores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, notes: list[EnrichedNote]) -> None:
    import deid_core.tagger.threads as threads

    record = tmp_path / "threads.txt"

    def recording(n: int) -> None:
        with record.open("a") as fh:
            fh.write(f"{os.getpid()} {n}\n")

    monkeypatch.setattr(threads, "limit_threads", recording)
    monkeypatch.setattr(threads, "usable_cpus", lambda: 4)
    pipeline = DetectionPipeline(build_detectors(["rules"]))
    detect_in_processes(pipeline, notes, 2, workers=2)
    lines = [line.split() for line in record.read_text().splitlines()]
    assert len({pid for pid, _ in lines}) == 2 and str(os.getpid()) not in {pid for pid, _ in lines}
    assert {n for _, n in lines} == {"2"}  # 4 cores / 2 workers


@pytest.fixture(scope="module")
def engines() -> tuple[TaggerRuntime, TaggerRuntime]:
    pytest.importorskip("torch")
    return TaggerRuntime.load(default_model_dir(), engine="numpy"), TaggerRuntime.load(default_model_dir(), engine="torch", device="cpu")


def test_numpy_engine_tags_like_the_torch_model(engines: tuple[TaggerRuntime, TaggerRuntime]) -> None:
    fast, reference = engines
    assert fast.fork_safe and not reference.fork_safe
    texts = [g.text for g in generate_notes("test", 60, seed=5)] + EDGE_TEXTS
    for size in (7, 32, len(texts)):
        got = [s for i in range(0, len(texts), size) for s in fast.tag(texts[i : i + size])]
        expected = [s for i in range(0, len(texts), size) for s in reference.tag(texts[i : i + size])]
        assert _key(got) == _key(expected)
    assert sum(len(s) for s in got) > 100


def test_viterbi_matches_the_torch_crf_including_ties(engines: tuple[TaggerRuntime, TaggerRuntime]) -> None:
    import torch

    fast, reference = engines
    crf, viterbi = reference.engine.model.crf, fast.engine.model.viterbi  # type: ignore[attr-defined]
    rng = np.random.default_rng(3)
    lengths = np.sort(rng.integers(1, 40, size=25))[::-1].copy()
    k = len(fast.tag_names)
    for scale, integer in ((4.0, False), (20.0, False), (2.0, True)):
        emissions = rng.normal(0, scale, size=(40, len(lengths), k)).astype(np.float32)
        if integer:  # whole numbers make equal scores, and so ties, common
            emissions = np.round(emissions)
        mask = torch.from_numpy(np.arange(40)[None, :] < lengths[:, None])
        expected = crf.decode(torch.from_numpy(emissions.transpose(1, 0, 2).copy()), mask)
        got = viterbi.decode(emissions, lengths)
        assert [list(row[:n]) for row, n in zip(got, lengths, strict=True)] == expected


def test_weights_read_without_torch_equal_torch_load() -> None:
    torch = pytest.importorskip("torch")
    from deid_core.tagger.weights import load_state_dict

    path = default_model_dir() / "weights.pt"
    ours, theirs = load_state_dict(path), torch.load(path, map_location="cpu", weights_only=True)
    assert ours.keys() == theirs.keys()
    for name, value in theirs.items():
        assert ours[name].dtype == value.numpy().dtype and np.array_equal(ours[name], value.numpy()), name


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=120), min_size=1, max_size=4))
def test_array_encoder_matches_tokenize_and_vocab_encode(texts: list[str]) -> None:
    vocab = _vocab()
    batch = encode_texts(texts, vocab)
    for text, toks in zip(texts, batch.texts, strict=True):
        tokens = tokenize(text)
        assert toks.starts.tolist() == [t.start for t in tokens]
        assert toks.ends.tolist() == [t.end for t in tokens]
        if tokens:
            expected = vocab.encode(tokens)
            assert toks.spaces.tolist() == expected.spaces.tolist()
            assert batch.words[toks.distinct].tolist() == expected.words.tolist()
            assert batch.casing[toks.distinct].tolist() == expected.casing.tolist()
            assert batch.char_lengths[toks.distinct].tolist() == expected.char_lengths.tolist()
            assert np.array_equal(batch.chars[toks.distinct], expected.chars)


_VOCAB: list[Vocab] = []


def _vocab() -> Vocab:
    if not _VOCAB:
        _VOCAB.append(Vocab.load(default_model_dir() / "vocab.json"))
    return _VOCAB[0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 8), max_size=40), st.text(alphabet="ab ", min_size=1, max_size=80))
def test_spans_from_tag_arrays_match_tags_to_spans(raw_tags: list[int], text: str) -> None:
    names = tag_names()[:9]  # O and four types' B-/I- tags
    tokens = tokenize(text)
    tags = [raw_tags[i] if i < len(raw_tags) else 0 for i in range(len(tokens))]
    starts = np.array([t.start for t in tokens], dtype=np.int64)
    ends = np.array([t.end for t in tokens], dtype=np.int64)
    got = tag_array_to_spans(starts, ends, np.array(tags, dtype=np.int64), names, 0.9, "tagger")
    assert _key([got]) == _key([tags_to_spans(tokens, tags, names, 0.9, "tagger")])
