"""The research data-lake sink: de-identified notes appended to Parquet files partitioned by date.

Each batch becomes one file, written under a temporary name and renamed into place, so readers never
see a partial file. The file name is derived from the batch's output keys: a batch redelivered after a
crash rewrites the same file instead of adding a duplicate (a batch regrouped differently can still
duplicate rows; ``output_key`` + ``note_index`` identify a row, dedupe on them downstream).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


@dataclass(frozen=True, slots=True)
class LakeRow:
    output_key: str
    note_index: int
    format: str
    patient_pseudonym: str | None
    text: str
    model_version: str


SCHEMA = pa.schema(
    [
        ("output_key", pa.string()),
        ("note_index", pa.int32()),
        ("format", pa.string()),
        ("patient_pseudonym", pa.string()),
        ("text", pa.string()),
        ("model_version", pa.string()),
        ("processed_at", pa.timestamp("ms", tz="UTC")),
    ]
)


class ParquetLakeSink:
    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def write(self, rows: Sequence[LakeRow], now: dt.datetime | None = None) -> Path | None:
        if not rows:
            return None
        now = now or dt.datetime.now(dt.UTC)
        directory = self.root / f"date={now.date().isoformat()}"
        directory.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256("\n".join(sorted(f"{r.output_key}:{r.note_index}" for r in rows)).encode()).hexdigest()[:24]
        final = directory / f"part-{digest}.parquet"
        tmp = directory / f".part-{digest}.parquet.tmp-{os.getpid()}"
        table = pa.Table.from_pylist(
            [
                {
                    "output_key": r.output_key, "note_index": r.note_index, "format": r.format,
                    "patient_pseudonym": r.patient_pseudonym, "text": r.text, "model_version": r.model_version,
                    "processed_at": now,
                }
                for r in rows
            ],
            schema=SCHEMA,
        )
        pq.write_table(table, tmp)
        with tmp.open("rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, final)  # atomic on POSIX: readers see the old state or the whole new file
        return final
