"""The torch-free weights reader (deid_core/tagger/weights.py): it reads the shipped state dict as torch
does, and refuses a tensor that would reach outside its storage instead of reading memory it does not own."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from deid_core.tagger import default_model_dir
from deid_core.tagger.weights import WeightsFormatError, _rebuild_tensor, load_state_dict

STORAGE = np.arange(12, dtype=np.float32)


def test_the_shipped_weights_read_as_torch_reads_them() -> None:
    torch = pytest.importorskip("torch")
    ours = load_state_dict(default_model_dir() / "weights.pt")
    theirs = torch.load(default_model_dir() / "weights.pt", map_location="cpu", weights_only=True)
    assert ours.keys() == theirs.keys()
    for key, value in theirs.items():
        assert np.array_equal(ours[key], value.numpy()), key


@pytest.mark.parametrize(
    ("offset", "size", "stride", "expected"),
    [
        (0, (3, 4), (4, 1), STORAGE.reshape(3, 4)),
        (2, (2, 2), (1, 2), np.array([[2, 4], [3, 5]], dtype=np.float32)),  # a transposed view
        (11, (), (), np.float32(11)),
        (5, (0, 3), (3, 1), np.zeros((0, 3), dtype=np.float32)),
    ],
)
def test_tensors_inside_their_storage_are_rebuilt(offset: int, size: tuple, stride: tuple, expected: np.ndarray) -> None:
    assert np.array_equal(_rebuild_tensor(STORAGE, offset, size, stride), expected)


@pytest.mark.parametrize(
    ("offset", "size", "stride"),
    [
        (0, (3, 5), (5, 1)),  # one row too many
        (1, (12,), (1,)),  # shifted past the end
        (12, (), ()),  # a scalar after the end
        (0, (2, 2), (100, 1)),  # a stride that jumps out
        (-1, (2,), (1,)),
        (0, (2,), (-1,)),
        (0, (2, 2), (1,)),
        (0, ("2",), (1,)),
        (True, (2,), (1,)),
    ],
)
def test_tensors_reaching_outside_their_storage_are_refused(offset: object, size: object, stride: object) -> None:
    with pytest.raises(WeightsFormatError):
        _rebuild_tensor(STORAGE, offset, size, stride)  # type: ignore[arg-type]


def test_a_storage_that_is_no_array_is_refused() -> None:
    with pytest.raises(WeightsFormatError):
        _rebuild_tensor((1.0, 2.0), 0, (2,), (1,))  # type: ignore[arg-type]


def test_a_file_that_is_no_torch_archive_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "weights.pt"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("x/readme.txt", "not a state dict")
    path.write_bytes(buffer.getvalue())
    with pytest.raises(WeightsFormatError):
        load_state_dict(path)
