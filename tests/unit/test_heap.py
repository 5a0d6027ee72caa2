"""The composition roots freeze what they loaded (deid_core.heap): the CLI and the worker."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from deid_core.heap import building_frozen, freeze_loaded
from workers.cli import build_parser, detection_pipeline


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_freeze_loaded_moves_the_heap_to_the_permanent_generation(unfrozen: None) -> None:
    kept = [{"a": [1, 2]} for _ in range(100)]
    freeze_loaded()
    assert gc.get_freeze_count() >= len(kept)


def test_the_cli_freezes_after_building_its_detectors(unfrozen: None) -> None:
    args = build_parser().parse_args(["detect", "--detectors", "rules,lexicon"])
    assert gc.get_freeze_count() == 0
    detection_pipeline(args)
    assert gc.get_freeze_count() > 0


def test_building_frozen_pauses_collection_and_freezes_on_success(unfrozen: None) -> None:
    assert gc.isenabled()
    with building_frozen():
        assert not gc.isenabled()
        kept = [{"b": [3]} for _ in range(100)]
    assert gc.isenabled() and gc.get_freeze_count() >= len(kept)


def test_building_frozen_restores_collection_and_freezes_nothing_on_error(unfrozen: None) -> None:
    with pytest.raises(RuntimeError), building_frozen():
        raise RuntimeError("build failed")
    assert gc.isenabled() and gc.get_freeze_count() == 0
