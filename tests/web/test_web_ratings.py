"""The ratings of rated tables (:mod:`red7.web.ratings.ratings`): each finished game moves its
players' skills exactly once, whichever process (or how many at once) rates it, and a
rating cut short leaves nothing behind for the next look to find."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from red7.analysis.rating import Skill, first_skill, rated
from red7.bots import make_bot
from red7.core.game import Game
from red7.core.model import Config
from red7.play.match import ranks_of
from red7.web.ratings import ratings as ratings_module
from red7.web.ratings.eligibility import REPEATS, WINDOW, Placing, Verdict, finished_turns, identity, played
from red7.web.ratings.ratings import BOT, PERSON, Ratings
from red7.web.storage.rows import TableRow
from red7.web.storage.store import Store
from red7.web.storage.stored import StoredGame, StoredSeat
from tests.support import local_services as services

CONFIG = {"players": 2, "advanced": False, "actions": False}


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "postgresql":
        postgres: services.Postgres = request.getfixturevalue("postgres")
        url = postgres.create_database()
    else:
        url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    store = Store(url)
    store.upgrade()
    yield store
    store.close()


def finished(store: Store, table_id: str, games: int = 1, rated_table: bool = True) -> list[int]:
    """A table with ``games`` finished games (Ana won each); their ids."""
    saved = store.create_table(table_id, 2, False, False, "en")
    seated = store.commit(saved, replace(saved, seats=(StoredSeat("Ana", "a" * 64), StoredSeat(bot="hard"))))
    assert seated is not None
    saved, ids = seated, []
    for number in range(1, games + 1):
        game = StoredGame(None, number, CONFIG, number, {"winners": [0], "scores": [0, 0], "rounds": 1}, (), 0)
        written = store.commit(saved, replace(saved, status="over", game=game))
        assert written is not None and written.game is not None and written.game.id is not None
        saved = written
        ids.append(written.game.id)
    with store.engine.begin() as connection:
        connection.execute(update(TableRow).where(TableRow.id == table_id).values(rated=rated_table))
    return ids


ANA, HARD = Placing("account:1", "Ana", 1, 6), Placing("bot:hard", "hard", 2, 5)


def test_a_seat_is_rated_as_its_account_or_its_bot_level_and_a_guest_not_at_all() -> None:
    assert identity(7, None) == "account:7"
    assert identity(None, "hard") == "bot:hard"
    assert identity(None, None) is None


def test_a_game_is_rated_once_and_moves_the_winner_up_and_the_loser_down(store: Store) -> None:
    ratings = Ratings(store.engine)
    (game,) = finished(store, "t1")
    assert ratings.unrated() == [("t1", 1)]
    assert ratings.apply(game, [ANA, HARD]) is Verdict.RATED
    assert ratings.apply(game, [ANA, HARD]) is None  # again: nothing moves
    assert ratings.unrated() == []
    assert ratings.verdict(game) is Verdict.RATED
    first = first_skill()
    expected = rated([first, first], [1, 2])
    ana, bot = ratings.of("account:1"), ratings.of("bot:hard")
    assert ana is not None and bot is not None
    assert (ana.mu, ana.sigma, ana.games, ana.kind, ana.place) == pytest.approx(
        (expected[0].mu, expected[0].sigma, 1, PERSON, 1)
    )
    assert (bot.mu, bot.sigma, bot.games, bot.kind, bot.place) == pytest.approx(
        (expected[1].mu, expected[1].sigma, 1, BOT, 2)
    )
    assert ana.mu > first.mu > bot.mu
    assert ratings.of("account:2") is None


def test_only_the_finished_games_of_rated_tables_wait_to_be_rated(store: Store) -> None:
    ratings = Ratings(store.engine)
    finished(store, "casual", rated_table=False)
    first, second = finished(store, "rated", games=2)
    saved = store.create_table("unfinished", 2, False, False, "en")
    playing = store.commit(saved, replace(saved, status="playing", game=StoredGame(None, 1, CONFIG, 5, None, (), 0)))
    assert playing is not None
    with store.engine.begin() as connection:
        connection.execute(update(TableRow).where(TableRow.id == "unfinished").values(rated=True))
    assert ratings.unrated() == [("rated", 1), ("rated", 2)]
    ratings.apply(second, [ANA, HARD])
    assert ratings.unrated() == [("rated", 1)]


def test_a_rating_cut_short_leaves_no_claim_and_the_next_look_rates_the_game(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a process dying mid-update leaves: its transaction never commits, so neither
    the claim nor a half of the skills is written, and the game is rated once after."""
    ratings = Ratings(store.engine)
    (game,) = finished(store, "t1")
    ratings.apply(finished(store, "t0")[0], [ANA, HARD])  # Ana and the bot have lines already
    before = ratings.of("account:1"), ratings.of("bot:hard")

    def dies(skills: list[Skill], ranks: list[int]) -> list[Skill]:
        raise SystemExit("the process dies here")

    monkeypatch.setattr(ratings_module, "rated", dies)
    with pytest.raises(SystemExit):
        ratings.apply(game, [ANA, HARD])
    assert (ratings.of("account:1"), ratings.of("bot:hard")) == before
    assert ratings.unrated() == [("t1", 1)]
    monkeypatch.undo()
    assert ratings.apply(game, [ANA, HARD]) is Verdict.RATED
    ana = ratings.of("account:1")
    assert ana is not None and ana.games == 2


