"""Red7 as an OpenSpiel game: ``import red7.envs.openspiel`` registers ``python_red7``.

    import pyspiel
    import red7.envs.openspiel  # registers the game
    game = pyspiel.load_game("python_red7", {"players": 3, "advanced": True, "actions": True})

Parameters: ``players`` (2..4, default 2), ``advanced`` and ``actions`` (default false),
as in :class:`red7.core.game.Game`. The game is sequential, imperfect-information, with
explicit stochastic chance, terminal rewards only.

**Decisions** are the engine's fixed ids (``num_distinct_actions`` = 249, see
:mod:`red7.core.actions`): 0-48 play, 49-97 canvas, 98-146 / 147-195 the 7's move to the
canvas / the deck, 196-244 the 1's take, 245 end, 246 concede, 247 draw, 248 decline.
Legal actions are the engine's, in increasing order; action strings are the engine's
notation (``play R7``).

**Chance** chooses every hidden card, one card per chance node, each outcome a card
index 0..48 (``max_chance_outcomes`` = 49) with uniform probabilities:

- *the deal*: at the start of each round (the first one, and in the advanced game
  each round after a round-ending decision), ``8 * players`` chance nodes in a row; the
  i-th picks, among the round's cards not dealt yet, the card dealt at position i of
  :meth:`red7.core.game.Game.redeal` (seven passes of one hand card per seat, seat 0 first,
  then one palette card per seat). String: ``deal R7``.
- *the draws*: a decision that draws an unknown card (a 3 played with actions on, the
  advanced ``draw``) is held back while one chance node picks the drawn card among the
  unknown cards of the deck (:meth:`red7.core.game.Game.put_on_top`); then the decision is
  carried out. A draw of a public deck-top card (put there by a 7 or a 1) is no chance
  event. String: ``draw R7``. While the draw is pending, observations show the position
  before the decision (the observation *string* names the pending decision).

So a state is a pure function of its history: the engine's own shuffles are never
used (its seed is fixed at 0), and replaying a state's ``history()`` from the initial
state rebuilds it. OpenSpiel's ``serialize``/``deserialize_state`` (a pickle of the
state's attributes) work as well.

**Returns** (``ZERO_SUM``): when the game ends, each of the ``k`` winners (a shared
victory is possible in the advanced game, R8.4) gets ``(n - k) / (k * (n - 1))`` and
every other player ``-1 / (n - 1)``: a lone winner +1, the others sharing -1 (the same
values as the PettingZoo environment, :mod:`red7.envs.red7_v0`). ``max_utility`` = 1,
``min_utility`` = ``-1 / (n - 1)``. Rewards are 0 before the end.

**Length.** ``max_game_length`` counts decisions (chance nodes excluded, as OpenSpiel
does) and is a proven bound, see :func:`max_decisions_per_round`. The official rules
do not bound an advanced match: a round can score 0 points (the last player standing
may hold no card of the final rule's kind, e.g. no even card under Green), and such
rounds could repeat forever. This adapter therefore ends an advanced match after
:data:`MAX_ROUNDS` rounds, as if the deck had run out (R8.4: the highest scores win,
equal highest share). About 1 % of random rounds score 0 and a match has at most
``50 - 8 * players`` scoring rounds, so the cap only changes pathological games.

**Observations** (``make_py_observer``), for a seat ``p``:

- observation tensor: :func:`red7.envs.encoding.encode` of ``p``'s view (R9), 873 numbers,
  observer first; the named pieces are :data:`red7.envs.encoding.FIELDS`.
- observation string: the same view as text (every field of
  :class:`red7.core.observation.View`).
- information state string: perfect recall. The whole event log (deals, draws, every
  decision), ``p``'s own cards named and the other seats' hidden cards as ``?``.
- information state tensor: the observation tensor again. It is **not** perfect
  recall: it forgets the order of past events and which of ``p``'s cards came from
  which draw (a perfect-recall tensor of a match thousands of events long would be
  huge). Use the string for anything that needs perfect recall (ISMCTS keys nodes by it).
- ``IIGObservationType`` with ``private_info=NONE`` gives the public observation (the
  viewer's hand hidden); ``ALL_PLAYERS`` and ``public_info=False`` are not offered.

While a deal is being chosen the view shows the cards dealt so far (no one to move);
after the :data:`MAX_ROUNDS` cap it shows the finished match with no cards dealt.

**Determinization.** :meth:`Red7State.resample_from_infostate` returns a state consistent
with a player's information: the world comes from :class:`red7.core.worlds.WorldSampler`
(the hidden cards dealt at random) and the other seats' hidden log entries are rebuilt
to agree with it, so every seat's information state in the new state is one a real
game could produce, and the given player's is unchanged. OpenSpiel's *Python*
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays the game; give it
:func:`seeded_resampler` for reproducible searches (by default it resamples with
``pyspiel.UniformProbabilitySampler``, which is seeded from the system). OpenSpiel's
C++ MCTS/ISMCTS bots do not work with Python games.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel  # no type hints: Any to mypy (see pyproject's overrides)

from ..core.actions import NUM_ACTIONS, Action
from ..core.cards import COLOURS, FULL_DECK, NAME_OF, NUM_CARDS, names_of
from ..core.game import HAND_SIZE, OVER, START, STEP_NAMES, Game, GameError
from ..core.observation import View
from ..core.worlds import WorldSampler
from .encoding import FIELDS, MAX_SEATS, OBS_SIZE, encode
from .returns import zero_sum_returns

SHORT_NAME: Final = "python_red7"
MAX_ROUNDS: Final = 64
"""Rounds after which the adapter ends an advanced match (see the module docstring)."""
DEFAULTS: Final[dict[str, Any]] = {"players": 2, "advanced": False, "actions": False}

# The event log (Red7State.log), one (kind, seat, value) per event, in history order.
# Who sees what:
EV_ROUND: Final = 0  # a round begins: seat = round number, value = mask of its cards; public
EV_HAND: Final = 1  # hand card `value` dealt to `seat`: seen by `seat` only
EV_PALETTE: Final = 2  # palette card `value` dealt to `seat`: public
EV_ACT: Final = 3  # `seat` decided action id `value`: public
EV_DRAW: Final = 4  # `seat` drew the unknown card `value` (a chance event): seen by `seat` only
EV_KNOWN: Final = 5  # `seat` drew the public deck-top card `value` (no chance event): public
Event = tuple[int, int, int]

_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)


def max_decisions_per_round(players: int) -> int:
    """An upper bound on the decisions of one round of ``players`` (proof below).

    Let a round deal ``N <= 49`` cards, ``D0 = N - 8n`` of them to the deck. Write ``a``
    for the 7s and 1s played, ``b`` for the other plays, ``c`` for the canvas plays and
    ``d`` for the cards drawn. Hands start with ``7n`` cards and never go negative, so
    ``a + b + c <= 7n + d``. Every draw comes from a 3 played (counted in ``b``) or a
    canvas play (advanced draw, counted in ``c``), so ``d <= b + c``, hence ``a <= 7n``.
    The deck only gains the cards a 7 or a 1 puts on it (at most one each), so
    ``d <= D0 + a <= D0 + 7n`` and the placed cards ``X = a + b + c <= 14n + D0 = N + 6n``.
    The other decisions: at most one 7-move or 1-take per 7 or 1 (``<= 7n``); at most one
    end, draw or decline per turn that placed a card (``<= X``); at most ``n - 1``
    concessions. Total: ``2X + 8n - 1 <= 2 * (49 + 6n) + 8n - 1 = 97 + 20n``.
    """
    return 2 * (NUM_CARDS + 6 * players) + 8 * players - 1


def max_game_length(players: int, advanced: bool) -> int:
    """The declared ``max_game_length``: decisions of a whole game (chance excluded)."""
    return max_decisions_per_round(players) * (MAX_ROUNDS if advanced else 1)


def _config(params: dict[str, Any] | None) -> tuple[int, bool, bool]:
    """Checked (players, advanced, actions) from OpenSpiel parameters (defaults filled)."""
    p = {**DEFAULTS, **(params or {})}
    unknown = set(p) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"{SHORT_NAME} has no parameter {', '.join(sorted(unknown))}")
    players, advanced, actions = p["players"], p["advanced"], p["actions"]
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise ValueError(f"Red7 is played by 2 to 4 players, not {players!r}")
    for name, value in (("advanced", advanced), ("actions", actions)):
        if not isinstance(value, bool):
            raise ValueError(f"parameter {name!r} must be true or false, not {value!r}")
    return players, advanced, actions


_GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Red7",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULTS),
)


class Red7Game(pyspiel.Game):
    """The OpenSpiel game ``python_red7``; ``params`` as in the module docstring."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        players, advanced, actions = _config(params)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(players, advanced),
        )
        super().__init__(_GAME_TYPE, info, {"players": players, "advanced": advanced, "actions": actions})
        self.players, self.advanced, self.actions = players, advanced, actions
        # Every state starts from a copy of this engine game, whose deal the first chance
        # nodes replace (copying is cheaper than dealing; OpenSpiel creates a new initial
        # state for every clone and every resampled world).
        self.start = Game(players, advanced, actions, seed=0)

    def new_initial_state(self) -> Red7State:
        """The start of a game: the first chance node of the first deal."""
        return Red7State(self)

    def max_chance_nodes_in_history(self) -> int:
        """A round has at most 49 chance nodes: its ``8n`` deal nodes, and one per unknown
        draw, each taking a card of the ``N - 8n`` dealt to the deck (the only cards whose
        place nobody knows; cards put back by a 7 or a 1 are public)."""
        return NUM_CARDS * (MAX_ROUNDS if self.advanced else 1)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> Red7Observer:
        """An observer (PyObserver interface): see the module docstring."""
        if isinstance(iig_obs_type, dict):  # OpenSpiel calls make_py_observer(params) for the default
            iig_obs_type, params = None, iig_obs_type
        return Red7Observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _Core:
    """Everything a state holds, in one object that copies fast.

    OpenSpiel clones a Python state by deep-copying each attribute; a deep copy of the
    engine game would walk all its slots, while :meth:`Game.clone` is a shallow-enough copy
    made for this (its lists of ints and tuples are copied, everything else is immutable).
    """

    __slots__ = ("game", "order", "pending", "log", "truncated")

    def __init__(
        self, game: Game, order: list[int] | None, pending: int | None, log: list[Event], truncated: bool
    ) -> None:
        self.game = game
        self.order = order  # the deal being chosen (card per position), None when not dealing
        self.pending = pending  # a decision waiting for the chance node of its draw
        self.log = log  # every event, see EV_ROUND..EV_KNOWN
        self.truncated = truncated  # the advanced match was ended by MAX_ROUNDS

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        order = None if self.order is None else self.order[:]
        return _Core(self.game.clone(), order, self.pending, self.log[:], self.truncated)

    def __getstate__(self) -> tuple[Any, ...]:  # pickling (OpenSpiel's serialization)
        return (self.game, self.order, self.pending, self.log, self.truncated)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.game, self.order, self.pending, self.log, self.truncated = state


