"""Explicit chance (R2.2, R7.3, R5.1, R7.z): the caller as the source of chance.

With ``Game(..., explicit_chance=True)`` the game stops at a chance node for every
card of a deal (``Step.DEALING``) and for every draw of a card nobody knows
(``Step.DRAWING``); :meth:`Game.apply_chance` picks the outcome. Fed the outcomes a
seeded game uses, an explicit game must replay that seeded game exactly. The seeded
game's chance is part of the record format (red7.core.seeds):

* round ``r`` is dealt from the round's cards (R8.4: every card outside the score
  piles) in increasing order, shuffled by ``round_rng(seed, r)`` and dealt from the
  end of the list: seven passes of one hand card per seat from seat 0, then one palette
  card per seat (R2.2);
* a seeded draw takes the top card of the deck, ``game.deck()[0]`` (R7.3, R5.1).

The random-game helpers (``CONFIGS``, ``choose``, ``settle``, ``seeded_deal``) are in
``helpers``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from red7 import Action, Card, Config, Game, GameError, IllegalActionError, RefusalCode, Step
from red7.core.cards import mask_of, to_card
from red7.core.events import CardDrawn, Event
from red7.core.model import HAND_SIZE
from red7.core.record import RecordError, replay, to_record
from red7.core.seeds import DEAL, LEGACY_DEAL
from tests.support.configs import CONFIG_IDS, CONFIGS
from tests.support.helpers import choose, seeded_deal, settle

# --- helpers ---------------------------------------------------------------------------


def cards_outside_piles(game: Game) -> set[int]:
    """The cards a new round is dealt from (R8.4): every card outside the score piles."""
    piles = 0
    for pile in game.observe(None).score_piles:
        piles |= pile
    return {c for c in range(49) if not piles >> c & 1}


def assert_chance_node(game: Game) -> None:
    """At a chance node nobody decides: no player, no legal decision, every decision
    refused with RefusalCode.CHANCE (R2.2), and the game unchanged by the refusal."""
    assert game.is_chance_node and game.step in (Step.DEALING, Step.DRAWING)
    assert game.current_player is None
    assert game.legal_ids() == [] and game.legal_actions() == [] and game.options() == []
    before = game.fingerprint()
    with pytest.raises(IllegalActionError) as info:
        game.apply("concede")
    assert info.value.refusal.code is RefusalCode.CHANCE and info.value.legal == []
    assert game.fingerprint() == before


class Twin:
    """A seeded game and its explicit-chance twin, to which every chance node is fed
    the outcome the seeded game used; decisions are applied to both.

    ``nodes`` counts the chance nodes met by step; ``public_draws`` the draws of a
    public deck-top card (R7.z), which must not be chance nodes.
    """

    def __init__(self, config: Config, seed: int, deal: str = DEAL) -> None:
        self.seed, self.deal = seed, deal
        self.seeded = Game(config=config, seed=seed, deal=deal)
        self.explicit = Game(config=config, seed=seed, explicit_chance=True, deal=deal)
        self.nodes: Counter[Step] = Counter()
        self.public_draws = 0
        self._deal: list[Card] = []
        self._undealt: set[int] = set()
        self._feed(unknown_deck=[])

    def apply(self, action_id: int) -> tuple[list[Event], list[Event]]:
        """Apply one decision to both games; returns (seeded events, explicit events)."""
        deck = self.seeded.deck()
        known = len(self.seeded.observe(None).deck_known_top)
        seeded_events = self.seeded.apply_id(action_id)
        explicit_events = self.explicit.apply_id(action_id)
        explicit_events += self._feed(unknown_deck=deck[known:])
        self.public_draws += sum(isinstance(e, CardDrawn) and e.public for e in seeded_events)
        return seeded_events, explicit_events

    def _feed(self, unknown_deck: list[str]) -> list[Event]:
        """Feed the explicit game the seeded outcomes until a player decides.
        ``unknown_deck`` is the seeded deck's unknown part (top first) before the
        decision: a seeded draw took its top card."""
        game = self.explicit
        events: list[Event] = []
        while game.is_chance_node:
            assert_chance_node(game)
            self.nodes[game.step] += 1
            outcomes = game.chance_outcomes()
            assert outcomes == sorted(outcomes) and len(set(outcomes)) == len(outcomes)
            if game.step is Step.DEALING:
                if not self._deal:  # a new round: its cards are those outside the piles
                    self._undealt = cards_outside_piles(self.seeded)
                    self._deal = seeded_deal(self.seed, game.round, self._undealt, game.players, self.deal)
                assert set(outcomes) == self._undealt  # R2.2: the round's undealt cards
                card = self._deal.pop(0)
                self._undealt.discard(card)
            else:
                # R7.3 / R5.1: the deck's unknown cards, never a public top card (R7.z).
                assert outcomes == sorted(Card.parse(c) for c in unknown_deck)
                card = Card.parse(unknown_deck[0])
            events += game.apply_chance(card)
        return events

    def assert_in_step(self) -> None:
        """The twins agree on everything but the order of the unknown deck: every
        view (R9), hand, deck content, face-down card, result and event."""
        s, e = self.seeded, self.explicit
        for seat in [*range(s.players), None]:
            assert e.observe(seat) == s.observe(seat), seat
        assert [e.hand(p) for p in range(e.players)] == [s.hand(p) for p in range(s.players)]
        assert sorted(e.deck()) == sorted(s.deck()) and e.out_of_round() == s.out_of_round()
        assert e.result == s.result and e.round_results == s.round_results
        assert len(e.events) == len(s.events)


# --- explicit chance replays seeded games ------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_explicit_chance_fed_the_seeded_outcomes_replays_seeded_games(config: Config) -> None:
    """R2.2/R8.4 (deals), R7.3/R5.1 (draws), R7.z (public tops drawn without chance):
    over many seeds, the explicit twin fed the seeded outcomes has the same hands, views,
    events and result after every decision; each decision returns the same events."""
    nodes: Counter[Step] = Counter()
    public_draws = 0
    # A basic game is one short round, and a public top card is drawn in about one
    # 2-player basic game with actions of eight: those configurations play 24 games.
    for seed in range(8 if config.advanced else 24):
        twin = Twin(config, seed=1000 * config.players + seed)
        assert twin.explicit.events == twin.seeded.events  # the deal's RoundDealt
        rng = random.Random(seed)
        while not twin.seeded.is_over:
            seeded_events, explicit_events = twin.apply(choose(twin.seeded, rng))
            assert explicit_events == seeded_events
            twin.assert_in_step()
        assert twin.explicit.is_over and twin.explicit.events == twin.seeded.events
        nodes += twin.nodes
        public_draws += twin.public_draws
    rounds = nodes[Step.DEALING] // ((HAND_SIZE + 1) * config.players)
    assert rounds >= 8 and nodes[Step.DEALING] == rounds * (HAND_SIZE + 1) * config.players
    if config.advanced or config.actions:
        assert nodes[Step.DRAWING] > 0  # draws of unknown cards were chance nodes
    else:
        assert nodes[Step.DRAWING] == 0  # nothing is ever drawn
    if config.actions:
        assert public_draws > 0  # and public tops were drawn without one


def test_a_public_top_card_is_drawn_without_a_chance_node() -> None:
    """R7.z/R7.3: after a 1 takes a card onto the deck, a 3 drawing it is no chance
    node: the card is drawn at once and everyone sees it (known_hand_cards)."""
    rng = random.Random(4)
    for seed in range(200):
        game = Game(players=2, actions=True, seed=seed, explicit_chance=True)
        settle(game, rng)
        while not game.is_over:
            obs = game.observe(None)
            draws = [a for a in game.legal_actions() if a.kind == "play" and a.card is not None and a.card.value == 3]
            if obs.deck_known_top and draws:
                seat = game.current_player
                assert seat is not None
                top = obs.deck_known_top[0]
                events = game.apply(draws[0])
                assert not game.is_chance_node
                assert events[-1].to_json() == {
                    "event": "card_drawn",
                    "seat": seat,
                    "card": str(Card(top)),
                    "public": True,
                    "reason": "three",
                }
                assert game.observe(None).known_hand_cards[seat] >> top & 1
                return
            game.apply_id(choose(game, rng))
            settle(game, rng)
    pytest.fail("no public top card was ever drawn by a 3")


# --- chance nodes -----------------------------------------------------------------------


def test_a_deal_is_a_chance_node_per_card_and_views_show_the_cards_dealt_so_far() -> None:
    """R2.2/R9: an explicit game starts at a DEALING chance node offering all 49 cards
    uniformly; each card goes to the next hand (seven passes from seat 0) then to the
    palettes; observations during the deal show each seat the cards it has received so
    far and nobody else's; the RoundDealt event comes once the deal is complete (R2.4)."""
    game = Game(players=3, seed=5, explicit_chance=True)
    order = seeded_deal(5, 1, range(49), 3)
    assert game.step is Step.DEALING and game.round == 1 and game.events == ()
    for k, card in enumerate(order):
        assert_chance_node(game)
        assert game.chance_outcomes() == sorted(Card(c) for c in range(49) if Card(c) not in order[:k])
        received = [order[:k][seat : 7 * 3 : 3] for seat in range(3)]
        for seat in range(3):
            obs = game.observe(seat)
            assert obs.hand == mask_of(received[seat])
            assert obs.hand_sizes == tuple(len(r) for r in received)
            assert obs.current_player is None and obs.step is Step.DEALING
        assert game.observe(None).hand is None
        palettes = order[21:k]
        assert game.observe(None).palettes == tuple(mask_of(palettes[s : s + 1]) for s in range(3))
        assert game.events == ()
        game.apply_chance(card)
    assert not game.is_chance_node and game.current_player is not None
    assert len(game.events) == 1
    dealt = game.events[0]
    assert dealt.to_json()["palettes"] == [str(c) for c in order[21:]]
    assert Game(players=3, seed=5).events == game.events  # the seeded deal of seed 5


