"""Golden playthroughs: one seeded game per configuration, written out step by step, that
every engine of Red7 must reproduce (``tests.support.playthroughs``).

As OpenSpiel keeps its playthroughs, ``tests/data/playthroughs/<configuration>.txt``
holds one whole game per configuration (``2p-basic-plain`` ... ``4p-advanced-actions``,
the 12 of :data:`CONFIGS`): every round's deal written out in full, then at every
decision point the mover, the legal decisions with their safety marks (R4.7), what each
seat observes (R9), any illegal decision tried and the refusal it met, the decision
taken, and the rounds' and the match's results. Everything an engine needs is in the
file (no random generator is involved once the deals are written), so a third engine is
checked by feeding it the deals and the decisions and comparing, step by step, what it
says with what the file says. ``tests/core/test_playthroughs.py`` does so for the Python
engine (:class:`red7.core.game.Game`, the reference: it reproduces every file byte for
byte) and the compiled one (``red7.native``); it also checks that the seed in the header
deals what the file says.

After a change to the rules (or to dealing), write the files again and read the diff::

    .venv/bin/python -m tests.support.playthroughs --write

(from the project's folder; without ``--write`` it only says which files are stale). As
OpenSpiel's ``update_path`` does, each file keeps its seed (:func:`written`): the game
is played again from the seed in the file's header, by the same seeded chooser, so a
rule change shows only the lines it changes. A seed is searched anew only when the kept
game no longer shows everything :func:`missing` asks for (a concession, an unsafe
decision, a refusal; in the advanced game a draw, a declined draw and a second round;
with the action cards a 7's move, a 5's extra play, a 1's take and a 3's draw), or the
file is new; the command then names the file and what its old game lacked. A searched
seed is found, not chosen by hand (:func:`find`): the first from 1 whose game shows
everything, in the advanced game the shortest such match of the first 30.

The format (version 1)
----------------------

Plain text, UTF-8, ``\\n`` line ends. Cards in notation (``R7``: colour letter, value;
:mod:`red7.core.cards`); a set of cards (hand, palette, pile) highest card first in the
card order of R1.2, ``-`` when empty; ``-`` also stands for "none". Values per seat are
in seat order, separated by `` | ``; yes/no are booleans; colours are named in English
(``red`` .. ``violet``). Lines that begin with ``#`` are comments and blank lines separate
blocks; both mean nothing. Each block opens with an unindented line; the indented lines
below it are its own.

The header, one ``key: value`` a line after the format line::

    red7 playthrough 1                    the format and its version
    configuration: 2p-basic-actions       <players>p-<basic|advanced>-<plain|actions>
    players: 2
    advanced: no
    actions: yes
    seed: 17                              the seed of Game(config=..., seed=17)
    deal: splitmix64                      the generator that dealt that seed's rounds
    decisions: 34                         how many decisions the game has

``round N dealt`` (before the first decision of each round, R2, R8.4): ``hand S:`` for
each seat, ``palette S:`` (the one card dealt to it), ``canvas: -`` (a deal leaves only
the Red start card), ``deck:`` the deck top card first (a draw takes the first card left
of it), and ``first: S``, the seat that begins (R2.4). An engine that is given its deals
takes these; ``deal`` and ``seed`` are needed only to check that a seed deals them.

``decision K`` (K counts from 0: it is the decision's index in the match's history, as
an observation's history and round log count them); ``legal`` lists the decisions by
increasing id, each with its notation (:mod:`red7.core.actions`) and its safety mark::

    mover: 1, step: start                 whose decision, at which step of the turn
    legal:                                every legal decision, by increasing id:
      3 play V1 unsafe                      id, notation, safe or unsafe (R4.7)
    public:                               the observation's fields every seat shares
      round 1, turns 1, current 1, step start, rule red
      canvas: -                           bottom first; the last card's colour is the rule
      palettes: G4 | O6
      hand sizes: 7 | 7
      alive: yes | yes
      known hand cards: - | -             cards everyone saw each seat draw (R7.z)
      deck: 33, public top: -             the deck's size and its public top cards, top first
      out of round: 0, known: -           face-down cards of eliminated seats, those seen
      scores: 0 | 0, target -
      score piles: - | -
      pending: -                          the 7 whose move is being chosen (step seven)
      round log: start 0, palettes G4 | O6, hand sizes 7 | 7, draws -
      round results: -
      result: -
    seat 0: hand R7 Y6 G5 B3 I3 O2 V1, own out of round -
    seat 1: hand ..., own out of round -
    tried: 52 canvas O4, refused canvas-not-winning (R4.4)
    decided: 3 play V1
    round 1 over: winner 0, rule red, points 0, scored -
    game over: winners 0, scores 0 | 0, rounds 1

Every seat's observation (``Game.observe(seat)``, :class:`red7.core.observation.Observation`)
is the ``public`` lines, identical for every seat, plus that seat's ``seat S`` line: its
``hand`` and ``own out of round`` (its former hand once eliminated, R6.1). Its ``history``
is the decisions of the blocks above, and its ``seat`` and ``config`` are the line's and
the header's. ``round log`` is where the round began (the index of its first decision),
its palettes and hand sizes then, and its draws, each written ``K:S:C``: decision K made
seat S draw the card C, or ``?`` when only S saw the card (R7.z). The round results
(``N: seat W, rule C, P points (cards)``, the winner's scored cards in the advanced game,
R8.2) are separated by ``; ``. ``current`` and ``pending`` are ``-`` where the
observation has None.

``tried`` is there when the chooser first offered an illegal decision: the engine must
refuse it (:class:`red7.core.model.RefusalCode`, the rule it applies) and change nothing.
``round N over`` and ``game over`` follow the decision that ended them (R6.2, R8);
``game over`` is the :class:`~red7.core.model.Result`.

``end`` closes the file: the ``public`` and ``seat`` lines after the last decision.
"""

