"""Settings of ``deid serve``: the worker's settings plus the HTTP service's own (``DEID_SERVE_*``, ``DEID_MODE``).

The service is built from the same composition root as the worker (store with Redis AUTH/TLS, key ring,
tagger, ``DEID_POLICY``), so it takes every ``WorkerSettings`` field; what is added here is how clients
authenticate and how much they may send. Fail closed: without a bearer token or client certificates the
service refuses to start, unless ``DEID_MODE=development`` (and then only on a loopback address).
"""

from __future__ import annotations

import hmac
import ipaddress
import ssl
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field, FilePath, field_validator, model_validator

from workers.security import ConfigurationError, read_secret_file
from workers.settings import WorkerSettings

MIN_TOKEN_CHARS = 16


class ServeSettings(WorkerSettings):
    mode: Literal["production", "development"] = Field(
        default="production",
        description="DEID_MODE: 'development' allows a server without authentication, on loopback only",
    )
    serve_token_file: FilePath | None = Field(
        default=None, description="file whose first line is the bearer token clients must send"
    )
    serve_tls_certfile: FilePath | None = Field(default=None, description="server certificate (HTTPS)")
    serve_tls_keyfile: FilePath | None = Field(default=None, description="server private key")
    serve_tls_ca_file: FilePath | None = Field(
        default=None, description="CA bundle of client certificates; set = mutual TLS, a client certificate is required"
    )
    serve_max_body_bytes: int = Field(default=1_000_000, ge=1, description="larger request bodies get 413")
    serve_retry_after_s: int = Field(default=5, ge=1, description="Retry-After of a 503 while a dependency is down")
    serve_max_concurrency: int = Field(
        default=64, ge=1, description="connections and requests served at once; more get 503 from uvicorn"
    )

    @field_validator("serve_token_file", "serve_tls_certfile", "serve_tls_keyfile", "serve_tls_ca_file", mode="before")
    @classmethod
    def _empty_path_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @model_validator(mode="after")
    def _consistent_serve(self) -> ServeSettings:
        if self.serve_tls_keyfile and not self.serve_tls_certfile:
            raise ValueError("DEID_SERVE_TLS_KEYFILE needs DEID_SERVE_TLS_CERTFILE")
        if self.serve_tls_ca_file and not self.serve_tls_certfile:
            raise ValueError("DEID_SERVE_TLS_CA_FILE (client certificates) needs DEID_SERVE_TLS_CERTFILE (HTTPS)")
        if self.production and self.mode == "development":
            raise ValueError("DEID_MODE=development contradicts DEID_PRODUCTION=true")
        return self

    @property
    def mutual_tls(self) -> bool:
        return self.serve_tls_ca_file is not None


@dataclass(frozen=True, slots=True)
class ServeAuth:
    """How clients authenticate; the token never shows in ``repr``."""

    token: bytes | None = field(default=None, repr=False)
    mutual_tls: bool = False

    @property
    def required(self) -> bool:
        return self.token is not None

    def accepts(self, authorization: str | None) -> bool:
        """Whether an ``Authorization`` header carries the token (compared in constant time)."""
        if self.token is None:
            return True
        scheme, _, given = (authorization or "").partition(" ")
        if scheme.lower() != "bearer":
            return False
        return hmac.compare_digest(given.strip().encode("utf-8", "surrogateescape"), self.token)


def load_auth(settings: ServeSettings) -> ServeAuth:
    """The token (read now) and mTLS; refuses a server nobody would authenticate to outside development."""
    token = None
    if settings.serve_token_file is not None:
        text = read_secret_file(settings.serve_token_file, "DEID_SERVE_TOKEN_FILE")
        if len(text) < MIN_TOKEN_CHARS:
            raise ConfigurationError(f"DEID_SERVE_TOKEN_FILE: the token must be at least {MIN_TOKEN_CHARS} characters")
        token = text.encode("utf-8")
    auth = ServeAuth(token, settings.mutual_tls)
    if not auth.required and not auth.mutual_tls and settings.mode != "development":
        raise ConfigurationError(
            "deid serve needs authentication: set DEID_SERVE_TOKEN_FILE (bearer token) and/or "
            "DEID_SERVE_TLS_CERTFILE + DEID_SERVE_TLS_CA_FILE (client certificates); "
            "DEID_MODE=development allows an unauthenticated server on a loopback address"
        )
    return auth


def check_bind(settings: ServeSettings, auth: ServeAuth, host: str) -> None:
    """An unauthenticated (development) server listens on loopback only."""
    if auth.required or auth.mutual_tls:
        return
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ConfigurationError("without authentication deid serve listens only on a loopback address (--host 127.0.0.1)")


def uvicorn_ssl_options(settings: ServeSettings) -> dict[str, Any]:
    """uvicorn's TLS keyword arguments, after loading the files once here so a bad file stops startup."""
    if settings.serve_tls_certfile is None:
        return {}
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(settings.serve_tls_certfile, settings.serve_tls_keyfile)
        if settings.serve_tls_ca_file is not None:
            context.load_verify_locations(cafile=settings.serve_tls_ca_file)
    except (OSError, ssl.SSLError) as exc:
        raise ConfigurationError(f"DEID_SERVE_TLS_*: cannot load the TLS files ({type(exc).__name__})") from None
    options: dict[str, Any] = {"ssl_certfile": str(settings.serve_tls_certfile)}
    if settings.serve_tls_keyfile is not None:
        options["ssl_keyfile"] = str(settings.serve_tls_keyfile)
    if settings.serve_tls_ca_file is not None:
        options.update(ssl_ca_certs=str(settings.serve_tls_ca_file), ssl_cert_reqs=ssl.CERT_REQUIRED)
    return options
