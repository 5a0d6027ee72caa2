"""The Triton input contract (deid_core.tagger.wire) without a server: the client's encoding, the model's
checks and decoding, the answer, and the version and artifact checks on both sides."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import shutil
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_core.tagger import default_model_dir, wire
from deid_core.tagger.cudnn import cudnn_mismatch_message, loaded_cudnn_libraries
from deid_core.tagger.runtime import SOURCE, SPAN_SCORE, TaggerRuntime
from deid_core.tagger.triton import ContractMismatch, TritonTagger

ROOT = Path(__file__).resolve().parents[2]
MODEL_DIR = ROOT / "triton_models" / "phi_tagger"
EDGE_TEXTS = ["", "   \n", "short", "x" * 9000, "Zoë Ünal, née Çelik, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 seen 3/4/2019", "MRN:0937884Date02/20/2087"]


@pytest.fixture(scope="module")
def runtime() -> TaggerRuntime:
    return TaggerRuntime.load(default_model_dir(), engine="numpy")


@pytest.fixture(scope="module")
def client() -> wire.ClientArtifact:
    return wire.ClientArtifact.load(default_model_dir())


def _gold_texts() -> list[str]:
    with (ROOT / "eval" / "handwritten" / "gold.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line)["text"] for line in f][:12]


def _served(texts: list[str], runtime: TaggerRuntime, client: wire.ClientArtifact, per_request: int, distinct: bool) -> list[Any]:
    """What the Triton path computes, every step but the transport: requests merged as the batcher would."""
    requests = [wire.encode_request(texts[i : i + per_request], client.vocab) for i in range(0, len(texts), per_request)]
    for r in requests:
        assert wire.check_request(r.tokens, r.spellings, r.counts, runtime.input_sizes) is None
    tags = runtime.tag_encoded(wire.decode_requests([(r.tokens, r.spellings, r.counts) for r in requests], distinct=distinct))
    fingerprint = wire.artifact_fingerprint(runtime.vocab, runtime.tag_names)
    spans, pos = [], 0
    for r in requests:
        answer = wire.encode_answer(tags[pos : pos + len(r.texts)], fingerprint)
        pos += len(r.texts)
        spans += wire.decode_tags(r, *answer, client, SPAN_SCORE, SOURCE)
    return spans


@pytest.mark.parametrize("per_request,distinct", [(1, True), (5, True), (64, True), (5, False)])
def test_the_served_path_gives_the_in_process_spans(
    runtime: TaggerRuntime, client: wire.ClientArtifact, per_request: int, distinct: bool
) -> None:
    texts = _gold_texts() + EDGE_TEXTS
    expected = runtime.tag(texts)
    assert _served(texts, runtime, client, per_request, distinct) == expected
    assert sum(map(len, expected)) > 50


def test_the_served_path_gives_the_in_process_spans_with_torch(client: wire.ClientArtifact) -> None:
    """The GPU engine's path (no spelling dedup in the stub), on the CPU."""
    torch_runtime = TaggerRuntime.load(default_model_dir(), device="cpu", engine="torch")
    assert not torch_runtime.wants_distinct_spellings
    texts = _gold_texts()[:6] + EDGE_TEXTS
    assert _served(texts, torch_runtime, client, 4, False) == torch_runtime.tag(texts)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(max_size=200), min_size=1, max_size=6))
def test_the_served_path_agrees_on_any_text(texts: list[str]) -> None:
    runtime = TaggerRuntime.load(default_model_dir(), engine="numpy")
    client = wire.ClientArtifact.load(default_model_dir())
    assert _served(texts, runtime, client, 2, True) == runtime.tag(texts)


def test_requests_are_padded_to_their_own_longest_text(client: wire.ClientArtifact) -> None:
    short = wire.encode_request(["a b", "c"], client.vocab)
    longer = wire.encode_request(["a b c d e f g"], client.vocab)
    assert short.tokens.shape == (2, 2, 2) and longer.tokens.shape == (1, 7, 2)
    assert short.spellings.shape[2] == wire.SPELLING_WIDTH
    assert short.counts.tolist() == [[2, 2], [1, 1]]
    empty = wire.encode_request([""], client.vocab)
    assert empty.tokens.shape == (1, 1, 2) and empty.counts.tolist() == [[0, 0]]


