"""``deid serve`` (workers/serve.py) through FastAPI's TestClient: endpoints, auth, limits, PHI-free errors."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from deid_core.api import Deidentifier
from deid_core.message.fhir.codec import FhirLoader
from deid_core.message.hl7.codec import Hl7Loader
from deid_core.surrogate.keys import HmacKey
from deid_core.surrogate.store import InMemoryMappingStore, StoreUnavailable
from deid_core.tagger.base import TaggerUnavailable
from schemas import Span
from tests.serve_client import ServeClient, clean_deid_environment, dev_settings
from workers.health import STORE, CallableProbe
from workers.security import ConfigurationError
from workers.serve import create_server
from workers.serve_settings import ServeSettings, check_bind, load_auth

SAMPLES = Path(__file__).resolve().parents[2] / "workers" / "samples"
KEY = HmacKey(b"serve-test-secret-serve-test-secret", "v1")
TOKEN = "serve-test-token-0123456789abcdef"
CANARY = "Qwertzu-CANARY-9931"
PATIENT = {"patient_id": "p-serve-1", "names": ["Jonathan Smithers"]}
TEXT = "Jonathan Smithers called 617-555-1234 on 03/05/2014 from Springfield, MA 01103."


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch) -> None:
    clean_deid_environment(monkeypatch)


def _client(settings: ServeSettings | None = None, deid: Any = None, probes: Any = None) -> ServeClient:
    app = create_server(
        settings or dev_settings(), deidentifier=deid or (lambda: Deidentifier(key=KEY)), probes=probes
    )
    return ServeClient(app)


@pytest.fixture
def client() -> Iterator[ServeClient]:
    with _client() as c:
        yield c


def _token_file(tmp_path: Path, token: str = TOKEN) -> Path:
    path = tmp_path / "token"
    path.write_text(token + "\n")
    return path


def _no_canary(response: Any) -> None:
    assert CANARY not in response.text
    assert all(CANARY not in v for v in response.headers.values())


# --------------------------------------------------------------------------------------------- endpoints


def test_deidentify_and_detect(client: ServeClient) -> None:
    r = client.post("/v1/deidentify", json={"text": TEXT, "patient": PATIENT})
    assert r.status_code == 200, r.text
    body = r.json()
    assert "Smithers" not in body["text"] and "617-555-1234" not in body["text"]
    assert body["patient_pseudonym"]
    spans = {(s["type"], TEXT[s["start"] : s["end"]]) for s in body["spans"]}
    assert {("PATIENT", "Jonathan Smithers"), ("PHONE", "617-555-1234"), ("DATE", "03/05/2014")} <= spans
    assert all(s["sources"] and 0 < s["score"] <= 1 for s in body["spans"])
    detected = client.post("/v1/detect", json={"text": TEXT, "patient": PATIENT})
    assert detected.status_code == 200
    assert [(s["start"], s["end"], s["type"]) for s in detected.json()["spans"]] == [
        (s["start"], s["end"], s["type"]) for s in body["spans"]
    ]
    assert client.post("/v1/detect", json={"text": "Nothing to see."}).json() == {"spans": []}


def test_a_note_id_keeps_surrogates_of_a_text_without_patient(client: ServeClient) -> None:
    text = "Seen on 03/05/2014 by Dr. Quillon Vantree; call 617-555-1234."
    same = [client.post("/v1/deidentify", json={"id": "note-7", "text": text}).json()["text"] for _ in range(2)]
    assert same[0] == same[1] and "617-555-1234" not in same[0]
    assert "note-7" not in client.post("/v1/deidentify", json={"id": "note-7", "text": text}).text


@pytest.mark.parametrize("content_type", ["application/hl7-v2", "text/plain; charset=utf-8", "x-application/hl7-v2+er7"])
def test_hl7_message_in_hl7_out(client: ServeClient, content_type: str) -> None:
    raw = (SAMPLES / "MDM-T02-02.hl7").read_bytes()
    r = client.post("/v1/hl7", content=raw, headers={"content-type": content_type})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain" if content_type.startswith("text/") else "application/hl7-v2")
    original, again = Hl7Loader().load(raw), Hl7Loader().load(r.content)
    assert original.patient is not None and again.patient is not None
    assert "PROSOLV" not in r.text and again.patient.patient_id != original.patient.patient_id


@pytest.mark.parametrize("sample", ["bundle.json", "patient.json", "documentreference.json"])
def test_fhir_de_identify_operation(client: ServeClient, sample: str) -> None:
    raw = (SAMPLES / sample).read_bytes()
    r = client.post("/fhir/$de-identify", content=raw, headers={"content-type": "application/fhir+json"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/fhir+json")
    out = FhirLoader().load(r.content)
    assert out.format.value == "fhir" and json.loads(r.content)["resourceType"] == json.loads(raw)["resourceType"]
    assert "Quennell" not in r.text


def test_phi_is_counted_by_the_text_de_identification_endpoint_only(client: ServeClient) -> None:
    def counted() -> list[str]:
        lines = client.get("/metrics").text.splitlines()
        return [line for line in lines if line.startswith("deid_phi_replaced_total{")]

    headers = {"content-type": "application/fhir+json"}
    assert client.post("/v1/detect", json={"text": TEXT, "patient": PATIENT}).status_code == 200
    raw_hl7 = (SAMPLES / "MDM-T02-02.hl7").read_bytes()
    assert client.post("/v1/hl7", content=raw_hl7, headers={"content-type": "application/hl7-v2"}).status_code == 200
    assert client.post("/fhir/$de-identify", content=(SAMPLES / "bundle.json").read_bytes(), headers=headers).status_code == 200
    assert counted() == []
    assert client.post("/v1/deidentify", json={"text": TEXT, "patient": PATIENT}).status_code == 200
    assert counted() and all('endpoint="/v1/deidentify"' in line for line in counted())


def test_health_ready_metrics_and_openapi(client: ServeClient) -> None:
    assert client.get("/health").json() == {"status": "ok"}
    ready = client.get("/ready")
    assert ready.status_code == 200 and ready.json() == {"ready": True, "down": []}
    client.post("/v1/deidentify", json={"text": f"{TEXT} {CANARY}", "patient": {**PATIENT, "names": [CANARY]}})
    client.post("/v1/deidentify", content=f'{{"text": "{CANARY}"', headers={"content-type": "application/json"})
    client.post(f"/v1/{CANARY}", json={"text": CANARY})
    metrics = client.get("/metrics")
    assert metrics.status_code == 200
    assert 'deid_http_requests_total{endpoint="/v1/deidentify",status="200"}' in metrics.text
    assert 'deid_http_requests_total{endpoint="/v1/deidentify",status="400"}' in metrics.text
    assert 'deid_http_requests_total{endpoint="other",status="404"}' in metrics.text
    assert "deid_http_request_seconds_bucket" in metrics.text
    assert 'deid_phi_replaced_total{endpoint="/v1/deidentify",type="PATIENT"}' in metrics.text
    assert CANARY not in metrics.text and "Smithers" not in metrics.text
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/v1/detect", "/v1/deidentify", "/v1/hl7", "/fhir/$de-identify", "/health", "/ready", "/metrics"} <= set(paths)
    assert "requestBody" in paths["/v1/hl7"]["post"] and "application/fhir+json" in paths["/fhir/$de-identify"]["post"]["requestBody"]["content"]
    assert client.get("/docs").status_code == 200


# ----------------------------------------------------------------------------------------- authentication


def test_a_token_file_requires_the_token_on_data_endpoints(tmp_path: Path) -> None:
    settings = dev_settings(serve_token_file=_token_file(tmp_path))
    with _client(settings) as c:
        body = {"text": TEXT, "patient": PATIENT}
        for headers in ({}, {"Authorization": "Bearer wrong-token-0123456789abcdef"}, {"Authorization": f"Basic {TOKEN}"},
                        {"Authorization": TOKEN}):  # fmt: skip
            r = c.post("/v1/deidentify", json=body, headers=headers)
            assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
            assert r.json()["error"]["code"] == "auth.required" and TOKEN not in r.text
        fhir = c.post("/fhir/$de-identify", content=b"{}", headers={"content-type": "application/fhir+json"})
        assert fhir.status_code == 401 and fhir.json()["resourceType"] == "OperationOutcome"
        assert c.post("/v1/deidentify", json=body, headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
        assert c.get("/health").status_code == 200 and c.get("/ready").status_code == 200
        assert c.get("/metrics").status_code == 200 and c.get("/openapi.json").status_code == 200
        for path in ("/v1/deidentify/", "/V1/deidentify", "/fhir/%24de-identify", "/anything"):
            assert c.post(path, json=body).status_code == 401, path


def test_no_authentication_is_refused_outside_development(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="needs authentication"):
        create_server(ServeSettings(store="memory"), deidentifier=lambda: Deidentifier(key=KEY))
    with pytest.raises(ConfigurationError, match="at least 16"):
        create_server(ServeSettings(serve_token_file=_token_file(tmp_path, "short")), deidentifier=lambda: Deidentifier(key=KEY))
    settings = ServeSettings(serve_token_file=_token_file(tmp_path))
    assert load_auth(settings).required and "serve-test-token" not in repr(load_auth(settings))
    check_bind(settings, load_auth(settings), "0.0.0.0")  # authenticated: any address
    dev = dev_settings()
    check_bind(dev, load_auth(dev), "127.0.0.1")
    with pytest.raises(ConfigurationError, match="loopback"):
        check_bind(dev, load_auth(dev), "0.0.0.0")


def test_serve_settings_are_checked(tmp_path: Path) -> None:
    from pydantic import ValidationError

    cert = tmp_path / "cert.pem"
    cert.write_text("not a certificate")
    with pytest.raises(ValidationError, match="DEID_SERVE_TLS_CERTFILE"):
        ServeSettings(serve_tls_ca_file=cert)
    with pytest.raises(ValidationError, match="contradicts"):
        ServeSettings(mode="development", production=True)
    from workers.serve_settings import uvicorn_ssl_options

    with pytest.raises(ConfigurationError, match="cannot load the TLS files") as err:
        uvicorn_ssl_options(ServeSettings(serve_tls_certfile=cert, serve_tls_ca_file=cert))
    assert "not a certificate" not in str(err.value)


def test_the_cli_refuses_to_start_without_authentication(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from workers.cli import main

    assert main(["serve", "--port", "0"]) == 1
    assert "needs authentication" in capsys.readouterr().err
    monkeypatch.setenv("DEID_MODE", "development")
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 1
    assert "loopback" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------ limits, errors


def test_bodies_over_the_limit_get_413() -> None:
    with _client(dev_settings(serve_max_body_bytes=1000)) as c:
        big = json.dumps({"text": CANARY * 100})
        r = c.post("/v1/deidentify", content=big, headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["error"]["code"] == "request.too-large"
        _no_canary(r)

        def chunks() -> Iterator[bytes]:  # no Content-Length: the server counts what it reads
            yield b'{"text": "'
            for _ in range(50):
                yield CANARY.encode() * 5

        r = c.post("/v1/deidentify", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413
        _no_canary(r)
        r = c.post("/fhir/$de-identify", content=b"{" + b" " * 2000 + b"}", headers={"content-type": "application/fhir+json"})
        assert r.status_code == 413 and r.json()["issue"][0]["code"] == "too-long"
        assert c.post("/v1/deidentify", json={"text": "short"}).status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (f'{{"text": "{CANARY}"', 400, "request.json"),
        (f'{{"text": "{CANARY}", "{CANARY}": 1}}', 422, "request.invalid"),
        (f'{{"text": 5, "patient": {{"patient_id": "{CANARY}", "names": "{CANARY}"}}}}', 422, "request.invalid"),
        (f'{{"text": "{CANARY}", "patient": {{"names": ["{CANARY}"], "{CANARY}": "x"}}}}', 422, "request.invalid"),
        (f'["{CANARY}"]', 422, "request.invalid"),
        (f'{{"text": "\\ud800{CANARY}"}}', 422, "request.invalid"),
    ],
)
def test_bad_json_requests_echo_nothing(client: ServeClient, body: str, status: int, code: str) -> None:
    r = client.post("/v1/deidentify", content=body.encode(), headers={"content-type": "application/json"})
    assert r.status_code == status and r.json()["error"]["code"] == code, r.text
    _no_canary(r)


def test_bad_messages_echo_nothing(client: ServeClient) -> None:
    r = client.post("/v1/deidentify", content=b'{"text": "\xff' + CANARY.encode() + b'"}', headers={"content-type": "application/json"})
    assert r.status_code == 400
    _no_canary(r)
    r = client.post("/v1/hl7", content=f"MSH|{CANARY}|x".encode(), headers={"content-type": "application/hl7-v2"})
    assert r.status_code == 400 and r.json()["error"]["code"].startswith("hl7.")
    _no_canary(r)
    r = client.post("/v1/hl7", content=f"PID|{CANARY}".encode(), headers={"content-type": "application/hl7-v2"})
    assert r.status_code == 400
    _no_canary(r)
    r = client.post("/v1/hl7", content=(SAMPLES / "MDM-T02-02.hl7").read_bytes(), headers={"content-type": "application/json"})
    assert r.status_code == 415
    for raw in (
        f'{{"resourceType": "Patient", "{CANARY}": "{CANARY}"}}',
        f'{{"resourceType": "{CANARY}"}}',
        f'{{"resourceType": "Patient", "birthDate": "{CANARY}"}}',
        f'{{"resourceType": "Patient", "gender": "{CANARY}"',
    ):
        r = client.post("/fhir/$de-identify", content=raw.encode(), headers={"content-type": "application/fhir+json"})
        assert r.status_code == 400, r.text
        outcome = r.json()
        assert outcome["resourceType"] == "OperationOutcome" and outcome["issue"][0]["code"] == "invalid"
        _no_canary(r)
    r = client.post("/fhir/$de-identify", content=b"{}", headers={"content-type": "text/plain"})
    assert r.status_code == 415 and r.json()["resourceType"] == "OperationOutcome"
    assert client.get("/v1/deidentify").status_code == 405


# ---------------------------------------------------------------------------------------- dependency outages


class _DownStore(InMemoryMappingStore):
    def __init__(self) -> None:
        super().__init__()
        self.down = True

    async def settle(self, scope: str, keys: Sequence[tuple[bytes, str]], candidate: str) -> str:
        if self.down:
            raise StoreUnavailable("redis: ConnectionError")
        return await super().settle(scope, keys, candidate)


class _DownTagger:
    model_version = "test"

    async def tag(self, texts: Sequence[str]) -> list[list[Span]]:
        raise TaggerUnavailable("Triton at 10.0.0.1:8001 failed: UNAVAILABLE")

    async def close(self) -> None:
        return None


def test_a_store_outage_gives_503_with_retry_after_and_recovers() -> None:
    store = _DownStore()
    probe_up = {"value": False}

    async def store_probe() -> bool:
        return probe_up["value"]

    settings = dev_settings(health_interval_ms=100, serve_retry_after_s=7)
    deid = lambda: Deidentifier(key=KEY, store=store)  # noqa: E731
    with _client(settings, deid, lambda: [CallableProbe(STORE, store_probe)]) as c:
        r = c.post("/v1/deidentify", json={"text": f"{TEXT} {CANARY}", "patient": PATIENT})
        assert r.status_code == 503 and r.headers["retry-after"] == "7"
        assert r.json()["error"]["code"] == "dependency.unavailable" and "store" in r.json()["error"]["message"]
        _no_canary(r)
        assert c.get("/ready").status_code == 503 and c.get("/ready").json()["down"] == [STORE]
        fhir = c.post("/fhir/$de-identify", content=(SAMPLES / "bundle.json").read_bytes(), headers={"content-type": "application/fhir+json"})
        assert fhir.status_code == 503 and fhir.json()["issue"][0]["code"] == "transient" and "Quennell" not in fhir.text
        assert 'deid_dependency_up{dependency="store"} 0.0' in c.get("/metrics").text
        store.down, probe_up["value"] = False, True
        import time

        deadline = time.monotonic() + 10
        while c.get("/ready").status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert c.post("/v1/deidentify", json={"text": TEXT, "patient": PATIENT}).status_code == 200


def test_a_tagger_outage_gives_503_naming_no_address() -> None:
    deid = lambda: Deidentifier(key=KEY, tagger=_DownTagger())  # noqa: E731
    with _client(dev_settings(), deid) as c:
        r = c.post("/v1/detect", json={"text": TEXT, "patient": PATIENT})
        assert r.status_code == 503 and "retry-after" in r.headers
        assert "tagger" in r.text and "10.0.0.1" not in r.text
        r = c.post("/v1/hl7", content=(SAMPLES / "MDM-T02-02.hl7").read_bytes(), headers={"content-type": "application/hl7-v2"})
        assert r.status_code == 503 and not r.content.startswith(b"MSH")


def test_the_composition_root_builds_the_worker_pipeline() -> None:
    """No injection: DEID_* settings -> store, key, in-process tagger, policy, as the worker builds them."""
    app = create_server(dev_settings(policy="safe-harbor"))
    with ServeClient(app) as c:
        # "MA" after a city is the state, which Safe Harbor keeps. (Alone at the end after a date, as this
        # text had it until model version 2, the tagger reads "MA." as a signer's credential: a doctor.)
        text = "Seen by Dr. Ann Lee at Mercy Hospital in Springfield, MA on 03/05/2014."
        r = c.post("/v1/deidentify", json={"text": text, "patient": PATIENT})
        assert r.status_code == 200, r.text
        body = r.json()
        assert "2014" in body["text"] and "03/05/2014" not in body["text"] and "MA" in body["text"]
        assert any("tagger" in s["sources"] for s in body["spans"])
    with pytest.raises(ConfigurationError, match="DEID_POLICY"):
        create_server(dev_settings(policy="no-such-policy"))
