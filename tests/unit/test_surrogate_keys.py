from __future__ import annotations

import logging
from pathlib import Path

import pytest

from deid_core.surrogate.keys import HmacKey, development_key, load_secret, mapping_key

SECRET = b"unit-test-secret-abcdefghijklmnop"


def test_repr_hides_the_secret() -> None:
    key = HmacKey(SECRET, "v7")
    assert "unit-test" not in repr(key) and "unit-test" not in str(key)
    assert "v7" in repr(key)


def test_mapping_key_is_deterministic_hmac_sha256() -> None:
    key = HmacKey(SECRET, "v1")
    a = mapping_key(key, "patient:1", "name-last", "smith")
    assert a == mapping_key(key, "patient:1", "name-last", "smith")
    assert len(a) == 32
    assert b"smith" not in a


@pytest.mark.parametrize(
    "other",
    [
        (HmacKey(SECRET, "v1"), "patient:2", "name-last", "smith"),
        (HmacKey(SECRET, "v1"), "patient:1", "name-first", "smith"),
        (HmacKey(SECRET, "v1"), "patient:1", "name-last", "smiths"),
        (HmacKey(SECRET, "v2"), "patient:1", "name-last", "smith"),
        (HmacKey(SECRET + b"!", "v1"), "patient:1", "name-last", "smith"),
        # length-prefixing: moving characters between fields changes the key
        (HmacKey(SECRET, "v1"), "patient:1name-", "last", "smith"),
    ],
)
def test_every_input_changes_the_key(other: tuple[HmacKey, str, str, str]) -> None:
    base = mapping_key(HmacKey(SECRET, "v1"), "patient:1", "name-last", "smith")
    assert mapping_key(*other) != base


def test_invalid_keys_are_refused() -> None:
    with pytest.raises(ValueError):
        HmacKey(b"", "v1")
    with pytest.raises(ValueError):
        HmacKey(SECRET, "v:1")


def test_load_secret_from_file(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    path.write_bytes(SECRET + b"\n")
    key = load_secret(path)
    assert key == HmacKey(SECRET, "v1")
    path.write_bytes(b"v3:" + SECRET)
    assert load_secret(str(path)) == HmacKey(SECRET, "v3")


def test_load_secret_refuses_short_secrets(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    path.write_bytes(b"short")
    with pytest.raises(ValueError):
        load_secret(path)


def test_no_path_gives_labelled_development_key_and_warns(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="deid_core.surrogate.keys"):
        key = load_secret(None)
    assert key == development_key() and key.is_development
    assert key.version == "dev"
    assert any("DEVELOPMENT" in r.getMessage() for r in caplog.records)
    assert all(key.secret.decode() not in r.getMessage() for r in caplog.records)
