"""The vocabulary of the engine: configuration, turn steps, results, errors and refusals.

Everything here is a small immutable value shared by the engine and every layer above
it; nothing here knows a game in progress.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any, Final, NamedTuple

from .actions import CONCEDE, Action, Kind
from .cards import NAME_OF, Card
from .standing import Standing

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
"""Red7 is played by 2 to 4 players (R2.1)."""
TARGETS: Final = {2: 40, 3: 35, 4: 30}
"""Points that win an advanced match, by number of players (R8.3)."""
HAND_SIZE: Final = 7
MAX_ROUNDS: Final = 64
"""An advanced match ends after this many rounds, scored as R8.4 (R8.6)."""


def N_(message: str) -> str:
    """Mark an English message for the interfaces' catalogs (``make translations``
    extracts it); the interfaces translate it where they show it."""
    return message


class Step(IntEnum):
    """Where a turn is: which decisions are possible now (see :data:`STEP_KINDS`).

    ``DEALING`` and ``DRAWING`` are chance nodes, reached only by a game whose chance is
    explicit (``Game(..., explicit_chance=True)``): no player decides there.
    """

    START = 0
    """play a hand card, canvas a hand card, or concede (R4.2)"""
    AFTER = 1
    """a card was played and its action resolved: end (while winning, R4.6), canvas, concede"""
    FIVE = 2
    """a 5 was played: play one more card (R7.5)"""
    SEVEN = 3
    """a 7 was played: move another palette card to the canvas or the deck (R7.7)"""
    ONE = 4
    """a 1 was played: take a card of an eligible palette (R7.1)"""
    DRAW = 5
    """a canvas play earned the advanced draw: draw or decline (R5.1)"""
    OVER = 6
    """the game is over"""
    DEALING = 7
    """chance: the next card of a deal (R2.2)"""
    DRAWING = 8
    """chance: the card a draw takes from the unknown part of the deck (R7.3, R5.1)"""

    @property
    def label(self) -> str:
        """The step's name in observations and records: ``start``, ``after``..."""
        return self.name.lower()

    @classmethod
    def parse(cls, label: str) -> Step:
        try:
            return cls[label.upper()]
        except KeyError:
            raise ValueError(f"unknown step {label!r}: one of {', '.join(s.label for s in cls)}") from None


STEP_KINDS: Final[Mapping[Step, frozenset[Kind]]] = {
    Step.START: frozenset({Kind.PLAY, Kind.CANVAS, Kind.CONCEDE}),
    Step.AFTER: frozenset({Kind.CANVAS, Kind.END, Kind.CONCEDE}),
    Step.FIVE: frozenset({Kind.PLAY, Kind.CONCEDE}),
    Step.SEVEN: frozenset({Kind.MOVE, Kind.CONCEDE}),
    Step.ONE: frozenset({Kind.TAKE, Kind.CONCEDE}),
    Step.DRAW: frozenset({Kind.DRAW, Kind.DECLINE, Kind.CONCEDE}),
    Step.OVER: frozenset(),
    Step.DEALING: frozenset(),
    Step.DRAWING: frozenset(),
}
"""The kinds of decision each step accepts (concede at every player's step, R4.2)."""


class Explained(Exception):
    """An error an interface can say in its own language: ``template`` is its English
    sentence, marked for the catalogs with :func:`N_`, and ``fields`` fill its
    ``{name}`` places; ``str(err)`` is the English sentence. The interfaces translate
    the template and fill it (:func:`red7.ui.i18n.error_text`). Raised with a finished
    sentence and no fields, the sentence is the template as it is (no translation)."""

    def __init__(self, template: str, **fields: object) -> None:
        super().__init__(template.format(**fields) if fields else template)
        self.template = template
        self.fields = fields


class GameError(Explained, ValueError):
    """A configuration, position or request that Red7 does not allow."""


