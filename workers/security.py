"""Security configuration: secrets from files, production checks, Kafka SASL/SSL and Redis AUTH/TLS options.

Every function here reads secrets from the files the settings name and never puts a secret in an error
message, a log line or a ``repr``; messages name the setting (``DEID_...``) and at most a file path.
See docs/security.md.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from deid_core.surrogate.keys import (
    DEV_KEY_VERSION,
    PRODUCTION_MIN_SECRET_BYTES,
    HmacKey,
    KeyRing,
    development_key,
    load_secret,
)
from workers.settings import WorkerSettings


class ConfigurationError(ValueError):
    """A setting is missing or wrong; the message names the setting and is safe to print."""


def settings_error_message(exc: ValidationError) -> str:
    """One line naming each offending setting, without the rejected values."""
    parts = []
    for error in exc.errors(include_input=False, include_url=False):
        message = str(error["msg"]).removeprefix("Value error, ")
        loc = "_".join(str(p) for p in error["loc"])
        parts.append(f"DEID_{loc.upper()}: {message}" if loc else message)
    return "invalid settings: " + "; ".join(parts)


def read_secret_file(path: str | Path, setting: str) -> str:
    """The first line of a secret file, stripped; refuses an unreadable or empty file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigurationError(f"{setting}: cannot read {path}: {exc.strerror or type(exc).__name__}") from None
    except UnicodeDecodeError:
        raise ConfigurationError(f"{setting}: {path} is not UTF-8 text") from None
    lines = text.strip().splitlines()
    if not lines or not lines[0].strip():
        raise ConfigurationError(f"{setting}: {path} is empty")
    return lines[0].strip()


# ------------------------------------------------------------------------------------------- HMAC keys


def _load_key(path: str, setting: str) -> HmacKey:
    try:
        return load_secret(path)
    except OSError as exc:
        raise ConfigurationError(f"{setting}: cannot read {path}: {exc.strerror or type(exc).__name__}") from None
    except ValueError as exc:  # load_secret's messages name the path and a length, never the secret
        raise ConfigurationError(f"{setting}: {exc}") from None


def check_production_keys(ring: KeyRing) -> None:
    """Refuse keys unfit for real data: the development key, a 'dev' label, a short current secret."""
    dev = development_key()
    for key, setting in [(k, "DEID_PREVIOUS_SECRET_FILES") for k in ring.previous] + [
        (ring.current, "DEID_SECRET_FILE")
    ]:
        if key.secret == dev.secret:
            raise ConfigurationError(f"production mode: {setting} holds the built-in development key")
        if key.version == DEV_KEY_VERSION:
            raise ConfigurationError(f"production mode: {setting} has the version label {DEV_KEY_VERSION!r}")
    # Only the current key: an older, shorter key must stay usable so that it can be rotated away.
    if len(ring.current.secret) < PRODUCTION_MIN_SECRET_BYTES:
        raise ConfigurationError(
            f"production mode: the secret in DEID_SECRET_FILE is {len(ring.current.secret)} bytes; "
            f"at least {PRODUCTION_MIN_SECRET_BYTES} are required"
        )


def load_keyring(settings: WorkerSettings) -> KeyRing:
    """The HMAC key ring of ``DEID_SECRET_FILE`` and ``DEID_PREVIOUS_SECRET_FILES``, checked for production.

    Without ``DEID_SECRET_FILE`` the development key is used (with a warning), except in production mode.
    """
    if settings.secret_file is None:
        if settings.production:
            raise ConfigurationError("production mode: DEID_SECRET_FILE is not set (the development key is refused)")
        if settings.previous_secret_files:
            raise ConfigurationError("DEID_PREVIOUS_SECRET_FILES needs DEID_SECRET_FILE (the new current key)")
        return KeyRing(load_secret(None))
    current = _load_key(settings.secret_file, "DEID_SECRET_FILE")
    previous = tuple(_load_key(p, "DEID_PREVIOUS_SECRET_FILES") for p in settings.previous_secret_files)
    try:
        ring = KeyRing(current, previous)
    except ValueError as exc:
        raise ConfigurationError(f"DEID_SECRET_FILE / DEID_PREVIOUS_SECRET_FILES: {exc}") from None
    if settings.production:
        check_production_keys(ring)
    return ring


