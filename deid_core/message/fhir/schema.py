"""The element table of FHIR R4B, read from the fhir.resources models rather than kept by hand.

For a resource, backbone element or datatype class, ``elements(cls)`` lists what may appear in its JSON
object: every element under its JSON name (choice types under their typed names, ``valueString``,
``valueQuantity``...), each with its FHIR type, and the ``_name`` siblings that carry a primitive's id
and extensions. The models know this exactly because they validate it; a hand list would drift from
what validation lets through, and anything it missed would leave unexamined.

How fhir.resources 8 / fhir_core spell it: each pydantic field of an element has
``json_schema_extra["element_property"]``; its annotation holds either an ``abc.XxxType`` (a
``FhirBase`` subclass whose ``get_model_klass()`` is the complex type's model), or a primitive:
``Annotated[python_type, Marker()]`` whose marker class carries the FHIR name in ``__visit_name__``,
plain ``bool`` for boolean and ``UUID4`` for uuid. Fields ending ``__ext`` are the ``_name`` siblings.

Nothing here recurses: a table is per class, so recursive types (Extension in Extension, Identifier ->
Reference -> Identifier) cost nothing until data or a depth-bounded enumeration walks them.
fhir.resources is imported lazily: it costs about a second and only FHIR messages need it.
"""

from __future__ import annotations

import typing
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from types import MappingProxyType, UnionType
from typing import Any

ABSTRACT_RESOURCES = frozenset({"Resource", "DomainResource"})
PRIMITIVE_EXTENSION = "Element"
"""The type we give ``_name`` siblings: the Element part (id, extension) of a primitive."""


@dataclass(frozen=True, slots=True)
class Element:
    """One element of a class, as it appears in JSON."""

    name: str
    """The JSON name: ``given``, ``valueQuantity``, ``_birthDate``."""
    type: str
    """FHIR type: a primitive (``string``, ``dateTime``...), a complex type (``HumanName``, ``PatientContact``),
    ``Resource`` for contained/entry resources, or ``Element`` for a ``_name`` sibling."""
    many: bool
    model: type | None = None
    """The pydantic class of a complex type; ``None`` for primitives."""
    targets: tuple[str, ...] = ()
    """For Reference elements: the resource types it may point to (``enum_reference_types``)."""
    required: bool = False
    """Cardinality 1..: the models refuse the parent without it (``element_required``)."""

    @property
    def primitive(self) -> bool:
        return self.model is None

    @property
    def is_resource(self) -> bool:
        return self.type == "Resource"


def _fhir() -> Any:
    import fhir.resources.R4B as r4b  # lazy: ~1 s, FHIR only

    return r4b


@cache
def _bases() -> tuple[type, type, type, type]:
    from fhir.resources.R4B.backboneelement import BackboneElement
    from fhir.resources.R4B.fhirprimitiveextension import FHIRPrimitiveExtension
    from fhir.resources.R4B.resource import Resource
    from fhir_core.types import FhirBase

    return Resource, BackboneElement, FHIRPrimitiveExtension, FhirBase


def _type_of(annotation: object) -> tuple[str | type | None, bool]:
    """(primitive name or model class, is a list) of a field annotation."""
    found: list[str | type] = []
    many = False
    fhir_base = _bases()[3]

    def visit(a: object) -> None:
        nonlocal many
        origin = typing.get_origin(a)
        if origin is typing.Union or origin is UnionType:
            for arg in typing.get_args(a):
                if arg is not type(None):
                    visit(arg)
        elif origin is list:
            many = True
            visit(typing.get_args(a)[0])
        elif origin is typing.Annotated:
            base, *markers = typing.get_args(a)
            for marker in markers:
                name = getattr(type(marker), "__visit_name__", None)
                if isinstance(name, str):
                    found.append(name)
                    return
            if base is bool:
                found.append("boolean")
            elif base is uuid.UUID:
                found.append("uuid")
        elif a is bool:
            found.append("boolean")
        elif isinstance(a, type) and issubclass(a, fhir_base):
            found.append(a.get_model_klass())  # type: ignore[attr-defined]

    visit(annotation)
    return (found[0] if found else None), many


