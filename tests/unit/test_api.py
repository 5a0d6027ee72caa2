"""The public Python API (deid_core.api.Deidentifier) on rules + header with the in-memory store."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from deid_core.api import DeidentifiedText, Deidentifier, DetectedSpan, EventLoopError
from deid_core.message.fhir.codec import FhirLoader
from deid_core.message.hl7.codec import Hl7Loader
from deid_core.surrogate.keys import HmacKey
from deid_core.surrogate.store import InMemoryMappingStore
from schemas import PatientHeader
from schemas.events import EventParseError

SAMPLES = Path(__file__).resolve().parents[2] / "workers" / "samples"
KEY = HmacKey(b"api-test-secret-api-test-secret!", "v1")
PATIENT = {"patient_id": "p-api-1", "names": ["Jonathan Smithers"]}
TEXT = (
    "Jonathan Smithers is a 45 year old man from Springfield, MA 01103, seen on 03/05/2014. "
    "Phone 617-555-1234. His father is 93 years old."
)
CANARY = "Zyxwvut-CANARY-4417"


@pytest.fixture
def deid() -> Iterator[Deidentifier]:
    d = Deidentifier(key=KEY)
    yield d
    d.close()


def _name_parts(names: list[str]) -> set[str]:
    return {p for n in names for p in re.split(r"[\s,^]+", n) if len(p) >= 4}


def _found(parts: set[str], text: str) -> list[str]:
    return [p for p in parts if re.search(rf"\b{re.escape(p)}\b", text, re.IGNORECASE)]


def test_deidentify_text_with_a_patient_header(deid: Deidentifier) -> None:
    result = deid.deidentify(TEXT, PATIENT)
    assert isinstance(result, DeidentifiedText)
    assert "Smithers" not in result.text and "617-555-1234" not in result.text and "03/05/2014" not in result.text
    by_type = {s.type: TEXT[s.start : s.end] for s in result.spans}
    assert by_type["PATIENT"] == "Jonathan Smithers"
    assert by_type["PHONE"] == "617-555-1234" and by_type["DATE"] == "03/05/2014"
    patient_span = next(s for s in result.spans if s.type == "PATIENT")
    assert "header" in patient_span.sources and 0 < patient_span.score <= 1
    assert result.patient_pseudonym  # the patient id became a pseudonym
    assert result.to_json()["spans"][0] == result.spans[0].to_json()


def test_patient_as_header_or_dict_and_consistent_surrogates(deid: Deidentifier) -> None:
    as_dict = deid.deidentify(TEXT, PATIENT)
    as_model = deid.deidentify(TEXT, PatientHeader.model_validate(PATIENT))
    assert as_dict == as_model, "same patient, same surrogates and date offset"
    # A second instance with the same key (and its own store) agrees too: surrogates derive from the key.
    with Deidentifier(key=KEY, store=InMemoryMappingStore()) as other:
        assert other.deidentify(TEXT, PATIENT).text == as_dict.text


def test_detect_reports_what_deidentify_replaces(deid: Deidentifier) -> None:
    spans = deid.detect(TEXT, PATIENT)
    assert all(isinstance(s, DetectedSpan) for s in spans)
    assert [(s.start, s.end, s.type) for s in spans] == [(s.start, s.end, s.type) for s in deid.deidentify(TEXT, PATIENT).spans]
    assert {"PATIENT", "CITY", "STATE", "ZIP", "DATE", "PHONE", "AGE"} <= {s.type for s in spans}


def test_policy_choice_safe_harbor_keeps_a_state_and_an_age_under_90() -> None:
    with Deidentifier("safe-harbor", key=KEY) as deid:
        result = deid.deidentify(TEXT, PATIENT)
        types = {s.type for s in deid.detect(TEXT, PATIENT)}
    assert "MA" in result.text and "45 year old" in result.text
    assert "90+" in result.text and "93" not in result.text, "ages over 89 are aggregated"
    assert "2014" in result.text and "03/05/2014" not in result.text, "dates to the year"
    assert "STATE" not in types and "AGE" in types
    assert result.spans and all(s.type != "STATE" for s in result.spans)


def test_policy_from_a_yaml_path_and_a_policy_object(tmp_path: Path) -> None:
    from deid_core.message.policy import shipped_policy

    shipped = Path(__file__).resolve().parents[2] / "deid_core" / "message" / "policies" / "safe-harbor.yaml"
    with Deidentifier(shipped, key=KEY) as by_path, Deidentifier(shipped_policy("safe-harbor"), key=KEY) as by_object:
        assert by_path.policy.name == by_object.policy.name == "safe-harbor"
        assert by_path.deidentify(TEXT, PATIENT, note_id="n1") == by_object.deidentify(TEXT, PATIENT, note_id="n1")


@pytest.mark.parametrize(("sample", "loader", "fmt"), [
    ("MDM-T02-02.hl7", Hl7Loader(), "auto"), ("MDM-T02-02.hl7", Hl7Loader(), "hl7"),
    ("bundle.json", FhirLoader(), "auto"), ("bundle.json", FhirLoader(), "fhir"),
])  # fmt: skip
def test_deidentify_message_same_format_out_and_names_gone(deid: Deidentifier, sample: str, loader: object, fmt: str) -> None:
    raw = (SAMPLES / sample).read_bytes()
    original = loader.load(raw)  # type: ignore[attr-defined]
    out = deid.deidentify_message(raw, fmt)  # type: ignore[arg-type]
    again = loader.load(out)  # type: ignore[attr-defined]
    assert again.format == original.format and again.patient is not None
    parts = _name_parts(original.patient.names)
    assert parts and not _found(parts, out.decode("utf-8"))
    assert again.patient.patient_id != original.patient.patient_id


def test_bad_messages_raise_phi_free_errors(deid: Deidentifier) -> None:
    with pytest.raises(EventParseError) as err:
        deid.deidentify_message(f"MSH|{CANARY}".encode())
    assert CANARY not in str(err.value)
    with pytest.raises(EventParseError) as err:
        deid.deidentify_message(f'{{"resourceType": "Patient", "{CANARY}": "{CANARY}"}}'.encode(), "fhir")
    assert CANARY not in str(err.value)
    with pytest.raises(EventParseError) as err:
        deid.deidentify(TEXT, {"patient_id": "p1", "names": CANARY, CANARY: 1})
    assert CANARY not in str(err.value) and err.value.code == "json.invalid"
    with pytest.raises(ValueError, match="unknown message format"):
        deid.deidentify_message(b"MSH|^~\\&|", "xml")  # type: ignore[arg-type]


async def test_async_twins_and_async_context_manager() -> None:
    raw = (SAMPLES / "bundle.json").read_bytes()

    def sync_results() -> tuple[DeidentifiedText, bytes]:  # a thread has no running loop: the sync API works there
        with Deidentifier(key=KEY) as sync_deid:
            return sync_deid.deidentify(TEXT, PATIENT, note_id="n1"), sync_deid.deidentify_message(raw)

    expected_text, expected_message = await asyncio.to_thread(sync_results)
    async with Deidentifier(key=KEY) as deid:
        assert await deid.adeidentify(TEXT, PATIENT, note_id="n1") == expected_text
        assert await deid.adetect(TEXT, PATIENT, note_id="n1") == list(expected_text.spans)
        assert await deid.adeidentify_message(raw) == expected_message


async def test_concurrent_async_calls_share_batches_and_agree() -> None:
    texts = [f"{TEXT} Visit {i}." for i in range(12)]
    async with Deidentifier(key=KEY) as one_by_one:
        expected = [await one_by_one.adeidentify(t, PATIENT, note_id=f"n{i}") for i, t in enumerate(texts)]
    async with Deidentifier(key=KEY, batch_max=5) as batched:
        got = await asyncio.gather(*(batched.adeidentify(t, PATIENT, note_id=f"n{i}") for i, t in enumerate(texts)))
    assert got == expected


async def test_sync_call_inside_a_running_loop_names_the_async_twin(deid: Deidentifier) -> None:
    with pytest.raises(EventLoopError, match=r"await Deidentifier\.adeidentify"):
        deid.deidentify(TEXT, PATIENT)
    with pytest.raises(EventLoopError, match=r"adetect"):
        deid.detect(TEXT)
    with pytest.raises(EventLoopError, match=r"adeidentify_message"):
        deid.deidentify_message(b"MSH|^~\\&|")


def test_a_loop_bound_store_serves_one_loop() -> None:
    class NetworkStore(InMemoryMappingStore):
        """Stands for Redis: its connections would belong to the loop that opened them."""

    deid = Deidentifier(key=KEY, store=NetworkStore())
    deid.deidentify(TEXT, PATIENT)  # the private loop
    with pytest.raises(EventLoopError, match="another event loop"):
        asyncio.run(deid.adeidentify(TEXT, PATIENT))
    deid.close()
    with pytest.raises(RuntimeError, match="closed"):
        deid.deidentify(TEXT)


def test_an_empty_text_and_no_patient(deid: Deidentifier) -> None:
    assert deid.deidentify("") == DeidentifiedText("", (), None)
    assert deid.detect("No PHI here.") == []


def test_the_default_key_is_the_development_key_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING"), Deidentifier() as deid:
        assert deid.pipeline.surrogator.key.is_development
    assert "DEVELOPMENT key" in caplog.text


def test_importing_deid_core_stays_cheap() -> None:
    import subprocess
    import sys

    code = "import sys, deid_core; assert 'deid_core.api' not in sys.modules; assert deid_core.Deidentifier; print('ok')"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-2000:]
