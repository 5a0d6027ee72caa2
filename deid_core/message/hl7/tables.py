"""HL7 v2 structure: each segment's fields and each datatype's components, read from ``hl7apy``.

``hl7apy.v2_5_1.segments.SEGMENTS`` describes every field as a ``('leaf', None, datatype, name, ...)``
or ``('sequence', (components...), datatype, name, ...)`` tuple, components nested the same way down
to subcomponents. This module turns that into ``TypeNode`` trees, once (cached factories, built on
first use so importing the codec stays cheap).

v2.5.1 is the primary definition: ``segment_table``, ``segment_names`` and ``segment_fields`` are
v2.5.1 alone. What v2.5.1 does not define, the newest tables ``hl7apy`` ships (``newer_version``,
v2.8.2 today) may (``fallback_fields``): segments added since (PRT, ARV, ...), fields added at the end
of a segment (MSH-22..25, PID-40, NTE-5..8), fields v2.5.1 reserves without a datatype (OBX-20..22),
and components or subcomponents added to a datatype (XTN.13-18, CWE.10-22, PL.1 as HD instead of IS).

Positions in the newer tables cannot be trusted as they stand: hl7apy's v2.8.x tables leave out some
withdrawn fields, so the fields after them sit one place early (its v2.8.2 PID has 39 fields, the
telecom field PID-40 at index 39; EVN-1 and PV1-52 are missing). ``_aligned`` therefore matches the
newer segment's field names against v2.5.1's (``difflib``): a matched or renamed field keeps v2.5.1's
position, v2.5.1 fields the newer table lacks are skipped, and the fields after the last v2.5.1 field
are numbered on from there. A newer field v2.5.1 also has (same name, or renamed with the same or a
widened datatype: CE->CWE, TS->DTM, IS->CWE) is "the same field": only then does its tree extend
v2.5.1's (a primitive made composite: OBX-8 IS -> CWE). Otherwise a v2.5.1 field is only extended by
the newer version of its own datatype (XTN.13-18), and a composite replaced by another (ORC-4 EI ->
EIP) is not extended at all. A newer field that cannot be placed is left out (its values stay
unknown). The test suite checks the placement against hl7apy's v2.7 tables, which keep withdrawn fields.

Segments no table defines (Z-segments, anything unknown) have no entry: every value in them is
``Kind.UNKNOWN``. Datatypes withdrawn before v2.5.1 (``PN``, ``CN``, ``TN``, ...) can still be named by
an old message's OBX-2, so ``value_type_node`` falls back to the v2.4 tables for those.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from types import ModuleType
from typing import Any

# hl7apy's field datatype for a field whose type depends on another field (OBX-5, QPD-3, MFE-4, ...).
VARIES = "varies"
# A withdrawn field or component in hl7apy's v2.7+ tables: a placeholder, not a definition.
WITHDRAWN = "WD"
PRIMARY = "2.5.1"
# Newest first: the first that hl7apy ships is the fallback.
NEWER_VERSIONS = ("2.8.2", "2.8.1", "2.8", "2.7.1", "2.7", "2.6")
_DATATYPE_NAME = re.compile(r"[A-Z][A-Z0-9_]{1,15}")
# Datatypes v2.6+ renamed or widened: the newer field or component is the same element.
_WIDER = frozenset(
    {("CE", "CWE"), ("CE", "CNE"), ("TS", "DTM"), ("IS", "CWE"), ("IS", "CNE"), ("ID", "CWE"), ("ID", "CNE")}
)
_RENAMED = {"CE": "CWE", "TS": "DTM"}


@dataclass(frozen=True, slots=True)
class TypeNode:
    """A field, component or subcomponent as the tables define it. No children: a primitive value."""

    datatype: str
    """'ST', 'CX', ... ; '' where the table names none (withdrawn fields), ``VARIES`` for OBX-5 and kin."""
    name: str
    """The table's element name, e.g. 'PATIENT_NAME', 'FAMILY_NAME' (for docs and tests, never data)."""
    children: tuple[TypeNode, ...] = ()


@dataclass(frozen=True, slots=True)
class FallbackField:
    """A field as v2.5.1 and the newer tables define it together (``fallback_fields``)."""

    node: TypeNode
    """v2.5.1's tree where it has one, with what the newer tables add below it; else the newer tree."""
    newer: bool
    """True where v2.5.1 has no field with a datatype at this position: the field is the newer one's,
    and only ``newer_fields`` corrections in datatypes.yaml apply to it."""


