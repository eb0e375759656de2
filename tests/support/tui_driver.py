"""Drive the terminal game headless (Textual's pilot) the way a person would: keys only.

The driver reads the screen to know what is asked, and the app's table (its options)
only to pick which of the offered decisions to make (a test strategy, standing in for a
person).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from rich.style import Style as RichStyle
from textual.geometry import Region
from textual.pilot import Pilot

from red7.bots import make_bot
from red7.core.actions import Action, Kind
from red7.core.cards import ALL_CARDS
from red7.core.model import Config
from red7.play.table import Seat, Table
from red7.ui.i18n import _
from red7.ui.tui.app import PlayApp
from red7.ui.tui.board import cards_shown
from red7.ui.tui.screens import Choice, Pass
from red7.ui.words import card_label

KEY_OF = {
    Kind.PLAY: "p",
    Kind.CANVAS: "c",
    Kind.TAKE: "t",
    Kind.END: "e",
    Kind.CONCEDE: "x",
    Kind.DRAW: "d",
    Kind.DECLINE: "n",
}
SIZE = (100, 34)
CARD_NAMES = frozenset(str(card) for card in ALL_CARDS)


def run(app: Any, script: Callable[[Any], Awaitable[None]], size: tuple[int, int] = SIZE) -> None:
    """Run ``app`` headless at ``size`` and drive it with ``script(pilot)``."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await script(pilot)

    asyncio.run(main())


def board(app: Any, widget: str) -> str:
    """What the widget ``#widget`` shows, as text."""
    return str(app.query_one(f"#{widget}").render())


def card_styles(app: Any, widget: str) -> dict[str, RichStyle]:
    """Each card label ``#widget`` draws (``R7``, ``R7+``, ``›R7‹``...) -> its style: the
    styles of its rendered segments, after Textual's own link styling."""
    shown = app.query_one(f"#{widget}")
    cards = {}
    for line in shown.render_lines(Region(0, 0, shown.size.width, shown.size.height)):
        for segment in line:
            label = segment.text.strip()
            if label.strip("›‹+") in CARD_NAMES:
                assert segment.style is not None
                cards[label] = segment.style
    return cards


def new_app(
    seed: int = 3,
    bots: tuple[str, ...] = ("easy",),
    people: int = 1,
    hotseat: bool = False,
    records: Path | None = None,
    **config: bool,
) -> PlayApp:
    def table() -> Table:
        seats = [Seat() for _ in range(people)] + [Seat("", make_bot(b), b) for b in bots]
        return Table(seats, Config(len(seats), **config), seed=seed)

    return PlayApp(table, hotseat=hotseat, bot_delay=0, hint="easy", records=records)


def texts(app: PlayApp, screen: Any = None) -> str:
    """The text of every visible Static of ``screen`` (default: every screen on the stack)."""
    screens = [screen] if screen is not None else list(app.screen_stack)
    return "\n".join(str(w.render()) for s in screens for w in s.query("Static, Button") if w.display)


async def settle(pilot: Pilot[None], timeout: float = 300) -> None:
    """Wait until no bot or hint is thinking (AssertionError after ``timeout`` seconds:
    generous, for a busy machine)."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await pilot.pause()
        if not app.workers and not getattr(app, "thinking", False):
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the bots never finished")


def screen_lines(app: Any) -> list[str]:
    """The text of every line of the terminal as it is drawn now (the active screen,
    dialogs over the table included)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def hand_drawn(app: PlayApp) -> str | None:
    """The line of the terminal that draws a hand now (whatever screen is on top), or
    None: the board's hand title ("Your hand:", or "Ana's hand:" on a shared screen, in
    the language in use), or a row of
    three or more cards that are a seat's whole hand in the board's order (a hand drawn
    anywhere else, a dialog included)."""
    titles = [_("Your hand: ").strip(), *(_("{name}'s hand: ").format(name=name).strip() for name in app.names)]
    hands = [[card_label(c) for c in cards_shown(app.table.observe(s).hand or 0)] for s in range(len(app.names))]
    for line in screen_lines(app):
        if any(title in line for title in titles):
            return line.strip()
        labels = [word.strip("›‹+") for word in line.split()]
        for seat, hand in enumerate(hands):
            if len(hand) >= 3 and any(labels[i : i + len(hand)] == hand for i in range(len(labels))):
                return f"{app.names[seat]}: {line.strip()}"
    return None


def key_for(action: Action) -> str:
    if action.kind is Kind.MOVE:
        return "c" if action.destination == "canvas" else "k"
    return KEY_OF[action.kind]


def safe_choice(table: Table, rng: random.Random) -> Action:
    """The test strategy standing in for a person: a safe decision at random, else the
    concession."""
    options = table.options()
    safe = [o for o in options if o.safe and o.action.kind is not Kind.CONCEDE]
    return rng.choice(safe).action if safe else next(o.action for o in options if o.action.kind is Kind.CONCEDE)


def near_the_end(make: Callable[[], Table], left: int, seed: int = 0) -> Table:
    """The table ``make()`` gives (a new one at each call, the same game), played on
    without a screen to about ``left`` decisions before the end of its match (at the
    start of a turn): the bots by their own choices (their random streams go on in the
    app as if the app had played those decisions), each person by :func:`safe_choice`
    with ``seed``. A test of what the end of a match shows starts there, instead of
    playing the whole match through the pilot; its whole-match variant is in the full tier."""

    def play(table: Table, stop: int | None) -> int:
        rng = random.Random(seed)
        while not table.is_over and (stop is None or table.game.decisions < stop or table.staged):
            if table.person_to_move:
                table.decide(safe_choice(table, rng))
            else:
                table.play_bot()
        return table.game.decisions

    table = make()
    play(table, play(make(), None) - left)
    return table


async def take_turn(pilot: Pilot[None], rng: random.Random) -> None:
    """One decision of the person to move, by keys: pick the card, press the verb,
    confirm what the game asks to confirm."""
    app: PlayApp = pilot.app  # type: ignore[assignment]
    action = safe_choice(app.table, rng)
    if action.card is not None:  # its number key (1-9 count the cards as shown), else the arrows
        n = app.numbered().index(action.card) + 1
        if n <= 9:
            await pilot.press(str(n))
        else:
            while app.selected != action.card:
                await pilot.press("right")
    await pilot.press(key_for(action))
    await pilot.pause()
    if isinstance(app.screen, Choice):  # confirm the turn, the concession or an unsafe choice
        await pilot.press("enter")
    await settle(pilot)


async def play_until(
    pilot: Pilot[None],
    done: Callable[[PlayApp], bool],
    seed: int = 0,
    on_dialog: Callable[[PlayApp], Awaitable[None]] | None = None,
    on_turn: Callable[[Pilot[None]], Awaitable[None]] | None = None,
) -> None:
    """Play by keys until ``done(app)``; round-end dialogs are acknowledged with Enter;
    ``on_turn`` looks at the screen before each of the person's decisions."""
    app: PlayApp = pilot.app  # type: ignore[assignment]
    rng = random.Random(seed)
    await settle(pilot)
    for _attempt in range(3000):
        if done(app):
            return
        screen = app.screen
        if isinstance(screen, Pass) or (isinstance(screen, Choice) and screen.id == "round-over"):
            if on_dialog:
                await on_dialog(app)
            await pilot.press("enter")
            await settle(pilot)
        elif app.my_turn():
            if on_turn:
                await on_turn(pilot)
            await take_turn(pilot, rng)
        else:
            await settle(pilot)
    raise AssertionError("the game did not reach the expected point")
