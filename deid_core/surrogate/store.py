"""The MappingStore seam: remembers which surrogate was chosen for which (scope, HMAC key).

What is stored, and why it holds no PHI
---------------------------------------
* Entry names are ``key_prefix + hex(SHA-256(scope | key))``. Callers pass ``key`` = an HMAC digest
  that already has the scope in its input (see :mod:`deid_core.surrogate.keys`); hashing the scope in
  once more makes two scopes independent even for a caller that reuses raw key bytes, and the name
  still reveals neither the scope (a patient id) nor the value.
* Entry values are whatever the caller proposes. :class:`~deid_core.surrogate.engine.Surrogator`
  stores ``"<key version>:<surrogate>"`` (or ``"<key version>:<offset days>"`` for the date
  offset) and strips the prefix on read.

Key rotation: the HMAC key version is part of the HMAC input, so a new secret/version writes into a
fresh, unrelated key space; the ``<version>:`` value prefix lets an operator find and drop the
entries of a retired version (``SCAN`` + ``GET``), or simply let them expire with ``ttl_s``.

First writer wins: whichever ``get_or_create`` arrives first stores its candidate; every later call
(on any worker) gets that stored value back. Redis does this in one round trip with a Lua script run
by ``EVALSHA`` (redis-py falls back to ``EVAL`` when the server has not cached it yet).
"""

from __future__ import annotations

import hashlib
from typing import Protocol, runtime_checkable

from redis.asyncio import BlockingConnectionPool, Redis


@runtime_checkable
class MappingStore(Protocol):
    async def get_or_create(self, scope: str, key: bytes, candidate: str) -> str:
        """Return the value stored for ``(scope, key)``, storing ``candidate`` first if there is none."""
        ...

    async def close(self) -> None: ...


def entry_name(scope: str, key: bytes) -> str:
    """Hex name of the entry for ``(scope, key)``; reveals neither input."""
    raw_scope = scope.encode("utf-8")
    return hashlib.sha256(len(raw_scope).to_bytes(4, "big") + raw_scope + key).hexdigest()


class InMemoryMappingStore:
    """A dict-backed store for one process (CLI runs, tests).

    ``get_or_create`` never awaits between its read and its write, so it is atomic under asyncio;
    ``dict.setdefault`` is also atomic under the GIL should threads share one instance.
    """

    def __init__(self) -> None:
        self._entries: dict[str, str] = {}

    async def get_or_create(self, scope: str, key: bytes, candidate: str) -> str:
        return self._entries.setdefault(entry_name(scope, key), candidate)

    async def close(self) -> None:
        self._entries.clear()

    def entries(self) -> dict[str, str]:
        """A copy of every stored name and value (for tests and debugging; holds no PHI)."""
        return dict(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


# KEYS[1] = entry name; ARGV[1] = candidate; ARGV[2] = TTL in seconds ("0" = none).
# A hit refreshes the TTL so a patient whose notes keep arriving keeps consistent surrogates.
_GET_OR_CREATE_LUA = """
local ttl = tonumber(ARGV[2])
local current = redis.call('GET', KEYS[1])
if current then
  if ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) end
  return current
end
if ttl > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ttl)
else
  redis.call('SET', KEYS[1], ARGV[1])
end
return ARGV[1]
"""


class RedisMappingStore:
    """A shared store in Redis (redis-py asyncio) for many workers.

    Concurrency is bounded by a ``BlockingConnectionPool``: callers beyond ``max_connections`` wait
    for a free connection instead of opening more (redis-py's default pool would allow 100 and then
    fail).
    """

    def __init__(
        self, client: Redis, pool: BlockingConnectionPool, *, key_prefix: str, ttl_s: int | None
    ) -> None:
        if ttl_s is not None and ttl_s <= 0:
            raise ValueError("ttl_s must be positive or None")
        self._client = client
        self._pool = pool
        self._prefix = key_prefix
        self._ttl = ttl_s or 0
        self._script = client.register_script(_GET_OR_CREATE_LUA)

    @classmethod
    def from_url(
        cls, url: str, *, max_connections: int = 32, key_prefix: str = "deid:", ttl_s: int | None = None
    ) -> RedisMappingStore:
        """Build the store; connections open lazily on first use (no I/O here)."""
        if max_connections < 1:
            raise ValueError("max_connections must be at least 1")
        pool = BlockingConnectionPool.from_url(url, max_connections=max_connections, decode_responses=True)
        return cls(Redis(connection_pool=pool), pool, key_prefix=key_prefix, ttl_s=ttl_s)

    @property
    def key_prefix(self) -> str:
        return self._prefix

    def redis_key(self, scope: str, key: bytes) -> str:
        return self._prefix + entry_name(scope, key)

    async def ping(self) -> None:
        """Raise (a redis-py ``ConnectionError``/``TimeoutError``) unless the server answers."""
        await self._client.ping()

    async def get_or_create(self, scope: str, key: bytes, candidate: str) -> str:
        value = await self._script(keys=[self.redis_key(scope, key)], args=[candidate, self._ttl])
        return str(value)

    async def close(self) -> None:
        await self._client.aclose()
        await self._pool.aclose()
