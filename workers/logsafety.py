"""Keep message payloads out of the logs, whatever the log level.

Our own code logs ids and counts only. The libraries under the worker do not: at DEBUG, aiokafka and faust
log every record they send or fetch with its key and value (``Sending (key=b'..' value=b'..')``), and
their errors may quote an event. A log record factory (it sees every record, before any handler or
filter, including the ones faust installs) therefore rewrites third-party records: DEBUG ones lose their
text entirely, others have every bytes literal replaced by its length, in the message and in the
exception text.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Callable
from typing import Any

OWN_LOGGERS = ("workers", "deid_core", "schemas", "deid", "tests", "__main__")
_BYTES_LITERAL = re.compile(r"""(?:bytearray\()?(?<![\w])b(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\)?""")
_marker = "_deid_payload_redaction"


def redact_bytes_literals(text: str) -> str:
    return _BYTES_LITERAL.sub(lambda m: f"<{len(m.group(0))} chars of bytes redacted>", text)


def _is_own(name: str) -> bool:
    return any(name == own or name.startswith(own + ".") for own in OWN_LOGGERS)


def _redact(record: logging.LogRecord) -> None:
    if record.levelno < logging.INFO:
        record.msg = "[third-party debug record redacted: it may quote message payloads]"
        record.args = ()
        record.exc_info = None
        return
    try:
        message = record.getMessage()
    except Exception:  # noqa: BLE001 - a broken format string must not break logging
        message = str(record.msg)
    record.msg = redact_bytes_literals(message)
    record.args = ()
    if record.exc_info and record.exc_info[0] is not None:
        text = "".join(traceback.format_exception(*record.exc_info))
        record.exc_text = redact_bytes_literals(text).rstrip("\n")
        record.exc_info = None


def install_payload_redaction() -> None:
    """Wrap the process's log record factory once (idempotent)."""
    current: Callable[..., logging.LogRecord] = logging.getLogRecordFactory()
    if getattr(current, _marker, False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = current(*args, **kwargs)
        if not _is_own(record.name):
            _redact(record)
        return record

    setattr(factory, _marker, True)
    logging.setLogRecordFactory(factory)
