"""The club's features across two ``red7 serve`` processes sharing one PostgreSQL database
and one Redis (started by the tests on loopback: tests.support.local_services), as
tests/web/services/test_web_cluster.py does for the game itself.

What must hold: a rated game moves its players' ratings exactly once, even when the
process rating it is killed inside the rating's transaction (the other one rates it at
its next look) and when both processes rate it at once; a finished game's review is
worked out once, by one process, and served by the other from the database, and a
review whose process died before keeping it is worked out again on request by the
other; a hint asked through one process for a game played through the other is the
mover's, and refused to every other seat and to spectators; a person's turn whose clock
runs out is played once by a substitute, whether its process is down then (the other
plays it, and the first, back, does not play it again) or both processes see it run out.

The clocks are real: the shortest a table may have is a minute a turn, and a real
process reads the real time, so those tests wait the minute out (on a condition, with a
deadline well past it).

Nothing here waits on a timer to line a kill up with the code: a test holds a
PostgreSQL lock the rating's transaction must wait for, sees (in ``pg_locks``) the
process's connection waiting on it, and only then kills the process. Each server's
connections are named by libpq's ``PGAPPNAME`` (``red7-a``, ``red7-b``), which tells
whose connection waits.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import Engine

from red7.analysis.rating import Skill, rated
from red7.core.record import replay
from red7.play.match import ranks_of
from red7.web.ratings.eligibility import Placing, finished_turns, played
from tests.support import local_services as services
from tests.support.web_live import Client, Frame, new_game, play, position, post, settle, until, waiting_for
from tests.support.web_server import WebServer

pytestmark = pytest.mark.services

PASSWORD = "correct horse battery"
LOOK = 1.0
"""The servers' ``--rate-look`` here: a game a dead process left unrated waits a second."""
PATIENT = 300.0
"""Seconds a condition may take to come on this busy machine (a deadline, never a pace)."""


@dataclass
class Cluster:
    """Two servers on one database, and a connection of the test's own to it."""

    a: WebServer
    b: WebServer
    database: Engine

    def name_of(self, server: WebServer) -> str:
        return "red7-a" if server is self.a else "red7-b"

    def server(self, name: str) -> WebServer:
        return self.a if name == "red7-a" else self.b


@pytest.fixture
def cluster(postgres: services.Postgres, redis_url: str, tmp_path: Path) -> Iterator[Cluster]:
    """A and B on a fresh PostgreSQL database and the session's Redis, looking for unrated
    games every :data:`LOOK` seconds."""
    url = postgres.create_database()
    options = ["--rate-look", str(LOOK)]
    engine = create_engine(url, pool_size=2)
    with (
        WebServer(
            tmp_path / "a",
            bot_delay=0,
            database_url=url,
            redis_url=redis_url,
            options=options,
            env={"PGAPPNAME": "red7-a"},
        ) as a,
        WebServer(
            tmp_path / "b",
            bot_delay=0,
            database_url=url,
            redis_url=redis_url,
            options=options,
            env={"PGAPPNAME": "red7-b"},
        ) as b,
    ):
        yield Cluster(a, b, engine)
    engine.dispose()


