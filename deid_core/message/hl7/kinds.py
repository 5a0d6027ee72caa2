"""What each HL7 v2 value is: its ``Kind``, PHI type, datatype and role, from ``datatypes.yaml``.

``field_value_spec`` answers for a position (segment, field, component, subcomponent) of a segment the
v2.5.1 tables define, ``value_type_spec`` for OBX-5 under the OBX-2 value type. Where v2.5.1 does not
define the position, the newer tables answer (``tables.fallback_fields``: PRT, MSH-22, PID-40, XTN.13,
...); a field that is only the newer tables' gets the ``newer_fields`` corrections of datatypes.yaml,
never the v2.5.1 ``fields`` ones, which were written for whatever v2.5.1 has at that number. Both are
pure functions of the tables and the YAML (cached); a few answers depend on a sibling value in the same
repetition (CX.5 refines CX.1's PHI type, ED.2-4 say whether ED.5 is text), which the spec names for
the codec to read (``phi_ref``, ``attachment``).

Fail closed: a segment, field, component or subcomponent the tables do not define, and a datatype no
table or rule names, is ``Kind.UNKNOWN``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from deid_core import yamldata
from deid_core.message.hl7.tables import (
    TypeNode,
    fallback_fields,
    fallback_value_type_node,
    segment_fields,
    value_type_node,
)
from schemas.message import Kind, Role
from schemas.phi import PhiType


@dataclass(frozen=True, slots=True)
class AttachmentRef:
    """Where an ED payload's type, subtype and encoding sit: (component, subcomponent), 1-based."""

    type: tuple[int, int]
    subtype: tuple[int, int]
    encoding: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ValueSpec:
    kind: Kind
    phi_type: PhiType | None = None
    datatype: str = ""
    types: tuple[str, ...] = ()
    role: Role = Role.NONE
    phi_ref: tuple[int, int] | None = None
    """(component, subcomponent) of the code that refines ``phi_type`` through ``phi_table``."""
    phi_table: str = ""
    attachment: AttachmentRef | None = None


UNKNOWN = ValueSpec(Kind.UNKNOWN)


@dataclass(frozen=True, slots=True)
class _Rule:
    kind: Kind | None = None
    phi: PhiType | None = None
    datatype: str | None = None
    role: Role | None = None
    phi_from: tuple[int, str] | None = None
    attachment: tuple[int, int, int] | None = None


@dataclass(frozen=True, slots=True)
class Attachments:
    text_types: frozenset[str]
    text_subtypes: frozenset[str]
    plain_encodings: frozenset[str]
    base64_encodings: frozenset[str]


@dataclass(frozen=True, slots=True)
class _Config:
    primitives: dict[str, _Rule]
    composites: dict[str, dict[int, _Rule]]
    tables: dict[str, dict[str, PhiType]]
    attachments: Attachments
    names: dict[str, PhiType]
    fields: dict[str, _Rule]
    newer_fields: dict[str, _Rule]
    newer_names: dict[str, PhiType]


def _rule(data: Any) -> _Rule:
    if isinstance(data, str):
        return _Rule(kind=Kind(data))
    if not isinstance(data, dict):
        raise ValueError("datatypes.yaml: a rule is a kind or a mapping")
    unknown = set(data) - {"kind", "phi", "datatype", "role", "phi_from", "attachment"}
    if unknown:
        raise ValueError(f"datatypes.yaml: unknown rule keys {sorted(unknown)}")
    phi_from = data.get("phi_from")
    attachment = data.get("attachment")
    return _Rule(
        kind=Kind(data["kind"]) if "kind" in data else None,
        phi=PhiType.parse(data["phi"]) if "phi" in data else None,
        datatype=data.get("datatype"),
        role=Role(data["role"]) if "role" in data else None,
        phi_from=(int(phi_from["component"]), str(phi_from["table"])) if phi_from else None,
        attachment=(int(attachment["type"]), int(attachment["subtype"]), int(attachment["encoding"]))
        if attachment
        else None,
    )


def _upper(items: Any) -> frozenset[str]:
    return frozenset(str(i).upper() for i in items)


@cache
def config() -> _Config:
    """``datatypes.yaml``, parsed and checked once."""
    text = resources.files("deid_core.message.hl7").joinpath("datatypes.yaml").read_text("utf-8")
    data = yamldata.safe_load(text)
    tables = {
        name: {str(code).upper(): PhiType.parse(t) for code, t in rows.items()}
        for name, rows in data["tables"].items()
    }
    composites = {
        dt: {int(n): _rule(r) for n, r in rules.items()} for dt, rules in data["composites"].items()
    }
    for rules in composites.values():
        for r in rules.values():
            if r.phi_from is not None and r.phi_from[1] not in tables:
                raise ValueError("datatypes.yaml: phi_from names an undefined table")
    att = data["attachments"]
    return _Config(
        primitives={dt: _rule(r) for dt, r in data["primitives"].items()},
        composites=composites,
        tables=tables,
        attachments=Attachments(
            _upper(att["text_types"]),
            _upper(att["text_subtypes"]),
            _upper(att["plain_encodings"]),
            _upper(att["base64_encodings"]),
        ),
        names={key: PhiType.parse(t) for key, t in data["names"].items()},
        fields={str(key): _rule(r) for key, r in data["fields"].items()},
        newer_fields={str(key): _rule(r) for key, r in data["newer_fields"].items()},
        newer_names={key: PhiType.parse(t) for key, t in data["newer_names"].items()},
    )


