"""The plain text game (red7.ui.text_game) on the session, in English and Portuguese."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import make
from red7 import Game
from red7.bots import make_bot
from red7.core.model import Config, IllegalActionError, RefusalCode
from red7.core.record import replay
from red7.play.records import load
from red7.play.session import Session
from red7.play.table import Seat, Table
from red7.ui.i18n import set_language
from red7.ui.text_game import play_text
from red7.ui.words import refusal_text


def run_text(session: Session, answers: str) -> str:
    out = io.StringIO()
    assert play_text(session, io.StringIO(answers), out) == 0
    return out.getvalue()


def bot_table(seed: int, config: Config | None = None, bots: int = 1) -> Table:
    return Table([Seat(), *(Seat("", make_bot("easy"), "easy") for _ in range(bots))], config, seed=seed)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("Your hand: ", "Winning: ", "Bot 2: played ", "won the game!", "Record saved to ")),
        ("pt-BR", ("Sua mão: ", "Vencendo: ", "Bot 2: jogou ", "venceu o jogo!", "Registro salvo em ")),
    ],
)
def test_a_whole_game_on_the_session(lang: str, words: tuple[str, ...], tmp_path: Path) -> None:
    """Answering "1" (the first option; concede is always one, R4.2) finishes the game;
    the log shows the bot's moves, the end names the winner and where the record is."""
    set_language(lang)
    table = bot_table(7)
    out = run_text(Session(table, save_to=tmp_path / "g.json"), "1\n" * 500)
    for word in words:
        assert word in out, (word, out[-1500:])
    assert out.startswith(f"Red7 — {'You' if lang == 'en' else 'Você'}, Bot 2. Seed 7.")
    assert replay(load(tmp_path / "g.json")).result == table.game.result


def test_each_round_end_is_announced_once(tmp_path: Path) -> None:
    table = bot_table(4, Config(3, advanced=True), bots=2)
    out = run_text(Session(table, save_to=tmp_path / "g.json"), "1\n" * 5000)
    rounds = table.game.round_results
    assert out.count("Round winner: ") == len(rounds) - 1 > 0  # the last one is the game's end
    assert "Scores (target 35): " in out.split("Round winner: ")[-1]


def test_the_log_shows_own_draws_but_not_the_bots_R9() -> None:
    """A 3 draws from the unknown deck (R7.3): the person's log names the card they drew,
    and never a card a bot drew."""
    game = make(["Y3 B2", "G1 V3"], ["O6", "Y5"], deck="R7 V1 I2", actions=True)
    out = run_text(Session(Table.around(game, [Seat(), Seat("", make_bot("easy"), "easy")])), "play Y3\nend\n")
    assert "  You: played Y3\n  You: drew R7\n" in out
    assert all(line.endswith("drew a card") for line in out.splitlines() if line.startswith("  Bot 2: drew"))


TYPED_REFUSALS = [
    # (code, position, answers before the refused one, the refused one, in Portuguese)
    (RefusalCode.WRONG_STEP, make(["R7 B3", "G1"], ["O6", "Y5"]), [], "end",
     "Uma decisão 'end' não cabe na etapa 'início' do turno (R4.2)."),
    (RefusalCode.NOT_IN_HAND, make(["R7 B3", "G1"], ["O6", "Y5"]), [], "play G1",
     "G1 não está na sua mão (R4.2)."),
    (RefusalCode.CANVAS_NOT_WINNING, make(["G1 B3", "V1"], ["O6", "Y5 R6"]), [], "canvas B3",
     "Com B3 na Tela você não estaria vencendo (R4.4)."),
    (RefusalCode.NOT_WINNING, make(["I1 B2", "V1"], ["O6", "R7"]), ["play I1"], "end",
     "Você não está vencendo, então o turno não pode terminar (R4.6)."),
    (RefusalCode.CANNOT_FINISH, make(["V7 O1", "B5"], ["G3", "I7 R5"], actions=True), [], "play V7",
     "Você só pode jogar V7 se ainda puder terminar o turno vencendo (R7.x)."),
    (RefusalCode.SEVEN_ITSELF, make(["R7 B2", "G1 O3"], ["O5 Y4", "V6"], actions=True), ["play R7"],
     "move R7 deck", "O 7 move outra carta da sua Paleta, não o próprio R7 (R7.7)."),
    (RefusalCode.NOT_IN_PALETTE, make(["R7 B2", "G1 O3"], ["O5 Y4", "V6"], actions=True), ["play R7"],
     "move B2 canvas", "B2 não está na sua Paleta (R7.7)."),
    (RefusalCode.NOT_IN_OTHER_PALETTE, make(["I1 B2", "G1 O3"], ["O5", "V6 Y2"], actions=True), ["play I1"],
     "take O5", "O5 não está na Paleta de outro jogador que continua na rodada (R7.1)."),
    (RefusalCode.PALETTE_TOO_SMALL, make(["I1 B2", "G1 O3", "R1 R2"], ["O5", "V6 Y2", "G4"], actions=True),
     ["play I1"], "take G4", "G4 está numa Paleta com menos cartas que a sua (R7.1)."),
]  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize(
    ("code", "game", "before", "refused", "portuguese"), TYPED_REFUSALS, ids=[r[0].value for r in TYPED_REFUSALS]
)
def test_a_typed_illegal_decision_is_explained_in_the_language_in_use(
    lang: str, code: RefusalCode, game: Game, before: list[str], refused: str, portuguese: str
) -> None:
    """Every refusal a person can type: the engine's code, translated through the catalog,
    with its rule; never the English exception. The game waits for another answer."""
    set_language(lang)
    trial = game.clone()
    for answer in before:
        trial.apply(answer)
    with pytest.raises(IllegalActionError) as err:
        trial.apply(refused)
    assert err.value.refusal.code is code
    seats = [Seat(), *(Seat("", make_bot("easy"), "easy") for _ in range(game.players - 1))]
    table = Table.around(game.clone(), seats)
    out = run_text(Session(table), "".join(f"{a}\n" for a in [*before, refused, "quit"]))
    assert f"  {refusal_text(err.value.refusal)}\n" in out
    if lang == "pt-BR":
        assert f"  {portuguese}\n" in out and err.value.reason not in out
    assert "illegal decision" not in out  # the exception's English text
    assert table.game.fingerprint() == trial.fingerprint()  # the refused decision changed nothing


def test_several_people_answer_in_turn() -> None:
    """At a hotseat table every person is asked on the same input (no crash on the second)."""
    table = Table([Seat("Ana"), Seat("Bia")], seed=3)
    out = run_text(Session(table), "1\n" * 200)
    assert "▶          Ana: " in out and "▶          Bia: " in out
    assert table.game.is_over


def test_the_text_game_imports_nothing_of_textual() -> None:
    code = (
        "import sys; import red7.ui.text_game;"
        "assert not [m for m in sys.modules if m.startswith('textual') or m.startswith('red7.ui.tui')]"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
