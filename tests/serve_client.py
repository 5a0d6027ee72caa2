"""FastAPI's TestClient for ``deid serve`` tests, and settings isolated from the caller's environment."""

from __future__ import annotations

import os
import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    # Starlette >= 1.0 asks for the httpx2 fork; httpx (the test extra) works the same for these tests.
    warnings.filterwarnings("ignore", message=r".*httpx.*starlette\.testclient", category=UserWarning)
    from fastapi.testclient import TestClient as ServeClient  # not Test*: pytest would try to collect it

__all__ = ["ServeClient", "clean_deid_environment", "dev_settings"]


def clean_deid_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drop the DEID_* settings of the shell (a developer's DEID_STORE, say), keeping the test services'."""
    for name in list(os.environ):
        if name.startswith("DEID_") and not name.startswith("DEID_TEST_"):
            monkeypatch.delenv(name)


def dev_settings(**overrides: Any) -> Any:
    from workers.serve_settings import ServeSettings

    return ServeSettings(**{"mode": "development", "store": "memory", **overrides})
