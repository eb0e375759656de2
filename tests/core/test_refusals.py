"""Refusals: why a decision is not legal now (issue 9), one test per RefusalCode.

Each test builds a position where exactly one check fails, and proves it is the true
reason: ``check`` names that code, its rule and the card involved; ``apply`` raises
IllegalActionError carrying the same refusal, its English message and the legal
decisions, and changes nothing; and, where the position allows, a variant that fixes
only that condition makes the same decision legal. Rule IDs are written out by hand
from docs/rules.md, not read from the engine's table.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from red7 import Action, Config, Game, IllegalActionError, Kind, Refusal, RefusalCode, Step
from red7.core.actions import NUM_ACTIONS, to_action
from red7.core.cards import to_card
from red7.core.model import REFUSALS, STEP_KINDS
from red7.core.seeds import LEGACY_DEAL
from red7.core.standing import standing
from tests.support.configs import CONFIG_IDS, CONFIGS
from tests.support.helpers import choose, settle
from tests.support.tiers import examples


def assert_refused(game: Game, action: str, code: RefusalCode, rule: str, card: str | None, message: str) -> Refusal:
    """``action`` is refused with ``code`` (rule ``rule``, about ``card``) and the
    English ``message``; applying it raises and leaves the game exactly as it was."""
    before, events = game.fingerprint(), game.events
    refusal = game.check(action)
    assert refusal is not None, f"{action} is legal"
    assert refusal.code is code
    assert refusal.rule == rule
    assert refusal.card == (to_card(card) if card is not None else None)
    assert refusal.action is to_action(action) and refusal.step is game.step
    assert refusal.message == message
    assert not game.is_legal(action) and to_action(action) not in game.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    err = info.value
    assert err.refusal == refusal and err.reason == message and err.action is refusal.action
    assert err.legal == game.legal_actions() and message in str(err)
    assert game.fingerprint() == before and game.events == events
    return refusal


def assert_legal(game: Game, action: str) -> None:
    assert game.check(action) is None and game.is_legal(action)


def position(hands: list[list[str]], palettes: list[list[str]], **kw: Any) -> Game:
    """A position with the action rules on."""
    return Game.from_position(hands, palettes, actions=True, **kw)


# --- one test per code ------------------------------------------------------------------


def test_game_over() -> None:
    """R6.2: once the game is over nothing is legal, whatever the decision."""
    game = Game.from_position([["R7"], ["Y6"]], [["O7"], ["G6"]], current=1)
    assert_legal(game, "concede")
    game.apply("concede")
    for action in ("play R7", "concede", "end"):
        assert_refused(game, action, RefusalCode.GAME_OVER, "R6.2", None, "the game is over (R6.2)")
    assert game.step is Step.OVER


def test_chance() -> None:
    """R2.2: while cards are dealt (explicit chance) no player decides; once the deal
    is complete the first player may concede."""
    game = Game(players=2, seed=0, explicit_chance=True)
    message = "a card is being dealt or drawn: nobody decides now (R2.2)"
    assert_refused(game, "concede", RefusalCode.CHANCE, "R2.2", None, message)
    assert_refused(game, "play R7", RefusalCode.CHANCE, "R2.2", None, message)
    settle(game, random.Random(0))
    assert_legal(game, "concede")


def test_wrong_step() -> None:
    """R4.2: each step accepts its own kinds of decision. Seat 0 (palette B5 over V2 under
    Red) is winning, so 'end' fails only for being at the start of the turn; after a play
    it is legal. A 7's move, a 1's take and the advanced draw belong to other steps."""
    game = position([["G3", "I7"], ["O2"]], [["B5"], ["V2"]])
    start = "a '{}' decision does not belong to the 'start' step of the turn (R4.2)"
    assert_refused(game, "end", RefusalCode.WRONG_STEP, "R4.2", None, start.format("end"))
    assert_refused(game, "move B5 deck", RefusalCode.WRONG_STEP, "R4.2", "B5", start.format("move"))
    assert_refused(game, "take V2", RefusalCode.WRONG_STEP, "R4.2", "V2", start.format("take"))
    assert_refused(game, "draw", RefusalCode.WRONG_STEP, "R4.2", None, start.format("draw"))
    game.apply("play G3")
    assert_legal(game, "end")
    after = "a 'play' decision does not belong to the 'after' step of the turn (R4.2)"
    assert_refused(game, "play I7", RefusalCode.WRONG_STEP, "R4.2", "I7", after)


def test_not_in_hand() -> None:
    """R4.2: only your own hand cards are played or put on the canvas, not another
    hand's nor a palette's; the same card in your hand would be legal."""
    game = position([["R2", "V4"], ["Y6"]], [["Y5"], ["G6"]])
    assert_refused(game, "play Y6", RefusalCode.NOT_IN_HAND, "R4.2", "Y6", "Y6 is not in your hand (R4.2)")
    assert_refused(game, "canvas Y5", RefusalCode.NOT_IN_HAND, "R4.2", "Y5", "Y5 is not in your hand (R4.2)")
    assert_legal(position([["R2", "Y6"], ["V4"]], [["Y5"], ["G6"]]), "play Y6")


def test_canvas_not_winning() -> None:
    """R4.4 (the rules' example of a turn): with palette Y5 against G6, V4 on the canvas
    makes Violet, where nobody has a card below 4: Ana would not be winning. After
    'play R2' the same V4 is legal (one card below 4 against none)."""
    game = position([["R2", "V4", "B7"], ["O1"]], [["Y5"], ["G6"]])
    message = "with V4 on the canvas you would not be winning (R4.4)"
    assert_refused(game, "canvas V4", RefusalCode.CANVAS_NOT_WINNING, "R4.4", "V4", message)
    game.apply("play R2")
    assert_legal(game, "canvas V4")


def test_canvas_not_winning_for_a_sevens_move() -> None:
    """R4.4 + R7.7: a 7's card goes to the canvas only if its player wins right after.
    Palette I7 B5 R2 G2 Y2 against O6 V6: G2 to the canvas (Green: R2 Y2 against O6 V6,
    O6 higher) loses; G2 to the deck is legal, so only R4.4 refuses the canvas."""
    game = position([["I7", "G3"], ["V3"]], [["R2", "G2", "Y2", "B5"], ["O6", "V6"]], canvas=["O1"])
    game.apply("play I7")
    message = "with G2 on the canvas you would not be winning (R4.4)"
    assert_refused(game, "move G2 canvas", RefusalCode.CANVAS_NOT_WINNING, "R4.4", "G2", message)
    assert_legal(game, "move G2 deck")


def test_a_refusal_for_not_winning_carries_the_standing_it_would_leave() -> None:
    """R4.4, R4.6, R7.x: the refusals of a decision that would leave the mover not
    winning carry the standing under the rule they are about (the canvas card's colour,
    the rule in force) and the mover's seat: the numbers an interface says with them.
    The 7's move above: Green, R2 Y2 against O6 V6, a tie that O6 wins. The others carry
    none."""
    game = position([["I7", "G3"], ["V3"]], [["R2", "G2", "Y2", "B5"], ["O6", "V6"]], canvas=["O1"])
    not_in_hand = game.check("play Y6")
    assert not_in_hand is not None and not_in_hand.standing is None
    game.apply("play I7")
    refusal = game.check("move G2 canvas")
    assert refusal is not None and refusal.seat == 0 and refusal.standing is not None
    st = refusal.standing
    assert (st.rule, st.leader, st.reason) == ("green", 1, "higher")
    assert (st.qualifying[0], st.qualifying[1]) == (("R2", "Y2"), ("O6", "V6"))  # G2 went to the canvas
    end = position([["I1", "B2"], ["V1"]], [["O6"], ["R7"]])
    end.apply("play I1")
    refusal = end.check("end")
    assert refusal is not None and refusal.code is RefusalCode.NOT_WINNING and refusal.standing is not None
    assert (refusal.standing.rule, refusal.standing.leader, refusal.standing.top(1)) == ("red", 1, "R7")


def test_cannot_finish() -> None:
    """R7.x: a 7 whose every continuation loses may not be played. Palette B5 B2 against
    R7 O1 under Red, hand V7 Y3: after V7 no move and no canvas wins. With G3 instead of
    Y3 (move B5 deck, then Green) the same 7 is legal."""
    game = position([["V7", "Y3"], ["I4"]], [["B5", "B2"], ["R7", "O1"]])
    message = "you may play V7 only if you can still end the turn winning (R7.x)"
    assert_refused(game, "play V7", RefusalCode.CANNOT_FINISH, "R7.x", "V7", message)
    assert_legal(position([["V7", "G3"], ["I4"]], [["B5", "B2"], ["R7", "O1"]]), "play V7")


def test_cannot_finish_for_a_one_that_takes() -> None:
    """R7.x + R7.1: a 1 that takes a card may be played only if some take lets its
    player finish winning; here none does (Red: Y5 or R6 stays on top). With no
    eligible victim the same 1 takes nothing and is as free as any play."""
    game = position([["B1", "Y6"], ["V5"], ["V6"]], [["G4"], ["R6", "O2"], ["Y5"]])
    message = "you may play B1 only if you can still end the turn winning (R7.x)"
    assert_refused(game, "play B1", RefusalCode.CANNOT_FINISH, "R7.x", "B1", message)
    assert_legal(position([["B1", "Y6"], ["V5"], ["V6"]], [["G4"], ["R6"], ["Y5"]]), "play B1")


def test_seven_itself() -> None:
    """R7.7 (issue 9): with Game(players=2, actions=True, seed=0, deal=LEGACY_DEAL), after 'play B7' the 7
    moves another card of the palette: moving B7 itself is refused for that reason
    (to the canvas or the deck), not for R4.4's."""
    game = Game(players=2, actions=True, seed=0, deal=LEGACY_DEAL)
    game.apply("play B7")
    assert game.step is Step.SEVEN
    message = "the 7 moves another card of your palette, not B7 itself (R7.7)"
    assert_refused(game, "move B7 canvas", RefusalCode.SEVEN_ITSELF, "R7.7", "B7", message)
    assert_refused(game, "move B7 deck", RefusalCode.SEVEN_ITSELF, "R7.7", "B7", message)
    assert_legal(game, "move Y3 deck")


def test_not_in_palette() -> None:
    """R7.7 (issue 9): same game; R1 is in no palette of the mover, so 'move R1 canvas'
    is refused because of that, not because of R4.4; the opponent's V6 likewise."""
    game = Game(players=2, actions=True, seed=0, deal=LEGACY_DEAL)
    game.apply("play B7")
    assert "R1" not in game.palette(0)
    assert_refused(game, "move R1 canvas", RefusalCode.NOT_IN_PALETTE, "R7.7", "R1", "R1 is not in your palette (R7.7)")
    assert_refused(game, "move V6 deck", RefusalCode.NOT_IN_PALETTE, "R7.7", "V6", "V6 is not in your palette (R7.7)")


def one_position(p2: list[str]) -> Game:
    """3 players, Red. P0 palette G4, hand B1 G6; P1 palette R6 O2; P2 palette ``p2``.
    After 'play B1' P0's palette has 2 cards (R7.1 counts the 1)."""
    game = position([["B1", "G6"], ["V5"], ["V6"]], [["G4"], ["R6", "O2"], p2])
    game.apply("play B1")
    assert game.step is Step.ONE
    return game


def test_not_in_other_palette() -> None:
    """R7.1: the 1 takes from another remaining player's palette: not from the mover's
    own (G4), not a card in no palette (V6, in a hand), not from an eliminated player."""
    game = one_position(["Y5"])
    for card in ("G4", "V6"):
        message = f"{card} is not in another remaining player's palette (R7.1)"
        assert_refused(game, f"take {card}", RefusalCode.NOT_IN_OTHER_PALETTE, "R7.1", card, message)
    assert_legal(game, "take R6")
    out = position([["B1", "G6"], ["V5"], ["V6"]], [["G4"], ["R6", "O2"], ["Y5", "Y4"]], current=2)
    out.apply("concede")
    out.apply("play B1")
    message = "Y4 is not in another remaining player's palette (R7.1)"
    assert_refused(out, "take Y4", RefusalCode.NOT_IN_OTHER_PALETTE, "R7.1", "Y4", message)


def test_palette_too_small() -> None:
    """R7.1: P2's palette (1 card) is smaller than P0's (2 with the 1): Y5 may not be
    taken; with a second card in P2's palette the same take is legal."""
    game = one_position(["Y5"])
    message = "Y5 is in a palette with fewer cards than yours (R7.1)"
    assert_refused(game, "take Y5", RefusalCode.PALETTE_TOO_SMALL, "R7.1", "Y5", message)
    assert_legal(one_position(["Y5", "V4"]), "take Y5")


def test_not_winning() -> None:
    """R4.6: the turn ends only while its player is winning. After 'play R2' (Red: G6
    over Y5) Ana is not; after 'play B7' she is."""
    game = Game.from_position([["R2", "B7"], ["O1"]], [["Y5"], ["G6"]])
    game.apply("play R2")
    message = "you are not winning, so the turn cannot end (R4.6)"
    assert_refused(game, "end", RefusalCode.NOT_WINNING, "R4.6", None, message)
    other = Game.from_position([["R2", "B7"], ["O1"]], [["Y5"], ["G6"]])
    other.apply("play B7")
    assert_legal(other, "end")


def test_every_code_has_its_test_rule_and_sentence() -> None:
    """Each RefusalCode has a test above named after it, a rule ID and an English
    sentence whose only placeholders are {card}, {kind} and {step}."""
    tests = {name for name in globals() if name.startswith("test_")}
    for code in RefusalCode:
        assert f"test_{code.name.lower()}" in tests, code
        rule, template = REFUSALS[code]
        assert re.fullmatch(r"R\d\.(\d+|x|y|z)", rule), rule
        assert set(re.findall(r"\{(\w*)\}", template)) <= {"card", "kind", "step"}
    assert set(REFUSALS) == set(RefusalCode)


def test_a_refusal_fills_a_translated_template() -> None:
    """Interfaces translate the template and fill it with the refusal's fields."""
    game = Game(players=2, actions=True, seed=0, deal=LEGACY_DEAL)
    game.apply("play B7")
    refusal = game.check("move B7 canvas")
    assert refusal is not None
    assert refusal.format("{card}|{kind}|{step}") == "B7|move|seven"
    assert refusal.template == "the 7 moves another card of your palette, not {card} itself"


# --- check agrees with the legal decisions ---------------------------------------------------


class Facts:
    """What the mover knows at one decision point (public queries and its own hand),
    read once to judge every refusal there."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.mover = game.current_player
        self.obs = game.observe(self.mover)
        mover = self.mover
        self.palette = self.obs.palettes[mover] if mover is not None else 0
        self.others = [p if s != mover and self.obs.alive[s] else 0 for s, p in enumerate(self.obs.palettes)]

    def assert_true_reason(self, refusal: Refusal) -> None:
        """The fact ``refusal`` states holds: the step, the card's place, or who would
        be winning after the decision."""
        game, obs, code, action, card = self.game, self.obs, refusal.code, refusal.action, refusal.card
        if code is RefusalCode.GAME_OVER or code is RefusalCode.CHANCE:
            assert game.is_over if code is RefusalCode.GAME_OVER else game.is_chance_node
            return
        if code is RefusalCode.WRONG_STEP:
            assert action.kind not in STEP_KINDS[game.step]
            return
        assert action.kind in STEP_KINDS[game.step] and self.mover is not None
        if code is RefusalCode.NOT_WINNING:
            assert game.winning() != self.mover
            return
        assert card is not None
        bit = 1 << card
        if code is RefusalCode.NOT_IN_HAND:
            assert obs.hand is not None and not obs.hand & bit
        elif code is RefusalCode.CANVAS_NOT_WINNING:
            mine = self.palette & ~bit if action.kind is Kind.MOVE else self.palette
            palettes = [mine if s == self.mover else p for s, p in enumerate(obs.palettes)]
            assert standing(card.colour, palettes, obs.alive).leader != self.mover
        elif code is RefusalCode.CANNOT_FINISH:
            assert card.value in (1, 7) and game.config.actions
        elif code is RefusalCode.SEVEN_ITSELF:
            assert obs.pending == card
        elif code is RefusalCode.NOT_IN_PALETTE:
            assert not self.palette & bit
        elif code is RefusalCode.NOT_IN_OTHER_PALETTE:
            assert not any(p & bit for p in self.others)
        elif code is RefusalCode.PALETTE_TOO_SMALL:
            (owner,) = [s for s, p in enumerate(self.others) if p & bit]
            assert self.others[owner].bit_count() < self.palette.bit_count()


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@settings(max_examples=examples(3))
@given(seed=st.integers(0, 2**63 - 1), explicit=st.booleans())
def test_check_is_none_exactly_for_the_legal_decisions(config: Config, seed: int, explicit: bool) -> None:
    """At every decision point (and chance node, and the end) of a random game, for each
    of the 249 decisions, check() is None exactly when the decision is legal; every
    refusal is about that decision at that step, names its rule in its message, states
    a fact that holds (Facts.assert_true_reason), and is the one apply() raises."""
    game = Game(config=config, seed=seed, explicit_chance=explicit)
    rng = random.Random(seed)
    while True:
        legal = set(game.legal_ids())
        facts = Facts(game)
        for i in range(NUM_ACTIONS):
            action = Action.from_id(i)
            refusal = game.check(i)
            assert (refusal is None) == (i in legal), (game, action, refusal)
            if refusal is None:
                continue
            assert refusal.action is action and refusal.step is game.step
            assert refusal.message.endswith(f" ({refusal.rule})") and "{" not in refusal.message
            assert refusal.card is None or refusal.card == action.card
            facts.assert_true_reason(refusal)
            if rng.random() < 0.02:  # applying is slower: a sample
                with pytest.raises(IllegalActionError) as info:
                    game.apply(i)
                assert info.value.refusal == refusal
        if game.is_over:
            break
        if game.is_chance_node:
            settle(game, rng)
        else:
            game.apply_id(choose(game, rng))
