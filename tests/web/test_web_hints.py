"""The hint in the web game (red7.web.reviews.hints): the terminal game's hint, to the person to
move only, allowed or not per table, one at a time and a few a minute per seat; every
malformed, stale, foreign or repeated ask refused in words. In-process app."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from red7.play.session import TurnHint
from red7.web.protocol import read
from red7.web.reviews.hints import Hints
from red7.web.table.frames import Created
from tests.support.web_client import Conn, join, make_app, my_turn, start


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path)) as client:
        yield client


def table_of_two(client: TestClient, lang: str = "en", hints: bool = True) -> tuple[str, list[Conn]]:
    """Ana and Bia at a started 2-player table (action cards: 3s draw, 7s move...), and a
    spectator: their connections, each with its first frame of the game read."""
    r = client.post("/api/tables", json={"players": 2, "actions": True, "lang": lang, "name": "Ana", "hints": hints})
    assert r.status_code == 200, r.text
    created = read(Created, r.text)
    bia = join(client, created["id"], 1, "Bia")
    conns = [
        Conn(client, created["id"], created["token"], 0),
        Conn(client, created["id"], bia, 1),
        Conn(client, created["id"]),
    ]
    start(client, created["id"], created["token"])
    for conn in conns:
        conn.until(lambda f: f["type"] == "table" and f["game"] is not None)
    return created["id"], conns


def mover_and_other(conns: list[Conn]) -> tuple[Conn, Conn]:
    mover = next(conn for conn in conns[:2] if my_turn(conn.last))
    return mover, conns[1 - conns.index(mover)]


def ask(conn: Conn, seq: Any = None) -> None:
    assert conn.last is not None
    conn.send({"type": "hint", "seq": conn.last["seq"] if seq is None else seq})


def hint_of(conn: Conn) -> dict[str, Any]:
    frame = conn.until(lambda f: f["type"] in ("hint", "error"))
    assert frame["type"] == "hint", frame
    return frame


def close(conns: list[Conn]) -> None:
    for conn in conns:
        conn.close()


@pytest.mark.parametrize(("lang", "words"), [("en", "Hint: the hard bot would "), ("pt-BR", "Dica: o bot difícil")])
def test_the_person_to_move_gets_the_terminal_games_hint_alone(client: TestClient, lang: str, words: str) -> None:
    """The hint is the whole turn in the table's language, its first decision one of the
    mover's options, for the position the mover saw (its seq); nobody else gets it."""
    _table, conns = table_of_two(client, lang)
    mover, other = mover_and_other(conns)
    assert mover.last is not None and mover.last["table"]["hints"] is True
    ask(mover)
    hint = hint_of(mover)
    assert hint["seq"] == mover.last["seq"] and hint["text"].startswith(words), hint
    assert hint["decisions"][0] in {option["action"] for option in mover.last["game"]["options"]}
    for conn in (other, conns[2]):
        assert all(frame["type"] != "hint" for frame in conn.drain())
    close(conns)


def test_a_hint_is_refused_to_the_other_seat_a_spectator_a_stale_seq_and_a_malformed_ask(client: TestClient) -> None:
    _table, conns = table_of_two(client)
    mover, other = mover_and_other(conns)
    ask(other)
    assert other.error()["code"] == "not-your-turn"
    ask(conns[2])
    assert conns[2].error()["code"] == "spectator"
    assert mover.last is not None
    ask(mover, mover.last["seq"] + 5)
    assert mover.error()["code"] == "stale"
    for malformed in ({"type": "hint"}, {"type": "hint", "seq": "1"}, {"type": "hint", "seq": True}):
        mover.send(malformed)
        assert mover.error()["code"] == "stale", malformed
    mover.send({"type": "hint", "seq": 0, "extra": "<b>x</b>"})
    error = mover.error()
    assert error["code"] == "unknown-field" and "<b>" not in error["message"]
    mover.send({"type": "hints", "seq": 0})
    assert mover.error()["code"] == "bad-type"
    close(conns)


def test_a_table_made_without_hints_refuses_them_in_its_language(client: TestClient) -> None:
    _table, conns = table_of_two(client, "pt-BR", hints=False)
    mover, _other = mover_and_other(conns)
    assert mover.last is not None and mover.last["table"]["hints"] is False
    ask(mover)
    error = mover.error()
    assert (error["code"], error["message"]) == ("no-hints", "As dicas estão desligadas nesta mesa.")
    close(conns)


def test_the_hints_option_must_be_a_boolean(client: TestClient) -> None:
    r = client.post("/api/tables", json={"players": 2, "hints": "yes"})
    assert r.status_code == 400 and r.json()["code"] == "bad-settings"


def test_one_hint_at_a_time_per_seat(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a seat's hint is worked out (held here until the test lets it go), a second
    ask is refused; the first one's answer still comes."""
    release, started = threading.Event(), threading.Event()
    real_plan = TurnHint.plan

    def held(self: TurnHint) -> Any:
        started.set()
        assert release.wait(60), "the test never let the hint go"
        return real_plan(self)

    monkeypatch.setattr(TurnHint, "plan", held)
    _table, conns = table_of_two(client)
    mover, _other = mover_and_other(conns)
    ask(mover)
    assert started.wait(60)
    ask(mover)
    assert mover.error()["code"] == "hint-busy"
    release.set()
    assert hint_of(mover)["decisions"]
    close(conns)


def test_a_seat_may_ask_a_few_hints_a_minute(client: TestClient) -> None:
    """The share: here two at once and (practically) none more; the third is refused
    with when to ask again, and nothing else changes."""
    client.app.state.parts.add(Hints, Hints(rate=1e-6, burst=2))  # type: ignore[attr-defined]
    _table, conns = table_of_two(client)
    mover, _other = mover_and_other(conns)
    before = mover.last
    for _ in range(2):
        ask(mover)
        hint_of(mover)
    ask(mover)
    error = mover.error()
    assert error["code"] == "too-many-hints" and "wait" in error["message"]
    assert mover.last == before  # no table frame came: nothing changed
    close(conns)
