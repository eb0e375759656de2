"""The terminal game (red7.ui.tui), driven headless by key presses with Textual's pilot."""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.style import Style as RichStyle
from textual.widgets import Markdown

from red7 import Game
from red7.bots import Bot, Option, make_bot
from red7.core.actions import Action
from red7.core.cards import ALL_CARDS, COLOURS, Card, names_of
from red7.core.model import Config, RefusalCode
from red7.core.observation import Observation
from red7.core.record import replay
from red7.core.standing import standing_of
from red7.play.records import load
from red7.play.session import cards_at_round_end
from red7.play.table import Seat, Table
from red7.ui.i18n import _, set_language
from red7.ui.rules_text import complete_rules
from red7.ui.tui.app import PlayApp
from red7.ui.tui.board import Board, BoardView
from red7.ui.tui.replay import ReplayApp, positions
from red7.ui.tui.screens import Choice, Pass, Rules
from red7.ui.words import RULE_TEXT, card_label, move_log, refusal_text, winning_line
from tests.support import tiers
from tests.support.helpers import make, run_main
from tests.support.tui_driver import (
    board,
    card_styles,
    hand_drawn,
    near_the_end,
    new_app,
    play_until,
    run,
    screen_lines,
    settle,
    texts,
)


async def click_card(pilot: Any, widget: str, card: str) -> None:
    """Click on ``card`` where the widget shows it."""
    for y, line in enumerate(str(pilot.app.query_one(f"#{widget}").render()).split("\n")):
        x = line.find(card)
        if x >= 0:
            await pilot.click(f"#{widget}", offset=(x, y))
            await pilot.pause()
            return
    raise AssertionError(f"{card} is not shown in #{widget}")


# --- a whole game by keys ------------------------------------------------------------------


@pytest.mark.slow
def test_a_two_player_game_against_a_bot_played_by_keys(tmp_path: Path) -> None:
    """Seeded 2-player basic game: the screen shows the rule in words and who is winning
    after every move; the end shows the winner, offers another game and saves a record."""
    app = new_app(seed=11, records=tmp_path)
    seen: list[int] = []

    async def script(pilot: Any) -> None:
        await settle(pilot)
        rule = COLOURS[app.table.observe(0).rule]
        assert board(app, "rule").startswith(f"Rule:  {rule.capitalize()}  {RULE_TEXT[rule]}   Canvas: ")

        def done(a: PlayApp) -> bool:
            obs = a.table.observe(a.viewer)
            if not a.table.is_over:
                line = board(a, "standing")
                assert line == winning_line(standing_of(obs), a.names)
                leader = a.table.game.winning()
                assert leader is None or line.startswith(f"Winning: {a.names[leader]} — ")
                seen.append(obs.rule)
            return isinstance(a.screen, Choice) and a.screen.id == "game-over"

        await play_until(pilot, done, seed=1)
        result = app.table.game.result
        assert result is not None
        dialog = texts(app, app.screen)
        winner = app.names[result.winners[0]]
        assert f"{winner} won the game!" in dialog
        assert "Play again [enter]" in dialog
        assert app.saved is not None and app.saved.parent == tmp_path and app.saved.name.endswith("-11.json")
        assert replay(load(app.saved)).result == result
        finished = app.table
        await pilot.press("enter")  # play again: a new deal, the same seats
        await settle(pilot)
        assert app.table is not finished and app.table.game.round == 1 and app.saved is None
        assert not app.table.is_over and not isinstance(app.screen, Choice)

    run(app, script)
    assert len(seen) > 3


@pytest.mark.slow
def test_the_basic_games_end_shows_every_final_palette() -> None:
    """Issue 34: the end of a basic game lists every palette as the game ended, the
    winner's included, as the end of a match does (it showed none)."""
    app = new_app(seed=5, bots=("easy", "easy"))

    async def script(pilot: Any) -> None:
        await play_until(pilot, lambda a: isinstance(a.screen, Choice) and a.screen.id == "game-over", seed=3)
        dialog = texts(app, app.screen)
        assert "Final palettes:\n" in dialog, dialog
        lines = dialog.split("Final palettes:\n")[1].split("\n")[:3]
        palettes = dict(line.strip().split(": ", 1) for line in lines)
        ended = cards_at_round_end(app.table.game.events, 3)
        assert palettes == {name: str(seat.palette) for name, seat in zip(app.names, ended, strict=True)}
        result = app.table.game.result
        assert result is not None
        winner = result.winners[0]
        assert palettes[app.names[winner]] == " ".join(app.table.game.palette(winner)) != "—"

    run(app, script)


@pytest.mark.slow
def test_an_advanced_round_ends_with_the_scoring_cards_and_scores() -> None:
    app = new_app(seed=5, advanced=True)

    async def script(pilot: Any) -> None:
        await play_until(pilot, lambda a: isinstance(a.screen, Choice) and a.screen.id == "round-over", seed=2)
        r = app.table.game.round_results[0]
        dialog = texts(app, app.screen)
        assert "Round 1 is over" in dialog
        assert f"Round winner: {app.names[r.winner]}, under the rule {COLOURS[r.rule].capitalize()}." in dialog
        assert f"Scoring cards: {' '.join(r.scored)} = {r.points} point" in dialog
        target = app.table.game.config.target
        assert f"Scores (target {target}): " in dialog and f"{app.names[r.winner]} {r.points}" in dialog
        # the board behind already shows round 2's deal: the dialog shows how round 1's palettes ended
        palettes = dict(line.strip().split(": ", 1) for line in dialog.split("Final palettes:\n")[1].split("\n")[:2])
        assert set(palettes) == set(app.names)
        assert set(r.scored) <= set(palettes[app.names[r.winner]].split())
        await pilot.press("enter")
        await settle(pilot)
        assert "Round 2" in board(app, "title")
        assert f"{r.points}/{target} pts" in board(app, "seats")

    run(app, script)


def test_the_game_in_portuguese() -> None:
    set_language("pt-BR")
    app = new_app(seed=11)

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert board(app, "title").startswith("Red7 · Rodada 1 · modo básico")
        assert board(app, "rule").startswith("Regra: ")
        assert "Vencendo: " in board(app, "standing")
        assert "Sua mão: " in board(app, "hand")
        assert "cartas na mão" in board(app, "seats")
        assert "Bot 2 (fácil)" in board(app, "seats")
        await play_until(pilot, lambda a: isinstance(a.screen, Choice) and a.screen.id == "game-over", seed=1)
        assert "venceu o jogo!" in texts(app, app.screen)
        assert "Jogar de novo [enter]" in texts(app, app.screen)

    run(app, script)


@pytest.mark.slow
def test_three_players_with_action_cards_play_a_round() -> None:
    """The 7, 5, 1 and draw questions are answered by keys like every other decision."""
    app = new_app(seed=21, bots=("easy", "medium"), advanced=True, actions=True)

    async def script(pilot: Any) -> None:
        await play_until(pilot, lambda a: bool(a.table.game.round_results), seed=3)

    run(app, script)
    assert app.table.game.round_results


# --- hotseat ---------------------------------------------------------------------------------


def hand_cards(table: Table, seat: int) -> set[str]:
    """``seat``'s hand cards that nobody else may see (cards seen drawn are public, R7.z)."""
    obs = table.observe(seat)
    assert obs.hand is not None
    return set(names_of(obs.hand & ~obs.known_hand_cards[seat]))


@pytest.mark.slow
def test_the_hotseat_screen_never_shows_another_players_hand() -> None:
    app = PlayApp(
        lambda: Table([Seat("Ana"), Seat("Bia"), Seat("", make_bot("easy"), "easy")], Config(3), seed=8),
        hotseat=True,
        bot_delay=0,
        hint="easy",
    )
    passes: list[str] = []

    async def check_hidden(a: PlayApp) -> None:
        assert isinstance(a.screen, Pass)
        shown = texts(a)  # every screen on the stack: the dialog and the table behind it
        passes.append(a.screen.person)
        for seat in (0, 1):
            assert not hand_cards(a.table, seat) & set(shown.replace("›", " ").replace("‹", " ").split())
        assert "Hands are hidden." in shown

    def done(a: PlayApp) -> bool:
        if a.my_turn():
            shown = set(texts(a).replace("›", " ").replace("‹", " ").split())
            me = a.viewer
            assert me is not None and me == a.table.current
            assert hand_cards(a.table, me) <= shown
            assert not hand_cards(a.table, 1 - me) & shown
        return a.table.is_over or len(passes) >= 6

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert isinstance(app.screen, Pass)
        await play_until(pilot, done, seed=4, on_dialog=check_hidden)

    run(app, script)
    assert set(passes) == {"Ana", "Bia"}


