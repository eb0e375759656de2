"""The web server in process (FastAPI's TestClient): the REST lobby, the WebSocket
protocol, records and replays, and what it does with bad input and abuse.

Every refusal is checked for its status (REST), its stable ``code`` and a message a
person can read, and for what it must not do: change the table or the game (the
server's truth before and after, and the frames a fresh client gets), send anyone a new
frame, or stop the server from serving other tables.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import astuple
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from red7.cli import main
from red7.core.game import Game
from red7.core.model import Config
from red7.core.record import replay
from red7.ui.i18n import using
from red7.ui.words import refusal_text
from red7.web.http.wire import MAX_MESSAGE
from red7.web.socket import BURST
from red7.web.table.live import LiveTable
from tests.support import configs
from tests.support.web_client import (
    Clock,
    Conn,
    Frame,
    add_bot,
    careful,
    join,
    make_app,
    my_turn,
    new_table,
    play_out,
    start,
    tables_of,
)

CONFIGS = [astuple(c) for c in configs.CONFIGS]


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, clock: Clock) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path_factory.mktemp("web"), clock=clock)) as client:
        yield client


@pytest.fixture
def stopped(clock: Clock) -> Iterator[Clock]:
    """The rate limits' clock, stopped for the test (it runs on after it)."""
    clock.stop()
    yield clock
    clock.run()


# --- helpers ----------------------------------------------------------------------------


def live(client: TestClient, table_id: str) -> LiveTable:
    """The server's own table (the truth, for checks only)."""
    table: LiveTable = tables_of(client.app).live[table_id]  # type: ignore[attr-defined]
    return table


def truth(client: TestClient, table_id: str) -> tuple[Any, ...]:
    """Everything that defines the table now: seats, status, game, staged decisions."""
    table = live(client, table_id)
    game = table.table
    return (
        table.status,
        table.game_number,
        tuple((s.name, s.token_hash, s.bot) for s in table.seats),
        None if game is None else (game.game.fingerprint(), tuple(map(str, game.staged))),
    )


def without_presence(frame: Frame) -> Frame:
    """A table frame without who is connected (that changes as clients come and go)."""
    frame = json.loads(json.dumps(frame))
    for seat in frame["seats"]:
        del seat["online"]
    return frame


def view(client: TestClient, table_id: str, token: str | None = None) -> Frame:
    """The frame a new client of ``token``'s seat (None: a spectator) gets."""
    with Conn(client, table_id, token) as conn:
        return without_presence(conn.until(lambda f: f["type"] == "table"))


def lobby(client: TestClient) -> list[dict[str, Any]]:
    """Every table the lobby lists, page after page."""
    tables: list[dict[str, Any]] = []
    while True:
        r = client.get(f"/api/tables?offset={len(tables)}&limit=100")
        assert r.status_code == 200
        page = r.json()
        tables += page["tables"]
        if not page["tables"] or len(tables) >= page["total"]:
            return tables


def as_json(content: str | bytes) -> dict[str, str]:
    """What a request of ``content`` (not JSON, perhaps) sent as JSON carries."""
    return {"content": content, "headers": {"Content-Type": "application/json"}}  # type: ignore[dict-item]


def seat_token(token: str) -> dict[str, str]:
    """The headers of a request made with a seat's token (never in the address)."""
    return {"Authorization": f"Bearer {token}"}


