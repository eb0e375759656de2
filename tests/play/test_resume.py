"""Saving and resuming an unfinished game (issue 10): records keep who sat where (the
optional ``seats`` field; version 1 records without it still load and replay), the
terminal game keeps the game in progress in a file of its own until it ends, quitting
says so and how to go on, and ``red7 play --resume [FILE]`` takes it up with the same
seats.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from red7 import Game
from red7.bots import make_bot
from red7.core.actions import Action
from red7.core.cards import Card
from red7.core.events import CardDrawn, RoundOver
from red7.core.model import Config, Step
from red7.core.record import RecordError, SeatRecord, replay, seats_of, to_record
from red7.core.seeds import LEGACY_DEAL
from red7.play.records import last_unfinished, load, save, unfinished_dir
from red7.play.saving import Saver
from red7.play.session import BotTurn, GameEnd, Moment, PersonTurn, RoundEnd, Session
from red7.play.table import Seat, Table
from red7.ui.i18n import _, set_language
from red7.ui.tui.app import PlayApp
from red7.ui.tui.screens import Choice, Pass
from red7.ui.words import card_label, move_log
from tests.support.helpers import make, run_main
from tests.support.tui_driver import hand_drawn, near_the_end, play_until, run, screen_lines, settle, texts
from tests.ui.test_tui_features import Scripted


def seats(*specs: str | None, names: tuple[str, ...] = ()) -> list[Seat]:
    """People (None) and bots (their spec), people named from ``names`` in order."""
    given = iter(names)
    return [Seat(next(given, "")) if spec is None else Seat("", make_bot(spec), spec) for spec in specs]


def play(session: Session, rng: random.Random, until: Callable[[Session], bool], saver: Saver | None = None) -> None:
    """Drive ``session``: bots answer, the person takes a random safe decision; ``saver``
    writes what the session reports to persist, as the front ends do."""
    while not until(session):
        moment = session.next()
        if saver is not None:
            saver.keep(session)
        if isinstance(moment, GameEnd):
            return
        if isinstance(moment, BotTurn):
            session.apply_bot(moment.choose())
        elif isinstance(moment, PersonTurn):
            options = session.table.options()
            safe = [o.action for o in options if o.safe] or [options[-1].action]
            session.decide(rng.choice(safe))


# --- records keep the seats --------------------------------------------------------------------


def test_a_record_keeps_the_seats_and_reads_them_back(tmp_path: Path) -> None:
    table = Table(seats(None, "easy", "medium", names=("Ana",)), Config(3, advanced=True), seed=4)
    play(Session(table), random.Random(1), lambda s: s.table.game.decisions >= 3)
    record = load(table.save(tmp_path / "r.json"))
    assert (record["version"], record["deal"]) == (2, "splitmix64")
    assert record["seats"] == [{"name": "Ana", "bot": None}, {"name": "", "bot": "easy"}, {"name": "", "bot": "medium"}]
    assert seats_of(record) == [SeatRecord("Ana"), SeatRecord("", "easy"), SeatRecord("", "medium")]
    replay(record)


def test_an_old_record_without_seats_still_loads_and_replays(tmp_path: Path) -> None:
    """A record saved without seats, as version 1 wrote them before seats existed (no
    ``deal`` either: random.Random dealt it), loads and replays; one saved without seats
    now has the same keys and the generator that dealt it."""
    game = Game(2, seed=3, deal=LEGACY_DEAL)
    while not game.is_over:
        safe = game.safe_actions()
        game.apply(safe[0] if safe else "concede")
    path = save(game, tmp_path / "old.json")
    record = load(path)
    assert "seats" not in record and (record["version"], record["deal"]) == (2, LEGACY_DEAL)
    assert list(record) == ["format", "version", "config", "seed", "deal", "decisions", "result"]
    old = {"format": "red7-record", "version": 1, **{k: record[k] for k in ("config", "seed", "decisions", "result")}}
    path.write_text(json.dumps(old))  # exactly the format of before: the same keys, in the same order
    record = load(path)
    assert seats_of(record) is None
    assert replay(record).result == game.result


@pytest.mark.parametrize(
    "bad",
    [
        "easy",
        [{"name": "Ana", "bot": None}],  # one seat for two players
        [{"name": 3, "bot": None}, {"name": "", "bot": "easy"}],
        [{"name": "", "bot": ""}, {"name": "", "bot": "easy"}],
        ["Ana", "Bia"],
    ],
)
def test_a_malformed_seats_field_is_refused(bad: object) -> None:
    record = to_record(Game(2, seed=3))
    record["seats"] = bad
    with pytest.raises(RecordError, match="seat"):
        replay(record)


def test_to_record_refuses_seats_that_do_not_match_the_players() -> None:
    with pytest.raises(ValueError, match="1 seats for a game of 2 players"):
        to_record(Game(2, seed=3), [SeatRecord("Ana")])


# --- a table from an unfinished record ------------------------------------------------------------


def test_an_unfinished_game_resumes_with_its_seats_and_decisions(tmp_path: Path) -> None:
    table = Table(seats(None, "easy", "medium", names=("Ana",)), Config(3, advanced=True), seed=4)
    play(Session(table), random.Random(1), lambda s: s.table.game.decisions >= 12)
    path = table.save(tmp_path / "g.json")
    resumed = Table.resume(load(path))
    assert resumed.game.fingerprint() == table.game.fingerprint()
    assert [(s.name, s.spec, s.is_person) for s in resumed.seats] == [
        ("Ana", None, True),
        ("", "easy", False),
        ("", "medium", False),
    ]
    assert resumed.seed == table.seed and resumed.config == table.config


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("finished", "the game is over"),
        ("no seats", "does not say who sat at the table"),
        ("bad bot", "a seat's bot cannot be made"),
    ],
)
def test_a_record_that_cannot_be_resumed_says_why(change: str, says: str) -> None:
    game = Game(2, seed=3)
    game.apply(game.safe_actions()[0])
    if change == "finished":
        while not game.is_over:
            safe = game.safe_actions()
            game.apply(safe[0] if safe else "concede")
    record = to_record(game, [SeatRecord("Ana"), SeatRecord("", "easy")])
    if change == "no seats":
        del record["seats"]
    if change == "bad bot":
        record["seats"][1]["bot"] = "nobody-knows-me"
    with pytest.raises(RecordError, match=says):
        Table.resume(record)


# --- the session keeps the game in progress -----------------------------------------------------


def test_the_autosave_holds_every_decision_that_cannot_be_taken_back(tmp_path: Path) -> None:
    """After each turn the file holds the game so far; a staged decision (which may
    still be taken back) is not in it; the game's end removes it."""
    file = tmp_path / "unfinished" / "g.json"
    game = make(["R7 B3 G1", "Y2 O1"], ["O6", "Y5"])
    table = Table.around(game, [Seat("Ana"), Seat("", make_bot("easy"), "easy")])
    session, saver = Session(table), Saver(autosave=file)

    def next_moment() -> Moment:
        moment = session.next()
        saver.keep(session)
        return moment

    assert isinstance(next_moment(), PersonTurn) and not file.exists()  # nothing decided yet
    assert saver.autosaved is None
    session.decide("play R7")
    assert isinstance(next_moment(), PersonTurn)
    assert not file.exists()  # "play R7" is staged: it may still be taken back
    session.decide("end")
    moment = next_moment()
    assert isinstance(moment, BotTurn)
    assert load(file)["decisions"] == ["play R7", "end"] and saver.autosaved == file
    assert load(file)["seats"] == [{"name": "Ana", "bot": None}, {"name": "", "bot": "easy"}]
    session.apply_bot(moment.choose())
    while not isinstance(moment := next_moment(), GameEnd):
        if isinstance(moment, BotTurn):
            session.apply_bot(moment.choose())
        else:
            if session.table.staged == [] and session.table.game.step_name == "start":
                assert load(file)["decisions"] == [str(a) for _, a in session.table.game.history]
            options = session.table.options()
            session.decide(next((o.action for o in options if o.safe), options[-1].action))
    assert not file.exists() and saver.autosaved is None  # the game is over: nothing to resume


