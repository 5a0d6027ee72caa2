"""What the tests of the two hand-written note sets share: their compiler and the gold records' form."""

from __future__ import annotations

import importlib.util
import json
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

from schemas import PhiType

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "eval" / "handwritten" / "build.py"


@cache
def build_module() -> ModuleType:
    """eval/handwritten/build.py (a script, standard library only) loaded as a module."""
    spec = importlib.util.spec_from_file_location("handwritten_build", BUILD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


@cache
def gold_records(path: Path) -> tuple[dict[str, object], ...]:
    with path.open(encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


def assert_well_formed(records: tuple[dict[str, object], ...]) -> None:
    """Unique sorted ids; every span typed, in range, sorted, non-overlapping, without outer whitespace."""
    ids = [r["id"] for r in records]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)  # type: ignore[type-var]
    valid = {t.value for t in PhiType}
    for record in records:
        assert set(record) == {"id", "kind", "text", "spans"}
        text = record["text"]
        assert isinstance(text, str) and text.strip()
        spans = record["spans"]
        assert isinstance(spans, list) and spans
        previous_end = 0
        for span in spans:
            start, end, type_ = span["start"], span["end"], span["type"]
            assert type_ in valid, (record["id"], type_)
            assert 0 <= start < end <= len(text), (record["id"], span)
            assert start >= previous_end, f"{record['id']}: overlapping or unsorted span {span}"
            previous_end = end
            surface = text[start:end]
            assert surface.strip(), (record["id"], span)
            assert surface == surface.strip(), f"{record['id']}: outer whitespace in {surface!r}"


def assert_gold_is_current(directory: Path, prefix: str) -> None:
    """``directory/gold.jsonl`` is what the compiler makes of ``directory/notes`` with ``prefix``."""
    build = build_module()
    rel = directory.relative_to(ROOT)
    expected = build.render_jsonl(build.build_records(directory / "notes", prefix))
    assert (directory / "gold.jsonl").read_text(encoding="utf-8") == expected, (
        f"{rel}/gold.jsonl is stale: run python eval/handwritten/build.py --notes {rel}/notes "
        f"--out {rel}/gold.jsonl --id-prefix {prefix}"
    )


def assert_check_option_accepts(directory: Path, prefix: str) -> None:
    argv = ["--notes", str(directory / "notes"), "--out", str(directory / "gold.jsonl"), "--id-prefix", prefix, "--check"]
    assert build_module().main(argv) == 0


def assert_ids_prefixed(records: tuple[dict[str, object], ...], prefix: str) -> None:
    """Every id is ``prefix-NN``, unique and in order."""
    ids = [str(r["id"]) for r in records]
    assert all(i.startswith(f"{prefix}-") for i in ids), ids
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)