def test_many_raters_of_one_game_rate_it_once_and_of_games_sharing_a_player_lose_no_update(store: Store) -> None:
    """Eight threads (each its own connection, as eight processes would be) rate the
    same game, then eight games that all share Ana, at once."""
    ratings = Ratings(store.engine)
    games = finished(store, "t1", games=9)
    answers: list[Verdict | None] = []
    barrier = threading.Barrier(8)

    def rate(game: int, placings: list[Placing]) -> None:
        barrier.wait(timeout=60)
        answers.append(ratings.apply(game, placings))

    def all_at_once(calls: list[tuple[int, list[Placing]]]) -> None:
        threads = [threading.Thread(target=rate, args=call) for call in calls]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
            assert not thread.is_alive()

    all_at_once([(games[0], [ANA, HARD])] * 8)
    assert answers.count(None) == 7 and answers.count(Verdict.RATED) == 1
    answers.clear()
    all_at_once([(game, [ANA, Placing(f"bot:b{i}", f"b{i}", 2, 4)]) for i, game in enumerate(games[1:])])
    assert answers == [Verdict.RATED] * 8
    ana = ratings.of("account:1")
    assert ana is not None and ana.games == 9
    # the eight wins were each applied on top of the others: Ana's sigma shrank at every one
    alone = first_skill()
    for _ in range(9):
        alone = rated([alone, first_skill()], [1, 2])[0]
    assert ana.sigma == pytest.approx(alone.sigma, rel=1e-6)


def test_the_leaderboard_is_ordered_by_the_conservative_rating_in_pages(store: Store) -> None:
    ratings = Ratings(store.engine)
    games = finished(store, "t1", games=6)
    people = [Placing(f"account:{i}", f"P{i}", 1, 3) for i in range(3)]
    bots = [Placing(f"bot:{level}", level, 2, 3) for level in ("easy", "medium", "hard")]
    pairs = [(people[0], bots[0]), (people[0], bots[1]), (people[1], bots[1]), (people[1], bots[2])]
    pairs += [(people[2], bots[2]), (bots[0], people[2])]  # P2 loses its second game to easy
    for game, (winner, loser) in zip(games, pairs, strict=True):
        ratings.apply(game, [replace(winner, rank=1), replace(loser, rank=2)])
    lines, total = ratings.board(0, 100)
    assert total == 6
    assert [line.place for line in lines] == list(range(1, 7))
    assert [line.rating for line in lines] == sorted((line.rating for line in lines), reverse=True)
    assert all(line.rating == pytest.approx(line.mu - 3 * line.sigma) for line in lines)
    page, _ = ratings.board(2, 2)
    assert page == [replace(line) for line in lines[2:4]]
    people_only, people_total = ratings.board(0, 100, PERSON)
    assert people_total == 3 and {line.kind for line in people_only} == {PERSON}
    assert [line.place for line in people_only] == [1, 2, 3]
    for line in lines:
        mine = ratings.of(next(p.identity for p in people + bots if p.name == line.name))
        assert mine is not None and mine.place <= line.place  # ties share the better place