def test_a_card_drawn_is_saved_at_once_so_a_resumed_turn_cannot_peek(tmp_path: Path) -> None:
    """A 3 draws an unknown card (R7.3): that decision cannot be taken back, so the
    file holds it at once; resuming goes on from after the draw."""
    file = tmp_path / "g.json"
    game = make(["Y3 B2", "G1"], ["O6", "Y5"], deck="R7 V1", actions=True)
    session, saver = (
        Session(Table.around(game, [Seat("Ana"), Seat("", make_bot("easy"), "easy")])),
        Saver(autosave=file),
    )
    session.next()
    saver.keep(session)
    session.decide("play Y3")
    assert session.table.staged == []
    session.next()
    saver.keep(session)
    assert load(file)["decisions"] == ["play Y3"]


def test_a_failed_autosave_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    table = Table(seats(None, "easy"), seed=3)
    session, saver = Session(table), Saver(autosave=blocker / "g.json")
    play(session, random.Random(2), lambda s: s.table.game.decisions >= 3 or s.table.is_over, saver)
    assert saver.autosave_error is not None and saver.autosaved is None


def test_a_resumed_session_reports_only_what_happens_next(tmp_path: Path) -> None:
    """Resumed after round 1 ended, the session does not report that round's end again
    and still ends the game with its last round."""
    table = Table(seats(None, "easy"), Config(2, advanced=True), seed=5)
    session = Session(table)
    play(session, random.Random(3), lambda s: bool(s.table.game.round_results) and s.table.person_to_move)
    path = table.save(tmp_path / "g.json")
    resumed = Session(Table.resume(load(path)), resumed=True)
    moments = []
    rng = random.Random(4)
    while not isinstance(moment := resumed.next(), GameEnd):
        moments.append(moment)
        if isinstance(moment, BotTurn):
            resumed.apply_bot(moment.choose())
        elif isinstance(moment, PersonTurn):
            options = resumed.table.options()
            resumed.decide(rng.choice([o.action for o in options if o.safe] or [options[-1].action]))
    rounds = [m.over.round for m in moments if isinstance(m, RoundEnd)]
    overs = [e for e in resumed.table.game.events if isinstance(e, RoundOver)]
    assert 1 not in rounds and rounds == [o.round for o in overs[1:-1]]
    assert moment.last_round == overs[-1]


