"""Every element path of a resource type with its static kind: for coverage tests and documentation.

Datatypes nest without end (Extension holds every datatype and every datatype holds Extension), so the
enumeration is bounded, and a bounded element is still listed by its primitive children:

- a type already on the current chain is not expanded again (Extension in Extension, Identifier ->
  Reference -> Identifier, QuestionnaireResponse.item.item);
- at most ``MAX_DATATYPE_DEPTH`` datatypes are expanded below the resource's own elements (backbone
  elements do not count: they are the resource's structure);
- extensions are expanded at the resource's top level only (``Patient.extension.valueAddress.city``);
  extensions of elements and of primitives (``Patient.name.extension``, ``Patient._birthDate.extension``)
  are listed by their primitive elements only. At run time they get the same kinds from the same table.

Contained and entry resources are not listed under their container: their paths start at their own type.
"""

from __future__ import annotations

from functools import cache

from deid_core.message.fhir import kinds, schema
from schemas.message import LeafSpec, Role

MAX_DATATYPE_DEPTH = 1
_EXTENSIONS = frozenset({"Extension", schema.PRIMITIVE_EXTENSION})
_SKIPPED = frozenset({"Narrative", "xhtml", "Resource"})


@cache
def element_specs(resource_type: str) -> tuple[LeafSpec, ...]:
    cls = schema.resource_class(resource_type)
    if cls is None:
        raise ValueError("not an R4B resource type")
    out: list[LeafSpec] = []
    _walk(out, resource_type, cls, resource_type, (), frozenset({cls}), 0, (), False, True)
    return tuple(out)


def _walk(
    out: list[LeafSpec],
    resource: str,
    cls: type,
    path: str,
    types: tuple[str, ...],
    chain: frozenset[type],
    depth: int,
    targets: tuple[str, ...],
    birth: bool,
    expand: bool,
) -> None:
    top = len(chain) == 1
    table = schema.elements(cls)
    for element in table.values():
        if element.type in _SKIPPED:
            continue
        child_path = f"{path}.{element.name}"
        if element.model is None:
            rule = kinds.element_rule(resource, cls, element, targets, birth)
            out.append(LeafSpec(child_path, rule.kind, rule.phi_type, element.type, types, rule.role))
            continue
        if not expand:
            continue
        model = element.model
        datatype = schema.is_datatype(model)
        child_birth = birth
        if element.type == schema.PRIMITIVE_EXTENSION:
            primitive = table.get(element.name[1:])
            if primitive is not None and primitive.model is None:
                child_birth = child_birth or kinds.element_rule(resource, cls, primitive).role is Role.BIRTH_DATE
        bounded = (
            model in chain
            or (datatype and depth >= MAX_DATATYPE_DEPTH)
            or (element.type in _EXTENSIONS and not top)
        )
        _walk(
            out,
            resource,
            model,
            child_path,
            (*types, schema.type_name(model)) if datatype else types,
            chain | {model},
            depth + datatype,
            element.targets,
            child_birth,
            not bounded,
        )
