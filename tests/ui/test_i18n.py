"""Languages (red7.ui.i18n): the catalogs are complete, current and consistent.

English is the language of the messages in the code; every message must have a
Brazilian Portuguese translation, and the compiled catalog must match its source.
"""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from red7 import Game
from red7.core.actions import Action
from red7.core.cards import ALL_CARDS, COLOUR_LETTERS
from red7.core.events import PlayerEliminated
from red7.core.model import Refusal, RefusalCode, Step
from red7.ui.i18n import (
    LOCALE_DIR,
    LanguageError,
    _,
    detect_language,
    language,
    ngettext,
    parse_language,
    set_language,
)
from red7.ui.words import card_label, card_marks, cards_label, event_text, move_log, refusal_text
from tests.support.helpers import make

ROOT = Path(__file__).resolve().parents[2]
PO = LOCALE_DIR / "pt_BR" / "LC_MESSAGES" / "red7.po"
MO = PO.with_suffix(".mo")


def source_messages() -> set[str | tuple[str, str]]:
    """Every message the code marks for translation (as `make translations` extracts them)."""
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        ROOT / "src" / "red7", method_map=[("**.py", "python")]
    ):
        found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


def catalog() -> dict[str | tuple[str, str], object]:
    with PO.open("rb") as f:
        cat = read_po(f, locale="pt_BR")
    return {(m.id if isinstance(m.id, str) else tuple(m.id)): m for m in cat if m.id}  # type: ignore[misc]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_message_in_the_code_is_translated_and_none_is_left_over() -> None:
    code, po = source_messages(), catalog()
    assert len(code) > 150
    assert sorted(map(str, code - po.keys())) == [], "run `make translations` and translate the new messages"
    assert sorted(map(str, po.keys() - code)) == [], "messages no longer in the code: run `make translations`"
    for key, message in po.items():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)  # type: ignore[attr-defined]
        assert all(s.strip() for s in strings), f"untranslated: {key!r}"
        assert not message.fuzzy, f"fuzzy translation: {key!r}"  # type: ignore[attr-defined]


def test_translations_keep_the_placeholders_and_keys() -> None:
    for key, message in catalog().items():
        ids = (key,) if isinstance(key, str) else key
        strings = message.string if isinstance(message.string, tuple) else (message.string,)  # type: ignore[attr-defined]
        expected = set().union(*(fields(i) for i in ids))
        for s in strings:
            assert fields(s) <= expected and fields(s) >= fields(ids[-1]) - {"n"}, (key, s)
            # the keys shown in brackets ([p], [enter]) are the same in both languages
            assert set(re.findall(r"\[[a-z?←/→0-9 -]+\]", s)) == set(re.findall(r"\[[a-z?←/→0-9 -]+\]", ids[0])), s


def test_the_compiled_catalog_matches_its_source() -> None:
    """The .mo shipped in the package is the .po compiled (`make translations`)."""
    with PO.open("rb") as f:
        cat = read_po(f, locale="pt_BR")
    fresh = io.BytesIO()
    write_mo(fresh, cat)
    fresh.seek(0)
    expected = gettext.GNUTranslations(fresh)
    with MO.open("rb") as f:
        shipped = gettext.GNUTranslations(f)
    assert shipped._catalog == expected._catalog  # type: ignore[attr-defined]


