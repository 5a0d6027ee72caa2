"""The de-identification policy: what happens to every structured value and to PHI found in text.

A policy is data (YAML, see ``docs/policy.md``). Resolution for one structured value (a ``Leaf``):

1. the first rule of ``overrides`` that matches it (path pattern, kind, PHI type, datatype: every
   criterion given must match);
2. else ``types[phi_type]`` when the value has a PHI type;
3. else ``defaults[kind]``. Every kind must have a default, ``unknown`` included, so nothing can fall
   through: a value no rule names is treated as its kind says, and a field the standard's tables do not
   describe is ``unknown`` (redacted by every shipped policy).

PHI found by ``scan`` in free text (notes, text fields, decoded attachments) is replaced per its type:
``detected_text.types[type]`` or else ``detected_text.default``.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from schemas.message import Kind
from schemas.phi import PhiType


class Action(StrEnum):
    KEEP = "keep"
    SURROGATE = "surrogate"  # a realistic stand-in of the same type, consistent per patient
    SHIFT = "shift"  # dates: moved by the patient's one offset, precision and zone kept
    GENERALIZE = "generalize"  # dates -> year; ZIP -> ZIP3 (000 where HIPAA requires); ages >= 90 -> 90+
    PSEUDONYMIZE = "pseudonymize"  # keyed hash of the value: joinable across messages, not reversible
    SCAN = "scan"  # free text: through detection, found PHI replaced per ``detected_text``
    REDACT = "redact"  # emptied (HL7) or removed (FHIR, JSON)
    LABEL = "label"  # replaced by its type in brackets, e.g. [PATIENT]


class TextAction(StrEnum):
    KEEP = "keep"
    SURROGATE = "surrogate"
    GENERALIZE = "generalize"
    LABEL = "label"
    MASK = "mask"  # every letter and digit becomes '*', length kept
    REDACT = "redact"  # the span is deleted


# Which actions make sense for which kind; anything else is a policy error caught at load time.
_ALLOWED: dict[Kind, frozenset[Action]] = {
    Kind.NAME: frozenset({Action.KEEP, Action.SURROGATE, Action.PSEUDONYMIZE, Action.SCAN, Action.REDACT, Action.LABEL}),
    Kind.LOCATION: frozenset({Action.KEEP, Action.SURROGATE, Action.PSEUDONYMIZE, Action.SCAN, Action.REDACT, Action.LABEL}),
    Kind.ADDRESS: frozenset(
        {Action.KEEP, Action.SURROGATE, Action.GENERALIZE, Action.PSEUDONYMIZE, Action.SCAN, Action.REDACT, Action.LABEL}
    ),
    Kind.CONTACT: frozenset({Action.KEEP, Action.SURROGATE, Action.PSEUDONYMIZE, Action.REDACT, Action.LABEL}),
    Kind.IDENTIFIER: frozenset({Action.KEEP, Action.SURROGATE, Action.PSEUDONYMIZE, Action.REDACT, Action.LABEL}),
    Kind.DATE: frozenset({Action.KEEP, Action.SHIFT, Action.GENERALIZE, Action.REDACT, Action.LABEL}),
    Kind.TEXT: frozenset({Action.KEEP, Action.SCAN, Action.REDACT, Action.LABEL}),
    Kind.CODE: frozenset({Action.KEEP, Action.SCAN, Action.REDACT, Action.LABEL}),
    Kind.NUMBER: frozenset({Action.KEEP, Action.REDACT, Action.LABEL}),
    Kind.ATTACHMENT: frozenset({Action.KEEP, Action.SCAN, Action.REDACT}),
    Kind.UNKNOWN: frozenset({Action.KEEP, Action.SCAN, Action.REDACT, Action.LABEL}),
}

# The 3-digit ZIP prefixes whose areas held 20,000 people or fewer (HHS guidance on 164.514(b)(2),
# 2000 census): Safe Harbor replaces them with 000.
RESTRICTED_ZIP3 = (
    "036", "059", "063", "102", "203", "556", "692", "790", "821", "823", "830", "831", "878", "879", "884",
    "890", "893",
)  # fmt: skip


def allowed_actions(kind: Kind) -> frozenset[Action]:
    return _ALLOWED[kind]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Rule(_Model):
    """A path override. ``path`` patterns: HL7 ``PID-7``, ``PID-5.1``, ``Z*``, ``OBX-5``; FHIR
    ``Patient.extension``, ``*.meta.lastUpdated``, ``nodesByType('HumanName')``. A pattern matches a
    path equal to it or below it (``PID-5`` matches ``PID-5.1.1``; ``Patient.name`` matches
    ``Patient.name.given``); ``*`` matches within one segment name or one FHIR element name."""

    path: str | None = None
    kind: Kind | None = None
    phi_type: PhiType | None = None
    datatype: str | None = None
    action: Action
    why: str = ""

    @field_validator("phi_type", mode="before")
    @classmethod
    def _parse_type(cls, v: object) -> object:
        return PhiType.parse(v) if isinstance(v, str) else v

    @model_validator(mode="after")
    def _something_to_match(self) -> Rule:
        if self.path is None and self.kind is None and self.phi_type is None and self.datatype is None:
            raise ValueError("an override needs at least one of path, kind, phi_type, datatype")
        if self.kind is not None and self.action not in _ALLOWED[self.kind]:
            raise ValueError(f"action {self.action.value} does not apply to kind {self.kind.value}")
        return self


def _phi_type_keys(v: object) -> object:
    """Accept i2b2 spellings of PHI types as mapping keys (``LOCATION_OTHER``, ``zip``)."""
    if isinstance(v, dict):
        return {PhiType.parse(k) if isinstance(k, str) else k: a for k, a in v.items()}
    return v


class DetectedText(_Model):
    default: TextAction = TextAction.SURROGATE
    types: dict[PhiType, TextAction] = Field(default_factory=dict)

    _parse_keys = field_validator("types", mode="before")(_phi_type_keys)

    def action(self, phi_type: PhiType) -> TextAction:
        return self.types.get(phi_type, self.default)


class Policy(_Model):
    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")
    version: str = Field(min_length=1, max_length=32)
    description: str = ""
    hipaa_pathway: str = Field(default="", description="which HIPAA de-identification pathway it serves")
    defaults: dict[Kind, Action]
    types: dict[PhiType, Action] = Field(default_factory=dict)
    overrides: tuple[Rule, ...] = ()
    detected_text: DetectedText = DetectedText()
    generalize_ages_over: int | None = Field(
        default=89, ge=0, description="ages above it become '90+' and birth dates of such persons are removed"
    )

    _parse_keys = field_validator("types", mode="before")(_phi_type_keys)

    @model_validator(mode="after")
    def _complete(self) -> Policy:
        missing = [k.value for k in Kind if k not in self.defaults]
        if missing:
            raise ValueError(f"defaults must give an action for every kind; missing: {', '.join(missing)}")
        for kind, action in self.defaults.items():
            if action not in _ALLOWED[kind]:
                raise ValueError(f"default action {action.value} does not apply to kind {kind.value}")
        for phi_type, action in self.types.items():
            if action in (Action.SCAN,):
                raise ValueError(f"types.{phi_type.value}: scan is for text kinds, not PHI types")
        return self
