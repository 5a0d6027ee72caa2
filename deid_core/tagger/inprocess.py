"""InProcessTagger: the tagger model run in this process, no server."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from deid_core.tagger.runtime import TaggerRuntime
from schemas import Span


class InProcessTagger:
    def __init__(self, runtime: TaggerRuntime) -> None:
        self._runtime = runtime
        self.model_version = runtime.version
        # One model, one thread at a time: torch already uses all cores inside a call.
        self._lock = asyncio.Lock()

    @classmethod
    def from_directory(cls, directory: str | Path, device: str | None = None) -> InProcessTagger:
        return cls(TaggerRuntime.load(directory, device=device))

    def tag_sync(self, texts: Sequence[str]) -> list[list[Span]]:
        return self._runtime.tag(texts)

    async def tag(self, texts: Sequence[str]) -> list[list[Span]]:
        if not texts:
            return []
        async with self._lock:
            return await asyncio.to_thread(self._runtime.tag, list(texts))

    async def close(self) -> None:
        return None
