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
``scores``, ``score_piles``, ``target`` (advanced game)
``pending``         the 7 whose action is being chosen, if any
``history``         every decision of the match so far, as ``[seat, notation]``
``round_results``   each finished round: winner, rule, scored cards, points
``result``          when over: winners, scores, rounds
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import COLOURS, NAME_OF, names_of

if TYPE_CHECKING:
    from .game import Game


def observe(game: Game, seat: int | None) -> dict[str, Any]:
    """The view of ``game`` for ``seat`` (R9); raises ValueError for a seat not in play."""
    from .game import OVER, SEVEN, STEP_NAMES, TARGETS, GameError

    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < game.n):
        raise GameError(f"seat {seat!r} is not one of 0..{game.n - 1}")
    known_top = game.deck[len(game.deck) - game.deck_known:] if game.deck_known else []
    obs: dict[str, Any] = {
        "seat": seat,
        "players": game.n,
        "advanced": game.advanced,
        "actions": game.actions_on,
        "round": game.round,
        "turns": game.turns,
        "current_player": None if game.step == OVER else game.current,
        "step": STEP_NAMES[game.step],
        "rule": COLOURS[game.rule],
        "canvas": [NAME_OF[c] for c in game.canvas],
        "palettes": [names_of(p) for p in game.palettes],
        "hand_sizes": [h.bit_count() for h in game.hands],
        "alive": list(game.alive),
        "known_hand_cards": [names_of(k) for k in game.known],
        "deck_size": len(game.deck),
        "deck_known_top": [NAME_OF[c] for c in reversed(known_top)],
        "out_of_round": game.removed.bit_count(),
        "scores": list(game.scores),
        "score_piles": [names_of(p) for p in game.piles],
        "target": TARGETS[game.n] if game.advanced else None,
        "pending": NAME_OF[game.pending] if game.step == SEVEN else None,
        "history": [[s, str(Action._all[a])] for s, a in game.history],
        "round_results": [
            {"winner": r.winner, "rule": COLOURS[r.rule], "scored": list(r.scored), "points": r.points}
            for r in game.round_results
        ],
        "result": game.result.as_dict() if game.result else None,
    }
    if seat is not None:
        obs["hand"] = names_of(game.hands[seat])
    return obs