def refused(response: Any, status: int, code: str) -> str:
    """Check a REST refusal; its message."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and len(body["message"]) > 10, body
    message: str = body["message"]
    return message


def refused_frame(frame: Frame, code: str) -> str:
    assert frame["type"] == "error", frame
    assert frame["code"] == code, frame
    assert isinstance(frame["message"], str) and len(frame["message"]) > 10, frame
    message: str = frame["message"]
    return message


def no_new_frames(*conns: Conn) -> None:
    """Nobody got a new table frame (a refusal publishes nothing)."""
    for conn in conns:
        assert [f for f in conn.drain() if f["type"] == "table"] == []


class Duel:
    """A started 2-player basic game between two people (so it waits for a person),
    each with a client, and a spectator."""

    def __init__(self, client: TestClient, lang: str = "en") -> None:
        self.client = client
        self.id, token0 = new_table(client, 2, lang=lang, name="Ana")
        self.tokens = [token0, join(client, self.id, 1, "Bia")]
        self.conns = [Conn(client, self.id, token, seat) for seat, token in enumerate(self.tokens)]
        self.watcher = Conn(client, self.id)
        start(client, self.id, token0)
        for conn in [*self.conns, self.watcher]:
            conn.until(lambda f: f["type"] == "table" and f["game"] is not None)
            conn.drain()

    @property
    def seq(self) -> int:
        return live(self.client, self.id).seq

    @property
    def mover(self) -> Conn:
        return self.conns[live(self.client, self.id).table.current]  # type: ignore[union-attr,index]

    @property
    def other(self) -> Conn:
        return self.conns[1 - self.mover.seat]  # type: ignore[operator]

    def a_safe_move(self) -> str:
        """A safe decision of the mover, else (a deal may leave none) any but conceding."""
        frame = self.mover.last
        assert my_turn(frame) and frame is not None, frame
        options = [o for o in frame["game"]["options"] if o["kind"] != "concede"] or frame["game"]["options"]
        return str(next((o for o in options if o["safe"]), options[0])["action"])

    def close(self) -> None:
        for conn in [*self.conns, self.watcher]:
            conn.close()


@pytest.fixture
def duel(client: TestClient) -> Iterator[Duel]:
    game = Duel(client)
    yield game
    game.close()


def still_served(client: TestClient) -> None:
    """Another table is served as usual: a new game there takes a decision."""
    other = Duel(client)
    try:
        mover, seq = other.mover, other.seq
        mover.decide(other.a_safe_move())
        frame = mover.until(lambda f: f["type"] != "table" or f["seq"] == seq + 1)
        assert frame["type"] == "table"
    finally:
        other.close()


# --- the lobby --------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
def test_a_table_of_each_configuration_is_made_with_its_creator_in_seat_0(
    client: TestClient, players: int, advanced: bool, actions: bool
) -> None:
    table_id, token = new_table(client, players, advanced, actions, "en", "Ana")
    listed = {t["id"]: t for t in lobby(client)}[table_id]
    assert listed["players"] == players and listed["status"] == "open"
    assert listed["free"] == players - 1 and listed["seats"] == ["Ana"] + [None] * (players - 1)
    assert ("advanced game" in listed["settings"]) == advanced
    assert ("action rules" in listed["settings"]) == actions
    frame = view(client, table_id, token)
    assert frame["you"] == 0 and frame["seq"] == 0 and frame["game"] is None
    assert frame["table"] | {"settings": None} == {
        "id": table_id,
        "lang": "en",
        "players": players,
        "advanced": advanced,
        "actions": actions,
        "status": "open",
        "game": 0,
        "settings": None,
        "clock": 0,
        "name": "Ana's table",
        "private": False,
        "invitation": None,
        "hints": True,
        "rated": False,
    }
    assert [(s["name"], s["taken"], s["you"]) for s in frame["seats"]] == [("Ana", True, True)] + [
        (f"Player {s + 1}", False, False) for s in range(1, players)
    ]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": 1}, "bad-settings"),
        ({"players": 5}, "bad-settings"),
        ({"players": "3"}, "bad-settings"),
        ({"players": True}, "bad-settings"),
        ({"players": None}, "bad-settings"),
        ({"advanced": "yes"}, "bad-settings"),
        ({"actions": 1}, "bad-settings"),
        ({"lang": "xx"}, "bad-settings"),
        ({"lang": 5}, "bad-settings"),
        ({"name": "A" * 25}, "bad-name"),
        ({"name": 7}, "bad-name"),
        ({"name": "Ana\x00"}, "bad-name"),
        ([1, 2], "bad-json"),
        ("{not json", "bad-json"),
    ],
)
def test_a_bad_table_is_refused_and_made_nowhere(client: TestClient, body: Any, code: str) -> None:
    before = lobby(client)
    if isinstance(body, str):
        response = client.post("/api/tables", **as_json(body))
    else:
        response = client.post("/api/tables", json=body if isinstance(body, list) else {"name": "Ana", **body})
    refused(response, 400, code)
    assert lobby(client) == before


def test_the_refusals_say_what_is_wrong(client: TestClient) -> None:
    message = refused(client.post("/api/tables", json={"players": 5}), 400, "bad-settings")
    assert "2 to 4 players" in message
    assert "pt-BR" in refused(client.post("/api/tables", json={"lang": "xx"}), 400, "bad-settings")
    assert "24 characters" in refused(client.post("/api/tables", json={"name": "A" * 25}), 400, "bad-name")
    refused(client.post("/api/tables", **as_json(b"{" + b" " * MAX_MESSAGE + b"}")), 413, "too-large")
    refused(client.get("/api/ui?lang=xx"), 400, "bad-language")
    assert client.get("/api/ui?lang=pt-BR").json()["ui"]["play"] == "Jogar"


def test_seats_and_bots_are_taken_once_and_bad_requests_change_nothing(client: TestClient) -> None:
    table_id, token = new_table(client, 3, name="Ana")
    other_id, other_token = new_table(client, 2, name="Zoe")
    seats = f"/api/tables/{table_id}/seats"
    bots = f"/api/tables/{table_id}/bots"
    before = truth(client, table_id)
    refused(client.post(f"{seats}/3", json={"name": "Bia"}), 400, "bad-seat")
    refused(client.post(f"{seats}/-1", json={"name": "Bia"}), 400, "bad-seat")
    refused(client.post(f"{seats}/one", json={"name": "Bia"}), 422, "bad-request")
    refused(client.post(f"{seats}/0", json={"name": "Bia"}), 409, "seat-taken")
    refused(client.post(f"{seats}/1", json={"name": "B" * 25}), 400, "bad-name")
    refused(client.post(f"{seats}/1", **as_json("nope")), 400, "bad-json")
    refused(client.post(f"{bots}", json={"token": token, "seat": 1, "level": "godlike"}), 400, "bad-level")
    refused(client.post(f"{bots}", json={"token": token, "seat": 1}), 400, "bad-level")
    refused(client.post(f"{bots}", json={"token": token, "seat": 0, "level": "easy"}), 409, "seat-taken")
    refused(client.post(f"{bots}", json={"token": token, "seat": "1", "level": "easy"}), 400, "bad-seat")
    refused(client.post(f"{bots}", json={"token": "forged", "seat": 1, "level": "easy"}), 403, "bad-token")
    refused(client.post(f"{bots}", json={"token": other_token, "seat": 1, "level": "easy"}), 403, "bad-token")
    refused(client.post(f"{bots}", json={"seat": 1, "level": "easy"}), 403, "bad-token")
    refused(client.post(f"/api/tables/{table_id}/start", json={"token": token}), 409, "seats-free")
    refused(client.post("/api/tables/nope/seats/1", json={"name": "Bia"}), 404, "no-table")
    refused(client.post("/api/tables/nope/bots", json={"token": token, "seat": 1, "level": "easy"}), 404, "no-table")
    refused(client.post("/api/tables/nope/start", json={"token": token}), 404, "no-table")
    refused(client.get("/api/tables/nope/games/1/record"), 404, "no-table")
    refused(client.get("/api/tables/nope/games/1/replay"), 404, "no-table")
    with Conn(client, "nope") as nowhere:
        assert "no table nope" in refused_frame(nowhere.recv(), "no-table")
        assert nowhere.recv() == {"type": "closed", "code": 4404}
    assert truth(client, table_id) == before

    bia = join(client, table_id, 1, "  Bia  ")
    add_bot(client, table_id, bia, 2, "hard")
    frame = view(client, table_id, bia)
    assert [(s["name"], s["bot"], s["you"]) for s in frame["seats"]] == [
        ("Ana", None, False),
        ("Bia", None, True),
        ("Bot 3", "hard", False),
    ]
    refused(client.post(f"/api/tables/{table_id}/start", json={"token": "forged"}), 403, "bad-token")
    refused(client.post(f"/api/tables/{table_id}/start", json={"token": other_token}), 403, "bad-token")
    # only the host starts it (issue 48, item 2): Bia, seated, is refused, and nothing changes
    refused(client.post(f"/api/tables/{table_id}/start", json={"token": bia}), 403, "not-host")
    assert lobby_row(client, table_id)["status"] == "open"
    start(client, table_id, token)
    assert lobby_row(client, table_id)["status"] == "playing"


def lobby_row(client: TestClient, table_id: str) -> dict[str, Any]:
    return {t["id"]: t for t in lobby(client)}[table_id]


def test_a_started_table_takes_no_seat_and_does_not_start_again(client: TestClient) -> None:
    table_id, token = new_table(client, 3, name="Ana")
    join(client, table_id, 1, "Bia")
    add_bot(client, table_id, token, 2)
    start(client, table_id, token)
    seats = truth(client, table_id)[:3]  # status, game number, seats (the bot may move meanwhile)
    refused(client.post(f"/api/tables/{table_id}/start", json={"token": token}), 409, "started")
    refused(client.post(f"/api/tables/{table_id}/seats/2", json={"name": "Caio"}), 409, "started")
    refused(
        client.post(f"/api/tables/{table_id}/bots", json={"token": token, "seat": 1, "level": "easy"}), 409, "started"
    )
    assert truth(client, table_id)[:3] == seats
    assert lobby_row(client, table_id)["free"] == 0


# --- a game over the WebSocket ----------------------------------------------------------


def hand(frame: Frame) -> list[str]:
    return [c["id"] for c in frame["game"]["hand"]]


def test_a_person_plays_a_bot_to_the_end_and_gets_the_record(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table_id, token = new_table(client, 2, name="Ana")
    add_bot(client, table_id, token, 1, "easy")
    with Conn(client, table_id, token, 0) as ana, Conn(client, table_id) as watcher:
        start(client, table_id, token)
        frame = ana.until(lambda f: f["type"] == "table" and f["game"] is not None)
        assert frame["table"]["status"] == "playing" and frame["table"]["game"] == 1
        assert len(frame["game"]["hand"]) == 7 and frame["game"]["hand_sizes"] == [7, 7]
        refused(client.get(f"/api/tables/{table_id}/games/1/record"), 409, "not-over")
        refused(client.get(f"/api/tables/{table_id}/games/2/record"), 404, "no-game")
        decisions = play_out([ana, watcher], careful(random.Random(1)))
        assert decisions > 0 and ana.errors == [] and watcher.errors == []
        over = ana.last["game"]["over"]  # type: ignore[index]
        assert over["winners"] and over["text"]
        assert ana.last["table"]["status"] == "over"  # type: ignore[index]
        assert watcher.last["game"]["over"] == over  # type: ignore[index]
    record = client.get(f"/api/tables/{table_id}/games/1/record").json()
    assert record["seats"] == [{"name": "Ana", "bot": None}, {"name": "", "bot": "easy"}]
    assert record["result"]["winners"] == over["winners"]
    assert len(record["decisions"]) == ana.last["seq"]  # type: ignore[index]
    game = replay(record)
    assert game.is_over and game.result is not None and game.result.as_dict() == record["result"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["replay", str(path), "--check"]) == 0
    assert capsys.readouterr().err == ""
    # the review of the terminal game, for a game played on the web (issue 13)
    assert main(["analyse", str(path), "--exact", "--lang", "en"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith(f"{len(record['decisions'])} decisions, ") and "Ana: " in out


def test_the_replay_shows_each_step_as_its_seat_saw_it(client: TestClient) -> None:
    table_id, token = new_table(client, 3, advanced=False, actions=True, name="Ana")
    bia = join(client, table_id, 1, "Bia")
    add_bot(client, table_id, token, 2, "easy")
    with Conn(client, table_id, token, 0) as ana, Conn(client, table_id, bia, 1) as bea:
        start(client, table_id, token)
        play_out([ana, bea], careful(random.Random(2)))
    record = client.get(f"/api/tables/{table_id}/games/1/record").json()
    game = Game(config=Config.from_mapping(record["config"]), seed=record["seed"])
    hands = [[game.hand(s) for s in range(3)]]
    for action in record["decisions"]:
        game.apply(action)
        hands.append([game.hand(s) for s in range(3)])
    url = f"/api/tables/{table_id}/games/1/replay"
    for seat, token_of_seat in ((0, token), (1, bia)):
        frames = client.get(url, headers=seat_token(token_of_seat)).json()["frames"]
        assert len(frames) == len(record["decisions"]) + 1
        assert [f["seq"] for f in frames] == list(range(len(frames)))
        assert all(f["you"] == seat for f in frames)
        assert [sorted(hand(f)) for f in frames] == [sorted(h[seat]) for h in hands]
        # history: no countdown (it was today's patience with the people gone since, changing with each asking)
        assert all(f["clock"] is None for f in frames)
    frames = client.get(url).json()["frames"]
    assert len(frames) == len(record["decisions"]) + 1
    assert all(f["you"] is None and f["game"]["hand"] is None for f in frames)
    assert frames[-1]["game"]["over"]["winners"] == record["result"]["winners"]
    refused(client.get(url, headers=seat_token("forged")), 403, "bad-token")
    refused(client.get(url, headers={"Authorization": "forged"}), 401, "bad-token")
    refused(client.get(f"{url}?token={token}"), 400, "token-in-url")  # a token in an address reaches logs
    refused(client.get(f"/api/tables/{table_id}/games/7/replay"), 404, "no-game")
    refused(client.get(f"/api/tables/{table_id}/games/one/replay"), 422, "bad-request")


def test_a_staged_play_is_taken_back_and_the_hand_restored(client: TestClient, duel: Duel) -> None:
    mover, seq = duel.mover, duel.seq
    before = mover.last
    assert before is not None and before["game"]["staged"] == []
    refused_frame(ask(mover, {"type": "take_back", "seq": seq}), "nothing-staged")
    play = next(o for o in before["game"]["options"] if o["kind"] == "play" and not o["ends_turn"])
    mover.decide(play["action"])
    staged = mover.until(lambda f: f["type"] != "table" or f["seq"] == seq + 1)
    assert staged["game"]["staged"] == [play["action"]]
    assert sorted(hand(staged)) == sorted(set(hand(before)) - {play["card"]})
    assert play["card"] in [c["id"] for c in staged["game"]["palettes"][mover.seat]]
    refused_frame(ask(mover, {"type": "take_back", "seq": seq}), "stale")
    mover.send({"type": "take_back", "seq": seq + 1})
    back = mover.until(lambda f: f["type"] != "table" or f["seq"] == seq + 2)  # on, past both messages' numbers
    assert back["game"]["staged"] == [] and hand(back) == hand(before)
    assert without_presence(back) == without_presence(before) | {"seq": seq + 2}
    assert live(client, duel.id).table.committed == seq  # type: ignore[union-attr]


def test_a_stale_or_repeated_decision_is_refused(client: TestClient, duel: Duel) -> None:
    mover, seq = duel.mover, duel.seq
    action = duel.a_safe_move()
    mover.decide(action, seq)
    mover.decide(action, seq)  # the same decision again (a double click, a resend)
    mover.until(lambda f: f["type"] != "table" or f["seq"] == seq + 1)
    message = refused_frame(mover.error(), "stale")
    assert "changed" in message
    assert duel.seq == seq + 1
    for conn in [*duel.conns, duel.watcher]:
        conn.drain()
    after = truth(client, duel.id)
    refused_frame(ask(mover, {"type": "decide", "seq": seq, "action": action}), "stale")
    refused_frame(ask(mover, {"type": "decide", "seq": seq + 5, "action": action}), "stale")
    assert truth(client, duel.id) == after
    no_new_frames(*duel.conns, duel.watcher)


def test_again_after_the_game_is_over_starts_game_2(client: TestClient) -> None:
    table_id, token = new_table(client, 2, name="Ana")
    add_bot(client, table_id, token, 1, "easy")
    with Conn(client, table_id, token, 0) as ana:
        start(client, table_id, token)
        ana.until(lambda f: f["type"] == "table" and f["game"] is not None)
        ana.send({"type": "again"})
        refused_frame(ana.error(), "not-over")
        play_out([ana], careful(random.Random(3)))
        first = client.get(f"/api/tables/{table_id}/games/1/record").json()
        ana.send({"type": "again"})
        frame = ana.until(lambda f: f["type"] != "table" or f["table"]["game"] == 2)
        assert frame["table"]["status"] == "playing" and frame["game"]["over"] is None
        assert frame["seq"] == 0 or frame["game"]["log"]
        refused(client.get(f"/api/tables/{table_id}/games/2/record"), 409, "not-over")
        assert client.get(f"/api/tables/{table_id}/games/1/record").json() == first
        replayed = client.get(f"/api/tables/{table_id}/games/1/replay", headers=seat_token(token)).json()["frames"]
        assert len(replayed) == len(first["decisions"]) + 1
        assert all(f["table"]["game"] == 1 for f in replayed)
        assert replayed[-1]["game"]["over"]["winners"] == first["result"]["winners"]
        play_out([ana], careful(random.Random(4)))
        assert ana.last["table"]["game"] == 2  # type: ignore[index]
    assert replay(client.get(f"/api/tables/{table_id}/games/2/record").json()).is_over


def test_later_frames_carry_only_the_new_lines_of_the_move_log(client: TestClient, stopped: Clock) -> None:
    # an advanced match with action cards: the log grows to hundreds of lines, and a
    # staged turn taken back shortens it
    table_id, token = new_table(client, 3, advanced=True, actions=True, name="Ana")
    bia = join(client, table_id, 1, "Bia")
    add_bot(client, table_id, token, 2, "easy")
    with (
        Conn(client, table_id, token, 0) as ana,
        Conn(client, table_id, bia, 1) as bia_conn,
        Conn(client, table_id) as eve,
    ):
        start(client, table_id, token)
        conns = [ana, bia_conn, eve]
        careful_person = careful(random.Random(8))

        def choose(frame: Frame) -> str:
            stopped.advance(0.06)  # a long match: within the server's 20 messages a second
            return careful_person(frame)

        def stageable(frame: Frame | None) -> str | None:
            """A play Ana may stage and take back, if she is to move."""
            if not my_turn(frame) or frame is None or frame["game"]["staged"]:
                return None
            plays = [  # not a 3: its draw would log a second line (R7.3)
                o["action"]
                for o in frame["game"]["options"]
                if o["kind"] == "play" and not o["ends_turn"] and not o["action"].endswith("3")
            ]
            return plays[0] if plays else None

        play_out(conns, choose, done=lambda _c: stageable(ana.last) is not None and len(ana.log) > 3)
        assert ana.last is not None
        seq, log = ana.last["seq"], list(ana.log)
        ana.decide(stageable(ana.last))  # type: ignore[arg-type]
        ana.until(lambda f: f["type"] == "table" and f["seq"] == seq + 1)
        assert len(ana.log) == len(log) + 1
        ana.send({"type": "take_back", "seq": seq + 1})
        ana.until(lambda f: f["type"] == "table" and f["seq"] == seq + 2)
        assert ana.log == log and json.loads(ana.raw[-1])["game"]["log"] == []  # the staged line went, nothing new came
        play_out(conns, choose, timeout=120)
        for conn in conns:
            raws = [json.loads(text) for text in conn.raw]
            tables = [(raw, whole) for raw, whole in zip(raws, conn.frames, strict=True) if raw["type"] == "table"]
            first = tables[0][0]
            assert first["game"] is None or first["game"]["log_from"] == 0
            # each later frame keeps the lines the page has and sends what follows
            assert all(
                raw["game"]["log"] == whole["game"]["log"][raw["game"]["log_from"] :]
                for raw, whole in tables
                if raw["game"]
            )
            sent = sum(len(raw["game"]["log"]) for raw, _ in tables if raw["game"])
            shown = sum(len(whole["game"]["log"]) for _, whole in tables if whole["game"])
            assert sent * 10 < shown, (sent, shown)
            # the log the page pieced together is the one a new connection gets whole
            with Conn(client, table_id, token if conn is ana else bia if conn is bia_conn else None) as fresh:
                whole = fresh.until(lambda f: f["type"] == "table")
                assert json.loads(fresh.raw[0])["game"]["log_from"] == 0
                assert conn.last is not None and whole["game"]["log"] == conn.last["game"]["log"]
                assert len(whole["game"]["log"]) > 50


def test_a_portuguese_table_speaks_portuguese(client: TestClient) -> None:
    duel = Duel(client, lang="pt-BR")
    try:
        frame = duel.mover.last
        assert frame is not None
        assert frame["table"]["lang"] == "pt-BR"
        assert frame["table"]["settings"] == "2 jogadores · modo básico"
        # the words of the page's controls come once, in the connection's first frame
        first = duel.mover.frames[0]
        assert first["ui"]["play"] == "Jogar" and first["ui"]["your_hand"] == "Sua mão"
        assert all("ui" not in f for f in duel.mover.frames[1:]) and len(duel.mover.frames) > 1
        labels = [c["label"] for c in frame["game"]["hand"]]
        marks = ("Vm", "Lj", "Am", "Vd", "Az", "An", "Vt")
        assert all(label[:2] in marks for label in labels), labels
        assert frame["game"]["rule"]["name"] == "Vermelho"
        assert frame["game"]["prompt"].startswith("Sua vez: escolha uma carta da mão")
        assert frame["game"]["rule"]["text"] == "carta mais alta"
        assert frame["game"]["standing"].startswith("Vencendo: ")
        assert all(o["text"].split()[0] in ("jogar", "descartar", "desistir") for o in frame["game"]["options"])
        waiting = duel.other.last
        assert (
            waiting is not None
            and waiting["game"]["prompt"] == f"Esperando {'Ana' if duel.mover.seat == 0 else 'Bia'}…"
        )
        concede = {"type": "decide", "seq": duel.seq, "action": "concede"}
        assert refused_frame(ask(duel.other, concede), "not-your-turn") == "Não é a sua vez."
        assert refused_frame(ask(duel.watcher, concede), "spectator").startswith("Espectadores não jogam")
        assert refused_frame(ask(duel.mover, "{"), "bad-json") == "A mensagem não é JSON."
    finally:
        duel.close()


def ask(conn: Conn, message: Any) -> Frame:
    """Send ``message``; the error frame it gets."""
    conn.send(message)
    return conn.error()


# --- abuse ------------------------------------------------------------------------------


def unchanged(client: TestClient, duel: Duel, before: tuple[Any, ...], seen: Frame) -> None:
    """The game is as it was: the server's truth, and a new client sees the same frame;
    nobody was sent a new frame."""
    no_new_frames(*duel.conns, duel.watcher)
    assert truth(client, duel.id) == before
    assert view(client, duel.id, duel.tokens[duel.mover.seat]) == seen  # type: ignore[index]


def snapshot(client: TestClient, duel: Duel) -> tuple[tuple[Any, ...], Frame]:
    seen = view(client, duel.id, duel.tokens[duel.mover.seat])  # type: ignore[index]
    for conn in [*duel.conns, duel.watcher]:
        conn.drain()
    return truth(client, duel.id), seen


def then_plays_on(duel: Duel, conn: Conn | None = None) -> None:
    """The table (and ``conn``, default the mover's) still takes a good decision."""
    conn = conn or duel.mover
    seq, action = duel.seq, duel.a_safe_move()
    conn.send({"type": "decide", "seq": seq, "action": action})
    frame = conn.until(lambda f: f["type"] != "table" or f["seq"] == seq + 1)
    assert frame["type"] == "table", frame
    assert duel.seq == seq + 1


BAD_MESSAGES = {
    "not JSON": ("{'type': 'decide'", "bad-json"),
    "a JSON list": ("[1, 2]", "bad-json"),
    "a JSON string": ('"decide"', "bad-json"),
    "binary": (b'{"type": "again"}', "bad-json"),
    "no type": ({"seq": "SEQ", "action": "concede"}, "bad-type"),
    "an unknown type": ({"type": "win", "seq": "SEQ"}, "bad-type"),
    "no seq": ({"type": "decide", "action": "concede"}, "stale"),
    "a seq as text": ({"type": "decide", "seq": "SEQ-as-text", "action": "concede"}, "stale"),
    "a future seq": ({"type": "decide", "seq": "SEQ+1", "action": "concede"}, "stale"),
    "a number for the decision": ({"type": "decide", "seq": "SEQ", "action": 7}, "bad-decision"),
    "no decision": ({"type": "decide", "seq": "SEQ"}, "bad-decision"),
    "gibberish for the decision": ({"type": "decide", "seq": "SEQ", "action": "win the game"}, "bad-decision"),
    "over 4096 bytes": ({"type": "decide", "seq": "SEQ", "action": "concede", "pad": "x" * MAX_MESSAGE}, "too-large"),
    "again while playing": ({"type": "again"}, "not-over"),
}


@pytest.mark.parametrize("case", list(BAD_MESSAGES))
def test_a_bad_message_is_refused_and_changes_nothing(client: TestClient, duel: Duel, case: str) -> None:
    message, code = BAD_MESSAGES[case]
    before, seen = snapshot(client, duel)
    seq = duel.seq
    if isinstance(message, dict):
        text = json.dumps(message)
        text = text.replace('"SEQ-as-text"', f'"{seq}"').replace('"SEQ+1"', str(seq + 1)).replace('"SEQ"', str(seq))
        duel.mover.send(text)
    elif isinstance(message, bytes):
        duel.mover.session.send_bytes(message)
    else:
        duel.mover.send(message)
    refused_frame(duel.mover.error(), code)
    unchanged(client, duel, before, seen)
    then_plays_on(duel)


def test_a_seat_cannot_act_out_of_turn(client: TestClient, duel: Duel) -> None:
    before, seen = snapshot(client, duel)
    other, seq = duel.other, duel.seq
    for message in (
        {"type": "decide", "seq": seq, "action": "concede"},
        {"type": "decide", "seq": seq, "action": duel.a_safe_move()},
        {"type": "take_back", "seq": seq},
    ):
        assert refused_frame(ask(other, message), "not-your-turn") == "It is not your turn."
    unchanged(client, duel, before, seen)
    then_plays_on(duel)


def test_an_illegal_decision_is_refused_with_the_engines_reason(client: TestClient, duel: Duel) -> None:
    before, seen = snapshot(client, duel)
    table = live(client, duel.id).table
    assert table is not None
    mine = set(table.game.hand(duel.mover.seat))  # type: ignore[arg-type]
    theirs = table.game.hand(duel.other.seat)  # type: ignore[arg-type]
    losing = [f"canvas {card}" for card in sorted(mine) if table.check(f"canvas {card}") is not None]
    for action in [f"play {theirs[0]}", "end", "draw", *losing[:1]]:
        refusal = table.check(action)
        assert refusal is not None, action
        with using("en"):
            reason = refusal_text(refusal)
        assert refused_frame(ask(duel.mover, {"type": "decide", "seq": duel.seq, "action": action}), refusal.code.value)
        assert duel.mover.errors[-1]["message"] == reason
    unchanged(client, duel, before, seen)
    then_plays_on(duel)


def test_a_forged_token_or_another_tables_token_opens_no_seat(client: TestClient, duel: Duel) -> None:
    before, seen = snapshot(client, duel)
    other_id, other_token = new_table(client, 2, name="Zoe")
    for token in ("forged-token", other_token, duel.tokens[0][:-1]):
        with Conn(client, duel.id, token) as conn:
            refused_frame(conn.recv(), "bad-token")
            assert conn.recv() == {"type": "closed", "code": 4403}
    refused(client.get(f"/api/tables/{duel.id}/games/1/replay", headers=seat_token(other_token)), 403, "bad-token")
    with Conn(client, other_id, duel.tokens[0]) as conn:
        refused_frame(conn.recv(), "bad-token")
    unchanged(client, duel, before, seen)
    then_plays_on(duel)


def test_a_spectator_cannot_play(client: TestClient, duel: Duel) -> None:
    before, seen = snapshot(client, duel)
    seq = duel.seq
    frame = duel.watcher.last
    assert frame is not None and frame["you"] is None and frame["game"]["hand"] is None
    assert frame["game"]["options"] == []
    for message in (
        {"type": "decide", "seq": seq, "action": duel.a_safe_move()},
        {"type": "take_back", "seq": seq},
        {"type": "again"},
    ):
        refused_frame(ask(duel.watcher, message), "spectator")
    unchanged(client, duel, before, seen)
    then_plays_on(duel)


def test_a_flood_is_slowed_down_and_play_resumes_after_a_pause(client: TestClient, duel: Duel, stopped: Clock) -> None:
    """On a stopped clock, a connection's flood gets its burst's worth of answers (here:
    stale), then a refusal for every message; the allowance comes back with time."""
    before, seen = snapshot(client, duel)
    flood = 150
    stale = json.dumps({"type": "decide", "seq": duel.seq + 100, "action": "concede"})
    for _ in range(flood):
        duel.mover.send(stale)
    codes: Counter[str] = Counter()
    for _ in range(flood):
        frame = duel.mover.error()
        assert frame["type"] == "error"
        codes[frame["code"]] += 1
    assert set(codes) == {"stale", "too-fast"} and codes["stale"] <= BURST, codes
    # the other seat's connection has its own allowance
    refused_frame(ask(duel.other, {"type": "take_back", "seq": duel.seq}), "not-your-turn")
    unchanged(client, duel, before, seen)
    stopped.advance(0.5)  # 10 messages' worth of allowance comes back
    then_plays_on(duel)


def test_a_websocket_from_another_site_is_closed(client: TestClient, duel: Duel) -> None:
    """Refused, and told why (an error frame, then the close code a page reads), before it
    is sent anything of the table; the server's own pages' origin is let in."""
    before, seen = snapshot(client, duel)
    for origin in (
        "http://evil.example",
        "null",
        "http://testserver.evil.example",
        "https://evil.example/testserver",
        "https://testserver",  # the server's host, another scheme
        "http://testserver:8080",  # the server's host, another port
    ):
        with Conn(client, duel.id, duel.tokens[0], 0, headers={"Origin": origin}) as conn:
            assert "another site" in refused_frame(conn.recv(), "cross-origin"), origin
            assert conn.recv() == {"type": "closed", "code": 4403}, origin
    with Conn(client, duel.id, duel.tokens[0], 0, headers={"Origin": "http://testserver"}) as conn:
        assert conn.recv()["you"] == 0
    for conn in [*duel.conns, duel.watcher]:
        conn.drain()  # told that seat 0 came and went
    unchanged(client, duel, before, seen)
    then_plays_on(duel)


def test_abuse_at_one_table_leaves_the_others_served(client: TestClient, duel: Duel) -> None:
    for message in ("{", "[]", json.dumps({"type": "decide", "seq": -1, "action": "concede"}), "x" * 5000):
        duel.mover.send(message)
        duel.other.send(message)
        duel.watcher.send(message)
    for conn in (duel.mover, duel.other, duel.watcher):
        for _ in range(4):
            assert conn.error()["type"] == "error"
    still_served(client)
    then_plays_on(duel)


def test_every_rooms_pages_and_scripts_are_served_each_under_its_own_name(client: TestClient) -> None:
    """Each room keeps its static files in its own folder, all served under ``/static``
    (server.ROOMS_WITH_PAGES): every folder is listed, no two files share a name (one
    would hide the other), and every file is served."""
    import importlib

    from red7.web import server

    web = Path(server.__file__).parent
    folders = [
        web / "static",
        *(Path(importlib.import_module(room).__file__).parent / "static" for room in server.ROOMS_WITH_PAGES),
    ]
    assert sorted(folder for folder in web.glob("*/static")) == sorted(folders[1:])
    files = [path for folder in folders for path in folder.iterdir()]
    twice = [name for name, count in Counter(path.name for path in files).items() if count > 1]
    assert not twice, twice
    for path in files:
        served = client.get(f"/static/{path.name}")
        assert served.status_code == 200 and served.content == path.read_bytes(), path
