"""The plain text game (``red7 play --text``, and ``red7 play`` when not on a terminal).

One person (the first seat) answers on standard input, by number or by notation;
the other seats are bots, which get their observation only. It uses the same
:class:`~red7.play.table.Table` and words (:mod:`red7.ui.words`) as the screen game.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..core.actions import Action, ActionError
from ..core.game import IllegalActionError
from ..core.standing import standing_of
from ..play.table import Table
from .i18n import _, ngettext
from .words import action_text, colour_name, rule_text, winning_line


def describe(table: Table, seat: int, names: list[str]) -> str:
    """A text picture of what ``seat`` sees (built from its observation only)."""
    obs = table.observation(seat)
    lines = [
        f"--- {_('Round {n}').format(n=obs['round'])} · {rule_text(obs['rule'])} · "
        f"{_('Deck: {cards}').format(cards=obs['deck_size'])} ---"
    ]
    for s, name in enumerate(names):
        if not obs["alive"][s]:
            lines.append(f"  {name:>12}: {_('out of the round')}")
            continue
        points = _("{score}/{target} pts").format(score=obs["scores"][s], target=obs["target"])
        score = f"  {points}" if obs["advanced"] else ""
        hand = ngettext("{n} card in hand", "{n} cards in hand", obs["hand_sizes"][s]).format(n=obs["hand_sizes"][s])
        lines.append(f"  {name:>12}: {' '.join(obs['palettes'][s]) or '-':<30} {hand}{score}")
    lines.append("  " + winning_line(standing_of(obs), names))
    if obs["deck_known_top"]:
        lines.append("  " + _("(known on top: {cards})").format(cards=" ".join(obs["deck_known_top"])))
    lines.append("  " + _("Your hand: ") + " ".join(obs["hand"]))
    return "\n".join(lines)


def play_text(table: Table, records: Path, save_to: Path | None, stdin: TextIO, out: TextIO) -> int:
    """Play ``table`` (its first seat is the person) until it ends or input ends; the
    record goes to ``save_to``, else into the directory ``records``."""
    human = table.people[0]
    names = [_("You") if s == human else _("Bot {n}").format(n=s + 1) for s in range(len(table.seats))]
    print(f"Red7 — {', '.join(names)}. Seed {table.seed}.", file=out)
    print(
        _("Type the number or the notation of a decision ('play R7', 'canvas B3', 'end'...), 'quit' to stop."), file=out
    )
    rounds_seen = 0
    while not table.is_over:
        results = table.observation(None)["round_results"]
        if len(results) > rounds_seen:
            rounds_seen = len(results)
            r = results[-1]
            winner = _("Round winner: {name}, under the rule {rule}.")
            print(winner.format(name=names[r["winner"]], rule=colour_name(r["rule"])), file=out)
        seat = table.current
        assert seat is not None
        if seat != human:
            action = table.play_bot()
            print(f"  {names[seat]}: {action_text(action)}", file=out)
            continue
        print(describe(table, human, names), file=out)
        options = table.options()
        for i, option in enumerate(options, 1):
            mark = "" if option.safe else "   " + _("(you would be out)")
            print(f"  {i:2d}. {option.action}{mark}", file=out)
        print("> ", end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            print("\n" + _("End of input: game abandoned."), file=out)
            return 0
        text = line.strip()
        if text.lower() in ("quit", "q", "exit"):
            print(_("Game abandoned."), file=out)
            return 0
        try:
            if text.isdigit() and not 1 <= int(text) <= len(options):
                raise IndexError
            table.decide(options[int(text) - 1].action if text.isdigit() else Action.parse(text))
        except IndexError:
            print("  " + _("Choose a number from 1 to {n}.").format(n=len(options)), file=out)
        except (ActionError, IllegalActionError) as err:
            print(f"  {err}", file=out)
    assert table.game.result is not None
    winners = table.game.result.winners
    print(
        ngettext("{names} won the game!", "{names} share the victory!", len(winners)).format(
            names=" & ".join(names[w] for w in winners)
        ),
        file=out,
    )
    if table.game.advanced:
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, table.game.result.scores, strict=True))
        print(
            _("Scores (target {target}): {scores}").format(target=table.observation(None)["target"], scores=scores),
            file=out,
        )
    path = save_to or records / table.record_name()
    try:
        table.save(path)
        print(_("Record saved to {path} (red7 replay {path}).").format(path=path), file=out)
    except OSError as err:
        print(_("Could not save the record to {path}: {error}").format(path=path, error=err.strerror), file=out)
    return 0
