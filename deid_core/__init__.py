"""The de-identification library: detectors, merging, surrogates, rendering and evaluation.

Imports ``schemas`` only; never Kafka, faust or anything that does I/O at import time.
"""

from typing import Any

_API = ("DeidentifiedText", "DetectedSpan", "Deidentifier", "EventLoopError")


def __getattr__(name: str) -> Any:
    # The public API (deid_core.api) loads on first use, so importing deid_core stays cheap.
    if name in _API:
        from deid_core import api

        return getattr(api, name)
    raise AttributeError(f"module 'deid_core' has no attribute {name!r}")
