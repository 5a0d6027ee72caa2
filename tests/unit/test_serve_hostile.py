"""Hostile bodies against ``deid serve``: never a 500, and an error response never quotes the input.

The same mutated HL7 v2, FHIR and JSON-envelope messages as tests/unit/test_hostile_input.py (canary
patient written into each), sent to the HTTP endpoints. What still parses is de-identified as the worker
would (test_hostile_input checks that output); here the HTTP layer's own errors are checked.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from deid_core.api import Deidentifier
from deid_core.surrogate.keys import HmacKey
from tests import hostile_strategies as hs
from tests.serve_client import ServeClient, clean_deid_environment, dev_settings
from workers.serve import create_server

KEY = HmacKey(b"serve-hostile-secret-serve-hostile", "v1")
ALLOWED = {200, 400, 413, 415, 422}
N = 60
_settings = settings(max_examples=N, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def client() -> Iterator[ServeClient]:
    mp = pytest.MonkeyPatch()
    clean_deid_environment(mp)
    app = create_server(dev_settings(), deidentifier=lambda: Deidentifier(key=KEY))
    with ServeClient(app) as c:
        yield c
    mp.undo()


def _check(client: ServeClient, path: str, raw: bytes, content_type: str) -> None:
    r = client.post(path, content=raw, headers={"content-type": content_type})
    assert r.status_code in ALLOWED, (r.status_code, r.text[:300])
    if r.status_code != 200:
        lowered = r.text.lower()
        for canary in (*hs.CANARIES, hs.FHIR_FAMILY):
            assert canary.lower() not in lowered, (path, r.status_code)
        assert len(r.content) < 2000


@_settings
@given(raw=hs.hl7_messages(hs.SENDABLE))
def test_hl7_endpoint(client: ServeClient, raw: bytes) -> None:
    _check(client, "/v1/hl7", raw, "application/hl7-v2")


@_settings
@given(raw=hs.fhir_messages(hs.SENDABLE))
def test_fhir_endpoint(client: ServeClient, raw: bytes) -> None:
    _check(client, "/fhir/$de-identify", raw, "application/fhir+json")


@_settings
@given(raw=hs.envelope_messages(hs.SENDABLE))
def test_text_endpoints(client: ServeClient, raw: bytes) -> None:
    _check(client, "/v1/deidentify", raw, "application/json")
    _check(client, "/v1/detect", raw, "application/json")
