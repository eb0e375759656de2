"""The plain text game (``red7 play --text``, and ``red7 play`` when not on a terminal).

It drives a :class:`~red7.play.session.Session` as the screen game does: people answer
on standard input, by number or by notation; bots choose from their own observation;
the session reports round ends and the game's end, and what to persist, which a
:class:`~red7.play.saving.Saver` writes (the game in progress, the record). The words are
:mod:`red7.ui.words`, shared with the screen game; nothing here imports Textual.

Everything is shown in the language in use, cards included (``Vm7`` in Portuguese,
:func:`~red7.ui.words.card_label`); each decision is offered in words with its
notation in brackets (``descartar Vd6 na Tela [canvas G6]``), and whatever it shows may
be typed back (:func:`read_decision`): an option's number, its words in the language in
use or in English, its notation (R1.3, English words and letters), a card written with
its label or its letters, a card alone when one option names it. Commands ask for help,
a hint, the rules, or take back the staged part of a turn; quitting, the end of input
and Ctrl+C say whether the game so far is saved and how to resume it.

With several people at the table (a hotseat: they share the keyboard and the screen)
each person's hand is shown only after a pass step that names them and waits for them
to press Enter, and it says whose it is. Before the pass step the screen is cleared of
the last hand shown (on a terminal, scrolled-off lines included; elsewhere nothing can
be cleared), so the previous person's hand never stays in sight while the device is
passed; each round's end and the game's are shown on a cleared screen too. What
happened since a person's last turn is told at their pass step as a spectator sees it
(R9): nobody has said yet who is at the screen.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from collections.abc import Sequence
from typing import Final, TextIO

from ..bots import make_bot
from ..core.actions import NUM_ACTIONS, Action, ActionError, Kind
from ..core.cards import COLOUR_LETTERS, COLOURS, Card
from ..core.events import Event, GameOver
from ..core.model import IllegalActionError, Option, Step
from ..core.standing import standing_of
from ..play.saving import Saved, Saver
from ..play.session import GameEnd, PersonTurn, RoundEnd, Session
from ..play.table import Table, ends_turn_of
from .i18n import N_, _, language, ngettext
from .rules_text import rules_markdown
from .words import (
    DECISION_TEXT,
    bot_level,
    card_label,
    cards_explained,
    cards_label,
    colour_name,
    concession_consequence,
    decision_text,
    log_lines,
    move_log,
    plan_text,
    refusal_text,
    round_summary,
    round_winner,
    rule_text,
    saved_so_far,
    scores_line,
    seat_name,
    unsafe_reason,
    winners_line,
    winning_line,
)

QUIT_WORDS = frozenset({"quit", "q", "exit", "sair"})
YES_WORDS: Final = frozenset({"y", "yes", "s", "sim"})
"""The answers that confirm a concession or an unsafe decision (any other line declines)."""
"""What stops the game when typed (any case): the notation's English words, and 'sair'."""
HELP_WORDS: Final = frozenset({"help", "ajuda", "?"})
HINT_WORDS: Final = frozenset({"hint", "dica"})
RULES_WORDS: Final = frozenset({"rules", "regras"})
UNDO_WORDS: Final = frozenset({"undo", "desfazer"})
"""The commands a person may type instead of a decision, each in English and in
Portuguese whatever the language in use (the help names them in the language in use)."""
INTERRUPTED: Final = 130
"""The exit code of a game stopped by Ctrl+C (128 + SIGINT, as the shells say)."""
CLEAR: Final = "\033[H\033[2J\033[3J"
"""Clears a terminal: the cursor home, the screen, and the lines scrolled off it (the
xterm extension most terminals and tmux know), so a hand cannot be scrolled back to."""


def describe(table: Table, seat: int, names: Sequence[str], named: bool = False) -> str:
    """A text picture of what ``seat`` sees (built from its observation only, R9); the
    seat to move is marked ``▶``. ``named``: the hand says whose it is ("Caio's hand:",
    for a screen several people share), else it is "Your hand:"."""
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
    title = _("{name}'s hand: ").format(name=names[seat]) if named else _("Your hand: ")
    lines.append("  " + title + cards_label(obs.hand or 0))
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


