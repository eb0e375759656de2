"""The two engines played side by side: the differential check of the compiled engine.

:func:`play_beside` plays a :class:`~red7.core.game.Game` and a compiled twin of it
(:func:`red7.core.compiled.engine_of`) decision by decision and raises
:class:`EnginesDiffer` at the first difference; :func:`checking_player` picks the
decisions it is checked with. Used by ``tests/native/test_native_engine.py`` (which ``make
sanitize`` also runs against the instrumented build).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from red7.core import compiled
from red7.core.cards import names_of
from red7.core.compiled import FIELDS, fields_of
from red7.core.game import Game


def checking_player(rng: random.Random) -> Callable[[Game], int]:
    """The decisions :func:`play_beside` is checked with: mostly the random player
    (:mod:`red7.bots.random_bot`'s: uniform among the safe decisions), one in five any
    legal decision, so that unsafe decisions and concessions are played too."""

    def choose(game: Game) -> int:
        if rng.random() < 0.8:
            choices = game.safe_or_concede_ids()
            return choices[int(rng.random() * len(choices))]
        return rng.choice(game.legal_ids())

    return choose


class EnginesDiffer(AssertionError):
    """The compiled engine and the reference disagree (what :func:`play_beside` checks)."""


def play_beside(game: Game, choose: Callable[[Game], int], most: int = 100_000) -> int:
    """Play ``game`` and a compiled twin of it side by side, ``choose`` picking each
    decision on ``game``, and raise :class:`EnginesDiffer` at the first difference: the
    position before every decision, the options with their safety marks, the mover and
    the step, then the winners and round results. Returns the decisions compared (at
    most ``most``). The twin comes from :func:`red7.core.compiled.engine_of`, looked up
    at each call (a test may replace it to check that a difference is caught)."""
    twin = compiled.engine_of(game)
    earlier = len(game.round_results)  # the twin's results begin where it was loaded
    for n in range(most + 1):
        if twin.fields() != fields_of(game):
            diff = [(f, a, b) for f, a, b in zip(FIELDS, fields_of(game), twin.fields(), strict=True) if a != b]
            raise EnginesDiffer(f"{game!r}: positions differ after {n} decisions: (field, reference, compiled) {diff}")
        if game.is_over or n == most:
            break
        options = [(o.action.id, o.safe) for o in game.options()]
        if twin.options() != options or (twin.current, twin.step) != (game.current_player, game.step):
            raise EnginesDiffer(f"{game!r}: options differ after {n} decisions: {options} != {twin.options()}")
        decision = choose(game)
        game.apply_id(decision)
        twin.apply(decision)
    if game.is_over:
        assert game.result is not None
        rounds = [(w, rule, tuple(names_of(m)), p) for w, rule, m, p in twin.round_results]
        if twin.winners != game.result.winners or rounds != list(game.round_results[earlier:]):
            raise EnginesDiffer(f"{game!r}: results differ: {twin.winners} {rounds} != {game.result}")
    return n