def test_the_last_unfinished_game_is_the_one_saved_last(tmp_path: Path) -> None:
    assert last_unfinished(tmp_path / "none") is None
    older, newer = tmp_path / "b.json", tmp_path / "a.json"
    older.write_text("{}")
    newer.write_text("{}")
    os.utime(older, (1_000_000, 1_000_000))
    assert last_unfinished(tmp_path) == newer
    assert unfinished_dir(tmp_path) == tmp_path / "unfinished"


# --- the terminal game: saved as it goes, quitting says how to go on ---------------------------------


def three_player_table() -> Table:
    return Table(seats(None, "easy", "medium", names=("Ana",)), Config(3, advanced=True), seed=9)


def three_player_app(autosaves: Path, **kwargs: Any) -> PlayApp:
    return PlayApp(
        three_player_table,
        bot_delay=0,
        hint="easy",
        autosaves=autosaves,
        **kwargs,
    )


@pytest.mark.parametrize(
    "whole", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["near-the-end", "whole-match"]
)
def test_quitting_a_three_player_match_says_it_is_saved_and_it_resumes_as_it_was(tmp_path: Path, whole: bool) -> None:
    """Quit early in the match (its whole match in the full tier), or a few decisions into
    a table resumed near the match's end (the fast tier: the resumed game goes on to the
    end through the pilot)."""
    autosaves = tmp_path / "unfinished"
    start = None if whole else near_the_end(three_player_table, left=40, seed=3)
    quit_at = 10 if start is None else start.game.decisions + 2
    app = three_player_app(autosaves, resume=start)
    at_quit: list[tuple[Any, ...]] = []

    def turn_begins(a: PlayApp) -> bool:  # the person's turn, nothing of it staged yet
        return a.my_turn() and not a.table.staged and a.table.game.decisions >= quit_at

    async def script(pilot: Any) -> None:
        await play_until(pilot, turn_begins, seed=3)
        await pilot.press("q")
        assert app.screen.id == "confirm-quit"
        file = app.saver.autosave
        assert file is not None and file.parent == autosaves and file.exists()
        body = texts(app, app.screen)
        assert f"The game so far is saved to:\n{file}" in body
        assert "Continue it later with: red7 play --resume" in body
        assert "will not be saved" not in body
        at_quit.append((file, app.table.game.fingerprint()))
        await pilot.press("enter")
        assert app.closing

    run(app, script)
    file, fingerprint = at_quit[0]
    table = Table.resume(load(file))
    assert table.game.fingerprint() == fingerprint  # the person's turn, as it began
    assert [s.spec for s in table.seats] == [None, "easy", "medium"] and table.seats[0].name == "Ana"

    # resumed: the same seats and names on the screen, the game goes on and its end removes the file
    again = three_player_app(autosaves, resume=table, resumed_from=file)

    async def resume(pilot: Any) -> None:
        await settle(pilot)
        assert again.saver.autosave == file and again.names == ["Ana", "Bot 2", "Bot 3"]
        assert again.table.game.decisions == len(load(file)["decisions"])
        await play_until(pilot, lambda a: isinstance(a.screen, Choice) and a.screen.id == "game-over", seed=4)
        assert not file.exists()

    run(again, resume)


