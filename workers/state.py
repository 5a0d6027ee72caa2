"""What a worker knows about itself between batches: whether it owns partitions and whether a batch is paused.

One small typed object, shared by the batch runner (which pauses and resumes) and the probes (which read
it for /ready), instead of a dict that any closure could fill with anything.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class WorkerState:
    # Not ready until the first rebalance has assigned partitions: a worker mid-join has no work to do.
    assigned: bool = False
    # True while a batch waits for a dependency: nothing of it is published and its offsets stay uncommitted.
    paused: bool = False

    def mark_assigned(self) -> None:
        self.assigned = True

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False
