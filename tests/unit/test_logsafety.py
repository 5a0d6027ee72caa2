from __future__ import annotations

import logging

import pytest

from workers.logsafety import install_payload_redaction, redact_bytes_literals

SECRET = b"PID|1||12345678^^^HOSP^MR||Doe^Jane"


@pytest.fixture
def capture(caplog: pytest.LogCaptureFixture):  # noqa: ANN201
    original = logging.getLogRecordFactory()
    install_payload_redaction()
    install_payload_redaction()  # idempotent
    caplog.set_level(logging.DEBUG)
    yield caplog
    logging.setLogRecordFactory(original)


def text_of(caplog: pytest.LogCaptureFixture) -> str:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    return "\n".join(handler.format(r) for r in caplog.records)


def test_third_party_debug_records_lose_their_text(capture: pytest.LogCaptureFixture) -> None:
    logging.getLogger("aiokafka.producer.producer").debug("Sending (key=%r value=%r)", b"k", SECRET)
    logging.getLogger("faust.transport").debug("send: v=%s", SECRET.decode())
    out = text_of(capture)
    assert "Doe" not in out and "12345678" not in out
    assert "redacted" in out


def test_third_party_errors_keep_their_shape_without_bytes(capture: pytest.LogCaptureFixture) -> None:
    try:
        raise ValueError(f"cannot decode {SECRET!r}")
    except ValueError:
        logging.getLogger("faust.agents").exception("Agent error on event k=%r v=%r", b"key", SECRET)
    out = text_of(capture)
    assert "Doe" not in out and "12345678" not in out
    assert "Agent error on event" in out and "ValueError" in out and "Traceback" in out


def test_own_records_pass_unchanged(capture: pytest.LogCaptureFixture) -> None:
    logging.getLogger("workers.app").debug("batch: %d events", 3)
    assert "batch: 3 events" in text_of(capture)


def test_bytes_literals() -> None:
    assert "Doe" not in redact_bytes_literals(f"x {SECRET!r} y bytearray(b'Doe\\'s') z")
    assert redact_bytes_literals("no bytes here: b is a letter") == "no bytes here: b is a letter"


def test_redacted_records_format_under_faust_formatter(capture: pytest.LogCaptureFixture) -> None:
    """faust's (mode's) formatter re-wraps ``args``; a redacted record must still format (no 'Logging error')."""
    import io

    from mode.utils.logging import ExtensionFormatter

    logging.getLogger("mode.worker").info("[^Worker]: Gathering service tasks... 100%% done")
    logging.getLogger("aiokafka").debug("Sending %r", SECRET)
    formatter = ExtensionFormatter(stream=io.StringIO(), fmt="%(message)s")
    lines = [formatter.format(r) for r in capture.records]
    assert "Gathering service tasks" in lines[0]
    assert all("Doe" not in line for line in lines)
