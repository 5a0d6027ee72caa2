"""HL7 v2.5.1 structure: each segment's fields and each datatype's components, read from ``hl7apy``.

``hl7apy.v2_5_1.segments.SEGMENTS`` describes every field as a ``('leaf', None, datatype, name, ...)``
or ``('sequence', (components...), datatype, name, ...)`` tuple, components nested the same way down
to subcomponents. This module turns that into ``TypeNode`` trees, once (cached factories, built on
first use so importing the codec stays cheap).

Segments the tables do not define (Z-segments, anything unknown) have no entry: every value in them is
``Kind.UNKNOWN``. Datatypes withdrawn before v2.5.1 (``PN``, ``CN``, ``TN``, ...) can still be named by
an old message's OBX-2, so ``value_type_node`` falls back to the v2.4 tables for those.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from types import ModuleType
from typing import Any

# hl7apy's field datatype for a field whose type depends on another field (OBX-5, QPD-3, MFE-4, ...).
VARIES = "varies"
_DATATYPE_NAME = re.compile(r"[A-Z][A-Z0-9_]{1,15}")


@dataclass(frozen=True, slots=True)
class TypeNode:
    """A field, component or subcomponent as the tables define it. No children: a primitive value."""

    datatype: str
    """'ST', 'CX', ... ; '' where the table names none (withdrawn fields), ``VARIES`` for OBX-5 and kin."""
    name: str
    """The table's element name, e.g. 'PATIENT_NAME', 'FAMILY_NAME' (for docs and tests, never data)."""
    children: tuple[TypeNode, ...] = ()


def _node(spec: Sequence[Any]) -> TypeNode:
    kind, body, datatype, name = spec[0], spec[1], spec[2], spec[3]
    children: tuple[TypeNode, ...] = ()
    if kind == "sequence":
        children = tuple(_node(child[1]) for child in body)
    return TypeNode(datatype or "", name or "", children)


def _version(version: str) -> ModuleType:
    # Imported on first use: hl7apy's tables take tens of milliseconds to import.
    if version == "2.5.1":
        import hl7apy.v2_5_1 as module
    else:
        import hl7apy.v2_4 as module
    return module


@cache
def segment_table() -> dict[str, tuple[TypeNode, ...]]:
    """Segment id -> its fields in order (index 0 is field 1). Only segments v2.5.1 defines."""
    table: dict[str, tuple[TypeNode, ...]] = {}
    for segment, (kind, fields) in _version("2.5.1").SEGMENTS.items():
        if kind != "sequence":  # ANYHL7SEGMENT: a choice of segments, not a segment
            continue
        table[segment] = tuple(_node(f[1]) for f in fields)
    return table


def segment_names() -> tuple[str, ...]:
    """Every segment id HL7 v2.5.1 defines, sorted."""
    return tuple(sorted(segment_table()))


def segment_fields(segment: str) -> tuple[TypeNode, ...] | None:
    """The fields of ``segment`` (index 0 is field 1), or None for a segment the tables do not define."""
    return segment_table().get(segment)


@lru_cache(maxsize=256)  # bounded: the name comes from the message
def value_type_node(datatype: str) -> TypeNode | None:
    """The tree of a datatype named at run time (OBX-2), or None if no table knows it."""
    if not _DATATYPE_NAME.fullmatch(datatype):
        return None
    for version in ("2.5.1", "2.4"):
        module = _version(version)
        if datatype in module.DATATYPES_STRUCTS:
            return TypeNode(
                datatype, datatype, tuple(_node(c[1]) for c in module.DATATYPES_STRUCTS[datatype])
            )
        if datatype in module.BASE_DATATYPES:
            return TypeNode(datatype, datatype)
    return None
