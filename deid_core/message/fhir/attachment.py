"""Inline attachment payloads: base64 in, text by the declared charset, and back.

A text payload (``text/plain`` or any other ``text/*``) is decoded so that notes and text attachments
can be read and replaced; anything else stays base64 and can only be kept or dropped. When the
payload changes, ``size`` is recomputed and ``hash`` dropped: the hash of the original bytes would no
longer match (and a hash of a short text is itself a confirmation oracle for guesses). A new text that
does not fit the declared charset is written as UTF-8 with the ``contentType`` charset updated, rather
than failing on a valid message.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
from dataclasses import dataclass
from typing import Any

from schemas.events import EventParseError

_B64_WHITESPACE = re.compile(rb"\s+")


@dataclass(frozen=True, slots=True)
class MediaType:
    media: str
    """Lower-cased type/subtype, parameters removed."""
    charset: str
    """The declared charset, UTF-8 when none is declared."""

    @property
    def is_text(self) -> bool:
        return self.media.startswith("text/")


def media_type(content_type: object) -> MediaType | None:
    if not isinstance(content_type, str):
        return None
    media, *params = (p.strip() for p in content_type.split(";"))
    charset = "utf-8"
    for p in params:
        name, _, value = p.partition("=")
        if name.strip().lower() == "charset":
            charset = value.strip().strip('"').strip("'")
    return MediaType(media.lower(), charset)


def decode_base64(data: str) -> bytes | None:
    try:
        return base64.b64decode(_B64_WHITESPACE.sub(b"", data.encode("ascii")), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None


def decode_text(data: str, charset: str) -> str | None:
    """The text of a base64 payload in ``charset``; None if base64, charset or bytes are not valid."""
    payload = decode_base64(data)
    if payload is None:
        return None
    try:
        codecs.lookup(charset)
        return payload.decode(charset)
    except (LookupError, UnicodeDecodeError):
        return None


def decode_note(att: dict[str, Any], where: str) -> tuple[str, str] | None:
    """(text, charset) of an inline ``text/plain`` attachment; None for any other attachment.

    A note that cannot be read is an error, not a leaf: its text is what the message is for.
    """
    mt, data = media_type(att.get("contentType")), att.get("data")
    if mt is None or mt.media != "text/plain" or not isinstance(data, str):
        return None
    try:
        codecs.lookup(mt.charset)
    except LookupError:
        raise EventParseError("fhir.charset", f"{where}: unknown charset") from None
    payload = decode_base64(data)
    if payload is None:
        raise EventParseError("fhir.base64", f"{where}: attachment data is not valid base64")
    try:
        return payload.decode(mt.charset), mt.charset
    except UnicodeDecodeError as exc:
        raise EventParseError("fhir.charset", f"{where}: attachment data is not valid in its charset (byte offset {exc.start})") from None


def write_text(att: dict[str, Any], text: str, charset: str) -> None:
    """Encode ``text`` into ``att`` (``data``, ``size``; ``hash`` dropped), UTF-8 if ``charset`` cannot hold it."""
    try:
        payload = text.encode(charset)
    except UnicodeEncodeError:
        payload = text.encode("utf-8")
        mt = media_type(att.get("contentType"))
        att["contentType"] = f"{mt.media if mt else 'text/plain'}; charset=utf-8"
    att["data"] = base64.b64encode(payload).decode("ascii")
    refresh_derived(att, len(payload))


def refresh_derived(att: dict[str, Any], size: int | None) -> None:
    """``size`` of the new payload (removed with it when ``size`` is None); ``hash`` always dropped."""
    att.pop("hash", None)
    att.pop("_hash", None)
    if size is None:
        att.pop("size", None)
        att.pop("_size", None)
    else:
        att["size"] = size
