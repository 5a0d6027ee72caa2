"""The HMAC key that turns PHI into mapping keys, and how it is loaded.

A mapping key is ``HMAC-SHA256(secret, version | scope | kind | normalized value)`` with each field
length-prefixed, so no two different inputs share a key and nothing about the input can be learnt
from the key without the secret. The key *version* is part of the HMAC input: rotating to a new
secret (and a new version) starts a fresh, unrelated key space instead of silently mixing mappings.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from dataclasses import dataclass, field
from pathlib import Path

logger = logging.getLogger(__name__)

DEV_KEY_VERSION = "dev"
# Deliberately obvious so that nobody mistakes it for a production secret.
_DEV_SECRET = b"deid-stream DEVELOPMENT key - not secret - do not use on real data"
_MIN_SECRET_BYTES = 16


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
