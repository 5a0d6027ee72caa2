"""The README's "Python API and HTTP service" examples run as written, so the docs cannot rot.

The Python snippet runs in a fresh interpreter from the repository root and must print what its comments
say; every ``curl`` example is replayed (method, path, headers, body) against ``create_server`` through
the TestClient; the ``deid serve`` line parses with the CLI; every ``DEID_*`` name the section mentions
is a real setting.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.serve_client import ServeClient, clean_deid_environment, dev_settings
from workers.serve import create_server
from workers.serve_settings import ServeSettings

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "readme-test-token-0123456789abcdef"


def _section() -> str:
    text = (ROOT / "README.md").read_text("utf-8")
    start = text.index("## Python API and HTTP service")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", _section(), flags=re.S)


def _commands(block: str) -> list[str]:
    """Shell commands, continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", block)
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch) -> None:
    clean_deid_environment(monkeypatch)


def test_the_python_example_runs_and_prints_what_it_says() -> None:
    (code,) = _blocks("python")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEID_")}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    documented = [m.group(1).strip() for m in re.finditer(r"print\((?:result\.text|\[s\.type for s in deid\.detect.*?)\)\s*#(.*)", code)]
    assert len(documented) == 2 and documented[0].startswith("[PATIENT]")
    for expected in documented:
        assert expected in lines, f"README says {expected!r}; the example printed {lines}"
    assert "Smithers" not in proc.stdout


def _curl_request(command: str) -> tuple[str, dict[str, str], bytes]:
    args = shlex.split(command, comments=True)
    assert args[0] == "curl"
    url, headers, body = "", {}, b""
    i = 1
    while i < len(args):
        arg = args[i]
        if arg == "-H":
            name, _, value = args[i + 1].partition(":")
            headers[name.strip()] = value.strip().replace("$(cat token.txt)", TOKEN)
            i += 2
        elif arg in ("-d", "--data", "--data-binary"):
            data = args[i + 1]
            body = (ROOT / data[1:]).read_bytes() if data.startswith("@") else data.encode()
            i += 2
        elif arg.startswith("-"):
            i += 1
        else:
            url = arg
            i += 1
    parts = urlsplit(url)
    assert parts.hostname == "127.0.0.1", "examples talk to the loopback server"
    return parts.path, headers, body


def test_the_curl_examples_work_against_the_server(tmp_path: Path) -> None:
    (shell,) = _blocks("bash")
    curls = [c for c in _commands(shell) if c.startswith("curl ")]
    assert len(curls) >= 2
    token_file = tmp_path / "token.txt"
    token_file.write_text(TOKEN + "\n")
    # The composition the README's `deid serve` line gets: in-process tagger, memory store, the token.
    app = create_server(dev_settings(mode="production", serve_token_file=token_file))
    seen = set()
    with ServeClient(app) as client:
        for command in curls:
            path, headers, body = _curl_request(command)
            assert headers.get("Authorization") == f"Bearer {TOKEN}"
            response = client.post(path, content=body, headers=headers)
            assert response.status_code == 200, (path, response.text)
            seen.add(path)
            if path == "/v1/deidentify":
                out = response.json()
                assert "Ann Lee" not in out["text"] and "12345678" not in out["text"]
                assert {"DATE", "MEDICALRECORD"} <= {s["type"] for s in out["spans"]}
            elif path == "/fhir/$de-identify":
                assert response.json()["resourceType"] == "Bundle" and "Quennell" not in response.text
            elif path == "/v1/hl7":
                assert response.content.startswith(b"MSH|") and b"PROSOLV" not in response.content
            # Without the token the same request is refused.
            no_token = {k: v for k, v in headers.items() if k != "Authorization"}
            assert client.post(path, content=body, headers=no_token).status_code == 401
    assert {"/v1/deidentify", "/fhir/$de-identify"} <= seen


def test_the_serve_command_line_parses_and_its_settings_exist() -> None:
    from workers.cli import build_parser, cmd_serve

    (shell,) = _blocks("bash")
    serve_lines = [c for c in _commands(shell) if re.search(r"\bdeid serve\b", c)]
    assert serve_lines
    for line in serve_lines:
        words = shlex.split(line, comments=True)
        at = next(i for i, w in enumerate(words) if w.endswith("/deid") or w == "deid")
        args = build_parser().parse_args(words[at + 1 :])
        assert args.func is cmd_serve and args.host == "127.0.0.1"
    for name in set(re.findall(r"\bDEID_[A-Z0-9_]+\b", _section())):
        assert name.removeprefix("DEID_").lower() in ServeSettings.model_fields, f"README names unknown setting {name}"