def test_a_game_needs_two_different_players_to_be_rated(store: Store) -> None:
    ratings = Ratings(store.engine)
    (game,) = finished(store, "t1")
    with pytest.raises(ValueError):
        ratings.apply(game, [ANA])
    with pytest.raises(ValueError):
        ratings.apply(game, [ANA, ANA])
    assert ratings.verdict(game) is None


def test_the_leaderboard_api_pages_and_filters_the_lines_and_refuses_bad_queries(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from tests.support.web_client import make_app, tables_of

    app = make_app(tmp_path)
    with TestClient(app) as client:
        r = client.get("/api/leaderboard")
        assert r.status_code == 200 and r.json()["lines"] == [] and r.json()["total"] == 0
        store = tables_of(app).store
        games = finished(store, "t1", games=3)
        ratings = Ratings(store.engine)
        for game, level in zip(games, ("easy", "medium", "hard"), strict=True):
            ratings.apply(game, [Placing("account:1", "Ana", 1, 4), Placing(f"bot:{level}", level, 2, 4)])
        whole = client.get("/api/leaderboard").json()
        assert whole["total"] == 4 and whole["offset"] == 0 and "PlackettLuce" in whole["model"]
        assert whole["rules"] == {"min_turns": 1, "repeats": 3, "window_hours": 24}
        assert [line["name"] for line in whole["lines"]][0] == "Ana"
        assert [line["place"] for line in whole["lines"]] == [1, 2, 3, 4]
        assert set(whole["lines"][0]) == {"place", "name", "kind", "rating", "mu", "sigma", "games"}
        assert whole["lines"][0] == {**whole["lines"][0], "kind": "person", "games": 3}
        bots = client.get("/api/leaderboard?kind=bot&offset=1&limit=1").json()
        assert bots["total"] == 3 and len(bots["lines"]) == 1 and bots["lines"][0]["place"] == 2
        assert bots["lines"][0]["kind"] == "bot"
        for bad in ("kind=admin", "offset=-1", "limit=0", "limit=100000", "offset=99999999999999999999"):
            refused = client.get(f"/api/leaderboard?{bad}")
            assert refused.status_code == 422, bad
            assert set(refused.json()) == {"code", "message"}, bad
        page = client.get("/leaderboard")
        assert page.status_code == 200 and "leaderboard.js" in page.text


def test_a_rated_table_seats_registered_people_and_rates_its_game_once(tmp_path: Path) -> None:
    """Ana (registered) against the `easy` bot at a rated table: a guest cannot create
    one or sit at it, no hint is offered, a bot level sits there once, and the game's
    end moves both ratings once, however many times the look for unrated games runs
    (the game's seed is the test's: a deal that would leave a player no turn to finish
    rates nobody)."""
    import random
    import time

    from tests.support.web_client import Conn, add_bot, careful, play_out, start
    from tests.web.test_web_accounts import app_client, login, register

    with app_client(tmp_path, seeds=lambda: 46) as guest:
        settings = {"players": 2, "advanced": False, "actions": False, "lang": "en", "name": "Gil", "rated": True}
        refused = guest.post("/api/tables", json=settings)
        assert refused.status_code == 403 and refused.json()["code"] == "rated-needs-account"
        assert register(guest, "ana").status_code == 200
        r = guest.post("/api/tables", json=settings)
        assert r.status_code == 200, r.text
        table_id, token = r.json()["id"], r.json()["token"]
        guest.cookies.clear()  # a guest again
        sit = guest.post(f"/api/tables/{table_id}/seats/1", json={"name": "Gil"})
        assert sit.status_code == 403 and sit.json()["code"] == "rated-needs-account"
        add_bot(guest, table_id, token, 1, "easy")
        again = guest.post(f"/api/tables/{table_id}/bots", json={"token": token, "seat": 1, "level": "easy"})
        assert again.status_code >= 400
        start(guest, table_id, token)
        with Conn(guest, table_id, token, 0) as ana:
            first = ana.until(lambda f: f["type"] == "table" and f["game"] is not None)
            assert first["table"]["rated"] is True and first["table"]["hints"] is False
            play_out([ana], careful(random.Random(5)))
        ratings = guest.app.state.parts.get(Ratings)  # type: ignore[attr-defined]

        def rated_lines() -> list[tuple[str, str, int]]:
            lines, _total = ratings.board(0, 10)
            return sorted((line.kind, line.name, line.games) for line in lines)

        deadline = 60.0
        began = time.monotonic()
        while rated_lines() != [("bot", "easy", 1), ("person", "ana", 1)]:
            assert time.monotonic() - began < deadline, rated_lines()
            time.sleep(0.05)
        # nothing is left for the look for unrated games (after a restart, or another process's)
        assert ratings.unrated() == []
        assert rated_lines() == [("bot", "easy", 1), ("person", "ana", 1)]
        board = guest.get("/api/leaderboard").json()
        assert {line["name"] for line in board["lines"]} == {"ana", "easy"}
        # Ana's profile shows her line
        assert login(guest, "ana").status_code == 200
        mine = guest.get("/api/account/games").json()
        ana_line = next(line for line in board["lines"] if line["name"] == "ana")
        assert mine["rating"] == {"place": ana_line["place"], "rating": ana_line["rating"], "games": 1}
        assert len(mine["games"]) == 1


# --- the rules that keep the ratings for games played (red7.web.ratings.eligibility) ---------


def concede_at_once(config: Config, conceders: set[int], seed: int) -> Game:
    """A game in which the seats of ``conceders`` concede at each of their decisions and
    the others play ``medium``'s decisions, to its end."""
    game, bot, rng = Game(config=config, seed=seed), make_bot("medium"), random.Random(seed)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply("concede" if seat in conceders else bot.choose(game.observe(seat), game.options(), rng))
    return game


def test_a_player_who_conceded_at_the_first_decision_finished_no_turn_in_any_round() -> None:
    two = concede_at_once(Config(2), {1}, seed=4)
    assert finished_turns(two)[1] == 0
    # the advanced game: a concession at the first decision of every round of the match
    match = concede_at_once(Config(2, advanced=True), {0}, seed=4)
    assert match.round > 2 and finished_turns(match)[0] == 0 and finished_turns(match)[1] > 0
    # three players: the two who played are placed among themselves
    three = concede_at_once(Config(3), {2}, seed=4)
    turns, ranks = finished_turns(three), ranks_of(three)
    assert turns[2] == 0 and min(turns[:2]) >= 1 and ranks[2] == 3
    places = [Placing(f"account:{s}", f"P{s}", rank, turns[s]) for s, rank in enumerate(ranks)]
    assert sorted((p.identity, p.rank) for p in played(places)) == [("account:0", ranks[0]), ("account:1", ranks[1])]


START = datetime(2026, 12, 8, 20, 0, tzinfo=UTC)


class Moment:
    """The time the ratings read, set by the test."""

    def __init__(self) -> None:
        self.at = START

    def __call__(self) -> datetime:
        return self.at


def rates(ratings: Ratings, game: int, *who: tuple[str, int]) -> Verdict | None:
    """Rate ``game``, its players ``(identity, turns finished)`` placed in that order."""
    return ratings.apply(game, [Placing(name, name, rank, turns) for rank, (name, turns) in enumerate(who, 1)])


def test_a_game_in_which_fewer_than_two_players_finished_a_turn_is_claimed_and_moves_nothing(store: Store) -> None:
    ratings = Ratings(store.engine)
    games = finished(store, "t1", games=3)
    assert rates(ratings, games[0], ("account:1", 1), ("account:2", 0)) is Verdict.UNPLAYED
    assert rates(ratings, games[0], ("account:1", 1), ("account:2", 0)) is None  # claimed: once
    assert rates(ratings, games[1], ("account:1", 0), ("account:2", 0)) is Verdict.UNPLAYED
    assert ratings.unrated() == [("t1", 3)]  # the look takes up none of them again
    assert [ratings.verdict(game) for game in games] == [Verdict.UNPLAYED, Verdict.UNPLAYED, None]
    assert ratings.board(0, 10) == ([], 0)
    assert ratings.of("account:1") is None and ratings.of("account:2") is None
    # a player who finished no turn is left out; the two others are rated among themselves
    assert rates(ratings, games[2], ("account:3", 0), ("account:1", 2), ("bot:easy", 3)) is Verdict.RATED
    expected = rated([first_skill(), first_skill()], [1, 2])
    ana, bot = ratings.of("account:1"), ratings.of("bot:easy")
    assert ana is not None and bot is not None and ratings.of("account:3") is None
    assert (ana.mu, ana.sigma, ana.games) == pytest.approx((expected[0].mu, expected[0].sigma, 1))
    assert (bot.mu, bot.sigma, bot.games) == pytest.approx((expected[1].mu, expected[1].sigma, 1))
    assert ratings.board(0, 10)[1] == 2


def test_the_same_two_people_are_rated_together_at_most_three_times_a_day(store: Store) -> None:
    clock = Moment()
    ratings = Ratings(store.engine, clock)
    games = iter(finished(store, "t1", games=18))
    ana, bia, cy = ("account:1", 3), ("account:2", 3), ("account:3", 3)
    for _ in range(5):  # games that rate nobody count for nothing
        assert rates(ratings, next(games), ana, ("account:2", 0)) is Verdict.UNPLAYED
    for hour in range(REPEATS):
        clock.at = START + timedelta(hours=hour)
        assert rates(ratings, next(games), ana, bia) is Verdict.RATED
    before = ratings.board(0, 10)
    clock.at = START + timedelta(hours=23)
    assert rates(ratings, next(games), bia, ana) is Verdict.REPEATED
    assert rates(ratings, next(games), cy, ana, bia) is Verdict.REPEATED  # two of its people are the pair
    assert ratings.board(0, 10) == before
    assert ratings.of("account:3") is None  # its line, made for the game, shows no game
    assert rates(ratings, next(games), cy, ana) is Verdict.RATED  # another pair
    # bots are not counted: a person plays a level as often as they like
    for _ in range(REPEATS + 2):
        assert rates(ratings, next(games), ana, ("bot:hard", 3)) is Verdict.RATED
    # a day after the first of the three, one of them has left the window
    clock.at = START + WINDOW
    assert rates(ratings, next(games), ana, bia) is Verdict.RATED
    clock.at = START + WINDOW + timedelta(minutes=1)
    assert rates(ratings, next(games), ana, bia) is Verdict.REPEATED
    lines = {line.name: line.games for line in ratings.board(0, 10)[0]}
    assert lines == {
        "account:1": REPEATS + 1 + 1 + REPEATS + 2,
        "account:2": REPEATS + 1,
        "account:3": 1,
        "bot:hard": 5,
    }


def test_the_games_of_one_pair_rated_at_once_are_counted_one_after_the_other(store: Store) -> None:
    """Eight threads (each its own connection, as eight processes would be) rate eight
    games of the same two people at once: three are rated, five are not."""
    ratings = Ratings(store.engine)
    games = finished(store, "t1", games=8)
    answers: list[Verdict | None] = []
    barrier = threading.Barrier(8)

    def rate(game: int) -> None:
        barrier.wait(timeout=60)
        answers.append(rates(ratings, game, ("account:1", 2), ("account:2", 2)))

    threads = [threading.Thread(target=rate, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
        assert not thread.is_alive()
    assert (answers.count(Verdict.RATED), answers.count(Verdict.REPEATED)) == (REPEATS, 8 - REPEATS)
    ana = ratings.of("account:1")
    assert ana is not None and ana.games == REPEATS
