"""Red7 as an OpenSpiel game: ``import red7.envs.openspiel`` registers ``python_red7``.

    import pyspiel
    import red7.envs.openspiel  # registers the game
    game = pyspiel.load_game("python_red7", {"players": 3, "advanced": True, "actions": True})

Parameters: ``players`` (2..4, default 2), ``advanced`` and ``actions`` (default false),
checked by :class:`red7.core.model.Config`. The game is sequential, imperfect-information,
with explicit stochastic chance, terminal rewards only. A state is a thin wrapper around
an engine :class:`~red7.core.game.Game` created with ``explicit_chance=True``: the engine
owns the position, the chance nodes and the event log; this module translates.

**Decisions** are the engine's fixed ids (``num_distinct_actions`` = 249, see
:mod:`red7.core.actions`): 0-48 play, 49-97 canvas, 98-146 / 147-195 the 7's move to the
canvas / the deck, 196-244 the 1's take, 245 end, 246 concede, 247 draw, 248 decline.
Legal actions are the engine's, in increasing order; action strings are the engine's
notation (``play R7``).

**Chance** nodes are exactly the engine's (:attr:`Game.is_chance_node
<red7.core.game.Game.is_chance_node>`): each outcome is a card index 0..48
(``max_chance_outcomes`` = 49), uniform over :meth:`Game.chance_outcomes
<red7.core.game.Game.chance_outcomes>`:

- *the deal* (``Step.DEALING``): at the start of each round, ``8 * players`` chance
  nodes in a row; the i-th picks, among the round's cards not dealt yet, the i-th card
  of the deal (seven passes of one hand card per seat from seat 0, then one palette card
  per seat). String: ``deal R7``.
- *the draws* (``Step.DRAWING``): a decision that draws an unknown card (a 3 played
  with actions on, the advanced ``draw``) is carried out, then one chance node picks the
  drawn card among the deck's unknown cards. A draw of a public deck-top card (put there
  by a 7 or a 1, R7.z) is no chance event. String: ``draw R7``.

So a state is a pure function of its history: the engine's own shuffles are never used,
and replaying a state's ``history()`` from the initial state rebuilds it. OpenSpiel's
``serialize``/``deserialize_state`` (a pickle of the state's attributes) work as well.

**Returns** (``ZERO_SUM``): when the game ends, each of the ``k`` winners (a shared
victory is possible in the advanced game, R8.4, R8.6) gets ``(n - k) / (k * (n - 1))``
and every other player ``-1 / (n - 1)``: a lone winner +1, the others sharing -1 (the
same values as the PettingZoo environment, :mod:`red7.envs.red7_v0`). ``max_utility`` =
1, ``min_utility`` = ``-1 / (n - 1)``. Rewards are 0 before the end.

**Length.** ``max_game_length`` counts decisions (chance nodes excluded, as OpenSpiel
does) and is a proven bound: :func:`max_decisions_per_round` times the rounds a game can
last, one in the basic game and :data:`~red7.core.model.MAX_ROUNDS` in the advanced one
(the engine ends every advanced match after that round, R8.6).

**Observations** (``make_py_observer``), for a seat ``p``:

- observation tensor: :func:`red7.envs.encoding.encode` of ``p``'s observation (R9), 873
  numbers, observer first; the named pieces are :data:`red7.envs.encoding.FIELDS`.
- observation string: the same observation as text. At a chance node no one is to move:
  it reads ``dealing`` (the cards dealt so far are shown, the deck holds the cards not
  dealt yet), or ``player 1 drawing`` (the decision that draws is already carried out:
  a 3 is on its palette).
- information state string: perfect recall. The engine's event log as ``p`` sees it
  (:meth:`Game.events_for <red7.core.game.Game.events_for>`: a deal shows ``p``'s own
  hand and ``?`` for the others, another seat's unknown draw reads ``drew ?``); every
  decision shows through the event it caused (``0 play R7``, ``1 canvas B3``, ``0 turn
  ends``, ``2 concedes``...). At a chance node it ends with the chance pending: ``drawing``,
  or the deal in progress as ``p`` sees it (hand sizes, ``p``'s cards dealt so far, the
  palette cards). A deal shows each hand as a set: the order in which a seat's own cards
  arrived tells nothing about the game and is not kept.
- information state tensor: the observation tensor again. It is **not** perfect
  recall: it forgets the order of past events and which of ``p``'s cards came from
  which draw (a perfect-recall tensor of a match thousands of events long would be
  huge). Use the string for anything that needs perfect recall (ISMCTS keys nodes by it).
- ``IIGObservationType`` with ``private_info=NONE`` gives the public observation (the
  viewer's hand and former hand hidden); ``ALL_PLAYERS`` and ``public_info=False`` are
  not offered.

**Determinization.** :meth:`Red7State.resample_from_infostate` returns a state consistent
with a player's information: the world comes from :class:`red7.core.worlds.WorldSampler`
(the hidden cards dealt at random) and the other seats' hidden events are rebuilt to
agree with it, so every seat's information state in the new state is one a real game
could produce, and the given player's is unchanged. OpenSpiel's *Python*
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays the game; give it
:func:`seeded_resampler` for reproducible searches (by default it resamples with
``pyspiel.UniformProbabilitySampler``, which is seeded from the system). OpenSpiel's
C++ MCTS/ISMCTS bots do not work with Python games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import pairwise
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel  # no type hints: Any to mypy (see pyproject's overrides)

from ..core.actions import NUM_ACTIONS, Action
from ..core.cards import ALL_CARDS, COLOURS, FULL_DECK, NAME_OF, NUM_CARDS, CardSet, bits_of, mask_of, names_of
from ..core.events import (
    CanvasPlayed,
    CardDrawn,
    CardMoved,
    CardPlayed,
    CardTaken,
    DrawDeclined,
    Event,
    GameOver,
    PlayerEliminated,
    RoundDealt,
    RoundOver,
    TurnEnded,
)
from ..core.game import Game
from ..core.model import HAND_SIZE, MAX_PLAYERS, MAX_ROUNDS, MIN_PLAYERS, Config, GameError, Step
from ..core.observation import Observation
from ..core.worlds import WorldSampler
from .encoding import FIELDS, MAX_SEATS, OBS_SIZE, encode
from .returns import zero_sum_returns

SHORT_NAME: Final = "python_red7"
DEFAULTS: Final[dict[str, Any]] = {"players": 2, "advanced": False, "actions": False}

_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)


def max_decisions_per_round(players: int) -> int:
    """An upper bound on the decisions of one round of ``players`` (proof below).

    Let a round deal ``N <= 49`` cards, ``D0 = N - 8n`` of them to the deck (a hand of
    ``H = 7`` cards and a palette card each, R2.2). Write ``a`` for the 7s and 1s played,
    ``b`` for the other plays, ``c`` for the canvas plays and ``d`` for the cards drawn.
    Hands start with ``Hn`` cards and never go negative, so ``a + b + c <= Hn + d``. Every
    draw comes from a 3 played (counted in ``b``) or a canvas play (advanced draw, counted in
    ``c``), so ``d <= b + c``, hence ``a <= Hn``. The deck only gains the cards a 7 or a 1
    puts on it (at most one each), so ``d <= D0 + a <= D0 + Hn`` and the placed cards
    ``X = a + b + c <= 2Hn + D0 = N + (H - 1)n``. The other decisions: at most one 7-move or
    1-take per 7 or 1 (``<= Hn``); at most one end, draw or decline per turn that placed a
    card (``<= X``); at most ``n - 1`` concessions. Total: ``2X + (H + 1)n - 1 <= 2 * (49 +
    6n) + 8n - 1 = 97 + 20n``.
    """
    return 2 * (NUM_CARDS + (HAND_SIZE - 1) * players) + (HAND_SIZE + 1) * players - 1


def max_game_length(players: int, advanced: bool) -> int:
    """The declared ``max_game_length``: decisions of a whole game (chance excluded)."""
    return max_decisions_per_round(players) * (MAX_ROUNDS if advanced else 1)


_GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Red7",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULTS),
)


class Red7Game(pyspiel.Game):
    """The OpenSpiel game ``python_red7``; ``params`` as in the module docstring."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.config = Config.from_mapping({**DEFAULTS, **(params or {})})  # GameError (a ValueError) if bad
        players = self.config.players
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(players, self.config.advanced),
        )
        super().__init__(_GAME_TYPE, info, self.config.as_dict())
        # Every state starts as a copy of this game, before its first deal: copying is
        # cheaper than building (OpenSpiel makes a new initial state for every clone and
        # every observation tensor). With explicit chance its seed shuffles nothing.
        self.start = Game(config=self.config, seed=0, explicit_chance=True)

    def new_initial_state(self) -> Red7State:
        """The start of a game: the first chance node of the first deal."""
        return Red7State(self)

    def max_chance_nodes_in_history(self) -> int:
        """A round has at most 49 chance nodes: its ``8n`` deal nodes, and one per unknown
        draw, each taking a card of the ``N - 8n`` dealt to the deck (the only cards whose
        place nobody knows; cards put back by a 7 or a 1 are public)."""
        return NUM_CARDS * (MAX_ROUNDS if self.config.advanced else 1)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> Red7Observer:
        """An observer (PyObserver interface): see the module docstring."""
        if isinstance(iig_obs_type, dict):  # OpenSpiel calls make_py_observer(params) for the default
            iig_obs_type, params = None, iig_obs_type
        return Red7Observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _Core:
    """What a state holds, in one object that copies fast: the engine game and, for a
    resampled state, the events of its rebuilt past (the engine's own log then holds only
    what happened after the resampling).

    OpenSpiel clones a Python state by deep-copying each attribute; a deep copy of the
    engine game would walk all its slots, while :meth:`Game.clone` is made for this (the
    events are immutable and shared).
    """

    __slots__ = ("game", "past")

    def __init__(self, game: Game, past: tuple[Event, ...]) -> None:
        self.game = game
        self.past = past

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return _Core(self.game.clone(), self.past)


