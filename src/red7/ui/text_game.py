"""The plain text game (``red7 play --text``, and ``red7 play`` when not on a terminal).

It drives a :class:`~red7.play.session.Session` as the screen game does: people answer
on standard input, by number or by notation; bots choose from their own observation;
the session reports round ends, the game's end and the saved record. The words are
:mod:`red7.ui.words`, shared with the screen game; nothing here imports Textual.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from ..core.actions import Action, ActionError
from ..core.cards import Card, CardSet
from ..core.model import IllegalActionError, Option
from ..core.standing import standing_of
from ..play.session import GameEnd, PersonTurn, RoundEnd, Session
from ..play.table import Table
from .i18n import _, ngettext
from .words import log_lines, refusal_text, round_winner, rule_text, scores_line, seat_name, winners_line, winning_line


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
        lines.append(f"{turn} {name:>12}: {str(CardSet(obs.palettes[s])) or '-':<30} {hand}{score}")
    lines.append("  " + winning_line(standing_of(obs), names))
    if obs.deck_known_top:
        known = " ".join(str(Card(c)) for c in obs.deck_known_top)
        lines.append("  " + _("(known on top: {cards})").format(cards=known))
    lines.append("  " + _("Your hand: ") + str(CardSet(obs.hand or 0)))
    return "\n".join(lines)


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
    print(f"Red7 — {', '.join(names)}. Seed {table.seed}.", file=out)
    print(
        _("Type the number or the notation of a decision ('play R7', 'canvas B3', 'end'...), 'quit' to stop."), file=out
    )
    logged = 0  # events of the log printed so far

    def print_log() -> None:
        nonlocal logged
        events = session.log(viewer, logged)
        logged += len(events)
        for line in log_lines(events, names):
            print(f"  {line}", file=out)

    while True:
        moment = session.next()
        if isinstance(moment, GameEnd):
            print_log()
            return _game_over(moment, session, names, out)
        if isinstance(moment, RoundEnd):
            print_log()
            print(round_winner(moment.over, names), file=out)
        elif not isinstance(moment, PersonTurn):
            session.apply_bot(moment.choose())
        else:
            print_log()
            if not _ask(session, moment.seat, names, stdin, out):
                return 0


def _ask(session: Session, seat: int, names: Sequence[str], stdin: TextIO, out: TextIO) -> bool:
    """Show ``seat`` its table and options and apply its answer (or explain why not);
    False when the person quits or the input ends."""
    print(describe(session.table, seat, names), file=out)
    options = session.table.options()
    for i, option in enumerate(options, 1):
        mark = "" if option.safe else "   " + _("(you would be out)")
        print(f"  {i:2d}. {option.action}{mark}", file=out)
    print("> ", end="", file=out, flush=True)
    line = stdin.readline()
    if not line:
        print("\n" + _("End of input: game abandoned."), file=out)
        return False
    text = line.strip()
    if text.lower() in ("quit", "q", "exit"):
        print(_("Game abandoned."), file=out)
        return False
    try:
        session.decide(_read(text, options))
    except IndexError:
        print("  " + _("Choose a number from 1 to {n}.").format(n=len(options)), file=out)
    except IllegalActionError as err:
        print("  " + refusal_text(err.refusal), file=out)
    except ActionError as err:  # not a decision at all: the notation's own explanation
        print(f"  {err}", file=out)
    return True


def _game_over(end: GameEnd, session: Session, names: Sequence[str], out: TextIO) -> int:
    print(winners_line(end.over.winners, names), file=out)
    target = session.table.config.target
    if target is not None:
        print(scores_line(end.over.scores, target, names), file=out)
    if end.saved is not None:
        print(_("Record saved to {path} (red7 replay {path}).").format(path=end.saved), file=out)
    elif end.save_error is not None:
        error = end.save_error.strerror
        print(_("Could not save the record to {path}: {error}").format(path=end.record, error=error), file=out)
    return 0
