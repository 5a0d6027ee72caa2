"""The HMAC key that turns PHI into mapping keys, and how it is loaded.

A mapping key is ``HMAC-SHA256(secret, version | scope | kind | normalized value)`` with each field
length-prefixed, so no two different inputs share a key and nothing about the input can be learnt
from the key without the secret. The key *version* is part of the HMAC input, so each secret names
its entries in an unrelated key space.

Rotation (docs/security.md#rotating-the-hmac-key): a :class:`KeyRing` holds the current key and the
previous ones still configured. Every lookup names the value under each key of the ring; the store
settles it from the newest entry present and copies it under every key that lacks one (see
:meth:`deid_core.surrogate.store.MappingStore.settle`), so a real value keeps its surrogate across a
rotation and old-key and new-key workers agree while both run.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

logger = logging.getLogger(__name__)

DEV_KEY_VERSION = "dev"
# Deliberately obvious so that nobody mistakes it for a production secret.
_DEV_SECRET = b"deid-stream DEVELOPMENT key - not secret - do not use on real data"
_MIN_SECRET_BYTES = 16
PRODUCTION_MIN_SECRET_BYTES = 32


@dataclass(frozen=True, slots=True)
class HmacKey:
    """A secret plus the version label stored next to every mapping made with it."""

    secret: bytes = field(repr=False)
    version: str = "v1"

    def __post_init__(self) -> None:
        if not self.secret:
            raise ValueError("HMAC secret must not be empty")
        if not self.version or ":" in self.version or not self.version.isprintable():
            raise ValueError("HMAC key version must be a non-empty printable label without ':'")

    def __repr__(self) -> str:
        return f"HmacKey(version={self.version!r}, secret=<{len(self.secret)} bytes>)"

    @property
    def is_development(self) -> bool:
        return self.version == DEV_KEY_VERSION and self.secret == _DEV_SECRET


def _field(value: str) -> bytes:
    raw = value.encode("utf-8")
    return len(raw).to_bytes(4, "big") + raw


def mapping_key(key: HmacKey, scope: str, kind: str, normalized_value: str) -> bytes:
    """The 32-byte HMAC-SHA256 digest that names one mapping; the same inputs always give the same key."""
    message = b"".join(_field(part) for part in (key.version, scope, kind, normalized_value))
    return hmac.new(key.secret, message, hashlib.sha256).digest()


@dataclass(frozen=True, slots=True)
class KeyRing:
    """The current HMAC key plus the previous keys consulted during a rotation (oldest first).

    New values are seeded from the current key; lookups name a value under every key of :attr:`chain`.
    """

    current: HmacKey
    previous: tuple[HmacKey, ...] = ()

    def __post_init__(self) -> None:
        versions = [k.version for k in self.chain]
        if len(set(versions)) != len(versions):
            raise ValueError("every HMAC key of the ring needs its own version label")
        if len({k.secret for k in self.chain}) != len(versions):
            raise ValueError("a previous HMAC key repeats another key's secret")

    @property
    def chain(self) -> tuple[HmacKey, ...]:
        """Every key, oldest first, the current key last."""
        return (*self.previous, self.current)

    def mapping_keys(self, scope: str, kind: str, normalized_value: str) -> tuple[tuple[bytes, str], ...]:
        """``(mapping key, version label)`` of one input under every key, oldest first."""
        return tuple((mapping_key(k, scope, kind, normalized_value), k.version) for k in self.chain)

    def __repr__(self) -> str:
        return f"KeyRing(current={self.current!r}, previous={self.previous!r})"


def development_key() -> HmacKey:
    return HmacKey(secret=_DEV_SECRET, version=DEV_KEY_VERSION)


def load_secret(path: str | Path | None) -> HmacKey:
    """Read the secret from ``path``; ``None`` gives the labelled development key (with a warning).

    The file holds the secret, optionally preceded by a ``version:`` line label such as
    ``v2:<secret>`` on its first line; without a label the version is ``v1``. Surrounding whitespace
    is stripped. Secrets shorter than 16 bytes are refused.
    """
    if path is None:
        logger.warning(
            "no HMAC secret configured: using the built-in DEVELOPMENT key (version %r); "
            "surrogates are predictable to anyone with this source code",
            DEV_KEY_VERSION,
        )
        return development_key()
    raw = Path(path).read_bytes().strip()
    version = "v1"
    head, sep, rest = raw.partition(b":")
    if sep and 0 < len(head) <= 16 and head.isalnum():
        version, raw = head.decode("ascii"), rest.strip()
    if len(raw) < _MIN_SECRET_BYTES:
        raise ValueError(f"HMAC secret in {path} is shorter than {_MIN_SECRET_BYTES} bytes")
    return HmacKey(secret=raw, version=version)


def load_keyring(path: str | Path | None, previous: Sequence[str | Path] = ()) -> KeyRing:
    """The current key from ``path`` (see :func:`load_secret`) and the previous keys, oldest first."""
    return KeyRing(load_secret(path), tuple(load_secret(p) for p in previous))