class Red7State(pyspiel.State):
    """A state of ``python_red7``: an engine :class:`~red7.core.game.Game` with explicit
    chance (and, after a resampling, the rebuilt events before it)."""

    def __init__(self, game: Red7Game) -> None:
        super().__init__(game)
        self._core = _Core(game.start.clone(), ())

    # --- reading the state ---------------------------------------------------------------

    @property
    def engine(self) -> Game:
        """The engine game (read it, do not change it)."""
        return self._core.game

    @property
    def events(self) -> list[Event]:
        """Every event of the game so far, hidden cards included (after a resampling, the
        rebuilt past first)."""
        return [*self._core.past, *self._core.game.events]

    def events_for(self, player: int | None) -> list[Event]:
        """The events as ``player`` (None: a spectator) may see them (R9)."""
        return [e.seen_by(player) for e in self.events]

    def current_player(self) -> int:
        """The seat to decide, ``PlayerId.CHANCE`` during deals and draws, or ``TERMINAL``."""
        g = self._core.game
        seat = g.current_player
        if seat is not None:
            return seat
        return _TERMINAL if g.is_over else _CHANCE

    def is_terminal(self) -> bool:
        return self._core.game.is_over

    def winners(self) -> tuple[int, ...]:
        """The winners of a finished game."""
        result = self._core.game.result
        if result is None:
            raise GameError("the game is not over")
        return result.winners

    def returns(self) -> list[float]:
        """Zero-sum returns (module docstring); zeros before the end."""
        g = self._core.game
        return zero_sum_returns(g.result.winners, g.players) if g.result is not None else [0.0] * g.players

    def _legal_actions(self, player: int) -> list[int]:
        """The engine's legal ids, increasing (OpenSpiel asks only for the player to move)."""
        assert player == self.current_player(), (player, self.current_player())
        return self._core.game.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Uniform over the engine's chance outcomes, in increasing card order: the
        round's cards not dealt yet (deal), or the deck's unknown cards (draw)."""
        cards = self._core.game.chance_outcomes()
        if not cards:
            raise GameError("not a chance node")
        p = 1.0 / len(cards)
        return [(int(c), p) for c in cards]

    def _action_to_string(self, player: int, action: int) -> str:
        """The engine notation of a decision; ``deal R7`` or ``draw R7`` for chance (which
        of the two depends on this state: a past outcome reads as the current kind)."""
        if player == _CHANCE:
            return f"{'deal' if self._core.game.step == Step.DEALING else 'draw'} {NAME_OF[action]}"
        return str(Action.from_id(action))

    # --- applying actions ------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        """A chance outcome or a decision, checked by the engine (an illegal one raises
        GameError / IllegalActionError / ActionError and changes nothing)."""
        g = self._core.game
        if g.is_chance_node:
            g.apply_chance(action)
        else:
            g.apply(action)

    # --- what a seat sees --------------------------------------------------------------------

    def observation(self, player: int, private: bool = True) -> Observation:
        """What ``player`` sees now (R9); with ``private=False`` the public part only (its
        hand and its former hand hidden)."""
        obs = self._core.game.observe(player)
        return obs if private else obs._replace(hand=None, out_of_round_own=None)

    def observation_text(self, player: int, private: bool = True) -> str:
        """The observation string: every field of :meth:`observation` but the history."""
        o = self.observation(player, private)
        if o.current_player is not None:
            who = f"player {o.current_player} to {o.step.label}"
        elif o.step == Step.DRAWING:
            who = f"player {o.history[-1][0]} drawing"  # the decision that draws is the last one
        else:
            who = o.step.label  # over, dealing
        seats = range(o.players)
        parts = [
            f"p{player}",
            f"round {o.round}",
            f"turns {o.turns}",
            who,
            f"rule {COLOURS[o.rule]}",
            "canvas " + (" ".join(NAME_OF[c] for c in o.canvas) or "-"),
            "hand " + ("?" if o.hand is None else _names(o.hand)),
            "palettes " + " | ".join(_names(o.palettes[s]) for s in seats),
            "hands " + " ".join(str(o.hand_sizes[s]) for s in seats),
            "alive " + "".join("1" if o.alive[s] else "0" for s in seats),
            "known " + " | ".join(_names(o.known_hand_cards[s]) for s in seats),
            f"deck {o.deck_size} top " + (" ".join(NAME_OF[c] for c in o.deck_known_top) or "-"),
            f"out {o.out_of_round_count}",
        ]
        if o.advanced:
            parts.append("scores " + " ".join(str(o.scores[s]) for s in seats))
            parts.append("piles " + " | ".join(_names(o.score_piles[s]) for s in seats))
        if o.pending is not None:
            parts.append(f"moving with {NAME_OF[o.pending]}")
        return ", ".join(parts)

    def information_text(self, player: int | None) -> str:
        """The perfect-recall information state string of ``player`` (None: public only):
        the events it saw, then the chance pending (see the module docstring)."""
        parts = [_seen_text(e, player) for e in self.events]
        g = self._core.game
        if g.step == Step.DRAWING:
            parts.append("drawing")
        elif g.step == Step.DEALING:
            o = g.observe(player)
            mine = "" if o.hand is None else f"; hand {_names(o.hand)}"
            sizes = " ".join(map(str, o.hand_sizes))
            parts.append(f"round {o.round} dealing: hands {sizes}{mine}; palettes {_names(sum(o.palettes))}")
        return f"p{'-' if player is None else player}: " + ", ".join(parts)

    def __str__(self) -> str:
        """The whole state (hidden cards included), for debugging and OpenSpiel's checks."""
        g = self._core.game
        o = g.observe(None)
        lines = [repr(g)]
        for s in range(g.players):
            lines.append(
                f"seat {s}: hand {' '.join(g.hand(s)) or '-'}; palette {_names(o.palettes[s])}; "
                f"known {_names(o.known_hand_cards[s])}; alive {o.alive[s]}; score {o.scores[s]}"
            )
        lines.append("canvas " + (" ".join(NAME_OF[c] for c in o.canvas) or "-"))
        lines.append(f"deck (top first, {len(o.deck_known_top)} known) " + (" ".join(g.deck()) or "-"))
        lines.append(f"out of round {' '.join(g.out_of_round()) or '-'}")
        return "\n".join(lines)

    # --- determinization ---------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> Red7State:
        """A state drawn among those ``player_id`` cannot tell from this one.

        ``probability_sampler`` is any callable returning floats in [0, 1) (OpenSpiel's
        ``UniformProbabilitySampler``, or ``random.Random(seed).random``); one call seeds
        the draw. The world is :class:`~red7.core.worlds.WorldSampler`'s (which keeps the
        face-down cards ``player_id`` can name, R9, out of the round). The events keep
        everything public and ``player_id``'s own cards; the other seats' hidden cards
        are rebuilt to agree with the new world (see :func:`_rebuild`). Same information
        state string and tensor and same current player for ``player_id``; the new
        state's OpenSpiel ``history()`` is empty (only its events carry the past).
        Decision nodes only. The new state's chance stays explicit: its later draws and
        deals are chance nodes, as in any state of the game.

        Like the sampler (and the project's own ISMCTS), this ignores what the legality of
        past decisions reveals: with actions on, a 7 or a 1 that takes is legal only if its
        player could still end the turn winning (R7.x), which says something about that
        player's hand. With actions off the rebuilt events replay to the new state
        exactly; with actions on, a past decision may not have been legal with the
        rebuilt hand.
        """
        g = self._core.game
        if g.is_chance_node or g.is_over:
            raise GameError("resample_from_infostate works at decision nodes only")
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        obs = g.observe(player_id)
        world = WorldSampler(obs).sample(rng, explicit_chance=True)
        new: Red7State = self.get_game().new_initial_state()
        new._core = _Core(world, tuple(_rebuild(self.events, obs, world, rng)))
        return new


