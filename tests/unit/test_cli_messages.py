"""``deid deidentify --format``: whole messages from a file, a folder or stdin, through the worker's path."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import hl7
import pytest

from deid_core.message.envelope import EnvelopeLoader
from deid_core.message.fhir.codec import FhirLoader
from deid_core.message.hl7.codec import Hl7Loader
from workers.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "workers" / "samples"
RULES = ["--detectors", "rules,header"]


def test_one_hl7_file_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["deidentify", "--format", "auto", "-i", str(SAMPLES / "MDM-T02-02.hl7"), *RULES])
    out = capsys.readouterr().out
    assert code == 0
    message = Hl7Loader().load(out.encode())
    assert message.notes and "Woolfson" not in out and "Doctorovich" not in out and "PS1-20080131160038" not in out


def test_a_folder_of_mixed_messages_to_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inbox, outbox = tmp_path / "in", tmp_path / "out"
    inbox.mkdir()
    for name in ("ADT-A01-01.hl7", "MDM-T02-03.hl7", "bundle.json", "patient.json"):
        shutil.copy(SAMPLES / name, inbox / name)
    code = main(["deidentify", "--format", "auto", "-i", str(inbox), "-o", str(outbox), "--policy", "safe-harbor", *RULES])
    assert code == 0, capsys.readouterr().err
    assert sorted(p.name for p in outbox.iterdir()) == ["ADT-A01-01.hl7", "MDM-T02-03.hl7", "bundle.json", "patient.json"]
    # Safe Harbor removes the patient's ids, so the output is HL7 our loader would not take as a note.
    adt = hl7.parse((outbox / "ADT-A01-01.hl7").read_bytes().decode("utf-8"))
    pid3 = str(adt.segment("PID")[3])
    assert "PATID1234" not in pid3 and "123456789" not in pid3
    bundle = FhirLoader().load((outbox / "bundle.json").read_bytes())
    # Safe Harbor: dates keep the year only.
    assert all(len(leaf.value) == 4 for leaf in bundle.leaves() if leaf.kind.value == "date" and leaf.datatype != "instant")


def test_stdin_json_envelope(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"id": "n-1", "text": "Ann Lee seen 03/05/2014.", "patient": {"patient_id": "p-1", "names": ["Ann Lee"]}}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(doc).encode())))
    code = main(["deidentify", "--format", "json", *RULES])
    out = capsys.readouterr().out
    assert code == 0
    loaded = EnvelopeLoader().load(out.strip().encode())
    assert "Ann Lee" not in out and "03/05/2014" not in out and "p-1" not in out
    assert loaded.notes[0].text.endswith(".")


def test_bad_files_stop_everything_and_never_echo_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inbox, outbox = tmp_path / "in", tmp_path / "out"
    inbox.mkdir()
    shutil.copy(SAMPLES / "MDM-T02-02.hl7", inbox / "good.hl7")
    (inbox / "bad.hl7").write_bytes(b"MSH|^~\\&|QORVEXSECRET")
    code = main(["deidentify", "--format", "auto", "-i", str(inbox), "-o", str(outbox), *RULES])
    err = capsys.readouterr().err
    assert code == 2 and not outbox.exists()
    assert "bad.hl7" in err and "QORVEXSECRET" not in err
    code = main(["deidentify", "--format", "auto", "-i", str(inbox), "-o", str(outbox), "--skip-invalid", *RULES])
    err = capsys.readouterr().err
    assert code == 0 and [p.name for p in outbox.iterdir()] == ["good.hl7"] and "skipped bad.hl7" in err


def test_unknown_policy_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["deidentify", "--format", "auto", "-i", str(SAMPLES / "MDM-T02-02.hl7"), "--policy", "no-such", *RULES])
    assert code == 1 and "no such policy" in capsys.readouterr().err