def _node(spec: Sequence[Any]) -> TypeNode:
    kind, body, datatype, name = spec[0], spec[1], spec[2], spec[3]
    children: tuple[TypeNode, ...] = ()
    if kind == "sequence" and body:  # hl7apy's v2.7 TQ1-1 is a 'sequence' without components
        children = tuple(_node(child[1]) for child in body)
    return TypeNode(datatype or "", name or "", children)


def _version(version: str) -> ModuleType:
    # Imported on first use: hl7apy's tables take tens of milliseconds to import.
    return importlib.import_module("hl7apy.v" + version.replace(".", "_"))


@cache
def newer_version() -> str:
    """The newest HL7 version whose tables ``hl7apy`` ships (the fallback for what v2.5.1 lacks)."""
    for version in NEWER_VERSIONS:
        if importlib.util.find_spec("hl7apy.v" + version.replace(".", "_")) is not None:
            return version
    return PRIMARY  # no newer tables: the fallback adds nothing


@cache
def _segments(version: str) -> dict[str, tuple[TypeNode, ...]]:
    table: dict[str, tuple[TypeNode, ...]] = {}
    for segment, spec in _version(version).SEGMENTS.items():
        # ANYHL7SEGMENT is a choice of segments; hl7apy's v2.7+ QRD/URD/... are empty sequences.
        if spec[0] == "sequence" and len(spec) > 1:
            table[segment] = tuple(_node(f[1]) for f in spec[1])
    return table


@cache
def segment_table() -> dict[str, tuple[TypeNode, ...]]:
    """Segment id -> its fields in order (index 0 is field 1). Only segments v2.5.1 defines."""
    return _segments(PRIMARY)


def segment_names() -> tuple[str, ...]:
    """Every segment id HL7 v2.5.1 defines, sorted."""
    return tuple(sorted(segment_table()))


def segment_fields(segment: str) -> tuple[TypeNode, ...] | None:
    """The fields of ``segment`` (index 0 is field 1), or None for a segment the tables do not define."""
    return segment_table().get(segment)


@cache
def _structs(version: str) -> dict[str, TypeNode]:
    module = _version(version)
    return {
        dt: TypeNode(dt, dt, tuple(_node(c[1]) for c in comps))
        for dt, comps in module.DATATYPES_STRUCTS.items()
    }


def _same_type(old: str, new: str) -> bool:
    return old == new or (old, new) in _WIDER


def _merge(old: TypeNode | None, new: TypeNode | None) -> TypeNode:
    """One element's tree: v2.5.1's (``old``) where it has one, extended by the newer tables' (``new``).

    A composite keeps v2.5.1's components and gains the ones the newer version of the same datatype
    adds; a v2.5.1 primitive the newer tables made composite (PL.1 IS -> HD, OBX-8 IS -> CWE) keeps
    answering for its value, and the newer composite for the components after it. A datatype the
    newer tables use is read with v2.5.1's components first where v2.5.1 defines it too.
    """
    assert old is not None or new is not None
    if old is None:
        assert new is not None
        base = _structs(PRIMARY).get(new.datatype)
        if base is None or not new.children:
            return replace(new, children=tuple(_merge(None, c) for c in new.children))
        old = replace(base, name=new.name)
    if not old.children:
        if new is not None and new.children:
            return _merge(None, new)
        return old
    if new is None or _RENAMED.get(old.datatype, old.datatype) != _RENAMED.get(new.datatype, new.datatype):
        new = _structs(newer_version()).get(_RENAMED.get(old.datatype, old.datatype))
    extra = new.children if new is not None else ()
    children = [_merge(o, extra[i] if i < len(extra) else None) for i, o in enumerate(old.children)]
    children.extend(_merge(None, c) for c in extra[len(old.children) :])
    return TypeNode(old.datatype, old.name, tuple(children))