# ----------------------------------------------------------------------------------------------- Redis


@dataclass(frozen=True, slots=True)
class RedisOptions:
    """Keyword arguments for :meth:`RedisMappingStore.from_url`; the password never shows in ``repr``."""

    username: str | None = None
    password: str | None = field(default=None, repr=False)
    ssl_ca_certs: str | None = None
    ssl_certfile: str | None = None
    ssl_keyfile: str | None = None

    def as_kwargs(self) -> dict[str, str]:
        return {
            name: value
            for name in ("username", "password", "ssl_ca_certs", "ssl_certfile", "ssl_keyfile")
            if (value := getattr(self, name)) is not None
        }


def redis_options(settings: WorkerSettings) -> RedisOptions:
    """Redis AUTH (password read from its file now) and TLS files, from the settings."""
    password = (
        read_secret_file(settings.redis_password_file, "DEID_REDIS_PASSWORD_FILE")
        if settings.redis_password_file
        else None
    )

    def path(p: Path | None) -> str | None:
        return str(p) if p is not None else None

    return RedisOptions(
        username=settings.redis_username,
        password=password,
        ssl_ca_certs=path(settings.redis_ssl_cafile),
        ssl_certfile=path(settings.redis_ssl_certfile),
        ssl_keyfile=path(settings.redis_ssl_keyfile),
    )


# ----------------------------------------------------------------------------------------------- Kafka


def kafka_ssl_context(settings: WorkerSettings) -> ssl.SSLContext | None:
    """The TLS context for SSL / SASL_SSL (hostname checked; system CAs unless DEID_KAFKA_SSL_CAFILE)."""
    if settings.kafka_security_protocol not in ("SSL", "SASL_SSL"):
        return None
    from aiokafka.helpers import create_ssl_context

    try:
        return create_ssl_context(
            cafile=settings.kafka_ssl_cafile,
            certfile=settings.kafka_ssl_certfile,
            keyfile=settings.kafka_ssl_keyfile,
        )
    except (OSError, ssl.SSLError) as exc:
        raise ConfigurationError(f"DEID_KAFKA_SSL_*: cannot load the TLS files ({type(exc).__name__})") from None


def _sasl_password(settings: WorkerSettings) -> str:
    assert settings.kafka_sasl_password_file is not None  # the settings validator guarantees it
    return read_secret_file(settings.kafka_sasl_password_file, "DEID_KAFKA_SASL_PASSWORD_FILE")


def faust_broker_options(settings: WorkerSettings) -> dict[str, Any]:
    """``faust.App(...)`` keyword arguments for the broker: ``broker`` and, unless PLAINTEXT, ``broker_credentials``."""
    import faust

    options: dict[str, Any] = {"broker": f"kafka://{settings.kafka_bootstrap}"}
    protocol = settings.kafka_security_protocol
    context = kafka_ssl_context(settings)
    if protocol == "SSL":
        options["broker_credentials"] = faust.SSLCredentials(context)
    elif protocol in ("SASL_PLAINTEXT", "SASL_SSL"):
        # faust picks SASL_SSL exactly when an ssl_context is given.
        options["broker_credentials"] = faust.SASLCredentials(
            username=settings.kafka_sasl_username,
            password=_sasl_password(settings),
            ssl_context=context,
            mechanism=settings.kafka_sasl_mechanism,
        )
    return options


def aiokafka_client_options(settings: WorkerSettings) -> dict[str, Any]:
    """Security keyword arguments for a plain aiokafka client (add ``bootstrap_servers`` yourself)."""
    protocol = settings.kafka_security_protocol
    options: dict[str, Any] = {"security_protocol": protocol}
    context = kafka_ssl_context(settings)
    if context is not None:
        options["ssl_context"] = context
    if protocol.startswith("SASL_"):
        options.update(
            sasl_mechanism=settings.kafka_sasl_mechanism,
            sasl_plain_username=settings.kafka_sasl_username,
            sasl_plain_password=_sasl_password(settings),
        )
    return options
