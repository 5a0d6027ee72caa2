"""The Tagger seam: one call per batch of texts, spans per text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from schemas import Span


class TaggerUnavailable(RuntimeError):
    """The tagger could not be reached or did not answer in time. Callers must not emit the note."""


@runtime_checkable
class Tagger(Protocol):
    model_version: str

    async def tag(self, texts: Sequence[str]) -> list[list[Span]]: ...

    async def close(self) -> None: ...

