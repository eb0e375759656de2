"""The game: a match of Red7 as a sequence of decisions (R2, R4-R8).

:class:`Game` owns the whole state, including the RNG that shuffles, so a game is
fully described by its configuration, its seed and its list of decisions. Whose
decision it is and what it may decide are always known (:attr:`Game.current_player`,
:meth:`Game.legal_actions`); everything automatic (dealing, the 3's draw, the empty-hand
elimination of R4.1, scoring and the next round) happens inside :meth:`Game.apply`.

Internally cards are ints and card sets are masks (see :mod:`red7.core.cards`).

A turn moves through *steps*:

``start``  play a hand card, canvas a hand card, or concede (R4.2).
``after``  a card was played and its action resolved: ``end`` (only while winning,
           R4.6), canvas a hand card, or concede.
``five``   a 5 was played: play one more card (R7.5).
``seven``  a 7 was played: move another palette card to canvas or deck (R7.7).
``one``    a 1 was played: take a card of an eligible palette (R7.1).
``draw``   a canvas play earned the advanced draw: ``draw`` or ``decline`` (R5.1).

Concede is legal at every step (R4.2.4: "always allowed"). A card reaches the canvas
only if its player is winning right after (R4.4), so every turn that is not conceded
ends with its player winning.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from . import actions as A
from .actions import Action, to_action
from .cards import (
    COLOUR_OF,
    COLOURS,
    FULL_DECK,
    NAME_OF,
    VALUE_OF,
    CardError,
    cards_of,
    colours_in,
    mask_of,
    names_of,
    to_card,
)
from .rules import cached_keys, qualifying_mask, winner_of_masks
from .rules import rule_key as _key

if TYPE_CHECKING:
    from .observation import View

START, AFTER, FIVE, SEVEN, ONE, DRAW_STEP, OVER = range(7)
STEP_NAMES: Final = ("start", "after", "five", "seven", "one", "draw", "over")
TARGETS: Final = {2: 40, 3: 35, 4: 30}
"""Points that win an advanced match, by number of players (R8.3)."""
HAND_SIZE: Final = 7

_KEYS = cached_keys()  # read directly on hot paths; rule_key fills them


class GameError(ValueError):
    """A configuration or position that Red7 does not allow."""


class IllegalActionError(ValueError):
    """A decision that is not legal now; the game is left untouched.

    ``reason`` says why; ``legal`` lists what is allowed instead.
    """

    def __init__(self, action: object, reason: str, legal: list[Action]) -> None:
        self.action = action
        self.reason = reason
        self.legal = legal
        allowed = ", ".join(str(a) for a in legal)
        super().__init__(f"illegal decision {str(action)!r}: {reason}. Legal now: {allowed}")


class Option(NamedTuple):
    """A legal decision and whether it is safe (R4.7)."""

    action: Action
    safe: bool


@dataclass(frozen=True)
class Config:
    """The options of a game; each is independent of the others."""

    players: int = 2
    advanced: bool = False
    actions: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or isinstance(self.players, bool) or not 2 <= self.players <= 4:
            raise GameError(f"Red7 is played by 2 to 4 players, not {self.players!r}")
        for name in ("advanced", "actions"):
            if not isinstance(getattr(self, name), bool):
                raise GameError(f"option {name!r} must be true or false, not {getattr(self, name)!r}")

    def as_dict(self) -> dict[str, Any]:
        return {"players": self.players, "advanced": self.advanced, "actions": self.actions}


@dataclass(frozen=True)
class RoundResult:
    """How one round ended (R6.2, R8.2)."""

    winner: int
    rule: int
    scored: tuple[str, ...]
    """The cards the winner moved to their score pile (advanced game), highest first."""
    points: int


@dataclass(frozen=True)
class Result:
    """How the game ended. ``winners`` has one seat except when equal highest scores
    share the victory at the end of the deck (R8.4)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: int

    def as_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "scores": list(self.scores), "rounds": self.rounds}