def own_draws(table: Table, seat: int) -> list[Card]:
    """The cards ``seat`` drew from the unknown deck so far (only they know them, R9)."""
    return [
        e.card
        for e in table.events_for(seat)
        if isinstance(e, CardDrawn) and e.seat == seat and e.card is not None and not e.public
    ]


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_resumed_hotseat_game_opens_with_a_pass_screen_that_tells_nobody_a_drawn_card(
    lang: str, tmp_path: Path
) -> None:
    """Ana and Bia (advanced, action cards, seed 1): Bia drew a card from the deck on an
    earlier turn, and the game, saved, resumes at the start of her turn. It opens with
    the pass screen naming Bia, no hand behind it, and what happened since her last
    turn as a spectator sees it (issue 34: it once told nothing; the board's log holds
    the game before), and her hand shows once she says she is there. The pass screen
    once told the whole game as Bia sees it, her draw ("Bia: drew V7") included, to
    whoever held the device."""
    set_language(lang)
    table = Table(seats(None, None, names=("Ana", "Bia")), Config(2, advanced=True, actions=True), seed=1)

    def at_a_turn_after_a_draw(session: Session) -> bool:
        t = session.table
        return (
            t.current is not None
            and not t.staged
            and t.observe(t.current).step is Step.START
            and bool(own_draws(t, t.current))
        )

    play(Session(table), random.Random(1), at_a_turn_after_a_draw)
    assert table.current == 1 and not table.game.is_over
    drawn = own_draws(table, 1)
    path = table.save(tmp_path / "game.json")
    resumed = Table.resume(load(path))
    app = PlayApp(lambda: resumed, hotseat=True, bot_delay=0, hint="easy", resume=resumed, resumed_from=path)

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert isinstance(app.screen, Pass) and app.screen.person == "Bia"
        lines = "\n".join(screen_lines(app))
        assert hand_drawn(app) is None, hand_drawn(app)
        for card in drawn:
            assert _("drew {card}").format(card=card_label(card)) not in lines, lines
        news = move_log(resumed.events_for(None, resumed.turns_seen()[1]), app.names)
        assert news and all(line in lines for line in [_("Since your last turn:"), *news]), (news, lines)
        await pilot.press("enter")
        await settle(pilot)
        assert app.my_turn() and app.viewer == 1 and hand_drawn(app) is not None

    run(app, script)


def round_two_app(autosaves: Path) -> PlayApp:
    """Bia (a bot) concedes round 1 of an advanced match; Ana begins round 2 (seed 2)
    with safe plays to choose from (Y1, G3...)."""
    game = Game.from_position([["G1", "B2"], ["Y3", "R6"]], [["O6"], ["Y5"]], current=1, advanced=True, seed=2)
    return PlayApp(
        lambda: Table.around(game, [Seat("Ana"), Seat("Bia", Scripted("concede", then=make_bot("easy")), "easy")]),
        bot_delay=0,
        hint="easy",
        autosaves=autosaves,
    )


def test_quit_with_a_play_staged_says_it_is_saved_but_the_play_is_not(tmp_path: Path) -> None:
    app = round_two_app(tmp_path)

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert app.screen.id == "round-over"
        await pilot.press("enter")
        await settle(pilot)
        assert app.my_turn() and app.table.game.round == 2
        await pilot.press(str(app.numbered().index(Card.parse("Y1")) + 1), "p")
        assert app.table.staged == [Action.parse("play Y1")]
        await pilot.press("q")
        body = texts(app, app.screen)
        file = app.saver.autosave
        assert file is not None and f"The game so far is saved to:\n{file}" in body
        assert "What you can still take back this turn is not kept." in body
        assert load(file)["decisions"] == ["concede"]  # without the staged play

    run(app, script)