def four_people() -> Table:
    """The issue's table: Ana, Bia, Caio and Duda in an advanced match (seed 3). When
    Ana, Bia and Caio concede round 1, Duda wins it and Caio begins round 2."""
    return Table([Seat("Ana"), Seat("Bia"), Seat("Caio"), Seat("Duda")], Config(4, advanced=True), seed=3)


@pytest.mark.parametrize(("lang", "size"), [("pt-BR", (200, 50)), ("en", (80, 24))])
def test_the_person_who_ends_a_round_and_begins_the_next_passes_the_device_too(
    lang: str, size: tuple[int, int]
) -> None:
    """Three concessions end round 1 (Enter x Enter three times): behind the round's
    dialog, which everyone reads, no hand is drawn (Caio's new hand was), and "Next
    round" opens a pass screen naming Caio before his hand shows (it went straight to
    it)."""
    set_language(lang)
    app = PlayApp(four_people, hotseat=True, bot_delay=0, hint="easy")

    async def script(pilot: Any) -> None:
        await settle(pilot)
        for person in ("Ana", "Bia", "Caio"):
            assert isinstance(app.screen, Pass) and app.screen.person == person
            await pilot.press("enter", "x", "enter")
            await settle(pilot)
        assert app.screen.id == "round-over" and app.table.current == 2
        assert hand_drawn(app) is None, hand_drawn(app)
        await pilot.press("enter")  # next round
        await settle(pilot)
        assert isinstance(app.screen, Pass) and app.screen.person == "Caio"
        assert any(
            line.strip(" █▌▐").startswith(_("Pass the device to {name}").format(name="Caio"))
            for line in screen_lines(app)
        )
        assert hand_drawn(app) is None, hand_drawn(app)
        await pilot.press("enter")
        await settle(pilot)
        assert app.my_turn() and app.viewer == 2 and hand_drawn(app) is not None

    run(app, script, size=size)


@pytest.mark.slow
@pytest.mark.parametrize(("people", "seed"), [(2, 2), (3, 2)])
def test_a_hotseat_match_passes_the_device_before_every_hand_and_hides_hands_behind_its_dialogs(
    people: int, seed: int
) -> None:
    """An advanced hotseat match between people, by keys (its first round; the whole
    match in the full tier): the game and every round begin with a pass screen naming
    the person to move; each person's turn comes right after their own pass screen (or
    their own decision of the same turn); no hand is drawn on a pass screen, a round's
    dialog or the game's."""
    names = ["Ana", "Bia", "Caio"][:people]
    app = PlayApp(
        lambda: Table([Seat(name) for name in names], Config(people, advanced=True), seed=seed),
        hotseat=True,
        bot_delay=0,
        hint="easy",
    )
    trace: list[tuple[str, str]] = []  # ("pass", name), ("round", ""), ("game", ""), ("turn", name)
    rounds = tiers.size(1, 100)

    async def on_dialog(a: PlayApp) -> None:
        assert hand_drawn(a) is None, (a.screen.id, hand_drawn(a))
        trace.append(("pass", a.screen.person) if isinstance(a.screen, Pass) else ("round", ""))

    async def on_turn(pilot: Any) -> None:
        a: PlayApp = pilot.app
        assert a.viewer is not None and hand_drawn(a) is not None
        trace.append(("turn", a.names[a.viewer]))

    def done(a: PlayApp) -> bool:
        if a.screen.id == "game-over":
            assert hand_drawn(a) is None, hand_drawn(a)
            trace.append(("game", ""))
            return True
        return trace.count(("round", "")) >= rounds and trace[-1][0] == "turn"

    async def script(pilot: Any) -> None:
        await play_until(pilot, done, seed=people, on_dialog=on_dialog, on_turn=on_turn)

    run(app, script, size=(120, 40))
    assert trace[0][0] == "pass"
    ends = [i for i, (kind, _name) in enumerate(trace) if kind == "round"]
    assert ends
    for i in ends:  # every round begins with a pass screen
        assert trace[i + 1][0] == "pass", trace[i : i + 2]
    for before, (kind, name) in zip(trace, trace[1:], strict=False):
        if kind == "turn":
            assert before in (("pass", name), ("turn", name)), (before, name)


def test_the_game_over_dialog_and_its_review_show_no_hand_and_a_new_game_begins_with_a_pass_screen() -> None:
    """A basic hotseat game that the first person's concession ends: the game's dialog
    and the review (r) draw no hand, and "Play again" deals a game that begins with a
    pass screen naming its first person."""
    app = PlayApp(lambda: Table([Seat("Ana"), Seat("Bia")], Config(2), seed=3), hotseat=True, bot_delay=0, hint="easy")

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert isinstance(app.screen, Pass) and hand_drawn(app) is None
        first = app.screen.person
        await pilot.press("enter", "x", "enter")
        await settle(pilot)
        assert app.screen.id == "game-over" and hand_drawn(app) is None, hand_drawn(app)
        await pilot.press("r")
        await settle(pilot)
        assert app.screen.id == "review" and hand_drawn(app) is None, hand_drawn(app)
        await pilot.press("enter")  # play again
        await settle(pilot)
        assert isinstance(app.screen, Pass) and app.screen.person == first and not app.table.game.history
        assert hand_drawn(app) is None, hand_drawn(app)
        await pilot.press("enter")
        await settle(pilot)
        assert app.my_turn() and hand_drawn(app) is not None

    run(app, script)


@pytest.mark.slow
@pytest.mark.parametrize("hotseat", [False, True])
def test_one_person_against_bots_never_gets_a_pass_screen(hotseat: bool) -> None:
    """One person and two bots through rounds of an advanced match (with or without
    --hotseat): no pass screen, and the person's hand shows at each of their turns."""
    app = new_app(seed=4, bots=("easy", "easy"), hotseat=hotseat, advanced=True)
    rounds: list[str] = []

    async def on_dialog(a: PlayApp) -> None:
        assert not isinstance(a.screen, Pass)
        rounds.append(a.screen.id or "")

    async def on_turn(pilot: Any) -> None:
        assert hand_drawn(pilot.app) is not None

    async def script(pilot: Any) -> None:
        await settle(pilot)
        await play_until(
            pilot, lambda a: len(rounds) >= 2 or a.table.is_over, seed=1, on_dialog=on_dialog, on_turn=on_turn
        )
        assert not isinstance(app.screen, Pass)

    run(app, script)
    assert rounds


# --- input: staging, confirmations, hints, rules ---------------------------------------------


def position_app(game: Any) -> PlayApp:
    return PlayApp(
        lambda: Table.around(game, [Seat("Ana"), Seat("Bia", make_bot("easy"), "easy")]), bot_delay=0, hint="easy"
    )


def test_a_staged_play_is_taken_back_with_u() -> None:
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await pilot.press("1", "p")
        assert app.table.game.palette(0) == ["R7", "O6"]
        assert "[u] takes the turn back." in board(app, "prompt")
        await pilot.press("u")
        assert app.table.game.palette(0) == ["O6"]
        assert board(app, "status") == "Turn taken back."

    run(app, script)


def test_the_last_decision_of_a_turn_is_confirmed_or_taken_back() -> None:
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await pilot.press("1", "p", "e")
        assert isinstance(app.screen, Choice) and app.screen.id == "confirm-turn"
        assert "You played R7, ended the turn." in texts(app, app.screen)
        await pilot.press("escape")  # choose again: still staged
        assert app.table.game.palette(0) == ["R7", "O6"] and app.table.current == 0
        await pilot.press("e", "u")  # take the whole turn back from the dialog
        assert app.table.game.palette(0) == ["O6"]
        await pilot.press("2", "c")  # canvas B3: Blue, 1 colour each, O6 beats Y5
        assert "put B3 on the canvas (rule: Blue)" in texts(app, app.screen)
        await pilot.press("enter")
        await settle(pilot)
        assert app.table.observe(0).canvas[-1] == Card.parse("B3")

    run(app, script)


