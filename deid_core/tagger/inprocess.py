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
        # One model call at a time per process: BLAS / torch already use this process's share of the
        # cores inside a call (deid_core.tagger.threads), and several processes are the way to more.
        self._lock = asyncio.Lock()

    @property
    def fork_safe(self) -> bool:
        """Forked processes can share the loaded model: true for the NumPy engine. Not for torch, whose
        CUDA context and OpenMP pools do not survive a fork."""
        return self._runtime.fork_safe

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
