"""Helpers shared by several test modules (``tests.support.helpers``). They reach the game
only through its public API."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import pytest

import red7.analysis.runner
from red7 import Card, Game
from red7.cli import main
from red7.core.actions import CONCEDE
from red7.core.events import Event
from red7.core.model import HAND_SIZE
from red7.core.seeds import DEAL, round_rng


def make(
    hands: list[str],
    palettes: list[str],
    *,
    current: int = 0,
    canvas: str = "",
    deck: str = "",
    eliminated: list[int] | None = None,
    advanced: bool = False,
    actions: bool = False,
) -> Game:
    """A position from space-separated card strings (deck top first, canvas bottom first)."""
    return Game.from_position(
        [h.split() for h in hands],
        [p.split() for p in palettes],
        current=current,
        canvas=canvas.split(),
        deck=deck.split(),
        eliminated=eliminated,
        advanced=advanced,
        actions=actions,
    )


def dealing_order(hands: Sequence[str], palettes: Sequence[str]) -> list[str]:
    """The cards of a deal in the order chance deals them (R2.2): seven passes of one
    hand card per seat from seat 0, then one palette card per seat. ``hands`` holds one
    space-separated string of exactly seven cards per seat."""
    split = [h.split() for h in hands]
    assert all(len(h) == HAND_SIZE for h in split), f"a dealt hand holds {HAND_SIZE} cards: {hands}"
    return [h[i] for i in range(HAND_SIZE) for h in split] + list(palettes)


def deal(
    hands: Sequence[str],
    palettes: Sequence[str],
    *,
    advanced: bool = False,
    actions: bool = False,
    seed: int = 0,
) -> Game:
    """A game with explicit chance whose first round deals exactly ``hands`` and
    ``palettes`` (one card each), chosen card by card at the dealing chance nodes; the
    rest of the round's cards form the deck, whose draws stay chance nodes."""
    game = Game(players=len(hands), advanced=advanced, actions=actions, seed=seed, explicit_chance=True)
    for card in dealing_order(hands, palettes):
        game.apply_chance(Card.parse(card))
    return game


def canvas(game: Game) -> list[str]:
    """The canvas, bottom first, in notation (public, R9)."""
    return [str(Card(c)) for c in game.observe(None).canvas]


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``main(argv)``; argparse errors raise SystemExit, which counts as the exit code."""
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def forbid_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any tournament or stats game fail the test (for checks that must come first)."""

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(red7.analysis.runner, "play_task", no_games)


# --- random games (with or without explicit chance) ----------------------------------


def seeded_deal(seed: int, round_number: int, cards: Iterable[int], players: int, deal: str = DEAL) -> list[Card]:
    """The cards of round ``round_number``'s seeded deal in dealing order (R2.2): the
    round's cards in increasing order, shuffled by ``round_rng`` (from ``deal``'s
    generator), dealt from the end."""
    deck = sorted(int(c) for c in cards)
    round_rng(seed, round_number, deal).shuffle(deck)
    return [Card(c) for c in reversed(deck)][: (HAND_SIZE + 1) * players]


def choose(game: Game, rng: random.Random) -> int:
    """A random legal decision id; a concession is re-drawn most of the time so that
    games last (and reach draws, later rounds and public deck tops)."""
    legal = game.legal_ids()
    choice = rng.choice(legal)
    if choice == CONCEDE and len(legal) > 1 and rng.random() < 0.85:
        choice = rng.choice([a for a in legal if a != CONCEDE])
    return choice


def settle(game: Game, rng: random.Random) -> list[Event]:
    """Let chance pick uniformly at every chance node until a player decides (or the
    game is over); returns the events chance caused."""
    events: list[Event] = []
    while game.is_chance_node:
        events += game.apply_chance(rng.choice(game.chance_outcomes()))
    return events
