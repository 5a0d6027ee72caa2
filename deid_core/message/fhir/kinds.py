"""What each FHIR element is to the policy: its ``Kind``, surrogate PHI type, role and value form.

An element's rule is found by (type, element) along the owner's FHIR bases, so ``Age.value`` finds
``Quantity.value`` and every ``Element.id`` one entry; failing that, by the element's primitive type
(string -> TEXT, date -> DATE, code -> CODE, ...). Nothing is matched by resource-specific paths
except the birth dates, so a resource type that no rule names still gets kinds from its datatypes.

Some PHI types depend on the data and are refined per value (``refine``): an Identifier's type by its
``type.coding`` code (HL7 table 0203), a ContactPoint by its ``system``, a Reference's display by the
resource type it points to (a Location's or Organization's display is LOCATION). Names in
Practitioner/PractitionerRole are doctors', all others patients' (relatives and contacts get
patient-like surrogates). Places and organisations are LOCATION by their
``name``/``alias``; a few identifiers the models type as plain strings (subscriber ids, lot and serial
numbers, pre-authorisation references) are named here, since a string is otherwise free TEXT.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache
from typing import Any

from deid_core.message.fhir import refs, schema
from deid_core.message.fhir.schema import Element
from schemas.message import Kind, Role
from schemas.phi import PhiType


class Form(StrEnum):
    """Which part of a string element is the leaf value (see ``refs``)."""

    WHOLE = "whole"
    REFERENCE = "reference"  # Reference.reference: the id, or a conditional reference's query
    FULL_URL = "full_url"  # Bundle.entry.fullUrl: the id, or a urn's tail


@dataclass(frozen=True, slots=True)
class Rule:
    kind: Kind
    phi_type: PhiType | None = None
    role: Role = Role.NONE
    form: Form = Form.WHOLE


UNKNOWN = Rule(Kind.UNKNOWN)
_ID = Rule(Kind.IDENTIFIER, PhiType.IDNUM)
_TEXT = Rule(Kind.TEXT)
_CODE = Rule(Kind.CODE)
_NUMBER = Rule(Kind.NUMBER)
_DATE = Rule(Kind.DATE)
_BIRTH = Rule(Kind.DATE, role=Role.BIRTH_DATE)
_PATIENT_NAME = Rule(Kind.NAME, PhiType.PATIENT)


def _address(phi_type: PhiType) -> Rule:
    return Rule(Kind.ADDRESS, phi_type)


# (FHIR type or one of its bases, JSON element name) -> rule. Only primitive elements are looked up.
ELEMENT_RULES: dict[tuple[str, str], Rule] = {
    ("Resource", "id"): _ID,
    ("Element", "id"): _ID,
    ("FHIRPrimitiveExtension", "id"): _ID,
    ("Meta", "versionId"): _ID,
    ("Meta", "source"): _ID,  # a URI naming the source system, often with the source record id
    ("HumanName", "family"): _PATIENT_NAME,
    ("HumanName", "given"): _PATIENT_NAME,
    ("HumanName", "text"): _PATIENT_NAME,
    ("HumanName", "prefix"): _TEXT,
    ("HumanName", "suffix"): _TEXT,
    ("Address", "line"): _address(PhiType.STREET),
    ("Address", "text"): _address(PhiType.STREET),
    ("Address", "city"): _address(PhiType.CITY),
    ("Address", "district"): _address(PhiType.LOCATION_OTHER),
    ("Address", "state"): _address(PhiType.STATE),
    ("Address", "postalCode"): _address(PhiType.ZIP),
    ("Address", "country"): _address(PhiType.COUNTRY),
    ("ContactPoint", "value"): Rule(Kind.CONTACT, PhiType.PHONE),
    ("Identifier", "value"): _ID,
    ("Identifier", "system"): _CODE,
    ("Reference", "reference"): Rule(Kind.IDENTIFIER, PhiType.IDNUM, form=Form.REFERENCE),
    ("Reference", "display"): _TEXT,
    ("Reference", "type"): _CODE,
    ("BundleEntry", "fullUrl"): Rule(Kind.IDENTIFIER, PhiType.IDNUM, form=Form.FULL_URL),
    # Paging links and conditional-create queries carry ids and MRNs: one whole value each.
    ("BundleLink", "url"): _ID,
    ("BundleEntryRequest", "ifNoneExist"): _ID,
    # Transaction URLs are references ("PUT Patient/123", "Patient?identifier=..."): the id inside gets
    # the same pseudonym as the entry's resource id, so the transaction still means the same.
    ("BundleEntryRequest", "url"): Rule(Kind.IDENTIFIER, PhiType.IDNUM, form=Form.REFERENCE),
    ("BundleEntryResponse", "location"): Rule(Kind.IDENTIFIER, PhiType.IDNUM, form=Form.REFERENCE),
    ("Attachment", "data"): Rule(Kind.ATTACHMENT),
    ("Attachment", "url"): _TEXT,  # where the content is: a URL may name the patient or the record
    ("Attachment", "title"): _TEXT,
    ("Binary", "data"): Rule(Kind.ATTACHMENT),
    ("Coding", "version"): _CODE,
    ("Quantity", "unit"): _CODE,
    ("Quantity", "system"): _CODE,
    ("Quantity", "code"): _CODE,
    ("Extension", "url"): _CODE,
    ("Annotation", "authorString"): Rule(Kind.NAME, PhiType.DOCTOR),
    # Places and organisations by name (a ward, a clinic, an employer, an insurer).
    ("Location", "name"): Rule(Kind.LOCATION, PhiType.HOSPITAL),
    ("Location", "alias"): Rule(Kind.LOCATION, PhiType.HOSPITAL),
    ("Organization", "name"): Rule(Kind.LOCATION, PhiType.ORGANIZATION),
    ("Organization", "alias"): Rule(Kind.LOCATION, PhiType.ORGANIZATION),
    # Coordinates of a place are a geocode (Safe Harbor: geographic subdivisions smaller than a state).
    ("LocationPosition", "latitude"): _address(PhiType.LOCATION_OTHER),
    ("LocationPosition", "longitude"): _address(PhiType.LOCATION_OTHER),
    ("AuditEventAgentNetwork", "address"): Rule(Kind.CONTACT, PhiType.IPADDR),
    ("AuditEventAgent", "altId"): _ID,
    # Identifiers the models type as plain strings: plan, subscriber, authorisation, device and lot numbers.
    ("Coverage", "subscriberId"): Rule(Kind.IDENTIFIER, PhiType.HEALTHPLAN),
    ("Coverage", "dependent"): Rule(Kind.IDENTIFIER, PhiType.HEALTHPLAN),
    ("CoverageClass", "value"): Rule(Kind.IDENTIFIER, PhiType.HEALTHPLAN),
    ("ClaimInsurance", "preAuthRef"): _ID,
    ("ClaimInsurance", "businessArrangement"): _ID,
    ("ClaimResponse", "preAuthRef"): _ID,
    ("ClaimResponseInsurance", "businessArrangement"): _ID,
    ("CoverageEligibilityResponse", "preAuthRef"): _ID,
    ("ExplanationOfBenefit", "preAuthRef"): _ID,
    ("ExplanationOfBenefitInsurance", "preAuthRef"): _ID,
    ("Device", "serialNumber"): Rule(Kind.IDENTIFIER, PhiType.DEVICE),
    ("Device", "lotNumber"): Rule(Kind.IDENTIFIER, PhiType.DEVICE),
    ("Device", "distinctIdentifier"): Rule(Kind.IDENTIFIER, PhiType.DEVICE),
    ("DeviceUdiCarrier", "deviceIdentifier"): Rule(Kind.IDENTIFIER, PhiType.DEVICE),
    ("DeviceUdiCarrier", "carrierHRF"): Rule(Kind.IDENTIFIER, PhiType.DEVICE),
    ("Immunization", "lotNumber"): _ID,
    ("MedicationBatch", "lotNumber"): _ID,
    ("NutritionProductInstance", "lotNumber"): _ID,
    ("Patient", "birthDate"): _BIRTH,
    ("RelatedPerson", "birthDate"): _BIRTH,
    ("Person", "birthDate"): _BIRTH,
    ("Practitioner", "birthDate"): _BIRTH,
}

# Primitive type -> rule, for elements ELEMENT_RULES does not name. xhtml is absent: narratives are
# dropped, never leaves.
PRIMITIVE_RULES: dict[str, Rule] = {
    "string": _TEXT,
    "markdown": _TEXT,
    "code": _CODE,
    "id": _ID,  # ids of things: DICOM uids, package ids, ...
    "uri": _CODE,
    "url": _CODE,
    "canonical": _CODE,
    "oid": _CODE,
    "uuid": _CODE,
    "date": _DATE,
    "dateTime": _DATE,
    "instant": _DATE,
    "time": _CODE,  # a time of day alone dates nothing
    "boolean": _NUMBER,
    "integer": _NUMBER,
    "integer64": _NUMBER,
    "decimal": _NUMBER,
    "positiveInt": _NUMBER,
    "unsignedInt": _NUMBER,
    "base64Binary": Rule(Kind.ATTACHMENT),
}

DOCTOR_RESOURCES = frozenset({"Practitioner", "PractitionerRole"})
_DOCTOR_TARGETS = frozenset({"Practitioner", "PractitionerRole"})
_PATIENT_TARGETS = frozenset({"Patient", "RelatedPerson"})
_PLACE_TARGETS = {"Location": PhiType.HOSPITAL, "HealthcareService": PhiType.HOSPITAL, "Organization": PhiType.ORGANIZATION}
BIRTH_TIME_URL = "http://hl7.org/fhir/StructureDefinition/patient-birthTime"

# HL7 v2 table 0203 identifier type codes, as used in Identifier.type.coding.
IDENTIFIER_TYPES: dict[str, PhiType] = {
    "MR": PhiType.MEDICALRECORD,
    "SS": PhiType.SSN,
    "SB": PhiType.SSN,
    "AN": PhiType.ACCOUNT,
    "MB": PhiType.HEALTHPLAN,
    "SN": PhiType.HEALTHPLAN,
    "DL": PhiType.LICENSE,
}

# ContactPoint.system -> PHI type of its value; anything else (phone, pager, sms, other) is a phone.
TELECOM_TYPES: dict[str, PhiType] = {"fax": PhiType.FAX, "email": PhiType.EMAIL, "url": PhiType.URL}


def _display_rule(targets: tuple[str, ...]) -> Rule:
    """Reference.display by what it names: a person's name is TEXT (scanned; the header carries the
    names it should find), with the person's PHI type; a place's or organisation's name is LOCATION,
    since nothing in the header could help detection find it."""
    if targets and all(t in _DOCTOR_TARGETS for t in targets):
        return Rule(Kind.TEXT, PhiType.DOCTOR)
    if targets and all(t in _PATIENT_TARGETS for t in targets):
        return Rule(Kind.TEXT, PhiType.PATIENT)
    if targets and all(t in _PLACE_TARGETS for t in targets):
        places = {_PLACE_TARGETS[t] for t in targets}
        return Rule(Kind.LOCATION, PhiType.HOSPITAL if PhiType.HOSPITAL in places else PhiType.ORGANIZATION)
    return _TEXT


@cache
def element_rule(resource: str, owner: type, element: Element, targets: tuple[str, ...] = (), birth: bool = False) -> Rule:
    """The static rule of primitive ``element`` of ``owner`` inside a ``resource``.

    ``targets``: the reference targets of the element holding ``owner`` (for Reference.display);
    ``birth``: inside an extension of a birth date (its dates are birth dates too). Cached: the
    arguments range over the element table, not over data.
    """
    names = schema.type_names(owner)
    rule = next((r for n in names if (r := ELEMENT_RULES.get((n, element.name))) is not None), None)
    if rule is None:
        rule = PRIMITIVE_RULES.get(element.type, UNKNOWN)
    if rule.kind is Kind.NAME and rule.phi_type is PhiType.PATIENT and resource in DOCTOR_RESOURCES:
        rule = replace(rule, phi_type=PhiType.DOCTOR)
    elif element.name == "display" and "Reference" in names:
        rule = _display_rule(targets)
    if birth and rule.kind is Kind.DATE:
        rule = replace(rule, role=Role.BIRTH_DATE)
    return rule


def refine(rule: Rule, owner: type, element: str, obj: dict[str, Any], local: Mapping[str, str]) -> Rule:
    """``rule`` with the PHI type the data itself gives (``obj``: the owner's JSON object; ``local``:
    the targets of ``#id`` and ``urn:uuid:`` references, see ``refs.type_of``)."""
    names = schema.type_names(owner)
    if element == "value" and "Identifier" in names:
        return replace(rule, phi_type=identifier_type(obj))
    if element == "value" and "ContactPoint" in names:
        system = obj.get("system")
        return replace(rule, phi_type=TELECOM_TYPES.get(system if isinstance(system, str) else "", PhiType.PHONE))
    if element == "display" and "Reference" in names:
        target = refs.type_of(obj, local)
        if target is not None:
            return _display_rule((target,))
    return rule


def identifier_type(ident: dict[str, Any]) -> PhiType:
    type_ = ident.get("type")
    codings = type_.get("coding") if isinstance(type_, dict) else None
    for coding in codings if isinstance(codings, list) else []:
        code = coding.get("code") if isinstance(coding, dict) else None
        if isinstance(code, str) and code in IDENTIFIER_TYPES:
            return IDENTIFIER_TYPES[code]
    return PhiType.IDNUM


def is_birth_extension(obj: dict[str, Any]) -> bool:
    return obj.get("url") == BIRTH_TIME_URL
