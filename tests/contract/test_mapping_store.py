"""One contract for every MappingStore: the in-memory one and Redis (a real server)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable

import pytest
import redis

from deid_core.surrogate import (
    HmacKey,
    InMemoryMappingStore,
    KeyRing,
    MappingStore,
    RedisMappingStore,
    Surrogator,
)
from deid_core.surrogate.store import StoreUnavailable, entry_name
from schemas import EnrichedNote, PatientHeader, PhiType, Span

KEY = HmacKey(secret=b"contract-test-secret-0123456789", version="v1")
NEW_KEY = HmacKey(secret=b"contract-test-rotated-secret-abcdefghij", version="v2")


def _key(n: int) -> bytes:
    return n.to_bytes(32, "big")


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def store_and_dump(
    request: pytest.FixtureRequest,
) -> AsyncIterator[tuple[MappingStore, Callable[[], dict[str, str]]]]:
    """A fresh store plus a function returning everything it holds (names and values)."""
    if request.param == "memory":
        mem = InMemoryMappingStore()
        yield mem, mem.entries
        await mem.close()
        return
    url = request.getfixturevalue("redis_url")
    prefix = f"deidtest:{uuid.uuid4().hex}:"
    store = RedisMappingStore.from_url(url, max_connections=8, key_prefix=prefix)
    await store.ping()
    sync = redis.Redis.from_url(url, decode_responses=True)

    def dump() -> dict[str, str]:
        return {k: sync.get(k) for k in sync.scan_iter(match=prefix + "*", count=1000)}

    try:
        yield store, dump
    finally:
        keys = list(sync.scan_iter(match=prefix + "*", count=1000))
        if keys:
            sync.delete(*keys)
        sync.close()
        await store.close()


@pytest.fixture
def store(store_and_dump: tuple[MappingStore, Callable[[], dict[str, str]]]) -> MappingStore:
    return store_and_dump[0]


async def test_first_writer_wins(store: MappingStore) -> None:
    assert await store.settle("patient:1", [(_key(1), "v1")], "Jones") == "Jones"
    assert await store.settle("patient:1", [(_key(1), "v1")], "Brown") == "Jones"


async def test_same_key_same_value_across_calls(store: MappingStore) -> None:
    values = {await store.settle("s", [(_key(7), "v1")], f"cand{i}") for i in range(10)}
    assert values == {"cand0"}


async def test_scopes_and_keys_are_independent(store: MappingStore) -> None:
    assert await store.settle("patient:a", [(_key(1), "v1")], "A1") == "A1"
    assert await store.settle("patient:b", [(_key(1), "v1")], "B1") == "B1"
    assert await store.settle("patient:a", [(_key(2), "v1")], "A2") == "A2"
    assert await store.settle("patient:a", [(_key(1), "v1")], "x") == "A1"
    assert await store.settle("patient:b", [(_key(1), "v1")], "x") == "B1"
    assert await store.settle("patient:a", [(_key(2), "v1")], "x") == "A2"


async def test_200_concurrent_writers_agree_on_one_value(store: MappingStore) -> None:
    results = await asyncio.gather(
        *(store.settle("p", [(_key(99), "v1")], f"candidate-{i}") for i in range(200))
    )
    assert len(set(results)) == 1
    assert results[0].startswith("candidate-")


async def test_values_round_trip_unicode(store: MappingStore) -> None:
    assert await store.settle("p", [(_key(3), "v1")], "Zoë Ñúñez") == "Zoë Ñúñez"
    assert await store.settle("p", [(_key(3), "v1")], "other") == "Zoë Ñúñez"


async def test_store_holds_no_raw_phi(
    store_and_dump: tuple[MappingStore, Callable[[], dict[str, str]]],
) -> None:
    store, dump = store_and_dump
    planted = {
        "patient_id": "PID-778899",
        "first": "Bartholomew",
        "last": "Quackenbush",
        "mrn": "4455667",
        "phone": "617-555-0142",
        "email": "bquack@example.org",
        "city": "Springfield",
        "hospital": "Saint Elsewhere Hospital",
        "date": "03/05/2014",
    }
    text = (
        f"{planted['first']} {planted['last']} (MRN {planted['mrn']}) seen at {planted['hospital']} on "
        f"{planted['date']}; lives in {planted['city']}; phone {planted['phone']}; {planted['email']}."
    )
    spans = []
    for kind, type_ in [
        ("first", PhiType.PATIENT),
        ("mrn", PhiType.MEDICALRECORD),
        ("hospital", PhiType.HOSPITAL),
        ("date", PhiType.DATE),
        ("city", PhiType.CITY),
        ("phone", PhiType.PHONE),
        ("email", PhiType.EMAIL),
    ]:
        start = text.index(planted[kind])
        end = start + len(planted[kind])
        if kind == "first":
            end = text.index(planted["last"]) + len(planted["last"])
        spans.append(Span(start, end, type_))
    note = EnrichedNote("n1", text, PatientHeader(patient_id=planted["patient_id"]))
    out = await Surrogator(store, KEY).deidentify(note, spans)

    entries = dump()
    assert len(entries) >= len(spans)
    blob = "\n".join(f"{k}\t{v}" for k, v in entries.items()).lower()
    for value in planted.values():
        assert value.lower() not in blob
        assert value not in out.text
    for token in ("bartholomew", "quackenbush", "778899", "elsewhere", "springfield", "bquack"):
        assert token not in blob
    for name, value in entries.items():
        assert value.startswith("v1:"), "every stored value carries the HMAC key version"
        hexpart = name.rsplit(":", 1)[-1]
        assert len(hexpart) == 64 and all(c in "0123456789abcdef" for c in hexpart)
    assert out.patient_pseudonym is not None and out.patient_pseudonym != planted["patient_id"]


# -- settle: one value under a chain of HMAC keys (key rotation) ------------------------------------------

Dump = Callable[[], dict[str, str]]


async def test_settle_stores_the_candidate_under_every_key_with_its_version(
    store_and_dump: tuple[MappingStore, Dump],
) -> None:
    store, dump = store_and_dump
    keys = [(_key(1), "v1"), (_key(2), "v2")]
    assert await store.settle("p", keys, "Jones") == "Jones"
    assert sorted(dump().values()) == ["v1:Jones", "v2:Jones"]
    assert await store.settle("p", keys, "Brown") == "Jones", "first writer wins"
    assert len(dump()) == 2


async def test_settle_adopts_the_old_entry_and_copies_it_forward(
    store_and_dump: tuple[MappingStore, Dump],
) -> None:
    store, dump = store_and_dump
    assert await store.settle("p", [(_key(1), "v1")], "Old") == "Old"
    assert await store.settle("p", [(_key(1), "v1"), (_key(2), "v2")], "New") == "Old"
    assert sorted(dump().values()) == ["v1:Old", "v2:Old"]
    # The new key alone (old key retired) still finds the copied entry.
    assert await store.settle("p", [(_key(2), "v2")], "Other") == "Old"


async def test_settle_prefers_the_newest_entry_when_entries_disagree(
    store_and_dump: tuple[MappingStore, Dump],
) -> None:
    """Retiring the old key: a new-key-only worker wrote v2 for a value whose v1 entry was never carried
    forward; workers that still hold both keys must answer as the new-key-only workers do."""
    store, dump = store_and_dump
    await store.settle("p", [(_key(1), "v1")], "Older")
    assert await store.settle("p", [(_key(2), "v2")], "Newer") == "Newer"
    assert await store.settle("p", [(_key(1), "v1"), (_key(2), "v2")], "x") == "Newer"
    assert sorted(dump().values()) == ["v1:Older", "v2:Newer"], "present entries are never overwritten"
    assert await store.settle("p", [(_key(0), "v0"), (_key(1), "v1")], "y") == "Older"


async def test_settle_payload_keeps_colons_and_unicode(store: MappingStore) -> None:
    keys = [(_key(4), "v1"), (_key(5), "v2")]
    assert await store.settle("p", keys, "Zoë: 10:30") == "Zoë: 10:30"
    assert await store.settle("p", [(_key(5), "v2")], "x") == "Zoë: 10:30"


async def test_settle_is_scoped(store: MappingStore) -> None:
    assert await store.settle("patient:a", [(_key(1), "v1")], "A") == "A"
    assert await store.settle("patient:b", [(_key(1), "v1")], "B") == "B"


async def test_settle_refuses_bad_version_labels(store: MappingStore) -> None:
    with pytest.raises(ValueError):
        await store.settle("p", [], "x")
    with pytest.raises(ValueError):
        await store.settle("p", [(_key(1), "v:1")], "x")


async def test_200_concurrent_settles_over_mixed_chains_agree_on_one_value(
    store_and_dump: tuple[MappingStore, Dump],
) -> None:
    store, dump = store_and_dump
    old_only = [(_key(10), "v1")]
    both = [(_key(10), "v1"), (_key(11), "v2")]
    new_only = [(_key(11), "v2")]
    chains = [old_only, both, both, new_only]
    results = await asyncio.gather(
        *(store.settle("p", chains[i % 4], f"candidate-{i}") for i in range(200))
    )
    assert len(set(results)) == 1
    assert sorted(dump().values()) == [f"v1:{results[0]}", f"v2:{results[0]}"]


async def test_rotation_keeps_every_surrogate_and_labels_each_entry(
    store_and_dump: tuple[MappingStore, Dump],
) -> None:
    store, dump = store_and_dump
    text = "Bartholomew Quackenbush (MRN 4455667) seen at Saint Elsewhere Hospital on 03/05/2014, phone 617-555-0142."
    spans = [
        Span(0, 23, PhiType.PATIENT),
        Span(text.index("4455667"), text.index("4455667") + 7, PhiType.MEDICALRECORD),
        Span(text.index("Saint"), text.index(" on "), PhiType.HOSPITAL),
        Span(text.index("03/05"), text.index("03/05") + 10, PhiType.DATE),
        Span(text.index("617"), text.index("617") + 12, PhiType.PHONE),
    ]
    note = EnrichedNote("n1", text, PatientHeader(patient_id="PID-778899"))
    before = await Surrogator(store, KEY).deidentify(note, spans)
    entries_before = dump()
    assert entries_before and all(v.startswith("v1:") for v in entries_before.values())

    rotated = Surrogator(store, KeyRing(NEW_KEY, (KEY,)))
    after = await rotated.deidentify(note, spans)
    assert after.text == before.text, "a rotation must not change a patient's surrogates"
    assert after.patient_pseudonym == before.patient_pseudonym

    # Once every value was touched under both keys, the new key alone gives the same answers.
    alone = await Surrogator(store, NEW_KEY).deidentify(note, spans)
    assert alone.text == before.text and alone.patient_pseudonym == before.patient_pseudonym

    # A value first seen after the rotation is stored under both keys, each with its own label.
    names_before = set(dump())
    fresh = await rotated.surrogate_for("patient:PID-778899", PhiType.CITY, "Springfield")
    added = {k: v for k, v in dump().items() if k not in names_before}
    assert sorted(added.values()) == [f"v1:{fresh}", f"v2:{fresh}"]
    assert await Surrogator(store, KEY).surrogate_for("patient:PID-778899", PhiType.CITY, "Springfield") == fresh

    blob = "\n".join(f"{k}\t{v}" for k, v in dump().items()).lower()
    for raw in ("bartholomew", "quackenbush", "4455667", "elsewhere", "03/05/2014", "617-555-0142", "778899",
                "springfield"):
        assert raw not in blob
    assert all(v.split(":", 1)[0] in ("v1", "v2") for v in dump().values())


async def test_old_and_new_workers_interleaved_agree(store: MappingStore) -> None:
    """A rolling restart: workers with only the old key and workers with new + old keys, in any order."""
    old_worker = Surrogator(store, KEY)
    new_worker = Surrogator(store, KeyRing(NEW_KEY, (KEY,)))
    values = [f"Patient{i} Name{i}" for i in range(30)]
    seen: dict[tuple[str, str], str] = {}
    for i, value in enumerate(values):
        scope = f"patient:{i % 5}"
        first, second = (old_worker, new_worker) if i % 2 else (new_worker, old_worker)
        a = await first.surrogate_for(scope, PhiType.PATIENT, value)
        b = await second.surrogate_for(scope, PhiType.PATIENT, value)
        assert a == b
        seen[(scope, value)] = a
    # Concurrent mix, then the new key alone (the old one retired): still the same surrogates.
    both = await asyncio.gather(
        *(w.surrogate_for(s, PhiType.PATIENT, v) for (s, v) in seen for w in (old_worker, new_worker))
    )
    assert both == [x for x in seen.values() for _ in range(2)]
    retired = Surrogator(store, NEW_KEY)
    assert [await retired.surrogate_for(s, PhiType.PATIENT, v) for (s, v) in seen] == list(seen.values())
    # Pseudonyms and date offsets too, and no two patients share a pseudonym.
    ids = [f"MRN{i:05d}" for i in range(20)]
    mixed = await asyncio.gather(*((old_worker if i % 2 else new_worker).pseudonym(p) for i, p in enumerate(ids)))
    assert len(set(mixed)) == len(ids)
    assert [await new_worker.pseudonym(p) for p in ids] == mixed
    assert [await old_worker.pseudonym(p) for p in ids] == mixed
    assert await old_worker.date_offset_days("patient:9") == await new_worker.date_offset_days("patient:9")


async def test_retiring_the_old_key_keeps_workers_in_agreement(store: MappingStore) -> None:
    """The restart that drops the old key: new-key-only and old+new workers run side by side. A value
    touched during the overlap keeps its surrogate; one never carried forward gets one new surrogate
    that both kinds of worker agree on."""
    old_worker = Surrogator(store, KEY)
    touched = await old_worker.surrogate_for("patient:1", PhiType.PATIENT, "Ada Quill")
    await old_worker.surrogate_for("patient:1", PhiType.PATIENT, "Bo Wren")  # never carried forward
    overlap = Surrogator(store, KeyRing(NEW_KEY, (KEY,)))
    assert await overlap.surrogate_for("patient:1", PhiType.PATIENT, "Ada Quill") == touched
    retired = Surrogator(store, NEW_KEY)
    assert await retired.surrogate_for("patient:1", PhiType.PATIENT, "Ada Quill") == touched
    fresh = await retired.surrogate_for("patient:1", PhiType.PATIENT, "Bo Wren")
    assert await overlap.surrogate_for("patient:1", PhiType.PATIENT, "Bo Wren") == fresh


@pytest.mark.redis
async def test_redis_key_names_are_prefix_plus_hex_and_ttl_applies(redis_url: str) -> None:
    prefix = f"deidtest:{uuid.uuid4().hex}:"
    store = RedisMappingStore.from_url(redis_url, key_prefix=prefix, ttl_s=120)
    sync = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        await store.settle("patient:42", [(_key(5), "v1")], "Jones")
        name = prefix + entry_name("patient:42", _key(5))
        assert sync.get(name) == "v1:Jones"
        assert 0 < sync.ttl(name) <= 120
        sync.expire(name, 30)
        await store.settle("patient:42", [(_key(5), "v1")], "Other")
        assert sync.ttl(name) > 30, "a hit refreshes the TTL"
        assert "patient" not in name and len(name.removeprefix(prefix)) == 64
        # settle: new entries get the TTL, a hit refreshes it on every present entry.
        keys = [(_key(6), "v1"), (_key(7), "v2")]
        await store.settle("patient:42", keys[:1], "Old")
        old_name, new_name = (prefix + entry_name("patient:42", k) for k, _ in keys)
        sync.expire(old_name, 30)
        assert await store.settle("patient:42", keys, "New") == "Old"
        assert sync.ttl(old_name) > 30 and 0 < sync.ttl(new_name) <= 120
    finally:
        for k in sync.scan_iter(match=prefix + "*"):
            sync.delete(k)
        sync.close()
        await store.close()


@pytest.mark.redis
async def test_redis_pool_bounds_connections(redis_url: str) -> None:
    prefix = f"deidtest:{uuid.uuid4().hex}:"
    store = RedisMappingStore.from_url(redis_url, key_prefix=prefix, max_connections=4)
    sync = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        before = len(sync.client_list())
        results = await asyncio.gather(*(store.settle("s", [(_key(i % 10), "v1")], f"c{i}") for i in range(300)))
        assert len(set(results)) == 10
        assert len(sync.client_list()) - before <= 4
    finally:
        for k in sync.scan_iter(match=prefix + "*"):
            sync.delete(k)
        sync.close()
        await store.close()


async def test_redis_fails_with_its_own_error_on_unreachable_server() -> None:
    store = RedisMappingStore.from_url("redis://127.0.0.1:1/0")
    with pytest.raises(StoreUnavailable, match="^ConnectionError$"):
        await store.ping()
    with pytest.raises(StoreUnavailable):
        await store.settle("s", [(_key(1), "v1")], "c")
    await store.close()


async def test_in_memory_store_pings() -> None:
    await InMemoryMappingStore().ping()


def test_in_memory_store_satisfies_protocol() -> None:
    assert isinstance(InMemoryMappingStore(), MappingStore)
