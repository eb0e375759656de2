"""The web server's database through its migrations (``red7 db upgrade``), on SQLite and
on PostgreSQL (started by the tests: tests.support.local_services): an empty database, and one
written by the previous release (schema 0001, which kept only final decisions and no
table versions) holding a game in progress, which the server then plays on to its end.
And the server's operations endpoints, logs and environment settings.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command

from red7.core.cards import CardSet
from red7.core.game import Game
from red7.core.model import Config
from red7.core.seeds import LEGACY_DEAL
from red7.web.storage.store import Store, alembic_config
from red7.web.storage.stored import token_hash
from tests.support import local_services as services
from tests.support.web_client import HEAD
from tests.support.web_live import Client, play, settle
from tests.support.web_server import WebServer, red7_command

TOKEN = "a-token-of-the-previous-release"


def database(kind: str, postgres: services.Postgres | None, folder: Path) -> str:
    if kind == "postgresql":
        assert postgres is not None
        return postgres.create_database()
    return f"sqlite:///{folder / 'old.sqlite3'}"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def pg(kind: str, request: pytest.FixtureRequest) -> services.Postgres | None:
    """The session's PostgreSQL, only for the PostgreSQL cases (SQLite needs none)."""
    return request.getfixturevalue("postgres") if kind == "postgresql" else None  # type: ignore[no-any-return]


def red7_db(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*red7_command(), "db", *args], capture_output=True, text=True, timeout=60)


def table_at_0004(store: Store, table_id: str, *, advanced: bool = False, seats: Sequence[dict[str, Any]] = ()) -> None:
    """Brings ``store``'s empty database to migration 0004 and writes one open 2-player
    table there as that release did (no clock, name, privacy or hints yet), with ``seats``
    (rows of the ``seats`` table without ``table_id``) if any."""
    with store.engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0004")
        meta = sa.MetaData()
        tables, seat_rows = (sa.Table(name, meta, autoload_with=connection) for name in ("tables", "seats"))
        connection.execute(
            tables.insert().values(
                id=table_id,
                created=datetime.now(UTC),
                players=2,
                advanced=advanced,
                actions=False,
                lang="en",
                status="open",
                version=3,
            )
        )
        if seats:
            connection.execute(seat_rows.insert(), [{"table_id": table_id, **seat} for seat in seats])


@pytest.mark.slow
def test_an_empty_database_is_upgraded_once(kind: str, pg: services.Postgres | None, tmp_path: Path) -> None:
    url = database(kind, pg, tmp_path)
    assert red7_db("current", "--database-url", url).stdout.strip().endswith("none (empty)")
    first = red7_db("upgrade", "--database-url", url)
    assert first.returncode == 0, first.stderr
    assert f"upgraded from an empty database to migration {HEAD}" in first.stdout
    again = red7_db("upgrade", "--database-url", url)
    assert f"already at migration {HEAD}" in again.stdout
    store = Store(url)
    assert store.revision() == HEAD and store.tables() == []
    store.close()


def test_a_bad_database_url_is_one_line(tmp_path: Path) -> None:
    result = red7_db("upgrade", "--database-url", "postgresql://nobody@127.0.0.1:1/none")
    assert result.returncode == 2
    assert result.stderr.startswith("red7: error: cannot use the database") and len(result.stderr.splitlines()) == 1


def write_previous_release(url: str) -> tuple[Game, int]:
    """A database at schema 0001 as that release wrote it: a 2-player table (a person
    in seat 0 with :data:`TOKEN`, an easy bot in seat 1) with a game 6 decisions in.
    The game itself (dealt, as every game of that release, by CPython's random.Random),
    and the number of decisions written."""
    store = Store(url)
    with store.engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0001")
    config = Config(2)
    game = Game(config=config, seed=77, deal=LEGACY_DEAL)
    rng = random.Random(77)
    while game.decisions < 6:
        game.apply(rng.choice([o.action for o in game.options() if o.safe] or ["concede"]))
    now = datetime.now(UTC)
    meta = sa.MetaData()
    with store.engine.begin() as connection:
        tables, seats, games, decisions = (
            sa.Table(name, meta, autoload_with=connection) for name in ("tables", "seats", "games", "decisions")
        )
        connection.execute(
            tables.insert().values(
                id="old1", created=now, players=2, advanced=False, actions=False, lang="pt-BR", status="playing"
            )
        )
        connection.execute(
            seats.insert(),
            [
                {"table_id": "old1", "seat": 0, "name": "Ana", "token_hash": token_hash(TOKEN), "bot": None},
                {"table_id": "old1", "seat": 1, "name": "", "token_hash": None, "bot": "easy"},
            ],
        )
        connection.execute(
            games.insert().values(
                id=1, table_id="old1", number=1, config=config.as_dict(), seed=77, result=None, created=now
            )
        )
        connection.execute(
            decisions.insert(),
            [
                {"game_id": 1, "seq": seq, "seat": seat, "action": str(action), "at": now}
                for seq, (seat, action) in enumerate(game.history)
            ],
        )
    assert store.revision() == "0001"
    store.close()
    return game, len(game.history)


