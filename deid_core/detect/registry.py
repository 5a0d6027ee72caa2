"""An explicit registry of detector factories, keyed by the names the CLI and settings use.

Explicit on purpose (no subclass scanning): adding a detector means adding one line here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from deid_core.detect.base import Detector

DetectorFactory = Callable[[], Detector]


def _rules() -> Detector:
    from deid_core.detect.rules import build_rule_detector

    return build_rule_detector()


def _header() -> Detector:
    from deid_core.detect.header import HeaderDetector

    return HeaderDetector()


DETECTOR_FACTORIES: dict[str, DetectorFactory] = {
    "rules": _rules,
    "header": _header,
}

DEFAULT_DETECTORS: tuple[str, ...] = ("rules", "header")


def parse_detector_names(value: str | Sequence[str]) -> list[str]:
    """``"rules,header"`` -> ``["rules", "header"]``; unknown or empty names raise ``ValueError``."""
    names = [n.strip() for n in value.split(",")] if isinstance(value, str) else [n.strip() for n in value]
    names = [n for n in names if n]
    if not names:
        raise ValueError("no detectors given; choose from " + ", ".join(DETECTOR_FACTORIES))
    unknown = [n for n in names if n not in DETECTOR_FACTORIES]
    if unknown:
        raise ValueError(f"unknown detector(s) {', '.join(unknown)}; choose from {', '.join(DETECTOR_FACTORIES)}")
    return list(dict.fromkeys(names))


def build_detectors(names: Sequence[str]) -> list[Detector]:
    return [DETECTOR_FACTORIES[name]() for name in parse_detector_names(names)]
