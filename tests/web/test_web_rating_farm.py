"""Rating farming (issue 46) against a real ``red7 serve``: two accounts of one person at a
rated table, one conceding at its first decision, both agreeing to play again, 20 times,
move no rating (:mod:`red7.web.ratings.eligibility`); the games they then play are rated,
at most three a day."""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from red7.analysis.rating import first_skill, rated
from red7.core.record import replay
from red7.play.match import ranks_of
from red7.web.ratings.eligibility import MIN_TURNS, REPEATS, finished_turns
from tests.support.web_live import Client, Frame, play, post, until
from tests.support.web_server import WebServer

PASSWORD = "correct horse battery"
FARM = 20
PATIENT = 300.0
"""Seconds a condition may take to come on a busy machine (a deadline, never a pace)."""


def metric(server: WebServer, name: str) -> float:
    """The sum of ``server``'s counter ``name`` over its labels (0 if not there yet)."""
    page = httpx.get(f"{server.url}/metrics", trust_env=False, timeout=60).text
    return sum(float(value) for value in re.findall(rf"^{re.escape(name)}(?:{{[^}}]*}})? (\S+)$", page, re.MULTILINE))


def judged(server: WebServer) -> float:
    """The games of rated tables the server has rated or judged unrated."""
    return metric(server, "red7_games_rated_total") + metric(server, "red7_games_unrated_total")


def judged_all(server: WebServer, games: int) -> bool:
    return judged(server) >= games


def person(server: WebServer, username: str) -> httpx.Client:
    """A registered person's browser (its session cookie) on ``server``."""
    browser = httpx.Client(base_url=server.url, trust_env=False, timeout=60)
    r = browser.post("/api/account/register", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return browser


def board(server: WebServer) -> list[dict[str, Any]]:
    r = httpx.get(f"{server.url}/api/leaderboard", trust_env=False, timeout=60)
    assert r.status_code == 200, r.text
    lines: list[dict[str, Any]] = r.json()["lines"]
    return lines


def again(clients: list[Client], number: int) -> None:
    """Both people agree to play again after game ``number``; game ``number + 1`` starts."""
    for c in clients:
        c.send({"type": "again", "game": number})
    for c in clients:
        c.until(lambda c: c.last is not None and c.last["table"]["game"] == number + 1 and c.last["game"] is not None)


@pytest.mark.slow
def test_twenty_games_conceded_at_the_first_decision_move_no_rating_and_games_played_are_rated(
    tmp_path: Path,
) -> None:
    """The farm of issue 46 moves no rating; then the two play (safe decisions at random):
    each game is rated while they have fewer than three rated games together, as the
    rules say of its record (a deal can leave a player no turn to finish), and the one
    after that is not; the leaderboard's skills are exactly those games' updates."""
    with WebServer(tmp_path) as server:
        farmer, feeder = person(server, "farmer"), person(server, "feeder")
        settings = {"players": 2, "advanced": False, "actions": False, "name": "farmer", "rated": True}
        r = farmer.post("/api/tables", json=settings)
        assert r.status_code == 200, r.text
        table, tokens = r.json()["id"], [r.json()["token"]]
        r = feeder.post(f"/api/tables/{table}/seats/1", json={"name": "feeder"})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
        clients = [Client(server, table, token, seat) for seat, token in enumerate(tokens)]
        for c in clients:
            c.first()
        post(server, f"/api/tables/{table}/start", {"token": tokens[0]})

        def feeds(mover: Client, frame: Frame) -> str | None:
            return "concede" if mover.seat == 1 else None  # the feeder concedes at its first decision

        rng = random.Random(46)
        for number in range(1, FARM + 1):
            play(clients, rng, choose=feeds)
            again(clients, number)
        until(functools.partial(judged_all, server, FARM), timeout=PATIENT)
        assert board(server) == []
        assert metric(server, "red7_games_unrated_total") == FARM

        skills = {"farmer": first_skill(), "feeder": first_skill()}
        played, number = 0, FARM + 1
        while True:
            play(clients, rng)
            record = httpx.get(f"{server.url}/api/tables/{table}/games/{number}/record", trust_env=False, timeout=60)
            assert record.status_code == 200, record.text
            game = replay(record.json())
            until(functools.partial(judged_all, server, number), timeout=PATIENT)
            if min(finished_turns(game)) >= MIN_TURNS:  # else a deal that left a player no turn to finish
                if played == REPEATS:
                    break  # the fourth game of the day that they played
                skills["farmer"], skills["feeder"] = rated([skills["farmer"], skills["feeder"]], ranks_of(game))
                played += 1
            again(clients, number)
            number += 1
        assert metric(server, "red7_games_rated_total") == REPEATS
        assert metric(server, 'red7_games_unrated_total{reason="repeated"}') == 1
        lines = {line["name"]: line for line in board(server)}
        assert set(lines) == {"farmer", "feeder"}
        for name, skill in skills.items():
            assert lines[name]["games"] == REPEATS
            assert (lines[name]["mu"], lines[name]["sigma"]) == pytest.approx((skill.mu, skill.sigma), abs=0.006)
        for c in clients:
            c.close()
