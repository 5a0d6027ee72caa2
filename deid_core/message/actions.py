"""The new value of one structured value under its action (``None``: removed).

Invariants:
- every date of a message moves by the message patient's one offset, so no real date sits beside a
  shifted one; a date that cannot be read is removed, not kept;
- a birth date of someone aged over ``policy.generalize_ages_over`` is removed whatever the action, so
  no output implies an age of 90 or more;
- the patient's own id becomes the patient pseudonym wherever it appears (surrogate or pseudonymize),
  so the id in the message, the lake and the JSON output agree; other pseudonyms are keyed hashes of
  the value alone, so they join across messages and keep FHIR references resolving.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from deid_core.message import datetimes
from deid_core.message.text import label, zip3
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import HmacKey, mapping_key
from schemas.message import Kind, Leaf, Role
from schemas.phi import PhiType
from schemas.policy import Action, Policy

PSEUDONYM_HEX_CHARS = 20  # 80 bits: no collisions in practice, short enough for any id field

# The surrogate generator for a PHI kind whose codec gave no PHI type.
_KIND_TYPES: dict[Kind, PhiType] = {
    Kind.NAME: PhiType.PATIENT,
    Kind.LOCATION: PhiType.LOCATION_OTHER,
    Kind.ADDRESS: PhiType.LOCATION_OTHER,
    Kind.CONTACT: PhiType.PHONE,
    Kind.IDENTIFIER: PhiType.IDNUM,
}


@dataclass(frozen=True, slots=True)
class MessageContext:
    scope: str
    """The consistency scope: ``patient:<id>`` or, without a patient, ``note:<keyed message ref>``."""
    patient_id: str | None
    offset_days: int
    reference_date: dt.date
    """Ages are computed on this date: the latest readable non-birth date of the message, else today."""


def pseudonymize(key: HmacKey, value: str) -> str:
    return mapping_key(key, "pseudonym", "value", value.strip()).hex()[:PSEUDONYM_HEX_CHARS]


def reference_date(leaves: list[Leaf]) -> dt.date:
    dates = [
        p.value
        for leaf in leaves
        if leaf.kind is Kind.DATE and leaf.role is not Role.BIRTH_DATE
        for p in [datetimes.parse(leaf.value, leaf.datatype)]
        if p is not None
    ]
    return max(dates) if dates else dt.datetime.now(dt.UTC).date()


def too_old(leaf: Leaf, policy: Policy, on: dt.date) -> bool:
    if leaf.role is not Role.BIRTH_DATE or policy.generalize_ages_over is None:
        return False
    parsed = datetimes.parse(leaf.value, leaf.datatype)
    # Unreadable birth dates are removed by shift/generalize already; a readable one is judged here.
    return parsed is not None and datetimes.age_on(parsed.value, on) > policy.generalize_ages_over


async def structured_value(
    leaf: Leaf,
    action: Action,
    ctx: MessageContext,
    policy: Policy,
    surrogator: Surrogator,
    pseudonym_key: HmacKey,
    scanned: str | None = None,
) -> str | None:
    """The value ``leaf`` leaves with. ``scanned`` is its text after detection, for ``scan``."""
    if too_old(leaf, policy, ctx.reference_date):
        return None
    value = leaf.value
    is_patient_id = ctx.patient_id is not None and value.strip() == ctx.patient_id
    if action is Action.KEEP:
        return value
    if action is Action.REDACT:
        return None
    if action is Action.LABEL:
        return label(leaf.phi_type or leaf.kind.value.upper())
    if action is Action.SCAN:
        if leaf.binary:
            return None  # nothing can read it, so nothing vouches for it
        if scanned is None:
            raise RuntimeError(f"leaf {leaf.path} was not scanned")
        return scanned
    if leaf.kind is Kind.DATE and action in (Action.SHIFT, Action.SURROGATE):
        return datetimes.shift(value, leaf.datatype, ctx.offset_days)
    if action is Action.GENERALIZE:
        if leaf.kind is Kind.DATE:
            return datetimes.year_only(value, leaf.datatype)
        if leaf.phi_type is PhiType.ZIP:
            return zip3(value)
        return None
    if action is Action.PSEUDONYMIZE:
        if is_patient_id:
            return await surrogator.pseudonym(ctx.patient_id)  # type: ignore[arg-type]
        return pseudonymize(pseudonym_key, value)
    if action is Action.SURROGATE:
        if is_patient_id and leaf.kind is Kind.IDENTIFIER:
            return await surrogator.pseudonym(ctx.patient_id)  # type: ignore[arg-type]
        phi_type = leaf.phi_type or _KIND_TYPES.get(leaf.kind)
        if phi_type is None:
            return None
        return await surrogator.surrogate_for(ctx.scope, phi_type, value)
    # SHIFT on a kind that is not a date cannot happen for a validated policy; fail closed anyway.
    return None