def _request(client: wire.ClientArtifact) -> wire.Request:
    return wire.encode_request(["Seen by Dr. Ann Lee on 03/04/2019.", "MRN 12345"], client.vocab)


@pytest.mark.parametrize(
    "damage,reason",
    [
        (lambda t, s, c: t.__setitem__((0, 0, 0), -1), "spelling row"),
        (lambda t, s, c: t.__setitem__((1, 0, 0), 50), "spelling row"),
        (lambda t, s, c: t.__setitem__((0, 1, 1), 3), "spacing class"),
        (lambda t, s, c: s.__setitem__((0, 0, 0), 10**6), "word or style id"),
        (lambda t, s, c: s.__setitem__((0, 0, 1), 0), "word or style id"),
        (lambda t, s, c: s.__setitem__((0, 0, 1), 10**4), "word or style id"),
        (lambda t, s, c: s.__setitem__((0, 0, 2), -3), "char ids"),
        (lambda t, s, c: s.__setitem__((0, 0, 2), 0), "char ids"),
        (lambda t, s, c: c.__setitem__((0, 0), 999), "COUNTS"),
    ],
)
def test_the_model_refuses_tensors_outside_the_contract(
    runtime: TaggerRuntime, client: wire.ClientArtifact, damage: Any, reason: str
) -> None:
    r = _request(client)
    tokens, spellings, counts = r.tokens.copy(), r.spellings.copy(), r.counts.copy()
    damage(tokens, spellings, counts)
    problem = wire.check_request(tokens, spellings, counts, runtime.input_sizes)
    assert problem is not None and reason in problem


def test_the_model_refuses_wrong_shapes(runtime: TaggerRuntime, client: wire.ClientArtifact) -> None:
    r, sizes = _request(client), runtime.input_sizes
    assert "SPELLINGS has shape" in str(wire.check_request(r.tokens, r.spellings[:, :, :20], r.counts, sizes))
    assert "TOKENS has shape" in str(wire.check_request(r.tokens[:, :, :1], r.spellings, r.counts, sizes))
    assert "batch size" in str(wire.check_request(r.tokens, r.spellings, r.counts[:1], sizes))


def test_the_bounds_are_the_model_tables_in_both_engines(runtime: TaggerRuntime) -> None:
    torch_runtime = TaggerRuntime.load(default_model_dir(), device="cpu", engine="torch")
    assert runtime.input_sizes == torch_runtime.input_sizes
    assert runtime.input_sizes[0] == len(runtime.vocab.words) and runtime.input_sizes[2] == len(runtime.vocab.chars)


def test_the_style_bound_covers_lexicon_classes_in_both_engines() -> None:
    from deid_core.tagger.engine import NumpyBiLstmCrf
    from deid_core.tagger.labels import bio_constraint_masks, bio_constraints, tag_names
    from deid_core.tagger.model import BiLstmCrf, ModelConfig
    from deid_core.tagger.vocab import Vocab

    names = tag_names()
    torch_model = BiLstmCrf(ModelConfig(n_words=50, n_chars=30, n_tags=len(names), n_styles=8 * 64), *bio_constraints(names))
    state = {k: v.detach().numpy() for k, v in torch_model.state_dict().items()}
    numpy_model = NumpyBiLstmCrf(state, bio_constraint_masks(names)[0])
    vocab = Vocab({"<pad>": 0, "<unk>": 1}, {"<pad>": 0, "<unk>": 1})
    sizes = {TaggerRuntime(m, vocab, names).input_sizes for m in (numpy_model, torch_model)}
    assert sizes == {(50, 512, 30)}


def test_an_answer_from_another_artifact_is_refused_naming_both(client: wire.ClientArtifact) -> None:
    r = _request(client)
    tags, artifact = wire.encode_answer([np.zeros(len(t), dtype=np.int64) for t in r.texts], client.fingerprint ^ 1)
    with pytest.raises(wire.ContractError) as err:
        wire.decode_tags(r, tags, artifact, client, SPAN_SCORE, SOURCE)
    assert f"{client.fingerprint ^ 1:016x}" in str(err.value) and f"{client.fingerprint:016x}" in str(err.value)