def test_set_language_switches_every_message() -> None:
    assert _("Red") == "Red" and language() == "en"
    set_language("pt_BR.UTF-8")
    assert language() == "pt-BR"
    assert _("Red") == "Vermelho"
    assert ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 carta"
    assert ngettext("{n} card", "{n} cards", 33).format(n=33) == "33 cartas"
    assert ngettext("{n} card", "{n} cards", 0).format(n=0) == "0 cartas"  # Portuguese: 0 takes the plural
    set_language("en")
    assert _("Red") == "Red"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"LANG": "pt_BR.UTF-8"}, "pt-BR"),
        ({"LANGUAGE": "pt_BR:en", "LANG": "en_US.UTF-8"}, "pt-BR"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "pt_BR.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_default_language_comes_from_the_locale(env: dict[str, str], expected: str) -> None:
    assert detect_language(env) == expected


def test_an_unknown_language_is_refused_with_the_choices() -> None:
    with pytest.raises(LanguageError, match="choose one of: en, pt-BR"):
        parse_language("fr")
    assert language() == "en"


def test_zero_takes_the_plural_in_every_count_of_the_portuguese_catalog() -> None:
    """ "0 cartas", "0 cartas na mão", "= 0 pontos": every plural message at 0 is its
    plural form (Babel's Portuguese rule gave 0 the singular: "Baralho: 0 carta")."""
    set_language("pt-BR")
    plurals = [key for key in catalog() if isinstance(key, tuple)]
    assert len(plurals) >= 10
    for singular, plural in plurals:
        assert ngettext(singular, plural, 0) == ngettext(singular, plural, 2) != ngettext(singular, plural, 1)


RULE_ID = re.compile(r"\(R\d")


def test_no_message_for_players_names_a_rule_by_its_id() -> None:
    """Rule IDs ("(R4.6)") are for the API and the rules documents: no message of the
    code or of the catalog contains one."""
    for key, message in catalog().items():
        texts = [*((key,) if isinstance(key, str) else key)]
        texts += message.string if isinstance(message.string, tuple) else [message.string]  # type: ignore[attr-defined]
        assert not [t for t in texts if RULE_ID.search(t)], key


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("code", list(RefusalCode))
def test_a_refusal_says_the_rule_in_words_without_its_id(lang: str, code: RefusalCode) -> None:
    set_language(lang)
    refusal = Refusal(code, Action.parse("play V7"), Step.START, ALL_CARDS[0])
    text = refusal_text(refusal)
    assert not RULE_ID.search(text) and refusal.rule not in text, text
    assert text[0].isupper() and text.endswith(".")
    assert event_text(PlayerEliminated(1, conceded=False)) is not None
    assert not RULE_ID.search(event_text(PlayerEliminated(1, conceded=False)) or "")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "With G2 on the canvas you would not be winning. Green: 2 even cards against 2; O6 wins the tie."),
        ("pt-BR", "Com Vd2 na Tela você não estaria vencendo. Verde: 2 cartas pares contra 2; Lj6 vence o empate."),
    ],
)
def test_a_refusal_says_its_numbers(lang: str, said: str) -> None:
    """A refusal because the mover would not be winning says the standing in numbers,
    from the engine's: their qualifying cards against the best other's, and the card
    that wins a tie (a 7's move: G2 to the canvas, R2 Y2 against O6 V6); the rule Red
    says the two highest cards."""
    set_language(lang)
    game = make(["I7 G3", "V3"], ["R2 G2 Y2 B5", "O6 V6"], canvas="O1", actions=True)
    game.apply("play I7")
    refusal = game.check("move G2 canvas")
    assert refusal is not None and refusal_text(refusal) == said
    end = make(["I1 B2", "V1"], ["O6", "R7"])
    end.apply("play I1")
    refusal = end.check("end")
    assert refusal is not None
    assert refusal_text(refusal).endswith(
        " Red: O6 against R7." if lang == "en" else f" Vermelho: {card_label('O6')} contra {card_label('R7')}."
    )


def test_english_shows_cards_in_the_notation() -> None:
    assert card_marks() == tuple(COLOUR_LETTERS)
    assert [card_label(c) for c in ALL_CARDS] == [str(c) for c in ALL_CARDS]


def test_portuguese_cards_cannot_be_misread() -> None:
    """A Brazilian reads V5 as Vermelho (it is Violet) and G as nothing (Green is Verde):
    Portuguese shows seven distinct marks of the same width, none a notation letter, so
    no card looks like another card's notation."""
    set_language("pt-BR")
    marks = card_marks()
    assert marks == ("Vm", "Lj", "Am", "Vd", "Az", "An", "Vt")
    assert len(set(marks)) == 7 and len(set(map(len, marks))) == 1
    assert not set(marks) & set(COLOUR_LETTERS)
    assert card_label("R7") == "Vm7" and card_label("V1") == "Vt1" and card_label("G2") == "Vd2"
    assert cards_label(["B3", "I4"]) == "Az3 An4"
    labels = {card_label(c) for c in ALL_CARDS}
    assert len(labels) == 49 and not labels & {str(c) for c in ALL_CARDS}