from __future__ import annotations

import argparse
import difflib
import itertools
import random
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, NamedTuple

from red7 import Game
from red7.core.actions import CONCEDE, DECLINE, DRAW, NUM_ACTIONS, Action, Kind
from red7.core.cards import COLOURS, NAME_OF, VALUE_OF, mask_of, names_of
from red7.core.model import HAND_SIZE, STEP_KINDS, Config, Step
from red7.core.observation import Observation
from red7.core.seeds import DEAL
from tests.support.configs import CONFIGS, name_of

FOLDER: Final = Path(__file__).resolve().parents[1] / "data" / "playthroughs"
FORMAT: Final = "red7 playthrough"
VERSION: Final = 1
DEALT_BY: Final = DEAL
"""The generator that deals a seed's rounds today, by the name records give it
(:data:`red7.core.seeds.DEAL`: SplitMix64, per round as :func:`red7.core.seeds.round_rng`
seeds it). The header's ``deal:`` line."""
FIRST_SEED: Final = 1
"""Where the search for a seed that covers everything starts (:func:`find`)."""
ADVANCED_CANDIDATES: Final = 30
"""How many covering seeds of an advanced configuration :func:`find` chooses among."""
NONE: Final = "-"


def path_of(config: Config) -> Path:
    return FOLDER / f"{name_of(config)}.txt"


# --- what a playthrough holds ----------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """One round's deal as the file writes it: hands and palettes per seat (highest card
    first), the deck top card first, and the seat that begins (R2.4)."""

    hands: tuple[tuple[str, ...], ...]
    palettes: tuple[str, ...]
    deck: tuple[str, ...]
    first: int

    @classmethod
    def of(cls, game: Game) -> Deal:
        """The deal of ``game``'s round, read just after it was dealt."""
        n = game.players
        palettes = [game.palette(seat) for seat in range(n)]
        assert all(len(p) == 1 for p in palettes), palettes
        first = game.current_player
        assert first is not None
        return cls(
            tuple(tuple(game.hand(s)) for s in range(n)), tuple(p[0] for p in palettes), tuple(game.deck()), first
        )

    def lines(self, round_number: int) -> list[str]:
        lines = [f"round {round_number} dealt"]
        lines += [f"  hand {seat}: {' '.join(hand)}" for seat, hand in enumerate(self.hands)]
        lines += [f"  palette {seat}: {card}" for seat, card in enumerate(self.palettes)]
        lines += ["  canvas: -", f"  deck: {' '.join(self.deck) or NONE}", f"  first: {self.first}"]
        return lines

    def cards(self) -> int:
        """Every card of the round, as a mask."""
        return mask_of([*itertools.chain(*self.hands), *self.palettes, *self.deck], "deal")


