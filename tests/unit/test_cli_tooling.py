"""The tooling commands without deid-stream-tools installed: a clear message and exit code 2."""

from __future__ import annotations

import io
import sys

import pytest

from workers.cli import TOOLING_MISSING, main


@pytest.mark.parametrize(
    "argv",
    [
        ["corpus", "-n", "1"],
        ["eval", "--gold", "gold.jsonl"],
        ["train"],
        ["demo", "--offline"],
        ["demo"],
    ],
)
def test_tooling_command_without_the_tooling_exits_2(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A None entry in sys.modules makes importlib.util.find_spec (and any import) treat it as absent.
    monkeypatch.setitem(sys.modules, "deid_tools", None)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert TOOLING_MISSING in err
    assert "pip install -e tools/" in err


def test_runtime_command_needs_no_tooling(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "deid_tools", None)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"id": "n1", "text": "Seen 03/05/2014."}\n')))
    assert main(["detect", "--detectors", "rules"]) == 0
    assert '"DATE"' in capsys.readouterr().out