class Red7State(pyspiel.State):
    """A state of ``python_red7``: an engine :class:`~red7.core.game.Game` plus the chance in
    progress (a deal being chosen, a decision waiting for its draw) and the event log."""

    def __init__(self, game: Red7Game) -> None:
        super().__init__(game)
        # The round's cards and the first deal, chosen by the next 8n chance nodes.
        self._core = _Core(game.start.clone(), [], None, [(EV_ROUND, 1, FULL_DECK)], False)

    # --- reading the state ---------------------------------------------------------------

    @property
    def engine(self) -> Game:
        """The engine game (read it, do not change it). While a deal is being chosen it
        holds a provisional deal that the chance nodes replace; while a draw is pending,
        the position before the decision."""
        return self._core.game

    @property
    def dealing(self) -> bool:
        """Is the state one of the chance nodes of a deal?"""
        return self._core.order is not None

    @property
    def pending_decision(self) -> int | None:
        """The decision waiting for the chance node of its draw, if any."""
        return self._core.pending

    @property
    def log(self) -> list[Event]:
        """A copy of the event log: ``(kind, seat, value)`` per event, kinds ``EV_*``."""
        return self._core.log[:]

    @property
    def truncated(self) -> bool:
        """Did the :data:`MAX_ROUNDS` cap end the advanced match?"""
        return self._core.truncated

    def current_player(self) -> int:
        """The seat to decide, ``PlayerId.CHANCE`` during deals and draws, or ``TERMINAL``."""
        core = self._core
        if core.truncated or core.game.is_over:
            return _TERMINAL
        if core.order is not None or core.pending is not None:
            return _CHANCE
        return core.game.current

    def is_terminal(self) -> bool:
        return self._core.truncated or self._core.game.is_over

    def winners(self) -> tuple[int, ...]:
        """The winners of a finished game (after the MAX_ROUNDS cap: the highest scores)."""
        core = self._core
        if core.game.result is not None:
            return core.game.result.winners
        if not core.truncated:
            raise GameError("the game is not over")
        top = max(core.game.scores)
        return tuple(s for s, score in enumerate(core.game.scores) if score == top)

    def returns(self) -> list[float]:
        """Zero-sum returns (module docstring); zeros before the end."""
        n = self._core.game.n
        return zero_sum_returns(self.winners(), n) if self.is_terminal() else [0.0] * n

    def _legal_actions(self, player: int) -> list[int]:
        """The engine's legal ids, increasing (OpenSpiel asks only for the player to move)."""
        assert player == self.current_player(), (player, self.current_player())
        return self._core.game.legal_ids()

    def _round_cards(self) -> int:
        """Mask of the cards of the current round (from the last EV_ROUND event)."""
        return next(value for kind, _seat, value in reversed(self._core.log) if kind == EV_ROUND)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Uniform over the cards the chance node may pick, in increasing card order:
        the round's cards not dealt yet (deal), or the deck's unknown cards (draw)."""
        core = self._core
        if core.order is not None:
            undealt = self._round_cards()
            for card in core.order:
                undealt &= ~(1 << card)
            cards = _bits(undealt)
        elif core.pending is not None:
            g = core.game
            cards = sorted(g.deck[: len(g.deck) - g.deck_known])
        else:
            raise GameError("not a chance node")
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _action_to_string(self, player: int, action: int) -> str:
        """The engine notation of a decision; ``deal R7`` or ``draw R7`` for chance (which
        of the two depends on this state: a past outcome reads as the current kind)."""
        if player == _CHANCE:
            return f"{'deal' if self._core.order is not None else 'draw'} {NAME_OF[action]}"
        return str(Action.from_id(action))

    # --- applying actions ------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        core = self._core
        action = int(action)
        if core.order is not None:
            self._deal_card(action)
        elif core.pending is not None:
            self._draw_card(action)
        else:
            self._decide(action)

    def _deal_card(self, card: int) -> None:
        core = self._core
        assert core.order is not None
        if card not in dict(self.chance_outcomes()):
            raise GameError(f"card {card} cannot be dealt now")
        n = core.game.n
        i = len(core.order)
        if i < HAND_SIZE * n:
            core.log.append((EV_HAND, i % n, card))
        else:
            core.log.append((EV_PALETTE, i - HAND_SIZE * n, card))
        core.order.append(card)
        if len(core.order) == (HAND_SIZE + 1) * n:
            core.game.redeal(core.order)
            core.order = None

    def _draw_card(self, card: int) -> None:
        core = self._core
        assert core.pending is not None
        g = core.game
        g.put_on_top(card)  # refuses a card not among the deck's unknown cards
        core.log.append((EV_DRAW, g.current, card))
        action, core.pending = core.pending, None
        self._carry_out(action)

    def _decide(self, action: int) -> None:
        core = self._core
        g = core.game
        if not g.is_legal(action):
            g.apply(action)  # raises IllegalActionError, which says why and what is legal
        core.log.append((EV_ACT, g.current, action))
        if g.draws_unknown(action):
            core.pending = action  # chance picks the card first (put_on_top), then the decision applies
        else:
            self._carry_out(action)

    def _carry_out(self, action: int) -> None:
        """Apply a legal decision to the engine and log what it made public."""
        core = self._core
        g = core.game
        me, round_before, known_before = g.current, g.round, g.known[g.current]
        g.apply_id(action)
        if g.round == round_before and g.known[me] & ~known_before:  # drew the public deck-top card
            core.log.append((EV_KNOWN, me, (g.known[me] & ~known_before).bit_length() - 1))
        if g.round != round_before and not g.is_over:  # a round ended and the engine dealt the next
            if g.round > MAX_ROUNDS:
                core.truncated = True
                return
            cards = sum(g.hands) | sum(g.palettes) | sum(1 << c for c in g.deck)
            core.log.append((EV_ROUND, g.round, cards))
            core.order = []

    # --- what a seat sees --------------------------------------------------------------------

    def view(self, player: int, private: bool = True) -> View:
        """What ``player`` sees now (R9) as a :class:`~red7.core.observation.View`; with
        ``private=False`` the public part only (the hand hidden)."""
        core = self._core
        g = core.game
        v = g.view(player)
        if core.order is not None or core.truncated:
            # The engine holds a provisional deal (after the MAX_ROUNDS cap, of a round that
            # will not be played): show the cards chosen so far (none) and no one to move.
            n = g.n
            order = core.order or []
            left = FULL_DECK & ~sum(g.piles)  # the cards of this round
            hands = [0] * n
            palettes = [0] * n
            for i, card in enumerate(order):
                if i < HAND_SIZE * n:
                    hands[i % n] |= 1 << card
                else:
                    palettes[i - HAND_SIZE * n] |= 1 << card
            v = v._replace(
                current=None,
                step=OVER if core.truncated else START,
                palettes=tuple(palettes),
                hand_sizes=tuple(h.bit_count() for h in hands),
                known=(0,) * n,
                deck_size=left.bit_count() - len(order),
                hand=hands[player],
            )
            if core.truncated:
                v = v._replace(round=g.round - 1)
        if not private:
            v = v._replace(hand=None)
        return v

    def observation_text(self, player: int, private: bool = True) -> str:
        """The observation string: every field of :meth:`view`, and a pending decision."""
        v = self.view(player, private)
        n = v.players
        if v.current is not None:
            who = f"player {v.current} to {STEP_NAMES[v.step]}"
        else:
            who = "over" if v.step == OVER else "dealing"
        if self._core.pending is not None:
            who += f", drawing for {Action.from_id(self._core.pending)}"
        seats = range(n)
        parts = [
            f"p{player}",
            f"round {v.round}",
            f"turns {v.turns}",
            who,
            f"rule {COLOURS[v.rule]}",
            "canvas " + (" ".join(NAME_OF[c] for c in v.canvas) or "-"),
            "hand " + ("?" if v.hand is None else _names(v.hand)),
            "palettes " + " | ".join(_names(v.palettes[s]) for s in seats),
            "hands " + " ".join(str(v.hand_sizes[s]) for s in seats),
            "alive " + "".join("1" if v.alive[s] else "0" for s in seats),
            "known " + " | ".join(_names(v.known[s]) for s in seats),
            f"deck {v.deck_size} top " + (" ".join(NAME_OF[c] for c in v.deck_known_top) or "-"),
            f"out {v.out_of_round}",
        ]
        if v.advanced:
            parts.append("scores " + " ".join(str(v.scores[s]) for s in seats))
            parts.append("piles " + " | ".join(_names(v.piles[s]) for s in seats))
        if v.pending is not None:
            parts.append(f"moving with {NAME_OF[v.pending]}")
        return ", ".join(parts)

    def information_text(self, player: int | None) -> str:
        """The perfect-recall information state string of ``player`` (None: public only)."""
        out = []
        for kind, seat, value in self._core.log:
            if kind == EV_ACT:
                out.append(f"{seat} {Action.from_id(value)}")
            elif kind == EV_HAND:
                out.append(f"{seat} dealt {NAME_OF[value] if seat == player else '?'}")
            elif kind == EV_DRAW:
                out.append(f"{seat} drew {NAME_OF[value] if seat == player else '?'}")
            elif kind == EV_PALETTE:
                out.append(f"{seat} palette {NAME_OF[value]}")
            elif kind == EV_KNOWN:
                out.append(f"{seat} drew known {NAME_OF[value]}")
            else:
                out.append(f"round {seat}")
        return f"p{'-' if player is None else player}: " + ", ".join(out)

    def __str__(self) -> str:
        """The whole state (hidden cards included), for debugging and OpenSpiel's checks."""
        core = self._core
        g = core.game
        if core.order is not None:
            return f"round {g.round} dealing; scores {list(g.scores)}; dealt so far (order): " + (
                " ".join(NAME_OF[c] for c in core.order) or "-"
            )
        if core.truncated:
            return f"match ended after {MAX_ROUNDS} rounds; scores {list(g.scores)}; winners {self.winners()}"
        lines = [repr(g)]
        for s in range(g.n):
            lines.append(
                f"seat {s}: hand {_names(g.hands[s])}; palette {_names(g.palettes[s])}; "
                f"known {_names(g.known[s])}; alive {g.alive[s]}; score {g.scores[s]}"
            )
        lines.append("canvas " + (" ".join(NAME_OF[c] for c in g.canvas) or "-"))
        lines.append(f"deck (top last, {g.deck_known} known) " + (" ".join(NAME_OF[c] for c in g.deck) or "-"))
        lines.append(f"out of round {_names(g.removed)}")
        if core.pending is not None:
            lines.append(f"pending {Action.from_id(core.pending)} (chance picks the card drawn)")
        return "\n".join(lines)

    # --- determinization ---------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> Red7State:
        """A state drawn among those ``player_id`` cannot tell from this one.

        ``probability_sampler`` is any callable returning floats in [0, 1) (OpenSpiel's
        ``UniformProbabilitySampler``, or ``random.Random(seed).random``); one call seeds
        the draw. The world is :class:`~red7.core.worlds.WorldSampler`'s (which keeps the
        face-down cards ``player_id`` can name, R9, out of the round). The log keeps every
        public event and ``player_id``'s own cards; the
        other seats' hidden cards are rebuilt to agree with the new world (see
        :meth:`_rebuild_log`). Same information state string and tensor and same current
        player for ``player_id``; the new state's OpenSpiel ``history()`` is empty (only
        the log carries the past). Decision nodes only.

        Like the sampler (and the project's own ISMCTS), this ignores what the legality of
        past decisions reveals: with actions on, a 7 or a 1 that takes is legal only if its
        player could still end the turn winning (R7.x), which says something about that
        player's hand. With actions off the rebuilt log replays to the new state exactly;
        with actions on, a past decision may not have been legal with the rebuilt hand.
        """
        core = self._core
        if core.order is not None or core.pending is not None or self.is_terminal():
            raise GameError("resample_from_infostate works at decision nodes only")
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        world = WorldSampler(core.game.observation(player_id)).sample(rng)
        out = core.game.out_public | core.game.out_own[player_id]  # face-down cards it can name
        new: Red7State = self.get_game().new_initial_state()
        new._core = _Core(world, None, None, self._rebuild_log(player_id, world, out, rng), False)
        return new

    def _rebuild_log(self, player: int, world: Game, out: int, rng: random.Random) -> list[Event]:
        """The log with every card ``player`` did not see (other seats' dealt and drawn hand
        cards) chosen again so that it agrees with ``world`` and with every public event.

        Per round and per other seat q, the hidden *slots* are q's dealt hand cards and
        unknown draws, in log order. Each card q placed from the hand (play or canvas)
        without having drawn it in public must come from a slot before it: the k-th such
        card takes q's k-th slot, which is always early enough, because the real history
        fits (with slots and deadlines both in increasing order, the k-th deadline needs k
        earlier slots). The slots left hold the cards q kept hidden: in the current round
        q's hidden hand in ``world`` (or, for a seat eliminated in this round, cards from
        ``world``'s face-down cards but those of ``out``, which ``player`` knows); in a
        past round, cards ``player`` never saw in it.
        """
        log = self._core.log[:]
        n = world.n
        starts = [i for i, e in enumerate(log) if e[0] == EV_ROUND] + [len(log)]
        out_pool = _bits(world.removed & ~out)  # the face-down cards `player` cannot name
        rng.shuffle(out_pool)
        for r in range(len(starts) - 1):
            begin, end = starts[r], starts[r + 1]
            current = r == len(starts) - 2
            slots: list[list[int]] = [[] for _ in range(n)]
            placed: list[list[int]] = [[] for _ in range(n)]  # hidden-origin cards placed, in order
            held_public: list[set[int]] = [set() for _ in range(n)]
            seen = 0  # the cards `player` saw in this round
            for i in range(begin + 1, end):
                kind, seat, value = log[i]
                if kind in (EV_HAND, EV_DRAW):
                    if seat == player:
                        seen |= 1 << value
                    else:
                        slots[seat].append(i)
                elif kind in (EV_PALETTE, EV_KNOWN):
                    seen |= 1 << value
                    if kind == EV_KNOWN:
                        held_public[seat].add(value)
                elif kind == EV_ACT:
                    a = Action.from_id(value)
                    if a.kind in ("play", "canvas"):  # a hand card placed
                        card = int(a.card)  # type: ignore[arg-type]
                        seen |= 1 << card
                        if card in held_public[seat]:
                            held_public[seat].remove(card)
                        elif seat != player:
                            placed[seat].append(card)
            pool = _bits(log[begin][2] & ~seen)  # a past round: cards `player` never saw
            rng.shuffle(pool)
            for q in range(n):
                if q == player:
                    continue
                cards = placed[q]
                kept = len(slots[q]) - len(cards)
                if current and world.alive[q]:
                    hidden = _bits(world.hands[q] & ~world.known[q])
                    rng.shuffle(hidden)
                elif current:
                    hidden, out_pool = out_pool[:kept], out_pool[kept:]
                else:
                    hidden, pool = pool[:kept], pool[kept:]
                if kept < 0 or len(hidden) != kept:
                    raise GameError(f"seat {q}'s hidden cards do not fit round {log[begin][1]} of the log")
                for i, card in zip(slots[q], cards + hidden, strict=True):
                    log[i] = (log[i][0], q, card)
        return log


