"""Where the id sits inside a reference, a ``fullUrl`` or a ``urn:``, so a pseudonym replaces only it.

A resource's ``id``, the ``fullUrl`` of its Bundle entry and every reference to it carry the same id
in different wrappings (``123``, ``http://x/fhir/Patient/123``, ``Patient/123/_history/2``,
``urn:uuid:...``, ``#123`` for contained resources). The leaf value is the bare id in each, so one
keyed pseudonym of that value, written back between the same prefix and suffix, keeps every
reference resolving. A conditional reference (``Patient?identifier=sys|123``) has no id: its whole
query is the value (it usually holds an MRN). Anything else is one opaque value: nothing of it is
kept without being decided.

Only literal references whose type segment is a known R4B resource type are split; a URL that merely
looks like one (``http://host/Images/...``) is a single value, so no part of it passes undecided.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from deid_core.message.fhir import schema

_ID = r"[A-Za-z0-9\-.]{1,64}"
_LITERAL = re.compile(rf"^(?P<prefix>(?:[^?#]*/)?(?P<type>[A-Z][A-Za-z]{{1,63}})/)(?P<id>{_ID})(?P<suffix>/_history/{_ID})?$")
_CONDITIONAL = re.compile(r"^(?P<prefix>(?P<type>[A-Z][A-Za-z]{1,63})\?)(?P<id>.+)$", re.DOTALL)
_URN = re.compile(r"^(?P<prefix>urn:(?:uuid|oid):)(?P<id>.+)$", re.DOTALL)
_LOCAL = re.compile(r"^(?P<prefix>#)(?P<id>.+)$", re.DOTALL)
# Reference.type may be a type name or a StructureDefinition URL ending in one.
_TYPE_TAIL = re.compile(r"(?:^|/)(?P<type>[A-Z][A-Za-z]{1,63})$")


@dataclass(frozen=True, slots=True)
class Split:
    prefix: str
    value: str
    suffix: str = ""
    target: str | None = None
    """The resource type referred to, where the reference names it."""

    def join(self, new: str) -> str:
        return f"{self.prefix}{new}{self.suffix}"


def _known(rtype: str) -> bool:
    return schema.resource_class(rtype) is not None


def split_reference(value: str) -> Split:
    """Reference.reference: local, urn, literal (relative, absolute, versioned) or conditional."""
    for pattern in (_LOCAL, _URN):
        m = pattern.match(value)
        if m:
            return Split(m["prefix"], m["id"])
    m = _LITERAL.match(value)
    if m and _known(m["type"]):
        return Split(m["prefix"], m["id"], m["suffix"] or "", m["type"])
    m = _CONDITIONAL.match(value)
    if m and _known(m["type"]):
        return Split(m["prefix"], m["id"], "", m["type"])
    return Split("", value)


def split_full_url(value: str) -> Split:
    """Bundle.entry.fullUrl: the tail of a ``urn:uuid:``/``urn:oid:``, or the id of a RESTful URL."""
    m = _URN.match(value)
    if m:
        return Split(m["prefix"], m["id"])
    m = _LITERAL.match(value)
    if m and _known(m["type"]):
        return Split(m["prefix"], m["id"], m["suffix"] or "", m["type"])
    return Split("", value)


def type_of(reference: dict[str, object], local: Mapping[str, str] | None = None) -> str | None:
    """The resource type a Reference object points to: from its literal reference (``local`` maps the
    ones that name no type, ``#id`` and ``urn:uuid:``, to the resource they name), else its ``type``."""
    ref = reference.get("reference")
    if isinstance(ref, str):
        target = split_reference(ref).target
        if target is None and local:
            target = local.get(ref)
        if target is not None:
            return target
    typ = reference.get("type")
    if isinstance(typ, str):
        m = _TYPE_TAIL.search(typ)
        if m and _known(m["type"]):
            return m["type"]
    return None
