"""The plain text game (red7.ui.text_game) on the session, in English and Portuguese."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from red7 import Card, Game
from red7.bots import make_bot
from red7.core.actions import ActionError, Kind
from red7.core.model import Config, IllegalActionError, RefusalCode
from red7.core.record import replay
from red7.play.records import load
from red7.play.saving import Saver
from red7.play.session import Session
from red7.play.table import Seat, Table
from red7.ui.i18n import _, set_language
from red7.ui.text_game import CLEAR, play_text, read_decision
from red7.ui.words import ACTION_TEXT, DECISION_TEXT, card_label, decision_text, move_log, refusal_text
from tests.support.helpers import make, run_main


def run_text(session: Session, answers: str, saver: Saver | None = None) -> str:
    out = io.StringIO()
    assert play_text(session, io.StringIO(answers), out, saver=saver) == 0
    return out.getvalue()


def bot_table(seed: int, config: Config | None = None, bots: int = 1) -> Table:
    return Table([Seat(), *(Seat("", make_bot("easy"), "easy") for _ in range(bots))], config, seed=seed)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("Your hand: ", "Winning: ", "Bot 2: played ", "won the game!", "Record saved to ")),
        ("pt-BR", ("Sua mão: ", "Vencendo: ", "Bot 2: jogou ", "venceu o jogo!", "Registro salvo em ", "desistir")),
    ],
)
def test_a_whole_game_on_the_session(lang: str, words: tuple[str, ...], tmp_path: Path) -> None:
    """Answering "1" (the first option; once nothing else is left, the concession, R4.2),
    and yes when asked to confirm, finishes the game; the log shows the bot's moves, the
    end names the winner and where the record is."""
    set_language(lang)
    table = bot_table(7)
    out = run_text(Session(table), "1\ny\n" * 500, Saver(save_to=tmp_path / "g.json"))
    for word in words:
        assert word in out, (word, out[-1500:])
    assert out.startswith("Red7 — You, Bot 2. Seed 7." if lang == "en" else "Red7 — Você, Bot 2. Semente 7.")
    assert replay(load(tmp_path / "g.json")).result == table.game.result


def test_each_round_end_is_announced_once(tmp_path: Path) -> None:
    table = bot_table(4, Config(3, advanced=True), bots=2)
    out = run_text(Session(table), "1\ny\n" * 5000, Saver(save_to=tmp_path / "g.json"))
    rounds = table.game.round_results
    assert out.count("Round winner: ") == len(rounds) - 1 > 0  # the last one is the game's end
    assert "Scores (target 35): " in out.split("Round winner: ")[-1]


def test_the_log_shows_own_draws_but_not_the_bots_R9() -> None:
    """A 3 draws from the unknown deck (R7.3): the person's log names the card they drew,
    and never a card a bot drew."""
    game = make(["Y3 B2", "G1 V3"], ["O6", "Y5"], deck="R7 V1 I2", actions=True)
    out = run_text(Session(Table.around(game, [Seat(), Seat("", make_bot("easy"), "easy")])), "play Y3\nend\n")
    assert "  You: played Y3\n  You: drew R7 (the 3's action)\n" in out
    assert all(
        line.endswith("drew a card (the 3's action)") for line in out.splitlines() if line.startswith("  Bot 2: drew")
    )


TYPED_REFUSALS = [
    # (code, position, answers before the refused one, the refused one, in Portuguese)
    (RefusalCode.WRONG_STEP, make(["R7 B3", "G1"], ["O6", "Y5"]), [], "end",
     "Uma decisão 'end' não cabe na etapa 'início' do turno."),
    (RefusalCode.NOT_IN_HAND, make(["R7 B3", "G1"], ["O6", "Y5"]), [], "play G1",
     "Vd1 não está na sua mão."),
    (RefusalCode.CANVAS_NOT_WINNING, make(["G1 B3", "V1"], ["O6", "Y5 R6"]), [], "canvas B3",
     "Com Az3 na Tela você não estaria vencendo. Azul: 1 cor contra 2."),
    (RefusalCode.NOT_WINNING, make(["I1 B2", "V1"], ["O6", "R7"]), ["play I1"], "end",
     "Você não está vencendo, então o turno não pode terminar. Vermelho: Lj6 contra Vm7."),
    (RefusalCode.CANNOT_FINISH, make(["V7 O1", "B5"], ["G3", "I7 R5"], actions=True), [], "play V7",
     "Você só pode jogar Vt7 se ainda puder terminar o turno vencendo. Vermelho: Vt7 contra An7."),
    (RefusalCode.SEVEN_ITSELF, make(["R7 B2", "G1 O3"], ["O5 Y4", "V6"], actions=True), ["play R7"],
     "move R7 deck", "O 7 move outra carta da sua Paleta, não a própria Vm7."),
    (RefusalCode.NOT_IN_PALETTE, make(["R7 B2", "G1 O3"], ["O5 Y4", "V6"], actions=True), ["play R7"],
     "move B2 canvas", "Az2 não está na sua Paleta."),
    (RefusalCode.NOT_IN_OTHER_PALETTE, make(["I1 B2", "G1 O3"], ["O5", "V6 Y2"], actions=True), ["play I1"],
     "take O5", "Lj5 não está na Paleta de outro jogador que continua na rodada."),
    (RefusalCode.PALETTE_TOO_SMALL, make(["I1 B2", "G1 O3", "R1 R2"], ["O5", "V6 Y2", "G4"], actions=True),
     ["play I1"], "take G4", "Vd4 está numa Paleta com menos cartas que a sua."),
]  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize(
    ("code", "game", "before", "refused", "portuguese"), TYPED_REFUSALS, ids=[r[0].value for r in TYPED_REFUSALS]
)
def test_a_typed_illegal_decision_is_explained_in_the_language_in_use(
    lang: str, code: RefusalCode, game: Game, before: list[str], refused: str, portuguese: str
) -> None:
    """Every refusal a person can type: the engine's code, translated through the catalog,
    the rule in words and the cards as the language shows them, without the rule's ID;
    never the English exception. The game waits for another answer."""
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
    assert f"({err.value.refusal.rule})" not in out  # the rule's ID is for the API
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


def four_options() -> Game:
    """Ana (O4) against Bot 2 (Y5) under Red: she may play R7 or G6, put G6 on the canvas
    (Green: O4 is even, Y5 is not) or concede."""
    return make(["R7 G6", "B1 I2"], ["O4", "Y5"])


@pytest.mark.parametrize(
    ("lang", "offered", "shown"),
    [
        (
            "en",
            ["play G6", "play R7", "put G6 on the canvas [canvas G6]", "concede   (you would be out)"],
            ["You: O4", "Bot 2: Y5", "Your hand: R7 G6", "You: put G6 on the canvas (rule: Green)"],
        ),
        (
            "pt-BR",
            [
                "jogar Vd6 [play G6]",
                "jogar Vm7 [play R7]",
                "descartar Vd6 na Tela [canvas G6]",
                "desistir [concede]   (você sairia da rodada)",
            ],
            ["Você: Lj4", "Bot 2: Am5", "Sua mão: Vm7 Vd6", "Você: descartou Vd6 na Tela (regra: Verde)"],
        ),
    ],
)
def test_decisions_and_cards_in_the_language_in_use_with_the_notation_to_type(
    lang: str, offered: list[str], shown: list[str]
) -> None:
    """The options are the decisions in words, cards as the language shows them (in
    Portuguese Vm7, never V-for-Vermelho), with the notation to type in brackets; the
    notation typed is accepted. Apart from the opening explanation and the brackets, no
    card is written in the notation in Portuguese."""
    set_language(lang)
    table = Table.around(four_options(), [Seat(), Seat("", make_bot("easy"), "easy")])
    out = run_text(Session(table), "canvas G6\nquit\n")
    first = out.split("\n>")[0]
    assert re.findall(r"^ +\d+\. (.*)$", first, re.MULTILINE) == offered
    for text in shown:
        assert f"{text}" in out, (text, out)
    assert Card.parse("G6") in table.game.observe(0).canvas  # the notation typed was accepted
    if lang == "pt-BR":
        shown_lines = [re.sub(r"\[[^]]*\]", "", line) for line in out.splitlines()[3:]]
        assert not [line for line in shown_lines if re.search(r"\b[ROYGBIV][1-7]\b", line)]


@pytest.mark.parametrize(
    ("lang", "question", "kept"),
    [
        ("en", "Concede? You will be out, and the basic game has only this round: you lose the game.", "Kept playing"),
        (
            "pt-BR",
            "Desistir? Você ficará fora, e o modo básico tem só esta rodada: você perde o jogo.",
            "Você continua jogando",
        ),
    ],
)
def test_a_concession_asks_first_and_is_never_option_1(lang: str, question: str, kept: str) -> None:
    """Issue 48, item 10: the concession is offered last, and typing it asks first; any
    answer but yes keeps the person in the game; yes ends it (the basic game's one round)."""
    set_language(lang)
    table = Table.around(four_options(), [Seat(), Seat("", make_bot("easy"), "easy")])
    out = run_text(Session(table), f"{len(table.options())}\nno\nquit\n")
    first = out.split("\n>")[0]
    numbered = re.findall(r"^ +(\d+)\. (.*)$", first, re.MULTILINE)
    assert numbered[0][1] != decision_text(next(o.action for o in table.options() if o.action.kind is Kind.CONCEDE))
    assert numbered[-1][1].startswith("concede" if lang == "en" else "desistir")
    assert question in out and kept in out
    assert not table.is_over and table.game.decisions == 0
    out = run_text(Session(table), f"{len(table.options())}\n{'yes' if lang == 'en' else 'sim'}\n")
    assert table.is_over and table.game.result is not None and table.game.result.winners == (1,)


def test_the_issues_draw_step_offers_drawing_first(tmp_path: Path) -> None:
    """The issue's game (``printf '\\n7\\n2\\nend\\n\\njogar Vm3\\ncanvas B6\\n1\\nsair\\n' | red7 play
    --text --hotseat --players 3 --names Ana,Bia,Caio --advanced --actions --lang pt-BR
    --seed 5``): at the draw step after B6 on the canvas, ``1`` draws a card, where it
    conceded the round."""
    set_language("pt-BR")
    table = Table([Seat("Ana"), Seat("Bia"), Seat("Caio")], Config(3, advanced=True, actions=True), seed=5)
    out = run_text(Session(table), "\n7\n2\nend\n\njogar Vm3\ncanvas B6\n1\nsair\n")
    assert "Ana: descartou Az6 na Tela (regra: Azul)" in out
    assert "Ana: comprou uma carta (compra pela Tela)" in out
    assert "Ana: " + _(ACTION_TEXT[Kind.CONCEDE, None]) not in out


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_an_unsafe_decision_asks_and_is_made_only_if_confirmed(lang: str) -> None:
    """Playing B3 would leave Ana losing under Red (the bot's R7) with nothing left to fix
    it: typed, it asks why first; "no" changes nothing, yes makes it."""
    set_language(lang)
    table = Table.around(make(["B3", "G1 Y2"], ["O4", "R7"]), [Seat(), Seat("", make_bot("easy"), "easy")])
    out = run_text(Session(table), "play B3\nno\nquit\n")
    asked = (
        "This choice is not safe. Afterwards you would not be winning"
        if lang == "en"
        else "Esta escolha não é segura. Depois disso você não estaria vencendo"
    )
    assert asked in out and table.game.decisions == 0
    run_text(Session(table), f"play B3\n{'yes' if lang == 'en' else 'sim'}\nquit\n")
    assert table.game.decisions >= 1 and table.game.palette(0) == ["O4", "B3"]


@pytest.mark.parametrize(
    ("lang", "says"),
    [
        (
            "en",
            [
                "'foo' is not a decision: type a number from 1 to 4, a decision as the options say it ('play R7', "
                "'put B3 on the canvas', 'end the turn'...), or its notation, in brackets ('play R7', 'canvas B3', "
                "'end'...).",
                "'play X9' names no card: the notation writes a card with its colour's English initial and its "
                "number, e.g. 'play R7' (R Red, O Orange, Y Yellow, G Green, B Blue, I Indigo, V Violet).",
            ],
        ),
        (
            "pt-BR",
            [
                "'foo' não é uma decisão: digite um número de 1 a 4, uma decisão como as opções a dizem ('jogar "
                "Vm7', 'descartar Az3 na Tela', 'encerrar o turno'...) ou a notação dela, entre colchetes (a notação "
                "do jogo, em inglês: 'play R7', 'canvas B3', 'end'...).",
                "'play X9' não indica uma carta: escreva a carta como as opções a mostram, por exemplo 'jogar Vm7', "
                "ou como a notação do jogo, com a inicial da cor em inglês e o número, por exemplo 'play R7' "
                "(R Vermelho, O Laranja, Y Amarelo, G Verde, B Azul, I Anil, V Violeta).",
            ],
        ),
    ],
)
def test_text_that_is_no_decision_is_explained_in_the_language_in_use(lang: str, says: list[str]) -> None:
    """An unreadable answer, or a card the notation does not know, says what to type in the
    language in use: the decisions as the options say them there (in Portuguese 'jogar
    Vm7', issue 34: only the English notation was shown) and the notation, which is
    English; not the engine's English error."""
    set_language(lang)
    table = Table.around(four_options(), [Seat(), Seat("", make_bot("easy"), "easy")])
    before = table.game.fingerprint()
    out = run_text(Session(table), "foo\nplay X9\nsair\n")
    for text in says:
        assert f"  {text}" in out, (text, out)
    assert "bad decision" not in out and "unknown card" not in out
    assert table.game.fingerprint() == before


def test_a_card_the_portuguese_words_do_not_name_is_explained() -> None:
    """'jogar X9', the Portuguese words with a card no language writes, is told how cards
    are written (as shown, and in the notation), not that it is no decision."""
    set_language("pt-BR")
    table = Table.around(four_options(), [Seat(), Seat("", make_bot("easy"), "easy")])
    out = run_text(Session(table), "jogar X9\nsair\n")
    assert "  'jogar X9' não indica uma carta: escreva a carta como as opções a mostram, por exemplo 'jogar Vm7'" in out


@pytest.mark.parametrize(
    ("lang", "explained"),
    [
        ("en", "A card shows its colour and its number: R7 is the Red 7. The colours: R Red, O Orange, "),
        (
            "pt-BR",
            "Cada carta mostra a cor e o número: Vm7 é o 7 Vermelho. As cores: Vm Vermelho (R), Lj Laranja (O), "
            "Am Amarelo (Y), Vd Verde (G), Az Azul (B), An Anil (I), Vt Violeta (V). Os registros de partida e a "
            "notação do modo texto usam as iniciais em inglês, entre parênteses: V1 é a carta Vt1 (V é Violeta, "
            "não Vermelho).",
        ),
    ],
)
def test_the_text_game_begins_by_saying_how_cards_are_written(lang: str, explained: str) -> None:
    set_language(lang)
    table = Table.around(four_options(), [Seat(), Seat("", make_bot("easy"), "easy")])
    assert run_text(Session(table), "quit\n").splitlines()[1].startswith(explained)


class Terminal(io.StringIO):
    """Output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_on_an_80_column_terminal_long_lines_wrap_between_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """The opening explanation, the standing and the messages are long in Portuguese: on a
    terminal they wrap between words at its width (the terminal cut "Vi|oleta") and go
    on at their own indentation; Enter alone asks again without a complaint."""
    monkeypatch.setenv("COLUMNS", "80")
    set_language("pt-BR")
    table = Table.around(four_options(), [Seat(), Seat("", make_bot("easy"), "easy")])
    out = Terminal()
    assert play_text(Session(table), io.StringIO("\nfoo\nquit\n"), out) == 0
    lines = out.getvalue().replace("> ", "").splitlines()
    assert max(map(len, lines)) < 80
    assert "Vt Violeta (V). Os registros de partida e a notação do modo texto usam as iniciais" in " ".join(lines)
    error = next(i for i, line in enumerate(lines) if "'foo' não é uma decisão" in line)
    assert lines[error].startswith("  '") and lines[error + 1].startswith("  ") and lines[error + 1][2] != " "
    assert sum("não é uma decisão" in line for line in lines) == 1  # for 'foo', not for the empty answer


# --- hotseat: several people share the screen --------------------------------------------------


def screens(out: str) -> list[str]:
    """What a terminal showed between two clears of the screen (the first: before any)."""
    return out.split(CLEAR)


def hands_in(screen: str) -> list[str]:
    """The names whose hand a screen shows ("Ana's hand: ...", in the language in use)."""
    title = re.escape(_("{name}'s hand: ")).replace(r"\{name\}", "(.+?)")
    return re.findall(rf"^  {title}", screen, re.MULTILINE)


def check_hotseat_screens(out: str, names: list[str]) -> list[str]:
    """Each screen shows one person's hand at most, only after the pass step that names
    them, and never "Your hand"; returns whose hand each screen showed ("" for none)."""
    pass_to = _("Pass the device to {name}")
    shown = []
    for screen in screens(out):
        hands = set(hands_in(screen))
        assert len(hands) <= 1, hands
        assert _("Your hand: ") not in screen
        if hands:
            (name,) = hands
            assert name in names
            step = screen.index(pass_to.format(name=name))
            assert step < screen.index(_("{name}'s hand: ").format(name=name))
            assert not [n for n in names if n != name and pass_to.format(name=n) in screen]
        shown.append(next(iter(hands), ""))
    return shown


@pytest.mark.parametrize("lang", ["pt-BR", "en"])
def test_a_hotseat_text_game_clears_the_screen_and_passes_before_each_hand(lang: str) -> None:
    """The issue's repro (three people, seed 7): Bia moves first and her turn is a play
    then a canvas ("1" twice). Her hand was followed at once by Caio's, on the same
    screen, both called "Your hand". Now a pass step names each person before their
    hand, the screen is cleared before the next one's pass step, and the hand says
    whose it is; what Bia did is told to Caio before he says he is at the screen."""
    set_language(lang)
    table = Table([Seat("Ana"), Seat("Bia"), Seat("Caio")], seed=7)
    out = Terminal()
    assert play_text(Session(table), io.StringIO("\n1\n1\n\nquit\n"), out) == 0
    text = out.getvalue()
    assert text.count(CLEAR) == 1  # Bia's hand goes before Caio's pass step (it stayed above his hand)
    assert check_hotseat_screens(text, ["Ana", "Bia", "Caio"]) == ["Bia", "Caio"]
    first, second = screens(text)
    assert first.startswith(_("Red7 — {names}. Seed {seed}.").format(names="Ana, Bia, Caio", seed=7))
    assert table.game.history and table.current == 2  # Bia's turn is over: Caio's begins
    news = second.split(_("Pass the device to {name}").format(name="Caio"))[0]
    assert news.startswith(_("So far:") + "\n") and _("Bia: ").strip() in news
    if lang == "pt-BR":
        assert "Passe o teclado para Caio" in second and "\n  Mão de Caio: " in second


@pytest.mark.parametrize("lang", ["pt-BR", "en"])
def test_the_person_who_ends_a_round_and_begins_the_next_passes_too_in_text(lang: str) -> None:
    """Four people in an advanced match (seed 3): Ana, Bia and Caio concede round 1,
    and Caio begins round 2. The round's end is told on a cleared screen, and Caio's new
    hand waits for a pass step naming him (it was printed right under his old one)."""
    set_language(lang)
    table = Table([Seat(n) for n in ("Ana", "Bia", "Caio", "Duda")], Config(4, advanced=True), seed=3)
    out = Terminal()
    answers = "\nconcede\nyes\n" * 3 + "\nquit\n"
    assert play_text(Session(table), io.StringIO(answers), out) == 0
    text = out.getvalue()
    assert check_hotseat_screens(text, ["Ana", "Bia", "Caio", "Duda"]) == ["Ana", "Bia", "Caio", "Caio"]
    last = screens(text)[-1]  # the move that ended the round, its outcome, then the pass step
    conceded = "  Caio: " + _(ACTION_TEXT[Kind.CONCEDE, None]) + "\n"
    won = _("Round winner: {name}, under the rule {rule}.").format(name="Duda", rule=_("Red"))
    assert last.startswith(conceded + won + "\n")
    assert last.index(won) < last.index(_("Pass the device to {name}").format(name="Caio"))
    assert table.game.observe(None).round == 2 and table.current == 2


def test_a_whole_hotseat_text_game_never_shows_two_hands_on_one_screen() -> None:
    """A whole basic game of three people answering "1" (a pass step takes any answer
    but 'quit'): every hand after its own pass step, one per screen, and the game's end
    on a screen of its own, with no hand."""
    set_language("en")
    table = Table([Seat("Ana"), Seat("Bia"), Seat("Caio")], seed=5)
    out = Terminal()
    assert play_text(Session(table), io.StringIO("1\ny\n" * 500), out) == 0
    shown = check_hotseat_screens(out.getvalue(), ["Ana", "Bia", "Caio"])
    assert table.game.is_over and len(shown) > 3
    assert shown[-1] == "" and "won the game!" in screens(out.getvalue())[-1]


def test_one_person_against_bots_gets_no_pass_step_in_text() -> None:
    """One person and two bots (an advanced match, to its end): no pass step and no
    cleared screen; the hand is "Your hand"."""
    set_language("en")
    table = bot_table(4, Config(3, advanced=True), bots=2)
    out = Terminal()
    assert play_text(Session(table), io.StringIO("1\ny\n" * 5000), out) == 0
    text = out.getvalue()
    assert table.game.is_over and CLEAR not in text and "Pass the device" not in text
    assert "Your hand: " in text and not hands_in(text)


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_every_form_the_text_game_shows_is_accepted(lang: str) -> None:
    """Issue 34: what the options show is what may be typed, in either language: the
    words ("jogar Vm7", "descartar Vm3 na Tela"), the notation in brackets ("[play R7]"),
    the English words, the card written either way, a card alone when one option names
    it, any case."""
    set_language(lang)
    table = bot_table(5, Config(2, advanced=True, actions=True))
    options = table.options()
    for option in options:
        action = option.action
        forms = [decision_text(action), f"[{action}]", str(action).upper(), decision_text(action).upper()]
        if action.card is not None:
            label = card_label(action.card)
            forms += [
                str(action).replace(str(action.card), label),
                decision_text(action).replace(label, str(action.card)),
            ]
            english = DECISION_TEXT[action.kind, action.destination]  # the msgid: the English words
            forms.append(english.format(card=action.card, rule=action.card.colour_name))
        for form in forms:
            assert read_decision(form, options) is action, (form, action)
    alone = [o.action for o in options if o.action.card is not None]
    once = [a for a in alone if [b.card for b in alone].count(a.card) == 1]
    assert once, "the deal has a card that only one option names"
    assert read_decision(card_label(once[0].card), options) is once[0]  # type: ignore[arg-type]
    with pytest.raises(ActionError):
        read_decision("jogar Xx9", options)


@pytest.mark.parametrize(
    ("lang", "commands", "says"),
    [
        (
            "en",
            ["help", "hint", "rules", "1", "undo", "undo"],
            [
                "Commands: 'hint'",
                "Hint: the hard bot would",
                "The rules of Red7",
                "| Green (G) | most even cards | V7 · I6 ✓ · G4 ✓ · O3 · R2 ✓ |",  # an example under each rule
                "## Commands",
                "Turn taken back.",
                "Nothing to take back: you have not played",
            ],
        ),
        (
            "pt-BR",
            ["ajuda", "dica", "regras", "1", "desfazer", "desfazer"],
            [
                "Comandos: 'dica'",
                "Dica: o bot difícil",
                "As regras do Red7",
                "| Verde (Vd) | mais números pares | Vt7 · An6 ✓ · Vd4 ✓ · Lj3 · Vm2 ✓ |",
                "## Comandos",
                "Turno desfeito.",
                "Nada a desfazer",
            ],
        ),
    ],
)
def test_the_text_game_has_help_hint_rules_and_undo(lang: str, commands: list[str], says: list[str]) -> None:
    """Issue 34: the commands of the text game, in either language; undo takes back the
    staged part of the turn as the terminal game does (the card played goes back to the hand)."""
    set_language(lang)
    table = bot_table(5)
    session = Session(table)
    hand = table.observe(0).hand
    out = run_text(session, "\n".join([*commands, "quit"]) + "\n")
    for text in says:
        assert text in out, (text, out[-3000:])
    assert table.observe(0).hand == hand and not table.staged
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("lang", "resume"),
    [("en", "Continue it later with: red7 play --resume"), ("pt-BR", "Para continuar depois: red7 play --resume")],
)
def test_quitting_the_text_game_says_it_is_saved_and_how_to_resume(lang: str, resume: str, tmp_path: Path) -> None:
    """Issue 34: the text game keeps the game in progress as the terminal game does, and
    quitting says where it is and how to take it up again (the file resumes)."""
    set_language(lang)
    unfinished = tmp_path / "unfinished"
    table = bot_table(5)
    session = Session(table)
    out = run_text(session, "1\nend\n1\nend\nquit\n", Saver(autosave=unfinished / table.record_name()))
    assert resume in out, out[-1500:]
    (saved,) = unfinished.glob("*.json")
    assert str(saved) in out
    assert Table.resume(load(saved)).event_count > 0


def test_ctrl_c_ends_the_text_game_in_its_language(tmp_path: Path) -> None:
    """Issue 34: Ctrl+C at the text game's prompt says, in the game's language, that the
    game stops and is saved, with no traceback (exit code 130)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    red7 = str(Path(sys.executable).with_name("red7"))
    # SIGINT's default action restored in the child: a suite started in the background of
    # a non-interactive shell inherits SIGINT ignored, and Python then never raises
    # KeyboardInterrupt (the game would end by its input's end instead, exit code 0).
    proc = subprocess.Popen(
        [red7, "play", "--text", "--lang", "pt-BR", "--seed", "5", "--players", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"1\nend\n")
    proc.stdin.flush()
    seen = b""
    while seen.count(b"> ") < 3:  # the prompt after the first turn, then the one after it
        chunk = proc.stdout.read1(4096)
        assert chunk, seen.decode()
        seen += chunk
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    text = (seen + out).decode()
    assert proc.returncode == 130, (text, err.decode())
    assert "Interrompido: o jogo para aqui." in text and "Para continuar depois: red7 play --resume" in text
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err, err.decode()


def test_play_checks_the_hint_spec_in_the_text_game_too(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 34: --hint is checked in every mode (the text game's hint command uses it)."""
    code, out, err = run_main(["play", "--text", "--hint", "wizard"], capsys)
    assert code == 2 and out == "" and "--hint: " in err


def test_a_resumed_hotseat_text_game_recaps_since_each_persons_last_turn(tmp_path: Path) -> None:
    """Issue 34: resuming a hotseat game, the pass step tells what happened since that
    person's last turn (it once told nothing), as a spectator sees it."""
    table = Table([Seat("Ana"), Seat("Bia"), Seat("", make_bot("easy"), "easy")], seed=3)
    path = tmp_path / "unfinished" / "game.json"
    run_text(Session(table), "1\n" * 12 + "quit\n", Saver(autosave=path))
    resumed = Table.resume(load(path))
    seat = resumed.current
    assert seat is not None and seat in resumed.turns_seen()
    out = run_text(Session(resumed, resumed=True), "quit\n")
    names = ["Ana", "Bia", "Bot 3"]
    news = [f"  {line}" for line in move_log(resumed.events_for(None, resumed.turns_seen()[seat]), names)]
    assert news and "\n".join(["Since your last turn:", *news, f"Pass the device to {names[seat]}"]) in out, out
