"""The game: a match of Red7 as a sequence of decisions (R2, R4-R8).

:class:`Game` is the engine's one public object. It owns the position (a private
:class:`~red7.core.state.State`), applies decisions by the rules and keeps the events
they caused (:mod:`red7.core.events`). A game is fully described by its configuration,
its seed and its decisions. Whose decision it is and what may be decided are always
known (:attr:`Game.current_player`, :meth:`Game.legal_actions`); everything automatic
(dealing, the 3's draw, the empty-hand elimination of R4.1, scoring, the next round)
happens inside :meth:`Game.apply`.

A turn moves through *steps* (:class:`~red7.core.model.Step`): ``start`` (play a hand
card, canvas one, or concede, R4.2); ``after`` a card was played and its action
resolved (end while winning R4.6, canvas, or concede); ``five``, ``seven`` and ``one``
for the actions (R7.5, R7.7, R7.1); ``draw`` for the advanced draw (R5.1). Concede is
legal at every step (R4.2). A card reaches the canvas only if its player is winning
right after (R4.4), so every turn that is not conceded ends with its player winning.

**Chance.** By default the game shuffles each round with its seeded RNG
(:func:`~red7.core.seeds.round_rng`: SplitMix64, or for games recorded before it the
Mersenne Twister, ``deal``) and draws the top card of the deck. With
``explicit_chance=True`` the caller is the chance source, as OpenSpiel's chance nodes
are: the game stops at ``Step.DEALING`` (each card of a deal, in dealing order: seven
passes of one hand card per seat from seat 0, then one palette card per seat) and at
``Step.DRAWING`` (a draw from the unknown part of the deck; a public top card, R7.z,
is drawn at once), lists :meth:`Game.chance_outcomes` and waits for
:meth:`Game.apply_chance`.

Who may decide what is worked out by a :class:`~red7.core.turn.TurnSolver` built once
per decision point; refusals come from its checks as
:class:`~red7.core.model.Refusal` codes.
"""

from __future__ import annotations

from itertools import compress
from typing import Any, Final

from . import actions as A
from .actions import Action, to_action
from .cards import (
    ALL_CARDS,
    COLOUR_OF,
    COLOURS,
    FULL_DECK,
    NAME_OF,
    VALUE_OF,
    Card,
    CardError,
    CardSet,
    bits_of,
    cards_of,
    mask_of,
    names_of,
    to_card,
)
from .events import (
    CANVASED,
    DRAWN,
    ELIMINATED,
    MOVED,
    PLAYED,
    TURN_ENDED,
    CardTaken,
    DrawDeclined,
    Event,
    GameOver,
    RoundDealt,
    RoundOver,
)
from .model import (
    HAND_SIZE,
    MAX_ROUNDS,
    TARGETS,
    Config,
    GameError,
    IllegalActionError,
    Option,
    Refusal,
    RefusalCode,
    Result,
    RoundLog,
    RoundResult,
    Step,
)
from .observation import Observation, check_seat, observe
from .rules import qualifying_mask, winner_of_masks
from .seeds import DEAL, check_deal, fresh_seed, round_rng
from .state import State
from .turn import TurnSolver

START, AFTER, FIVE, SEVEN, ONE, DRAW, OVER = (
    Step.START,
    Step.AFTER,
    Step.FIVE,
    Step.SEVEN,
    Step.ONE,
    Step.DRAW,
    Step.OVER,
)
DEALING, DRAWING = Step.DEALING, Step.DRAWING
_CONCEDE: Final = (A.CONCEDE,)