def _bits(mask: int) -> list[int]:
    """The card indices of ``mask``, lowest first, as plain ints (chance outcomes, log)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _names(mask: int) -> str:
    return " ".join(names_of(mask)) or "-"


def seeded_resampler(seed: int) -> Callable[[Red7State, int], Red7State]:
    """A resampler for ``ISMCTSBot.set_resampler`` whose worlds follow ``seed``.

    OpenSpiel's Python ISMCTSBot otherwise resamples with a fresh
    ``pyspiel.UniformProbabilitySampler``, seeded from the system: its searches would not
    be reproducible even with a seeded ``random_state``.
    """
    rng = random.Random(seed)

    def resample(state: Red7State, player: int) -> Red7State:
        return state.resample_from_infostate(player, rng.random)

    return resample


class Red7Observer:
    """OpenSpiel's PyObserver interface: ``tensor``, ``dict``, ``set_from``, ``string_from``.

    The tensor is :func:`~red7.envs.encoding.encode` of the seat's view (float32), cut into
    the named pieces of :data:`~red7.envs.encoding.FIELDS` (per-seat fields shaped (4, 49)).
    The string is the observation text, or with ``perfect_recall`` the information state
    (the event log). See the module docstring for what each observation type shows.
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if not iig_obs_type.public_info:
            raise ValueError(f"{SHORT_NAME} offers no observation without the public information")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(f"{SHORT_NAME} offers no observation of every player's private information")
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: npt.NDArray[np.float32] = np.zeros(OBS_SIZE, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        offset = 0
        for name, size in FIELDS:
            shape = (MAX_SEATS, NUM_CARDS) if size == MAX_SEATS * NUM_CARDS else (size,)
            self.dict[name] = self.tensor[offset : offset + size].reshape(shape)
            offset += size

    def set_from(self, state: Red7State, player: int) -> None:
        """Fill ``tensor`` (and so ``dict``) with ``state`` as ``player`` sees it."""
        self.tensor[:] = encode(state.view(player, self.private))

    def string_from(self, state: Red7State, player: int) -> str:
        if self.perfect_recall:
            return state.information_text(player if self.private else None)
        return state.observation_text(player, self.private)


pyspiel.register_game(_GAME_TYPE, Red7Game)
