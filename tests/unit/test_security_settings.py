"""Security settings: validation, secrets kept out of repr and errors, production checks at startup."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from deid_core.surrogate import keys
from deid_core.surrogate.keys import HmacKey, KeyRing, development_key
from workers.compose import build_store
from workers.security import ConfigurationError, redis_options, settings_error_message
from workers.security import load_keyring as load_settings_keyring
from workers.settings import WorkerSettings

ROOT = Path(__file__).resolve().parents[2]
GOOD_SECRET = "Qm9vbS1hLXJlYWwtc2VjcmV0LWZvci10ZXN0cy0wMTIzNDU2Nzg5"  # 52 bytes, synthetic
REDIS_PASSWORD = "s3cr3t-redis-pass-for-tests"  # synthetic


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("DEID_") and not name.startswith("DEID_TEST_"):
            monkeypatch.delenv(name)


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text + "\n")
    return path


# --------------------------------------------------------------------------------------------- settings


def test_environment_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pw = _file(tmp_path, "kafka.pw", "kafka-pass")
    ca = _file(tmp_path, "ca.pem", "not parsed here")
    rpw = _file(tmp_path, "redis.pw", REDIS_PASSWORD)
    env = {
        "DEID_KAFKA_SECURITY_PROTOCOL": "SASL_SSL", "DEID_KAFKA_SASL_MECHANISM": "SCRAM-SHA-512",
        "DEID_KAFKA_SASL_USERNAME": "deid", "DEID_KAFKA_SASL_PASSWORD_FILE": str(pw), "DEID_KAFKA_SSL_CAFILE": str(ca),
        "DEID_STORE": "rediss://redis.internal:6380/0", "DEID_REDIS_USERNAME": "deid",
        "DEID_REDIS_PASSWORD_FILE": str(rpw), "DEID_REDIS_SSL_CAFILE": str(ca),
        "DEID_PREVIOUS_SECRET_FILES": " /keys/v1 , /keys/v2 ", "DEID_PRODUCTION": "true",
    }  # fmt: skip
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    s = WorkerSettings()
    assert (s.kafka_security_protocol, s.kafka_sasl_mechanism, s.kafka_sasl_username) == ("SASL_SSL", "SCRAM-SHA-512", "deid")
    assert s.kafka_sasl_password_file == pw and s.kafka_ssl_cafile == ca
    assert (s.redis_username, s.redis_password_file, s.redis_ssl_cafile) == ("deid", rpw, ca)
    assert s.previous_secret_files == ("/keys/v1", "/keys/v2")
    assert s.production is True
    assert redis_options(s).password == REDIS_PASSWORD
    assert REDIS_PASSWORD not in repr(s) and REDIS_PASSWORD not in repr(redis_options(s))
    assert "kafka-pass" not in repr(s)


def test_defaults_are_plaintext_and_no_redis_auth() -> None:
    s = WorkerSettings()
    assert s.kafka_security_protocol == "PLAINTEXT" and s.kafka_sasl_mechanism is None
    assert s.previous_secret_files == ()
    assert redis_options(s).as_kwargs() == {}


@pytest.mark.parametrize(
    ("kwargs", "names"),
    [
        ({"kafka_security_protocol": "SASL_SSL"}, ["DEID_KAFKA_SASL_MECHANISM", "DEID_KAFKA_SASL_PASSWORD_FILE"]),
        ({"kafka_security_protocol": "SASL_PLAINTEXT", "kafka_sasl_mechanism": "PLAIN", "kafka_sasl_username": "u"},
         ["DEID_KAFKA_SASL_PASSWORD_FILE"]),
        ({"kafka_sasl_username": "u"}, ["DEID_KAFKA_SASL_", "PLAINTEXT"]),
        ({"kafka_security_protocol": "SSL", "kafka_ssl_cafile": "/nonexistent/ca.pem"}, ["DEID_KAFKA_SSL_CAFILE"]),
        ({"kafka_security_protocol": "KERBEROS"}, ["DEID_KAFKA_SECURITY_PROTOCOL"]),
        ({"kafka_security_protocol": "SASL_SSL", "kafka_sasl_mechanism": "GSSAPI"}, ["DEID_KAFKA_SASL_MECHANISM"]),
        ({"redis_password_file": "/nonexistent/pw", "store": "redis://h:6379/0"}, ["DEID_REDIS_PASSWORD_FILE"]),
        ({"redis_username": "deid", "store": "redis://h:6379/0"}, ["DEID_REDIS_PASSWORD_FILE"]),
        ({"store": "redis://:hunter2@h:6379/0"}, ["DEID_STORE", "DEID_REDIS_PASSWORD_FILE"]),
        ({"store": "redis://deid:hunter2@h:6379/0"}, ["DEID_STORE"]),
    ],
)  # fmt: skip
def test_invalid_security_settings_name_the_setting(kwargs: dict[str, str], names: list[str]) -> None:
    with pytest.raises(ValidationError) as info:
        WorkerSettings(**kwargs)  # type: ignore[arg-type]
    message = settings_error_message(info.value)
    assert "\n" not in message
    for name in names:
        assert name in message
    assert "hunter2" not in message and "hunter2" not in str(info.value)


def test_tls_files_need_a_tls_transport(tmp_path: Path) -> None:
    ca = _file(tmp_path, "ca.pem", "x")
    with pytest.raises(ValidationError, match="PLAINTEXT does not use TLS"):
        WorkerSettings(kafka_ssl_cafile=ca)
    with pytest.raises(ValidationError, match="not a rediss:// URL"):
        WorkerSettings(store="redis://h:6379/0", redis_ssl_cafile=ca)
    with pytest.raises(ValidationError, match="DEID_REDIS_SSL_CERTFILE"):
        WorkerSettings(store="rediss://h:6379/0", redis_ssl_keyfile=ca)
    WorkerSettings(store="rediss://h:6379/0", redis_ssl_cafile=ca)


def test_build_store_from_settings_passes_auth_and_tls(tmp_path: Path) -> None:
    from deid_core.surrogate.store import RedisMappingStore

    ca = _file(tmp_path, "ca.pem", "x")
    pw = _file(tmp_path, "pw", REDIS_PASSWORD)
    s = WorkerSettings(store="rediss://redis.internal:6380/0", redis_username="deid", redis_password_file=pw,
                       redis_ssl_cafile=ca)  # fmt: skip
    store = build_store(s)
    assert isinstance(store, RedisMappingStore)
    kwargs = store._pool.connection_kwargs  # noqa: SLF001 - what the connections will be made with
    assert kwargs["username"] == "deid" and kwargs["password"] == REDIS_PASSWORD
    assert kwargs["ssl_ca_certs"] == str(ca) and kwargs["ssl_cert_reqs"] == "required"
    assert REDIS_PASSWORD not in repr(store)
    with pytest.raises(ConfigurationError, match="rediss://"):
        build_store("redis://h:6379/0", redis_options(WorkerSettings(store="rediss://h/0", redis_ssl_cafile=ca)))


def test_empty_password_file_is_refused(tmp_path: Path) -> None:
    s = WorkerSettings(store="redis://h:6379/0", redis_password_file=_file(tmp_path, "pw", "  "))
    with pytest.raises(ConfigurationError, match="DEID_REDIS_PASSWORD_FILE"):
        redis_options(s)


# ------------------------------------------------------------------------------------- keys, production


def test_keyring_order_and_validation(tmp_path: Path) -> None:
    v1 = _file(tmp_path, "v1", "v1:" + GOOD_SECRET)
    v2 = _file(tmp_path, "v2", "v2:" + GOOD_SECRET[::-1])
    v3 = _file(tmp_path, "v3", "v3:" + GOOD_SECRET.upper())
    ring = load_settings_keyring(WorkerSettings(secret_file=str(v3), previous_secret_files=f"{v1},{v2}"))  # type: ignore[arg-type]
    assert [k.version for k in ring.chain] == ["v1", "v2", "v3"] and ring.current.version == "v3"
    assert ring == keys.load_keyring(v3, [v1, v2])
    assert GOOD_SECRET not in repr(ring)
    with pytest.raises(ValueError, match="version"):
        KeyRing(HmacKey(b"a" * 32, "v1"), (HmacKey(b"b" * 32, "v1"),))
    with pytest.raises(ValueError, match="secret"):
        KeyRing(HmacKey(b"a" * 32, "v2"), (HmacKey(b"a" * 32, "v1"),))
    with pytest.raises(ConfigurationError, match="DEID_PREVIOUS_SECRET_FILES"):
        load_settings_keyring(WorkerSettings(secret_file=str(v3), previous_secret_files=str(tmp_path / "gone")))  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="needs DEID_SECRET_FILE"):
        load_settings_keyring(WorkerSettings(previous_secret_files=str(v1)))  # type: ignore[arg-type]


def test_development_key_is_fine_outside_production() -> None:
    assert load_settings_keyring(WorkerSettings()).current == development_key()


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (None, "DEID_SECRET_FILE is not set"),
        ("dev:deid-stream DEVELOPMENT key - not secret - do not use on real data", "development key"),
        ("deid-stream DEVELOPMENT key - not secret - do not use on real data", "development key"),
        ("dev:" + GOOD_SECRET, "version label 'dev'"),
        ("v2:short-but-16-bytes-ok", "at least 32"),
    ],
)
def test_production_refuses_unsafe_keys(tmp_path: Path, content: str | None, fragment: str) -> None:
    path = None if content is None else str(_file(tmp_path, "secret", content))
    with pytest.raises(ConfigurationError, match=fragment) as info:
        load_settings_keyring(WorkerSettings(production=True, secret_file=path))
    assert "DEID_SECRET_FILE" in str(info.value)
    if content is not None:
        assert content.split(":", 1)[-1] not in str(info.value)


def test_production_accepts_a_short_previous_key_but_not_a_development_one(tmp_path: Path) -> None:
    current = _file(tmp_path, "v2", "v2:" + GOOD_SECRET)
    old = _file(tmp_path, "v1", "v1:only-20-bytes-long")
    ring = load_settings_keyring(WorkerSettings(production=True, secret_file=str(current), previous_secret_files=str(old)))  # type: ignore[arg-type]
    assert [k.version for k in ring.chain] == ["v1", "v2"]
    dev = _file(tmp_path, "dev", "deid-stream DEVELOPMENT key - not secret - do not use on real data")
    with pytest.raises(ConfigurationError, match="DEID_PREVIOUS_SECRET_FILES holds the built-in development key"):
        load_settings_keyring(WorkerSettings(production=True, secret_file=str(current), previous_secret_files=str(dev)))  # type: ignore[arg-type]


# --------------------------------------------------------------------------------- `deid worker` startup


def _worker(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DEID_")}
    # An unreachable broker: if a check failed to stop startup, the worker would hang here, not exit.
    clean.update({"DEID_KAFKA_BOOTSTRAP": "127.0.0.1:1", **env})
    return subprocess.run(
        [sys.executable, "-m", "workers.cli", "worker", *args],
        env=clean, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (None, "DEID_SECRET_FILE is not set"),
        ("deid-stream DEVELOPMENT key - not secret - do not use on real data", "development key"),
        ("v1:twenty-byte-secret", "at least 32"),
        ("dev:" + GOOD_SECRET, "version label 'dev'"),
    ],
)
def test_worker_refuses_to_start_in_production(tmp_path: Path, content: str | None, fragment: str) -> None:
    env = {"DEID_PRODUCTION": "true"}
    if content is not None:
        env["DEID_SECRET_FILE"] = str(_file(tmp_path, "secret", content))
    proc = _worker(env)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("deid worker: error: production mode:"), proc.stderr
    assert fragment in lines[0] and "DEID_SECRET_FILE" in lines[0]
    if content is not None:
        assert content.split(":", 1)[-1] not in proc.stderr + proc.stdout


def test_worker_refuses_to_start_with_a_missing_secret_file_or_bad_security_settings(tmp_path: Path) -> None:
    proc = _worker({"DEID_PRODUCTION": "true", "DEID_SECRET_FILE": str(tmp_path / "missing")})
    assert proc.returncode != 0 and "DEID_SECRET_FILE: cannot read" in proc.stderr
    proc = _worker({"DEID_KAFKA_SECURITY_PROTOCOL": "SASL_SSL", "DEID_KAFKA_SASL_MECHANISM": "PLAIN"})
    assert proc.returncode != 0 and len(proc.stderr.strip().splitlines()) == 1
    assert "DEID_KAFKA_SASL_USERNAME" in proc.stderr and "DEID_KAFKA_SASL_PASSWORD_FILE" in proc.stderr
    proc = _worker({"DEID_STORE": "redis://:hunter2@127.0.0.1:1/0"})
    assert proc.returncode != 0 and "DEID_STORE" in proc.stderr and "hunter2" not in proc.stderr
    settings = _file(tmp_path, "deid.env", f"DEID_PRODUCTION=true\nDEID_SECRET_FILE={_file(tmp_path, 's', 'x' * 20)}")
    proc = _worker({}, "--settings-file", str(settings))
    assert proc.returncode != 0 and "at least 32" in proc.stderr


def test_empty_variables_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compose templates (``${DEID_PREVIOUS_SECRET_FILES:-}``) pass empty strings for unset options."""
    for name in ("DEID_PREVIOUS_SECRET_FILES", "DEID_REDIS_USERNAME", "DEID_KAFKA_SSL_CAFILE", "DEID_SECRET_FILE"):
        monkeypatch.setenv(name, "")
    s = WorkerSettings()
    assert (s.previous_secret_files, s.redis_username, s.kafka_ssl_cafile, s.secret_file) == ((), None, None, None)
