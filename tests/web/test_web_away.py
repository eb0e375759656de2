"""A person away on their turn longer than the table's patience is replaced by a bot
until they come back, and takes the seat back by reconnecting (the web issue's "staying
in the game")."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

from tests.support.web_client import Conn, add_bot, make_app, my_turn, new_table, start, tables_of


def wait(predicate: object, conn: Conn, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        conn.drain(0.05)


def test_a_person_away_on_their_turn_is_replaced_by_a_bot_and_takes_the_seat_back(tmp_path: Path) -> None:
    app = make_app(tmp_path, patience=1.0, bot_delay=0.3)  # bots slow enough for the match to last
    with TestClient(app) as client:
        table_id, token = new_table(client, players=2, advanced=True, name="Ana")
        add_bot(client, table_id, token, 1, "easy")
        start(client, table_id, token)
        live = tables_of(app).live[table_id]
        with Conn(client, table_id) as spectator:
            spectator.recv()
            # Ana's first turn comes (the bot may move first); she is not connected
            wait(lambda: live.table.current == 0, spectator)
            before = live.table.game.decisions
            # nobody answers for her: after the patience, a substitute bot plays her turns
            wait(lambda: live.table.game.decisions > before and live.substitute(0) is not None, spectator)
            assert spectator.last is not None and spectator.last["seats"][0]["away"]
            assert live.substitute(0) == "medium"
            # Ana comes back: the seat is hers again, the substitute stops, she is asked
            with Conn(client, table_id, token, seat=0) as ana:
                frame = ana.until(lambda f: f["type"] == "table" and not f["seats"][0]["away"])
                assert live.substitute(0) is None and frame["seats"][0]["online"]
                if not (my_turn(frame) or frame["game"]["over"]):  # the bot's turn: hers comes next
                    frame = ana.until(lambda f: my_turn(f) or bool(f["game"]["over"]), timeout=60.0)
                if my_turn(frame):
                    seq = frame["seq"]
                    time.sleep(1.5)  # longer than the patience: she is connected, so nobody plays for her
                    ana.drain()
                    assert live.table.game.decisions == seq and live.table.current == 0
                    safe = [o["action"] for o in frame["game"]["options"] if o["safe"]]
                    ana.decide(safe[0] if safe else "concede", seq)
                    ana.until(lambda f: f["type"] == "table" and f["seq"] > seq)
