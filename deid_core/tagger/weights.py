"""Reading the shipped ``weights.pt`` without importing torch.

``torch.save`` writes a zip archive: ``<name>/data.pkl`` pickles the state dict, whose tensors point at
raw little-endian storages ``<name>/data/<key>``. Importing torch costs about 2 s of start-up, more than
the whole NumPy inference of a typical batch, so the CPU runtime reads the archive itself. The unpickler
is restricted like ``torch.load(weights_only=True)``: only the few globals a state dict of plain tensors
needs can be named, anything else is refused.
"""

from __future__ import annotations

import pickle
import zipfile
from collections import OrderedDict
from pathlib import Path
from typing import Any, TypeGuard

import numpy as np

_STORAGE_DTYPES: dict[str, np.dtype[Any]] = {
    "HalfStorage": np.dtype("<f2"),
    "FloatStorage": np.dtype("<f4"),
    "DoubleStorage": np.dtype("<f8"),
    "LongStorage": np.dtype("<i8"),
    "IntStorage": np.dtype("<i4"),
    "ShortStorage": np.dtype("<i2"),
    "CharStorage": np.dtype("i1"),
    "ByteStorage": np.dtype("u1"),
    "BoolStorage": np.dtype("?"),
}


class WeightsFormatError(ValueError):
    """The file is not a torch state dict of plain tensors that this reader understands."""


class _StorageType:
    def __init__(self, name: str) -> None:
        self.dtype = _STORAGE_DTYPES[name]


def _rebuild_tensor(storage: np.ndarray, offset: int, size: tuple[int, ...], stride: tuple[int, ...], *_: object) -> np.ndarray:
    _check_inside(storage, offset, size, stride)
    if not size:
        return storage[offset : offset + 1].reshape(()).copy()
    item = storage.itemsize
    view = np.lib.stride_tricks.as_strided(storage[offset:], shape=size, strides=tuple(s * item for s in stride))
    return np.ascontiguousarray(view)


def _check_inside(storage: np.ndarray, offset: object, size: object, stride: object) -> None:
    """Refuses a tensor whose elements would lie outside its storage: ``as_strided`` checks nothing, and a
    damaged or crafted file must not make it read memory the storage does not own."""
    if not (isinstance(storage, np.ndarray) and storage.ndim == 1 and _count(offset) and _counts(size) and _counts(stride)):
        raise WeightsFormatError("weights file has a tensor with a malformed storage, offset, size or stride")
    if len(size) != len(stride):
        raise WeightsFormatError("weights file has a tensor whose size and stride differ in length")
    if 0 not in size and offset + sum((n - 1) * s for n, s in zip(size, stride, strict=True)) >= len(storage):
        raise WeightsFormatError("weights file has a tensor that reaches past its storage")


def _count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _counts(value: object) -> TypeGuard[tuple[int, ...]]:
    return isinstance(value, tuple) and all(_count(v) for v in value)


class _StateDictUnpickler(pickle.Unpickler):
    def __init__(self, data: bytes, archive: zipfile.ZipFile, prefix: str) -> None:
        import io

        super().__init__(io.BytesIO(data))
        self._archive = archive
        self._prefix = prefix

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch._utils" and name == "_rebuild_tensor_v2":
            return _rebuild_tensor
        if module == "torch" and name in _STORAGE_DTYPES:
            return _StorageType(name)
        if module == "collections" and name == "OrderedDict":
            return OrderedDict
        raise WeightsFormatError(f"weights file names {module}.{name}, which a plain state dict does not use")

    def persistent_load(self, pid: Any) -> np.ndarray:
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage" and isinstance(pid[1], _StorageType)):
            raise WeightsFormatError("weights file holds an object that is not a tensor storage")
        storage_type, key, _location, numel = pid[1], str(pid[2]), pid[3], int(pid[4])
        raw = self._archive.read(f"{self._prefix}/data/{key}")
        return np.frombuffer(raw, dtype=storage_type.dtype, count=numel)


def load_state_dict(path: str | Path) -> dict[str, np.ndarray]:
    """The tensors of a ``torch.save``-d state dict as NumPy arrays (in their stored dtype)."""
    with zipfile.ZipFile(path) as archive:
        pickles = [n for n in archive.namelist() if n.endswith("/data.pkl")]
        if len(pickles) != 1:
            raise WeightsFormatError(f"{path} is not a torch zip archive")
        prefix = pickles[0][: -len("/data.pkl")]
        try:
            byteorder = archive.read(f"{prefix}/byteorder").decode().strip()
        except KeyError:
            byteorder = "little"
        if byteorder != "little":
            raise WeightsFormatError(f"{path} was written on a big-endian machine")
        state = _StateDictUnpickler(archive.read(pickles[0]), archive, prefix).load()
    if not isinstance(state, dict) or not all(isinstance(v, np.ndarray) for v in state.values()):
        raise WeightsFormatError(f"{path} does not hold a state dict of tensors")
    return dict(state)