def test_an_unknown_draw_is_a_chance_node_over_the_decks_unknown_cards() -> None:
    """R7.3/R5.1: an advanced draw of an unknown card stops at a DRAWING chance node
    whose outcomes are the deck's cards, each once; the drawer gets the chosen card."""
    rng = random.Random(1)
    for seed in range(50):
        game = Game(players=2, advanced=True, seed=seed, explicit_chance=True)
        settle(game, rng)
        while not game.is_over:
            if "draw" in {str(a) for a in game.legal_actions()}:
                seat = game.current_player
                assert seat is not None
                deck = game.deck()
                game.apply("draw")
                assert game.step is Step.DRAWING
                assert_chance_node(game)
                assert game.chance_outcomes() == sorted(Card.parse(c) for c in deck)
                card = rng.choice(game.chance_outcomes())
                hand = game.hand(seat)
                assert game.apply_chance(card)[0].to_json() == {
                    "event": "card_drawn",
                    "seat": seat,
                    "card": str(card),
                    "public": False,
                    "reason": "canvas",
                }
                assert str(card) in game.hand(seat) and len(game.hand(seat)) == len(hand) + 1
                assert str(card) not in game.deck()
                return
            game.apply_id(choose(game, rng))
            settle(game, rng)
    pytest.fail("no advanced draw was offered")