def refine_phi(spec: ValueSpec, code: str) -> PhiType | None:
    """The PHI type of a value whose spec has a ``phi_ref``, given the raw code found there."""
    if not spec.phi_table:
        return spec.phi_type
    return config().tables[spec.phi_table].get(code.strip().upper(), spec.phi_type)


def _apply(spec: ValueSpec, rule: _Rule) -> ValueSpec:
    changes: dict[str, Any] = {}
    if rule.kind is not None:
        changes["kind"] = rule.kind
        changes["phi_type"] = rule.phi
    if rule.phi is not None:
        changes["phi_type"] = rule.phi
    if rule.kind is not None or rule.phi is not None:
        changes["phi_ref"], changes["phi_table"], changes["attachment"] = None, "", None
    if rule.datatype is not None:
        changes["datatype"] = rule.datatype
    if rule.role is not None:
        changes["role"] = rule.role
    return replace(spec, **changes) if changes else spec


def _at(level: int, comp: int, n: int) -> tuple[int, int]:
    # A rule's sibling numbers are relative to its composite: components of the field's datatype
    # (level 0), or subcomponents of component ``comp`` (level 1).
    return (n, 1) if level == 0 else (comp, n)


def _from_datatypes(node: TypeNode, comp: int, sub: int) -> ValueSpec | None:
    """The spec from the datatype rules alone, or None beyond what ``node`` defines."""
    chain: list[tuple[TypeNode, int]] = []  # (composite, 1-based child number), outermost first
    value = node
    for n in (comp, sub):
        if not value.children:
            if n != 1:
                return None  # a component or subcomponent the datatype does not have
            continue
        if not 0 < n <= len(value.children):
            return None
        chain.append((value, n))
        value = value.children[n - 1]
    cfg = config()
    types = tuple(c.datatype for c, _ in chain)
    for level, (composite, n) in enumerate(chain):
        rule = cfg.composites.get(composite.datatype, {}).get(n)
        if rule is None or rule.kind is None:
            continue
        spec = ValueSpec(rule.kind, rule.phi, rule.datatype or value.datatype, types)
        if rule.phi_from is not None:
            spec = replace(spec, phi_ref=_at(level, comp, rule.phi_from[0]), phi_table=rule.phi_from[1])
        if rule.attachment is not None:
            t, s, e = (_at(level, comp, i) for i in rule.attachment)
            spec = replace(spec, attachment=AttachmentRef(t, s, e))
        return spec
    primitive = cfg.primitives.get(value.datatype)
    if primitive is None or primitive.kind is None:
        return replace(UNKNOWN, datatype=value.datatype, types=types)
    return ValueSpec(primitive.kind, primitive.phi, primitive.datatype or value.datatype, types)


def _corrected(
    spec: ValueSpec, segment: str, field: int, comp: int, sub: int, newer: bool = False
) -> ValueSpec:
    """``spec`` with the YAML's corrections. ``newer``: the field is the newer tables' alone (v2.5.1 has
    no field there or only a reserved one), so the corrections keyed by field are ``newer_fields`` and
    ``newer_names``; ``fields`` and the field keys of ``names`` were written for v2.5.1's fields and
    never apply (a v2.5.1 key may name another field at that number)."""
    if spec.kind is Kind.UNKNOWN:
        return spec
    cfg = config()
    if spec.kind is Kind.NAME:
        by_field = cfg.newer_names if newer else cfg.names
        who = by_field.get(f"{segment}-{field}", cfg.names.get(segment))
        if who is not None:
            spec = replace(spec, phi_type=who, phi_ref=None, phi_table="")
    rules = cfg.newer_fields if newer else cfg.fields
    for key in (f"{segment}-{field}", f"{segment}-{field}.{comp}", f"{segment}-{field}.{comp}.{sub}"):
        rule = rules.get(key)
        if rule is not None:
            spec = _apply(spec, rule)
    return spec


@lru_cache(maxsize=1 << 16)  # bounded: component and subcomponent numbers come from the message
def field_value_spec(segment: str, field: int, comp: int, sub: int) -> ValueSpec:
    """The spec of ``segment-field.comp.sub``; OBX-5 and other 'varies' fields are UNKNOWN here.

    v2.5.1 answers for every position it defines; the newer tables (``fallback_fields``) for the rest.
    """
    fields = segment_fields(segment)
    if fields is not None and 0 < field <= len(fields) and fields[field - 1].datatype:
        spec = _from_datatypes(fields[field - 1], comp, sub)
        if spec is not None:
            return _corrected(spec, segment, field, comp, sub)
    merged = fallback_fields(segment)
    found = merged[field - 1] if merged is not None and 0 < field <= len(merged) else None
    spec = _from_datatypes(found.node, comp, sub) if found is not None else None
    if found is None or spec is None:
        return UNKNOWN
    return _corrected(spec, segment, field, comp, sub, newer=found.newer)


@lru_cache(maxsize=1 << 12)
def value_type_spec(segment: str, field: int, value_type: str, comp: int, sub: int) -> ValueSpec:
    """The spec of a 'varies' field's value under the datatype another field names (OBX-5 by OBX-2):
    the v2.5.1 (or, for withdrawn types, v2.4) datatype, extended by the newer tables."""
    spec = None
    for node in (value_type_node(value_type), fallback_value_type_node(value_type)):
        spec = _from_datatypes(node, comp, sub) if node is not None else None
        if spec is not None:
            break
    if spec is None:
        return UNKNOWN
    return _corrected(spec, segment, field, comp, sub)
