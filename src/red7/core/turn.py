"""The turn solver: what the mover may decide at one decision point, whether each
decision is safe, and why any other decision is refused (R4.2-R4.7, R7).

A :class:`TurnSolver` is built by the game for one decision point from an immutable
snapshot (palettes, who remains, the mover's hand, the rule, the step, the 7 being
resolved, the public deck-top card) and never looks at the game again. Every
question it answers is about the rest of the mover's own turn: can some sequence of
the mover's own later choices end the turn winning? Since the other players' palettes
do not change during a turn except by a 1's take, the solver memoizes the other
players' best key under each rule for the snapshot's palettes; a take gets its own
computation.

The legal decisions (:attr:`TurnSolver.ids`, the fast path of every bot and
simulation) and :meth:`TurnSolver.check` (which names the check that fails, for
refusals) use the same predicates; a property test checks that they agree on every
decision of thousands of random positions.
"""

from __future__ import annotations

from typing import Final

from . import actions as A
from .actions import Action, Kind
from .cards import COLOUR_OF, VALUE_OF, bits_of, colours_in
from .model import STEP_KINDS, Refusal, RefusalCode, Step
from .rules import cached_keys, compute_key
from .standing import Standing, standing

_KEYS: Final = cached_keys()  # read directly on hot paths; compute_key fills them
_RULE_THEN_COLOURS: Final = tuple(
    tuple((rule, *(c for c in range(7) if bits >> (6 - c) & 1 and c != rule)) for bits in range(128))
    for rule in range(7)
)
"""``[rule][colour_bits(hand)]`` (:func:`red7.core.cards.colour_bits`): the rule in
force, then each other colour in the hand: the rules the mover could be winning under
at the end of a turn (R4.3, R4.4)."""
START, AFTER, FIVE, SEVEN, ONE, DRAW = Step.START, Step.AFTER, Step.FIVE, Step.SEVEN, Step.ONE, Step.DRAW


def best_key(rule: int, palettes: tuple[int, ...], alive: tuple[bool, ...], me: int, skip: int = -1) -> int:
    """The largest key under ``rule`` among the remaining players other than ``me`` (and
    ``skip``)."""
    cache = _KEYS[rule]
    best = 0
    for seat, o in enumerate(palettes):
        if seat != me and seat != skip and alive[seat]:
            k = cache.get(o)
            if k is None:
                k = compute_key(rule, o)
            if k > best:
                best = k
    return best