def metric(server: WebServer, name: str) -> float:
    """A counter of ``server``'s /metrics (0 if not there yet)."""
    page = httpx.get(f"{server.url}/metrics", trust_env=False, timeout=60).text
    found = re.search(rf"^{re.escape(name)} (\S+)$", page, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def person(server: WebServer, username: str) -> httpx.Client:
    """A registered person's browser (its session cookie) on ``server``."""
    browser = httpx.Client(base_url=server.url, trust_env=False, timeout=60)
    r = browser.post("/api/account/register", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return browser


@dataclass
class RatedTable:
    id: str
    tokens: dict[int, str]
    identities: list[str]
    """Who each seat is to the ratings (``account:<id>``, ``bot:easy``)."""


def rated_table(cluster: Cluster) -> RatedTable:
    """A rated table of three seats made through A: Ana and Bia (registered), the easy bot;
    each person's rating and the bot's set beforehand to skills of the test's choosing."""
    ana, bia = person(cluster.a, "ana"), person(cluster.a, "bia")
    settings = {"players": 3, "advanced": False, "actions": False, "name": "ana", "rated": True}
    r = ana.post("/api/tables", json=settings)
    assert r.status_code == 200, r.text
    table, tokens = r.json()["id"], {0: r.json()["token"]}
    r = bia.post(f"/api/tables/{table}/seats/1", json={"name": "bia"})
    assert r.status_code == 200, r.text
    tokens[1] = r.json()["token"]
    r = ana.post(f"/api/tables/{table}/bots", json={"token": tokens[0], "seat": 2, "level": "easy"})
    assert r.status_code == 200, r.text
    ana.close()
    bia.close()
    with cluster.database.begin() as connection:
        ids: dict[str, int] = {name: id_ for name, id_ in connection.execute(text("SELECT username, id FROM accounts"))}
        identities = [f"account:{ids['ana']}", f"account:{ids['bia']}", "bot:easy"]
        for n, who in enumerate(identities):  # ratings of players with rated games behind them
            kind = "bot" if who.startswith("bot:") else "person"
            connection.execute(
                text(
                    "INSERT INTO ratings (identity, name, kind, mu, sigma, games, updated)"
                    " VALUES (:who, :name, :kind, :mu, :sigma, 5, now())"
                ),
                {"who": who, "name": who, "kind": kind, "mu": 22.0 + 3 * n, "sigma": 6.0 - n},
            )
    return RatedTable(table, tokens, identities)


def skills(database: Engine) -> dict[str, tuple[float, float, int]]:
    with database.connect() as connection:
        rows = connection.execute(text("SELECT identity, mu, sigma, games FROM ratings")).all()
    return {row.identity: (row.mu, row.sigma, row.games) for row in rows}


def claims(database: Engine) -> list[int]:
    with database.connect() as connection:
        return list(connection.execute(text("SELECT game_id FROM rated_games")).scalars())


@contextlib.contextmanager
def locked(database: Engine, table: str) -> Iterator[Connection]:
    """``table`` locked by the test (``EXCLUSIVE``: reads go on, every write waits; for
    ``ratings``, a rating's transaction waits at its first write to it, after its claim)
    until the block ends."""
    assert table in ("ratings", "reviews")
    with database.connect() as connection:
        connection.execute(text(f"LOCK TABLE {table} IN EXCLUSIVE MODE"))
        try:
            yield connection
        finally:
            connection.rollback()


def waiting(database: Engine) -> dict[str, set[str]]:
    """The servers' connections waiting for a lock: per application name, the kinds
    (``ratings``: the ratings table, the test's lock; ``transactionid``: another
    transaction's row, e.g. a claim not yet committed)."""
    query = text(
        "SELECT a.application_name AS who, COALESCE(l.relation::regclass::text, l.locktype) AS what"
        " FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
        " WHERE NOT l.granted AND a.datname = current_database()"
    )
    found: dict[str, set[str]] = {}
    with database.connect() as connection:
        for who, what in connection.execute(query).all():
            found.setdefault(who, set()).add(what)
    return found


def play_to_the_end(server: WebServer, table: RatedTable, seed: int) -> dict[str, Any]:
    """Ana and Bia connect to ``server``, Ana (the host) starts, they play to the game's end; its record."""
    clients = [Client(server, table.id, token, seat) for seat, token in table.tokens.items()]
    for c in clients:
        c.first()
    r = httpx.post(
        f"{server.url}/api/tables/{table.id}/start", json={"token": table.tokens[0]}, trust_env=False, timeout=60
    )
    assert r.status_code == 200, r.text
    play(clients, random.Random(seed))
    settle(clients)
    for c in clients:
        assert c.errors == [] and c.last is not None and c.last["game"]["over"]
        c.close()
    r = httpx.get(f"{server.url}/api/tables/{table.id}/games/1/record", trust_env=False, timeout=60)
    assert r.status_code == 200, r.text
    record: dict[str, Any] = r.json()
    assert record["result"] is not None
    return record


def moved_once(
    database: Engine, before: dict[str, tuple[float, float, int]], table: RatedTable, record: dict[str, Any]
) -> None:
    """The skills now are one openskill update of ``before`` by the game's places, each
    with one game more (of the players the game rates: those who finished a turn)."""
    game = replay(record)
    everyone = [
        Placing(who, who, rank, turns)
        for who, rank, turns in zip(table.identities, ranks_of(game), finished_turns(game), strict=True)
    ]
    rating = played(everyone)
    assert len(rating) >= 2, "a deal that rates nobody: the test must play another"
    expected = {
        p.identity: skill
        for p, skill in zip(
            rating, rated([Skill(*before[p.identity][:2]) for p in rating], [p.rank for p in rating]), strict=True
        )
    }
    after = skills(database)
    for who in table.identities:
        mu, sigma, games = after[who]
        skill = expected.get(who, Skill(*before[who][:2]))
        assert (mu, sigma) == pytest.approx((skill.mu, skill.sigma), rel=1e-9), (who, after)
        assert games == before[who][2] + (who in expected)


def test_a_process_killed_inside_the_rating_leaves_it_to_the_other_which_rates_once(cluster: Cluster) -> None:
    """A rated game played to its end through A; A's rating transaction (its claim
    inserted, not committed) waits for the test's lock on the ratings; A is killed with
    SIGKILL there. B's look rates the game: one claim, each skill one update, one game
    more; A, restarted, rates nothing again."""
    table = rated_table(cluster)
    before = skills(cluster.database)
    with locked(cluster.database, "ratings"):
        record = play_to_the_end(cluster.a, table, seed=35)
        # the rater is whoever wrote the game's end (A, but for a bot's last move taken
        # over by B on a very slow machine): its connection waits inside the rating
        until(lambda: any("ratings" in kinds for kinds in waiting(cluster.database).values()), timeout=PATIENT)
        rater_name = next(who for who, kinds in waiting(cluster.database).items() if "ratings" in kinds)
        rater = cluster.server(rater_name)
        other = cluster.b if rater is cluster.a else cluster.a
        assert claims(cluster.database) == []  # its claim is not committed: nobody sees it
        rater.kill()
    # the lock released: the dead process's transaction ends unwritten, the other rates
    until(lambda: len(claims(cluster.database)) == 1, timeout=PATIENT)
    until(lambda: metric(other, "red7_games_rated_total") == 1, timeout=PATIENT)
    moved_once(cluster.database, before, table, record)
    rater.start()
    until(lambda: httpx.get(f"{rater.url}/api/leaderboard", trust_env=False, timeout=60).json()["total"] == 3)
    # (the restarted process looked for unrated games as it started: there was none)
    until(lambda: waiting(cluster.database) == {}, timeout=PATIENT)
    assert len(claims(cluster.database)) == 1
    moved_once(cluster.database, before, table, record)
    assert metric(rater, "red7_games_rated_total") == 0


def test_two_live_processes_rating_one_game_at_once_rate_it_once(cluster: Cluster) -> None:
    """The game's end written by A, which rates it; B's look finds it unrated at the same
    time (A's claim is not committed yet) and rates it too: both wait on the test's lock,
    then the database lets one claim in, and the skills move once."""
    table = rated_table(cluster)
    before = skills(cluster.database)
    with locked(cluster.database, "ratings"):
        record = play_to_the_end(cluster.a, table, seed=36)

        def both_rating() -> bool:
            found = waiting(cluster.database)
            return set(found) == {"red7-a", "red7-b"} and any("ratings" in kinds for kinds in found.values())

        until(both_rating, timeout=PATIENT)
    until(lambda: len(claims(cluster.database)) == 1, timeout=PATIENT)
    until(lambda: waiting(cluster.database) == {}, timeout=PATIENT)
    rated_by = [metric(server, "red7_games_rated_total") for server in (cluster.a, cluster.b)]
    assert sorted(rated_by) == [0, 1]
    moved_once(cluster.database, before, table, record)


def review(server: WebServer, table: str) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/tables/{table}/games/1/review", trust_env=False, timeout=60)
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def reviewed(server: WebServer, table: str) -> dict[str, Any]:
    """The review of the table's first game through ``server``, asked (as the page does)
    until it is done."""
    answers: list[dict[str, Any]] = []

    def finished() -> bool:
        answers.append(review(server, table))
        return bool(answers[-1]["status"] != "working")

    until(finished, timeout=PATIENT)
    assert answers[-1]["status"] == "done", answers[-1]
    return answers[-1]


def finished_game(server: WebServer, seed: int) -> str:
    """A 2-player basic game of two people played to its end through ``server``; its table."""
    game = new_game(server, 2, False, False, people=2, level="easy")
    play(game.clients, random.Random(seed))
    settle(game.clients)
    assert all(c.errors == [] and c.last is not None and c.last["game"]["over"] for c in game.clients)
    game.close()
    return game.id


def kept_reviews(database: Engine) -> int:
    with database.connect() as connection:
        return int(connection.execute(text("SELECT count(DISTINCT game_id) FROM reviews")).scalar_one())


def test_a_review_worked_out_by_one_process_is_served_by_the_other_from_the_database(cluster: Cluster) -> None:
    a, b = cluster.a, cluster.b
    table = finished_game(a, seed=1)
    done = reviewed(a, table)
    assert done["text"] and kept_reviews(cluster.database) == 1
    assert review(b, table) == done  # at the first asking: nothing to work out
    assert metric(a, "red7_reviews_worked_out_total") == 1
    assert metric(b, "red7_reviews_worked_out_total") == 0
    assert kept_reviews(cluster.database) == 1


def test_a_review_whose_process_died_before_keeping_it_is_worked_out_by_the_other(cluster: Cluster) -> None:
    """A works the review out and waits, to keep it, for the test's lock on the reviews;
    A is killed there. Asked through B, the review is worked out there (nothing was
    kept) and kept once; A, restarted, serves B's."""
    a, b = cluster.a, cluster.b
    table = finished_game(a, seed=2)
    with locked(cluster.database, "reviews"):
        assert review(a, table)["status"] == "working"
        until(lambda: "reviews" in waiting(cluster.database).get("red7-a", set()), timeout=PATIENT)
        assert review(a, table)["status"] == "working"  # worked out, not kept: not done
        a.kill()
    assert kept_reviews(cluster.database) == 0
    done = reviewed(b, table)
    assert metric(b, "red7_reviews_worked_out_total") == 1
    assert kept_reviews(cluster.database) == 1
    a.start()
    assert review(a, table) == done
    assert metric(a, "red7_reviews_worked_out_total") == 0


def test_a_hint_through_either_process_is_the_movers_only(cluster: Cluster) -> None:
    """A table created and played through A; its mover's seat asks for a hint through a
    second connection on B: B answers that seat's hint (its decisions are the mover's
    options, at the mover's seq); the other seat and a spectator, on B, are refused."""
    a, b = cluster.a, cluster.b
    game = new_game(a, 2, False, False, people=2, level="easy")
    settle(game.clients)
    mover = waiting_for(game.clients)
    assert mover is not None and mover.last is not None and mover.token is not None
    other = next(c for c in game.clients if c.seat is not None and c is not mover)
    assert other.token is not None
    frame = mover.last
    twins = [Client(b, game.id, c.token, c.seat) for c in (mover, other)] + [Client(b, game.id, None, None)]
    mover_twin, other_twin, watcher = twins
    assert mover_twin.first()["seq"] == frame["seq"]
    for twin in (other_twin, watcher):
        twin.first()
    for twin in twins:
        assert twin.last is not None
        twin.send({"type": "hint", "seq": twin.last["seq"]})

    def answered(client: Client) -> bool:
        return any(f["type"] in ("hint", "error") for f in client.frames)

    for twin in twins:
        twin.until(answered, timeout=PATIENT)
    hint = next(f for f in mover_twin.frames if f["type"] in ("hint", "error"))
    assert hint["type"] == "hint", hint
    assert hint["seq"] == frame["seq"] and hint["text"]
    options = {o["action"] for o in frame["game"]["options"]}
    assert hint["decisions"] and hint["decisions"][0] in options
    refusals = [next(f for f in c.frames if f["type"] in ("hint", "error")) for c in (other_twin, watcher)]
    assert [f["type"] for f in refusals] == ["error", "error"], refusals
    assert [f["code"] for f in refusals] == ["not-your-turn", "spectator"], refusals
    assert not any(f["type"] == "hint" for c in (other_twin, watcher) for f in c.frames)
    # nothing was played by asking: every connection still sees the same position
    settle([*game.clients, *twins])
    assert mover.last["seq"] == frame["seq"]
    for twin in twins:
        twin.close()
    game.close()


TURN = 60
"""The table's clock in these tests: the shortest a table may have, seconds a turn."""


def clocked_table(where: dict[int | None, WebServer]) -> tuple[str, dict[int, str], list[Client]]:
    """A 2-player table of Ana and Bia with a one-minute clock, each person (and a
    spectator, seat None) connected through ``where[seat]``; started. The table's id,
    the seats' tokens and the clients (the spectator last)."""
    created = post(where[0], "/api/tables", {"players": 2, "name": "Ana", "clock": TURN})
    table, tokens = created["id"], {0: created["token"]}
    tokens[1] = post(where[1], f"/api/tables/{table}/seats/1", {"name": "Bia"})["token"]
    clients = [Client(where[seat], table, token, seat) for seat, token in tokens.items()]
    clients.append(Client(where[None], table, None, None))
    for c in clients:
        c.first()
    post(where[1], f"/api/tables/{table}/start", {"token": tokens[0]})  # (the host, through Bia's process)
    settle(clients)
    return table, tokens, clients


def turn_of(frame: Frame | None) -> int | None:
    """The seat whose clock runs in ``frame`` (None: none runs, e.g. a substitute playing)."""
    clock = None if frame is None else frame["clock"]
    return None if clock is None or clock["kind"] != "turn" else int(clock["seat"])


def history(database: Engine, table: str) -> list[tuple[int, str]]:
    """The first game's final decisions so far, as (seat, action), as the database holds
    them (the record is served once the game is over only)."""
    query = text(
        "SELECT d.seat, d.action FROM decisions d JOIN games g ON g.id = d.game_id"
        " WHERE g.table_id = :table AND g.number = 1 AND d.seq < g.committed ORDER BY d.seq"
    )
    with database.connect() as connection:
        return [(seat, action) for seat, action in connection.execute(query, {"table": table})]


def take_a_turn(client: Client) -> None:
    """``client``'s person (to move) plays a whole turn; every decision must be taken."""
    assert client.last is not None
    start = position(client.last)
    while position(client.last)[1] == start[1]:
        frame = client.last
        assert frame["game"]["options"] and len(frame["game"]["staged"]) < 5, frame
        options = frame["game"]["options"]
        safe = [o for o in options if o["safe"] and o["kind"] != "concede"]
        # a safe decision ending the turn, else a safe one staged (a play before a
        # discard), else whatever ends the turn (a concession, at the worst)
        chosen = next((o for o in safe if o["ends_turn"]), safe[0] if safe else None)
        chosen = chosen or next((o for o in options if o["ends_turn"]), None)
        chosen = chosen or next(o for o in options if o["kind"] == "concede")
        seq: int = frame["seq"]

        def answered(c: Client, seq: int = seq) -> bool:
            return c.errors != [] or (c.last is not None and c.last["seq"] > seq)

        client.send({"type": "decide", "seq": seq, "action": chosen["action"]})
        client.until(answered, timeout=PATIENT)
        assert client.errors == [], client.errors


def decisions_written(server: WebServer) -> float:
    return sum(metric(server, f'red7_decisions_total{{by="{by}"}}') for by in ("person", "bot"))


def test_a_turn_whose_clock_runs_out_while_its_process_is_down_is_played_once(cluster: Cluster) -> None:
    """Ana and Bia at a one-minute table, both through A, a spectator on B. The mover
    lets the clock run; A is killed. B sees the deadline pass and its substitute plays
    that one turn; A, restarted, shows the table where B left it and plays nothing
    again: the other person's decision, through A, goes in right after the substitute's
    turn."""
    a, b = cluster.a, cluster.b
    table, tokens, clients = clocked_table({0: a, 1: a, None: b})
    *people, watcher = clients
    mover = turn_of(watcher.last)
    assert mover is not None
    other = 1 - mover
    before = position(watcher.last)  # type: ignore[arg-type]
    a.kill()
    for c in people:
        c.close()
    # the minute runs out with A down: B's substitute plays the turn, then Bia's clock runs
    watcher.until(lambda c: turn_of(c.last) == other, timeout=TURN + PATIENT)
    after = position(watcher.last)  # type: ignore[arg-type]
    assert after[0] == before[0] and after[1] > before[1]
    assert watcher.last is not None and watcher.last["seats"][mover]["away"] is False  # their next turn is theirs
    played = history(cluster.database, table)
    assert len(played) == after[1] and {seat for seat, _ in played[before[1] :]} == {mover}
    assert metric(b, 'red7_decisions_total{by="bot"}') == after[1] - before[1]

    a.start()
    again = [Client(a, table, tokens[seat], seat) for seat in (0, 1)]
    for c in again:
        assert position(c.first()) == after and turn_of(c.last) == other
    take_a_turn(again[other])
    settle([*again, watcher])
    assert history(cluster.database, table)[: after[1]] == played  # the substitute's turn, once
    assert history(cluster.database, table)[after[1]][0] == other
    assert metric(a, 'red7_decisions_total{by="bot"}') == 0
    assert metric(a, "red7_conflicts_total") == metric(b, "red7_conflicts_total") == 0
    for c in [*again, watcher]:
        c.close()


def test_a_clock_running_out_seen_by_both_processes_is_played_once(cluster: Cluster) -> None:
    """Ana through A, Bia through B, a spectator on each: the mover lets the minute run
    out; both processes watch the deadline and both may try the substitution, but the
    turn is played once (every decision is written by one process) and the other
    person's decision goes in right after it."""
    a, b = cluster.a, cluster.b
    table, _tokens, clients = clocked_table({0: a, 1: b, None: a})
    watcher_b = Client(b, table, None, None)
    watcher_b.first()
    clients.append(watcher_b)
    watcher = clients[2]
    mover = turn_of(watcher.last)
    assert mover is not None
    other = 1 - mover
    before = position(watcher.last)  # type: ignore[arg-type]
    for c in clients:
        c.until(lambda c: turn_of(c.last) == other, timeout=TURN + PATIENT)
    after = position(watcher.last)  # type: ignore[arg-type]
    assert after[1] > before[1]
    played = history(cluster.database, table)
    assert len(played) == after[1] and {seat for seat, _ in played[before[1] :]} == {mover}
    # each decision written once, by one of the two processes
    by_bots = metric(a, 'red7_decisions_total{by="bot"}') + metric(b, 'red7_decisions_total{by="bot"}')
    assert by_bots == after[1] - before[1]
    assert decisions_written(a) + decisions_written(b) == len(played)
    take_a_turn(clients[other])
    settle(clients)
    assert (
        history(cluster.database, table)[: after[1]] == played
        and history(cluster.database, table)[after[1]][0] == other
    )
    for c in clients:
        assert c.errors == []
        c.close()
