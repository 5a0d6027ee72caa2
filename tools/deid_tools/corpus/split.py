"""Which template family belongs to which split."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from deid_tools.corpus.kinds import all_families
from deid_tools.corpus.templates import SPLITS, FamilySpec


@cache
def _families() -> tuple[FamilySpec, ...]:
    return all_families()


def families(split: str | None = None) -> tuple[FamilySpec, ...]:
    """Families of one split (or all), in definition order."""
    if split is not None and split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    return tuple(f for f in _families() if split is None or f.split == split)


def family(name: str) -> FamilySpec:
    for f in _families():
        if f.name == name:
            return f
    raise KeyError(name)


def note_kinds(split: str | None = None) -> tuple[str, ...]:
    """The note kinds, sorted; with ``split``, only those that split has a family for."""
    return tuple(sorted({f.kind for f in families(split)}))


TEMPLATE_FAMILIES: Mapping[str, str] = MappingProxyType({f.name: f.split for f in all_families()})
"""family name -> split."""