@lru_cache(maxsize=512)  # bounded: the segment id comes from the message
def _aligned(segment: str, version: str) -> dict[int, tuple[TypeNode, bool]]:
    """Real field number (1-based) -> (the ``version`` table's field, whether it is v2.5.1's field).

    hl7apy's newer tables drop some withdrawn fields, so a field's index there is not its number.
    The names are matched against v2.5.1's: matched fields take v2.5.1's number; renamed ones (a 1:1
    replacement between matches) too, and are the same field if the datatype is the same or widened;
    newer fields after v2.5.1's last field are numbered on from it, after any v2.5.1 fields at the end
    that the newer table lacks or renamed to an unrelated datatype (PV1-52 withdrawn: its v2.8.2
    PV1-52 is really PV1-53). Newer fields inserted between matched ones cannot be numbered: left out.
    """
    new = _segments(version).get(segment, ())
    old = segment_table().get(segment)
    if old is None:
        return {j + 1: (node, False) for j, node in enumerate(new)}
    # v2.5.1's fields without a datatype are reserved positions whose names mean nothing (hl7apy
    # names OBX-20..22 after OBX-23..25): they match nothing, but keep their place.
    names_old = [f.name if f.datatype else f"\0{i}" for i, f in enumerate(old)]
    matcher = difflib.SequenceMatcher(a=names_old, b=[f.name for f in new], autojunk=False)
    out: dict[int, tuple[TypeNode, bool]] = {}
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.update({i1 + t + 1: (new[j1 + t], True) for t in range(i2 - i1)})
        elif tag == "delete":
            continue
        elif i2 == len(old):  # the tail: renamed fields, then the fields the newer version added
            k = 0
            while k < min(i2 - i1, j2 - j1) and (
                not old[i1 + k].datatype or _same_type(old[i1 + k].datatype, new[j1 + k].datatype)
            ):
                out[i1 + k + 1] = (new[j1 + k], bool(old[i1 + k].datatype))
                k += 1
            out.update({i2 + t + 1: (new[j1 + k + t], False) for t in range(j2 - j1 - k)})
        elif tag == "replace" and i2 - i1 == j2 - j1:
            for t in range(i2 - i1):
                o, n = old[i1 + t], new[j1 + t]
                out[i1 + t + 1] = (n, bool(o.datatype) and _same_type(o.datatype, n.datatype))
    return out


@lru_cache(maxsize=512)  # bounded: the segment id comes from the message
def fallback_fields(segment: str) -> tuple[FallbackField | None, ...] | None:
    """The fields of ``segment`` as v2.5.1 and the newer tables define them together (index 0 is
    field 1; None where neither defines a field), or None for a segment neither table defines."""
    old = segment_table().get(segment, ())
    version = newer_version()
    aligned = _aligned(segment, version) if version != PRIMARY else {}
    if not old and not aligned:
        return None
    fields: list[FallbackField | None] = []
    for f in range(1, max([len(old), *aligned]) + 1):
        base = old[f - 1] if f <= len(old) and old[f - 1].datatype else None
        new, same = aligned.get(f, (None, False))
        if new is not None and (new.datatype in ("", WITHDRAWN) and not new.children):
            new = None  # withdrawn in the newer version: a placeholder, not a definition
        if base is not None:
            node = base if base.datatype == VARIES else _merge(base, new if same else None)
            fields.append(FallbackField(node, newer=False))
        elif new is not None:
            fields.append(FallbackField(_merge(None, new), newer=True))
        else:
            fields.append(None)
    return tuple(fields)


def fallback_segment_names() -> tuple[str, ...]:
    """The segment ids only the newer tables define (PRT, ARV, ...), sorted."""
    version = newer_version()
    if version == PRIMARY:
        return ()
    return tuple(sorted(set(_segments(version)) - set(segment_table())))


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


@lru_cache(maxsize=256)
def fallback_value_type_node(datatype: str) -> TypeNode | None:
    """``value_type_node`` extended by the newer tables (CWE.10-22, ...), or the newer tables' tree
    of a datatype only they define."""
    node = value_type_node(datatype)
    if node is not None:
        return _merge(node, None)
    if not _DATATYPE_NAME.fullmatch(datatype) or newer_version() == PRIMARY:
        return None
    struct = _structs(newer_version()).get(datatype)
    if struct is not None:
        return _merge(None, struct)
    if datatype in _version(newer_version()).BASE_DATATYPES and datatype != WITHDRAWN:
        return TypeNode(datatype, datatype)
    return None
