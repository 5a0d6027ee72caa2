"""Kafka SASL/SSL settings -> faust broker credentials and aiokafka client keyword arguments."""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
from pathlib import Path

import faust
import pytest
from faust.transport.drivers.aiokafka import credentials_to_aiokafka_auth

from workers.security import ConfigurationError, aiokafka_client_options, faust_broker_options
from workers.settings import WorkerSettings

PASSWORD = "synthetic-kafka-password"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("DEID_") and not name.startswith("DEID_TEST_"):
            monkeypatch.delenv(name)


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A self-signed CA certificate plus a client certificate and key (made with the openssl CLI)."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is not installed")
    d = tmp_path_factory.mktemp("tls")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=test-ca",
         "-keyout", str(d / "ca.key"), "-out", str(d / "ca.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=client",
         "-keyout", str(d / "client.key"), "-out", str(d / "client.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    return {"ca": d / "ca.pem", "cert": d / "client.pem", "key": d / "client.key"}


@pytest.fixture
def password_file(tmp_path: Path) -> Path:
    path = tmp_path / "kafka.pw"
    path.write_text(PASSWORD + "\n")
    return path


def test_plaintext_has_no_credentials() -> None:
    settings = WorkerSettings(kafka_bootstrap="k1:9092,k2:9092")
    assert faust_broker_options(settings) == {"broker": "kafka://k1:9092,k2:9092"}
    assert aiokafka_client_options(settings) == {"security_protocol": "PLAINTEXT"}
    app = faust.App("t-plain", **faust_broker_options(settings))
    assert [str(u) for u in app.conf.broker] == ["kafka://k1:9092", "kafka://k2:9092"]


def test_ssl_with_mutual_tls(tls_files: dict[str, Path]) -> None:
    settings = WorkerSettings(
        kafka_security_protocol="SSL", kafka_ssl_cafile=tls_files["ca"],
        kafka_ssl_certfile=tls_files["cert"], kafka_ssl_keyfile=tls_files["key"],
    )  # fmt: skip
    options = faust_broker_options(settings)
    creds = options["broker_credentials"]
    assert isinstance(creds, faust.SSLCredentials)
    assert creds.context.verify_mode == ssl.CERT_REQUIRED and creds.context.check_hostname
    assert any(c["subject"] == ((("commonName", "test-ca"),),) for c in creds.context.get_ca_certs())
    assert credentials_to_aiokafka_auth(creds)["security_protocol"] == "SSL"
    client = aiokafka_client_options(settings)
    assert client["security_protocol"] == "SSL" and isinstance(client["ssl_context"], ssl.SSLContext)
    assert "sasl_mechanism" not in client


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_sasl_ssl(tls_files: dict[str, Path], password_file: Path, mechanism: str) -> None:
    settings = WorkerSettings(
        kafka_security_protocol="SASL_SSL", kafka_sasl_mechanism=mechanism, kafka_sasl_username="deid-worker",  # type: ignore[arg-type]
        kafka_sasl_password_file=password_file, kafka_ssl_cafile=tls_files["ca"],
    )  # fmt: skip
    creds = faust_broker_options(settings)["broker_credentials"]
    assert isinstance(creds, faust.SASLCredentials)
    # What faust's aiokafka driver will hand to the consumer and producer:
    auth = credentials_to_aiokafka_auth(creds)
    assert auth["security_protocol"] == "SASL_SSL" and auth["sasl_mechanism"] == mechanism
    assert auth["sasl_plain_username"] == "deid-worker" and auth["sasl_plain_password"] == PASSWORD
    assert isinstance(auth["ssl_context"], ssl.SSLContext)
    assert PASSWORD not in repr(creds)
    client = aiokafka_client_options(settings)
    assert {k: client[k] for k in ("security_protocol", "sasl_mechanism", "sasl_plain_username", "sasl_plain_password")} == {
        "security_protocol": "SASL_SSL", "sasl_mechanism": mechanism, "sasl_plain_username": "deid-worker",
        "sasl_plain_password": PASSWORD,
    }  # fmt: skip
    assert isinstance(client["ssl_context"], ssl.SSLContext)


def test_sasl_plaintext_uses_no_tls(password_file: Path) -> None:
    settings = WorkerSettings(
        kafka_security_protocol="SASL_PLAINTEXT", kafka_sasl_mechanism="PLAIN", kafka_sasl_username="u",
        kafka_sasl_password_file=password_file,
    )  # fmt: skip
    auth = credentials_to_aiokafka_auth(faust_broker_options(settings)["broker_credentials"])
    assert auth["security_protocol"] == "SASL_PLAINTEXT" and auth["ssl_context"] is None
    client = aiokafka_client_options(settings)
    assert client["security_protocol"] == "SASL_PLAINTEXT" and "ssl_context" not in client


async def test_the_options_build_real_aiokafka_clients(tls_files: dict[str, Path], password_file: Path) -> None:
    from aiokafka import AIOKafkaProducer
    from aiokafka.admin import AIOKafkaAdminClient

    settings = WorkerSettings(
        kafka_security_protocol="SASL_SSL", kafka_sasl_mechanism="SCRAM-SHA-256", kafka_sasl_username="u",
        kafka_sasl_password_file=password_file, kafka_ssl_cafile=tls_files["ca"],
    )  # fmt: skip
    # Constructing connects nothing; aiokafka validates the keyword combination here.
    admin = AIOKafkaAdminClient(bootstrap_servers="127.0.0.1:1", **aiokafka_client_options(settings))
    producer = AIOKafkaProducer(bootstrap_servers="127.0.0.1:1", **aiokafka_client_options(settings))
    assert producer.client._security_protocol == "SASL_SSL"  # noqa: SLF001
    assert producer.client._sasl_mechanism == "SCRAM-SHA-256"  # noqa: SLF001
    await admin.close()


def test_unreadable_tls_or_password_files_are_configuration_errors(tmp_path: Path, password_file: Path) -> None:
    bad = tmp_path / "ca.pem"
    bad.write_text("not a certificate")
    settings = WorkerSettings(kafka_security_protocol="SSL", kafka_ssl_cafile=bad)
    with pytest.raises(ConfigurationError, match="DEID_KAFKA_SSL_"):
        faust_broker_options(settings)
    settings = WorkerSettings(
        kafka_security_protocol="SASL_PLAINTEXT", kafka_sasl_mechanism="PLAIN", kafka_sasl_username="u",
        kafka_sasl_password_file=password_file,
    )  # fmt: skip
    password_file.write_text("")
    with pytest.raises(ConfigurationError, match="DEID_KAFKA_SASL_PASSWORD_FILE"):
        aiokafka_client_options(settings)