class Entry(NamedTuple):
    """One decision of the file: the illegal decision tried first (None: none) and the
    decision taken, by id."""

    tried: int | None
    decided: int


@dataclass(frozen=True)
class Playthrough:
    """A playthrough file read back (:func:`parse`): its header, deals and decisions;
    ``blocks`` is every block's lines, by its opening line (``decision 3``, ``end``...)."""

    config: Config
    seed: int
    dealt_by: str
    deals: tuple[Deal, ...]
    entries: tuple[Entry, ...]
    blocks: dict[str, list[str]]


# --- the chooser -------------------------------------------------------------------------------

_TRY: Final = 0.08
"""How often the chooser offers an illegal decision before its real one."""
_CONCEDE: Final = 0.015
_ANY: Final = 0.25
"""How often it takes any legal decision (maybe unsafe) rather than a safe one."""
_LIVELY: Final = 0.5
"""With the action cards: how often a safe decision is one that calls an action (R7)."""


def choose(game: Game, rng: random.Random) -> Entry:
    """The seeded chooser the files are written with: mostly a safe decision (the random
    player's), a quarter of the time any legal one (unsafe ones included), now and then a
    concession; and sometimes, first, an illegal decision of the step's kinds about a
    card of the mover's hand or of a palette, for the engine to refuse."""
    legal = game.legal_ids()
    tried = None
    if rng.random() < _TRY:
        mover = game.current_player
        assert mover is not None
        cards = mask_of(game.hand(mover)) | sum(mask_of(game.palette(s)) for s in range(game.players))
        kinds = STEP_KINDS[game.step]
        near = [
            a.id
            for a in map(Action.from_id, range(NUM_ACTIONS))
            if a.id not in legal
            and (a.card is None or cards >> int(a.card) & 1)
            and (a.kind in kinds or rng.random() < 0.1)
        ]
        tried = rng.choice(near) if near else None
    r = rng.random()
    if r < _CONCEDE:
        return Entry(tried, CONCEDE)
    if r < _CONCEDE + _ANY:
        return Entry(tried, rng.choice(legal))
    safe = game.safe_or_concede_ids()
    if game.config.actions and rng.random() < _LIVELY:
        lively = [i for i in safe if _lively(Action.from_id(i))]
        return Entry(tried, rng.choice(lively or safe))
    return Entry(tried, rng.choice(safe))


def _lively(action: Action) -> bool:
    """Does ``action`` call an action card's rule: a play of a 7, 5, 3 or 1, a 7's move,
    a 1's take (R7)?"""
    return action.kind in (Kind.MOVE, Kind.TAKE) or (
        action.kind is Kind.PLAY and VALUE_OF[int(action.card)] in (1, 3, 5, 7)  # type: ignore[arg-type]
    )


def play(config: Config, seed: int) -> list[Entry]:
    """The decisions of the game of ``config`` dealt by ``seed``, by :func:`choose` with a
    stream seeded by ``seed``."""
    game = Game(config=config, seed=seed)
    rng = random.Random(seed)
    entries = []
    while not game.is_over:
        entry = choose(game, rng)
        game.apply_id(entry.decided)
        entries.append(entry)
    return entries