@pytest.mark.parametrize("card", ["R7", "V1", 48, Card.parse("G4")])
def test_apply_chance_of_a_non_outcome_raises_and_changes_nothing(card: str | int | Card) -> None:
    """R2.2: chance picks only among its outcomes. A card already dealt, or any card
    where no chance node is, is refused with GameError and the game is unchanged."""
    game = Game(players=2, seed=3, explicit_chance=True)
    game.apply_chance(to_card(card))
    before = game.fingerprint()
    with pytest.raises(GameError, match="not a chance outcome"):
        game.apply_chance(card)
    assert game.fingerprint() == before
    settled = Game(players=2, seed=3)
    before = settled.fingerprint()
    with pytest.raises(GameError, match="no chance node"):
        settled.apply_chance(card)
    assert settled.fingerprint() == before and settled.chance_outcomes() == []


def test_a_seeded_game_never_stops_at_chance() -> None:
    """Without explicit chance the seeded RNG deals and draws: no chance node ever."""
    rng = random.Random(2)
    for config in CONFIGS:
        game = Game(config=config, seed=9)
        while not game.is_over:
            assert not game.is_chance_node and game.chance_outcomes() == []
            game.apply_id(choose(game, rng))


# --- records written before explicit chance still replay -------------------------------

# Records written by the engine before issue 9 (each decision the first safe one, else
# concede), with the final hands and palettes that engine reached. Seeded play must be
# unchanged, so they replay, and the explicit twin replays them too.
OLD_RECORDS: list[tuple[str, list[list[str]], list[list[str]]]] = [
    (
        '{"format": "red7-record", "version": 1, "config": {"players": 2, "advanced": false, "actions": false}, '
        '"seed": 7, "decisions": ["play G1", "canvas B4", "play B1", "canvas Y1", "play R2", "canvas B7", '
        '"play R1", "canvas Y5", "play R5", "canvas R3", "play B6", "canvas R6", "concede"], '
        '"result": {"winners": [1], "scores": [0, 0], "rounds": 1}}',
        [[], ["B2"]],
        [[], ["B6", "R4", "R1", "B1"]],
    ),
    (
        '{"format": "red7-record", "version": 1, "config": {"players": 2, "advanced": true, "actions": false}, '
        '"seed": 7, "decisions": ["play G1", "canvas B4", "draw", "play B1", "canvas Y1", "play R2", "canvas O4", '
        '"draw", "play R1", "canvas Y5", "draw", "play R3", "canvas I7", "draw", "play V2", "canvas B2", "play Y4", '
        '"canvas V6", "draw", "play B6", "canvas R6", "draw", "play G3", "canvas B7", "draw", "play I6", "end", '
        '"play I1", "end", "play G1", "canvas V6", "draw", "play Y1", "canvas R1", "play I3", "canvas V7", "draw", '
        '"play G2", "canvas B5", "draw", "play B4", "canvas I6", "draw", "play V4", "canvas G6", "draw", "play B7", '
        '"canvas R5", "play Y7", "canvas O7", "draw", "play G5", "end", "play Y2", "canvas R7", "draw", "concede", '
        '"play G2", "canvas V3", "draw", "play V2", "canvas R2", "play Y2", "canvas G4", "draw", "play B3", '
        '"canvas R4", "draw", "play I3", "canvas B5", "draw", "play R5", "canvas I6", "draw", "play I5", "canvas V6", '
        '"draw", "play B7", "canvas R7", "draw", "play V5", "canvas G7", "draw", "play B6", "end", "concede", '
        '"play G1", "canvas G4", "draw", "play O2", "canvas I3", "draw", "play R1", "canvas V5", "draw", "play V4", '
        '"canvas I5", "draw", "play O3", "canvas B7", "draw", "play B4", "canvas O4", "play I4", "canvas V3", '
        '"play R4", "canvas O6", "draw", "concede", "play G1", "canvas B3", "draw", "play B1", "canvas R1", '
        '"play Y1", "canvas O4", "draw", "play Y2", "canvas G5", "draw", "play V5", "canvas B5", "draw", "play V3", '
        '"canvas I4", "play I6", "canvas Y6", "draw", "play R5", "canvas B7", "draw", "play V6", "canvas R7", '
        '"draw", "concede"], "result": {"winners": [0], "scores": [44, 7], "rounds": 5}}',
        [["O7", "V7"], []],
        [["V6", "V5", "Y1", "G1", "V1"], []],
    ),
    (
        '{"format": "red7-record", "version": 1, "config": {"players": 4, "advanced": false, "actions": true}, '
        '"seed": 7, "decisions": ["play B1", "canvas B2", "play I1", "take B1", "canvas B7", "play R1", "take I1", '
        '"canvas I4", "play G1", "take R1", "canvas R2", "play Y1", "take Y7", "canvas B5", "play O1", "take Y1", '
        '"end", "play Y3", "canvas V6", "play G3", "canvas Y7", "play I6", "canvas B6", "play V2", "canvas Y4", '
        '"play Y1", "take V2", "canvas Y5", "play R3", "canvas V2", "play I7", "move Y6 canvas", "end", "play R5", '
        '"play R7", "move R5 canvas", "end", "concede", "play B4", "canvas O4"], '
        '"result": {"winners": [0], "scores": [0, 0, 0, 0], "rounds": 1}}',
        [["G6"], [], [], []],
        [["B4", "R3", "G3", "G1"], [], [], []],
    ),
]


