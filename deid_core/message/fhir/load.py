"""Strict JSON loading and R4B model validation, with errors that never quote the input.

Model choice: fhir.resources 8 ships R5 at the top level plus ``R4B`` and ``STU3`` subpackages and no
pure R4 package. R4B is R4 with corrections that barely touch the wire format, so R4 documents are
validated with the ``fhir.resources.R4B`` classes.

Error messages name locations only, and only names the models define: a key the sender invented may
itself be PHI (``{"Ann Lee": 1}``), so it is shown as ``<unknown field>``; any other location part the
model does not know (a dict key, a union tag) as ``<redacted>``. pydantic's and fhir_core's own
messages are never used: they can quote the value.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from pydantic import ValidationError

from deid_core.message.fhir import schema
from schemas.events import EventParseError

_MAX_REPORTED_ERRORS = 5
# Used only when no model is given: FHIR-element-shaped names. Invented keys are still hidden (below).
_SAFE_LOC = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
# A JSON \\u escape of a UTF-16 surrogate (D800-DFFF); paired ones decode to one character, lone ones do not.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _child(cls: type | None, part: str) -> tuple[bool, type | None]:
    """(whether ``cls`` has a field spelled ``part``, the model class of that field if complex)."""
    if cls is None or not hasattr(cls, "model_fields"):
        return False, None
    if schema.is_fhir_model(cls):
        element = schema.elements(cls).get(part)
        if element is not None:
            return True, element.model
        return part in schema.field_names(cls), None
    for name, field in cls.model_fields.items():
        if part in (name, field.alias):
            return True, _first_model(field.annotation)
    return False, None


def _first_model(annotation: object) -> type | None:
    if isinstance(annotation, type) and hasattr(annotation, "model_fields"):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _first_model(arg)
        if found is not None:
            return found
    return None


def _describe_loc(loc: tuple[int | str, ...], extra: bool, model: type | None, obj: object) -> str:
    shown: list[str] = []
    cls, node = model, obj  # the model class of the value reached so far (None: unknown) and the value
    for i, part in enumerate(loc):
        if extra and i == len(loc) - 1:
            shown.append("<unknown field>")
            break
        if isinstance(part, int):
            shown.append(str(part))
            node = node[part] if isinstance(node, list) and 0 <= part < len(node) else None
        elif model is None:
            shown.append(part if _SAFE_LOC.match(part) else "<redacted>")
            continue
        else:
            known, child = _child(cls, part)
            shown.append(part if known else "<redacted>")
            cls = child if known else None
            node = node.get(part) if isinstance(node, dict) else None
        # An abstract Resource (contained, Bundle.entry.resource) is known once its object is reached.
        if cls is not None and isinstance(node, dict) and schema.is_abstract_resource(cls):
            rtype = node.get("resourceType")
            cls = schema.resource_class(rtype) if isinstance(rtype, str) else None
    return ".".join(shown) or "resource"


def describe_fhir_validation_error(err: ValidationError, model: type | None = None, obj: object = None) -> str:
    """Locations and error types only. With ``model`` (and the validated ``obj``, to resolve contained
    resources), a location shows only names that model defines."""
    parts = []
    errors = err.errors(include_input=False, include_url=False, include_context=False)
    for e in errors[:_MAX_REPORTED_ERRORS]:
        loc = _describe_loc(tuple(e["loc"]), e["type"] == "extra_forbidden" and bool(e["loc"]), model, obj)
        parts.append(f"field '{loc}': {e['type']}")
    if len(errors) > _MAX_REPORTED_ERRORS:
        parts.append(f"and {len(errors) - _MAX_REPORTED_ERRORS} more")
    return "; ".join(parts)


def _reject_constant(name: str) -> Any:
    raise ValueError("non-standard constant")


def _finite_float(text: str) -> float:
    # 1e999 parses to inf, which json.dumps would write as the non-JSON token Infinity.
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("number out of range")
    return value


def load_json_object(raw: bytes, code: str) -> dict[str, Any]:
    """Strict UTF-8 JSON object; errors carry positions, never content."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EventParseError(code, f"not valid UTF-8 (byte offset {exc.start})") from None
    try:
        obj = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise EventParseError(code, f"invalid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except (ValueError, RecursionError):
        raise EventParseError(code, "invalid JSON (non-standard constant, number out of range or nesting too deep)") from None
    if not isinstance(obj, dict):
        raise EventParseError(code, f"expected a JSON object, got {type(obj).__name__}")
    if _SURROGATE_ESCAPE.search(raw) and has_lone_surrogate(obj):
        # json.loads accepts "\\ud800"; such a string cannot be encoded to UTF-8 on output.
        raise EventParseError(code, "invalid JSON (unpaired UTF-16 surrogate escape)")
    return obj


def has_lone_surrogate(obj: object) -> bool:
    """A string anywhere in a decoded JSON value that cannot be encoded to UTF-8 (a lone surrogate)."""
    stack = [obj]
    while stack:  # iterative: the document may be nested as deep as json.loads allows
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError:
                return True
    return False


def validate_resource(obj: dict[str, Any], code: str = "fhir.invalid") -> type:
    """Validate a resource (a Bundle with everything in it) with the R4B models; returns its model.

    ``code`` is the error code of a document that does not validate: ``fhir.invalid`` on input,
    ``fhir.render_invalid`` for what rendering produced.
    """
    rtype = obj.get("resourceType")
    if not isinstance(rtype, str):
        raise EventParseError(code, "field 'resourceType': missing")
    model = schema.resource_class(rtype)
    if model is None:
        raise EventParseError(code, "field 'resourceType': not an R4B resource type")
    try:
        model.model_validate(obj)  # type: ignore[attr-defined]
    except ValidationError as exc:
        errors = exc.errors(include_input=False, include_url=False, include_context=False)
        if code == "fhir.invalid" and errors and all(e["type"] == "base64_decode" for e in errors):
            raise EventParseError("fhir.base64", describe_fhir_validation_error(exc, model, obj)) from None
        raise EventParseError(code, describe_fhir_validation_error(exc, model, obj)) from None
    except (RecursionError, KeyError, TypeError, AttributeError, ValueError) as exc:
        # fhir_core raises bare KeyError/TypeError for some shapes (an unknown contained resourceType).
        raise EventParseError(code, f"model validation failed ({type(exc).__name__})") from None
    return model