class Game:
    """A game of Red7 (a single round in the basic game, a match in the advanced one).

    >>> g = Game(players=2, seed=1)
    >>> g.current_player, len(g.hand(g.current_player))
    (1, 7)
    >>> g.apply("concede"); g.is_over, g.result.winners
    (True, (0,))
    """

    __slots__ = (
        "config",
        "seed",
        "n",
        "advanced",
        "actions_on",
        "hands",
        "palettes",
        "known",
        "deck",
        "deck_known",
        "canvas",
        "rule",
        "removed",
        "out_public",
        "out_own",
        "piles",
        "scores",
        "alive",
        "current",
        "step",
        "pending",
        "round",
        "turns",
        "history",
        "round_results",
        "result",
        "_legal",
        "_best_other",
        "_dealt_at",
    )

    def __init__(
        self, players: int = 2, advanced: bool = False, actions: bool = False, seed: int | None = None
    ) -> None:
        self.config = Config(players, bool(advanced), bool(actions))
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 63)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise GameError(f"the seed must be an integer, not {seed!r}")
        self.seed = seed
        self._init_fields()
        self._deal(FULL_DECK)

    def _init_fields(self) -> None:
        n = self.n = self.config.players
        self.advanced = self.config.advanced
        self.actions_on = self.config.actions
        self.hands = [0] * n
        self.palettes = [0] * n
        self.known = [0] * n  # hand cards everyone saw their owner draw (R9)
        self.deck: list[int] = []  # top of the deck is the end of the list
        self.deck_known = 0  # how many cards on top of the deck are public (R7.z)
        self.canvas: list[int] = []  # cards on the canvas above the "Red" card, top last
        self.rule = 0
        self.removed = 0  # cards of eliminated players, face down (R6.1)
        self.out_public = 0  # ...of which everyone saw which: palettes, cards seen drawn (R9)
        self.out_own = [0] * n  # ...and each seat's own hand, known to that seat
        self.piles = [0] * n  # score piles (R8.2)
        self.scores = [0] * n
        self.alive = [True] * n
        self.current = 0
        self.step = START
        self.pending = -1  # the 7 being resolved (step seven)
        self.round = 0
        self.turns = 0
        self.history: list[tuple[int, int]] = []  # (seat, action id) of every decision of the match
        self.round_results: list[RoundResult] = []
        self.result: Result | None = None
        self._legal: tuple[list[int], list[bool]] | None = None
        # While the legal decisions are worked out only the mover's palette changes
        # (a 1's take gets a fresh memo), so the other players' best key per rule is
        # computed once per decision point: -1 = not yet known; None = no memo.
        self._best_other: list[int] | None = None
        self._dealt_at = 0  # len(history) when this round was dealt (see redeal)

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
    ) -> Game:
        """A game at the start of ``current``'s turn in a position given card by card.

        ``deck`` lists the deck top first; ``canvas`` bottom first (its last card sets
        the rule; empty means the Red start card); ``deck_known`` top cards of the deck
        are public; ``known`` lists, per seat, hand cards everyone saw drawn;
        ``scores`` lists each seat's score pile; seats in ``eliminated`` are out of the
        round. Cards listed nowhere are out of the round face down (R6.1). Used by
        tests and by tools that set up a situation; the RNG (``seed``) only serves
        later rounds.
        """
        n = len(hands)
        g = cls.__new__(cls)
        g.config = Config(n, bool(advanced), bool(actions))
        g.seed = seed
        g._init_fields()
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

        g.hands = [take(h, f"hand {i}") for i, h in enumerate(hands)]
        g.palettes = [take(p, f"palette {i}") for i, p in enumerate(palettes)]
        g.deck = [to_card(c) + 0 for c in reversed(deck or [])]
        take(deck or [], "deck")
        g.canvas = [to_card(c) + 0 for c in canvas or []]
        take(canvas or [], "canvas")
        g.rule = COLOUR_OF[g.canvas[-1]] if g.canvas else 0
        if scores:
            g.piles = [take(s, f"score pile {i}") for i, s in enumerate(scores)]
            g.scores = [sum(VALUE_OF[c] for c in cards_of(p)) for p in g.piles]
        g.removed = FULL_DECK & ~seen
        if not 0 <= deck_known <= len(g.deck):
            raise GameError(f"deck_known={deck_known} but the deck holds {len(g.deck)} cards")
        g.deck_known = deck_known
        for seat, cards in enumerate(known or []):
            m = mask_of(cards, "known cards")
            if m & ~g.hands[seat]:
                raise GameError(f"known cards {' '.join(names_of(m & ~g.hands[seat]))} are not in hand {seat}")
            g.known[seat] = m
        for seat in eliminated or []:
            g._eliminate(seat)
        if not 0 <= current < n or not g.alive[current]:
            raise GameError(f"seat {current} cannot take the turn")
        g.current = current
        g.round = 1
        g._begin_turn(current)
        return g

    # --- setup (R2) ---------------------------------------------------------------

    def _deal(self, cards: int, order: Sequence[int] | None = None) -> None:
        """Set up a round from the cards of mask ``cards`` (R2.2-R2.4, R8.4), shuffled,
        or dealt in ``order`` (see :meth:`redeal`)."""
        n = self.n
        if order is None:
            deck = [c for c in range(49) if cards >> c & 1]
            self._round_rng().shuffle(deck)
        else:
            chosen = set(order)
            deck = [c for c in range(49) if cards >> c & 1 and c not in chosen] + list(reversed(order))
        hands = [0] * n
        for _ in range(HAND_SIZE):
            for seat in range(n):
                hands[seat] |= 1 << deck.pop()
        self.palettes = [1 << deck.pop() for _ in range(n)]
        self.hands = hands
        self.deck = deck
        self.deck_known = 0
        self.known = [0] * n
        self.canvas = []
        self.rule = 0
        self.removed = self.out_public = 0
        self.out_own = [0] * n
        self.alive = [True] * n
        self.round += 1
        self._dealt_at = len(self.history)
        self._legal = None
        leader = max(range(n), key=lambda s: self.palettes[s])
        self._begin_turn((leader + 1) % n)

    def redeal(self, order: Sequence[int]) -> None:
        """Deal the current round again, choosing who gets which card.

        ``order`` lists card indices in dealing order: seven passes of one card per seat
        (seat 0 first), then one palette card per seat. The round's other cards form the
        deck, in no meaningful order: an adapter that calls this (OpenSpiel, whose chance
        events choose the deal) lets chance pick each unknown draw too, with
        :meth:`put_on_top`. Allowed only before the round's first decision.
        """
        if self.step == OVER or len(self.history) != self._dealt_at or self.canvas:
            raise GameError("a round can be dealt again only before its first decision")
        cards = sum(self.hands) + sum(self.palettes) + sum(1 << c for c in self.deck)
        wanted = (HAND_SIZE + 1) * self.n
        if len(order) != wanted or len(set(order)) != wanted or any(not cards >> c & 1 for c in order):
            raise GameError(f"a deal is {wanted} distinct cards of this round, not {list(order)!r}")
        self.round -= 1
        self.turns -= 1
        self._deal(cards, order)

    def put_on_top(self, card: int) -> None:
        """Move ``card``, one of the deck's unknown cards, to the top of the deck.

        For adapters whose chance events choose each draw (OpenSpiel): the order of the
        unknown cards is hidden, so this changes no observation. Refused while the top
        of the deck is public (R7.z): the next draw is then no chance event.
        """
        if self.deck_known:
            raise GameError("the top of the deck is known: the next draw is not a chance event")
        if card not in self.deck:
            raise GameError(f"{NAME_OF[card] if 0 <= card < 49 else card} is not in the deck")
        self.deck.remove(card)
        self.deck.append(card)

    def _round_rng(self) -> random.Random:
        """The RNG that shuffles the next round: a pure function of the seed and the
        round number, so a game carries no RNG state and clones cheaply."""
        return random.Random(self.seed if self.round == 0 else f"red7:{self.seed}:{self.round}")

    # --- reading the state --------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The seat whose decision it is, or None when the game is over."""
        return None if self.step == OVER else self.current

    @property
    def is_over(self) -> bool:
        return self.step == OVER

    @property
    def step_name(self) -> str:
        return STEP_NAMES[self.step]

    def hand(self, seat: int) -> list[str]:
        """The hand of ``seat`` (hidden information: not for other seats' eyes)."""
        return names_of(self.hands[seat])

    def palette(self, seat: int) -> list[str]:
        return names_of(self.palettes[seat])

    def winning(self, rule: int | None = None) -> int | None:
        """The seat winning now under ``rule`` (default: the rule in force), or None."""
        return winner_of_masks(self.rule if rule is None else rule, self.palettes, self.alive)

    # --- who wins, and can the mover still finish the turn winning? (R4.4-R4.7, R7.x)

    def _wins(self, me: int, rule: int) -> bool:
        """Is ``me`` winning under ``rule`` with the palettes as they are now?"""
        m = self.palettes[me]
        mine = _KEYS[rule].get(m)
        if mine is None:
            mine = _key(rule, m)
        best = self._best_other
        if best is None:
            return mine > self._best_other_key(me, rule)
        b = best[rule]
        if b < 0:
            b = best[rule] = self._best_other_key(me, rule)
        return mine > b

    def _best_other_key(self, me: int, rule: int) -> int:
        """The largest key under ``rule`` among the other remaining players."""
        cache = _KEYS[rule]
        alive = self.alive
        best = 0
        for seat, o in enumerate(self.palettes):
            if seat != me and alive[seat]:
                k = cache.get(o)
                if k is None:
                    k = _key(rule, o)
                if k > best:
                    best = k
        return best

    def _can_finish(self, me: int, hand: int, rule: int) -> bool:
        """With nothing left to resolve: winning now, or a canvas from ``hand`` wins."""
        colours = colours_in(hand)
        best = self._best_other
        if best is None:
            return self._wins(me, rule) or any(c != rule and self._wins(me, c) for c in colours)
        # The hot path of every legality check, inlined: keys are compared with the
        # memo of the other players' best keys (any key > 0 means a non-empty set).
        m = self.palettes[me]
        for c in (rule, *colours):
            mine = _KEYS[c].get(m)
            if mine is None:
                mine = _key(c, m)
            b = best[c]
            if b < 0:
                b = best[c] = self._best_other_key(me, c)
            if mine > b:
                return True
        return False

    def _survives_play(self, me: int, card: int, hand: int, rule: int) -> bool:
        """Can ``me`` end the turn winning after ``card`` leaves ``hand`` for the palette,
        its action (if any) carried out by ``me``'s best choices? A draw counts only
        when the card drawn is public (R4.7)."""
        pals = self.palettes
        old = pals[me]
        pals[me] = old | 1 << card
        hand &= ~(1 << card)
        if not self.actions_on:  # the common case, kept free of try/finally
            ok = self._can_finish(me, hand, rule)
            pals[me] = old
            return ok
        try:
            v = VALUE_OF[card]
            if v == 7:
                return self._survives_seven(me, card, hand, rule)
            if v == 5:
                return self._survives_five(me, hand, rule)
            if v == 3:
                if self.deck and self.deck_known:
                    hand |= 1 << self.deck[-1]
            elif v == 1:
                return self._survives_one(me, hand, rule)
            return self._can_finish(me, hand, rule)
        finally:
            pals[me] = old

    def _survives_seven(self, me: int, seven: int, hand: int, rule: int) -> bool:
        pals = self.palettes
        old = pals[me]
        others = old & ~(1 << seven)
        if not others:
            return self._can_finish(me, hand, rule)
        try:
            for z in cards_of(others):
                pals[me] = old & ~(1 << z)
                if self._wins(me, COLOUR_OF[z]) or self._can_finish(me, hand, rule):
                    return True
            return False
        finally:
            pals[me] = old

    def _survives_five(self, me: int, hand: int, rule: int) -> bool:
        any_legal = False
        for y in cards_of(hand):
            if self._survives_play(me, y, hand, rule):
                return True
            if not self._forbidden_kind(me, y):
                any_legal = True
        return not any_legal and self._can_finish(me, hand, rule)

    def _victims(self, me: int) -> int:
        """Mask of the palette cards a 1 played by ``me`` may take (R7.1)."""
        pals = self.palettes
        size = pals[me].bit_count()
        out = 0
        for seat in range(self.n):
            if seat != me and self.alive[seat] and pals[seat].bit_count() >= size:
                out |= pals[seat]
        return out

    def _owner(self, card: int) -> int:
        bit = 1 << card
        return next(s for s in range(self.n) if self.palettes[s] & bit)

    def _survives_one(self, me: int, hand: int, rule: int) -> bool:
        victims = self._victims(me)
        if not victims:
            return self._can_finish(me, hand, rule)
        return any(self._finishes_after_take(me, z, hand, rule) for z in cards_of(victims))

    def _finishes_after_take(self, me: int, card: int, hand: int, rule: int) -> bool:
        """Can ``me`` finish winning once the 1 has taken ``card`` from its owner?"""
        pals = self.palettes
        seat = self._owner(card)
        old = pals[seat]
        memo = self._best_other
        pals[seat] = old & ~(1 << card)
        if memo is not None:  # another player's palette changes: a fresh memo
            self._best_other = [-1] * 7
        try:
            return self._can_finish(me, hand, rule)
        finally:
            pals[seat] = old
            self._best_other = memo

    def _forbidden_kind(self, me: int, card: int) -> bool:
        """Is ``card`` a 7, or a 1 that would take a card (R7.7, R7.1)? Such a card is
        legal only if its player can still finish winning (R7.x). A 1 with no eligible
        victim takes nothing, so it is as free as any play (the seeds restrict the 1
        only "para pegar a carta de outro jogador")."""
        if not self.actions_on:
            return False
        v = VALUE_OF[card]
        if v == 7:
            return True
        if v != 1:
            return False
        pals = self.palettes
        old = pals[me]
        pals[me] = old | 1 << card
        try:
            return bool(self._victims(me))
        finally:
            pals[me] = old

    # --- legal decisions ----------------------------------------------------------

    def _compute_legal(self) -> tuple[list[int], list[bool]]:
        """Legal action ids in increasing order, and whether each is safe (R4.7)."""
        ids: list[int] = []
        safe: list[bool] = []
        step = self.step
        if step == OVER:
            return ids, safe
        me = self.current
        hand = self.hands[me]
        rule = self.rule
        if step in (START, FIVE):
            for c in cards_of(hand):
                ok = self._survives_play(me, c, hand, rule)
                if ok or not self._forbidden_kind(me, c):
                    ids.append(A.PLAY + c)
                    safe.append(ok)
        if step in (START, AFTER):
            winning_colours = [c for c in colours_in(hand) if self._wins(me, c)]
            for c in cards_of(hand):
                if COLOUR_OF[c] in winning_colours:
                    ids.append(A.CANVAS + c)
                    safe.append(True)
        elif step == SEVEN:
            pals = self.palettes
            old = pals[me]
            others = cards_of(old & ~(1 << self.pending))
            deck_safe: list[bool] = []
            try:
                for z in others:
                    pals[me] = old & ~(1 << z)
                    if self._wins(me, COLOUR_OF[z]):
                        ids.append(A.MOVE_CANVAS + z)
                        safe.append(True)
                    deck_safe.append(self._can_finish(me, hand, rule))
            finally:
                pals[me] = old
            ids.extend(A.MOVE_DECK + z for z in others)
            safe.extend(deck_safe)
        elif step == ONE:
            for z in cards_of(self._victims(me)):
                ids.append(A.TAKE + z)
                safe.append(self._finishes_after_take(me, z, hand, rule))
        if step == AFTER and self._wins(me, rule):
            ids.append(A.END)
            safe.append(True)
        ids.append(A.CONCEDE)
        safe.append(False)
        if step == DRAW_STEP:
            ids += [A.DRAW, A.DECLINE]
            safe += [True, True]
        return ids, safe

    def _legal_ids(self) -> tuple[list[int], list[bool]]:
        legal = self._legal
        if legal is None:
            self._best_other = [-1] * 7
            try:
                legal = self._legal = self._compute_legal()
            finally:
                self._best_other = None
        return legal

    def legal_actions(self) -> list[Action]:
        """The legal decisions now, in increasing id order (empty when the game is over)."""
        return [Action._all[i] for i in self._legal_ids()[0]]

    def legal_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions` (the fast path for simulation and search)."""
        return self._legal_ids()[0][:]

    def safe_ids(self) -> list[int]:
        """The ids of :meth:`safe_actions` (the fast path for simulation and search)."""
        ids, safe = self._legal_ids()
        return [i for i, s in zip(ids, safe, strict=True) if s]

    def safe_actions(self) -> list[Action]:
        """The legal decisions that keep the mover in the game without counting on an
        unknown card (R4.7). Empty only when conceding is all that is left."""
        return [Action._all[i] for i in self.safe_ids()]

    def options(self) -> list[Option]:
        """Every legal decision with its safety mark (R4.7), in increasing id order: the
        options a bot or a person chooses from."""
        ids, safe = self._legal_ids()
        return [Option(Action._all[i], s) for i, s in zip(ids, safe, strict=True)]

    def is_safe(self, action: Action | str | int) -> bool:
        """Whether a legal decision is safe (R4.7); raises IllegalActionError otherwise."""
        a = to_action(action)
        ids, safe = self._legal_ids()
        if a.id not in ids:
            self._refuse(a)
        return safe[ids.index(a.id)]

    def is_legal(self, action: Action | str | int) -> bool:
        try:
            a = to_action(action)
        except ValueError:
            return False
        return a.id in self._legal_ids()[0]

    # --- applying decisions ---------------------------------------------------------

    def apply(self, action: Action | str | int) -> None:
        """Carry out one decision, given as an :class:`Action`, its notation or its id.

        An unreadable or illegal decision raises (``ActionError`` or
        :class:`IllegalActionError`, both ``ValueError``) and changes nothing.
        """
        a = to_action(action)
        if a.id not in self._legal_ids()[0]:
            self._refuse(a)
        self.apply_id(a.id)

    def _refuse(self, a: Action) -> None:
        legal = self.legal_actions()
        raise IllegalActionError(a, self._why_illegal(a), legal)

    def _why_illegal(self, a: Action) -> str:
        if self.step == OVER:
            return "the game is over"
        me = self.current
        step = STEP_NAMES[self.step]
        card = a.card
        if a.kind in ("play", "canvas") and card is not None and not self.hands[me] >> card & 1:
            return f"{card} is not in the hand of player {me}"
        if a.kind == "play" and self.step in (START, FIVE):
            return f"playing {card} now cannot end the turn winning (R7.x)"
        if a.kind == "canvas" and self.step in (START, AFTER):
            return f"after {card} lands on the canvas player {me} would not be winning (R4.4)"
        if a.kind == "end" and self.step == AFTER:
            return f"player {me} is not winning, so the turn cannot end (R4.6)"
        if a.kind == "move" and self.step == SEVEN and a.destination == "canvas":
            return "the 7's card may go to the canvas only if its player wins right after (R4.4)"
        if a.kind == "move" and self.step == SEVEN:
            return "the 7 must move another card of its player's own palette (R7.7)"
        if a.kind == "take" and self.step == ONE:
            return "the 1 takes from another palette at least as large as its player's (R7.1)"
        return f"a {a.kind!r} decision does not belong to the {step!r} step of the turn"

    def apply_id(self, action_id: int) -> None:
        """Carry out a legal decision by id, without checking it (the fast path for
        search; an illegal id corrupts the game)."""
        me = self.current
        self.history.append((me, action_id))
        self._legal = None
        if action_id < A.CANVAS:
            card = action_id
            self.hands[me] &= ~(1 << card)
            self.known[me] &= ~(1 << card)
            self.palettes[me] |= 1 << card
            self._resolve_action(me, card)
        elif action_id < A.MOVE_CANVAS:
            card = action_id - A.CANVAS
            self.hands[me] &= ~(1 << card)
            self.known[me] &= ~(1 << card)
            self.canvas.append(card)
            self.rule = COLOUR_OF[card]
            if self.advanced and self.deck and VALUE_OF[card] > self.palettes[me].bit_count():
                self.step = DRAW_STEP
            else:
                self._end_turn()
        elif action_id < A.MOVE_DECK:
            card = action_id - A.MOVE_CANVAS
            self.palettes[me] &= ~(1 << card)
            self.canvas.append(card)
            self.rule = COLOUR_OF[card]
            self.step = AFTER
        elif action_id < A.TAKE:
            card = action_id - A.MOVE_DECK
            self.palettes[me] &= ~(1 << card)
            self._tuck(card)
            self.step = AFTER
        elif action_id < A.END:
            card = action_id - A.TAKE
            self.palettes[self._owner(card)] &= ~(1 << card)
            self._tuck(card)
            self.step = AFTER
        elif action_id == A.END or action_id == A.DECLINE:
            self._end_turn()
        elif action_id == A.DRAW:
            self._draw(me)
            self._end_turn()
        else:  # concede
            self._eliminate(me)
            if not self._round_over():
                self._end_turn()

    def _resolve_action(self, me: int, card: int) -> None:
        """Carry out the action of ``card`` just played to the palette (R7)."""
        self.step = AFTER
        if not self.actions_on:
            return
        v = VALUE_OF[card]
        if v == 7:
            if self.palettes[me] & ~(1 << card):
                self.step = SEVEN
                self.pending = card
        elif v == 5:
            hand = self.hands[me]
            for y in cards_of(hand):  # R7.y: only forbidden 7s and 1s left -> nothing
                if not self._forbidden_kind(me, y) or self._survives_play(me, y, hand, self.rule):
                    self.step = FIVE
                    break
        elif v == 3:
            self._draw(me)
        elif v == 1:
            if self._victims(me):
                self.step = ONE

    def draws_unknown(self, action_id: int) -> bool:
        """Would the legal decision ``action_id`` draw a card nobody knows (a 3 played to
        the palette with actions on, R7.3; the advanced draw, R5.1), rather than nothing
        or a public deck-top card (R7.z)? Adapters that let chance pick each drawn card
        ask this before :meth:`put_on_top`."""
        if not self.deck or self.deck_known:
            return False
        if action_id == A.DRAW:
            return True
        return action_id < A.CANVAS and self.actions_on and VALUE_OF[action_id] == 3

    def _tuck(self, card: int) -> None:
        """A face-up card goes face down on top of the deck: everyone knows it (R7.z)."""
        self.deck.append(card)
        self.deck_known += 1

    def _draw(self, seat: int) -> None:
        if not self.deck:
            return
        card = self.deck.pop()
        self.hands[seat] |= 1 << card
        if self.deck_known:
            self.deck_known -= 1
            self.known[seat] |= 1 << card

    def _eliminate(self, seat: int) -> None:
        self.removed |= self.hands[seat] | self.palettes[seat]
        self.out_public |= self.palettes[seat] | self.known[seat]
        self.out_own[seat] = self.hands[seat] & ~self.known[seat]
        self.hands[seat] = self.palettes[seat] = self.known[seat] = 0
        self.alive[seat] = False

    def _end_turn(self) -> None:
        n = self.n
        seat = (self.current + 1) % n
        while not self.alive[seat]:
            seat = (seat + 1) % n
        self._begin_turn(seat)

    def _begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn; an empty hand eliminates at once (R4.1)."""
        n = self.n
        while True:
            self.current = seat
            self.turns += 1
            if self.hands[seat]:
                self.step = START
                return
            self._eliminate(seat)
            if self._round_over():
                return
            seat = (seat + 1) % n
            while not self.alive[seat]:
                seat = (seat + 1) % n

    def _round_over(self) -> bool:
        """If one player remains, end the round (R6.2), score it and go on (R8)."""
        alive = [s for s in range(self.n) if self.alive[s]]
        if len(alive) > 1:
            return False
        w = alive[0]
        scored = qualifying_mask(self.rule, self.palettes[w]) if self.advanced else 0
        points = sum(VALUE_OF[c] for c in cards_of(scored))
        self.round_results.append(RoundResult(w, self.rule, tuple(names_of(scored)), points))
        if not self.advanced:
            return self._finish((w,))
        self.palettes[w] &= ~scored
        self.piles[w] |= scored
        self.scores[w] += points
        if self.scores[w] >= TARGETS[self.n]:
            return self._finish((w,))
        left = FULL_DECK
        for pile in self.piles:
            left &= ~pile
        if left.bit_count() < (HAND_SIZE + 1) * self.n:
            top = max(self.scores)
            return self._finish(tuple(s for s in range(self.n) if self.scores[s] == top))
        self._deal(left)
        return True

    def _finish(self, winners: tuple[int, ...]) -> bool:
        self.step = OVER
        self.result = Result(winners, tuple(self.scores), self.round)
        return True

    # --- copies and views -----------------------------------------------------------

    def clone(self) -> Game:
        """An independent copy: what happens to one never touches the other."""
        g = Game.__new__(Game)
        g.config = self.config
        g.seed = self.seed
        g.n, g.advanced, g.actions_on = self.n, self.advanced, self.actions_on
        g.hands, g.palettes, g.known = self.hands[:], self.palettes[:], self.known[:]
        g.deck, g.deck_known, g.canvas, g.rule = self.deck[:], self.deck_known, self.canvas[:], self.rule
        g.removed, g.piles, g.scores, g.alive = self.removed, self.piles[:], self.scores[:], self.alive[:]
        g.out_public, g.out_own = self.out_public, self.out_own[:]
        g.current, g.step, g.pending = self.current, self.step, self.pending
        g.round, g.turns, g.history = self.round, self.turns, self.history[:]
        g.round_results, g.result = self.round_results[:], self.result
        g._legal, g._dealt_at = self._legal, self._dealt_at
        g._best_other = None
        return g

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (R9), as JSON-ready data; ``None`` is a spectator."""
        from .observation import observe

        return observe(self, seat)

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (R9) as masks and numbers: :class:`red7.core.observation.View`."""
        from .observation import view

        return view(self, seat)

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that defines the position (for tests: equal states, equal prints)."""
        return (
            self.config,
            self.seed,
            tuple(self.hands),
            tuple(self.palettes),
            tuple(self.known),
            tuple(self.deck),
            self.deck_known,
            tuple(self.canvas),
            self.rule,
            self.removed,
            self.out_public,
            tuple(self.out_own),
            tuple(self.piles),
            tuple(self.scores),
            tuple(self.alive),
            self.current,
            self.step,
            self.pending,
            self.round,
            self.turns,
            tuple(self.history),
            self.result,
        )

    def __repr__(self) -> str:
        state = "over" if self.step == OVER else f"player {self.current} to {STEP_NAMES[self.step]}"
        return (
            f"<Game {self.n}p{' advanced' if self.advanced else ''}{' actions' if self.actions_on else ''}"
            f" seed={self.seed} round {self.round}, rule {COLOURS[self.rule]}, {state}>"
        )
