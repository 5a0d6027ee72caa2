"""The streaming worker end to end: real tansu broker, real worker processes, Redis and Triton where named."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from deid_tools.drivers.stream import StreamSetup, Worker, consume, produce

pytestmark = [pytest.mark.slow, pytest.mark.broker]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def setup(kafka_bootstrap: str) -> StreamSetup:
    return StreamSetup(kafka_bootstrap)


@pytest.fixture
def worker_factory(setup: StreamSetup, tmp_path: Path) -> Iterator[object]:
    workers: list[Worker] = []

    def start() -> Worker:
        w = Worker(setup, tmp_path)
        workers.append(w)
        w.wait_ready()
        return w

    yield start
    for w in workers:
        w.stop()


def _texts_of_fhir(doc: dict[str, object]) -> str:
    """All decoded attachment texts and conclusions of a FHIR document, for leak searches."""
    out: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("contentType", "").startswith("text/plain") and "data" in node:  # type: ignore[union-attr]
                out.append(base64.b64decode(node["data"]).decode("utf-8", "replace"))  # type: ignore[arg-type]
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(doc)
    return "\n".join(out) + json.dumps(doc)


async def test_fhir_bundle_in_fhir_out(setup: StreamSetup, worker_factory, triton_grpc_url: str) -> None:  # type: ignore[no-untyped-def]
    setup.triton_url = triton_grpc_url  # the tagger runs on the real Triton server
    worker_factory()
    raw = (FIXTURES / "fhir" / "bundle.json").read_bytes()
    await produce(setup.bootstrap, setup.topic("notes_in"), [raw], [b"pat-4821"])
    got = await consume(setup.bootstrap, [setup.topic("notes_out")], 1)
    assert len(got) == 1
    doc = json.loads(got[0][2])
    assert doc["resourceType"] == "Bundle"
    everything = _texts_of_fhir(doc)
    for phi in ("Quennell", "Orla", "Maeve", "pat-4821"):
        assert phi not in everything


@pytest.mark.parametrize("sample", ["MDM-T02-02.hl7", "ORU-R01-LRI-CBC.hl7"])
async def test_hl7_in_hl7_out(setup: StreamSetup, worker_factory, sample: str) -> None:  # type: ignore[no-untyped-def]
    from deid_core.message.hl7.codec import Hl7Loader
    from schemas.message import Kind

    worker_factory()
    loader = Hl7Loader()
    phi_kinds = {Kind.NAME, Kind.ADDRESS, Kind.CONTACT, Kind.IDENTIFIER, Kind.DATE}
    # The MDM sample's patient shares its family name with the sending application (MSH-3, not PHI);
    # give it a unique synthetic name so that a search of the whole output is meaningful.
    raw = (FIXTURES / "hl7" / sample).read_bytes().replace(b"|PROSOLV^SAMPLE|", b"|QUIXOTEBEARD^ZEPHYRINE|")
    loaded = loader.load(raw)
    originals = {leaf.value for leaf in loaded.leaves() if leaf.kind in phi_kinds and len(leaf.value) > 3}
    patient = loaded.patient
    assert patient is not None
    name_parts = {part for name in patient.names for part in name.split() if len(part) > 2}
    await produce(setup.bootstrap, setup.topic("notes_in"), [raw])
    got = await consume(setup.bootstrap, [setup.topic("notes_out"), setup.topic("dead_letter")], 1)
    assert len(got) == 1 and got[0][0] == setup.topic("notes_out"), got[0][3] if got else "no output"
    out = got[0][2]
    assert out.lstrip(b"\xef\xbb\xbf").startswith(b"MSH|")
    back = loader.load(out)
    assert back.notes
    # Every structured PHI field was replaced (a value may still occur elsewhere, e.g. an application
    # name in MSH that equals an originator code), and the patient's names occur nowhere.
    assert not originals & {leaf.value for leaf in back.leaves() if leaf.kind in phi_kinds}
    for part in name_parts:
        assert part.encode() not in out


async def test_adt_then_note_enriches_from_the_demographics_table(setup: StreamSetup, worker_factory) -> None:  # type: ignore[no-untyped-def]
    worker_factory()
    adt = {"resourceType": "Patient", "id": "pz-1", "name": [{"family": "Quixotebeard", "given": ["Zephyrine"]}]}
    note = {"id": "note-1", "text": "Zephyrine Quixotebeard returned today; Quixotebeard feels well.", "patient_ref": "pz-1"}
    await produce(setup.bootstrap, setup.topic("notes_in"), [json.dumps(adt).encode(), json.dumps(note).encode()], [b"pz-1", b"pz-1"])
    got = await consume(setup.bootstrap, [setup.topic("notes_out")], 1)
    assert len(got) == 1
    text = json.loads(got[0][2])["text"]
    assert "Quixotebeard" not in text and "Zephyrine" not in text
    assert text.endswith("feels well.")


async def test_malformed_messages_are_dead_lettered_and_valid_ones_still_flow(  # type: ignore[no-untyped-def]
    setup: StreamSetup, worker_factory, tmp_path: Path
) -> None:
    import pyarrow.parquet as pq

    setup.lake_path = str(tmp_path / "lake")
    worker_factory()
    bad = [b"\xff\xfe garbage", b'{"resourceType": "DocumentReference", "id": 5}', b"MSH|^~\\&|truncated"]
    good = json.dumps({"id": "ok-1", "text": "Seen 03/05/2014."}).encode()
    await produce(setup.bootstrap, setup.topic("notes_in"), [*bad, good])
    got = await consume(setup.bootstrap, [setup.topic("dead_letter"), setup.topic("notes_out")], 4)
    dead = [g for g in got if g[0] == setup.topic("dead_letter")]
    out = [g for g in got if g[0] == setup.topic("notes_out")]
    assert len(dead) == 3 and len(out) == 1
    assert all(g[3].get("deid-error-code") for g in dead)
    assert {g[2] for g in dead} == set(bad)
    # The valid note also reached the data lake, as a committed Parquet file (dead letters did not).
    files = list((tmp_path / "lake").glob("date=*/part-*.parquet"))
    assert len(files) == 1
    rows = pq.read_table(files[0]).to_pylist()
    assert len(rows) == 1 and "03/05/2014" not in rows[0]["text"]


async def test_two_workers_share_surrogates_through_redis(kafka_bootstrap: str, redis_url: str, tmp_path: Path) -> None:
    setup = StreamSetup(kafka_bootstrap, store=redis_url)
    secret = tmp_path / "secret"
    secret.write_bytes(b"integration-secret-0123456789abcdef")
    setup.secret_file = str(secret)
    workers = [Worker(setup, tmp_path), Worker(setup, tmp_path)]
    try:
        for w in workers:
            w.wait_ready()
        notes = [
            json.dumps({"id": f"n{i}", "text": "Bartholomew Zanzibar seen.", "patient": {"patient_id": "pq-7", "names": ["Bartholomew Zanzibar"]}}).encode()
            for i in range(12)
        ]
        # Different keys spread the notes over both partitions, so both workers process some of them.
        await produce(setup.bootstrap, setup.topic("notes_in"), notes, [f"k{i}".encode() for i in range(12)])
        got = await consume(setup.bootstrap, [setup.topic("notes_out")], 12)
        texts = {json.loads(g[2])["text"] for g in got}
        assert len(got) == 12
        assert len(texts) == 1 and "Zanzibar" not in texts.pop()
    finally:
        for w in workers:
            w.stop()


async def test_restarted_worker_does_not_reprocess_committed_notes(setup: StreamSetup, tmp_path: Path) -> None:
    first = Worker(setup, tmp_path)
    first.wait_ready()
    batch1 = [json.dumps({"id": f"a{i}", "text": f"Seen 03/0{i + 1}/2014."}).encode() for i in range(5)]
    await produce(setup.bootstrap, setup.topic("notes_in"), batch1)
    assert len(await consume(setup.bootstrap, [setup.topic("notes_out")], 5)) == 5
    first.stop()  # graceful: faust commits acknowledged offsets on shutdown
    second = Worker(setup, tmp_path)
    try:
        second.wait_ready()
        batch2 = [json.dumps({"id": f"b{i}", "text": "Seen 04/01/2015."}).encode() for i in range(3)]
        await produce(setup.bootstrap, setup.topic("notes_in"), batch2)
        got = await consume(setup.bootstrap, [setup.topic("notes_out")], 9, timeout_s=30)
        assert len(got) == 8, "the restarted worker reprocessed committed notes (or lost some)"
    finally:
        second.stop()