def test_an_unsafe_play_asks_first_and_says_why() -> None:
    """Playing G1 under Red leaves Ana losing to R7 with nothing in hand to fix it (R4.7)."""
    app = position_app(make(["G1", "B2"], ["O6", "R7"]))

    async def script(pilot: Any) -> None:
        await pilot.press("1", "p")
        assert isinstance(app.screen, Choice) and app.screen.id == "confirm-unsafe"
        dialog = texts(app, app.screen)
        assert "This choice is not safe" in dialog
        assert "Afterwards you would not be winning" in dialog and "Winning: Bia — Red: R7 against O6 (Ana)" in dialog
        await pilot.press("escape")
        assert app.table.game.palette(0) == ["O6"]
        await pilot.press("p", "enter")
        assert app.table.game.palette(0) == ["O6", "G1"]

    run(app, script)


def test_a_hint_shows_what_the_bot_would_play() -> None:
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await pilot.press("h")
        await settle(pilot)
        status = board(app, "status")
        assert status.startswith("Hint: the easy bot would ")
        assert app.table.game.palette(0) == ["O6"]  # a hint plays nothing

    run(app, script)


def test_the_rules_screen_in_both_languages() -> None:
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, Rules)
        text = app.screen.query_one(Markdown).source
        assert "The seven rules" in text and "| **Indigo** (I) | most cards in a run" in text
        assert "R7 is the Red 7. The colours: R Red, O Orange, Y Yellow, G Green, B Blue, I Indigo, V Violet." in text
        assert "[PgUp/PgDn] scroll the last moves" in text
        assert "| **Green** (G) | most even cards | V7 · **I6 ✓** · **G4 ✓** · O3 · **R2 ✓** |" in text  # an example
        assert text.index("The seven rules") < text.index("R7 is the Red 7")  # why a colour, before the notation
        # it ends with where the complete rules are, in the language in use: a file of the package
        assert text.rstrip().endswith(str(complete_rules("en"))) and "Complete rules, rule by rule" in text
        await pilot.press("escape", "l", "question_mark")
        text = app.screen.query_one(Markdown).source
        assert "As sete regras" in text and "| **Anil** (An) | mais números em sequência |" in text
        # how the screen writes a card, and the notation's letters (V is Violet, not Vermelho)
        assert "Vm7 é o 7 Vermelho. As cores: Vm Vermelho (R), Lj Laranja (O), Am Amarelo (Y)" in text
        assert "V1 é a carta Vt1 (V é Violeta, não Vermelho)" in text
        assert "[PgUp/PgDn] rolar as últimas jogadas" in text
        assert "Cartas de ação" in text
        assert "| **Verde** (Vd) | mais números pares | Vt7 · **An6 ✓** · **Vd4 ✓** · Lj3 · **Vm2 ✓** |" in text
        assert text.rstrip().endswith(str(complete_rules("pt-BR"))) and "Regras completas, regra por regra" in text

    run(app, script)


# --- bad input -------------------------------------------------------------------------------


def test_keys_that_mean_nothing_now_get_a_message_and_change_nothing() -> None:
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        before = app.table.game.fingerprint()
        await pilot.press("z")
        assert board(app, "status").startswith("The key z does nothing here. Your turn:")
        await pilot.press("p")
        assert board(app, "status") == "Pick a card first: arrows, 1-9 or a click."
        await pilot.press("e")
        assert board(app, "status").startswith("That is not possible at this point of the turn.")
        await pilot.press("9")
        assert board(app, "status") == "There are 2 cards to pick: press 1 to 2."
        await pilot.press("k", "t", "d")
        assert app.table.game.fingerprint() == before

    run(app, script)


def test_an_illegal_canvas_is_refused_with_the_rule_that_forbids_it() -> None:
    app = position_app(make(["G1 B3", "V1"], ["O6", "Y5 R6"]))

    async def script(pilot: Any) -> None:
        before = app.table.game.fingerprint()
        await pilot.press("1", "c")  # B3 (the hand is shown highest first): Blue, 1 colour against 2
        assert board(app, "status") == "With B3 on the canvas you would not be winning. Blue: 1 colour against 2."
        await pilot.press("2", "c")  # G1: Green, R6 beats O6
        assert board(app, "status") == (
            "With G1 on the canvas you would not be winning. Green: 1 even card against 1; R6 wins the tie."
        )
        assert app.table.game.fingerprint() == before

    run(app, script)


def test_clicking_cards_picks_yours_and_refuses_an_opponents() -> None:
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await click_card(pilot, "hand", "B3")
        assert app.selected == Card.parse("B3") and "›B3‹" in board(app, "hand")
        await click_card(pilot, "seats", "Y5")
        assert board(app, "status") == "Y5 is in Bia's palette: a card played to a palette stays there."
        await click_card(pilot, "seats", "O6")  # (a basic table: no action card is spoken of)
        assert board(app, "status") == "O6 is in your palette: a card played to a palette stays there."
        assert app.selected is None  # a refused pick leaves nothing picked

    run(app, script)


def test_after_l_every_button_keeps_its_key_in_the_other_language() -> None:
    """Issue 48, item 12: switching language with ``l`` relabels the buttons at their new
    width: "Jogar [p]   Tela [c]   Desistir [x]" whole at 80x24, and back again."""
    set_language("en")
    app = PlayApp(lambda: Table([Seat(), Seat("", make_bot("easy"), "easy")], Config(2), seed=3), bot_delay=0)

    def buttons() -> str:
        return next(line for line in screen_lines(app) if "[x]" in line or "Desistir" in line or "Concede" in line)

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert buttons().split() == ["Play", "[p]", "Canvas", "[c]", "Concede", "[x]"]
        await pilot.press("l")
        await settle(pilot)
        assert buttons().split() == ["Jogar", "[p]", "Tela", "[c]", "Desistir", "[x]"]
        await pilot.press("l")
        await settle(pilot)
        assert buttons().split() == ["Play", "[p]", "Canvas", "[c]", "Concede", "[x]"]

    try:
        run(app, script, size=(80, 24))
    finally:
        set_language("en")


def test_a_terminal_too_small_asks_to_be_enlarged_in_the_chosen_language() -> None:
    set_language("pt-BR")
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        message = app.query_one("#too-small")
        assert message.display and not app.query_one("#main").display
        assert str(message.render()).startswith("O terminal é pequeno demais (60×20). Aumente-o para pelo menos 80×24")
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert not message.display and app.query_one("#main").display

    run(app, script, size=(60, 20))


# --- replay ----------------------------------------------------------------------------------


def finished_record(tmp_path: Path) -> Path:
    table = Table([Seat("", make_bot("easy"), "easy"), Seat("", make_bot("easy"), "easy")], seed=3)
    while not table.is_over:
        table.play_bot()
    return table.save(tmp_path / "game.json")


def test_replay_steps_through_a_record_on_the_same_board(tmp_path: Path) -> None:
    games = positions(load(finished_record(tmp_path)))
    app = ReplayApp(games, "game.json")

    async def script(pilot: Any) -> None:
        title = str(app.query_one("#title").render())
        assert f"decision 0 of {len(games) - 1}" in title and "view: everyone's public view" in title
        assert str(app.query_one("#hand").render()) == "Hands are hidden."
        await pilot.press("right", "right", "left")
        assert f"decision 1 of {len(games) - 1}" in str(app.query_one("#title").render())
        seat, _action = games[1].observe(None).history[0]
        assert str(app.query_one("#prompt").render()).startswith(f"Player {seat + 1}: ")
        await pilot.press("v")
        assert "view: Player 1" in str(app.query_one("#title").render())
        assert str(app.query_one("#hand").render()).startswith("Player 1's hand: ")  # (whose: issue 48, item 15)
        await pilot.press("end")
        assert "Game over." in str(app.query_one("#prompt").render())
        await pilot.press("right")
        assert str(app.query_one("#status").render()) == "This is the last decision of the record."

    run(app, script)