def missing(config: Config, seed: int, entries: Sequence[Entry]) -> list[str]:
    """What the game of ``config``, ``seed`` and ``entries`` does not show of what every
    playthrough must: a refusal, an unsafe decision, a concession; in the advanced game
    a second round, a draw and a declined draw (R5.1); with the action cards a 7 moving a
    card to the canvas and one to the deck (R7.7), a 5's extra play (R7.5), a 1's take
    (R7.1) and a 3's draw (R7.3). Empty when it shows them all."""
    game = Game(config=config, seed=seed)
    seen: set[str] = set()
    for entry in entries:
        if entry.tried is not None:
            seen.add("refusal")
        if not game.is_safe(entry.decided):
            seen.add("unsafe decision")
        action = Action.from_id(entry.decided)
        if game.step is Step.FIVE and action.kind is Kind.PLAY:
            seen.add("a 5's extra play")
        draws = len(game.round_log.draws)
        game.apply_id(entry.decided)
        if action.kind is Kind.PLAY and VALUE_OF[int(action.card)] == 3 and len(game.round_log.draws) > draws:  # type: ignore[arg-type]
            seen.add("a 3's draw")
        seen.add({CONCEDE: "concession", DRAW: "draw", DECLINE: "declined draw"}.get(entry.decided, ""))
        if action.kind is Kind.MOVE:
            seen.add("a 7's move")
        if action.kind is Kind.TAKE:
            seen.add("a 1's take")
    assert game.is_over, "the decisions do not finish the game"
    wanted = ["refusal", "unsafe decision", "concession"]
    if config.advanced:
        wanted += ["draw", "declined draw"]
        if len(game.round_results) > 1:
            seen.add("a second round")
        wanted.append("a second round")
    if config.actions:
        wanted += ["a 7's move", "a 5's extra play", "a 1's take", "a 3's draw"]
    return [w for w in wanted if w not in seen]


def find(config: Config, most: int = 5000) -> tuple[int, list[Entry]]:
    """The seed of ``config``'s playthrough, with its decisions: the first seed from
    :data:`FIRST_SEED` whose game shows everything (:func:`missing` is empty); in the
    advanced game, whose matches run from tens to hundreds of decisions, the shortest
    match of the first :data:`ADVANCED_CANDIDATES` such seeds (the lowest seed of equals),
    to keep the file small."""
    wanted = ADVANCED_CANDIDATES if config.advanced else 1
    found: list[tuple[int, int, list[Entry]]] = []
    for seed in range(FIRST_SEED, FIRST_SEED + most):
        entries = play(config, seed)
        if not missing(config, seed, entries):
            found.append((len(entries), seed, entries))
            if len(found) == wanted:
                _, seed, entries = min(found, key=lambda f: f[:2])
                return seed, entries
    raise AssertionError(f"fewer than {wanted} seeds of {FIRST_SEED}..{FIRST_SEED + most - 1} cover {name_of(config)}")


# --- rendering -------------------------------------------------------------------------------


def _cards(mask: int) -> str:
    return " ".join(names_of(mask)) or NONE


def _per_seat(values: Sequence[object]) -> str:
    return " | ".join(map(str, values))


def _maybe(value: object) -> str:
    return NONE if value is None else str(value)


