"""``deid serve`` for real: a subprocess on a free loopback port, called over HTTP with httpx.

The server runs with a bearer token file and a private Redis (scripts/services.sh), so requests take the
worker's composition (Redis store, in-process tagger, HMAC key from a file). Also: a Redis outage gives
503 with Retry-After and recovers; a body over the limit sent without Content-Length gets 413; mutual TLS
refuses a client without a certificate.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from deid_tools.drivers.stream import ROOT, free_port
from tests.integration.private_services import PrivateServices

pytestmark = [pytest.mark.slow, pytest.mark.redis]

SAMPLES = ROOT / "workers" / "samples"
PATIENT = {"patient_id": "p-http-1", "names": ["Quillon Vantree"], "mrn": "88001234"}
TEXT = "Mr. Quillon Vantree (MRN 88001234) was seen on 03/05/2014; call 617-555-0142."


class ServeProcess:
    def __init__(self, tmp: Path, env: dict[str, str], scheme: str = "http", verify: object = None) -> None:
        self.port = free_port()
        self.url = f"{scheme}://127.0.0.1:{self.port}"
        self.log_path = tmp / f"serve-{self.port}.log"
        self._log = self.log_path.open("wb")
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("DEID_") or k.startswith("DEID_TEST_")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "workers.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            env={**full_env, **env}, stdout=self._log, stderr=subprocess.STDOUT, cwd=ROOT,
        )
        self.verify = verify

    def wait_started(self, client: httpx.Client, timeout_s: float = 180) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            assert self.proc.poll() is None, f"deid serve exited:\n{self.log_path.read_text()[-3000:]}"
            try:
                if client.get(f"{self.url}/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "deid serve did not start"
            time.sleep(0.3)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                # uvicorn shuts down gracefully, then re-raises the signal it caught (exit status -15).
                assert self.proc.wait(30) in (0, -signal.SIGTERM), "deid serve should stop on SIGTERM"
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
                raise
            finally:
                self._log.close()


def _wait_for(check: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


@pytest.fixture
def services(tmp_path: Path) -> Iterator[PrivateServices]:
    s = PrivateServices("serve", tmp_path)
    try:
        yield s
    finally:
        s.stop()


def test_serve_over_http_with_a_token_and_redis(services: PrivateServices, tmp_path: Path) -> None:
    redis_url = services.start("redis")["DEID_TEST_REDIS_URL"]
    token = secrets.token_hex(24)
    (tmp_path / "token").write_text(token + "\n")
    (tmp_path / "secret").write_text("v1:" + secrets.token_hex(24) + "\n")
    server = ServeProcess(tmp_path, {
        "DEID_SERVE_TOKEN_FILE": str(tmp_path / "token"), "DEID_SECRET_FILE": str(tmp_path / "secret"),
        "DEID_STORE": redis_url, "DEID_SERVE_MAX_BODY_BYTES": "200000", "DEID_HEALTH_INTERVAL_MS": "200",
        "DEID_SERVE_RETRY_AFTER_S": "3",
    })  # fmt: skip
    auth = {"Authorization": f"Bearer {token}"}
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            server.wait_started(client)
            assert client.get("/ready").json() == {"ready": True, "down": []}
            assert client.post("/v1/deidentify", json={"text": TEXT, "patient": PATIENT}).status_code == 401

            first = client.post("/v1/deidentify", json={"text": TEXT, "patient": PATIENT}, headers=auth)
            assert first.status_code == 200, first.text
            body = first.json()
            assert "Vantree" not in body["text"] and "88001234" not in body["text"] and "617-555-0142" not in body["text"]
            assert {"PATIENT", "MEDICALRECORD", "DATE", "PHONE"} <= {s["type"] for s in body["spans"]}
            # Another note of the same patient: the same surrogates, from Redis.
            second = client.post("/v1/deidentify", json={"text": TEXT + " Follow-up.", "patient": PATIENT}, headers=auth)
            assert second.json()["text"].startswith(body["text"][:-1])
            detected = client.post("/v1/detect", json={"text": TEXT, "patient": PATIENT}, headers=auth).json()["spans"]
            assert [(s["start"], s["end"]) for s in detected] == [(s["start"], s["end"]) for s in body["spans"]]

            hl7 = client.post("/v1/hl7", content=(SAMPLES / "MDM-T02-02.hl7").read_bytes(),
                              headers={**auth, "content-type": "application/hl7-v2"})  # fmt: skip
            assert hl7.status_code == 200 and hl7.content.startswith(b"MSH|") and b"PROSOLV" not in hl7.content
            fhir = client.post("/fhir/$de-identify", content=(SAMPLES / "bundle.json").read_bytes(),
                               headers={**auth, "content-type": "application/fhir+json"})  # fmt: skip
            assert fhir.status_code == 200 and json.loads(fhir.content)["resourceType"] == "Bundle"
            assert b"Quennell" not in fhir.content

            def chunks() -> Iterator[bytes]:  # no Content-Length: the server stops reading at the limit
                yield b'{"text": "'
                for _ in range(100):
                    yield b"Quillon Vantree " * 200

            big = client.post("/v1/deidentify", content=chunks(), headers={**auth, "content-type": "application/json"})
            assert big.status_code == 413 and b"Vantree" not in big.content

            services.stop("redis")
            down = client.post("/v1/deidentify", json={"text": TEXT, "patient": PATIENT}, headers=auth)
            assert down.status_code == 503 and down.headers["retry-after"] == "3"
            assert "Vantree" not in down.text
            _wait_for(lambda: client.get("/ready").status_code == 503, 10, "/ready to report the store down")
            assert client.get("/ready").json()["down"] == ["store"]

            services.start("redis")
            _wait_for(lambda: client.get("/ready").status_code == 200, 30, "/ready after Redis is back")
            # A client that honours 503 + Retry-After gets through within a few tries (redis-py may need
            # to reconnect pooled connections first); every answer is whole or a 503, never partial.
            for _ in range(10):
                again = client.post("/v1/deidentify", json={"text": TEXT, "patient": PATIENT}, headers=auth)
                if again.status_code == 200:
                    break
                assert again.status_code == 503 and "Vantree" not in again.text
                time.sleep(0.5)
            assert again.status_code == 200 and "Vantree" not in again.json()["text"]
            assert again.json()["text"] == body["text"], "the same surrogates as before the outage"

            metrics = client.get("/metrics").text
            assert 'deid_http_requests_total{endpoint="/v1/deidentify",status="503"}' in metrics
            assert "Vantree" not in metrics and token not in metrics
    finally:
        server.stop()
    log = server.log_path.read_text()
    assert "Application shutdown complete" in log, "lifespan shutdown ran (store and tagger closed)"
    assert "Vantree" not in log and token not in log


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make test certificates")
def test_mutual_tls_requires_a_client_certificate(tmp_path: Path) -> None:
    d = tmp_path
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=deid-serve-test-ca",
             "-keyout", str(d / "ca.key"), "-out", str(d / "ca.pem"))  # fmt: skip
    (d / "server.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    for name, ext in (("server", ["-extfile", str(d / "server.ext")]), ("client", [])):
        _openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={name}",
                 "-keyout", str(d / f"{name}.key"), "-out", str(d / f"{name}.csr"))  # fmt: skip
        _openssl("x509", "-req", "-in", str(d / f"{name}.csr"), "-CA", str(d / "ca.pem"), "-CAkey", str(d / "ca.key"),
                 "-CAcreateserial", "-days", "1", "-out", str(d / f"{name}.pem"), *ext)  # fmt: skip
    server = ServeProcess(tmp_path, {
        "DEID_SERVE_TLS_CERTFILE": str(d / "server.pem"), "DEID_SERVE_TLS_KEYFILE": str(d / "server.key"),
        "DEID_SERVE_TLS_CA_FILE": str(d / "ca.pem"), "DEID_STORE": "memory",
    }, scheme="https")  # fmt: skip
    import ssl

    with_cert = ssl.create_default_context(cafile=str(d / "ca.pem"))
    with_cert.load_cert_chain(str(d / "client.pem"), str(d / "client.key"))
    without_cert = ssl.create_default_context(cafile=str(d / "ca.pem"))
    try:
        with httpx.Client(base_url=server.url, verify=with_cert, timeout=60) as client:
            server.wait_started(client)
            r = client.post("/v1/deidentify", json={"text": TEXT, "patient": PATIENT})
            assert r.status_code == 200 and "Vantree" not in r.json()["text"]
        with httpx.Client(base_url=server.url, verify=without_cert, timeout=10) as anonymous:
            with pytest.raises(httpx.HTTPError):
                anonymous.post("/v1/deidentify", json={"text": TEXT, "patient": PATIENT})
    finally:
        server.stop()