def test_the_replay_of_a_match_ends_on_every_palette_as_it_ended_in_every_view(tmp_path: Path) -> None:
    """At the end of a replayed match, in the public view and in the all-hands view, the
    board shows each palette as the last round ended (the winner's scoring cards, which
    the engine moved to the score pile, included) and who won by what."""
    seats = [Seat("", make_bot("easy"), "easy") for _ in range(3)]
    table = Table(seats, Config(3, advanced=True, actions=True), seed=11)
    while not table.is_over:
        table.play_bot()
    games = positions(load(table.save(tmp_path / "match.json")))
    app = ReplayApp(games, "match.json")
    game = games[-1]
    last = game.observe(None).round_results[-1]
    ended = cards_at_round_end(game.events, game.players)

    async def script(pilot: Any) -> None:
        await pilot.press("end")
        for view in range(game.players + 2):  # public, each seat's, every hand
            if view == game.players + 1:
                assert app.all_hands
            standing = board(app, "standing").replace("\n", " ")
            assert "won the match! Round winner: " in standing, standing
            rows = board(app, "seats").split("\n")
            for seat, row in enumerate(rows):
                shown = [word for word in row.split() if word in {str(c) for c in ALL_CARDS}]
                assert shown == [str(c) for c in ended[seat].palette], row
            assert set(last.scored) <= set(rows[last.winner].split())
            await pilot.press("v")

    run(app, script)


def test_a_corrupt_record_is_refused_in_the_chosen_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "broken.json"
    record = json.loads(finished_record(tmp_path).read_text(encoding="utf-8"))
    record["decisions"][2] = "fly away"
    path.write_text(json.dumps(record), encoding="utf-8")
    import red7.cli.play

    for interactive in (True, False):  # the screen replayer and the --check path
        monkeypatch.setattr(red7.cli.play, "interactive", lambda interactive=interactive: interactive)
        code, out, err = run_main(["replay", "--lang", "pt-BR", str(path)], capsys)
        assert code == 2 and out == ""
        assert err.startswith(f"red7: erro: {path} não é um registro do Red7 que possa ser reproduzido (decisão 3: ")
        assert err.count("\n") == 1 and "Traceback" not in err


# --- the action cards' questions, by keys ------------------------------------------------------


def test_the_sevens_card_and_destination_by_keys_R7_7() -> None:
    app = position_app(make(["R7 B2", "G1 O3"], ["O5 Y4", "V6"], actions=True))

    async def script(pilot: Any) -> None:
        await pilot.press("1", "p")  # R7: now pick another card of the palette
        assert app.table.game.step_name == "seven"
        assert board(app, "prompt").startswith("The 7: pick another card of your palette")
        assert [str(c) for c in app.selectable()] == ["O5", "Y4"]
        # the number keys count the palette as shown (R7 O5 Y4), the 7 itself included
        assert [str(c) for c in app.numbered()] == ["R7", "O5", "Y4"]
        assert "★ 1 R7  2 O5  3 Y4 \n" in board(app, "seats")
        await pilot.press("1")  # the 7 cannot move itself: said in words, nothing picked
        assert board(app, "status") == "R7 cannot be used now: The 7 moves another card of your palette, not R7 itself."
        await pilot.press("3", "k")  # Y4 face down onto the deck: public (R7.z)
        assert app.table.game.step_name == "after"
        assert "Deck: " in board(app, "rule") and "(known on top: Y4)" in board(app, "rule")
        assert "put Y4 from the palette on top of the deck" in board(app, "log-lines")

    run(app, script)


def test_the_ones_victim_card_by_click_and_key_R7_1() -> None:
    app = position_app(make(["I1 B2", "G1 O3"], ["O5", "V6 Y2"], actions=True))

    async def script(pilot: Any) -> None:
        await pilot.press("2", "p")  # I1 (the hand shows B2 first)
        assert app.table.game.step_name == "one"
        await click_card(pilot, "seats", "V6")  # now a card of Bia's palette is a valid pick
        assert app.selected == Card.parse("V6")
        await pilot.press("t")
        assert app.table.game.palette(1) == ["Y2"]
        assert "Ana: took V6 from Bia's palette and put it on the deck" in board(app, "log-lines")

    run(app, script)


def test_the_advanced_draw_is_answered_by_a_key_R5_1() -> None:
    app = position_app(make(["B3 G1", "V2"], ["O6", "Y5"], deck="R7 V1", advanced=True))

    async def script(pilot: Any) -> None:
        await pilot.press("1", "c")  # B3 to the canvas: 3 > 1 card in the palette, a draw is offered
        assert app.table.game.step_name == "draw"
        # the canvas is staged until the draw: it can still be taken back
        assert (
            board(app, "prompt") == "You may draw the top card of the deck [d] or decline [n]. [u] takes the turn back."
        )
        await pilot.press("d")
        assert isinstance(app.screen, Choice) and app.screen.id == "confirm-turn"
        await pilot.press("enter")
        await settle(pilot)
        assert "R7" in app.table.game.hand(0)

    run(app, script)


# --- refusals, from the engine's codes, in the language in use ----------------------------------


REFUSED_BY_KEYS = [
    # (code, position, keys, the refusal in Portuguese)
    (
        RefusalCode.CANVAS_NOT_WINNING,
        make(["G1 B3", "V1"], ["O6", "Y5 R6"]),
        ("1", "c"),
        "Com Az3 na Tela você não estaria vencendo. Azul: 1 cor contra 2.",
    ),
    (
        RefusalCode.NOT_WINNING,
        make(["G1 B2", "V1"], ["O6", "R7"]),
        ("2", "p", "e"),  # play G1 (safe: B2 on the canvas then wins at Blue), then try to end losing at Red
        "Você não está vencendo, então o turno não pode terminar. Vermelho: Lj6 contra Vm7.",
    ),
    (
        RefusalCode.CANNOT_FINISH,
        make(["V7 O1", "B5"], ["G3", "I7 R5"], actions=True),
        ("1", "p"),  # V7 may go on the canvas, but played it leaves Ana no way to win (R7.x)
        "Você só pode jogar Vt7 se ainda puder terminar o turno vencendo. Vermelho: Vt7 contra An7.",
    ),
]


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize(
    ("code", "game", "keys", "portuguese"), REFUSED_BY_KEYS, ids=[r[0].value for r in REFUSED_BY_KEYS]
)
def test_a_refused_key_is_explained_from_its_refusal_code(
    lang: str, code: RefusalCode, game: Any, keys: tuple[str, ...], portuguese: str
) -> None:
    """The status line shows the engine's refusal, translated through the catalog, the rule
    in words without its ID; the game is unchanged."""
    set_language(lang)
    app = position_app(game.clone())

    async def script(pilot: Any) -> None:
        await pilot.press(*keys[:-1])
        before = app.table.game.fingerprint()
        await pilot.press(keys[-1])
        refusal = app.table.game.check(_last_decision(app, keys[-1]))
        assert refusal is not None and refusal.code is code
        assert board(app, "status") == refusal_text(refusal)
        if lang == "pt-BR":
            assert board(app, "status") == portuguese
        assert refusal.rule not in board(app, "status")
        assert app.table.game.fingerprint() == before

    run(app, script)


def _last_decision(app: PlayApp, key: str) -> str:
    """The decision ``key`` made about the selected card (what the test position pressed)."""
    return {"c": f"canvas {app.selected}", "p": f"play {app.selected}", "e": "end"}[key]


def test_a_key_of_another_step_says_so_and_what_to_do() -> None:
    set_language("pt-BR")
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await pilot.press("e")  # no 'end' at the start of a turn (R4.2)
        assert board(app, "status").startswith("Isso não é possível neste momento do turno. Sua vez: ")

    run(app, script)


# --- buttons from the legal options; the log from the events ---------------------------------


def shown_buttons(app: PlayApp) -> set[str]:
    return {str(b.id).removeprefix("b-") for b in app.query("#buttons Button") if b.display}


def test_the_buttons_are_the_kinds_of_the_legal_decisions() -> None:
    """At the start Ana may play or concede but no canvas is legal; after playing I1 she is not
    winning, so there is no End turn button, only Canvas (B2 wins at Blue) and Concede."""
    app = position_app(make(["I1 B2", "V1"], ["O6", "R7"]))

    async def script(pilot: Any) -> None:
        assert not app.table.game.is_legal("canvas B2") and not app.table.game.is_legal("canvas I1")
        assert shown_buttons(app) == {"play", "concede"}
        await pilot.press("2", "p")
        assert shown_buttons(app) == {"canvas", "concede", "undo"}

    run(app, script)


