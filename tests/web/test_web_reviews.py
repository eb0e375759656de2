"""The review of a finished web game (red7.web.reviews.reviews): refused while the game is
played, worked out once per game (a second asker gets the same one, with how far it is),
kept (in the database: another app on it serves it without working it out), limited
per client; the review of the terminal game, in each reader's language (else the
table's), kept in every language and through migration 0018. In-process app
(two real processes: tests/web/services/test_web_cluster_club.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient

from red7.bots import make_bot
from red7.bots.base import Appraiser
from red7.core.record import initial, replay
from red7.play.session import Session
from red7.play.table import Seat, Table
from red7.ui.i18n import using
from red7.ui.words import review_text
from red7.web.protocol import read
from red7.web.reviews.hints import HINT_BOT
from red7.web.reviews.reviews import Review, Reviews, StoredReviews
from red7.web.reviews.wire import ReviewView
from red7.web.storage.store import alembic_config
from red7.web.table.frames import Replay
from tests.support.web_client import Conn, join, make_app, my_turn, new_table, start, tables_of


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path)) as client:
        yield client


def played_table(client: TestClient, lang: str = "en", finish: bool = True) -> str:
    """A 2-player basic game between Ana and Bia, finished by a concession (R4.2: the
    basic game has one round) unless ``finish`` is false; the table's id."""
    table_id, ana = new_table(client, lang=lang)
    bia = join(client, table_id, 1, "Bia")
    conns = [Conn(client, table_id, ana, 0), Conn(client, table_id, bia, 1)]
    start(client, table_id, ana)
    for conn in conns:
        conn.until(lambda f: f["type"] == "table" and f["game"] is not None)
    if finish:
        mover = next(conn for conn in conns if my_turn(conn.last))
        mover.decide("concede")
        mover.until(lambda f: f["type"] == "table" and f["game"]["over"] is not None)
    for conn in conns:
        conn.close()
    return table_id


def review_of(client: TestClient, table_id: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table_id}/games/1/review", headers=headers or {})
    assert r.status_code == 200, r.text
    read(ReviewView, r.text)
    data: dict[str, Any] = r.json()
    return data