def test_a_malformed_answer_is_refused(client: wire.ClientArtifact) -> None:
    r = _request(client)
    tags, artifact = wire.encode_answer([np.zeros(len(t), dtype=np.int64) for t in r.texts], client.fingerprint)
    for bad in (tags[:1], tags[:, :2], np.where(tags == -1, 0, tags), np.where(tags == 0, len(client.tag_names), tags)):
        with pytest.raises(ValueError):
            wire.decode_tags(r, bad, artifact[: len(bad)], client, SPAN_SCORE, SOURCE)


def test_the_fingerprint_follows_vocabulary_and_tags(client: wire.ClientArtifact) -> None:
    vocab, names = client.vocab, client.tag_names
    assert wire.artifact_fingerprint(vocab, names) == client.fingerprint < 2**63
    renamed = type(vocab)({**vocab.words, "zzz-not-a-word": len(vocab.words)}, vocab.chars)
    assert wire.artifact_fingerprint(renamed, names) != client.fingerprint
    assert wire.artifact_fingerprint(vocab, names[::-1]) != client.fingerprint
    # Style ids with or without lexicon classes folded in: the lexicon table is part of what the ids mean.
    toggled = types.SimpleNamespace(words=vocab.words, chars=vocab.chars, lexicon=not vocab.lexicon)
    assert wire.artifact_fingerprint(toggled, names) != client.fingerprint  # type: ignore[arg-type]


