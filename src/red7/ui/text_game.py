"""The plain text game (``red7 play --text``, and ``red7 play`` when not on a terminal).

It drives a :class:`~red7.play.session.Session` as the screen game does: people answer
on standard input, by number or by notation; bots choose from their own observation;
the session reports round ends, the game's end and the saved record. The words are
:mod:`red7.ui.words`, shared with the screen game; nothing here imports Textual.

Everything is shown in the language in use, cards included (``Vm7`` in Portuguese,
:func:`~red7.ui.words.card_label`); each decision is offered in words with its
notation in brackets (``descartar Vd6 na Tela [canvas G6]``), because what a person
types is the game's notation (R1.3, English words and letters) or an option's number.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Sequence
from typing import TextIO

from ..core.actions import Action, ActionError, Kind
from ..core.cards import COLOUR_LETTERS, COLOURS
from ..core.model import IllegalActionError, Option
from ..core.standing import standing_of
from ..play.session import GameEnd, PersonTurn, RoundEnd, Session
from ..play.table import Table
from .i18n import _, ngettext
from .words import (
    cards_explained,
    cards_label,
    colour_name,
    decision_text,
    log_lines,
    refusal_text,
    round_winner,
    rule_text,
    scores_line,
    seat_name,
    winners_line,
    winning_line,
)

QUIT_WORDS = frozenset({"quit", "q", "exit", "sair"})
"""What stops the game when typed (any case): the notation's English words, and 'sair'."""


def describe(table: Table, seat: int, names: Sequence[str]) -> str:
    """A text picture of what ``seat`` sees (built from its observation only, R9); the
    seat to move is marked ``▶``."""
    obs = table.observe(seat)
    lines = [
        f"--- {_('Round {n}').format(n=obs.round)} · {rule_text(obs.rule)} · "
        f"{_('Deck: {cards}').format(cards=obs.deck_size)} ---"
    ]
    for s, name in enumerate(names):
        turn = "▶" if s == obs.current_player else " "
        if not obs.alive[s]:
            lines.append(f"{turn} {name:>12}: {_('out of the round')}")
            continue
        points = _("{score}/{target} pts").format(score=obs.scores[s], target=obs.target)
        score = f"  {points}" if obs.advanced else ""
        hand = ngettext("{n} card in hand", "{n} cards in hand", obs.hand_sizes[s]).format(n=obs.hand_sizes[s])
        lines.append(f"{turn} {name:>12}: {cards_label(obs.palettes[s]) or '-':<30} {hand}{score}")
    lines.append("  " + winning_line(standing_of(obs), names))
    if obs.deck_known_top:
        lines.append("  " + _("(known on top: {cards})").format(cards=cards_label(obs.deck_known_top)))
    lines.append("  " + _("Your hand: ") + cards_label(obs.hand or 0))
    return "\n".join(lines)


def say(text: str, out: TextIO) -> None:
    """Print ``text``; on a terminal each line too long for it is wrapped between words,
    going on at its own indentation (the terminal would cut a word at its edge).
    Elsewhere (a pipe, a file) lines are printed whole."""
    if not out.isatty():
        print(text, file=out)
        return
    width = max(shutil.get_terminal_size().columns - 1, 40)
    for line in text.split("\n"):
        indent = line[: len(line) - len(line.lstrip(" "))]
        wrapped = textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
        print("\n".join(wrapped) or line, file=out)


def option_text(option: Option) -> str:
    """An option as offered: the decision in words in the language in use and, when
    the words are not its notation, the notation to type in brackets, e.g.
    "put B3 on the canvas [canvas B3]" or "descartar Az3 na Tela [canvas B3]"; a
    choice that is not safe (R4.7) says so."""
    words, notation = decision_text(option.action), str(option.action)
    text = words if words == notation else f"{words} [{notation}]"
    return text if option.safe else text + "   " + _("(you would be out)")