class Scripted(Bot):
    """A bot that makes the decisions it was given, in order (then those of ``then``, if given)."""

    def __init__(self, *decisions: str, then: Bot | None = None) -> None:
        self.decisions = [Action.parse(d) for d in decisions]
        self.then = then

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        if not self.decisions and self.then is not None:
            return self.then.choose(observation, options, rng)
        return self.decisions.pop(0)


def test_the_log_shows_what_happened_and_hides_the_opponents_draw_R9() -> None:
    """Bia's 3 draws an unknown card (R7): Ana's log says Bia drew a card, not which."""
    game = make(["B2 G1", "Y3 Y2"], ["O6", "Y5"], deck="R7 V1", current=1, actions=True)
    bia = Scripted("play Y3", "canvas Y2")
    app = PlayApp(lambda: Table.around(game, [Seat("Ana"), Seat("Bia", bia, "random")]), bot_delay=0, hint="easy")

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert app.my_turn() and "R7" in app.table.game.hand(1)
        assert board(app, "log-lines").split("\n") == [
            "Bia: played Y3",
            "Bia: drew a card (the 3's action)",
            "Bia: put Y2 on the canvas (rule: Yellow)",
        ]  # the end of a turn is no line of its own: the next line shows who plays

    run(app, script)


# --- issue 10: the flow behind dialogs, readable cards, number keys, the log ---------------------


class Gated(Scripted):
    """A scripted bot that thinks until the test opens its gate (its first decision only)."""

    def __init__(self, *decisions: str) -> None:
        super().__init__(*decisions)
        self.gate = threading.Event()

    def choose(self, observation: Observation, options: Sequence[Option], rng: random.Random) -> Action:
        self.gate.wait(10)
        return super().choose(observation, options, rng)


def bia_thinks() -> tuple[PlayApp, Gated]:
    """Ana (a person) and Bia (a bot held at her gate), Bia to move: she plays R6, then
    ends her turn, once the test opens the gate."""
    game = make(["G1 B2", "Y3 R6"], ["O6", "Y5"], current=1)
    bia = Gated("play R6", "end")
    app = PlayApp(lambda: Table.around(game, [Seat("Ana"), Seat("Bia", bia, "random")]), bot_delay=0, hint="easy")
    return app, bia


@pytest.mark.parametrize("dialog", ["q", "question_mark"])
def test_a_dialog_opened_while_a_bot_thinks_does_not_stop_its_turn(dialog: str) -> None:
    """The quit question (or the rules) opened while Bia thinks: her first decision comes
    in behind the dialog and shows there; once the dialog is closed she makes the second
    decision of her turn and play goes on (it used to stop for good)."""
    app, bia = bia_thinks()

    async def script(pilot: Any) -> None:
        await pilot.pause()
        assert app.thinking
        await pilot.press(dialog)
        assert app.screen.id in ("confirm-quit", "rules")
        bia.gate.set()
        await settle(pilot)  # the dialog stays open meanwhile
        assert app.screen.id in ("confirm-quit", "rules")
        assert app.table.game.palette(1) == ["R6", "Y5"] and app.table.current == 1
        assert board(app, "log-lines").endswith("Bia: played R6")  # shown behind the dialog
        await pilot.press("escape")
        await settle(pilot)
        assert app.table.current == 0 and app.my_turn()
        assert board(app, "prompt").startswith("Your turn")

    run(app, script)