def test_distinct_rows_survive_a_hash_collision(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = np.zeros((4, wire.SPELLING_WIDTH), dtype=np.int32)
    rows[:, :2] = [[1, 2], [2, 1], [1, 2], [3, 3]]
    monkeypatch.setattr(wire, "_MIX", np.ones(wire.SPELLING_WIDTH, dtype=np.uint64))  # [1,2] and [2,1] collide
    table, inverse = wire._unique_rows(rows)
    assert len(table) == 3 and (table[inverse] == rows).all()


# --------------------------------------------------------------- model.py's config check (no server)


def _model_module(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setitem(sys.modules, "triton_python_backend_utils", types.ModuleType("triton_python_backend_utils"))
    spec = importlib.util.spec_from_file_location("phi_tagger_model", MODEL_DIR / "1" / "model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _config(path: Path) -> dict[str, Any]:
    from google.protobuf import json_format, text_format
    from tritonclient.grpc import model_config_pb2

    parsed = text_format.Parse(path.read_text(), model_config_pb2.ModelConfig())
    return json_format.MessageToDict(parsed, preserving_proto_field_name=True)


@pytest.mark.parametrize("config", ["config.pbtxt", "configs/gpu.pbtxt"])
def test_shipped_configs_declare_the_contract_model_py_implements(monkeypatch: pytest.MonkeyPatch, config: str) -> None:
    model = _model_module(monkeypatch)
    parsed = _config(MODEL_DIR / config)
    model._check_config(parsed, wire)
    assert [i["name"] for i in parsed["input"]] == list(wire.INPUTS)
    assert [o["name"] for o in parsed["output"]] == list(wire.OUTPUTS)
    assert all(i.get("allow_ragged_batch") for i in parsed["input"] if i["name"] != "COUNTS")


def test_model_py_refuses_a_config_of_another_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _model_module(monkeypatch)
    parsed = _config(MODEL_DIR / "config.pbtxt")
    parsed["parameters"][wire.CONTRACT_PARAMETER] = {"string_value": "1"}
    with pytest.raises(RuntimeError, match="declares input contract '1'.*implement contract '2'"):
        model._check_config(parsed, wire)
    del parsed["parameters"][wire.CONTRACT_PARAMETER]
    with pytest.raises(RuntimeError, match="declares input contract None"):
        model._check_config(parsed, wire)


# ------------------------------------------------------------------- TritonTagger's contract check


class _FakeServer:
    def __init__(self, contract: str | None) -> None:
        parameters = {} if contract is None else {wire.CONTRACT_PARAMETER: {"string_value": contract}}
        self.config = {"config": {"name": "phi_tagger", "parameters": parameters}}
        self.infers = 0

    async def get_model_config(self, *args: object, **kwargs: object) -> dict[str, Any]:
        return self.config

    async def infer(self, *args: object, **kwargs: object) -> object:
        self.infers += 1
        raise ConnectionError("not a real server")

    async def close(self) -> None:
        return None


@pytest.mark.parametrize(
    "contract,words", [(None, "no deid_input_contract (the text-input model, contract 1)"), ("3", "declares contract 3")]
)
def test_the_client_names_both_contracts_and_does_not_retry(contract: str | None, words: str) -> None:
    tagger = TritonTagger("127.0.0.1:1", retries=3, backoff_s=0.01)
    server = _FakeServer(contract)
    tagger._client_ = server
    with pytest.raises(ContractMismatch) as err:
        asyncio.run(tagger.tag(["Seen by Dr. Lee."]))
    assert words in str(err.value) and f"sends contract {wire.CONTRACT_VERSION}" in str(err.value)
    assert server.infers == 0


def test_the_client_checks_the_contract_again_after_a_failure() -> None:
    tagger = TritonTagger("127.0.0.1:1", retries=1, backoff_s=0.01)
    server = _FakeServer(wire.CONTRACT_VERSION)
    tagger._client_ = server
    with pytest.raises(Exception, match="failed after 2 attempts"):
        asyncio.run(tagger.tag(["Seen by Dr. Lee."]))
    assert server.infers == 2
    server.config["config"]["parameters"] = {}  # the model was replaced by an older one meanwhile
    with pytest.raises(ContractMismatch):
        asyncio.run(tagger.tag(["Seen by Dr. Lee."]))


def test_the_client_needs_an_artifact(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        TritonTagger("127.0.0.1:1", model_dir=tmp_path)
    shutil.copy(default_model_dir() / "vocab.json", tmp_path / "vocab.json")
    meta = json.loads((default_model_dir() / "tagger.json").read_text())
    (tmp_path / "tagger.json").write_text(json.dumps({**meta, "format": 1}))
    with pytest.raises(ValueError, match="format 1"):
        TritonTagger("127.0.0.1:1", model_dir=tmp_path)


# ---------------------------------------------------------------------------- cuDNN (no GPU needed)


def test_cudnn_message_names_both_versions_and_the_libraries() -> None:
    lib = "/usr/lib/x86_64-linux-gnu/libcudnn.so.9"
    message = cudnn_mismatch_message((9, 19, 0), (9, 14, 0), [lib])
    assert message is not None
    assert "built for cuDNN 9.19.0" in message and "loaded cuDNN 9.14.0" in message and lib in message
    assert "LD_LIBRARY_PATH" in message
    assert "loaded cuDNN 8.9.7" in str(cudnn_mismatch_message((9, 1, 0), (8, 9, 7)))


def test_cudnn_newer_minor_is_compatible_but_mixed_folders_are_not() -> None:
    torch_dir = "/opt/deid/site-packages/nvidia/cudnn/lib"
    assert cudnn_mismatch_message((9, 19, 0), (9, 19, 0), [f"{torch_dir}/libcudnn.so.9"]) is None
    assert cudnn_mismatch_message((9, 14, 0), (9, 19, 1)) is None
    mixed = cudnn_mismatch_message((9, 19, 0), (9, 19, 0), [f"{torch_dir}/libcudnn.so.9", "/usr/lib/libcudnn_ops.so.9"])
    assert mixed is not None and "several folders" in mixed


def test_loaded_cudnn_libraries_reads_the_memory_map(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    maps.write_text(
        "7f00-7f01 r-xp 00000000 08:01 1 /opt/x/nvidia/cudnn/lib/libcudnn.so.9\n"
        "7f01-7f02 r-xp 00000000 08:01 2 /opt/x/nvidia/cudnn/lib/libcudnn.so.9\n"
        "7f02-7f03 r-xp 00000000 08:01 3 /usr/lib/libc.so.6\n"
    )
    assert loaded_cudnn_libraries(str(maps)) == ["/opt/x/nvidia/cudnn/lib/libcudnn.so.9"]
    assert loaded_cudnn_libraries(str(tmp_path / "absent")) == []
