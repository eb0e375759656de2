"""A database's identity (:mod:`red7.web.storage.identity`), which names what a club's
processes share on Redis: the same for every process of one database, however its URL is
written; another for a second club; and another for a copy of the database (a SQLite
backup restored, a file copied, a PostgreSQL dump restored), even while the original runs.
The clubs on one Redis are tests/web/services/test_web_clubs_on_one_redis.py."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from red7.web.storage.backup import backup, restore
from red7.web.storage.identity import identity
from red7.web.storage.store import Store, libpq_address
from tests.support import local_services as services


def identity_of(url: str) -> str:
    store = Store(url)
    try:
        store.upgrade()
        return identity(store.engine)
    finally:
        store.close()


def test_a_sqlite_database_and_its_copies_are_three_clubs(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    first = identity_of(url)
    assert len(first) == 24 and identity_of(url) == first  # the same database: the same club
    assert identity_of(f"sqlite:///{tmp_path}/./club.sqlite3") == first  # however its path is written
    assert identity_of(f"sqlite:///{tmp_path / 'other.sqlite3'}") != first  # another club
    backup(url, tmp_path / "backup.sqlite3")
    restored = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    restore(tmp_path / "backup.sqlite3", restored)
    copied = tmp_path / "copied.sqlite3"  # a copy by hand (the server stopped): another file
    shutil.copyfile(tmp_path / "club.sqlite3", copied)
    found = {first, identity_of(restored), identity_of(f"sqlite:///{copied}")}
    assert len(found) == 3
    assert identity_of(url) == first  # the original is still itself


@pytest.mark.services
def test_a_postgresql_database_and_its_restored_dump_are_two_clubs(postgres: services.Postgres, tmp_path: Path) -> None:
    url = postgres.create_database()
    first = identity_of(url)
    # the same database by another address and driver's name: the same club
    assert identity_of(libpq_address(url).replace("127.0.0.1", "localhost")) == first
    dump = tmp_path / "club.dump"
    subprocess.run([str(postgres.bin / "pg_dump"), "--format=custom", f"--file={dump}", libpq_address(url)], check=True)
    copy = postgres.create_database()
    subprocess.run(
        [str(postgres.bin / "pg_restore"), "--no-owner", "--exit-on-error", "-d", libpq_address(copy), str(dump)],
        check=True,
    )
    assert identity_of(copy) != first
    assert identity_of(url) == first
