"""Two separate processes sharing a real Redis agree on surrogates and date offsets per patient."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.redis

SENTENCE = re.compile(r"^(?P<name>.+) was seen on (?P<date>\d{2}/\d{2}/\d{4})\.$")


def _deidentify_in_subprocess(tmp_path: Path, redis_url: str, secret: Path, note: dict[str, object]) -> str:
    path = tmp_path / f"{note['id']}.jsonl"
    path.write_text(json.dumps(note) + "\n")
    proc = subprocess.run(
        [sys.executable, "-m", "workers.cli", "deidentify", "-i", str(path), "--store", redis_url, "--secret-file", str(secret)],
        capture_output=True, text=True, check=False, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["text"]


def _parts(text: str) -> tuple[str, dt.date]:
    m = SENTENCE.match(text)
    assert m, "de-identified text lost its shape"
    return m["name"], dt.datetime.strptime(m["date"], "%m/%d/%Y").date()


def test_same_patient_same_surrogates_across_processes(tmp_path: Path, redis_url: str) -> None:
    import uuid

    secret = tmp_path / "secret"
    secret.write_bytes(b"test-secret-" + uuid.uuid4().hex.encode())
    run = uuid.uuid4().hex[:8]  # fresh patient ids so earlier runs against the same Redis do not interfere
    smith = {"patient_id": f"p-smith-{run}", "names": ["Jonathan Smithers"]}
    other = {"patient_id": f"p-other-{run}", "names": ["Jonathan Smithers"]}
    first = _deidentify_in_subprocess(
        tmp_path, redis_url, secret, {"id": "a", "text": "Jonathan Smithers was seen on 03/05/2014.", "patient": smith}
    )
    second = _deidentify_in_subprocess(
        tmp_path, redis_url, secret, {"id": "b", "text": "Jonathan Smithers was seen on 11/20/2015.", "patient": smith}
    )
    third = _deidentify_in_subprocess(
        tmp_path, redis_url, secret, {"id": "c", "text": "Jonathan Smithers was seen on 03/05/2014.", "patient": other}
    )
    name1, date1 = _parts(first)
    name2, date2 = _parts(second)
    name3, date3 = _parts(third)
    assert "Smithers" not in name1 + name2 + name3
    assert name1 == name2, "same patient, same real name -> same surrogate in another process"
    shift1 = (date1 - dt.date(2014, 3, 5)).days
    shift2 = (date2 - dt.date(2015, 11, 20)).days
    assert shift1 == shift2 != 0, "one date offset per patient"
    assert 1 <= abs(shift1) <= 365
    assert name3 != name1, "a different patient gets a different surrogate"
    assert (date3 - dt.date(2014, 3, 5)).days != shift1 or name3 != name1