def public_lines(obs: Observation) -> list[str]:
    """The fields of ``obs`` every seat shares, a line each (see the module docstring)."""
    log = obs.round_log
    draws = " ".join(f"{i}:{seat}:{NAME_OF[card] if card >= 0 else '?'}" for i, seat, card in log.draws)
    results = "; ".join(
        f"{number}: seat {r.winner}, rule {COLOURS[r.rule]}, {r.points} points ({' '.join(r.scored) or NONE})"
        for number, r in enumerate(obs.round_results, 1)
    )
    result = obs.result
    return [
        f"round {obs.round}, turns {obs.turns}, current {_maybe(obs.current_player)}, step {obs.step.label}, "
        f"rule {COLOURS[obs.rule]}",
        f"canvas: {' '.join(NAME_OF[c] for c in obs.canvas) or NONE}",
        f"palettes: {_per_seat([_cards(p) for p in obs.palettes])}",
        f"hand sizes: {_per_seat(obs.hand_sizes)}",
        f"alive: {_per_seat(['yes' if a else 'no' for a in obs.alive])}",
        f"known hand cards: {_per_seat([_cards(k) for k in obs.known_hand_cards])}",
        f"deck: {obs.deck_size}, public top: {' '.join(NAME_OF[c] for c in obs.deck_known_top) or NONE}",
        f"out of round: {obs.out_of_round_count}, known: {_cards(obs.out_of_round_known)}",
        f"scores: {_per_seat(obs.scores)}, target {_maybe(obs.target)}",
        f"score piles: {_per_seat([_cards(p) for p in obs.score_piles])}",
        f"pending: {NONE if obs.pending is None else NAME_OF[obs.pending]}",
        f"round log: start {log.start}, palettes {_per_seat([_cards(p) for p in log.palettes])}, "
        f"hand sizes {_per_seat(log.hand_sizes)}, draws {draws or NONE}",
        f"round results: {results or NONE}",
        "result: "
        + (
            f"winners {' '.join(map(str, result.winners))}, scores {_per_seat(result.scores)}, rounds {result.rounds}"
            if result
            else NONE
        ),
    ]


ROUND_LOG: Final = "round log: "
"""The start of the ``round log`` line (what an engine without a history cannot say)."""


def seat_line(obs: Observation) -> str:
    """The viewer's own part of ``obs``: its hand and its own cards out of the round."""
    assert obs.seat is not None and obs.hand is not None
    return f"seat {obs.seat}: hand {_cards(obs.hand)}, own out of round {_cards(obs.out_of_round_own or 0)}"


def observation_lines(observations: Sequence[Observation]) -> list[str]:
    """Every seat's observation (``observations[seat]``): the shared lines once, then a
    line per seat. Raises AssertionError if the seats do not share the public lines."""
    public = public_lines(observations[0])
    assert all(public_lines(o) == public for o in observations), "the seats' observations differ in public fields"
    return ["  public:", *(f"    {line}" for line in public), *(f"  {seat_line(o)}" for o in observations)]


def legal_lines(options: Sequence[tuple[int, bool]]) -> list[str]:
    return ["  legal:", *(f"    {i} {Action.from_id(i)} {'safe' if safe else 'unsafe'}" for i, safe in options)]


def tried_line(action_id: int, code: str, rule: str) -> str:
    return f"  tried: {action_id} {Action.from_id(action_id)}, refused {code} ({rule})"


def round_over_line(number: int, winner: int, rule: int, scored: Sequence[str], points: int) -> str:
    cards = " ".join(scored) or NONE
    return f"  round {number} over: winner {winner}, rule {COLOURS[rule]}, points {points}, scored {cards}"


def game_over_line(winners: Sequence[int], scores: Sequence[int], rounds: int) -> str:
    return f"  game over: winners {' '.join(map(str, winners))}, scores {_per_seat(scores)}, rounds {rounds}"


class _Dealer:
    """Chance for a game with explicit chance, from written deals: each round's cards in
    dealing order (R2.2: seven passes of one hand card per seat, then the palettes), and
    each draw of an unknown card the next card of the written deck (the unknown part of
    the deck is only ever drawn from its top)."""

    def __init__(self, deals: Sequence[Deal]) -> None:
        self.deals = deals
        self.order: list[str] = []
        self.deck: list[str] = []

    def feed(self, game: Game) -> None:
        """Play chance until a player decides or the game is over."""
        while game.is_chance_node:
            if game.step is Step.DEALING:
                if not self.order:
                    deal = self.deals[game.round - 1]
                    n = len(deal.hands)
                    self.order = [deal.hands[seat][k] for k in range(HAND_SIZE) for seat in range(n)]
                    self.order += list(deal.palettes)
                    self.deck = list(deal.deck)
                game.apply_chance(self.order.pop(0))
            else:
                game.apply_chance(self.deck.pop(0))


