"""The runtime packages (schemas, deid_core, workers) stay apart from the tooling (deid_tools, in tools/).

A worker or server loads no tooling module, and a worker that talks to Triton loads no torch. Checked in
fresh interpreters: importing the worker and server modules and building the processor from settings
with ``DEID_TRITON_URL`` set (the Triton client connects on first use, so nothing is contacted). The
packaging keeps the tooling out too: the root distribution's package list excludes it, and deid_core
has no corpus or evaluation subpackage to ship.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_REPORT = """
print(json.dumps({
    "torch": sorted(m for m in sys.modules if m == "torch" or m.startswith("torch.")),
    "tooling": sorted(m for m in sys.modules if m == "deid_tools" or m.startswith("deid_tools.")),
    **extra,
}))
"""
_WORKER_PROBE = """
import json, sys
import workers.app, workers.cli, workers.processor
from workers.compose import build_processor
from workers.processor import InMemoryDemographics, TopicNames
from workers.settings import WorkerSettings
processor = build_processor(WorkerSettings(), InMemoryDemographics(), TopicNames())
extra = {"tagger": type(processor.pipeline.detection.tagger).__name__}
""" + _REPORT
_SERVER_PROBE = """
import json, sys
import deid_core.api, workers.app, workers.processor, workers.serve
extra = {}
""" + _REPORT


def _probe(code: str) -> dict[str, object]:
    env = {**os.environ, "DEID_TRITON_URL": "127.0.0.1:1"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_triton_worker_imports_no_torch_and_no_tooling() -> None:
    found = _probe(_WORKER_PROBE)
    assert found["tagger"] == "TritonTagger"
    assert found["torch"] == []
    assert found["tooling"] == []


def test_server_modules_import_no_tooling() -> None:
    found = _probe(_SERVER_PROBE)
    assert found["tooling"] == []
    assert found["torch"] == []


def test_root_distribution_leaves_the_tooling_out() -> None:
    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    assert set(find["include"]) == {"schemas*", "deid_core*", "workers*"}
    assert "deid_tools*" in find["exclude"]
    tools = tomllib.loads((ROOT / "tools" / "pyproject.toml").read_text())
    assert tools["project"]["name"] == "deid-stream-tools"
    assert "deid-stream" in tools["project"]["dependencies"]
    for gone in ("corpus", "eval"):
        assert not (ROOT / "deid_core" / gone).exists() or not list((ROOT / "deid_core" / gone).rglob("*.py")), gone
    assert not (ROOT / "deid_core" / "tagger" / "train.py").exists()
    assert not (ROOT / "deid_core" / "tagger" / "job.py").exists()


def test_runtime_sources_never_import_the_tooling_at_module_level() -> None:
    """Only the tooling commands in workers/cli/tooling.py import deid_tools, inside the command, after a check."""
    top_level = re.compile(r"^(from|import) deid_tools\b", re.MULTILINE)
    offenders = [
        str(path.relative_to(ROOT))
        for package in ("schemas", "deid_core", "workers")
        for path in (ROOT / package).rglob("*.py")
        if top_level.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_worker_image_copies_no_tooling() -> None:
    copies = [
        line.split()[1]
        for line in (ROOT / "deploy" / "Dockerfile").read_text().splitlines()
        if line.startswith("COPY ") and "--from" not in line
    ]
    assert not any(src.startswith("tools") for src in copies), copies
    assert "tools" in (ROOT / ".dockerignore").read_text().splitlines()
