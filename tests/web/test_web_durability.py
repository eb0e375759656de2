"""A server killed mid-game comes back exactly: ``red7 serve`` in a subprocess on a
temporary SQLite file plays three games partway over WebSockets, is killed with SIGKILL
(no shutdown code runs), and is started again on the same file; every seat's token opens
the same seat, every table shows the same frame as before the kill (but for who is
connected), and the games are played on to their end without a single refusal.

A person's staged decisions are written too (another server process shows them), as
staged: a server killed mid-turn comes back with that turn staged, and the person can
still take it back.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from red7.core.game import Game
from red7.core.model import Config
from red7.web.storage.store import Store
from red7.web.storage.stored import StoredGame, StoredSeat
from red7.web.table.records import record
from red7.web.table.tables import Tables
from tests.support.web_live import comparable, new_game, newest, play, settle, waiting_for
from tests.support.web_server import WebServer, left_in_group


@pytest.fixture
def server(tmp_path: Path) -> Iterator[WebServer]:
    with WebServer(tmp_path, bot_delay=0) as server:
        yield server


@pytest.mark.slow  # a server process killed and restarted
def test_a_killed_server_comes_back_where_every_game_was(server: WebServer) -> None:
    rng = random.Random(11)
    games = [
        new_game(server, 2, False, False, people=2, level="easy"),
        new_game(server, 3, True, True, people=1, level="medium"),
        new_game(server, 4, False, True, people=2, level="easy"),
    ]
    for game, decisions in zip(games, (4, 30, 10), strict=True):
        play(game.clients, rng, until=decisions)
        settle(game.clients)
    first = games[0]
    while (mover := waiting_for(first.clients)) is None:  # the game ended already (a concession): the next one
        assert newest(first.clients)["game"]["over"]
        for person in first.clients:  # the next game, once every person agreed
            if person.seat is not None:
                person.send({"type": "again"})
        settle(first.clients)
        play(first.clients, rng, until=2)
        settle(first.clients)
    # at the first table, the person to move stages a play (one they may take back)
    assert mover.last is not None
    seq = mover.last["seq"]
    play_card = next(o["action"] for o in mover.last["game"]["options"] if o["kind"] == "play" and not o["ends_turn"])
    mover.send({"type": "decide", "seq": seq, "action": play_card})
    mover.until(lambda c: c.last is not None and c.last["seq"] == seq + 1)
    settle(first.clients)
    assert mover.last["game"]["staged"] == [play_card]
    assert all(c.last is not None and c.last["seq"] == seq for c in first.clients if c is not mover)  # the mover's
    before = {game.id: {c.seat: comparable(c.last) for c in game.clients if c.last} for game in games}

    server.kill()
    for game in games:
        game.close()
    server.start()

    for game in games:
        game.connect(server)
        after = {c.seat: comparable(c.last) for c in game.clients if c.last}
        assert after == before[game.id], f"table {game.id}"
    # the staged play came back staged: it can still be taken back
    mover = next(c for c in first.clients if c.seat == mover.seat)
    mover.send({"type": "take_back", "seq": seq + 1})
    settle(first.clients)
    # (its seq moves on past the numbers of the messages it took back, never back to them)
    assert mover.last is not None and mover.last["seq"] == seq + 2 and mover.last["game"]["staged"] == []
    for game in games:
        play(game.clients, rng)
        settle(game.clients)
        for c in game.clients:
            assert c.errors == [] and c.last is not None and c.last["game"]["over"], c.last
        number = newest(game.clients)["table"]["game"]
        record = httpx.get(f"{server.url}/api/tables/{game.id}/games/{number}/record", trust_env=False).json()
        assert record["result"] is not None
        game.close()


def test_a_game_finished_just_before_a_crash_is_over_after_it(tmp_path: Path) -> None:
    """The previous release wrote the last decision of a game and its result in two
    transactions: a crash between them left a finished game with no result, which the
    server completes when it loads it (this release writes both in one)."""
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    store.upgrade()
    config = Config(2)
    game = Game(config=config, seed=5)
    rng = random.Random(5)
    while not game.is_over:
        options = [o.action for o in game.options() if o.safe] or ["concede"]
        game.apply(rng.choice(options))
    empty = store.create_table("t1", 2, False, False, "en")
    decisions = tuple((seat, str(action)) for seat, action in game.history)
    # what the previous release wrote before the crash: every decision, and no result
    unfinished = StoredGame(None, 1, config.as_dict(), 5, None, decisions, len(decisions))
    seats = (StoredSeat("Ana", "0" * 64), StoredSeat(bot="easy"))
    assert store.commit(empty, replace(empty, status="playing", seats=seats, game=unfinished)) is not None
    tables = Tables(store)
    tables.load()
    live = tables.live["t1"]
    assert live.table is not None and live.table.is_over
    assert live.status == "over"
    assert asyncio.run(record(tables, "t1", 1))["result"] == game.result.as_dict()  # type: ignore[union-attr]
    assert [t.id for t in tables.listed()] == []
    assert store.table("t1").status == "over"  # type: ignore[union-attr]
    store.close()


@pytest.mark.slow  # a server process killed
def test_a_killed_servers_bot_workers_end_with_it(server: WebServer) -> None:
    """The bots think in worker processes the server spawned: killed with SIGKILL, the
    server runs no shutdown code, and its workers end on their own within seconds
    instead of staying behind, idle, for ever."""
    game = new_game(server, 2, False, False, people=1, level="easy")
    play(game.clients, random.Random(4), until=4)  # the bot has moved: its worker is running
    group = server.kill(alone=True)
    game.close()
    left = left_in_group(group)
    assert left == [], f"processes of the killed server still run: {left}"
