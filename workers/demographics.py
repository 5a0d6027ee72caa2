"""The worker's demographics table: patient headers that later notes of the same patient are enriched from."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from deid_core.enrich import merge_headers
from schemas import PatientHeader


class TableDemographics:
    """DemographicsTable over a faust Table (changelog-backed: survives restarts).

    faust lets only the agent that consumes a table's own topic write it, so ``put`` (called while
    processing notes) goes to a small in-process overlay that makes the header visible at once, and the
    demographics agent writes the durable table from the demographics topic via ``write``.
    """

    def __init__(self, table: Any, overlay_size: int = 10_000) -> None:
        self._table = table
        self._overlay: OrderedDict[str, PatientHeader] = OrderedDict()
        self._overlay_size = overlay_size

    def get(self, patient_id: str) -> PatientHeader | None:
        raw = self._table.get(patient_id)
        durable = PatientHeader.model_validate_json(raw) if raw else None
        return merge_headers(self._overlay.get(patient_id), durable)

    def put(self, header: PatientHeader) -> None:
        self._overlay[header.patient_id] = merge_headers(header, self._overlay.get(header.patient_id)) or header
        self._overlay.move_to_end(header.patient_id)
        while len(self._overlay) > self._overlay_size:
            self._overlay.popitem(last=False)

    def write(self, header: PatientHeader) -> None:
        merged = merge_headers(header, self.get(header.patient_id)) or header
        self._table[header.patient_id] = merged.model_dump_json().encode()