def test_keys_work_while_a_hint_is_worked_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the hint's bot thinks, a number key picks its card at once (it used to be
    dropped with "It is not your turn."), and the hint, when it comes, leaves that pick
    alone; a decision cancels a hint still being worked out (its answer is dropped)."""
    hint_bot = Gated("play R7", "end")
    monkeypatch.setattr("red7.ui.tui.app.make_bot", lambda spec: hint_bot)
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await pilot.press("h")
        assert app.hinting and board(app, "status") == "Thinking of a hint…"
        await pilot.press("2")  # B3, while the hint is worked out
        assert app.selected == Card.parse("B3") and "›B3‹" in board(app, "hand")
        assert "not your turn" not in board(app, "status")
        hint_bot.gate.set()
        await settle(pilot)
        assert board(app, "status").startswith("Hint: the easy bot would play R7")
        assert app.selected == Card.parse("B3")  # the hint did not undo the person's pick
        hint_bot.gate.clear()
        hint_bot.decisions = [Action.parse("play B3"), Action.parse("end")]
        await pilot.press("h", "1", "p")  # R7 played while the hint thinks: the hint is dropped
        assert app.table.game.palette(0) == ["R7", "O6"] and not app.hinting
        hint_bot.gate.set()
        await settle(pilot)
        assert not board(app, "status").startswith("Hint:")
        assert app.table.game.palette(0) == ["R7", "O6"]

    run(app, script)


def test_please_wait_never_stays_on_the_persons_own_turn() -> None:
    """A key pressed while Bia thinks says to wait for her; once she has moved and the turn
    is Ana's again, the message is gone (it used to stay on Ana's turn)."""
    app, bia = bia_thinks()

    async def script(pilot: Any) -> None:
        await pilot.pause()
        assert app.thinking
        await pilot.press("h")
        assert board(app, "status") == "Please wait: Bia is thinking."
        bia.gate.set()
        await settle(pilot)
        assert app.table.current == 0 and app.my_turn()
        assert "Please wait" not in board(app, "status")
        assert board(app, "prompt").startswith("Your turn")

    run(app, script)


def wcag_contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG 2 contrast ratio of two sRGB colours (1 to 21)."""

    def luminance(rgb: tuple[int, int, int]) -> float:
        def channel(c: int) -> float:
            v = c / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        r, g, b_ = (channel(c) for c in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def rgb(color: RichColor, system: ColorSystem) -> tuple[int, int, int]:
    """``color`` as a terminal of colour ``system`` shows it."""
    shown = color.downgrade(system).get_truecolor()
    return shown.red, shown.green, shown.blue


SEVEN_COLOURS = ["R7", "O6", "Y5", "G4", "B3", "I2", "V1"]


def test_every_card_label_reaches_AA_contrast_and_the_selection_shows_without_colour() -> None:
    """All seven colours, usable, selected and muted (cannot be used now), in truecolor and
    in a 256-colour terminal: the label's colour against its background is at least
    4.5:1 (WCAG AA). Only the selected card is framed and reversed; no card is underlined
    (Textual's link style made yellow cards grey on yellow and underlined them all); a
    muted card is not bold and has another background than the usable card."""
    app = position_app(make([" ".join(SEVEN_COLOURS), "G1"], ["O3", "Y2"]))

    def check(style: RichStyle) -> None:
        assert style.color is not None and style.bgcolor is not None
        for system in (ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT):
            ratio = wcag_contrast(rgb(style.color, system), rgb(style.bgcolor, system))
            assert ratio >= 4.5, (style, system, ratio)
        assert not style.underline

    async def script(pilot: Any) -> None:
        for n, selected in enumerate(SEVEN_COLOURS, 1):
            await pilot.press(str(n))
            cards = card_styles(app, "hand")
            assert set(cards) == {f"›{c}‹" if c == selected else c for c in SEVEN_COLOURS}
            for label, style in cards.items():
                check(style)
                assert style.bold and bool(style.reverse) == label.startswith("›")
        usable = card_styles(app, "hand")
        obs = app.table.observe(0)
        hand = [Card.parse(c) for c in SEVEN_COLOURS]
        app.query_one(Board).show(BoardView(obs, app.names, numbered=hand, usable=[]))  # none usable now
        await pilot.pause()
        muted = card_styles(app, "hand")
        assert set(muted) == set(SEVEN_COLOURS)
        for label, style in muted.items():
            check(style)
            assert not style.bold
            # a muted card looks unlike a usable one, also in 256 colours
            plain = usable.get(label) or usable[f"›{label}‹"]
            assert plain.bgcolor is not None and style.bgcolor is not None
            for system in (ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT):
                assert rgb(style.bgcolor, system) != rgb(plain.bgcolor, system), (label, system)

    run(app, script)


def three_at_the_ones_step() -> PlayApp:
    """Ana has played I1 (R7.1): Bia's palette (2 cards) may be taken from, Cid's (1 card,
    smaller than Ana's 2) may not."""
    game = make(["I1 B2", "R3", "G2"], ["O5", "V6 Y2", "G3"], actions=True)
    return PlayApp(
        lambda: Table.around(
            game, [Seat("Ana"), Seat("Bia", make_bot("easy"), "easy"), Seat("Cid", make_bot("easy"), "easy")]
        ),
        bot_delay=0,
        hint="easy",
    )


def test_number_keys_count_the_cards_as_shown_and_say_why_one_cannot_be_used_R7_1() -> None:
    """At a 1's step the number keys count the other palettes as the board shows them
    (Bia's V6 Y2, then Cid's G3), usable or not; Cid's card is muted and its number says
    why it cannot be taken. (The keys used to count only the usable cards, so a number
    picked another card than the one shown with it.)"""
    app = three_at_the_ones_step()

    async def script(pilot: Any) -> None:
        await pilot.press("2", "p")  # I1 (the hand shows B2 first)
        assert app.table.game.step_name == "one"
        assert [str(c) for c in app.numbered()] == ["V6", "Y2", "G3"]
        seats = board(app, "seats")
        assert "1 V6  2 Y2 \n" in seats and seats.rstrip().endswith("3 G3")
        assert card_styles(app, "seats")["G3"].bold is False and card_styles(app, "seats")["V6"].bold
        before = app.table.game.fingerprint()
        await pilot.press("3")
        assert app.selected is None
        assert board(app, "status") == ("G3 cannot be used now: G3 is in a palette with fewer cards than yours.")
        await pilot.press("4")
        assert board(app, "status") == "There are 3 cards to pick: press 1 to 3."
        await pilot.press("2")
        assert app.selected == Card.parse("Y2") and "›Y2‹" in board(app, "seats")
        await click_card(pilot, "seats", "G3")  # a click says the same as its number key, and unpicks Y2
        assert board(app, "status").startswith("G3 cannot be used now: ") and app.selected is None
        assert app.table.game.fingerprint() == before
        await pilot.press("2", "t")
        assert app.table.game.palette(1) == ["V6"]

    run(app, script)


def test_an_unusable_hand_card_is_muted_and_its_number_says_why() -> None:
    """After R7 is played only B3 can go on the canvas (Blue: 2 colours against 1); G2's
    number says why not, the rule in words."""
    app = position_app(make(["R7 B3 V2", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await pilot.press("1", "p")
        assert [str(c) for c in app.numbered()] == ["B3", "V2"]
        assert [str(c) for c in app.selectable()] == ["B3"]
        cards = card_styles(app, "hand")
        assert not cards["V2"].bold and cards["›B3‹"].bold  # the only usable card is picked already
        await pilot.press("2")
        assert board(app, "status") == (
            "V2 cannot be used now: With V2 on the canvas you would not be winning. Violet: nobody qualifies."
        )

    run(app, script)


def test_a_refused_pick_leaves_nothing_picked_so_the_next_verb_asks_for_a_card() -> None:
    """A refused number key or click clears the pick (also the only usable card, which the
    board had picked by itself): the next [c] asks for a card instead of putting the card
    picked before on the canvas. (It used to keep the old pick, so the next verb acted on
    a card the person had just moved away from.)"""
    app = position_app(make(["R7 B3 V2", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await pilot.press("1", "p")
        assert app.selected == Card.parse("B3")  # the only usable card, picked by the board
        before = app.table.game.fingerprint()
        await pilot.press("2")
        assert board(app, "status").startswith("V2 cannot be used now: ")
        assert app.selected is None and "›" not in board(app, "hand")
        await pilot.press("c")
        assert board(app, "status") == "Pick a card first: arrows, 1-9 or a click."
        assert app.table.game.fingerprint() == before and not isinstance(app.screen, Choice)
        await click_card(pilot, "hand", "V2")  # a click refused the same way
        assert app.selected is None and "›" not in board(app, "hand")
        await pilot.press("1")  # picking again works as before
        assert app.selected == Card.parse("B3") and "›B3‹" in board(app, "hand")
        await pilot.press("c")
        assert isinstance(app.screen, Choice) and "B3" in texts(app, app.screen)

    run(app, script)


def test_keys_are_ignored_while_the_terminal_is_too_small() -> None:
    """Behind "the terminal is too small" the game's keys do nothing (a 7 was once played
    unseen); quit, the language and the rules still work, and the message says so."""
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        message = app.query_one("#too-small")
        assert message.display
        assert "Until then only [q] quit, [l] Português (Brasil) and [?] rules work." in str(message.render())
        before = app.table.game.fingerprint()
        for key in ("1", "p", "right", "c", "x", "h", "e", "u"):
            await pilot.press(key)
            assert app.table.game.fingerprint() == before, key
            assert app.selected is None and len(app.screen_stack) == 1 and not app.hinting, key
        await pilot.press("l")
        assert "Até lá só funcionam [q] sair, [l] English e [?] regras." in str(message.render())
        await pilot.press("question_mark")
        assert isinstance(app.screen, Rules)
        await pilot.press("escape", "q")
        assert app.screen.id == "confirm-quit"
        await pilot.press("escape")
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.press("1", "p")  # the table shows again: its keys work again
        assert app.table.game.palette(0) == ["R7", "O6"]

    run(app, script, size=(60, 20))


def test_ctrl_c_asks_to_quit_in_the_chosen_language_and_twice_quits() -> None:
    set_language("pt-BR")
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await pilot.press("ctrl+c")
        assert app.screen.id == "confirm-quit" and "Sair?" in texts(app, app.screen)
        await pilot.press("ctrl+c")
        assert app.closing

    run(app, script)


def test_a_dialog_offers_no_key_it_ignores_and_no_built_in_key_quits_unasked() -> None:
    """While a dialog is open the key line behind it offers nothing (a dialog takes only
    its answers' keys: [l], [?], [h], [q] used to be offered there and ignored); it comes
    back when the dialog closes. Textual's command palette (Ctrl+P, in English, whose Quit
    left without asking or saving) is off, and Ctrl+Q asks as [q] does."""
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        assert "[q] quit" in board(app, "keys") and "[l] Português" in board(app, "keys")
        await pilot.press("1", "p", "1", "c")
        assert app.screen.id == "confirm-turn"
        assert board(app, "keys") == ""
        await pilot.press("l")  # a key the line no longer offers: nothing happens
        assert app.screen.id == "confirm-turn" and "Confirm your turn" in texts(app, app.screen)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen.id == "confirm-turn" and len(app.screen_stack) == 2
        await pilot.press("ctrl+q")
        assert app.screen.id == "confirm-quit" and not app.closing
        await pilot.press("escape", "escape")
        assert not app.dialog_open and "[q] quit" in board(app, "keys")
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert not app.dialog_open  # no command palette on the board either
        await pilot.press("ctrl+q")
        assert app.screen.id == "confirm-quit" and not app.closing
        await pilot.press("enter")
        assert app.closing

    run(app, script)


def assert_fits(app: PlayApp) -> None:
    """The buttons and the key line show whole on the screen."""
    screen = "\n".join(screen_lines(app))
    for button in app.query("#buttons Button"):
        if button.display:
            assert str(button.label) in screen, f"button {button.label} is cut"
    for line in str(app.query_one("#keys").render()).split("\n"):
        assert line in screen, f"the key line is cut: {line}"


@pytest.mark.slow
def test_the_log_keeps_every_move_and_shows_the_newest_at_80x24() -> None:
    """A 4-player advanced game with action cards at 80x24: the log holds every move of
    the game (whole bot turns were lost), with a marker before each new round, and its
    newest line is on the screen at each of the person's turns; the buttons and the key
    line are never cut."""
    app = new_app(seed=11, bots=("easy", "easy", "easy"), advanced=True, actions=True)
    checked: list[int] = []

    async def look(pilot: Any) -> None:
        log = board(app, "log-lines").split("\n")
        assert log == (move_log(app.table.events_for(0), app.names, 0) or ["(none yet)"])
        for _attempt in range(20):  # the log scrolls to its end with the next layout
            if any(line.startswith(f" {log[-1]}") for line in screen_lines(app)):  # the scrollbar may follow
                break
            await pilot.pause()
        else:
            raise AssertionError(f"the newest line {log[-1]!r} is not on the screen")
        assert_fits(app)
        checked.append(app.table.game.round)

    async def script(pilot: Any) -> None:
        # to the person's third turn of round 2 (the first comes right after the round's dialog)
        await play_until(pilot, lambda a: checked.count(2) >= 3, seed=5, on_turn=look)
        log = board(app, "log-lines").split("\n")
        assert "— Round 2 —" in log and len(log) > 12  # far more than the six lines the old log kept

    run(app, script, size=(80, 24))


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_buttons_and_keys_fit_80x24_at_the_widest_step(lang: str) -> None:
    """The 7's step after a staged play shows the most buttons (canvas, onto the deck,
    concede, take back) and the longest key line: all whole at 80x24, in both languages."""
    set_language(lang)
    app = position_app(make(["R7 B2", "G1 O3"], ["O5 Y4", "V6"], actions=True))

    async def script(pilot: Any) -> None:
        await pilot.press("1", "p")
        assert shown_buttons(app) == {"canvas", "deck", "concede", "undo"}
        assert_fits(app)

    run(app, script, size=(80, 24))


def ana_against_bia_conceding(game: Game) -> PlayApp:
    """The terminal game of Ana (a person) at ``game``, against Bia, a bot that concedes
    first and then plays as ``easy``."""
    return PlayApp(
        lambda: Table.around(game, [Seat("Ana"), Seat("Bia", Scripted("concede", then=make_bot("easy")), "random")]),
        bot_delay=0,
        hint="easy",
    )


def test_the_move_that_ends_a_round_shows_in_the_log_and_the_dialog() -> None:
    """Bia concedes and the advanced round ends: the round's dialog begins with her
    concession, and the log behind it has it too, with the round's winner and the new
    round's marker; nobody is said to be thinking any more, and the next round's prompt
    and buttons wait for the dialog to close."""
    # seed 2: Ana begins round 2
    game = Game.from_position([["G1", "B2"], ["Y3", "R6"]], [["O6"], ["Y5"]], current=1, advanced=True, seed=2)
    app = ana_against_bia_conceding(game)

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert isinstance(app.screen, Choice) and app.screen.id == "round-over"
        assert "Round 1 is over\nBia: conceded\n\nRound winner: Ana" in texts(app, app.screen)
        assert board(app, "log-lines").split("\n")[-3:] == [
            "Bia: conceded",
            "Round winner: Ana, under the rule Red.",
            "— Round 2 —",
        ]
        # behind the dialog: no stale "thinking", and nothing to do yet in the next round
        assert board(app, "prompt") == "" and shown_buttons(app) == set()
        await pilot.press("enter")
        await settle(pilot)
        assert "Round 2" in board(app, "title")
        assert app.table.current == 0 and board(app, "prompt").startswith("Your turn")

    run(app, script)


@pytest.mark.parametrize("advanced", [True, False])
def test_a_position_set_up_mid_round_ends_with_its_palettes(advanced: bool) -> None:
    """Issue 34: a game set up card by card (Game.from_position, no deal in its log) ends
    its first round with the palettes it had, not with only the cards played since (the
    dialog showed "—" for each): the round's dialog in a match, the game's end and the
    board behind it in the basic game."""
    game = Game.from_position(
        [["G1", "B2"], ["Y3", "R6"]], [["O6", "R2"], ["Y5"]], current=1, advanced=advanced, seed=2
    )
    app = ana_against_bia_conceding(game)

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert isinstance(app.screen, Choice) and app.screen.id == ("round-over" if advanced else "game-over")
        dialog = texts(app, app.screen)
        assert "Final palettes:\n   Ana: O6 R2\n   Bia: Y5" in dialog, dialog
        if not advanced:
            seats = board(app, "seats")
            assert {"O6", "R2", "Y5"} <= set(seats.split()), seats

    run(app, script)


def test_cards_at_round_end_start_from_a_positions_palettes() -> None:
    """The palettes a position set up card by card begins with are the game's opening:
    the cards played from there add to them."""
    game = Game.from_position([["G1", "B2"], ["Y3", "R6"]], [["O6"], ["Y5"]], current=0)
    assert game.opening is not None and Game(2, seed=1).opening is None
    game.apply("play B2")
    game.apply("end")
    game.apply("concede")
    assert game.is_over
    ended = cards_at_round_end(game.events_for(0), 2, game.clone().opening)
    assert [str(seat.palette) for seat in ended] == ["O6 B2", "Y5"] and ended[1].out


def test_an_elimination_with_an_empty_hand_shows_in_the_game_over_dialog_R4_1() -> None:
    """Ana ends her turn winning; Bia, with no card left, is out at the start of hers
    (R4.1) and the game is over: the dialog says what happened."""
    game = make(["R7", ""], ["O6", "Y5"])
    app = position_app(game)

    async def script(pilot: Any) -> None:
        await pilot.press("1", "p")
        assert (
            board(app, "prompt")
            == "You are winning and no hand card can go on the canvas: end your turn [e]. [u] takes the turn back."
        )
        await pilot.press("e", "enter")
        await settle(pilot)
        assert isinstance(app.screen, Choice) and app.screen.id == "game-over"
        body = texts(app, app.screen)
        assert "Bia: is out: no card left in hand\n\nRound winner: Ana" in body
        assert board(app, "log-lines").split("\n")[-3:] == [
            "Bia: is out: no card left in hand",
            "Round winner: Ana, under the rule Red.",
            "Ana won the game!",
        ]

    run(app, script)


@pytest.mark.parametrize(
    "whole", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["near-the-end", "whole-match"]
)
def test_the_end_of_a_match_shows_every_palette_as_it_ended_and_who_won_by_what_R8_2(whole: bool) -> None:
    """A match of three bots, to its end (from a few decisions before it: the bots go on
    with their own streams, so it is the same match). Behind the game-over dialog the
    board shows each palette as the last round ended, the winner's scoring cards (which
    the engine has moved to the score pile) and the palettes of the players out of the
    round included, and who won by what. (It said who was "winning" from the palettes
    less the scoring cards, e.g. "Blue: nobody qualifies", and showed neither those cards
    nor the palettes of the players out of the round.)"""

    def table() -> Table:
        return Table([Seat("", make_bot("easy"), "easy") for _ in range(3)], Config(3, True, True), seed=11)

    app = PlayApp(table, resume=None if whole else near_the_end(table, left=10), bot_delay=0, hint="easy")

    async def script(pilot: Any) -> None:
        for _round in range(200):
            await settle(pilot)
            if app.table.is_over:
                break
            if app.screen.id == "round-over":
                await pilot.press("enter")
        assert app.screen.id == "game-over"
        game = app.table.game
        last = game.observe(None).round_results[-1]
        assert last.scored  # the case at stake: the winner's scoring cards left the palette
        winners = " & ".join(app.names[w] for w in game.result.winners)
        assert (
            board(app, "standing")
            .replace("\n", " ")
            .startswith(f"{winners} won the match! Round winner: {app.names[last.winner]}, under the rule ")
        )
        rows = board(app, "seats").split("\n")
        ended = cards_at_round_end(game.events, game.players)
        for seat, row in enumerate(rows):
            shown = [word for word in row.split() if word in {str(c) for c in ALL_CARDS}]
            assert shown == [str(c) for c in ended[seat].palette], row
            assert ("out of the round" in row) == ended[seat].out
        assert "★" in rows[last.winner] and set(last.scored) <= set(rows[last.winner].split())

    run(app, script)


def test_a_replay_log_tells_the_rounds_end_and_marks_the_next_round(tmp_path: Path) -> None:
    """Replayed to the decision that ends round 1, the log ends with the move that ended
    it (a concession or an empty hand, R4.1), the round's winner and the next round's
    marker, although the board already shows round 2."""
    table = Table(
        [Seat("", make_bot("easy"), "easy"), Seat("", make_bot("easy"), "easy")], Config(2, advanced=True), seed=3
    )
    while not table.game.round_results:
        table.play_bot()
    games = positions(load(table.save(tmp_path / "r.json")))
    app = ReplayApp(games, "r.json")

    async def script(pilot: Any) -> None:
        await pilot.press("end")
        log = str(app.query_one("#log-lines").render()).split("\n")
        first = table.game.round_results[0]
        rule = COLOURS[first.rule].capitalize()
        assert log[-2:] == [f"Round winner: Player {first.winner + 1}, under the rule {rule}.", "— Round 2 —"]
        assert log[-3].endswith((": conceded", ": is out: no card left in hand"))

    run(app, script)


def test_the_prompt_offers_only_what_the_legal_decisions_allow() -> None:
    """No canvas is legal at the start (G1 and B3 would not win): the prompt asks for a
    play only. After an unsafe play with nothing left in hand Ana can only concede: the
    prompt says so, without a card to put on the canvas, and the key line offers no pick."""
    app = position_app(make(["G1 B3", "V1"], ["O6", "Y5 R6"]))

    async def script(pilot: Any) -> None:
        assert board(app, "prompt") == "Your turn: pick a hand card and play it to your palette [p]."
        assert "pick a card" in board(app, "keys")

    run(app, script)

    app = position_app(make(["G1", "B2"], ["O6", "R7"]))

    async def alone(pilot: Any) -> None:
        await pilot.press("1", "p", "enter")  # not safe: done anyway
        assert app.table.game.step_name == "after" and app.table.game.hand(0) == []
        assert (
            board(app, "prompt")
            == "Nothing you can do now keeps you in the round: concede [x]. [u] takes the turn back."
        )
        assert "pick a card" not in board(app, "keys")
        assert shown_buttons(app) == {"concede", "undo"}
        await pilot.press("1")
        assert board(app, "status").startswith("There is no card to pick now. Nothing you can do now")

    run(app, alone)


@pytest.mark.parametrize(("advanced", "says"), [(False, "you lose the game"), (True, "You will be out of this round.")])
def test_the_concede_question_says_what_conceding_costs(advanced: bool, says: str) -> None:
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"], advanced=advanced))

    async def script(pilot: Any) -> None:
        await pilot.press("x")
        assert app.screen.id == "confirm-concede" and says in texts(app, app.screen)

    run(app, script)


def test_take_back_with_nothing_to_take_back_says_so_plainly() -> None:
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await pilot.press("u")
        assert board(app, "status") == "Nothing to take back: you have not played anything this turn."

    run(app, script)


# --- issue 10: the words of the interfaces ------------------------------------------------------

NOTATION_CARD = re.compile(r"\b[ROYGBIV][1-7]\b")
"""A card written in the notation (R1.3): in Portuguese the board never shows one."""


def portuguese_position_app() -> PlayApp:
    """Ana to move under Green (the canvas G2), O6 against Bia's Y4 I5; Bia drew R1 where
    everyone saw it, and Y1 is known on top of the deck."""
    game = Game.from_position(
        [["R7", "B5"], ["R1", "V3"]],
        [["O6"], ["Y4", "I5"]],
        canvas=["G2"],
        deck=["Y1", "B6"],
        deck_known=1,
        known=[[], ["R1"]],
    )
    return position_app(game)


def test_every_card_on_the_board_reads_in_portuguese() -> None:
    """In Portuguese every card the board shows is written with its colour's Portuguese
    mark (Vm7 is the Red 7; V-for-Violet would read as Vermelho): the hand, the palettes,
    the canvas, the known top of the deck, a card seen drawn, the standing and the log.
    A click on a card still picks it."""
    set_language("pt-BR")
    app = portuguese_position_app()

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert "Vm7" in board(app, "hand") and "Az5" in board(app, "hand")
        seats = board(app, "seats")
        assert "Lj6" in seats and "An5 " in seats and "Am4 " in seats and "(comprou Vm1)" in seats
        rule = board(app, "rule")
        assert "Tela:  Vd2 " in rule and "(conhecidas no topo: Am1)" in rule
        # too long for 80 columns in Portuguese: the deck goes on the next line, whole
        assert " Baralho: 2 cartas (conhecidas no topo: Am1)" in [line.rstrip() for line in screen_lines(app)]
        assert board(app, "standing") == "Vencendo: Ana — Verde: 1 carta par cada, e a carta mais alta decide: " + (
            "Lj6 contra Am4 (Bia)"
        )
        await click_card(pilot, "hand", "Az5")
        assert app.selected == Card.parse("B5") and "›Az5‹" in board(app, "hand")
        await pilot.press("p")
        assert board(app, "log-lines") == "Ana: jogou Az5"
        shown = "\n".join(screen_lines(app))
        assert not NOTATION_CARD.findall(shown), shown

    run(app, script, size=(80, 24))


def test_counts_of_zero_and_the_empty_log_in_portuguese() -> None:
    """Portuguese says "0 cartas" (0 takes the plural) and "(nenhuma ainda)" (jogadas)."""
    set_language("pt-BR")
    app = position_app(make(["R7 B3", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert "Baralho: 0 cartas" in board(app, "rule")
        assert board(app, "log-lines") == "(nenhuma ainda)"

    run(app, script)


LONG_PALETTES = (
    ["R7 B3 G1 Y2 O5 I6 V3", "G7", "O2", "Y1"],
    ["O6 Y3 B1 I2 V4 G5 R1", "Y5 G2 I3 V5 B7 R4 O1 Y7", "R2 G3", "I1"],
)


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_long_palette_goes_on_under_its_first_card_at_80x24(lang: str) -> None:
    """A palette longer than the screen is wide goes on on the next line under its first
    card (it used to go on at the screen's left edge, under the names), in both
    languages; every card of a language takes the same width."""
    set_language(lang)
    game = make(*LONG_PALETTES, advanced=True, actions=True)
    app = PlayApp(
        lambda: Table.around(game, [Seat("Ana"), *(Seat("", make_bot("easy"), "easy") for _ in range(3))]),
        bot_delay=0,
        hint="easy",
    )

    async def script(pilot: Any) -> None:
        await settle(pilot)
        lines = screen_lines(app)
        for seat, name in ((0, "Ana"), (1, "Bot 2")):
            labels = [card_label(c) for c in app.table.game.palette(seat)]
            row = next(i for i, line in enumerate(lines) if line.lstrip(" ▶").startswith(f"{name} "))
            column = lines[row].index(f" {labels[0]} ") + 1
            shown = lines[row][column:].split() + lines[row + 1][column:].split()
            assert lines[row + 1][:column].strip() == "" and shown == labels, (lines[row], lines[row + 1])
        assert len({len(card_label(c)) for c in ALL_CARDS}) == 1

    run(app, script, size=(80, 24))


def test_the_hotseat_pass_screen_in_portuguese() -> None:
    set_language("pt-BR")
    app = new_app(seed=4, bots=(), people=2, hotseat=True)

    async def script(pilot: Any) -> None:
        await settle(pilot)
        assert isinstance(app.screen, Pass)
        assert texts(app, app.screen).startswith("Passe o teclado para Jogador ")

    run(app, script)


def test_the_replay_title_in_portuguese(tmp_path: Path) -> None:
    set_language("pt-BR")
    games = positions(load(finished_record(tmp_path)))
    app = ReplayApp(games, "game.json")

    async def script(pilot: Any) -> None:
        title = str(app.query_one("#title").render())
        assert title == f"Revendo game.json · decisão 0 de {len(games) - 1} · visão: pública"
        await pilot.press("v")
        assert str(app.query_one("#title").render()).endswith("· visão: Jogador 1")

    run(app, script)


def test_the_turn_summary_says_the_advanced_draw_is_still_to_come_R5_1() -> None:
    """Confirming a draw: the card is not drawn yet, so the summary says it will be."""
    app = position_app(make(["B3 G1", "V2"], ["O6", "Y5"], deck="R7 V1", advanced=True))

    async def script(pilot: Any) -> None:
        await pilot.press("1", "c", "d")
        assert isinstance(app.screen, Choice) and app.screen.id == "confirm-turn"
        dialog = texts(app, app.screen)
        assert "You put B3 on the canvas (rule: Blue) and will draw a card." in dialog and "drew" not in dialog

    run(app, script)


def test_the_game_names_cards_in_portuguese_when_it_says_why_not() -> None:
    """The messages the game builds about a card (why it cannot be used, whose palette it
    is in) write it as the board does."""
    set_language("pt-BR")
    app = position_app(make(["R7 B3 V2", "G1"], ["O6", "Y5"]))

    async def script(pilot: Any) -> None:
        await pilot.press("1", "p", "2")
        assert board(app, "status") == (
            "Vt2 não pode ser usada agora: Com Vt2 na Tela você não estaria vencendo. Violeta: ninguém cumpre a regra."
        )
        await click_card(pilot, "seats", "Am5")
        assert board(app, "status").startswith("Am5 está na Paleta de Bia: ")

    run(app, script)