@pytest.mark.parametrize(
    ("english", "portuguese"),
    [
        # a card (a carta) is feminine: the words that refer back to one agree with it
        ("took {card} and put it on the deck", "pegou {card} e a pôs no topo do baralho"),
        (
            "the 7 moves another card of your palette, not {card} itself",
            "o 7 move outra carta da sua Paleta, não a própria {card}",
        ),
        ("(none yet)", "(nenhuma ainda)"),  # jogadas
        # "mais do mesmo" reads as the idiom ("more of the same"): say what there is more of
        ("most cards of one number", "mais cartas de um mesmo número"),
        ("most cards of one colour", "mais cartas de uma mesma cor"),
        (
            "{decision} threw a won round away, with every hand known ({kept} would have kept it).",
            "{decision} jogou fora uma rodada ganha, com todas as mãos à vista ({kept} a teria mantido).",
        ),
        (
            "{colour}: {what} against {other}; {card} wins the tie",
            "{colour}: {what} contra {other}; {card} vence o empate",
        ),
        ("Replay {name} · decision {i} of {n}", "Revendo {name} · decisão {i} de {n}"),
        ("everyone's public view", "pública"),  # after "visão: " (a seat's: "visão: Jogador 1")
        # "passar a vez" is to skip one's turn: what is handed over is the keyboard
        ("Pass the device to {name}", "Passe o teclado para {name}"),
        ("Red7 — {names}. Seed {seed}.", "Red7 — {names}. Semente {seed}."),
    ],
)
def test_portuguese_wordings(english: str, portuguese: str) -> None:
    set_language("pt-BR")
    assert _(english) == portuguese


def test_the_log_says_why_a_card_was_drawn_and_whose_card_a_1_took_R5_1_R7_1_R7_3_R9() -> None:
    """Every front end's log (red7.ui.words.move_log) says why each card was drawn (a
    3's action or the advanced canvas draw) and whose palette a 1 took a card from, in
    English and Portuguese; the card drawn is named only to the one who drew it (R9)."""
    canvas_draw = make(["B7 G2", "Y4"], ["R6", "O5"], deck="V4 I2", advanced=True)
    canvas_draw.apply("canvas B7")
    canvas_draw.apply("draw")
    three = make(["G3 B1", "V2"], ["O6", "Y5"], deck="R7 V1", actions=True)
    three.apply("play G3")
    one = make(["I1 B2", "G1 O3"], ["O5", "V6 Y2"], actions=True)
    one.apply("play I1")
    one.apply("take V6")
    names = ["Ana", "Bia"]

    def log(game: Game, viewer: int | None) -> list[str]:
        return move_log([e.seen_by(viewer) for e in game.events], names, viewer)

    try:
        assert log(canvas_draw, 0)[-1] == "You drew V4 (the canvas draw)"
        assert log(canvas_draw, 1)[-1] == "Ana: drew a card (the canvas draw)"
        assert log(three, 0)[-1] == "You drew R7 (the 3's action)"
        assert log(three, None)[-1] == "Ana: drew a card (the 3's action)"
        assert log(one, 0)[-1] == "Ana: took V6 from Bia's palette and put it on the deck"
        assert log(one, 1)[-1] == "Ana: took V6 from your palette and put it on the deck"
        set_language("pt-BR")
        assert log(canvas_draw, 1)[-1] == "Ana: comprou uma carta (compra pela Tela)"
        assert log(three, 0)[-1] == "Você comprou Vm7 (ação do 3)"
        assert log(one, None)[-1] == "Ana: pegou Vt6 da Paleta de Bia e a pôs no topo do baralho"
        assert log(one, 1)[-1] == "Ana: pegou Vt6 da sua Paleta e a pôs no topo do baralho"
    finally:
        set_language("en")
