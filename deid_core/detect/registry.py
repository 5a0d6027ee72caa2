"""Detector names as the CLI and settings spell them, and an explicit registry of local detectors.

Explicit on purpose (no subclass scanning): adding a detector means adding one line here. ``tagger`` is
not a local ``Detector`` (it runs once per batch, possibly on a server), so it is listed by name only
and built by ``deid_core.tagger.build_tagger``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from deid_core.detect.base import Detector

DetectorFactory = Callable[[], Detector]
TAGGER = "tagger"


def _rules() -> Detector:
    from deid_core.detect.rules import build_rule_detector

    return build_rule_detector()


def _header() -> Detector:
    from deid_core.detect.header import HeaderDetector

    return HeaderDetector()


def _lexicon() -> Detector:
    from deid_core.detect.lexical import build_lexicon_detector

    return build_lexicon_detector()


DETECTOR_FACTORIES: dict[str, DetectorFactory] = {
    "rules": _rules,
    "header": _header,
    "lexicon": _lexicon,
}

KNOWN_DETECTORS: tuple[str, ...] = (*DETECTOR_FACTORIES, TAGGER)
LOCAL_DETECTORS: tuple[str, ...] = ("rules", "header", "lexicon")
"""What the worker, the HTTP service and the API run beside the tagger."""
DEFAULT_DETECTORS: tuple[str, ...] = (*LOCAL_DETECTORS, TAGGER)


def parse_detector_names(value: str | Sequence[str]) -> list[str]:
    """``"rules,header"`` -> ``["rules", "header"]``; unknown or empty names raise ``ValueError``."""
    names = [n.strip() for n in value.split(",")] if isinstance(value, str) else [n.strip() for n in value]
    names = [n for n in names if n]
    if not names:
        raise ValueError("no detectors given; choose from " + ", ".join(KNOWN_DETECTORS))
    unknown = [n for n in names if n not in KNOWN_DETECTORS]
    if unknown:
        raise ValueError(f"unknown detector(s) {', '.join(unknown)}; choose from {', '.join(KNOWN_DETECTORS)}")
    return list(dict.fromkeys(names))


def build_detectors(names: Sequence[str]) -> list[Detector]:
    """The local detectors among ``names`` (the tagger, if named, is built separately)."""
    return [DETECTOR_FACTORIES[name]() for name in parse_detector_names(names) if name != TAGGER]