@pytest.mark.slow
def test_a_database_of_the_previous_release_plays_on(kind: str, pg: services.Postgres | None, tmp_path: Path) -> None:
    url = database(kind, pg, tmp_path)
    game, written = write_previous_release(url)
    upgraded = red7_db("upgrade", "--database-url", url)
    assert f"upgraded from 0001 to migration {HEAD}" in upgraded.stdout, upgraded.stderr
    stored = Store(url).table("old1")
    assert stored is not None and stored.version == 0 and stored.game is not None
    assert stored.game.committed == written  # every decision that release kept was final
    assert stored.game.deal == LEGACY_DEAL  # and it resumes with the cards it was dealt
    with WebServer(tmp_path / "server", bot_delay=0, database_url=url) as server:
        person = Client(server, "old1", TOKEN, 0)
        spectator = Client(server, "old1", None, None)
        first = person.first()
        spectator.first()
        assert first["seq"] == written and first["table"]["lang"] == "pt-BR"
        assert {card["id"] for card in first["game"]["hand"]} == {str(c) for c in CardSet(game.observe(0).hand or 0)}
        play([person, spectator], random.Random(1))
        settle([person, spectator])
        assert person.errors == [] and person.last is not None and person.last["game"]["over"]
        record = httpx.get(f"{server.url}/api/tables/old1/games/1/record", trust_env=False).json()
        assert record["decisions"][:written] == [str(action) for _seat, action in game.history]
        assert (record["version"], record["deal"]) == (2, LEGACY_DEAL)
        person.close()
        spectator.close()


@pytest.mark.slow
def test_operations_endpoints_logs_and_environment(tmp_path: Path) -> None:
    """Readiness and metrics answer; RED7_* variables configure the server; JSON logs
    carry no seat token."""
    server = WebServer(tmp_path, bot_delay=0, env={"RED7_LOG_FORMAT": "json"})
    with server:
        ready = httpx.get(f"{server.url}/readyz", trust_env=False)
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
        created = httpx.post(f"{server.url}/api/tables", json={"name": "Ana"}, trust_env=False).json()
        httpx.post(
            f"{server.url}/api/tables/{created['id']}/bots",
            json={"token": created["token"], "seat": 1, "level": "easy"},
            trust_env=False,
        )
        person = Client(server, created["id"], created["token"], 0)
        person.first()
        httpx.post(f"{server.url}/api/tables/{created['id']}/start", json={"token": created["token"]}, trust_env=False)
        play([person], random.Random(2))
        person.close()
        metrics = httpx.get(f"{server.url}/metrics", trust_env=False).text
        for name in (
            "red7_decisions_total",
            "red7_round_trip_seconds_bucket",
            "red7_open_tables",
            "red7_connected_clients",
        ):
            assert f"\n{name}" in metrics, name
    lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
    assert any(line["message"].startswith("red7 serve:") and line["bus"] == "none" for line in lines), lines
    assert created["token"] not in server.log()


def test_migration_0005_gives_every_table_no_clock_and_no_proposal(
    kind: str, pg: services.Postgres | None, tmp_path: Path
) -> None:
    """A database at 0004 with a table in it: after 0005 the table has no clock,
    no deadline and no rematch proposed (today's behaviour), and a new one keeps its own."""
    url = database(kind, pg, tmp_path)
    store = Store(url)
    table_at_0004(store, "t4")
    store.upgrade()
    assert store.revision() == HEAD
    old = store.table("t4")
    assert old is not None and (old.clock, old.deadline, old.agreed, old.declined) == (0, None, None, None)
    new = store.create_table("t5", 2, False, False, "en", 86_400)
    assert new.clock == 86_400
    stored = store.table("t5")
    assert stored is not None and stored.clock == 86_400
    store.close()