@cache
def elements(cls: type) -> Mapping[str, Element]:
    """The elements of a model class by JSON name, in the model's order."""
    resource, _backbone, prim_ext, _ = _bases()
    out: dict[str, Element] = {}
    for name, field in cls.model_fields.items():  # type: ignore[attr-defined]
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        is_sibling = name.endswith("__ext")
        # The ``_name`` model marks none of its fields (id, extension) as elements, though they are.
        if not (extra.get("element_property") or is_sibling or (cls is prim_ext and name != "fhir_comments")):
            continue  # fhir_comments: accepted by the models, but no FHIR element
        json_name = field.alias or name
        typ, many = _type_of(field.annotation)
        if typ is None:
            continue
        # Primitives are marked ``element_required``; complex elements are plain required pydantic fields.
        required = bool(extra.get("element_required")) or field.is_required()
        if isinstance(typ, str):
            out[json_name] = Element(json_name, typ, many, required=required)
            continue
        if is_sibling or typ is prim_ext:
            out[json_name] = Element(json_name, PRIMITIVE_EXTENSION, many, typ)
        elif issubclass(typ, resource) and typ.__name__ in ABSTRACT_RESOURCES:
            out[json_name] = Element(json_name, "Resource", many, typ)
        else:
            targets = extra.get("enum_reference_types") or ()
            out[json_name] = Element(json_name, type_name(typ), many, typ, tuple(str(t) for t in targets), required)
    return MappingProxyType(out)


def field_names(cls: type) -> frozenset[str]:
    """Every key the model accepts (elements and non-element fields such as ``fhir_comments``)."""
    fields = cls.model_fields  # type: ignore[attr-defined]
    return frozenset(f.alias or n for n, f in fields.items())


@cache
def type_name(cls: type) -> str:
    """The FHIR name of a model class: ``HumanName``, ``PatientContact`` (backbone), ``Patient``."""
    getter = getattr(cls, "get_resource_type", None)
    return str(getter()) if callable(getter) else cls.__name__


@cache
def type_names(cls: type) -> tuple[str, ...]:
    """The class and its FHIR bases, most specific first: Age -> ('Age', 'Quantity', 'Element')."""
    out = []
    for base in cls.__mro__:
        if base.__module__.startswith("fhir.resources."):
            out.append(base.__name__)
    return tuple(out)


@cache
def is_datatype(cls: type) -> bool:
    """A named datatype (HumanName, Timing, Dosage), not a resource or a resource's backbone element.

    fhir.resources defines each datatype and resource in a module of its own lower-cased name and a
    backbone element in its resource's module, which is what tells ``Timing`` from ``PatientContact``.
    """
    resource, _, prim_ext, _ = _bases()
    if issubclass(cls, resource) or cls is prim_ext:
        return False
    return cls.__module__.rsplit(".", 1)[-1] == cls.__name__.lower()


def is_resource_class(cls: type) -> bool:
    return issubclass(cls, _bases()[0])


@lru_cache(maxsize=512)  # bounded: names come from input (resourceType, reference type segments)
def resource_class(name: str) -> type | None:
    """The model of a concrete resource type, or None (unknown name, abstract, datatype or backbone)."""
    if name in ABSTRACT_RESOURCES or not name.isidentifier():
        return None
    try:
        cls = _fhir().get_fhir_model_class(name)
    except (ValueError, KeyError, AttributeError, ImportError):
        return None
    if not is_resource_class(cls) or type_name(cls) != name:
        return None
    return cls  # type: ignore[no-any-return]


@cache
def resource_types() -> tuple[str, ...]:
    """Every concrete R4B resource type, from the library's own type registry (imports every model)."""
    from fhir.resources.R4B import fhirtypes

    fhir_base = _bases()[3]
    names = set()
    for attr in dir(fhirtypes):
        holder = getattr(fhirtypes, attr)
        if attr.endswith("Type") and isinstance(holder, type) and issubclass(holder, fhir_base) and holder is not fhir_base:
            cls = holder.get_model_klass()  # type: ignore[attr-defined]
            if is_resource_class(cls) and type_name(cls) not in ABSTRACT_RESOURCES:
                names.add(type_name(cls))
    return tuple(sorted(names))


def is_fhir_model(cls: type) -> bool:
    return cls.__module__.startswith("fhir.resources.")


def is_abstract_resource(cls: type) -> bool:
    return is_resource_class(cls) and cls.__name__ in ABSTRACT_RESOURCES
