"""What one seat may see (R9): :class:`Observation`, typed and frozen.

This is the only view of a game that bots, servers, other seats and learning
environments receive. :func:`observe` builds it from public facts plus the viewer's
own cards, so changing any card the viewer cannot see (other hands, the unknown part
of the deck, eliminated players' hands) leaves it the same, field by field and in
JSON byte for byte. ``None`` is a spectator, who sees only public facts.

Card sets are 49-bit masks (:mod:`red7.core.cards`; ``CardSet(mask)`` iterates and
prints one); cards are indices; ``rule`` is a colour index (0 = Red). JSON exists only
at the edges: :meth:`Observation.to_json` writes cards in notation (card sets highest
card first) and :meth:`Observation.from_json` reads that back exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import Action
from .cards import COLOURS, NAME_OF, mask_of, names_of, parse_colour, parse_index
from .model import Config, GameError, Result, RoundLog, RoundResult, Step

if TYPE_CHECKING:
    from .state import State


class Observation(NamedTuple):
    """What ``seat`` sees of a game (R9); per-seat tuples are indexed by seat.

    Immutable and typed (a NamedTuple: a bot builds one per decision, a learning
    environment one per step, so it must be cheap to make).
    """

    seat: int | None
    """The viewer (None: a spectator)."""
    config: Config
    round: int
    """Round number, from 1."""
    turns: int
    """Turns begun so far in the match, the eliminating ones included."""
    current_player: int | None
    """Whose decision it is (None when the game is over or chance decides)."""
    step: Step
    rule: int
    canvas: tuple[int, ...]
    """The cards on the canvas, bottom first (the last one's colour is the rule)."""
    palettes: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    alive: tuple[bool, ...]
    known_hand_cards: tuple[int, ...]
    """Per seat, hand cards everyone saw drawn from the public top of the deck (R7.z)."""
    deck_size: int
    deck_known_top: tuple[int, ...]
    """The public cards on top of the deck, top first (put there by a 7 or a 1, R7.z)."""
    out_of_round_count: int
    """How many cards eliminated players turned face down (R6.1)."""
    out_of_round_known: int
    """Which of them everyone saw: the palettes, the cards seen drawn."""
    out_of_round_own: int | None
    """The viewer's own former hand, if it was eliminated (None for a spectator)."""
    scores: tuple[int, ...]
    score_piles: tuple[int, ...]
    pending: int | None
    """The 7 whose action is being chosen (step ``seven``)."""
    hand: int | None
    """The viewer's hand (None for a spectator)."""
    history: tuple[tuple[int, int], ...]
    """Every decision of the match so far: (seat, action id)."""
    round_log: RoundLog
    """Where the round began in the history, its palettes then, and who drew when (R9)."""
    round_results: tuple[RoundResult, ...]
    result: Result | None

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def advanced(self) -> bool:
        return self.config.advanced

    @property
    def actions(self) -> bool:
        return self.config.actions

    @property
    def target(self) -> int | None:
        """Points that win the match (advanced game), else None."""
        return self.config.target

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data; card sets in notation, highest card first."""
        data: dict[str, Any] = {
            "seat": self.seat,
            **self.config.as_dict(),
            "round": self.round,
            "turns": self.turns,
            "current_player": self.current_player,
            "step": self.step.label,
            "rule": COLOURS[self.rule],
            "canvas": [NAME_OF[c] for c in self.canvas],
            "palettes": [names_of(p) for p in self.palettes],
            "hand_sizes": list(self.hand_sizes),
            "alive": list(self.alive),
            "known_hand_cards": [names_of(k) for k in self.known_hand_cards],
            "deck_size": self.deck_size,
            "deck_known_top": [NAME_OF[c] for c in self.deck_known_top],
            "out_of_round_count": self.out_of_round_count,
            "out_of_round_known": names_of(self.out_of_round_known),
            "scores": list(self.scores),
            "score_piles": [names_of(p) for p in self.score_piles],
            "target": self.target,
            "pending": NAME_OF[self.pending] if self.pending is not None else None,
            "history": [[seat, str(Action.from_id(a))] for seat, a in self.history],
            "round_log": self.round_log.as_dict(),
            "round_results": [r.as_dict() for r in self.round_results],
            "result": self.result.as_dict() if self.result else None,
        }
        if self.hand is not None:
            data["hand"] = names_of(self.hand)
            data["out_of_round_own"] = names_of(self.out_of_round_own or 0)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Observation:
        """The observation :meth:`to_json` wrote; malformed data raises GameError."""
        try:
            private = data["seat"] is not None
            res = data["result"]
            obs = cls(
                seat=data["seat"],
                config=Config(data["players"], data["advanced"], data["actions"]),
                round=data["round"],
                turns=data["turns"],
                current_player=data["current_player"],
                step=Step.parse(data["step"]),
                rule=parse_colour(data["rule"]),
                canvas=tuple(parse_index(c) for c in data["canvas"]),
                palettes=tuple(mask_of(p) for p in data["palettes"]),
                hand_sizes=tuple(data["hand_sizes"]),
                alive=tuple(data["alive"]),
                known_hand_cards=tuple(mask_of(k) for k in data["known_hand_cards"]),
                deck_size=data["deck_size"],
                deck_known_top=tuple(parse_index(c) for c in data["deck_known_top"]),
                out_of_round_count=data["out_of_round_count"],
                out_of_round_known=mask_of(data["out_of_round_known"]),
                out_of_round_own=mask_of(data["out_of_round_own"]) if private else None,
                scores=tuple(data["scores"]),
                score_piles=tuple(mask_of(p) for p in data["score_piles"]),
                pending=parse_index(data["pending"]) if data["pending"] is not None else None,
                hand=mask_of(data["hand"]) if private else None,
                history=tuple((seat, Action.parse(text).id) for seat, text in data["history"]),
                round_log=RoundLog.from_dict(data["round_log"]),
                round_results=tuple(
                    RoundResult(r["winner"], parse_colour(r["rule"]), tuple(r["scored"]), r["points"])
                    for r in data["round_results"]
                ),
                result=Result(tuple(res["winners"]), tuple(res["scores"]), res["rounds"]) if res else None,
            )
        except (KeyError, TypeError, ValueError) as err:
            raise GameError(f"not an observation of red7: {err!r}") from None
        _check_shape(obs)
        return obs


def _check_shape(obs: Observation) -> None:
    """Raise GameError unless every field has the type and size an observation has."""
    n = obs.players

    def whole(value: object, low: int = 0) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= low

    problems = [
        name
        for name, ok in (
            ("seat", obs.seat is None or whole(obs.seat) and obs.seat < n),
            ("current_player", obs.current_player is None or whole(obs.current_player) and obs.current_player < n),
            ("round", whole(obs.round, 1)),
            ("turns", whole(obs.turns)),
            ("deck_size", whole(obs.deck_size)),
            ("out_of_round_count", whole(obs.out_of_round_count)),
            ("alive", len(obs.alive) == n and all(isinstance(a, bool) for a in obs.alive)),
            ("hand_sizes", len(obs.hand_sizes) == n and all(whole(h) for h in obs.hand_sizes)),
            ("scores", len(obs.scores) == n and all(whole(s) for s in obs.scores)),
            ("palettes", len(obs.palettes) == n),
            ("known_hand_cards", len(obs.known_hand_cards) == n),
            ("score_piles", len(obs.score_piles) == n),
            ("history", all(whole(seat) and seat < n for seat, _ in obs.history)),
            (
                "round_log",
                len(obs.round_log.palettes) == n
                and len(obs.round_log.hand_sizes) == n
                and all(
                    whole(i) and i < len(obs.history) and whole(seat) and seat < n for i, seat, _ in obs.round_log.draws
                ),
            ),
        )
        if not ok
    ]
    if problems:
        raise GameError(f"not an observation of a {n}-player game: bad {', '.join(problems)}")


def check_seat(seat: object, players: int) -> None:
    """Raise GameError unless ``seat`` is a seat of ``players`` or None (a spectator)."""
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players):
        raise GameError(f"seat {seat!r} is not one of 0..{players - 1} (or None for a spectator)")


def observe(s: State, seat: int | None) -> Observation:
    """What ``seat`` (None: a spectator) sees of the position ``s`` (R9)."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < s.config.players):
        check_seat(seat, s.config.players)  # raises, naming the seats
    deck = s.deck
    known = s.deck_known_count
    step = s.step
    # Built with tuple.__new__ (the fields in order) rather than Observation(...): bots
    # observe at every decision and search at every leaf, so this is a hot path.
    return _new(Observation, (
        seat, s.config, s.round, s.turns, None if step >= _OVER else s.current, step, s.rule, tuple(s.canvas),
        tuple(s.palettes), tuple(map(_bit_count, s.hands)), tuple(s.alive), tuple(s.known_hand_cards), len(deck),
        tuple(deck[-1 : -known - 1 : -1]) if known else (), s.out_of_round.bit_count(), s.out_of_round_known,
        None if seat is None else s.out_of_round_own[seat], tuple(s.scores), tuple(s.score_piles),
        s.pending if step == _SEVEN else None, None if seat is None else s.hands[seat], s.history, s.round_log,
        s.round_results, s.result,
    ))  # fmt: skip


_new = tuple.__new__
_bit_count = int.bit_count
_OVER, _SEVEN = Step.OVER, Step.SEVEN
