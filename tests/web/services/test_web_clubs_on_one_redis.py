"""Two clubs on one Redis hear only themselves: a club and a restored copy of its database
started beside it (as docs/deploying.md restores one), each club two processes, on two
database numbers of one Redis (Redis's pub/sub channels are global: the number parts the
keys only), or with no Redis, on PostgreSQL's LISTEN/NOTIFY (per database). A change of a
table in the original must not reach the copy's processes, whose copy of that table would
take it for its own (the issue's restored copy heard 104 changes of the live club)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from red7.web.storage.store import libpq_address
from tests.support import local_services as services
from tests.support.web_live import post, until
from tests.support.web_server import WebServer
from tests.web.services.test_web_cluster import metric

pytestmark = pytest.mark.services


def seats(server: WebServer, table_id: str) -> list[str | None]:
    lobby = httpx.get(f"{server.url}/api/tables", trust_env=False, timeout=60).json()
    return next((list(row["seats"]) for row in lobby["tables"] if row["id"] == table_id), [])


def copy_of(postgres: services.Postgres, url: str, folder: Path) -> str:
    """A new database restored from a dump of ``url``'s, taken while its servers run."""
    dump = folder / "club.dump"
    subprocess.run([str(postgres.bin / "pg_dump"), "--format=custom", f"--file={dump}", libpq_address(url)], check=True)
    copy = postgres.create_database()
    subprocess.run(
        [str(postgres.bin / "pg_restore"), "--no-owner", "--exit-on-error", "-d", libpq_address(copy), str(dump)],
        check=True,
    )
    return copy


@pytest.fixture(params=["redis", "postgres"])
def bus(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """The Redis both clubs share (None: none, PostgreSQL's LISTEN/NOTIFY)."""
    if request.param == "postgres":
        yield None
    else:
        yield request.getfixturevalue("redis_url")


def test_a_restored_copy_beside_its_club_hears_only_itself(
    postgres: services.Postgres, bus: str | None, tmp_path: Path
) -> None:
    original = postgres.create_database()
    redis = {"redis_url": bus.removesuffix("/0") + "/0"} if bus else {}
    with (
        WebServer(tmp_path / "a1", bot_delay=0, database_url=original, **redis) as a1,
        WebServer(tmp_path / "a2", bot_delay=0, database_url=original, **redis) as a2,
    ):
        table = post(a1, "/api/tables", {"players": 3, "name": "Ana"})["id"]  # people only: nothing moves alone
        until(lambda: seats(a2, table) == ["Ana", None, None])
        copy = copy_of(postgres, original, tmp_path)
        redis = {"redis_url": bus.removesuffix("/0") + "/1"} if bus else {}  # another database number
        with (
            WebServer(tmp_path / "b1", bot_delay=0, database_url=copy, **redis) as b1,
            WebServer(tmp_path / "b2", bot_delay=0, database_url=copy, **redis) as b2,
        ):
            assert seats(b2, table) == ["Ana", None, None]  # the copy has the table too
            heard = {server: metric(server, "red7_changes_heard_total") for server in (a2, b2)}
            post(a1, f"/api/tables/{table}/seats/1", {"name": "Bia"})  # a change in the club...
            until(lambda: seats(a2, table) == ["Ana", "Bia", None])
            assert metric(a2, "red7_changes_heard_total") == heard[a2] + 1  # ...heard by its other process
            # then one in the copy (Redis sends each subscriber its messages in the order
            # they were published: had b2 heard the club's change, it would have come first)
            post(b1, f"/api/tables/{table}/seats/1", {"name": "Cid"})
            until(lambda: metric(b2, "red7_changes_heard_total") > heard[b2])
            assert metric(b2, "red7_changes_heard_total") == heard[b2] + 1
            assert seats(b2, table) == ["Ana", "Cid", None]
            assert seats(a1, table) == ["Ana", "Bia", None] == seats(a2, table)