def test_tables_of_migration_0004_are_public_and_named_by_their_settings(
    kind: str, pg: services.Postgres | None, tmp_path: Path
) -> None:
    """Migration 0008 (tables) gives the tables written before it no name and makes them
    public: an open one stays in the lobby, its seat token opens its seat."""
    url = database(kind, pg, tmp_path)
    store = Store(url)
    table_at_0004(
        store,
        "open4",
        advanced=True,
        seats=[
            {"seat": 0, "name": "Ana", "token_hash": token_hash(TOKEN), "bot": None},
            {"seat": 1, "name": "", "token_hash": None, "bot": None},
        ],
    )
    store.close()
    upgraded = red7_db("upgrade", "--database-url", url)
    assert f"upgraded from 0004 to migration {HEAD}" in upgraded.stdout, upgraded.stderr
    store = Store(url)
    stored = store.table("open4")
    store.close()
    assert stored is not None and stored.version == 3
    assert (stored.name, stored.private, stored.invite_hash) == ("", False, None)
    with WebServer(tmp_path / "server", bot_delay=0, database_url=url) as server:
        listed = httpx.get(f"{server.url}/api/tables", trust_env=False).json()["tables"]
        assert [(row["id"], row["name"], row["seats"]) for row in listed] == [("open4", "", ["Ana", None])]
        person = Client(server, "open4", TOKEN, 0)
        first = person.first()
        assert first["you"] == 0 and first["table"]["private"] is False and first["table"]["name"] == ""
        person.close()


def test_tables_made_before_the_hints_option_allow_hints(tmp_path: Path) -> None:
    """Migration 0009 (board) from 0004 with a table in it: the table keeps its game and
    allows hints (as every table did before the option); a table made after may not."""
    url = f"sqlite:///{tmp_path / 'hints.sqlite3'}"
    store = Store(url)
    table_at_0004(store, "old4")
    upgraded = red7_db("upgrade", "--database-url", url)
    assert f"upgraded from 0004 to migration {HEAD}" in upgraded.stdout, upgraded.stderr
    old = store.table("old4")
    assert old is not None and old.hints and old.version == 3
    new = store.create_table("new5", 2, False, False, "en", hints=False)
    assert not new.hints
    again = store.table("new5")
    assert again is not None and not again.hints
    store.close()


def test_the_migrations_build_the_schema_the_models_describe(
    kind: str, pg: services.Postgres | None, tmp_path: Path
) -> None:
    """Every table, column, key and index of the models (every module of the server that
    holds some: importing the app imports them) is what the migrations make, and nothing
    more: a model changed without its migration, or the reverse, fails here."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    import red7.web.server  # noqa: F401  (the app's modules, each model with them)
    from red7.web.storage.rows import Base

    store = Store(database(kind, pg, tmp_path))
    store.upgrade()
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, Base.metadata)
    store.close()
    assert differences == []


@pytest.mark.slow
def test_migration_0013_seats_the_removed_expert_level_as_hard(tmp_path: Path) -> None:
    """A table stored at 0010 with an ``expert`` bot (a level since removed): after 0013
    the seat's bot is ``hard``, the other seats are as they were, the server lists the
    table and its person's seat opens (nothing refuses the stored level); the downgrade
    to 0010 runs and keeps ``hard``."""
    url = f"sqlite:///{tmp_path / 'expert.sqlite3'}"
    store = Store(url)
    with store.engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0010")
        meta = sa.MetaData()
        tables, seats = (sa.Table(name, meta, autoload_with=connection) for name in ("tables", "seats"))
        connection.execute(
            tables.insert().values(
                id="old10",
                created=datetime.now(UTC),
                players=3,
                advanced=False,
                actions=False,
                lang="en",
                status="open",
                version=2,
            )
        )
        connection.execute(
            seats.insert(),
            [
                {"table_id": "old10", "seat": 0, "name": "Ana", "token_hash": token_hash(TOKEN), "bot": None},
                {"table_id": "old10", "seat": 1, "name": "", "token_hash": None, "bot": "expert"},
                {"table_id": "old10", "seat": 2, "name": "", "token_hash": None, "bot": "medium"},
            ],
        )
    store.close()
    upgraded = red7_db("upgrade", "--database-url", url)
    assert f"upgraded from 0010 to migration {HEAD}" in upgraded.stdout, upgraded.stderr
    store = Store(url)
    stored = store.table("old10")
    store.close()
    assert stored is not None and [s.bot for s in stored.seats] == [None, "hard", "medium"]
    with WebServer(tmp_path / "server", bot_delay=0, database_url=url) as server:
        listed = httpx.get(f"{server.url}/api/tables", trust_env=False).json()["tables"]
        assert [row["id"] for row in listed] == ["old10"]
        person = Client(server, "old10", TOKEN, 0)
        first = person.first()
        assert first["you"] == 0
        person.close()
    store = Store(url)
    with store.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0010")
    assert store.revision() == "0010"
    with store.engine.connect() as connection:  # (read as 0010 has it: this release's seats have more columns)
        bots = connection.execute(sa.text("SELECT bot FROM seats WHERE table_id = 'old10' ORDER BY seat")).scalars()
        assert list(bots) == [None, "hard", "medium"]
    store.close()