@pytest.mark.parametrize(("text", "hands", "palettes"), OLD_RECORDS, ids=["2p-basic", "2p-advanced", "4p-actions"])
def test_records_written_before_explicit_chance_replay(
    text: str, hands: list[list[str]], palettes: list[list[str]]
) -> None:
    """Records (config, seed, decisions) written by the old engine replay to the same
    result and final hands, with the seeded game and with the explicit twin; the first
    safe decision is still the one the old engine chose at every step."""
    record: dict[str, Any] = json.loads(text)
    game = replay(record)
    assert [game.hand(s) for s in range(game.players)] == hands
    assert [game.palette(s) for s in range(game.players)] == palettes
    assert to_record(game) == {**record, "version": 2, "deal": LEGACY_DEAL}  # saved again: version 2

    twin = Twin(Config.from_mapping(record["config"]), record["seed"], LEGACY_DEAL)
    for text_decision in record["decisions"]:
        first_safe = twin.seeded.safe_or_concede_ids()[0]
        assert str(Action.from_id(first_safe)) == text_decision
        twin.apply(first_safe)
    twin.assert_in_step()
    assert twin.explicit.result == game.result


def test_a_record_with_an_illegal_decision_is_refused_naming_it() -> None:
    """The example record of docs/library.md once was not a real game: seed 7 deals no B3 to the
    first player, so decision 2 is refused, and the refusal names the decision, the card
    and the rule (R4.2)."""
    bad = json.loads(
        '{"format": "red7-record", "version": 1,'
        ' "config": {"players": 2, "advanced": false, "actions": false},'
        ' "seed": 7, "decisions": ["play R5", "canvas B3", "end", "concede"],'
        ' "result": {"winners": [0], "scores": [0, 0], "rounds": 1}}'
    )
    with pytest.raises(RecordError) as info:
        replay(bad)
    assert "decision 2 ('canvas B3') is illegal: B3 is not in your hand (R4.2)" in str(info.value)


def test_the_readme_example_record_replays() -> None:
    """The record shown in docs/library.md (its ```json block) is a real game: it replays
    with every decision checked and gives the recorded result."""
    text = (Path(__file__).parents[2] / "docs" / "library.md").read_text(encoding="utf-8")
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    game = replay(json.loads(block))
    assert game.is_over and game.result is not None and to_record(game)["decisions"] == json.loads(block)["decisions"]
