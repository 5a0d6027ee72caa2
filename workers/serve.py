"""``deid serve``: the de-identification library over HTTP (FastAPI on uvicorn).

Built from the worker's composition root (the same store with Redis AUTH/TLS, key ring, Triton or
in-process tagger and ``DEID_POLICY``) and served through :class:`deid_core.api.Deidentifier`, so every
request takes the one message path. ``create_server`` checks the configuration at once (authentication,
keys, policy, Redis options) and builds the pipeline when the server starts, inside its event loop
(network clients belong to the loop that opens them).

Fail closed: a request whose store or tagger fails gets 503 with ``Retry-After`` and nothing else; while
a probe sees a dependency down, data requests get that 503 at once. Errors carry a code and a PHI-free
message (the loaders' ``EventParseError``), never input; ``/fhir`` answers with an OperationOutcome.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from starlette.exceptions import HTTPException

from deid_core.message.fhir.load import has_lone_surrogate
from schemas import PatientHeader
from schemas.events import EventFormat, EventParseError
from workers.health import STORE, DependencyHealth, DependencyProbe
from workers.processor import DependencyUnavailable, dependency_errors
from workers.security import ConfigurationError, load_keyring, redis_options, settings_error_message
from workers.serve_guard import RequestGuard, ServeMetrics, error_body
from workers.serve_settings import ServeSettings, check_bind, load_auth, uvicorn_ssl_options
from workers.settings import WorkerSettings

if TYPE_CHECKING:
    from deid_core.api import Deidentifier
    from deid_core.surrogate.keys import KeyRing
    from workers.security import RedisOptions

__all__ = ["ConfigurationError", "ServeSettings", "create_server", "run_server"]

log = logging.getLogger("deid.serve")
_T = TypeVar("_T")
_STORE_ATTEMPTS = 3
HL7_TYPES = ("application/hl7-v2", "x-application/hl7-v2+er7", "text/plain")
FHIR_TYPES = ("application/fhir+json", "application/json")


# ------------------------------------------------------------------------------------------- wire types


class TextRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "text": "Seen 03/05/2014 by Dr. Ann Lee. Jonathan Smithers, MRN 12345678, called 617-555-1234.",
        "patient": {"patient_id": "p1", "names": ["Jonathan Smithers"]},
    }]})  # fmt: skip

    text: str = Field(description="the note text")
    id: str | None = Field(
        default=None, min_length=1, max_length=256,
        description="a note id (as in `deid deidentify` records): a text without a patient keeps its surrogates "
        "and date offset per id; default: a fresh one per request",
    )  # fmt: skip
    patient: PatientHeader | None = Field(default=None, description="what the header says about the patient")

    @model_validator(mode="before")
    @classmethod
    def _utf8(cls, data: object) -> object:
        # JSON may hold "\ud800", which no UTF-8 output can carry: refuse it here, as the loaders do.
        if has_lone_surrogate(data):
            raise ValueError("unpaired UTF-16 surrogate escape")
        return data


class SpanOut(BaseModel):
    start: int = Field(description="offset into the original text (code points)")
    end: int = Field(description="end offset, exclusive")
    type: str = Field(description="i2b2 2014 PHI subtype")
    sources: list[str] = Field(description="detectors that found it: rules, header, tagger")
    score: float


class DetectResponse(BaseModel):
    spans: list[SpanOut]


class DeidentifyResponse(BaseModel):
    text: str
    spans: list[SpanOut] = Field(description="the replaced spans, offsets into the original text")
    patient_pseudonym: str | None = None


_KNOWN_FIELDS = frozenset({"body", *TextRequest.model_fields, *PatientHeader.model_fields, "value", "type", "system",
                           "street", "city", "state", "zip", "country"})  # fmt: skip


def _describe(errors: Sequence[Any]) -> str:
    """Locations (model field names and indexes only: a key the client made up may be PHI) and types."""
    parts = []
    for e in list(errors)[:10]:
        loc = ".".join(str(p) if isinstance(p, int) or p in _KNOWN_FIELDS else "<key>" for p in e.get("loc", ()))
        parts.append(f"field '{loc}': {e.get('type', 'invalid')}")
    return "; ".join(parts) or "invalid request"


# ------------------------------------------------------------------------------------------- the server


class _Service:
    """What the routes share: the Deidentifier (built at startup), dependency health and metrics."""

    def __init__(self, settings: ServeSettings, metrics: ServeMetrics) -> None:
        self.settings = settings
        self.metrics = metrics
        self.deid: Deidentifier | None = None
        self.health = DependencyHealth()
        self.probed: frozenset[str] = frozenset()

    async def call(self, work: Callable[[Deidentifier], Awaitable[_T]]) -> _T:
        if self.deid is None:
            raise DependencyUnavailable("service", "starting")
        down = self.health.down()
        if down:  # fail fast while a probe sees it down, instead of waiting on timeouts per request
            raise DependencyUnavailable(down[0], "down")
        deid = self.deid
        for attempt in range(1, _STORE_ATTEMPTS + 1):
            try:
                with dependency_errors():
                    return await work(deid)
            except DependencyUnavailable as exc:
                # Again at once: after a Redis restart each pooled connection fails once (redis-py then
                # reconnects it) although Redis is back. Safe: a failed attempt decides and returns nothing.
                if attempt < _STORE_ATTEMPTS and exc.dependency == STORE:
                    continue
                log.warning("request refused: %s", exc)  # names the service and an error type, never data
                if exc.dependency in self.probed:  # only a probe can see it back up; unprobed ones stay as they were
                    self.health.mark_down(exc.dependency)
                raise
        raise AssertionError("unreachable")


def build_deidentifier(settings: WorkerSettings, keyring: KeyRing, redis: RedisOptions) -> Deidentifier:
    """The worker's pipeline (rules, header and the tagger; the settings' store, keys and policy)."""
    from deid_core.api import Deidentifier
    from deid_core.tagger import build_tagger
    from workers.compose import build_settings_pipeline

    pipeline = build_settings_pipeline(settings, keyring, redis, build_tagger(settings.triton_url))
    # Concurrent requests share pipeline batches (one tagger call), up to DEID_BATCH_MAX as in the worker.
    return Deidentifier.from_pipeline(pipeline, batch_max=settings.batch_max)


def _serve_settings(settings: WorkerSettings) -> ServeSettings:
    if isinstance(settings, ServeSettings):
        return settings
    try:
        return ServeSettings(**settings.model_dump(exclude_unset=True))
    except ValidationError as exc:
        raise ConfigurationError(settings_error_message(exc)) from None


def create_server(
    settings: WorkerSettings,
    *,
    deidentifier: Callable[[], Deidentifier] | None = None,
    probes: Callable[[], Sequence[DependencyProbe]] | None = None,
    keyring: KeyRing | None = None,
) -> FastAPI:
    """The FastAPI app. Raises ``ConfigurationError`` (PHI- and secret-free) on a bad or unsafe setup.

    ``deidentifier`` and ``probes`` replace the composition root's (tests); they run at startup.
    """
    from deid_core.message.policy import PolicyError, load_policy
    from workers.compose import build_probes

    serve = _serve_settings(settings)
    auth = load_auth(serve)
    if deidentifier is None:
        ring = load_keyring(serve) if keyring is None else keyring
        redis = redis_options(serve)
        try:
            load_policy(serve.policy)  # a bad DEID_POLICY stops the server before it serves anything
        except PolicyError as exc:
            raise ConfigurationError(f"DEID_POLICY: {exc}") from None
        deidentifier = lambda: build_deidentifier(serve, ring, redis)  # noqa: E731
        probes = probes or (lambda: build_probes(serve, redis))
    metrics = ServeMetrics()
    service = _Service(serve, metrics)
    make_deid, make_probes = deidentifier, probes or (lambda: [])

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        def on_change(name: str, up: bool) -> None:
            metrics.dependency_up.labels(name).set(1 if up else 0)

        deid = make_deid()
        probes = list(make_probes())
        service.probed = frozenset(p.name for p in probes)
        service.health = DependencyHealth(probes, timeout_s=serve.health_timeout_ms / 1000, on_change=on_change)

        async def probe() -> None:
            await service.health.check_all()
            metrics.ready.set(1 if service.health.all_up() else 0)

        async def probe_forever() -> None:
            while True:
                await asyncio.sleep(serve.health_interval_ms / 1000)
                await probe()

        task: asyncio.Task[None] | None = None
        try:
            await probe()  # /ready is right from the first request
            service.deid = deid
            task = asyncio.create_task(probe_forever())
            yield
        finally:
            service.deid = None
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await service.health.close()
            await deid.aclose()

    app = FastAPI(
        title="deid-stream", version=_version(), lifespan=lifespan,
        description="De-identification of clinical notes and whole HL7 v2 / FHIR R4 messages. "
        "Data endpoints need `Authorization: Bearer <token>` when the server has a token.",
    )  # fmt: skip
    _add_error_handlers(app, serve)
    _add_routes(app, service)
    app.add_middleware(RequestGuard, auth=auth, max_body_bytes=serve.serve_max_body_bytes, metrics=metrics)
    app.state.deid_service = service
    return app


def _add_error_handlers(app: FastAPI, serve: ServeSettings) -> None:
    def error(request: Request, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Response:
        body, media_type = error_body(request.url.path, status, code, message)
        return Response(body, status_code=status, media_type=media_type, headers=headers)

    @app.exception_handler(EventParseError)
    async def bad_input(request: Request, exc: EventParseError) -> Response:
        return error(request, 400, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return error(request, 400, "request.json", "the body is not valid JSON")
        return error(request, 422, "request.invalid", _describe(errors))

    @app.exception_handler(DependencyUnavailable)
    async def unavailable(request: Request, exc: DependencyUnavailable) -> Response:
        return error(request, 503, "dependency.unavailable", f"{exc.dependency} is unavailable; nothing was processed, retry later",
                     {"Retry-After": str(serve.serve_retry_after_s)})  # fmt: skip

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        # Starlette's and ours: fixed texts ("Not Found", ...), never input.
        return error(request, exc.status_code, f"http.{exc.status_code}", str(exc.detail), dict(exc.headers or {}))


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def _add_routes(app: FastAPI, service: _Service) -> None:
    def spans_out(spans: Sequence[Any]) -> list[SpanOut]:
        return [SpanOut(start=s.start, end=s.end, type=s.type, sources=list(s.sources), score=s.score) for s in spans]

    @app.post("/v1/detect", response_model=DetectResponse, tags=["text"], summary="PHI spans the policy would change")
    async def detect(body: TextRequest) -> DetectResponse:
        spans = await service.call(lambda d: d.adetect(body.text, body.patient, note_id=body.id))
        return DetectResponse(spans=spans_out(spans))

    @app.post("/v1/deidentify", response_model=DeidentifyResponse, tags=["text"], summary="De-identify a note text")
    async def deidentify(body: TextRequest) -> DeidentifyResponse:
        result = await service.call(lambda d: d.adeidentify(body.text, body.patient, note_id=body.id))
        for span in result.spans:
            service.metrics.phi.labels("/v1/deidentify", span.type).inc()
        return DeidentifyResponse(text=result.text, spans=spans_out(result.spans), patient_pseudonym=result.patient_pseudonym)

    raw_body = {"required": True, "content": {t: {"schema": {"type": "string"}} for t in HL7_TYPES}}

    @app.post(
        "/v1/hl7", tags=["messages"], summary="De-identify a whole HL7 v2 message (ER7), HL7 v2 out",
        openapi_extra={"requestBody": raw_body},
        responses={200: {"content": {"application/hl7-v2": {"schema": {"type": "string"}}}}},
    )  # fmt: skip
    async def hl7(request: Request) -> Response:
        media_type = _media_type(request)
        if media_type not in HL7_TYPES:
            raise HTTPException(415, f"send the message as {' or '.join(HL7_TYPES)}")
        raw = await request.body()
        out = await service.call(lambda d: d.adeidentify_message(raw, EventFormat.HL7V2))
        return Response(out, media_type="text/plain" if media_type == "text/plain" else "application/hl7-v2")

    fhir_body = {"required": True, "content": {t: {"schema": {"type": "object", "description": "a FHIR R4 resource or Bundle"}}
                                               for t in FHIR_TYPES}}  # fmt: skip

    @app.post(
        "/fhir/$de-identify", tags=["messages"], summary="FHIR $de-identify: a resource or Bundle in, de-identified out",
        openapi_extra={"requestBody": fhir_body},
        responses={200: {"content": {"application/fhir+json": {"schema": {"type": "object"}}}}},
    )  # fmt: skip
    async def fhir_deidentify(request: Request) -> Response:
        if _media_type(request) not in FHIR_TYPES:
            raise HTTPException(415, f"send the resource as {' or '.join(FHIR_TYPES)}")
        raw = await request.body()
        out = await service.call(lambda d: d.adeidentify_message(raw, EventFormat.FHIR))
        return Response(out, media_type="application/fhir+json")

    @app.get("/health", tags=["operations"], summary="The process is up")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/ready", tags=["operations"], summary="Ready to serve: started, store and tagger answering (503 otherwise)")
    async def ready() -> JSONResponse:
        up = service.deid is not None and service.health.all_up()
        service.metrics.ready.set(1 if up else 0)
        return JSONResponse({"ready": up, "down": service.health.down()}, status_code=200 if up else 503)

    @app.get("/metrics", tags=["operations"], summary="Prometheus metrics", response_class=Response)
    async def metrics() -> Response:
        return Response(service.metrics.render(), media_type="text/plain; version=0.0.4")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("deid-stream")
    except PackageNotFoundError:
        return "0"


# --------------------------------------------------------------------------------------------- running


def run_server(host: str = "127.0.0.1", port: int = 8080, settings_file: str | None = None) -> int:
    """Check the settings, then serve until SIGINT/SIGTERM. Raises ``ConfigurationError`` (safe to print)."""
    # As for the worker: oneDNN's per-shape kernel cache would grow with every new note length.
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "0")
    try:
        settings = ServeSettings(_env_file=settings_file)  # type: ignore[call-arg]
    except ValidationError as exc:
        raise ConfigurationError(settings_error_message(exc)) from None
    check_bind(settings, load_auth(settings), host)
    tls = uvicorn_ssl_options(settings)
    app = create_server(settings)
    import uvicorn

    # No access log: it would write request paths and client addresses; the metrics count requests.
    config = uvicorn.Config(
        app, host=host, port=port, access_log=False, server_header=False, proxy_headers=False,
        limit_concurrency=settings.serve_max_concurrency, lifespan="on", **tls,
    )  # fmt: skip
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 1
