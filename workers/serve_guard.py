"""What every request of ``deid serve`` passes before a route sees it: metrics, authentication, size limit.

A pure ASGI middleware rather than FastAPI dependencies, because it must act before the body is read:
an unauthenticated client gets 401 without us reading its body, and a body over the limit gets 413
after at most the limit is read (at once when ``Content-Length`` says so). It is also the last place an
unexpected exception is caught, so that it is logged by type only (Starlette would log the traceback,
whose messages may quote input) and answered with a PHI-free 500.

Metric labels are bounded and PHI-free: the route template (unknown paths are ``other``) and the status.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from workers.serve_settings import ServeAuth

log = logging.getLogger("deid.serve")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

FHIR_PREFIX = "/fhir/"
# Endpoints that handle data; health, metrics and the API description hold none and need no token.
DATA_ENDPOINTS = ("/v1/detect", "/v1/deidentify", "/v1/hl7", "/fhir/$de-identify")
OPEN_ENDPOINTS = ("/health", "/ready", "/metrics", "/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json")
_KNOWN = frozenset(DATA_ENDPOINTS + OPEN_ENDPOINTS)
_FHIR_ISSUE = {400: "invalid", 401: "login", 404: "not-found", 405: "not-supported", 413: "too-long",
               415: "not-supported", 422: "invalid", 500: "exception", 503: "transient"}  # fmt: skip


def endpoint_label(path: str) -> str:
    return path if path in _KNOWN else "other"


def error_body(path: str, status: int, code: str, message: str) -> tuple[bytes, str]:
    """A PHI-free error: ``{"error": {code, message}}``, or a FHIR OperationOutcome under /fhir/."""
    if path.startswith(FHIR_PREFIX):
        outcome = {
            "resourceType": "OperationOutcome",
            "issue": [{"severity": "error", "code": _FHIR_ISSUE.get(status, "processing"), "diagnostics": f"{code}: {message}"}],
        }
        return json.dumps(outcome).encode(), "application/fhir+json"
    return json.dumps({"error": {"code": code, "message": message}}).encode(), "application/json"


@dataclass
class ServeMetrics:
    registry: CollectorRegistry = field(default_factory=CollectorRegistry)

    def __post_init__(self) -> None:
        r = self.registry
        self.requests = Counter(
            "deid_http_requests_total", "HTTP requests by endpoint and status", ["endpoint", "status"], registry=r
        )
        self.latency = Histogram(
            "deid_http_request_seconds", "HTTP request latency by endpoint", ["endpoint"], registry=r,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
        )  # fmt: skip
        self.dependency_up = Gauge("deid_dependency_up", "1 while a dependency answers its probe", ["dependency"], registry=r)
        self.ready = Gauge("deid_ready", "1 when every dependency is up", registry=r)
        # Counted where the replaced spans are known: /v1/deidentify only. /v1/detect replaces nothing, and the
        # message endpoints (/v1/hl7, /fhir/$de-identify) return the message alone, without its spans; the
        # endpoint label says so in the metric itself rather than leaving it to be guessed.
        self.phi = Counter(
            "deid_phi_replaced_total", "PHI spans replaced in note texts, by endpoint (/v1/deidentify only) and type",
            ["endpoint", "type"], registry=r,
        )  # fmt: skip

    def render(self) -> bytes:
        return generate_latest(self.registry)


class RequestGuard:
    def __init__(self, app: ASGIApp, *, auth: ServeAuth, max_body_bytes: int, metrics: ServeMetrics) -> None:
        self.app = app
        self.auth = auth
        self.max_body_bytes = max_body_bytes
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        endpoint = endpoint_label(path)
        started = time.perf_counter()
        state = {"status": 500, "started": False}

        async def send_tracked(message: Message) -> None:
            if message["type"] == "http.response.start":
                state["status"], state["started"] = message["status"], True
            await send(message)

        try:
            await self._guarded(scope, receive, send_tracked, path)
        except Exception as exc:  # noqa: BLE001 - the last resort: type only, never the message
            log.error("unhandled %s on %s", type(exc).__name__, endpoint)
            if not state["started"]:
                await respond(send_tracked, path, 500, "internal-error", "the request could not be processed")
        finally:
            self.metrics.requests.labels(endpoint, str(state["status"])).inc()
            self.metrics.latency.labels(endpoint).observe(time.perf_counter() - started)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send, path: str) -> None:
        # Fail closed: every path but the few that hold no data needs the token (a trailing slash or an
        # unknown path included), so no routing detail can open a data endpoint.
        if path not in OPEN_ENDPOINTS and not self.auth.accepts(_header(scope, b"authorization")):
            await respond(send, path, 401, "auth.required", "a valid bearer token is required",
                          [(b"www-authenticate", b"Bearer")])  # fmt: skip
            return
        if scope.get("method") not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None:
            if not declared.isdigit():
                await respond(send, path, 400, "request.length", "Content-Length is not a number")
                return
            if int(declared) > self.max_body_bytes:
                await respond(send, path, 413, "request.too-large", f"the body is larger than {self.max_body_bytes} bytes")
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:  # chunked or lying about its length: stop reading here
                await respond(send, path, 413, "request.too-large", f"the body is larger than {self.max_body_bytes} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def respond(
    send: Send, path: str, status: int, code: str, message: str, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    body, media_type = error_body(path, status, code, message)
    await send({
        "type": "http.response.start", "status": status,
        "headers": [(b"content-type", media_type.encode()), (b"content-length", str(len(body)).encode()), *(headers or [])],
    })  # fmt: skip
    await send({"type": "http.response.body", "body": body})