def until_done(client: TestClient, table_id: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while (answer := review_of(client, table_id, headers))["status"] == "working":
        assert time.monotonic() < deadline, answer
        time.sleep(0.05)  # polling a condition, as the page does (every second)
    return answer


def test_a_game_still_played_has_no_review(client: TestClient) -> None:
    table_id = played_table(client, "pt-BR", finish=False)
    r = client.get(f"/api/tables/{table_id}/games/1/review")
    assert r.status_code == 409 and r.json()["code"] == "not-over"
    assert r.json()["message"] == "A revisão aparece quando o jogo termina."
    assert client.get(f"/api/tables/{table_id}/games/7/review").status_code == 404


@pytest.mark.parametrize(
    ("table", "reader", "lang", "words"),
    [
        ("en", None, "en", "1. Round 1, turn 1, "),
        ("pt-BR", None, "pt-BR", "1. Rodada 1, turno 1, "),
        ("en", "pt-BR,pt;q=0.9", "pt-BR", "1. Rodada 1, turno 1, "),
        ("pt-BR", "en-GB", "en", "1. Round 1, turn 1, "),
    ],
)
def test_the_review_is_the_terminal_games_in_the_readers_language(
    client: TestClient, table: str, reader: str | None, lang: str, words: str
) -> None:
    """A game a concession ended at once: the solver values its only decision (two
    players, no card to draw): the page's text is the terminal game's review of the
    game's record, word for word, in the reader's language (the page's ``Accept-Language``;
    none the server speaks: the table's): a verdict on it, opened by its number (the step
    of the replay the page links it to)."""
    table_id = played_table(client, table)
    answer = until_done(client, table_id, {"Accept-Language": reader} if reader else None)
    assert answer["lang"] == lang and answer["total"] == answer["done"] == 1
    # the very words the terminal game's review gives for this game (its record)
    record = client.get(f"/api/tables/{table_id}/games/1/record").json()
    game = replay(record)
    session = Session(Table.around(game, [Seat("Ana"), Seat("Bia")]))
    bot = make_bot(HINT_BOT)
    assert isinstance(bot, Appraiser)
    with using(lang):
        expected = review_text(session.review(bot, [0, 1]), ["Ana", "Bia"], seats={0, 1})
    assert answer["text"] == expected
    assert expected.startswith(words)


def test_one_review_worked_out_is_worded_for_every_reader(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """An English reader starts the review of a pt-BR table; a Portuguese one, then one
    whose browser speaks neither language, get the same review, worked out once: in
    Portuguese for both (the table's language for the second)."""
    calls: list[int] = []
    real_review = Session.review

    def counted(self: Session, *args: Any) -> Any:
        calls.append(1)
        return real_review(self, *args)

    monkeypatch.setattr(Session, "review", counted)
    table_id = played_table(client, "pt-BR")
    english = until_done(client, table_id, {"Accept-Language": "en"})
    portuguese = review_of(client, table_id, {"Accept-Language": "pt-BR"})
    other = review_of(client, table_id, {"Accept-Language": "de-DE"})
    assert english["lang"] == "en" and english["text"].startswith("1. Round 1, turn 1, ")
    assert portuguese == other != english
    assert portuguese["lang"] == "pt-BR" and portuguese["text"].startswith("1. Rodada 1, turno 1, ")
    assert calls == [1]


def test_one_computation_per_game_with_its_progress_and_kept(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review is held half-way (3 of 10) until the test lets it go: every asker sees
    that progress of the one computation; once done, it is kept (not worked out again)."""
    release = threading.Event()
    calls: list[int] = []
    real_review = Session.review

    def held(self: Session, bot: Any = None, seats: Any = None, progress: Any = None) -> Any:
        calls.append(1)
        progress(3, 10)
        assert release.wait(60), "the test never let the review go"
        return real_review(self, bot, seats, progress)

    monkeypatch.setattr(Session, "review", held)
    table_id = played_table(client)
    deadline = time.monotonic() + 60
    while (first := review_of(client, table_id))["done"] != 3:
        assert time.monotonic() < deadline, first
        time.sleep(0.05)
    assert first == {"status": "working", "lang": "en", "done": 3, "total": 10, "text": None}
    assert review_of(client, table_id, {"X-Forwarded-For": "10.0.0.9"}) == first  # another asker, the same one
    release.set()
    done = until_done(client, table_id)
    assert done["status"] == "done" and done["text"]
    assert review_of(client, table_id) == done
    assert calls == [1]


def test_a_review_kept_in_the_database_is_served_by_another_app_without_working_it_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One app (a process) works the review out and keeps it; a second app on the same
    database (another process, or the first one restarted) answers it at once, the
    same answer, and works nothing out (a review worked out there would fail here)."""
    with TestClient(make_app(tmp_path)) as first:
        table_id = played_table(first)
        done = until_done(first, table_id)
    assert done["status"] == "done" and done["total"] == done["done"] == 1

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the review was worked out again")

    monkeypatch.setattr(Session, "review", never)
    with TestClient(make_app(tmp_path)) as second:
        assert review_of(second, table_id) == done
        assert review_of(second, table_id, {"X-Forwarded-For": "10.0.0.9"}) == done
        metrics = second.get("/metrics").text
        assert "red7_reviews_worked_out_total 0.0" in metrics


def test_the_first_review_kept_stays_and_a_later_one_changes_nothing(client: TestClient) -> None:
    """Two processes finishing the same review: the first one in is kept, the second
    insert changes nothing and is told the kept one; a game that is not there: refused."""
    table_id = played_table(client)
    stored = StoredReviews(tables_of(client.app).store.engine)  # type: ignore[attr-defined]
    assert stored.find(table_id, 1) is None
    texts = {"en": "first", "pt-BR": "primeira"}
    first = stored.keep(table_id, 1, Review(4, 4, texts))
    assert first == Review(4, 4, texts)
    assert stored.keep(table_id, 1, Review(5, 5, {"en": "second", "pt-BR": "segunda"})) == first
    assert stored.find(table_id, 1) == first
    with pytest.raises(LookupError):
        stored.keep(table_id, 2, Review(1, 1, {"en": "none"}))
    assert review_of(client, table_id) == first.json("en")  # what the page is answered
    assert review_of(client, table_id, {"Accept-Language": "pt-BR"}) == first.json("pt-BR")


def test_a_review_kept_in_one_language_before_0018_is_served_in_it(tmp_path: Path) -> None:
    """A review kept in both languages; the database taken down to 0017 (one review a
    game: the one in its table's language stays) and up again: every reader is served
    the kept one in the table's language, and no process works it out again."""
    with TestClient(make_app(tmp_path)) as client:
        table_id = played_table(client, "pt-BR")
        store = tables_of(client.app).store  # type: ignore[attr-defined]
        StoredReviews(store.engine).keep(table_id, 1, Review(2, 2, {"en": "in English", "pt-BR": "em português"}))
        with store.engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0017")
        with store.engine.begin() as connection:
            command.upgrade(alembic_config(connection), "head")
        kept = StoredReviews(store.engine).find(table_id, 1)
        assert kept == Review(2, 2, {"pt-BR": "em português"})
        for reader in ("en", "pt-BR"):
            answer = review_of(client, table_id, {"Accept-Language": reader})
            assert answer == {"status": "done", "lang": "pt-BR", "done": 2, "total": 2, "text": "em português"}


def test_one_client_cannot_start_many_reviews(client: TestClient) -> None:
    """Starting a review counts against the client's share (here one); asking again for
    one already started does not."""
    client.app.state.parts.add(Reviews, Reviews(rate=1e-6, burst=1))  # type: ignore[attr-defined]
    first, second = played_table(client), played_table(client)
    until_done(client, first)
    r = client.get(f"/api/tables/{second}/games/1/review")
    assert r.status_code == 429 and r.json()["code"] == "too-many-reviews"
    assert review_of(client, first)["status"] == "done"


def test_the_replay_shows_every_hand_only_once_the_game_is_over_R9(client: TestClient) -> None:
    """``?hands=all`` is refused while the game is played (and no replay frame has
    ``hands`` unasked); once it is over every frame has every seat's hand as it was."""
    playing = played_table(client, finish=False)
    r = client.get(f"/api/tables/{playing}/games/1/replay?hands=all")
    assert r.status_code == 409 and r.json()["code"] == "not-over"
    assert all(
        "hands" not in frame["game"] for frame in client.get(f"/api/tables/{playing}/games/1/replay").json()["frames"]
    )
    over = played_table(client)
    r = client.get(f"/api/tables/{over}/games/1/replay?hands=all")
    assert r.status_code == 200, r.text
    read(Replay, r.text)
    frames = r.json()["frames"]
    record = client.get(f"/api/tables/{over}/games/1/record").json()
    first = initial(record)
    assert [{c["id"] for c in hand} for hand in frames[0]["game"]["hands"]] == [set(first.hand(s)) for s in (0, 1)]
    assert all(len(frame["game"]["hands"]) == 2 for frame in frames)
