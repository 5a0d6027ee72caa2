"""Walks a validated FHIR document with the element table and makes every primitive value a ``Leaf``.

The walk follows the JSON (so leaves come in document order) and looks each key up in the table of the
class it is in: primitives become leaves with their element's rule, complex elements are walked with
their own class, contained and entry resources restart the path at their own type. A key the table does
not describe (``fhir_comments``; anything else validation let through) is walked without a table: its
values become UNKNOWN leaves under a path that never spells an invented key.

Setters write in place; a value decided ``None`` becomes the ``REMOVED`` marker, which
``removals.apply_removals`` resolves on render. The walk records what that needs: the Extension
objects, the required elements, and the attachments whose ``size``/``hash`` follow a new payload.

Narratives (``text`` of DomainResources, Composition.section.text) are not leaves: their XHTML repeats
the resource's PHI in free form that nothing here can take apart. They are always dropped on render.
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from deid_core.message.fhir import attachment, kinds, refs, schema
from deid_core.message.fhir.kinds import Form, Rule
from deid_core.message.fhir.removals import REMOVED, Required
from deid_core.message.fhir.schema import Element
from schemas.events import EventParseError
from schemas.message import Kind, Leaf, Role

_INTEGER = re.compile(r"^-?[0-9]+$")
_DECIMAL = re.compile(r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$")
_INTEGER_TYPES = frozenset({"integer", "positiveInt", "unsignedInt"})
_NARRATIVE_TYPES = frozenset({"Narrative", "xhtml"})
UNKNOWN_SEGMENT = "<unknown>"


@dataclass(frozen=True, slots=True)
class _At:
    """Where the walk is: the resource type rooting the path, the path, the enclosing datatypes."""

    resource: str
    path: str
    types: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    """Reference targets of the element holding the current object."""
    birth: bool = False
    """Inside an extension of a birth date: its dates are birth dates too."""
    local: Mapping[str, str] = field(default_factory=dict)
    """Reference strings in reach that name no type (``#id``, a Bundle's ``urn:uuid:``) -> resource type."""


@dataclass(slots=True)
class Payload:
    """An inline attachment whose data a decision changed: ``size``/``hash`` follow it on render."""

    obj: dict[str, Any]
    size: int | None
    """Byte size of the new payload; None when the data was removed."""


def json_value(new: str, datatype: str) -> object:
    """``new`` as the JSON value of a ``datatype`` element; REMOVED when it is not one (a label in a number)."""
    if datatype == "boolean":
        return {"true": True, "false": False}.get(new, REMOVED)
    if datatype in _INTEGER_TYPES:
        return int(new) if _INTEGER.match(new) and len(new) <= 20 else REMOVED
    if datatype == "decimal":
        if not _DECIMAL.match(new) or len(new) > 64:
            return REMOVED
        if _INTEGER.match(new):
            return int(new)
        number = float(new)
        return number if math.isfinite(number) else REMOVED
    if datatype == "base64Binary":
        return new if attachment.decode_base64(new) is not None else REMOVED
    return new


@dataclass(slots=True)
class TreeBuilder:
    skip: set[tuple[int, str]]
    """(id of a JSON object, key) that are not leaves: note texts and what is derived from them."""
    leaves: list[Leaf] = field(default_factory=list)
    narratives: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    payloads: list[Payload] = field(default_factory=list)
    extensions: set[int] = field(default_factory=set)
    """Ids of the Extension objects: one whose value a decision removed goes as a whole (see ``prune``)."""
    required: list[Required] = field(default_factory=list)
    """Required elements present in the input: one that decisions removed is marked absent."""
    resources: list[dict[str, Any]] = field(default_factory=list)
    """Every resource walked (top level, entries, contained, nested), for the header."""
    references: list[tuple[dict[str, Any], str | None]] = field(default_factory=list)
    """Every Reference object with the resource type it points to, where known, for the header."""

    def resource(self, obj: dict[str, Any], local: Mapping[str, str] | None = None) -> None:
        rtype = obj.get("resourceType")
        cls = schema.resource_class(rtype) if isinstance(rtype, str) else None
        if cls is None or not isinstance(rtype, str):
            raise EventParseError("fhir.invalid", "a contained or entry resource is not of a known R4B resource type")
        self.resources.append(obj)
        self._object(obj, cls, _At(rtype, rtype, local={**(local or {}), **_targets(obj)}))

    def _object(self, obj: dict[str, Any], cls: type, at: _At) -> None:
        table = schema.elements(cls)
        is_resource = schema.is_resource_class(cls)
        names = schema.type_names(cls)
        if "Extension" in names:
            self.extensions.add(id(obj))
            if kinds.is_birth_extension(obj):
                at = replace(at, birth=True)
        elif "Reference" in names:
            target = refs.type_of(obj, at.local)
            if target is None and len(at.targets) == 1:
                target = at.targets[0]
            self.references.append((obj, target))
        for key in list(obj):
            if (is_resource and key == "resourceType") or (id(obj), key) in self.skip:
                continue
            element = table.get(key)
            if element is None:
                name = key if key in schema.field_names(cls) else UNKNOWN_SEGMENT
                self._unknown(obj, key, f"{at.path}.{name}", at.types)
            elif element.type in _NARRATIVE_TYPES:
                self.narratives.append((obj, key))
            elif element.is_resource:
                for where, item in _items(obj, key):
                    if isinstance(item, dict):
                        self.resource(item, at.local)
                    elif item is not None:
                        self._unknown(where[0], where[1], f"{at.path}.{key}", at.types)
            elif element.model is not None:
                self._complex(obj, cls, key, element, at)
            else:
                self._primitives(obj, cls, key, element, at)

    def _complex(self, obj: dict[str, Any], cls: type, key: str, element: Element, at: _At) -> None:
        model = element.model
        assert model is not None
        types = (*at.types, schema.type_name(model)) if schema.is_datatype(model) else at.types
        birth = at.birth
        if element.type == schema.PRIMITIVE_EXTENSION:
            # ``_birthDate``: the extensions of a birth date (patient-birthTime) date the birth too.
            primitive = schema.elements(cls).get(key[1:])
            if primitive is not None and primitive.primitive:
                birth = birth or kinds.element_rule(at.resource, cls, primitive).role is Role.BIRTH_DATE
        child = _At(at.resource, f"{at.path}.{key}", types, element.targets, birth, at.local)
        if element.required and element.type != schema.PRIMITIVE_EXTENSION:
            self.required.append(Required(obj, key, tuple(obj), model, isinstance(obj[key], list)))
        for where, item in _items(obj, key):
            if isinstance(item, dict):
                self._object(item, model, child)
            elif item is not None:
                self._unknown(where[0], where[1], child.path, types)

    def _primitives(self, obj: dict[str, Any], cls: type, key: str, element: Element, at: _At) -> None:
        rule = kinds.element_rule(at.resource, cls, element, at.targets, at.birth)
        rule = kinds.refine(rule, cls, key, obj, at.local)
        path = f"{at.path}.{key}"
        if element.required and not isinstance(obj[key], list) and f"_{key}" in schema.elements(cls):
            self.required.append(Required(obj, key, tuple(obj)))  # not Extension.url: it has no ``_url``
        for (parent, slot), value in _items(obj, key):
            if value is None:
                continue
            if isinstance(value, (dict, list)):
                self._unknown(parent, slot, path, at.types)
            elif rule.kind is Kind.ATTACHMENT and key == "data" and {"Attachment", "Binary"} & set(schema.type_names(cls)):
                self._payload(obj, parent, slot, path, rule, element, at, "Attachment" in schema.type_names(cls))
            else:
                self._leaf(parent, slot, path, rule, element.type, at.types)

    def _leaf(self, parent: dict[str, Any] | list[Any], slot: str | int, path: str, rule: Rule, datatype: str, types: tuple[str, ...]) -> None:
        raw = parent[slot]  # type: ignore[index]
        text = raw if isinstance(raw, str) else json.dumps(raw)
        if rule.form is Form.REFERENCE and isinstance(raw, str) and schema.resource_class(raw) is not None:
            rule = Rule(Kind.CODE)  # a bare resource type ("POST Patient"): names no one
            split = refs.Split("", raw)
        elif rule.form is Form.REFERENCE and isinstance(raw, str):
            split = refs.split_reference(raw)
        elif rule.form is Form.FULL_URL and isinstance(raw, str):
            split = refs.split_full_url(raw)
        else:
            split = refs.Split("", text)
        binary = rule.kind is Kind.ATTACHMENT  # base64Binary outside an attachment's data: opaque bytes
        self.leaves.append(
            Leaf(path, rule.kind, split.value, rule.phi_type, datatype, types, rule.role, binary, _setter(parent, slot, split, datatype))
        )

    def _payload(self, att: dict[str, Any], parent: dict[str, Any] | list[Any], slot: str | int, path: str, rule: Rule, element: Element, at: _At, derived: bool) -> None:
        """Attachment/Binary ``data``: text by its charset when the content type is text/*, else opaque."""
        data = parent[slot]  # type: ignore[index]
        mt = attachment.media_type(att.get("contentType"))
        text = attachment.decode_text(data, mt.charset) if mt is not None and mt.is_text and isinstance(data, str) else None
        payloads = self.payloads

        def set_payload(new: str | None) -> None:
            if new is None:
                parent[slot] = REMOVED  # type: ignore[index]
                size = None
            elif text is not None:
                assert mt is not None
                try:
                    payload = new.encode(mt.charset)
                except UnicodeEncodeError:
                    payload = new.encode("utf-8")
                    att["contentType"] = f"{mt.media}; charset=utf-8"
                parent[slot] = base64.b64encode(payload).decode("ascii")  # type: ignore[index]
                size = len(payload)
            else:
                decoded = attachment.decode_base64(new)
                parent[slot] = new if decoded is not None else REMOVED  # type: ignore[index]
                size = len(decoded) if decoded is not None else None
            if derived:
                payloads.append(Payload(att, size))

        value = text if text is not None else (data if isinstance(data, str) else json.dumps(data))
        self.leaves.append(
            Leaf(path, rule.kind, value, rule.phi_type, element.type, at.types, rule.role, text is None, set_payload)
        )

    def _unknown(self, parent: dict[str, Any] | list[Any], slot: str | int, path: str, types: tuple[str, ...]) -> None:
        """Every scalar below ``parent[slot]`` as an UNKNOWN leaf; nested keys never reach the path."""
        value = parent[slot]  # type: ignore[index]
        if isinstance(value, dict):
            for key in list(value):
                self._unknown(value, key, path, types)
        elif isinstance(value, list):
            for i in range(len(value)):
                self._unknown(value, i, path, types)
        elif value is not None:
            self._leaf(parent, slot, path, kinds.UNKNOWN, "", types)


def _targets(resource: dict[str, Any]) -> dict[str, str]:
    """What references inside ``resource`` can point at besides ``Type/id``: ``#id`` its contained
    resources, and in a Bundle each entry's ``fullUrl`` (``urn:uuid:...``) its resource."""
    out = {}
    for c in resource.get("contained") or []:
        if isinstance(c, dict) and isinstance(c.get("id"), str) and isinstance(c.get("resourceType"), str):
            out[f"#{c['id']}"] = c["resourceType"]
    if resource.get("resourceType") == "Bundle":
        for entry in resource.get("entry") or []:
            res = entry.get("resource") if isinstance(entry, dict) else None
            if isinstance(res, dict) and isinstance(entry.get("fullUrl"), str) and isinstance(res.get("resourceType"), str):
                out[entry["fullUrl"]] = res["resourceType"]
    return out


def _items(obj: dict[str, Any], key: str) -> list[tuple[tuple[Any, Any], Any]]:
    """((container, slot), value) of an element's one value or of each value of its array."""
    value = obj[key]
    if isinstance(value, list):
        return [((value, i), v) for i, v in enumerate(value)]
    return [((obj, key), value)]


def _setter(parent: dict[str, Any] | list[Any], slot: str | int, split: refs.Split, datatype: str) -> Callable[[str | None], None]:
    def set_value(new: str | None) -> None:
        parent[slot] = REMOVED if new is None else json_value(split.join(new), datatype)  # type: ignore[index]

    return set_value
