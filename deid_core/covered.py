"""Which characters of a note the spans found so far cover, one byte per character.

The readers that add spans after detection (``name_initials``, ``name_logins``, ``list_names``) ask
whether a candidate overlaps any span, for many candidates of the same note: a mask built in one pass
answers each in time linear in the candidate, where a scan of the spans would make a long note
quadratic.
"""

from __future__ import annotations

from collections.abc import Sequence

from schemas import Span


def covered_characters(text: str, spans: Sequence[Span]) -> bytearray:
    """A byte per character of ``text`` (and one past its end), 1 where some span covers it."""
    mask = bytearray(len(text) + 1)
    for s in spans:
        mask[s.start : s.end] = b"\x01" * (s.end - s.start)
    return mask
