"""All template families, grouped by the modules that write them."""

from __future__ import annotations

from deid_tools.corpus.kinds import community, inpatient, messages, outpatient, reports
from deid_tools.corpus.templates import FamilySpec


def all_families() -> tuple[FamilySpec, ...]:
    fams = (inpatient.FAMILIES + reports.FAMILIES + outpatient.FAMILIES + community.FAMILIES
            + messages.FAMILIES)
    names = [f.name for f in fams]
    if len(names) != len(set(names)):
        raise ValueError("duplicate template family names")
    return fams