EXAMPLES: Final = (Action.of(Kind.PLAY, "R7"), Action.of(Kind.CANVAS, "B3"), Action.of(Kind.END))
"""The decisions the explanation of an answer that is not one gives as examples."""


def not_a_decision(text: str, options: int) -> str:
    """Why ``text`` is not a decision, in the language in use: what may be typed (an
    option's number, a decision as the options say it in that language, e.g. 'jogar
    Vm7', or its notation, which is English, e.g. 'play R7'), and for a card that is
    not one, how a card is written, as shown and in the notation (the colours' English
    initials, R1.3)."""
    words = _normal(text).split()
    verbs = {str(kind) for kind in (Kind.PLAY, Kind.CANVAS, Kind.MOVE, Kind.TAKE)}
    verbs |= {decision_text(Action.of(kind, "R7")).split()[0].lower() for kind in (Kind.PLAY, Kind.CANVAS, Kind.TAKE)}
    if words and words[0] in verbs:
        letters = ", ".join(f"{letter} {colour_name(c)}" for letter, c in zip(COLOUR_LETTERS, COLOURS, strict=True))
        shown, notation = decision_text(EXAMPLES[0]), str(EXAMPLES[0])
        if shown == notation:  # the language writes cards as the notation does
            return _(
                "'{text}' names no card: the notation writes a card with its colour's English initial and its "
                "number, e.g. 'play R7' ({letters})."
            ).format(text=text, letters=letters)
        return _(
            "'{text}' names no card: write a card as the options show it, e.g. '{shown}', or as the notation "
            "does, with its colour's English initial and its number, e.g. '{notation}' ({letters})."
        ).format(text=text, shown=shown, notation=notation, letters=letters)
    return _(
        "'{text}' is not a decision: type a number from 1 to {n}, a decision as the options say it ({shown}...), "
        "or its notation, in brackets ({notations}...)."
    ).format(
        text=text,
        n=options,
        shown=", ".join(f"'{decision_text(a)}'" for a in EXAMPLES),
        notations=", ".join(f"'{a}'" for a in EXAMPLES),
    )


def _normal(text: str) -> str:
    """``text`` as typed forms are compared: lower case, single spaces, no brackets."""
    return " ".join(text.lower().replace("[", " ").replace("]", " ").split())


def typed_forms(action: Action) -> set[str]:
    """Every way ``action`` may be typed (compared by :func:`_normal`): its notation
    (``play R7``); its words as offered in the language in use (``jogar Vm7``,
    ``descartar Vm3 na Tela``) and in English (``put R3 on the canvas``); and each of
    these with the card written the other way (``play Vm7``, ``jogar R7``)."""
    forms = {str(action), decision_text(action), DECISION_TEXT[action.kind, action.destination]}
    card = action.card
    if card is not None:
        labels = (str(card), card_label(card))
        template_en = DECISION_TEXT[action.kind, action.destination]
        forms = {str(action).replace(str(card), label) for label in labels}
        forms |= {decision_text(action).replace(card_label(card), label) for label in labels}
        forms |= {template_en.format(card=label, rule=colour_name(card.colour_name)) for label in labels}
    return {_normal(form) for form in forms}


def read_decision(text: str, options: list[Option]) -> Action:
    """The decision typed as ``text``: an option's number, or a decision as shown
    (:func:`typed_forms`: its words in either language, its notation, a card written
    with its label or its notation's letters); a card alone is the one option that
    names it. Raises IndexError for a number that is not an option's, ActionError for
    text that is not a decision."""
    if text.isdigit():
        if not 1 <= int(text) <= len(options):
            raise IndexError(text)
        return options[int(text) - 1].action
    typed = _normal(text)
    naming = [o.action for o in options if o.action.card is not None and typed in _card_names(o.action.card)]
    if len(naming) == 1:
        return naming[0]
    for option in options:  # the options first: their words are the ones on the screen
        if typed in typed_forms(option.action):
            return option.action
    for action_id in range(NUM_ACTIONS):  # a decision not allowed now is refused, with the reason
        action = Action.from_id(action_id)
        if typed in typed_forms(action):
            return action
    return Action.parse(text)