class Game:
    """A game of Red7 (a single round in the basic game, a match in the advanced one).

    ``Game(players=2, advanced=False, actions=False, seed=None)``, or
    ``Game(config=Config(...), seed=...)``; ``seed`` None draws one from the system.
    ``deal`` names the generator that shuffles the rounds (:data:`~red7.core.seeds.DEALS`):
    SplitMix64 for new games, ``"mt19937"`` to replay a game recorded before it.

    >>> g = Game(players=2, seed=1)
    >>> g.current_player, len(g.hand(g.current_player))
    (1, 7)
    >>> [type(e).__name__ for e in g.apply("concede")]
    ['PlayerEliminated', 'RoundOver', 'GameOver']
    >>> g.is_over, g.result.winners
    (True, (0,))
    """

    # The event log is ``_past + _events``: ``_past`` is frozen and shared with clones
    # (so a copy costs nothing for the log), ``_events`` is what this game logged since.
    # ``_opening``: the palettes the log begins with, when no deal begins it (see opening).
    __slots__ = ("_s", "_solver", "_events", "_past", "_opening")

    def __init__(
        self,
        players: int = 2,
        advanced: bool = False,
        actions: bool = False,
        seed: int | None = None,
        *,
        config: Config | None = None,
        explicit_chance: bool = False,
        deal: str = DEAL,
    ) -> None:
        if config is None:
            config = Config(players, bool(advanced), bool(actions))
        elif (players, advanced, actions) != (2, False, False):
            raise GameError("give either config or players/advanced/actions, not both")
        if seed is None:
            seed = fresh_seed()
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise GameError(f"the seed must be an integer, not {seed!r}")
        try:
            check_deal(deal)
        except ValueError as err:
            raise GameError(str(err)) from None
        self._s = State.empty(config, seed, bool(explicit_chance), deal)
        self._solver: TurnSolver | None = None
        self._events: list[Event] = []
        self._past: tuple[Event, ...] = ()
        self._opening: tuple[int, ...] | None = None
        self._deal(FULL_DECK)

    @classmethod
    def _of(cls, state: State, past: tuple[Event, ...] = (), opening: tuple[int, ...] | None = None) -> Game:
        """A game around ``state`` whose event log begins with ``past``, from the
        palettes ``opening`` when no deal begins it (the core's own constructors: clone,
        worlds, positions)."""
        game = cls.__new__(cls)
        game._s = state
        game._solver = None
        game._events = []
        game._past = past
        game._opening = opening
        return game

    # --- construction of arbitrary positions ---------------------------------------

    @classmethod
    def from_position(
        cls,
        hands: list[list[str]],
        palettes: list[list[str]],
        *,
        deck: list[str] | None = None,
        canvas: list[str] | None = None,
        current: int = 0,
        advanced: bool = False,
        actions: bool = False,
        deck_known: int = 0,
        known: list[list[str]] | None = None,
        scores: list[list[str]] | None = None,
        eliminated: list[int] | None = None,
        seed: int = 0,
        explicit_chance: bool = False,
    ) -> Game:
        """A game at the start of ``current``'s turn in a position given card by card.

        ``deck`` lists the deck top first; ``canvas`` bottom first (its last card sets
        the rule; empty means the Red start card); ``deck_known`` top cards of the deck
        are public; ``known`` lists, per seat, hand cards everyone saw drawn;
        ``scores`` lists each seat's score pile; seats in ``eliminated`` are out of the
        round (at least two players must remain). Cards listed nowhere are out of the
        round face down (R6.1). Used by tests and by tools that set up a situation; the
        RNG (``seed``) only serves later rounds; with ``explicit_chance`` every draw of
        an unknown card is a chance node (see the module docstring). Its event log starts
        empty, unless ``current`` begins with an empty hand: R4.1 then eliminates it at
        once (``PlayerEliminated``, and the events of the round's end if it ends).
        """
        n = len(hands)
        config = Config(n, bool(advanced), bool(actions))
        if len(palettes) != n:
            raise GameError(f"{len(palettes)} palettes for {n} hands")
        seen = 0

        def take(cards: list[str], what: str) -> int:
            nonlocal seen
            m = mask_of(cards, what)
            if m & seen:
                raise CardError(f"card {' '.join(names_of(m & seen))} is placed twice ({what})")
            seen |= m
            return m

        hand_masks = [take(h, f"hand {i}") for i, h in enumerate(hands)]
        palette_masks = [take(p, f"palette {i}") for i, p in enumerate(palettes)]
        deck_cards = [int(to_card(c)) for c in reversed(deck or [])]
        take(deck or [], "deck")
        canvas_cards = [int(to_card(c)) for c in canvas or []]
        take(canvas or [], "canvas")
        piles = [take(s, f"score pile {i}") for i, s in enumerate(scores)] if scores else [0] * n
        if not 0 <= deck_known <= len(deck_cards):
            raise GameError(f"deck_known={deck_known} but the deck holds {len(deck_cards)} cards")
        known_masks = [0] * n
        for seat, cards in enumerate(known or []):
            m = mask_of(cards, "known cards")
            if m & ~hand_masks[seat]:
                raise GameError(f"known cards {' '.join(names_of(m & ~hand_masks[seat]))} are not in hand {seat}")
            known_masks[seat] = m
        out = set(eliminated or [])
        if not out <= set(range(n)) or n - len(out) < 2:
            raise GameError(f"eliminated seats {sorted(out)}: a round needs two of the {n} seats still in it (R6.2)")
        if not 0 <= current < n or current in out:
            raise GameError(f"seat {current} cannot take the turn")
        state = State(
            config=config,
            seed=seed,
            explicit_chance=bool(explicit_chance),
            hands=hand_masks,
            palettes=palette_masks,
            known_hand_cards=known_masks,
            deck=deck_cards,
            deck_known_count=deck_known,
            canvas=canvas_cards,
            rule=COLOUR_OF[canvas_cards[-1]] if canvas_cards else 0,
            out_of_round=FULL_DECK & ~seen,
            out_of_round_known=0,
            out_of_round_own=[0] * n,
            score_piles=piles,
            scores=[sum(VALUE_OF[c] for c in bits_of(p)) for p in piles],
            alive=[True] * n,
            current=current,
            step=START,
            pending=None,
            draw_ends_turn=False,
            round=1,
            turns=0,
            history=(),
            round_log=RoundLog(0, tuple(palette_masks), tuple(h.bit_count() for h in hand_masks), (), False),
            round_results=(),
            result=None,
        )
        game = cls._of(state, opening=tuple(palette_masks))
        for seat in out:
            game._eliminate(seat)
        game._begin_turn(current)
        return game

    # --- reading the game ----------------------------------------------------------

    @property
    def config(self) -> Config:
        return self._s.config

    @property
    def seed(self) -> int:
        return self._s.seed

    @property
    def deal(self) -> str:
        """The generator that shuffles the rounds (one of :data:`~red7.core.seeds.DEALS`)."""
        return self._s.deal

    @property
    def players(self) -> int:
        return self._s.config.players

    @property
    def current_player(self) -> int | None:
        """The seat whose decision it is; None when the game is over or chance decides."""
        s = self._s
        return None if s.step >= OVER else s.current

    @property
    def step(self) -> Step:
        """Where the turn is (which kinds of decision are possible, STEP_KINDS)."""
        return self._s.step

    @property
    def step_name(self) -> str:
        """The step's label: ``start``, ``after``, ``five``, ``seven``, ``one``, ``draw``..."""
        return self._s.step.label

    @property
    def is_over(self) -> bool:
        return self._s.step == OVER

    @property
    def is_chance_node(self) -> bool:
        """Is the game waiting for :meth:`apply_chance` (explicit chance only)?"""
        return self._s.step > OVER

    @property
    def result(self) -> Result | None:
        return self._s.result

    @property
    def round_results(self) -> tuple[RoundResult, ...]:
        return self._s.round_results

    @property
    def round(self) -> int:
        """The round being played, from 1."""
        return self._s.round

    @property
    def turns(self) -> int:
        """Turns begun in the match so far, the eliminating ones included."""
        return self._s.turns

    @property
    def rule(self) -> int:
        """The rule in force: a colour index (0 = Red .. 6 = Violet)."""
        return self._s.rule

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._s.scores)

    @property
    def alive(self) -> tuple[bool, ...]:
        """Per seat: still in the round?"""
        return tuple(self._s.alive)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every decision of the match: (seat, decision)."""
        return tuple((seat, Action.from_id(a)) for seat, a in self._s.history)

    @property
    def decisions(self) -> int:
        """How many decisions the match has had."""
        return len(self._s.history)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, as they happened (hidden cards included: see :meth:`events_for`)."""
        return self._past + tuple(self._events)

    @property
    def event_count(self) -> int:
        """``len(self.events)``, without making the tuple (a game's events only grow;
        what they are is :attr:`events`)."""
        return len(self._past) + len(self._events)

    def events_for(self, seat: int | None, start: int = 0) -> list[Event]:
        """The events from number ``start`` on, as ``seat`` (None: a spectator) may see them (R9)."""
        check_seat(seat, self._s.config.players)
        return [e.seen_by(seat) for e in self.events[start:]]

    def hand(self, seat: int) -> list[str]:
        """The hand of ``seat``, highest card first (hidden information: not for other seats' eyes)."""
        return names_of(self._s.hands[seat])

    def palette(self, seat: int) -> list[str]:
        """The palette of ``seat``, highest card first."""
        return names_of(self._s.palettes[seat])

    @property
    def opening(self) -> tuple[int, ...] | None:
        """The palettes (card masks, public) the event log begins with, when no deal
        begins it: a position given card by card (:meth:`from_position`) has no events
        of how its palettes were made, so whoever works palettes out from the events
        (:func:`red7.play.session.cards_at_round_end`) starts from these. None for a
        dealt game, whose log begins with its first deal."""
        return self._opening

    @property
    def round_log(self) -> RoundLog:
        """The round's public log beyond its decisions (R9): where it began, its palettes
        then, who drew when (the card when everyone saw it)."""
        return self._s.round_log

    def deck(self) -> list[str]:
        """The deck, top card first (hidden information, for tests and tools)."""
        return [NAME_OF[c] for c in reversed(self._s.deck)]

    def out_of_round(self) -> list[str]:
        """The cards of eliminated players, face down (hidden information, R6.1)."""
        return names_of(self._s.out_of_round)

    def winning(self, rule: int | None = None) -> int | None:
        """The seat winning now under ``rule`` (default: the rule in force), or None."""
        s = self._s
        return winner_of_masks(s.rule if rule is None else rule, s.palettes, s.alive)

    def observe(self, seat: int | None) -> Observation:
        """What ``seat`` may see (R9); None is a spectator."""
        return observe(self._s, seat)

    def observation(self, seat: int | None) -> dict[str, Any]:
        """``observe(seat).to_json()``: the same view as JSON-ready data."""
        return observe(self._s, seat).to_json()

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that defines the game so far, its history included (equal games,
        equal fingerprints)."""
        return self._s.key()

    def position_key(self) -> tuple[Any, ...]:
        """The position, however it was reached: :meth:`fingerprint` without the history,
        the turn counter and the seed (transpositions have equal keys)."""
        return self._s.position_key()

    def clone(self) -> Game:
        """An independent copy: what happens to one never touches the other."""
        if self._events:  # freeze this game's log: the copy shares it from now on
            self._past += tuple(self._events)
            self._events = []
        game = Game._of(self._s.copy(), self._past, self._opening)
        game._solver = self._solver  # immutable: it describes the same decision point
        return game

    def __repr__(self) -> str:
        s = self._s
        cfg = s.config
        state = "over" if s.step == OVER else f"player {s.current} to {s.step.label}"
        return (
            f"<Game {cfg.players}p{' advanced' if cfg.advanced else ''}{' actions' if cfg.actions else ''}"
            f" seed={s.seed} round {s.round}, rule {COLOURS[s.rule]}, {state}>"
        )

    # --- legal decisions ----------------------------------------------------------

    def _turn_solver(self) -> TurnSolver | None:
        """The solver of this decision point (built once); None when no player decides."""
        solver = self._solver
        if solver is None:
            s = self._s
            if s.step >= OVER:
                return None
            me = s.current
            solver = self._solver = TurnSolver(
                me,
                tuple(s.palettes),
                tuple(s.alive),
                s.hands[me],
                s.rule,
                s.step,
                s.pending,
                s.deck[-1] if s.deck_known_count else None,
                s.config.actions,
            )
        return solver

    def legal_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions` (the fast path for simulation and search)."""
        solver = self._solver or self._turn_solver()
        return solver.ids[:] if solver is not None else []

    def legal_actions(self) -> list[Action]:
        """The legal decisions now, in increasing id order (empty when no player decides)."""
        return [Action._all[i] for i in self.legal_ids()]

    def safe_ids(self) -> list[int]:
        """The ids of :meth:`safe_actions` (the fast path for simulation and search)."""
        solver = self._solver or self._turn_solver()
        return list(compress(solver.ids, solver.safe)) if solver is not None else []

    def safe_actions(self) -> list[Action]:
        """The legal decisions that keep the mover in the game without counting on an
        unknown card (R4.7). Empty only when conceding is all that is left."""
        return [Action._all[i] for i in self.safe_ids()]

    def safe_or_concede_ids(self) -> list[int]:
        """The safe decisions, or the concession alone when none is safe (the ids of
        :func:`~red7.core.model.safe_or_concede`); empty when no player decides."""
        solver = self._solver or self._turn_solver()
        if solver is None:
            return []
        return list(compress(solver.ids, solver.safe)) or list(_CONCEDE)

    def options(self) -> list[Option]:
        """Every legal decision with its safety mark (R4.7), in increasing id order: the
        options a bot or a person chooses from."""
        solver = self._turn_solver()
        if solver is None:
            return []
        return [Option(Action._all[i], ok) for i, ok in zip(solver.ids, solver.safe, strict=True)]

    def check(self, action: Action | str | int) -> Refusal | None:
        """None if ``action`` is legal now, else why not (from the check that fails)."""
        a = to_action(action)
        solver = self._turn_solver()
        if solver is None:
            return Refusal(RefusalCode.GAME_OVER if self.is_over else RefusalCode.CHANCE, a, self._s.step)
        return solver.check(a)

    def is_legal(self, action: Action | str | int) -> bool:
        try:
            a = to_action(action)
        except ValueError:
            return False
        return a.id in self.legal_ids()

    def is_safe(self, action: Action | str | int) -> bool:
        """Whether a legal decision is safe (R4.7); raises IllegalActionError otherwise."""
        a = to_action(action)
        solver = self._turn_solver()
        if solver is None or a.id not in solver.ids:
            self._refuse(a)
        assert solver is not None
        return solver.safe[solver.ids.index(a.id)]

    def _refuse(self, a: Action) -> None:
        refusal = self.check(a)
        assert refusal is not None, f"{a} is not among the legal decisions but passes every check"
        raise IllegalActionError(refusal, self.legal_actions())

    # --- applying decisions ---------------------------------------------------------

    def apply(self, action: Action | str | int) -> list[Event]:
        """Carry out one decision, given as an :class:`Action`, its notation or its id,
        and return the events it caused.

        An unreadable or illegal decision raises (``ActionError`` or
        :class:`IllegalActionError`, both ``ValueError``) and changes nothing.
        """
        a = to_action(action)
        solver = self._turn_solver()
        if solver is None or a.id not in solver.ids:
            self._refuse(a)
        return self.apply_id(a.id)

    def apply_id(self, action_id: int) -> list[Event]:
        """Carry out a legal decision by id, without checking it, and return the events
        it caused (the fast path for search; an illegal id corrupts the game)."""
        s = self._s
        me = s.current
        events = self._events
        start = len(events)
        s.history += ((me, action_id),)
        self._solver = None
        if action_id < A.CANVAS:
            card = action_id
            bit = 1 << card
            s.hands[me] &= ~bit
            s.known_hand_cards[me] &= ~bit
            s.palettes[me] |= bit
            events.append(PLAYED[me][card])
            self._resolve_action(me, card)
        elif action_id < A.MOVE_CANVAS:
            card = action_id - A.CANVAS
            bit = 1 << card
            s.hands[me] &= ~bit
            s.known_hand_cards[me] &= ~bit
            s.canvas.append(card)
            s.rule = COLOUR_OF[card]
            events.append(CANVASED[me][card])
            if s.config.advanced and s.deck and VALUE_OF[card] > s.palettes[me].bit_count():
                s.step = DRAW  # R5.1
            else:
                self._end_turn()
        elif action_id < A.MOVE_DECK:
            card = action_id - A.MOVE_CANVAS
            s.palettes[me] &= ~(1 << card)
            s.canvas.append(card)
            s.rule = COLOUR_OF[card]
            s.step = AFTER
            s.pending = None
            events.append(MOVED[me][True][card])
        elif action_id < A.TAKE:
            card = action_id - A.MOVE_DECK
            s.palettes[me] &= ~(1 << card)
            self._tuck(card)
            s.step = AFTER
            s.pending = None
            events.append(MOVED[me][False][card])
        elif action_id < A.END:
            card = action_id - A.TAKE
            bit = 1 << card
            owner = next(seat for seat, p in enumerate(s.palettes) if p & bit)
            s.palettes[owner] &= ~bit
            self._tuck(card)
            s.step = AFTER
            events.append(CardTaken(me, ALL_CARDS[card], owner))
        elif action_id == A.END:
            self._end_turn()
        elif action_id == A.DECLINE:
            events.append(DrawDeclined(me))
            self._end_turn()
        elif action_id == A.DRAW:
            self._draw(me, end_turn=True)
        else:  # concede
            self._eliminate(me)
            events.append(ELIMINATED[me][True])
            if not self._round_over():
                self._next_turn()
        return events[start:]

    def _resolve_action(self, me: int, card: int) -> None:
        """Carry out the action of ``card`` just played to the palette (R7)."""
        s = self._s
        s.step = AFTER
        if not s.config.actions:
            return
        v = VALUE_OF[card]
        if v == 7:
            if s.palettes[me] & ~(1 << card):
                s.step = SEVEN
                s.pending = card
        elif v == 5:
            s.step = FIVE
            if not self._turn_solver().has_play():  # type: ignore[union-attr]
                s.step = AFTER  # R7.y: only forbidden 7s and 1s left, the 5 does nothing
                self._solver = None
        elif v == 3:
            self._draw(me, end_turn=False)
        elif v == 1:  # R7.1: a victim is another remaining player with a palette at least as large
            size = s.palettes[me].bit_count()
            if any(s.alive[seat] and p.bit_count() >= size for seat, p in enumerate(s.palettes) if seat != me):
                s.step = ONE

    def _tuck(self, card: int) -> None:
        """A face-up card goes face down on top of the deck: everyone knows it (R7.z)."""
        s = self._s
        s.deck.append(card)
        s.deck_known_count += 1

    def _draw(self, seat: int, end_turn: bool) -> None:
        """``seat`` draws the top card (nothing if the deck is empty), then the turn ends
        (the advanced draw) or goes on (a 3). With explicit chance an unknown card is a
        chance node: the game waits for :meth:`apply_chance`."""
        s = self._s
        if s.deck:
            if s.explicit_chance and not s.deck_known_count:
                s.step = DRAWING
                s.draw_ends_turn = end_turn
                return
            card = s.deck.pop()
            bit = 1 << card
            s.hands[seat] |= bit
            public = s.deck_known_count > 0
            if public:
                s.deck_known_count -= 1
                s.known_hand_cards[seat] |= bit
            self._log_draw(seat, card if public else -1)
            self._events.append(DRAWN[seat][public][end_turn][card])
        if end_turn:
            self._end_turn()
        else:
            s.step = AFTER

    def _log_draw(self, seat: int, card: int) -> None:
        """Add a draw by ``seat`` of ``card`` (-1: unseen) to the round's public log (R9)."""
        s = self._s
        log = s.round_log
        s.round_log = log._replace(draws=(*log.draws, (len(s.history) - 1, seat, card)))

    def _eliminate(self, seat: int) -> None:
        s = self._s
        s.out_of_round |= s.hands[seat] | s.palettes[seat]
        s.out_of_round_known |= s.palettes[seat] | s.known_hand_cards[seat]
        s.out_of_round_own[seat] = s.hands[seat] & ~s.known_hand_cards[seat]
        s.hands[seat] = s.palettes[seat] = s.known_hand_cards[seat] = 0
        s.alive[seat] = False

    def _end_turn(self) -> None:
        """The mover ends its turn winning (R4.3): the next remaining player's begins."""
        self._events.append(TURN_ENDED[self._s.current])
        self._next_turn()

    def _next_turn(self) -> None:
        s = self._s
        n = s.config.players
        seat = (s.current + 1) % n
        while not s.alive[seat]:
            seat = (seat + 1) % n
        self._begin_turn(seat)

    def _begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn; an empty hand eliminates at once (R4.1)."""
        s = self._s
        n = s.config.players
        s.pending = None  # a 7 left pending by a concession
        while True:
            s.current = seat
            s.turns += 1
            if s.hands[seat]:
                s.step = START
                return
            self._eliminate(seat)
            self._events.append(ELIMINATED[seat][False])
            if self._round_over():
                return
            seat = (seat + 1) % n
            while not s.alive[seat]:
                seat = (seat + 1) % n

    def _round_over(self) -> bool:
        """If one player remains, end the round (R6.2), score it and go on (R8)."""
        s = self._s
        alive = [seat for seat, a in enumerate(s.alive) if a]
        if len(alive) > 1:
            return False
        w = alive[0]
        cfg = s.config
        scored = qualifying_mask(s.rule, s.palettes[w]) if cfg.advanced else 0
        points = sum(VALUE_OF[c] for c in bits_of(scored))
        s.round_results += (RoundResult(w, s.rule, tuple(names_of(scored)), points),)
        self._events.append(RoundOver(s.round, w, s.rule, CardSet(scored), points))
        if not cfg.advanced:
            return self._finish((w,))
        s.palettes[w] &= ~scored
        s.score_piles[w] |= scored
        s.scores[w] += points
        if s.scores[w] >= TARGETS[cfg.players]:  # R8.3
            return self._finish((w,))
        left = FULL_DECK
        for pile in s.score_piles:
            left &= ~pile
        if left.bit_count() < (HAND_SIZE + 1) * cfg.players or s.round >= MAX_ROUNDS:  # R8.4, R8.6
            top = max(s.scores)
            return self._finish(tuple(seat for seat, score in enumerate(s.scores) if score == top))
        self._deal(left)
        return True

    def _finish(self, winners: tuple[int, ...]) -> bool:
        s = self._s
        s.step = OVER
        s.result = Result(winners, tuple(s.scores), s.round)
        self._events.append(GameOver(winners, tuple(s.scores), s.round))
        return True

    # --- setup (R2) and chance ---------------------------------------------------------

    def _deal(self, cards: int) -> None:
        """Set up a round from the cards of the mask ``cards`` (R2.2-R2.4, R8.4): shuffled
        by the seeded RNG, or, with explicit chance, card by card by :meth:`apply_chance`."""
        s = self._s
        n = s.config.players
        s.round += 1
        s.hands = [0] * n
        s.palettes = [0] * n
        s.known_hand_cards = [0] * n
        s.deck_known_count = 0
        s.canvas = []
        s.rule = 0
        s.out_of_round = s.out_of_round_known = 0
        s.out_of_round_own = [0] * n
        s.alive = [True] * n
        s.pending = None
        self._solver = None
        deck = list(bits_of(cards))
        if s.explicit_chance:
            s.deck = deck  # the cards not dealt yet
            s.step = DEALING
            return
        round_rng(s.seed, s.round, s.deal).shuffle(deck)
        hands = s.hands
        for _ in range(HAND_SIZE):
            for seat in range(n):
                hands[seat] |= 1 << deck.pop()
        s.palettes = [1 << deck.pop() for _ in range(n)]
        s.deck = deck
        self._dealt()

    def _dealt(self) -> None:
        """The deal is complete: the player left of the highest palette card begins (R2.4)."""
        s = self._s
        n = s.config.players
        first = (max(range(n), key=s.palettes.__getitem__) + 1) % n
        s.round_log = RoundLog(len(s.history), tuple(s.palettes), (HAND_SIZE,) * n, (), True)
        self._events.append(
            RoundDealt(
                s.round,
                tuple(ALL_CARDS[p.bit_length() - 1] for p in s.palettes),
                tuple(CardSet(h) for h in s.hands),
                first,
            )
        )
        self._begin_turn(first)

    def chance_outcomes(self) -> list[Card]:
        """At a chance node, the cards chance may pick (each equally likely), in card
        order: the round's cards not dealt yet, or the deck's unknown cards; else []."""
        s = self._s
        if s.step == DEALING:
            return cards_of(sum(1 << c for c in s.deck))
        if s.step == DRAWING:
            return sorted(ALL_CARDS[c] for c in s.deck[: len(s.deck) - s.deck_known_count])
        return []

    def apply_chance(self, card: Card | str | int) -> list[Event]:
        """Chance picks ``card`` at a chance node (explicit chance); returns the events."""
        c = int(to_card(card))
        s = self._s
        if c not in self.chance_outcomes():
            outcomes = " ".join(map(str, self.chance_outcomes())) or "none (no chance node)"
            raise GameError(f"{NAME_OF[c]} is not a chance outcome now; the outcomes are: {outcomes}")
        events = self._events
        start = len(events)
        s.deck.remove(c)
        if s.step == DEALING:
            n = s.config.players
            dealt = sum(h.bit_count() for h in s.hands) + sum(p.bit_count() for p in s.palettes)
            if dealt < HAND_SIZE * n:
                s.hands[dealt % n] |= 1 << c
            else:
                s.palettes[dealt - HAND_SIZE * n] |= 1 << c
            if dealt + 1 == (HAND_SIZE + 1) * n:
                self._dealt()
        else:
            seat = s.current
            s.hands[seat] |= 1 << c
            self._log_draw(seat, -1)
            events.append(DRAWN[seat][False][s.draw_ends_turn][c])
            if s.draw_ends_turn:
                self._end_turn()
            else:
                s.step = AFTER
        return events[start:]