# --- the information state string: one short text per event ------------------------------------


def _names(mask: int) -> str:
    return " ".join(names_of(mask)) or "-"


def _hand(hand: CardSet | None) -> str:
    return "?" if hand is None else str(hand)


@lru_cache(maxsize=1 << 16)
def _seen_text(event: Event, viewer: int | None) -> str:
    """The text of ``event`` as ``viewer`` sees it (memoized: events are immutable values,
    mostly shared instances, and ISMCTS asks for information states all the time)."""
    seen = event.seen_by(viewer)
    return _EVENT_TEXT[type(seen)](seen)


_EVENT_TEXT: Final[dict[type[Event], Callable[[Any], str]]] = {
    RoundDealt: lambda e: (
        f"round {e.round} hands {' | '.join(map(_hand, e.hands))} "
        f"palettes {' '.join(map(str, e.palettes))} first {e.first_player}"
    ),
    CardPlayed: lambda e: f"{e.seat} play {e.card}",
    CanvasPlayed: lambda e: f"{e.seat} canvas {e.card}",
    CardMoved: lambda e: f"{e.seat} move {e.card} {'canvas' if e.to_canvas else 'deck'}",
    CardTaken: lambda e: f"{e.seat} take {e.card} from {e.owner}",
    CardDrawn: lambda e: f"{e.seat} drew {'known ' if e.public else ''}{'?' if e.card is None else e.card}",
    DrawDeclined: lambda e: f"{e.seat} decline",
    TurnEnded: lambda e: f"{e.seat} turn ends",
    PlayerEliminated: lambda e: f"{e.seat} {'concedes' if e.conceded else 'is out'}",
    RoundOver: lambda e: (
        f"round {e.round} to {e.winner} under {COLOURS[e.rule]} scoring {e.scored or '-'} ({e.points})"
    ),
    GameOver: lambda e: f"game over, won by {' '.join(map(str, e.winners))}",
}