def render(config: Config, seed: int, entries: Sequence[Entry], deals: Sequence[Deal] | None = None) -> str:
    """The playthrough of the game of ``config`` and ``seed`` with these decisions, played
    by the Python engine: dealt from ``seed`` (``deals`` None), or given the written
    ``deals`` (the engine's explicit chance) so that no generator is involved."""
    game = Game(config=config, seed=seed, explicit_chance=deals is not None)
    dealer = _Dealer(deals) if deals is not None else None
    n = config.players
    lines = [
        f"{FORMAT} {VERSION}",
        "# Written by tests/support/playthroughs.py (.venv/bin/python -m tests.support.playthroughs --write);",
        "# the format is in that module's docstring.",
        f"configuration: {name_of(config)}",
        f"players: {n}",
        f"advanced: {'yes' if config.advanced else 'no'}",
        f"actions: {'yes' if config.actions else 'no'}",
        f"seed: {seed}",
        f"deal: {DEALT_BY}",
        f"decisions: {len(entries)}",
        "",
    ]
    dealt = 0

    def deal_lines() -> list[str]:
        nonlocal dealt
        if dealer is not None:
            dealer.feed(game)
        if game.is_over or game.round == dealt:
            return []
        dealt = game.round
        if dealer is None:
            deal = Deal.of(game)
        else:
            deal = dealer.deals[game.round - 1]
            hands = tuple(tuple(game.hand(s)) for s in range(n))
            palettes = tuple(c for s in range(n) for c in game.palette(s))
            assert (hands, palettes) == (deal.hands, deal.palettes), "the engine did not deal the written cards"
        return [*deal.lines(game.round), ""]

    lines += deal_lines()
    for k, entry in enumerate(entries):
        mover = game.current_player
        assert mover is not None, f"decision {k}: the game is over"
        lines.append(f"decision {k}")
        lines.append(f"  mover: {mover}, step: {game.step_name}")
        lines += legal_lines([(o.action.id, o.safe) for o in game.options()])
        lines += observation_lines([game.observe(seat) for seat in range(n)])
        if entry.tried is not None:
            refusal = game.check(entry.tried)
            assert refusal is not None, f"decision {k}: {Action.from_id(entry.tried)} is legal"
            lines.append(tried_line(entry.tried, refusal.code.value, refusal.rule))
        lines.append(f"  decided: {entry.decided} {Action.from_id(entry.decided)}")
        before = len(game.round_results)
        game.apply(entry.decided)
        for number, r in enumerate(game.round_results[before:], before + 1):
            lines.append(round_over_line(number, r.winner, r.rule, r.scored, r.points))
        if game.result is not None:
            lines.append(game_over_line(game.result.winners, game.result.scores, game.result.rounds))
        lines.append("")
        lines += deal_lines()
    assert game.is_over, "the decisions do not finish the game"
    lines.append("end")
    lines += observation_lines([game.observe(seat) for seat in range(n)])
    return "\n".join(lines) + "\n"


# --- reading a file --------------------------------------------------------------------------


class PlaythroughError(ValueError):
    """A file that is not a playthrough of this format."""


def _blocks(text: str) -> Iterator[tuple[str, list[str]]]:
    """(opening line, its indented lines) for the header (opening line "") and each block."""
    head, body = "", []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith(" ") or not head and ":" in line:
            body.append(line)
        elif line.startswith(FORMAT) and not head:
            continue
        else:
            yield head, body
            head, body = line, []
    yield head, body


def _value(line: str, key: str) -> str:
    """The value of the line ``  key: value``."""
    name, _, value = line.strip().partition(": ")
    if name != key:
        raise PlaythroughError(f"expected {key!r}, found {line!r}")
    return value