def _card_names(card: Card) -> tuple[str, str]:
    """A card as it may be typed alone: its label and its notation, compared lower case."""
    return card_label(card).lower(), str(card).lower()


def play_text(
    session: Session,
    stdin: TextIO,
    out: TextIO,
    notice: str | None = None,
    hint: str = "hard",
    saver: Saver | None = None,
) -> int:
    """Play the session's game until it ends or input ends; returns the exit code.
    ``saver`` writes what the session reports to persist (the game in progress, the
    record at the end; default: nothing is written).

    Every person at the table answers on ``stdin``. With one person, before each
    question the move log since the last one is printed as that person may see it (R9).
    With several (a hotseat, see the module's docstring) each turn begins with a pass
    step (:func:`_pass`), and the screen is cleared of the last hand before it and
    before the game's end. ``notice``, a sentence, is printed once after the game's
    header (the compiled core not in use: :func:`red7.ui.fallback.fallback_notice`).
    ``hint`` is the bot spec whose advice the command ``hint`` gives (a valid one).

    A person who quits, whose input ends or who presses Ctrl+C (exit code
    :data:`INTERRUPTED`, no traceback) is told, in the game's language, whether the game
    so far is saved and how to resume it (:func:`~red7.ui.words.saved_so_far`).
    """
    saver = saver or Saver()
    try:
        return _play(session, saver, stdin, out, notice, hint)
    except KeyboardInterrupt:
        print("\n" + _("Interrupted: the game stops here."), file=out)
        _say_saved(session, saver, out)
        return INTERRUPTED


def _say_saved(session: Session, saver: Saver, out: TextIO) -> None:
    """Whether the unfinished game is saved, and how to resume it (nothing once it is over)."""
    if not session.table.is_over:
        say(saved_so_far(saver, bool(session.table.staged)), out)


def _play(session: Session, saver: Saver, stdin: TextIO, out: TextIO, notice: str | None, hint: str) -> int:
    """:func:`play_text` but for Ctrl+C."""
    table = session.table
    names = [seat_name(name) for name in session.names()]
    people = table.people
    hotseat = len(people) > 1
    say(_("Red7 — {names}. Seed {seed}.").format(names=", ".join(names), seed=table.seed), out)
    if notice:
        say(notice, out)
    say(cards_explained(), out)
    say(
        _(
            "Type a decision's number, its words ('{example}') or its notation in brackets; 'help' for the "
            "commands (hint, undo, rules), 'quit' to stop."
        ).format(example=_example()),
        out,
    )
    logged = 0  # events of the log printed so far
    # hotseat: whose turn is on the screen (their hand shows), whether a hand has been
    # printed since the screen was last cleared, and per person how many events they
    # had seen when their last turn ended (their news starts there; before their first
    # turn, at the game's start)
    shown: int | None = None
    hand_on_screen = False
    began = 0
    # a resumed game: each person's news starts where their last turn ended (issue 34)
    seen: dict[int, int] = {p: n for p, n in table.turns_seen().items() if p in people}
    table.settings["lang"] = language()  # what a resumed game takes up

    def print_log(viewer: int | None) -> None:
        nonlocal logged
        events = session.log(viewer, logged)
        logged += len(events)
        for line in log_lines(events, names):
            say(f"  {line}", out)

    def clear() -> None:
        nonlocal hand_on_screen
        if hand_on_screen:
            print(CLEAR, end="", file=out, flush=True) if out.isatty() else print(file=out)
            hand_on_screen = False

    def news(since: int) -> list[str]:
        """The moves, round ends and deals since event number ``since``, as a spectator
        sees them (the game's end is told by :func:`_game_over`)."""
        events = [e for e in session.log(None, since) if not isinstance(e, GameOver)]
        return [f"  {line}" for line in move_log(events, names)]

    while True:
        moment = session.next()
        saver.keep(session)
        if isinstance(moment, GameEnd):
            if hotseat:
                clear()
                for line in news(min(seen.get(p, began) for p in people)):
                    say(line, out)
            else:
                print_log(people[0] if people else None)
            return _game_over(moment, saver.finished, session, names, out)
        if isinstance(moment, RoundEnd):
            if hotseat:  # for everyone to read, with no hand in sight: the last moves, the outcome
                clear()
                print_log(None)
                say(round_summary(moment.over, moment.scores, table.config.target, names), out)
            else:
                print_log(people[0] if people else None)
                say(round_winner(moment.over, names), out)
        elif not isinstance(moment, PersonTurn):
            session.apply_bot(moment.choose())
        else:
            seat = moment.seat
            if hotseat and shown != seat:
                clear()
                if not _pass(seat, names, news(seen.get(seat, began)), seat in seen, stdin, out):
                    _say_saved(session, saver, out)
                    return 0
                shown, hand_on_screen, logged = seat, True, table.event_count
            print_log(seat if hotseat else people[0])
            events = _ask(session, seat, names, stdin, out, hint, named=hotseat)
            if events is None:
                _say_saved(session, saver, out)
                return 0
            logged = min(logged, table.event_count)  # a turn taken back: its events are gone
            if hotseat and ends_turn_of(seat, events):
                # the next hand, even this person's in the next round, waits for a pass step
                shown, seen[seat] = None, table.event_count


