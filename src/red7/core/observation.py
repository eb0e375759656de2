"""What one seat may see (R9), as plain JSON-ready data.

This is the only view of a game that bots, servers, other seats and learning
environments receive. It is built from public facts plus the viewer's own hand, so
changing any card the viewer cannot see (other hands, the unknown part of the deck,
eliminated players' cards) leaves it byte-for-byte the same. ``None`` is a spectator,
who sees only public facts.

Fields (cards in ``R7`` notation, card lists highest first unless said otherwise):

``seat``            the viewer (None for a spectator)
``players``, ``advanced``, ``actions``   the configuration
``round``           round number, from 1
``turns``           turns started so far in the match (eliminating ones included)
``current_player``  whose decision it is (None when over); ``step``: which step of the turn
``rule``            the rule in force, an English colour name; ``canvas`` bottom first
``palettes``        every seat's palette; ``hand_sizes``; ``alive``
``hand``            the viewer's hand (absent for a spectator)
``known_hand_cards`` per seat, hand cards everyone saw their owner draw (R7.z)
``deck_size``; ``deck_known_top`` the public cards on top of the deck, top first
``out_of_round``    how many cards eliminated players turned face down
``out_of_round_known`` which of them everyone saw (the palettes, cards seen drawn)
``out_of_round_own`` the viewer's own hand, if the viewer was eliminated (absent for a spectator)
``scores``, ``score_piles``, ``target`` (advanced game)
``pending``         the 7 whose action is being chosen, if any
``history``         every decision of the match so far, as ``[seat, notation]``
``round_results``   each finished round: winner, rule, scored cards, points
``result``          when over: winners, scores, rounds
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import Action
from .cards import COLOURS, NAME_OF, names_of

if TYPE_CHECKING:
    from .game import Game


class View(NamedTuple):
    """What one seat may see (R9) as card masks and numbers: the compact form of
    :func:`observe` for code that encodes observations many times a second (learning
    environments). Cards are indices and sets are masks (:mod:`red7.core.cards`); ``step``
    indexes ``STEP_NAMES`` and ``rule`` indexes ``COLOURS``. It omits only the history
    and the round results, which :func:`observe` adds."""

    seat: int | None
    players: int
    advanced: bool
    actions: bool
    round: int
    turns: int
    current: int | None
    step: int
    rule: int
    canvas: tuple[int, ...]
    """bottom first"""
    palettes: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    alive: tuple[bool, ...]
    known: tuple[int, ...]
    """per seat, hand cards everyone saw their owner draw (R7.z)"""
    deck_size: int
    deck_known_top: tuple[int, ...]
    """the public cards on top of the deck, top first"""
    out_of_round: int
    out_public: int
    """the face-down cards of eliminated players that everyone saw (palettes, cards seen drawn)"""
    out_own: int | None
    """the viewer's own hand turned face down when eliminated (None for a spectator)"""
    scores: tuple[int, ...]
    piles: tuple[int, ...]
    target: int | None
    pending: int | None
    """the 7 whose action is being chosen"""
    hand: int | None
    """the viewer's hand (None for a spectator)"""


def view(game: Game, seat: int | None) -> View:
    """The compact view of ``game`` for ``seat`` (R9); raises GameError for a seat not in play."""
    from .game import OVER, SEVEN, TARGETS, GameError

    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < game.n):
        raise GameError(f"seat {seat!r} is not one of 0..{game.n - 1}")
    known_top = game.deck[len(game.deck) - game.deck_known :] if game.deck_known else []
    return View(
        seat,
        game.n,
        game.advanced,
        game.actions_on,
        game.round,
        game.turns,
        None if game.step == OVER else game.current,
        game.step,
        game.rule,
        tuple(game.canvas),
        tuple(game.palettes),
        tuple(h.bit_count() for h in game.hands),
        tuple(game.alive),
        tuple(game.known),
        len(game.deck),
        tuple(reversed(known_top)),
        game.removed.bit_count(),
        game.out_public,
        None if seat is None else game.out_own[seat],
        tuple(game.scores),
        tuple(game.piles),
        TARGETS[game.n] if game.advanced else None,
        game.pending if game.step == SEVEN else None,
        None if seat is None else game.hands[seat],
    )


def observe(game: Game, seat: int | None) -> dict[str, Any]:
    """The view of ``game`` for ``seat`` (R9); raises GameError for a seat not in play."""
    from .game import STEP_NAMES

    v = view(game, seat)
    obs: dict[str, Any] = {
        "seat": seat,
        "players": v.players,
        "advanced": v.advanced,
        "actions": v.actions,
        "round": v.round,
        "turns": v.turns,
        "current_player": v.current,
        "step": STEP_NAMES[v.step],
        "rule": COLOURS[v.rule],
        "canvas": [NAME_OF[c] for c in v.canvas],
        "palettes": [names_of(p) for p in v.palettes],
        "hand_sizes": list(v.hand_sizes),
        "alive": list(v.alive),
        "known_hand_cards": [names_of(k) for k in v.known],
        "deck_size": v.deck_size,
        "deck_known_top": [NAME_OF[c] for c in v.deck_known_top],
        "out_of_round": v.out_of_round,
        "out_of_round_known": names_of(v.out_public),
        "scores": list(v.scores),
        "score_piles": [names_of(p) for p in v.piles],
        "target": v.target,
        "pending": NAME_OF[v.pending] if v.pending is not None else None,
        "history": [[s, str(Action._all[a])] for s, a in game.history],
        "round_results": [
            {"winner": r.winner, "rule": COLOURS[r.rule], "scored": list(r.scored), "points": r.points}
            for r in game.round_results
        ],
        "result": game.result.as_dict() if game.result else None,
    }
    if v.hand is not None:
        obs["hand"] = names_of(v.hand)
        obs["out_of_round_own"] = names_of(v.out_own or 0)
    return obs