def test_quitting_before_anything_is_decided_says_nothing_is_saved(tmp_path: Path) -> None:
    app = PlayApp(
        lambda: Table.around(make(["R7 B3", "G1"], ["O6", "Y5"]), [Seat("Ana"), Seat("Bia", make_bot("easy"), "easy")]),
        bot_delay=0,
        hint="easy",
        autosaves=tmp_path,
    )

    async def script(pilot: Any) -> None:
        await pilot.press("q")
        assert "The game in progress will not be saved." in texts(app, app.screen)

    run(app, script)


def test_ctrl_q_asks_before_throwing_the_game_away() -> None:
    app = PlayApp(
        lambda: Table.around(make(["R7 B3", "G1"], ["O6", "Y5"]), [Seat("Ana"), Seat("Bia", make_bot("easy"), "easy")]),
        bot_delay=0,
        hint="easy",
    )

    async def script(pilot: Any) -> None:
        await pilot.press("ctrl+q")
        assert app.screen.id == "confirm-quit" and not app.closing
        await pilot.press("escape")
        assert app.screen.id != "confirm-quit" and not app.closing
        await pilot.press("ctrl+q", "ctrl+q")  # pressed twice: quit
        assert app.closing

    run(app, script)


def test_a_failed_autosave_says_quitting_loses_the_game(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    app = round_two_app(blocker)

    async def script(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("q")
        body = texts(app, app.screen)
        assert "The game could not be saved (" in body and "): if you quit, it is lost." in body

    run(app, script)


# --- the command line ---------------------------------------------------------------------------------


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's data directory, under tmp_path (records_dir follows XDG_DATA_HOME)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return tmp_path / "xdg" / "red7" / "records" / "unfinished"


def unfinished_record(path: Path, seed: int = 6, decisions: int = 8) -> Path:
    table = Table(seats(None, "easy", "easy"), Config(3, advanced=True), seed=seed)
    play(Session(table), random.Random(seed), lambda s: s.table.game.decisions >= decisions)
    return table.save(path)


def test_resume_without_an_unfinished_game_says_so(data_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(["play", "--resume"], capsys)
    assert code == 2 and err.startswith("red7: error: --resume: there is no unfinished game to resume in ")
    assert err.count("\n") == 1


@pytest.mark.parametrize("extra", [["--bots", "easy"], ["--players", "3"], ["--seed", "3", "--advanced"]])
def test_resume_refuses_options_that_set_up_a_new_game(
    extra: list[str], data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_main(["play", "--resume", *extra], capsys)
    assert code == 2 and err.startswith(
        "red7: error: --resume: the record says who plays and by which rules; leave out"
    )
    assert extra[0] in err


def test_resume_of_an_old_record_without_seats_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(2, seed=3)
    game.apply(game.safe_actions()[0])
    path = save(game, tmp_path / "old.json")  # without seats
    code, out, err = run_main(["play", "--resume", str(path)], capsys)
    assert code == 2 and err.startswith(f"red7: error: --resume: {path} cannot be resumed (the record does not say")
    assert err.count("\n") == 1


def test_resume_in_the_text_game_goes_on_and_removes_the_autosave(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``red7 play --resume`` (no FILE) takes the last unfinished game; played to its end
    (answering 1, the first option, always legal), its autosave is gone and the finished
    record is saved with its seats."""
    import io

    older = unfinished_record(data_home / "older.json", seed=2)
    os.utime(older, (1_000_000, 1_000_000))
    file = unfinished_record(data_home / "last.json")
    decisions = load(file)["decisions"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\ny\n" * 5000))
    code, out, err = run_main(["play", "--resume", "--save", str(data_home.parent / "done.json")], capsys)
    assert code == 0 and err == ""
    assert not file.exists() and older.exists()
    done = load(data_home.parent / "done.json")
    assert done["decisions"][: len(decisions)] == decisions and done["result"] is not None
    assert done["seats"] == [{"name": "", "bot": None}, {"name": "", "bot": "easy"}, {"name": "", "bot": "easy"}]


def test_resume_in_the_terminal_opens_the_game_with_its_seats(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line hands the terminal game the resumed table, the file to go on
    saving into, --no-confirm and the hotseat when the record has several people."""
    import red7.cli.play

    file = unfinished_record(data_home / "last.json")
    opened: list[PlayApp] = []
    monkeypatch.setattr(red7.cli.play, "interactive", lambda: True)
    monkeypatch.setattr(PlayApp, "run", lambda self, *a, **k: opened.append(self))
    code, _out, err = run_main(["play", "--resume", "--no-confirm"], capsys)
    assert code == 0, err
    app = opened[0]
    assert app.table.game.decisions == len(load(file)["decisions"])
    assert app.saver.autosave == file and not app.confirm and not app.passing

    record = load(file)
    record["seats"][2] = {"name": "Bia", "bot": None}
    file.write_text(json.dumps(record))
    assert run_main(["play", "--resume", str(file)], capsys)[0] == 0
    assert opened[1].passing and opened[1].confirm  # two people: the device passes between them


def test_play_without_resume_autosaves_into_the_data_directory(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import red7.cli.play

    opened: list[PlayApp] = []
    monkeypatch.setattr(red7.cli.play, "interactive", lambda: True)
    monkeypatch.setattr(PlayApp, "run", lambda self, *a, **k: opened.append(self))
    assert run_main(["play", "--seed", "4"], capsys)[0] == 0
    autosave = opened[0].saver.autosave
    assert autosave is not None and autosave.parent == data_home and autosave.name.endswith("-4.json")
    assert opened[0].confirm


def test_an_action_parses_back_after_a_resume(tmp_path: Path) -> None:
    """Every decision of a resumed game's record is notation that parses back (the
    resumed record replays as the original)."""
    file = unfinished_record(tmp_path / "g.json")
    table = Table.resume(load(file))
    assert [str(Action.parse(str(a))) for _, a in table.game.history] == load(file)["decisions"]


def test_the_settings_of_a_game_in_progress_are_saved_and_resumed(tmp_path: Path) -> None:
    """Issue 34: the file of a game in progress keeps how it was played (the terminal
    game's language and confirmation), and the resumed table has them back."""
    table = Table(seats(None, "easy"), seed=3)
    app = PlayApp(lambda: table, bot_delay=0, hint="easy", confirm=False, autosaves=tmp_path)
    assert app.table.settings == {"lang": "en", "confirm": False}
    play(app.session, random.Random(3), lambda s: s.table.committed > 0, app.saver)
    app.session.next()  # the autosave is written when the flow goes on
    app.saver.keep(app.session)
    (path,) = tmp_path.glob("*.json")
    assert load(path)["settings"] == {"lang": "en", "confirm": False}
    assert Table.resume(load(path)).settings == {"lang": "en", "confirm": False}


def test_a_resumed_game_keeps_its_language_and_no_confirm(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 34: `red7 play --resume` goes on in the game's language and without the
    confirmation when it was played so; --lang still chooses."""
    import red7.cli.play
    from red7.ui.i18n import language

    file = unfinished_record(data_home / "last.json")
    record = load(file)
    record["settings"] = {"lang": "pt-BR", "confirm": False}
    file.write_text(json.dumps(record))
    opened: list[PlayApp] = []
    monkeypatch.setattr(red7.cli.play, "interactive", lambda: True)
    monkeypatch.setattr(PlayApp, "run", lambda self, *a, **k: opened.append(self))
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert run_main(["play", "--resume"], capsys)[0] == 0
    assert language() == "pt-BR" and not opened[0].confirm
    assert opened[0].table.settings == {"lang": "pt-BR", "confirm": False}
    assert run_main(["play", "--resume", "--lang", "en"], capsys)[0] == 0
    assert language() == "en" and not opened[1].confirm


def test_the_news_of_a_pass_screen_show_the_newest_and_the_button_at_80x24() -> None:
    """Issue 34: a long recap on the hotseat pass screen is scrolled to its newest line,
    and the answers stay on an 80×24 screen."""
    from red7.ui.tui.app import PassWithNews

    app = PlayApp(lambda: Table(seats(None, "easy"), seed=3), bot_delay=0, hint="easy")
    news = [f"  Bot {n}: played R{n % 7 + 1}" for n in range(40)]

    async def script(pilot: Any) -> None:
        await settle(pilot)
        app.push_screen(PassWithNews("Ana", news))
        await pilot.pause()
        await pilot.pause()
        box = app.screen.query_one(".news")
        assert box.max_scroll_y > 0 and box.scroll_y == box.max_scroll_y
        lines = "\n".join(screen_lines(app))
        assert news[-1].strip() in lines and news[0].strip() not in lines
        button = app.screen.query_one("#ready").region
        assert button.height > 0 and button.bottom <= 24, button

    run(app, script, size=(80, 24))
