"""One contract for every MappingStore: the in-memory one and Redis (a real server)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable

import pytest
import redis

from deid_core.surrogate import HmacKey, InMemoryMappingStore, MappingStore, RedisMappingStore, Surrogator
from deid_core.surrogate.store import entry_name
from schemas import EnrichedNote, PatientHeader, PhiType, Span

KEY = HmacKey(secret=b"contract-test-secret-0123456789", version="v1")


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
    assert await store.get_or_create("patient:1", _key(1), "Jones") == "Jones"
    assert await store.get_or_create("patient:1", _key(1), "Brown") == "Jones"


async def test_same_key_same_value_across_calls(store: MappingStore) -> None:
    values = {await store.get_or_create("s", _key(7), f"cand{i}") for i in range(10)}
    assert values == {"cand0"}


async def test_scopes_and_keys_are_independent(store: MappingStore) -> None:
    assert await store.get_or_create("patient:a", _key(1), "A1") == "A1"
    assert await store.get_or_create("patient:b", _key(1), "B1") == "B1"
    assert await store.get_or_create("patient:a", _key(2), "A2") == "A2"
    assert await store.get_or_create("patient:a", _key(1), "x") == "A1"
    assert await store.get_or_create("patient:b", _key(1), "x") == "B1"
    assert await store.get_or_create("patient:a", _key(2), "x") == "A2"


async def test_200_concurrent_writers_agree_on_one_value(store: MappingStore) -> None:
    results = await asyncio.gather(
        *(store.get_or_create("p", _key(99), f"candidate-{i}") for i in range(200))
    )
    assert len(set(results)) == 1
    assert results[0].startswith("candidate-")


async def test_values_round_trip_unicode(store: MappingStore) -> None:
    assert await store.get_or_create("p", _key(3), "Zoë Ñúñez") == "Zoë Ñúñez"
    assert await store.get_or_create("p", _key(3), "other") == "Zoë Ñúñez"


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


@pytest.mark.redis
async def test_redis_key_names_are_prefix_plus_hex_and_ttl_applies(redis_url: str) -> None:
    prefix = f"deidtest:{uuid.uuid4().hex}:"
    store = RedisMappingStore.from_url(redis_url, key_prefix=prefix, ttl_s=120)
    sync = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        await store.get_or_create("patient:42", _key(5), "Jones")
        name = prefix + entry_name("patient:42", _key(5))
        assert sync.get(name) == "Jones"
        assert 0 < sync.ttl(name) <= 120
        sync.expire(name, 30)
        await store.get_or_create("patient:42", _key(5), "Other")
        assert sync.ttl(name) > 30, "a hit refreshes the TTL"
        assert "patient" not in name and len(name.removeprefix(prefix)) == 64
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
        results = await asyncio.gather(*(store.get_or_create("s", _key(i % 10), f"c{i}") for i in range(300)))
        assert len(set(results)) == 10
        assert len(sync.client_list()) - before <= 4
    finally:
        for k in sync.scan_iter(match=prefix + "*"):
            sync.delete(k)
        sync.close()
        await store.close()


async def test_redis_ping_fails_on_unreachable_server() -> None:
    store = RedisMappingStore.from_url("redis://127.0.0.1:1/0")
    with pytest.raises(redis.exceptions.ConnectionError):
        await store.ping()
    await store.close()


def test_in_memory_store_satisfies_protocol() -> None:
    assert isinstance(InMemoryMappingStore(), MappingStore)