def _pass(seat: int, names: Sequence[str], news: Sequence[str], played: bool, stdin: TextIO, out: TextIO) -> bool:
    """A hotseat's pass step: what happened since ``seat``'s last turn (``news``; since
    the game began when they have not ``played`` yet), then who gets the device; their
    hand shows once they press Enter. False when someone quits or the input ends."""
    if news:
        say(_("Since your last turn:") if played else _("So far:"), out)
        for line in news:
            say(line, out)
    name = names[seat]
    say(_("Pass the device to {name}").format(name=name), out)
    print(_("{name}, press Enter to see your hand ('quit' to stop): ").format(name=name), end="", file=out, flush=True)
    return _answer(stdin, out) is not None


def _answer(stdin: TextIO, out: TextIO) -> str | None:
    """The line a person typed, stripped; None (and the game stopped, said on ``out``)
    when they typed a word of :data:`QUIT_WORDS` or the input ended."""
    line = stdin.readline()
    if not line:
        print("\n" + _("End of input: the game stops here."), file=out)
        return None
    if line.strip().lower() in QUIT_WORDS:
        print(_("The game stops here."), file=out)
        return None
    return line.strip()


def _ask(
    session: Session, seat: int, names: Sequence[str], stdin: TextIO, out: TextIO, hint: str, named: bool = False
) -> list[Event] | None:
    """Show ``seat`` its table (``named``: the hand says whose it is) and options and
    apply its answer (or explain why not, or carry out a command: help, a hint from the
    bot ``hint``, the rules, taking the staged turn back); returns the events of the
    decision applied (none when it was not a decision), None when the person quits or
    the input ends."""
    say(describe(session.table, seat, names, named), out)
    options = offered(session.table.options())
    for i, option in enumerate(options, 1):
        say(f"  {i:2d}. {option_text(option)}", out)
    print("> ", end="", file=out, flush=True)
    text = _answer(stdin, out)
    if text is None:
        return None
    if not text:  # Enter alone: ask again
        return []
    if _command(text.lower(), session, names, hint, out):
        return []
    try:
        action = read_decision(text, options)
        chosen = next((o for o in options if o.action is action), None)
        if chosen is not None and (question := confirmation(session.table, chosen, names)) is not None:
            print(question + " ", end="", file=out, flush=True)
            answer = _answer(stdin, out)
            if answer is None:
                return None
            if answer.lower() not in YES_WORDS:
                say("  " + _("Kept playing: choose again."), out)
                return []
        return session.decide(action)
    except IndexError:
        say("  " + _("Choose a number from 1 to {n}.").format(n=len(options)), out)
    except IllegalActionError as err:
        say("  " + refusal_text(err.refusal), out)
    except ActionError:  # not a decision at all (the engine's explanation is English)
        say("  " + not_a_decision(text, len(options)), out)
    return []