@dataclass(frozen=True)
class Config:
    """The options of a game; each is independent of the others. Checked once, here."""

    players: int = 2
    advanced: bool = False
    actions: bool = False

    def __post_init__(self) -> None:
        players = self.players
        if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise GameError(
                N_("Red7 is played by {low} to {high} players, not {players!r}"),
                low=MIN_PLAYERS,
                high=MAX_PLAYERS,
                players=players,
            )
        for name in ("advanced", "actions"):
            if not isinstance(getattr(self, name), bool):
                raise GameError(
                    N_("option {name!r} must be true or false, not {value!r}"), name=name, value=getattr(self, name)
                )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Config:
        """A configuration from ``players``/``advanced``/``actions`` entries (records,
        framework parameters); any other key is an error naming it."""
        unknown = set(data) - {"players", "advanced", "actions"}
        if unknown:
            raise GameError(
                N_("unknown option {options}: use players, advanced, actions"),
                options=", ".join(sorted(map(str, unknown))),
            )
        return cls(**data)

    @property
    def target(self) -> int | None:
        """Points that win the match (advanced game, R8.3); None in the basic game."""
        return TARGETS[self.players] if self.advanced else None

    def as_dict(self) -> dict[str, Any]:
        return {"players": self.players, "advanced": self.advanced, "actions": self.actions}


