from __future__ import annotations

import datetime as dt
from pathlib import Path

import pyarrow.parquet as pq

from workers.lake import LakeRow, ParquetLakeSink

NOW = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)


def _rows(n: int) -> list[LakeRow]:
    return [LakeRow(f"k{i}", 0, "json", "P123", f"text {i}", "1") for i in range(n)]


def test_batches_land_as_whole_files_partitioned_by_date(tmp_path: Path) -> None:
    sink = ParquetLakeSink(tmp_path)
    path = sink.write(_rows(3), NOW)
    assert path is not None and path.parent.name == "date=2026-01-02"
    assert [p.name for p in path.parent.iterdir()] == [path.name], "no temporary file is left behind"
    table = pq.read_table(path)
    assert table.column("output_key").to_pylist() == ["k0", "k1", "k2"]
    assert table.column("text").to_pylist()[1] == "text 1"


def test_a_redelivered_batch_rewrites_the_same_file(tmp_path: Path) -> None:
    sink = ParquetLakeSink(tmp_path)
    first = sink.write(_rows(2), NOW)
    second = sink.write(list(reversed(_rows(2))), NOW)
    assert first == second
    assert len(list((tmp_path / "date=2026-01-02").iterdir())) == 1


def test_empty_batches_write_nothing(tmp_path: Path) -> None:
    assert ParquetLakeSink(tmp_path).write([], NOW) is None
    assert not any(tmp_path.iterdir())