def not_a_decision(text: str, options: int) -> str:
    """Why ``text`` is not a decision, in the language in use: what may be typed (an
    option's number, or the notation, which is English), and for a card that is not
    one, how the notation writes a card (the colours' English initials, R1.3)."""
    words = text.lower().split()
    if words and words[0] in (Kind.PLAY, Kind.CANVAS, Kind.MOVE, Kind.TAKE):
        letters = ", ".join(f"{letter} {colour_name(c)}" for letter, c in zip(COLOUR_LETTERS, COLOURS, strict=True))
        return _(
            "'{text}' names no card: the notation writes a card with its colour's English initial and its "
            "number, e.g. 'play R7' ({letters})."
        ).format(text=text, letters=letters)
    return _(
        "'{text}' is not a decision: type a number from 1 to {n}, or a decision's notation ('play R7', 'canvas B3', "
        "'end'...)."
    ).format(text=text, n=options)


def _read(text: str, options: list[Option]) -> Action:
    """The decision typed as ``text``: an option's number or a decision's notation.
    Raises IndexError for a number that is not an option's, ActionError for text that
    is not a decision."""
    if text.isdigit():
        if not 1 <= int(text) <= len(options):
            raise IndexError(text)
        return options[int(text) - 1].action
    return Action.parse(text)


def play_text(session: Session, stdin: TextIO, out: TextIO) -> int:
    """Play the session's game until it ends or input ends; returns the exit code.

    Every person at the table answers on ``stdin`` (several people share it, as at a
    hotseat); before each question the move log since the last one is printed, as that
    game's person (or, with several people, a spectator) may see it (R9).
    """
    table = session.table
    names = [seat_name(name) for name in session.names()]
    people = table.people
    viewer = people[0] if len(people) == 1 else None
    say(_("Red7 — {names}. Seed {seed}.").format(names=", ".join(names), seed=table.seed), out)
    say(cards_explained(), out)
    say(_("Type the number or the notation of a decision ('play R7', 'canvas B3', 'end'...), 'quit' to stop."), out)
    logged = 0  # events of the log printed so far

    def print_log() -> None:
        nonlocal logged
        events = session.log(viewer, logged)
        logged += len(events)
        for line in log_lines(events, names):
            say(f"  {line}", out)

    while True:
        moment = session.next()
        if isinstance(moment, GameEnd):
            print_log()
            return _game_over(moment, session, names, out)
        if isinstance(moment, RoundEnd):
            print_log()
            say(round_winner(moment.over, names), out)
        elif not isinstance(moment, PersonTurn):
            session.apply_bot(moment.choose())
        else:
            print_log()
            if not _ask(session, moment.seat, names, stdin, out):
                return 0


def _ask(session: Session, seat: int, names: Sequence[str], stdin: TextIO, out: TextIO) -> bool:
    """Show ``seat`` its table and options and apply its answer (or explain why not);
    False when the person quits or the input ends."""
    say(describe(session.table, seat, names), out)
    options = session.table.options()
    for i, option in enumerate(options, 1):
        say(f"  {i:2d}. {option_text(option)}", out)
    print("> ", end="", file=out, flush=True)
    line = stdin.readline()
    if not line:
        print("\n" + _("End of input: game abandoned."), file=out)
        return False
    text = line.strip()
    if not text:  # Enter alone: ask again
        return True
    if text.lower() in QUIT_WORDS:
        print(_("Game abandoned."), file=out)
        return False
    try:
        session.decide(_read(text, options))
    except IndexError:
        say("  " + _("Choose a number from 1 to {n}.").format(n=len(options)), out)
    except IllegalActionError as err:
        say("  " + refusal_text(err.refusal), out)
    except ActionError:  # not a decision at all (the engine's explanation is English)
        say("  " + not_a_decision(text, len(options)), out)
    return True


def _game_over(end: GameEnd, session: Session, names: Sequence[str], out: TextIO) -> int:
    say(winners_line(end.over.winners, names), out)
    target = session.table.config.target
    if target is not None:
        say(scores_line(end.over.scores, target, names), out)
    if end.saved is not None:
        say(_("Record saved to {path} (red7 replay {path}).").format(path=end.saved), out)
    elif end.save_error is not None:
        error = end.save_error.strerror
        say(_("Could not save the record to {path}: {error}").format(path=end.record, error=error), out)
    return 0
