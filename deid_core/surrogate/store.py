"""The MappingStore seam: remembers which surrogate was chosen for which (scope, HMAC key).

What is stored, and why it holds no PHI
---------------------------------------
* Entry names are ``key_prefix + hex(SHA-256(scope | key))``. Callers pass ``key`` = an HMAC digest
  that already has the scope in its input (see :mod:`deid_core.surrogate.keys`); hashing the scope in
  once more makes two scopes independent even for a caller that reuses raw key bytes, and the name
  still reveals neither the scope (a patient id) nor the value.
* :meth:`MappingStore.settle` (what :class:`~deid_core.surrogate.engine.Surrogator` uses) stores
  ``"<key version>:<payload>"`` under each key of a key ring, where the payload is a surrogate (or a
  date offset in days, or a pseudonym owner's digest).

Key rotation (docs/security.md#rotating-the-hmac-key): ``settle`` receives the entry of one real
value under every configured HMAC key, oldest first. It takes the payload of the newest entry present
(else the candidate) and writes it under every key that has no entry yet, each labelled with that
key's version. So a value keeps its surrogate when a new key is added (it is adopted from the old
entry), workers with only the old key and workers with old + new keys agree during a rolling restart,
and once every live value has been touched the old key can be dropped. Entries of one value can only
disagree when a worker without the old key wrote the new one while the old one existed (the restart
that retires the old key); newest-first then agrees with those workers, who are the future. The ``<version>:`` label lets
an operator find and drop the entries of a retired version (``SCAN`` + ``GET``), or let them expire
with ``ttl_s``.

First writer wins: whichever call arrives first stores its candidate; every later call (on any worker)
gets that stored value back. Redis runs each settle as one Lua script (``EVALSHA``), so a settle is
atomic across all the keys of the ring. The settles a note's spans start together (the Surrogator
gathers them) are sent together: ``RedisMappingStore`` queues the calls of the same moment (two turns
of the event loop) and sends them as one pipeline, one round trip instead of one per value (a note has about a hundred);
each script in it is still atomic on its own, so the semantics are those of separate calls. The entries of one value live under unrelated names, so this
needs a single Redis (or a primary with replicas), not Redis Cluster.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:  # redis-py is imported when a Redis store is built: `deid detect` never needs it
    from redis.asyncio import BlockingConnectionPool, Redis

VersionedKey = tuple[bytes, str]
"""A mapping key (an HMAC digest) and the version label of the HMAC key that made it."""


class StoreUnavailable(RuntimeError):
    """The store cannot answer now (down, unreachable, timed out): retry later, publish nothing.

    The message names the underlying error type only, never keys or values.
    """


@runtime_checkable
class MappingStore(Protocol):
    async def settle(self, scope: str, keys: Sequence[VersionedKey], candidate: str) -> str:
        """Settle one value named under several HMAC keys (``(key, version)`` pairs, oldest first).

        Atomically: the payload is that of the newest entry present (the text after its first ``:``),
        else ``candidate``; every key without an entry gets ``"<its version>:<payload>"``. Returns the
        payload.
        """
        ...

    async def ping(self) -> None:
        """Return when the store answers; raise ``StoreUnavailable`` otherwise."""
        ...

    async def close(self) -> None: ...


def _check_keys(keys: Sequence[VersionedKey]) -> None:
    if not keys:
        raise ValueError("settle needs at least one key")
    for _, version in keys:
        if not version or ":" in version:
            raise ValueError("key version labels must be non-empty and contain no ':'")


def payload_of(value: str) -> str:
    """The payload of a stored ``"<version>:<payload>"`` value."""
    version, sep, payload = value.partition(":")
    return payload if sep else version


def entry_name(scope: str, key: bytes) -> str:
    """Hex name of the entry for ``(scope, key)``; reveals neither input."""
    raw_scope = scope.encode("utf-8")
    return hashlib.sha256(len(raw_scope).to_bytes(4, "big") + raw_scope + key).hexdigest()


class InMemoryMappingStore:
    """A dict-backed store for one process (CLI runs, tests).

    ``settle`` never awaits between its reads and its writes, so it is atomic under asyncio.
    """

    def __init__(self) -> None:
        self._entries: dict[str, str] = {}

    async def settle(self, scope: str, keys: Sequence[VersionedKey], candidate: str) -> str:
        _check_keys(keys)
        names = [entry_name(scope, key) for key, _ in keys]
        found = (self._entries.get(name) for name in reversed(names))
        payload = next((payload_of(v) for v in found if v is not None), candidate)
        for name, (_, version) in zip(names, keys, strict=True):
            self._entries.setdefault(name, f"{version}:{payload}")
        return payload

    async def ping(self) -> None:
        return None  # a dict is always there

    async def close(self) -> None:
        self._entries.clear()

    def entries(self) -> dict[str, str]:
        """A copy of every stored name and value (for tests and debugging; holds no PHI)."""
        return dict(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


# KEYS = the entries of one value under each HMAC key, oldest first; ARGV[1] = TTL ("0" = none),
# ARGV[2] = candidate payload, ARGV[2 + i] = the version label of KEYS[i]. Reads newest first; writes
# only after every read.
_SETTLE_LUA = """
local ttl = tonumber(ARGV[1])
local payload = false
local present = {}
for i = #KEYS, 1, -1 do
  local value = redis.call('GET', KEYS[i])
  if value then
    present[i] = true
    if not payload then
      local sep = string.find(value, ':', 1, true)
      if sep then payload = string.sub(value, sep + 1) else payload = value end
    end
  end