# --- determinization: the other seats' hidden events, rebuilt for a new world ----------------


def _rebuild(events: Sequence[Event], obs: Observation, world: Game, rng: random.Random) -> list[Event]:
    """``events`` with every card ``obs.seat`` did not see (other seats' dealt hands and
    unknown draws) chosen again so that they agree with ``world`` and with every public
    event.

    Per round and per other seat q, the hidden *slots* are q's dealt hand (one group of
    slots at the deal's position) and then its unknown draws, in order. Each card q
    placed from the hand (play or canvas) without having drawn it in public must come
    from a slot before it: the k-th such card takes q's k-th slot, which is always early
    enough, because the real history fits (with slots and deadlines both in increasing
    order, the k-th deadline needs k earlier slots). The slots left hold the cards q kept
    hidden: in the current round q's hidden hand in ``world`` (or, for a seat eliminated
    in this round, cards from ``world``'s face-down cards but those the viewer can
    name); in a past round, cards the viewer never saw in it.
    """
    out = list(events)
    viewer = obs.seat
    nameable = obs.out_of_round_known | (obs.out_of_round_own or 0)  # face-down cards the viewer knows
    face_down = list(bits_of(mask_of(world.out_of_round(), "face-down cards") & ~nameable))
    rng.shuffle(face_down)
    starts = [i for i, e in enumerate(out) if isinstance(e, RoundDealt)]
    scored = 0  # the cards in score piles before the round: not in play
    for begin, end in pairwise([*starts, len(out)]):
        deal = out[begin]
        assert isinstance(deal, RoundDealt)
        draws, placed, seen = _hidden_slots(out, begin, end, viewer)
        pool = list(bits_of(FULL_DECK & ~scored & ~seen))  # a past round: the cards the viewer never saw
        rng.shuffle(pool)
        hands = list(deal.hands)
        for q in range(obs.players):
            if q == viewer:
                continue
            dealt = hands[q]
            assert dealt is not None  # the full events: nothing hidden
            size = len(dealt)
            kept = size + len(draws[q]) - len(placed[q])
            if end < len(out):
                hidden, pool = pool[:kept], pool[kept:]
            elif obs.alive[q]:
                seen_by_q = world.observe(q)
                hidden = list(bits_of((seen_by_q.hand or 0) & ~seen_by_q.known_hand_cards[q]))
                rng.shuffle(hidden)
            else:
                hidden, face_down = face_down[:kept], face_down[kept:]
            if kept < 0 or len(hidden) != kept:
                raise GameError(f"seat {q}'s hidden cards do not fit round {deal.round} of the events")
            cards = placed[q] + hidden
            hands[q] = CardSet(mask_of(cards[:size]))
            for i, card in zip(draws[q], cards[size:], strict=True):
                drawn = events[i]
                assert isinstance(drawn, CardDrawn)  # the slots are the seat's unknown draws
                out[i] = replace(drawn, card=ALL_CARDS[card])  # the same draw, its reason kept
        out[begin] = replace(deal, hands=tuple(hands))
        scored |= sum(e.scored.mask for e in out[begin:end] if isinstance(e, RoundOver))
    return out


