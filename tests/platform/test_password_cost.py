"""Passwords are hashed at argon2-cffi's own cost unless ``TABLETOP_INSECURE_FAST_HASHES``
is 1 (the test suite's setting, conftest.py), and a server started with it says so."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
from argon2 import PasswordHasher

from account_support import PASSWORD

from server_support import ServerProcess

HASH_OF_A_NEW_PROCESS = (
    "from tabletop.server import accounts; print(accounts._hasher.hash('a long password'))"
)


def _hash_in_a_process(fast: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_INSECURE_FAST_HASHES"}
    if fast is not None:
        env["TABLETOP_INSECURE_FAST_HASHES"] = fast
    done = subprocess.run(
        [sys.executable, "-c", HASH_OF_A_NEW_PROCESS], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _parameters(hashed: str) -> str:
    """'m=65536,t=3,p=4' of '$argon2id$v=19$m=65536,t=3,p=4$salt$hash'."""
    return hashed.split("$")[3]


def test_without_the_setting_passwords_get_argon2_cffis_own_cost() -> None:
    own = PasswordHasher()
    expected = f"m={own.memory_cost},t={own.time_cost},p={own.parallelism}"
    assert _parameters(_hash_in_a_process(None)) == expected
    assert _parameters(_hash_in_a_process("yes")) == expected  # only "1" turns it on
    assert _parameters(_hash_in_a_process("1")) == "m=8,t=1,p=1"


def test_a_server_with_the_setting_says_so_and_its_hashes_are_cheap(tmp_path: Path) -> None:
    assert os.environ["TABLETOP_INSECURE_FAST_HASHES"] == "1"  # conftest's, inherited
    server = ServerProcess(tmp_path / "games.db", log=tmp_path / "server.log").start()
    try:
        made = httpx.post(
            f"{server.url}/api/account/register",
            json={"name": "Ann", "password": PASSWORD},
            timeout=60,
        )
        assert made.status_code == 201, made.text
        row = server.query_one("SELECT password_hash FROM accounts WHERE name = ?", "Ann")
    finally:
        server.stop()
    assert "passwords hashed at the lowest cost (tests only)" in server.log.read_text()
    assert row is not None and _parameters(row[0]) == "m=8,t=1,p=1"
