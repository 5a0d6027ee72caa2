"""Applying removals: what a value decided ``None`` takes with it, and what keeps the result valid.

``prune`` deletes the ``REMOVED`` markers with every object or array they leave empty (FHIR forbids
``{}`` and ``[]``), every Extension they leave with nothing but its url, and the matching slot of a
``_name`` sibling array, so indexes of parallel arrays stay aligned however many values are removed.
Containers that were empty in the input are left alone: a message whose leaves are all kept renders
as it came.

A required element (cardinality 1..) that decisions removed is not left missing: it keeps its place
holding only the standard data-absent-reason extension, ``masked`` ("not available for security,
privacy or related reasons"), for a primitive in its ``_name`` sibling. The document stays valid and
says only that a value was withheld, where refusing it would lose everything that was kept. What
this cannot mend (a required choice such as Immunization.occurrence[x], which the models do not let
an extension stand for) is refused on validation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deid_core.message.fhir import schema


class _Removed:
    def __repr__(self) -> str:
        return "REMOVED"


REMOVED: Any = _Removed()
"""Stands where a removed value was until ``prune``."""


@dataclass(frozen=True, slots=True)
class Required:
    """A required element as it was loaded: where it sits, and the keys around it (to put it back)."""

    parent: dict[str, Any]
    key: str
    keys: tuple[str, ...]
    model: type | None = None
    """The class of a complex element (None: a primitive)."""
    many: bool = False


DATA_ABSENT_REASON = "http://hl7.org/fhir/StructureDefinition/data-absent-reason"


def apply_removals(obj: dict[str, Any], extensions: set[int], required: list[Required]) -> None:
    """Every REMOVED marker below ``obj`` gone, with what it empties, and required elements marked absent."""
    mark_absent(required)
    prune(obj, extensions)
    restore_required(required)


def _masked() -> dict[str, Any]:
    return {"extension": [{"url": DATA_ABSENT_REASON, "valueCode": "masked"}]}


def mark_absent(required: list[Required]) -> None:
    """Before ``prune``: a required primitive whose value was removed keeps its place as ``_name``."""
    for req in required:
        if req.model is not None or req.parent.get(req.key) is not REMOVED:
            continue
        sibling = f"_{req.key}"
        ext = req.parent.get(sibling)
        if isinstance(ext, dict):
            extensions = ext.get("extension")
            ext["extension"] = [*(extensions if isinstance(extensions, list) else []), *_masked()["extension"]]
        else:
            _put(req.parent, sibling, _masked(), req.keys[req.keys.index(req.key) + 1 :])


def restore_required(required: list[Required]) -> None:
    """After ``prune``: a required complex element that decisions emptied (a Reference whose every
    value was removed) is put back holding only data-absent-reason. Where its parent went too, the
    parent is no longer in the document and this changes nothing."""
    for req in required:
        if req.model is not None and req.key not in req.parent and req.parent:
            value: Any = [_skeleton(req.model)] if req.many else _skeleton(req.model)
            _put(req.parent, req.key, value, req.keys[req.keys.index(req.key) + 1 :])


def _skeleton(model: type, depth: int = 0) -> dict[str, Any]:
    """data-absent-reason for an element of class ``model``, and for each element it requires."""
    out = _masked()
    for element in schema.elements(model).values() if depth < 8 else ():
        if not element.required or element.is_resource or element.type == schema.PRIMITIVE_EXTENSION:
            continue
        if element.model is None:
            if f"_{element.name}" in schema.elements(model):
                out[f"_{element.name}"] = _masked()
        else:
            inner = _skeleton(element.model, depth + 1)
            out[element.name] = [inner] if element.many else inner
    return out


def _put(parent: dict[str, Any], key: str, value: Any, later: tuple[str, ...]) -> None:
    """Insert ``key`` before the first of ``later`` still there, so the output keeps the input's order."""
    items = list(parent.items())
    parent.clear()
    for k, v in items:
        if key not in parent and k in later:
            parent[key] = value
        parent[k] = v
    parent.setdefault(key, value)


_EXTENSION_FRAME = frozenset({"url", "id"})


def prune(node: Any, extensions: set[int]) -> bool:
    """Delete REMOVED markers below ``node``; True when that left ``node`` itself empty.

    An Extension (``extensions``: their ids) left with nothing but its ``url`` is empty too: an
    extension must carry a value or extensions, and its url alone would still say what was there. One
    whose ``url`` was removed goes whole: a value whose meaning is unknown is of no use to anyone.
    """
    if isinstance(node, list):
        if not node:
            return False
        node[:] = [
            item
            for item in node
            if item is not REMOVED and not (isinstance(item, (dict, list)) and prune(item, extensions))
        ]
        return not node
    if not isinstance(node, dict) or not node:
        return False
    if node.get("url") is REMOVED and id(node) in extensions:
        node.clear()
        return True
    done: set[str] = set()
    changed = False
    for key in list(node):
        if key in done or key not in node:
            continue
        value = node[key]
        base, sibling = (key[1:], key) if key.startswith("_") else (key, f"_{key}")
        if isinstance(node.get(base), list) and isinstance(node.get(sibling), list):
            changed = _prune_parallel(node, base, sibling, extensions) or changed
            done.update((base, sibling))
        elif value is REMOVED or (isinstance(value, (dict, list)) and prune(value, extensions)):
            del node[key]
            changed = True
    if changed and id(node) in extensions and set(node) <= _EXTENSION_FRAME:
        node.clear()
    return not node


def _prune_parallel(node: dict[str, Any], key: str, sibling: str, extensions: set[int]) -> bool:
    """A primitive array and its ``_name`` array: slot i of one belongs to slot i of the other."""
    values, exts = node[key], node[sibling]
    out_values, out_exts, changed = [], [], False
    for i in range(max(len(values), len(exts))):
        value = values[i] if i < len(values) else None
        ext = exts[i] if i < len(exts) else None
        ext_emptied = isinstance(ext, dict) and prune(ext, extensions)
        removed = value is REMOVED or ext is REMOVED or ext_emptied
        value = None if value is REMOVED else value
        ext = None if ext is REMOVED or ext_emptied else ext
        changed = changed or removed
        if removed and value is None and ext is None:
            continue  # nothing left of this slot in either array
        out_values.append(value)
        out_exts.append(ext)
    if not changed:
        return False
    # FHIR writes null for a missing half; an array of nothing but nulls is written not at all.
    for name, out in ((key, out_values), (sibling, out_exts)):
        if any(v is not None for v in out):
            node[name] = out
        else:
            del node[name]
    return True