class RoundLog(NamedTuple):
    """What everyone saw of the round being played beyond its decisions (R9), so that a
    player can replay the round in a world of its own (:mod:`red7.bots.inference`).
    Immutable (a NamedTuple: positions and observations share it)."""

    start: int
    """The index in the history of the round's first decision."""
    palettes: tuple[int, ...]
    """The palettes (card masks) when the round began."""
    hand_sizes: tuple[int, ...]
    """How many cards each hand held when the round began."""
    draws: tuple[tuple[int, int, int], ...]
    """Every card drawn in the round: (index in the history of the decision that drew it,
    the seat that drew it, the card if it was public (R7.z), else -1)."""
    dealt: bool
    """Did the round begin with a deal (R2)? False for a position given card by card
    (:meth:`red7.core.game.Game.from_position`), whose log begins there."""

    @classmethod
    def empty(cls, players: int) -> RoundLog:
        """The log of a match before its first deal."""
        return cls(0, (0,) * players, (0,) * players, (), False)

    def as_dict(self) -> dict[str, Any]:
        from .cards import NAME_OF, names_of

        return {
            "start": self.start,
            "palettes": [names_of(p) for p in self.palettes],
            "hand_sizes": list(self.hand_sizes),
            "draws": [[i, seat, NAME_OF[card] if card >= 0 else None] for i, seat, card in self.draws],
            "dealt": self.dealt,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundLog:
        from .cards import mask_of, parse_index

        return cls(
            data["start"],
            tuple(mask_of(p) for p in data["palettes"]),
            tuple(data["hand_sizes"]),
            tuple((i, seat, parse_index(card) if card is not None else -1) for i, seat, card in data["draws"]),
            bool(data["dealt"]),
        )


class RoundResult(NamedTuple):
    """How one round ended (R6.2, R8.2). Immutable (a NamedTuple: positions hold them,
    and search hashes positions)."""

    winner: int
    rule: int
    """The final rule, a colour index (0 = Red)."""
    scored: tuple[str, ...]
    """The cards the winner moved to their score pile (advanced game), highest first."""
    points: int

    def as_dict(self) -> dict[str, Any]:
        from .cards import COLOURS

        return {"winner": self.winner, "rule": COLOURS[self.rule], "scored": list(self.scored), "points": self.points}


class Result(NamedTuple):
    """How the game ended. ``winners`` has one seat except when equal highest scores
    share the victory (R8.4, R8.6)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: int

    def as_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "scores": list(self.scores), "rounds": self.rounds}


class Option(NamedTuple):
    """A legal decision and whether it is safe (R4.7)."""

    action: Action
    safe: bool


def safe_or_concede(options: Iterable[Option]) -> list[Action]:
    """The safe decisions (R4.7), or the concession alone when none is safe: what a
    player who never gambles may choose. :meth:`Game.safe_or_concede_ids` is the same
    for ids."""
    options = list(options)
    return [o.action for o in options if o.safe] or [Action.from_id(CONCEDE)]


# --- refusals -----------------------------------------------------------------------------


class RefusalCode(StrEnum):
    """Why a decision is not legal now; each code names its rule and its sentence."""

    GAME_OVER = "game-over"
    CHANCE = "chance"
    WRONG_STEP = "wrong-step"
    NOT_IN_HAND = "not-in-hand"
    CANVAS_NOT_WINNING = "canvas-not-winning"
    CANNOT_FINISH = "cannot-finish"
    SEVEN_ITSELF = "seven-itself"
    NOT_IN_PALETTE = "not-in-palette"
    NOT_IN_OTHER_PALETTE = "not-in-other-palette"
    PALETTE_TOO_SMALL = "palette-too-small"
    NOT_WINNING = "not-winning"


REFUSALS: Final[Mapping[RefusalCode, tuple[str, str]]] = {
    RefusalCode.GAME_OVER: ("R6.2", N_("the game is over")),
    RefusalCode.CHANCE: ("R2.2", N_("a card is being dealt or drawn: nobody decides now")),
    RefusalCode.WRONG_STEP: ("R4.2", N_("a '{kind}' decision does not belong to the '{step}' step of the turn")),
    RefusalCode.NOT_IN_HAND: ("R4.2", N_("{card} is not in your hand")),
    RefusalCode.CANVAS_NOT_WINNING: ("R4.4", N_("with {card} on the canvas you would not be winning")),
    RefusalCode.CANNOT_FINISH: ("R7.x", N_("you may play {card} only if you can still end the turn winning")),
    RefusalCode.SEVEN_ITSELF: ("R7.7", N_("the 7 moves another card of your palette, not {card} itself")),
    RefusalCode.NOT_IN_PALETTE: ("R7.7", N_("{card} is not in your palette")),
    RefusalCode.NOT_IN_OTHER_PALETTE: ("R7.1", N_("{card} is not in another remaining player's palette")),
    RefusalCode.PALETTE_TOO_SMALL: ("R7.1", N_("{card} is in a palette with fewer cards than yours")),
    RefusalCode.NOT_WINNING: ("R4.6", N_("you are not winning, so the turn cannot end")),
}
"""Per code: the rule it applies and its English sentence (placeholders: ``{card}``,
``{kind}``, ``{step}``), which the interfaces translate through their catalogs."""


@dataclass(frozen=True)
class Refusal:
    """Why ``action`` is not legal at ``step``: produced by the check that failed.

    ``card`` is the card the failing check is about (None when no card is involved).
    ``standing`` is, for a refusal because the mover would not be winning, the standing
    it would leave (:mod:`red7.core.standing`) and ``seat`` the mover's: the numbers an
    interface says after the sentence ("Orange: 1 against 1; Y7 wins the tie"). The
    standing is of the rule the refusal is about: the canvas card's colour
    (``canvas-not-winning``), the rule in force after the card is played
    (``cannot-finish``) or now (``not-winning``). None for the other refusals.
    """

    code: RefusalCode
    action: Action
    step: Step
    card: Card | None = None
    standing: Standing | None = None
    seat: int | None = None

    @property
    def rule(self) -> str:
        """The rule ID the refusal applies, e.g. ``R4.4``."""
        return REFUSALS[self.code][0]

    @property
    def template(self) -> str:
        """The English sentence with its placeholders (what catalogs translate)."""
        return REFUSALS[self.code][1]

    def format(self, template: str, **fields: str) -> str:
        """``template`` (this refusal's sentence, possibly translated) with its fields;
        ``fields`` override them (an interface names the step in its own language)."""
        return template.format(**{**self._fields(), **fields})

    def _fields(self) -> dict[str, str]:
        card = NAME_OF[self.card] if self.card is not None else ""
        return {"card": card, "kind": self.action.kind.value, "step": self.step.label}

    def explained(self) -> Explained:
        """The refusal's sentence (without its rule) as an :class:`Explained`, for an
        error that quotes it and is said in an interface's language (the card in the
        notation, the step by its English label)."""
        return Explained(self.template, **self._fields())

    @property
    def message(self) -> str:
        """The refusal in English, with its rule: "… (R4.4)"."""
        return f"{self.format(self.template)} ({self.rule})"


class IllegalActionError(ValueError):
    """A decision that is not legal now; the game is left untouched.

    ``refusal`` says why (a code, its rule and the card involved); ``reason`` is its
    English sentence; ``legal`` lists what is allowed instead.
    """

    def __init__(self, refusal: Refusal, legal: list[Action]) -> None:
        self.refusal = refusal
        self.action = refusal.action
        self.reason = refusal.message
        self.legal = legal
        allowed = ", ".join(str(a) for a in legal) or "nothing (no player decides now)"
        super().__init__(f"illegal decision {str(refusal.action)!r}: {self.reason}. Legal now: {allowed}")