def _hidden_slots(
    events: Sequence[Event], begin: int, end: int, viewer: int | None
) -> tuple[list[list[int]], list[list[int]], int]:
    """For the round of ``events[begin:end]`` (``begin`` is its deal): per seat, the
    positions of its unknown draws and the cards of hidden origin it placed, in order;
    and the mask of the cards ``viewer`` saw."""
    deal = events[begin]
    assert isinstance(deal, RoundDealt)
    n = len(deal.hands)
    own = deal.hands[viewer] if viewer is not None else None
    seen = sum(1 << c for c in deal.palettes) | (own.mask if own is not None else 0)
    draws: list[list[int]] = [[] for _ in range(n)]
    placed: list[list[int]] = [[] for _ in range(n)]
    public: list[set[int]] = [set() for _ in range(n)]  # hand cards each seat drew in public
    for i in range(begin + 1, end):
        e = events[i]
        if isinstance(e, CardDrawn):
            assert e.card is not None  # the full events: nothing hidden
            if e.public:
                public[e.seat].add(e.card)
            if e.public or e.seat == viewer:
                seen |= 1 << e.card
            else:
                draws[e.seat].append(i)
        elif isinstance(e, (CardPlayed, CanvasPlayed)):
            seen |= 1 << e.card
            if e.card in public[e.seat]:
                public[e.seat].remove(e.card)
            elif e.seat != viewer:
                placed[e.seat].append(int(e.card))
    return draws, placed, seen


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

    The tensor is :func:`~red7.envs.encoding.encode` of the seat's observation (float32),
    cut into the named pieces of :data:`~red7.envs.encoding.FIELDS` (per-seat fields
    shaped (4, 49)). The string is the observation text, or with ``perfect_recall`` the
    information state (the events). See the module docstring for what each observation
    type shows.
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
        self.tensor[:] = encode(state.observation(player, self.private))

    def string_from(self, state: Red7State, player: int) -> str:
        if self.perfect_recall:
            return state.information_text(player if self.private else None)
        return state.observation_text(player, self.private)


pyspiel.register_game(_GAME_TYPE, Red7Game)