class TurnSolver:
    """The decisions of ``me`` at one decision point (see the module docstring).

    ``palettes`` and ``alive`` are per seat; ``hand`` is the mover's hand mask;
    ``pending`` the 7 whose action is being chosen (step SEVEN); ``public_top`` the
    deck's top card when everyone knows it (R7.z), else None; ``actions`` whether the
    action rules are on.
    """

    __slots__ = (
        "me",
        "palettes",
        "alive",
        "hand",
        "rule",
        "step",
        "pending",
        "public_top",
        "actions",
        "_best",
        "_checks",
        "_without",
        "ids",
        "safe",
    )

    def __init__(
        self,
        me: int,
        palettes: tuple[int, ...],
        alive: tuple[bool, ...],
        hand: int,
        rule: int,
        step: Step,
        pending: int | None,
        public_top: int | None,
        actions: bool,
    ) -> None:
        self.me = me
        self.palettes = palettes
        self.alive = alive
        self.hand = hand
        self.rule = rule
        self.step = step
        self.pending = pending
        self.public_top = public_top
        self.actions = actions
        self._best = [-1] * 7  # the other players' best key per rule; -1: not computed yet
        self._checks = _RULE_THEN_COLOURS[rule]
        self._without: dict[int, int] | None = None  # owner * 7 + rule -> best of the others but that owner
        self.ids: list[int]
        """The legal decision ids in increasing order (do not modify the list)."""
        self.safe: list[bool]
        """Per legal id, whether it is safe (R4.7)."""
        self.ids, self.safe = self._solve()

    # --- the legal decisions ------------------------------------------------------------

    def _solve(self) -> tuple[list[int], list[bool]]:
        ids: list[int] = []
        safe: list[bool] = []
        step = self.step
        me = self.me
        m = self.palettes[me]
        hand = self.hand
        rule = self.rule
        if step == START or step == FIVE:
            if self.actions:
                for c in bits_of(hand):
                    ok = self._survives_play(m, c, hand)
                    if ok or not self._forbidden_kind(m, c):
                        ids.append(A.PLAY + c)
                        safe.append(ok)
            else:  # every play is legal: only its safety is worked out (inlined, the hot path)
                can_finish = self._can_finish
                for c in bits_of(hand):
                    bit = 1 << c
                    ids.append(c)  # A.PLAY + c
                    safe.append(can_finish(m | bit, hand & ~bit))
        if step == START or step == AFTER:
            winning = [c for c in colours_in(hand) if self._wins(m, c)]
            if winning:
                for c in bits_of(hand):
                    if COLOUR_OF[c] in winning:
                        ids.append(A.CANVAS + c)
                        safe.append(True)
        elif step == SEVEN:
            others = bits_of(m & ~(1 << self.pending)) if self.pending is not None else ()
            deck_safe = []
            for z in others:
                rest = m & ~(1 << z)
                if self._wins(rest, COLOUR_OF[z]):
                    ids.append(A.MOVE_CANVAS + z)
                    safe.append(True)
                deck_safe.append(self._can_finish(rest, hand))
            ids.extend(A.MOVE_DECK + z for z in others)
            safe.extend(deck_safe)
        elif step == ONE:
            for z in bits_of(self._victims(m)):
                ids.append(A.TAKE + z)
                safe.append(self._finishes_after_take(m, z, hand))
        if step == AFTER and self._wins(m, rule):
            ids.append(A.END)
            safe.append(True)
        ids.append(A.CONCEDE)
        safe.append(False)
        if step == DRAW:
            ids += [A.DRAW, A.DECLINE]
            safe += [True, True]
        return ids, safe

    def has_play(self) -> bool:
        """Is some ``play`` legal (for the 5, R7.y: with none, its action does nothing)?"""
        return self.ids[0] < A.CANVAS

    # --- why a decision is refused ----------------------------------------------------

    def check(self, action: Action) -> Refusal | None:
        """None if ``action`` is legal now, else the refusal of the check that fails.

        Each branch below is the legality condition of one kind of decision (the same
        predicates :attr:`ids` uses), in the order a player would ask: the right step,
        then the card's place, then the rule that forbids it.
        """
        kind, step, card = action.kind, self.step, action.card
        if kind is Kind.CONCEDE or kind is Kind.DRAW or kind is Kind.DECLINE:
            return None if kind in STEP_KINDS[step] else Refusal(RefusalCode.WRONG_STEP, action, step)
        if kind not in STEP_KINDS[step]:
            return Refusal(RefusalCode.WRONG_STEP, action, step, card)
        m = self.palettes[self.me]
        code: RefusalCode | None = None
        if kind is Kind.END:
            if self._wins(m, self.rule):
                return None
            return Refusal(RefusalCode.NOT_WINNING, action, step, None, self._standing(m, self.rule), self.me)
        assert card is not None
        bit = 1 << card
        if kind is Kind.PLAY or kind is Kind.CANVAS:
            if not self.hand & bit:
                code = RefusalCode.NOT_IN_HAND
            elif kind is Kind.CANVAS and not self._wins(m, COLOUR_OF[card]):
                return self._short(RefusalCode.CANVAS_NOT_WINNING, action, m, COLOUR_OF[card])
            elif kind is Kind.PLAY and self._forbidden_kind(m, card) and not self._survives_play(m, card, self.hand):
                return self._short(RefusalCode.CANNOT_FINISH, action, m | bit, self.rule)
        elif kind is Kind.MOVE:
            if card == self.pending:
                code = RefusalCode.SEVEN_ITSELF
            elif not m & bit:
                code = RefusalCode.NOT_IN_PALETTE
            elif action.destination == "canvas" and not self._wins(m & ~bit, COLOUR_OF[card]):
                return self._short(RefusalCode.CANVAS_NOT_WINNING, action, m & ~bit, COLOUR_OF[card])
        elif kind is Kind.TAKE:
            owner = self._owner(card)
            if owner is None or owner == self.me:
                code = RefusalCode.NOT_IN_OTHER_PALETTE
            elif self.palettes[owner].bit_count() < m.bit_count():
                code = RefusalCode.PALETTE_TOO_SMALL
        return None if code is None else Refusal(code, action, step, card)

    def _short(self, code: RefusalCode, action: Action, m: int, rule: int) -> Refusal:
        """The refusal of a decision that would leave the mover, with palette ``m``, not
        winning under ``rule``, with that standing (the numbers a refusal is said with)."""
        return Refusal(code, action, self.step, action.card, self._standing(m, rule), self.me)

    def _standing(self, m: int, rule: int) -> Standing:
        """The standing under ``rule`` were the mover's palette ``m`` (only for a
        refusal: the hot paths compare keys, never build a standing)."""
        palettes = list(self.palettes)
        palettes[self.me] = m
        return standing(rule, palettes, self.alive)

    # --- who wins, and can the mover still finish the turn winning? -------------------

    def _wins(self, m: int, rule: int) -> bool:
        """Does the mover, with palette ``m``, win under ``rule`` against the others?"""
        mine = _KEYS[rule].get(m)
        if mine is None:
            mine = compute_key(rule, m)
        b = self._best[rule]
        if b < 0:
            b = self._best[rule] = best_key(rule, self.palettes, self.alive, self.me)
        return mine > b

    def _can_finish(self, m: int, hand: int) -> bool:
        """With nothing left to resolve: winning now with palette ``m``, or a canvas card
        from ``hand`` makes the mover win (the hot path of every legality check)."""
        best = self._best
        f = hand | hand >> 28  # colour_bits(hand), inlined on the hottest path
        f |= f >> 14
        f |= f >> 7
        for c in self._checks[f & 127]:
            mine = _KEYS[c].get(m)
            if mine is None:
                mine = compute_key(c, m)
            b = best[c]
            if b < 0:
                b = best[c] = best_key(c, self.palettes, self.alive, self.me)
            if mine > b:
                return True
        return False

    def _survives_play(self, m: int, card: int, hand: int) -> bool:
        """Can the mover end the turn winning after ``card`` leaves ``hand`` for the
        palette ``m``, its action (if any) carried out by the mover's best choices? A
        draw counts only when the card drawn is public (R4.7)."""
        bit = 1 << card
        m |= bit
        hand &= ~bit
        if not self.actions:
            return self._can_finish(m, hand)
        v = VALUE_OF[card]
        if v == 7:
            return self._survives_seven(m, card, hand)
        if v == 5:
            return self._survives_five(m, hand)
        if v == 1:
            return self._survives_one(m, hand)
        if v == 3 and self.public_top is not None:
            hand |= 1 << self.public_top
        return self._can_finish(m, hand)

    def _survives_seven(self, m: int, seven: int, hand: int) -> bool:
        others = m & ~(1 << seven)
        if not others:
            return self._can_finish(m, hand)
        for z in bits_of(others):
            rest = m & ~(1 << z)
            if self._wins(rest, COLOUR_OF[z]) or self._can_finish(rest, hand):
                return True
        return False

    def _survives_five(self, m: int, hand: int) -> bool:
        any_legal = False
        for y in bits_of(hand):
            if self._survives_play(m, y, hand):
                return True
            if not self._forbidden_kind(m, y):
                any_legal = True
        return not any_legal and self._can_finish(m, hand)  # R7.y: no legal follow-up, nothing happens

    def _victims(self, m: int) -> int:
        """Mask of the palette cards a 1 may take when the mover's palette is ``m`` (R7.1)."""
        size = m.bit_count()
        out = 0
        me, alive = self.me, self.alive
        for seat, p in enumerate(self.palettes):
            if seat != me and alive[seat] and p.bit_count() >= size:
                out |= p
        return out

    def _owner(self, card: int) -> int | None:
        bit = 1 << card
        return next((s for s, p in enumerate(self.palettes) if p & bit and self.alive[s]), None)

    def _survives_one(self, m: int, hand: int) -> bool:
        victims = self._victims(m)
        if not victims:
            return self._can_finish(m, hand)
        return any(self._finishes_after_take(m, z, hand) for z in bits_of(victims))

    def _finishes_after_take(self, m: int, card: int, hand: int) -> bool:
        """Can the mover finish winning once the 1 has taken ``card`` from its owner? Only
        the owner's palette changes: the best of the others is the larger of the owner's
        new key and the best of the rest (memoized per owner and rule)."""
        owner = self._owner(card)
        assert owner is not None
        rest = self.palettes[owner] & ~(1 << card)
        without = self._without
        if without is None:
            without = self._without = {}
        for c in (self.rule, *colours_in(hand)):
            mine = _KEYS[c].get(m)
            if mine is None:
                mine = compute_key(c, m)
            b = without.get(owner * 7 + c)
            if b is None:
                b = without[owner * 7 + c] = best_key(c, self.palettes, self.alive, self.me, owner)
            if mine <= b:
                continue
            theirs = _KEYS[c].get(rest)
            if theirs is None:
                theirs = compute_key(c, rest)
            if mine > theirs:
                return True
        return False

    def _forbidden_kind(self, m: int, card: int) -> bool:
        """Is ``card`` a 7, or a 1 that would take a card (R7.7, R7.1)? Such a card is
        legal only if its player can still finish winning (R7.x). A 1 with no eligible
        victim takes nothing, so it is as free as any play (R7.x)."""
        if not self.actions:
            return False
        v = VALUE_OF[card]
        if v == 7:
            return True
        return v == 1 and bool(self._victims(m | 1 << card))