def parse(text: str) -> Playthrough:
    """Read a playthrough's header, deals and decisions (the lines the checks compare
    are kept as they are, in ``blocks``)."""
    first = text.split("\n", 1)[0]
    if first != f"{FORMAT} {VERSION}":
        raise PlaythroughError(f"not a {FORMAT} of version {VERSION}: {first!r}")
    blocks = dict(_blocks(text))
    header = {k: v for k, _, v in (line.partition(": ") for line in blocks.pop(""))}
    try:
        config = Config(int(header["players"]), header["advanced"] == "yes", header["actions"] == "yes")
        named = header["configuration"]
    except (KeyError, ValueError) as err:
        raise PlaythroughError(f"not a playthrough's header: {err!r}") from None
    if name_of(config) != named:
        raise PlaythroughError(f"configuration {named!r} is not {name_of(config)}, as players, advanced, actions say")
    deals = []
    for number in itertools.count(1):
        lines = blocks.get(f"round {number} dealt")
        if lines is None:
            break
        n = config.players
        hands = tuple(tuple(_value(lines[s], f"hand {s}").split()) for s in range(n))
        palettes = tuple(_value(lines[n + s], f"palette {s}") for s in range(n))
        deck = _value(lines[2 * n + 1], "deck")
        deals.append(
            Deal(hands, palettes, tuple(deck.split()) if deck != NONE else (), int(_value(lines[-1], "first")))
        )
    entries = []
    for k in range(int(header["decisions"])):
        lines = blocks[f"decision {k}"]
        tried = next((int(_value(x, "tried").split()[0]) for x in lines if x.startswith("  tried: ")), None)
        decided = next(int(_value(x, "decided").split()[0]) for x in lines if x.startswith("  decided: "))
        entries.append(Entry(tried, decided))
    return Playthrough(config, int(header["seed"]), header["deal"], tuple(deals), tuple(entries), blocks)


# --- writing and checking the files ----------------------------------------------------------


_SEED: Final = re.compile(r"^seed: (\d+)$", re.M)


class Written(NamedTuple):
    """A configuration's playthrough as :func:`write` writes it now."""

    path: Path
    text: str
    reseeded: str | None
    """Why its seed is not the file's (a new file, or what the kept seed's game lacks now);
    None when the file's seed is kept."""


def written(config: Config) -> Written:
    """The playthrough of ``config`` as it is written now: the game of the seed in the
    file's header, played again; a seed from :func:`find` when there is no file, or when
    that game no longer shows everything :func:`missing` asks for."""
    path = path_of(config)
    kept = _SEED.search(path.read_text()) if path.exists() else None
    if kept is None:
        why = "there was no file, or no seed in its header"
    else:
        seed = int(kept.group(1))
        entries = play(config, seed)
        lacks = missing(config, seed, entries)
        if not lacks:
            return Written(path, render(config, seed, entries), None)
        why = f"the game of its seed {seed} lacks what missing() asks for: {', '.join(lacks)}"
    seed, entries = find(config)
    return Written(path, render(config, seed, entries), f"seed {seed} was searched for, as {why}")


def write() -> list[Written]:
    """Write every configuration's file; returns those whose text changed."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    changed = []
    for config in CONFIGS:
        now = written(config)
        if not now.path.exists() or now.path.read_text() != now.text:
            now.path.write_text(now.text)
            changed.append(now)
    return changed


def stale() -> list[tuple[Path, str]]:
    """Each file that is not what :func:`write` would write, with why its seed would change
    (if it would) and the start of its diff."""
    found = []
    for config in CONFIGS:
        path, text, reseeded = written(config)
        old = path.read_text() if path.exists() else ""
        if old != text:
            diff = difflib.unified_diff(old.splitlines(), text.splitlines(), str(path), "now", lineterm="", n=1)
            found.append((path, "\n".join([*([reseeded] if reseeded else []), *itertools.islice(diff, 40)])))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.playthroughs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write the files again (else: only check them)")
    args = parser.parse_args(argv)
    if args.write:
        changed = write()
        print(f"{len(changed)} of {len(CONFIGS)} playthroughs changed in {FOLDER}")
        for now in changed:
            print(f"  {now.path.name}" + (f": {now.reseeded}" if now.reseeded else ""))
        return 0
    found = stale()
    for path, diff in found:
        print(f"{path.name} is stale:\n{diff}\n")
    print(f"{len(found)} of {len(CONFIGS)} playthroughs are stale" + (": run with --write" if found else ""))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
