"""PHI found in free text, replaced per the policy's ``detected_text`` action for its type.

Invariant: only the characters of a span change; a span whose action leaves it as it was (``keep``, an
age under 90 under ``generalize``) is not reported as replaced, so ``deid detect --policy X`` reports
exactly what policy X removes from text.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence

from deid_core.render import render
from deid_core.surrogate.ages import age_surrogate
from deid_core.surrogate.dates import parse_date
from deid_core.surrogate.engine import Surrogator
from schemas import PhiType, Span
from schemas.policy import RESTRICTED_ZIP3, Policy, TextAction

_WORD_CHAR = re.compile(r"[^\W_]", re.UNICODE)
_ZIP = re.compile(r"^\s*(\d{3})\d{2}(?:-\d{4})?\s*$")


def label(phi_type: PhiType | str) -> str:
    return f"[{phi_type.value if isinstance(phi_type, PhiType) else phi_type}]"


def zip3(value: str) -> str | None:
    """Safe Harbor's ZIP: the first three digits, or 000 where that area is small. None if not a ZIP."""
    m = _ZIP.match(value)
    if m is None:
        return None
    return "000" if m.group(1) in RESTRICTED_ZIP3 else m.group(1)


def age_cap(policy: Policy) -> int | None:
    return None if policy.generalize_ages_over is None else policy.generalize_ages_over + 1


def _generalize(phi_type: PhiType, original: str, policy: Policy) -> str:
    if phi_type is PhiType.DATE:
        parsed = parse_date(original)
        if parsed is not None and parsed.has_year:
            return f"{parsed.value.year:04d}"
        if parsed is not None and not (parsed.has_month or parsed.has_day):
            return original  # a weekday alone is not a date element HIPAA names
        return label(phi_type)
    if phi_type is PhiType.AGE:
        cap = age_cap(policy)
        return original if cap is None else age_surrogate(original, cap, f"{cap}+")
    if phi_type is PhiType.ZIP:
        return zip3(original) or label(phi_type)
    return label(phi_type)


def reported(policy: Policy, spans: Sequence[Span], text: str) -> list[Span]:
    """The spans the policy changes (what ``deid detect --policy`` reports)."""
    out = []
    for s in spans:
        action = policy.detected_text.action(s.type)
        if action is TextAction.KEEP:
            continue
        if action is TextAction.GENERALIZE and _generalize(s.type, text[s.start : s.end], policy) == text[s.start : s.end]:
            continue
        out.append(s)
    return out


async def replace_spans(
    text: str, spans: Sequence[Span], policy: Policy, surrogator: Surrogator, scope: str
) -> tuple[str, list[Span]]:
    """``text`` with each span replaced per the policy, and the spans that were actually changed."""
    originals = [text[s.start : s.end] for s in spans]
    actions = [policy.detected_text.action(s.type) for s in spans]
    # Surrogates are settled in the store, one call per distinct (type, value).
    wanted = sorted({(s.type, o) for s, o, a in zip(spans, originals, actions, strict=True) if a is TextAction.SURROGATE})
    settled = await asyncio.gather(*(surrogator.surrogate_for(scope, t, o) for t, o in wanted))
    surrogates = dict(zip(wanted, settled, strict=True))
    replacements: list[tuple[Span, str]] = []
    for span, original, action in zip(spans, originals, actions, strict=True):
        if action is TextAction.KEEP:
            continue
        if action is TextAction.SURROGATE:
            new = surrogates[(span.type, original)]
        elif action is TextAction.GENERALIZE:
            new = _generalize(span.type, original, policy)
        elif action is TextAction.LABEL:
            new = label(span.type)
        elif action is TextAction.MASK:
            new = _WORD_CHAR.sub("*", original)
        else:
            new = ""
        if new != original:
            replacements.append((span, new))
    return render(text, replacements), [s for s, _ in replacements]
