"""The deid CLI as a user drives it: JSONL in, JSONL out, clear errors, no partial output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workers.cli import main

NOTES = [
    {"id": "n1", "text": "Seen on 03/05/2014 by Dr. Ann Lee. Call 617-555-0134.", "patient": {"patient_id": "p1", "names": ["Ann Lee"]}},
    {"id": "n2", "text": "No PHI here: BP 120/80, Na 135, 5 mg daily."},
    {"id": "n3", "text": "Email jo.park@example.org on Monday.", "patient": {"patient_id": "p2", "names": ["Jo Park"]}},
]


def _write(tmp_path: Path, rows: list[object] | list[bytes]) -> Path:
    path = tmp_path / "in.jsonl"
    with path.open("wb") as fh:
        for row in rows:
            fh.write(row if isinstance(row, bytes) else json.dumps(row).encode())
            fh.write(b"\n")
    return path


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, object]], str]:
    code = main(args)
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines() if line.strip()]
    return code, rows, captured.err


def test_detect_writes_one_line_per_record_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, rows, _ = _run(["detect", "--input", str(_write(tmp_path, NOTES))], capsys)
    assert code == 0
    assert [r["id"] for r in rows] == ["n1", "n2", "n3"]
    n1 = {(NOTES[0]["text"][s["start"] : s["end"]], s["type"]) for s in rows[0]["spans"]}  # type: ignore[index]
    assert ("03/05/2014", "DATE") in n1
    assert ("617-555-0134", "PHONE") in n1
    assert any(t == "Ann Lee" for t, _ in n1)
    assert rows[1]["spans"] == []
    for row in rows:
        for s in row["spans"]:  # type: ignore[union-attr]
            assert set(s) == {"start", "end", "type"}


def test_detect_with_only_rules_does_not_use_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(_write(tmp_path, NOTES[:1]))
    text = str(NOTES[0]["text"])
    found = {text[s["start"] : s["end"]] for s in _run(["detect", "-i", path], capsys)[1][0]["spans"]}  # type: ignore[union-attr]
    rules_only = {text[s["start"] : s["end"]] for s in _run(["detect", "-i", path, "--detectors", "rules"], capsys)[1][0]["spans"]}  # type: ignore[union-attr]
    assert "Ann Lee" in found  # the header names the patient
    assert "Ann Lee" not in rules_only  # rules alone have no name evidence


def test_unknown_detector_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, rows, err = _run(["detect", "-i", str(_write(tmp_path, NOTES)), "--detectors", "rules,magic"], capsys)
    assert code != 0 and rows == []
    assert "unknown detector(s) magic" in err


@pytest.mark.parametrize(
    "bad,expected",
    [
        (b"{not json", "line 2: invalid JSON"),
        (b'{"id": "x"}', "line 2: field 'text'"),
        (b'{"id": "x", "text": "\xff\xfe"}', "line 2: not valid UTF-8"),
    ],
)
@pytest.mark.parametrize("command", ["detect", "deidentify"])
def test_bad_input_names_the_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: bytes, expected: str, command: str
) -> None:
    path = _write(tmp_path, [NOTES[0], bad, NOTES[1]])
    code, rows, err = _run([command, "-i", str(path)], capsys)
    assert code == 2
    assert rows == []
    assert expected in err and "no output was written" in err
    assert "Ann Lee" not in err


def test_deidentify_replaces_phi_and_keeps_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, rows, _ = _run(["deidentify", "-i", str(_write(tmp_path, NOTES))], capsys)
    assert code == 0 and [r["id"] for r in rows] == ["n1", "n2", "n3"]
    out1 = str(rows[0]["text"])
    for phi in ("03/05/2014", "Ann Lee", "617-555-0134"):
        assert phi not in out1
    assert out1.startswith("Seen on ") and ". Call " in out1
    assert rows[1]["text"] == NOTES[1]["text"]
    assert "jo.park@example.org" not in str(rows[2]["text"])


def test_cli_reads_stdin_in_a_real_process(tmp_path: Path) -> None:
    data = "\n".join(json.dumps(n) for n in NOTES).encode()
    proc = subprocess.run([sys.executable, "-m", "workers.cli", "detect"], input=data, capture_output=True, check=False)
    assert proc.returncode == 0, proc.stderr.decode()
    assert len(proc.stdout.decode().splitlines()) == 3


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in ("detect", "deidentify", "eval", "corpus", "demo"):
        assert command in out


@pytest.mark.slow
def test_train_on_user_gold_files_writes_a_usable_artifact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "eval"
    out = tmp_path / "model"
    code = main(
        [
            "train", "--out", str(out), "--epochs", "1", "--threads", "1", "--no-progress",
            "--train-gold", str(fixtures / "i2b2_2014"), "--dev-gold", str(fixtures / "gold.jsonl"),
            "--test-gold", str(fixtures / "i2b2_2006.xml"),
        ]
    )
    assert code == 0
    assert {"weights.pt", "vocab.json", "tagger.json", "MODEL_CARD.md", "metrics.json"} <= {p.name for p in out.iterdir()}
    assert "i2b2_2014" in (out / "MODEL_CARD.md").read_text()
    capsys.readouterr()
    code, rows, _ = _run(["detect", "-i", str(_write(tmp_path, NOTES)), "--tagger-model-dir", str(out)], capsys)
    assert code == 0 and len(rows) == 3


def test_unreachable_redis_is_a_clear_error_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    path = str(_write(tmp_path, NOTES))
    code, rows, err = _run(["deidentify", "-i", path, "--detectors", "rules", "--store", f"redis://127.0.0.1:{port}/0"], capsys)
    assert code == 1 and rows == []
    assert "mapping store" in err and "nothing was written" in err
    assert "Ann Lee" not in err


def test_short_secret_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "short.key"
    secret.write_text("tooshort")
    code, rows, err = _run(
        ["deidentify", "--detectors", "rules", "--secret-file", str(secret), "--input", str(_write(tmp_path, NOTES))],
        capsys,
    )
    assert code != 0 and rows == []
    assert "--secret-file" in err and "shorter than 16 bytes" in err
    assert "tooshort" not in err