def offered(options: list[Option]) -> list[Option]:
    """The options as the text game numbers them: the concession last, never the first
    number (a player typing 1 for the first way to go on must not leave the round)."""
    return [o for o in options if o.action.kind is not Kind.CONCEDE] + [
        o for o in options if o.action.kind is Kind.CONCEDE
    ]


def confirmation(table: Table, option: Option, names: Sequence[str]) -> str | None:
    """What the text game asks before ``option`` is applied, as the terminal game does
    (always, whatever ``--no-confirm`` says): a concession (out of the round; in the
    basic game, the game lost) and a decision that is not safe (R4.7, and why); None
    for any other decision."""
    if option.action.kind is Kind.CONCEDE:
        return _("Concede? {consequence} Type 'yes' to concede, anything else to keep playing:").format(
            consequence=concession_consequence(table.config.advanced)
        )
    if not option.safe:
        preview = table.preview(option.action)
        reason = unsafe_reason(standing_of(preview) if preview is not None else None, names)
        return _("This choice is not safe. {reason} Type 'yes' to do it anyway, anything else to choose again:").format(
            reason=reason
        )
    return None


def _example() -> str:
    """A decision's words as the options show them, for the help: "play R7", "jogar Vm7"."""
    return decision_text(Action.of(Kind.PLAY, "R7"))


def help_text() -> str:
    """What may be typed in the text game, in the language in use."""
    return _(
        "Type a decision's number, or the decision as shown ('{example}', or its notation in brackets). "
        "Commands: 'hint' — what a bot would do in your place; 'undo' — take back what you did this turn; "
        "'rules' — the rules; 'help' — this help; 'quit' — stop (the game so far is saved, to resume later)."
    ).format(example=_example())


_TABLE_HEAD = re.compile(r"\|(?: \|)+|\|(?:---\|)+")
"""The rules table's empty header and its rule line (Markdown has no table without them)."""


def rules_text() -> str:
    """The rules as the terminal game's rules screen tells them, as plain text, the text
    game's commands in place of the keys."""
    lines = rules_markdown(help_text(), board=False, keys_title=N_("Commands")).replace("**", "").split("\n")
    return "\n".join(line for line in lines if not _TABLE_HEAD.fullmatch(line))


def _command(word: str, session: Session, names: Sequence[str], hint: str, out: TextIO) -> bool:
    """Carry out ``word`` if it is a command (:data:`HELP_WORDS`, :data:`HINT_WORDS`,
    :data:`RULES_WORDS`, :data:`UNDO_WORDS`); False when it is not one."""
    table = session.table
    if word in HELP_WORDS:
        say(help_text(), out)
    elif word in RULES_WORDS:
        say(rules_text(), out)
    elif word in HINT_WORDS:
        say("  " + _("Thinking of a hint…"), out)
        plan = session.hint(make_bot(hint)).plan()
        say("  " + plan_text(plan, bot_level(hint), names, table.config.advanced), out)
    elif word in UNDO_WORDS:
        seat = table.current
        if session.take_back():
            say("  " + _("Turn taken back."), out)
        elif seat is not None and table.observe(seat).step is Step.START:
            say("  " + _("Nothing to take back: you have not played anything this turn."), out)
        else:
            say("  " + _("Nothing to take back: a card was drawn, and a draw cannot be taken back."), out)
    else:
        return False
    return True


def _game_over(end: GameEnd, saved: Saved | None, session: Session, names: Sequence[str], out: TextIO) -> int:
    say(winners_line(end.over.winners, names, session.table.config.advanced), out)
    target = session.table.config.target
    if target is not None:
        say(scores_line(end.over.scores, target, names), out)
    if saved is not None and saved.saved is not None:
        say(_("Record saved to {path} (red7 replay {path}).").format(path=saved.saved), out)
    elif saved is not None and saved.error is not None:
        error = saved.error.strerror
        say(_("Could not save the record to {path}: {error}").format(path=saved.record, error=error), out)
    return 0