end
if not payload then payload = ARGV[2] end
for i = 1, #KEYS do
  if present[i] then
    if ttl > 0 then redis.call('EXPIRE', KEYS[i], ttl) end
  else
    local value = ARGV[2 + i] .. ':' .. payload
    if ttl > 0 then redis.call('SET', KEYS[i], value, 'EX', ttl) else redis.call('SET', KEYS[i], value) end
  end
end
return payload
"""


@dataclass(frozen=True, slots=True)
class _QueuedSettle:
    names: list[str]
    args: list[object]
    result: asyncio.Future[str]


# Event-loop turns a flush waits for more settles to queue: nested gathers (a name's pieces inside a
# note's spans) start theirs a turn or two after the first.
_COALESCE_TURNS = 2
_MAX_PIPELINE = 1024


class RedisMappingStore:
    """A shared store in Redis (redis-py asyncio) for many workers.

    Concurrency is bounded by a ``BlockingConnectionPool``: callers beyond ``max_connections`` wait
    for a free connection instead of opening more (redis-py's default pool would allow 100 and then
    fail). Settles started in the same few turns of the event loop share one pipelined round trip.
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
        self._settle_script = client.register_script(_SETTLE_LUA)
        from redis.exceptions import RedisError

        # redis-py's ConnectionError/TimeoutError are RedisErrors; a socket error may come through as is.
        self._errors: tuple[type[BaseException], ...] = (RedisError, OSError)
        self._queue: list[_QueuedSettle] = []
        self._flushes: set[asyncio.Task[None]] = set()

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        max_connections: int = 32,
        key_prefix: str = "deid:",
        ttl_s: int | None = None,
        username: str | None = None,
        password: str | None = None,
        ssl_ca_certs: str | None = None,
        ssl_certfile: str | None = None,
        ssl_keyfile: str | None = None,
        socket_timeout_s: float = 5.0,
    ) -> RedisMappingStore:
        """Build the store; connections open lazily on first use (no I/O here).

        ``username``/``password`` authenticate (Redis ACL user, or ``requirepass`` without a username).
        A ``rediss://`` URL connects with TLS, verifying the server against ``ssl_ca_certs`` (default:
        the system CAs); ``ssl_certfile``/``ssl_keyfile`` present a client certificate.
        ``socket_timeout_s`` bounds connecting and every call: a frozen or partitioned server must surface
        as an error (the worker then pauses and retries) rather than hang a batch forever.
        """
        if max_connections < 1:
            raise ValueError("max_connections must be at least 1")
        tls = url.startswith("rediss://")
        if not tls and (ssl_ca_certs or ssl_certfile or ssl_keyfile):
            raise ValueError("Redis TLS files need a rediss:// URL")
        options: dict[str, object] = {}
        if username is not None:
            options["username"] = username
        if password is not None:
            options["password"] = password
        if tls:
            options.update(ssl_cert_reqs="required", ssl_check_hostname=True)
            options.update(
                {k: v for k, v in (("ssl_ca_certs", ssl_ca_certs), ("ssl_certfile", ssl_certfile),
                                   ("ssl_keyfile", ssl_keyfile)) if v is not None}
            )
        if socket_timeout_s <= 0:
            raise ValueError("socket_timeout_s must be positive")
        options.update(socket_timeout=socket_timeout_s, socket_connect_timeout=socket_timeout_s)
        from redis.asyncio import BlockingConnectionPool, Redis

        pool = BlockingConnectionPool.from_url(
            url, max_connections=max_connections, decode_responses=True, **options  # type: ignore[arg-type]
        )
        return cls(Redis(connection_pool=pool), pool, key_prefix=key_prefix, ttl_s=ttl_s)

    @property
    def key_prefix(self) -> str:
        return self._prefix

    def redis_key(self, scope: str, key: bytes) -> str:
        return self._prefix + entry_name(scope, key)

    async def ping(self) -> None:
        """Raise ``StoreUnavailable`` unless the server answers."""
        try:
            await self._client.ping()
        except self._errors as exc:
            raise StoreUnavailable(type(exc).__name__) from None

    async def settle(self, scope: str, keys: Sequence[VersionedKey], candidate: str) -> str:
        _check_keys(keys)
        names = [self.redis_key(scope, key) for key, _ in keys]
        loop = asyncio.get_running_loop()
        queued = _QueuedSettle(names, [self._ttl, candidate, *(v for _, v in keys)], loop.create_future())
        self._queue.append(queued)
        if len(self._queue) == 1:
            # The first of a turn's settles starts the flush that sends them all.
            task = loop.create_task(self._flush())
            self._flushes.add(task)
            task.add_done_callback(self._flushes.discard)
        return await queued.result

    async def _flush(self) -> None:
        for _ in range(_COALESCE_TURNS):
            await asyncio.sleep(0)
        batch, self._queue = self._queue, []
        try:
            for start in range(0, len(batch), _MAX_PIPELINE):
                await self._send([q for q in batch[start : start + _MAX_PIPELINE] if not q.result.done()])
        except BaseException as exc:  # cancelled: no caller, in this chunk or a later one, may wait forever
            for q in batch:
                if not q.result.done():
                    q.result.set_exception(StoreUnavailable(type(exc).__name__))
            raise

    async def _send(self, batch: Sequence[_QueuedSettle]) -> None:
        if not batch:
            return
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                for q in batch:
                    await self._settle_script(keys=q.names, args=q.args, client=pipe)
                values = await pipe.execute(raise_on_error=False)
        except self._errors as exc:
            values = [exc] * len(batch)
        for q, value in zip(batch, values, strict=True):
            if q.result.done():
                continue  # its caller was cancelled
            if isinstance(value, BaseException):
                # The error type only: a script error's message could quote arguments.
                q.result.set_exception(StoreUnavailable(type(value).__name__))
            else:
                q.result.set_result(str(value))

    async def close(self) -> None:
        if self._flushes:
            await asyncio.gather(*self._flushes, return_exceptions=True)
        await self._client.aclose()
        await self._pool.aclose()
