"""Checking, before a GPU tagger loads, that the cuDNN in this process is one torch can use.

torch from PyPI brings its own cuDNN (the ``nvidia-cudnn`` wheel) and finds it through its RUNPATH, but
``LD_LIBRARY_PATH`` comes first: in an NGC image, or on a host whose library folders are listed there,
an older system cuDNN loads instead (seen: 9.14 ahead of torch's 9.19) and the model fails at its first
LSTM with an error that does not say why. torch's own check raises only when asked, so the Triton model
asks at load time and fails with both versions and the libraries' paths (deploy/triton.Dockerfile puts
torch's libraries first). The message builder is pure, for tests without a GPU.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

Version = tuple[int, int, int]
_MAPS = "/proc/self/maps"
_FIX = (
    "put torch's own CUDA libraries first on LD_LIBRARY_PATH (site-packages/nvidia/*/lib; "
    "deploy/triton.Dockerfile does this) or remove the other cuDNN from it"
)


class CudnnMismatch(RuntimeError):
    """The loaded cuDNN is not one the installed torch was built for."""


def _fmt(version: Sequence[int]) -> str:
    return ".".join(str(int(v)) for v in version)


def cudnn_mismatch_message(compiled: Sequence[int], loaded: Sequence[int], libraries: Sequence[str] = ()) -> str | None:
    """Why this cuDNN cannot serve this torch, or None. torch's rule: the same major version, and a
    minor version at least the one torch was built against. Libraries loaded from several folders
    are a mix of two installations even when the version numbers agree."""
    folders = sorted({os.path.dirname(p) for p in libraries})
    where = f"; cuDNN libraries loaded: {', '.join(libraries)}" if libraries else ""
    if compiled[0] != loaded[0] or loaded[1] < compiled[1]:
        return f"torch was built for cuDNN {_fmt(compiled)} but this process loaded cuDNN {_fmt(loaded)}{where}: {_FIX}"
    if len(folders) > 1:
        return f"cuDNN libraries come from several folders ({', '.join(folders)}){where}: {_FIX}"
    return None


def loaded_cudnn_libraries(maps: str = _MAPS) -> list[str]:
    """Paths of the cuDNN libraries mapped into this process."""
    try:
        with open(maps, encoding="utf-8", errors="replace") as f:
            paths = {line.split()[-1] for line in f if "libcudnn" in line and "/" in line}
    except OSError:
        return []
    return sorted(paths)


def _versions() -> tuple[Version, Version] | None:
    import torch

    cudnn = getattr(torch._C, "_cudnn", None)  # absent from builds without cuDNN (CPU wheels)
    if cudnn is None or not torch.cuda.is_available():
        return None
    return tuple(cudnn.getCompileVersion()), tuple(cudnn.getRuntimeVersion())  # type: ignore[return-value]


def describe_cudnn() -> str:
    """The cuDNN versions and libraries of this process, for error messages."""
    try:
        versions = _versions()
    except Exception as exc:  # noqa: BLE001 - a description must not fail in turn
        return f"cuDNN versions unavailable ({type(exc).__name__}: {exc})"
    if versions is None:
        return "torch has no cuDNN or no GPU here"
    return f"torch built for cuDNN {_fmt(versions[0])}, loaded cuDNN {_fmt(versions[1])} from {loaded_cudnn_libraries() or 'nowhere yet'}"


def check_cudnn() -> None:
    """Raise ``CudnnMismatch`` unless torch can use the loaded cuDNN (no-op without a GPU or cuDNN)."""
    import torch

    versions = _versions()
    if versions is None:
        return
    compiled, loaded = versions
    message = cudnn_mismatch_message(compiled, loaded, loaded_cudnn_libraries())
    if message:
        raise CudnnMismatch(message)
    try:
        torch.backends.cudnn.version()  # torch's own check, which raises on what it finds incompatible
    except RuntimeError as exc:
        raise CudnnMismatch(f"torch refuses cuDNN {_fmt(loaded)} (built for {_fmt(compiled)}): {exc}; {_FIX}") from exc
