"""Game records: configuration, seed and decisions, enough to replay a game exactly.

A record is JSON::

    {"format": "red7-record", "version": 2,
     "config": {"players": 2, "advanced": false, "actions": false},
     "seed": 7, "deal": "splitmix64",
     "decisions": ["play G5", "canvas R4", "concede"],
     "result": {"winners": [1], "scores": [0, 0], "rounds": 1},
     "seats": [{"name": "Ana", "bot": null}, {"name": "", "bot": "easy"}]}

``seats`` is optional (records written before it existed have none and still load and
replay): who sat in each seat, a person's given name (empty: the
front end names the seat in its language) and a bot's spec (null for a person). It is
what a front end needs to show the players' names and to resume an unfinished game
(:func:`seats_of`); the replay itself does not depend on it.

Chance comes only from the game's seeded RNG (:func:`red7.core.seeds.round_rng`), so
replaying the decisions from the seed re-creates every state. ``deal`` names the
generator that shuffled the rounds (:data:`red7.core.seeds.DEALS`): version 2 records
always carry it (``"splitmix64"``, or ``"mt19937"`` for a game begun before version 2
and saved again since); version 1 records have none and were all dealt by CPython's
``random.Random`` (``"mt19937"``), which is how they still replay. :func:`replay` checks
each decision as it goes and the result at the end, and reports the first thing that
does not match with a :class:`RecordError` naming the decision. Files are read and
written by :mod:`red7.play.records`; :func:`parse` reads a record's text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, ActionError
from .game import Game
from .model import N_, Config, Explained, GameError, IllegalActionError
from .seeds import DEALS, LEGACY_DEAL

FORMAT = "red7-record"
VERSION = 2
"""The version records are written in; :data:`VERSIONS` are read."""
VERSIONS = (1, 2)
"""Version 1 records name no generator: theirs is :data:`~red7.core.seeds.LEGACY_DEAL`."""


class RecordError(Explained, ValueError):
    """A record that cannot be read or does not replay (its sentence a template the
    interfaces translate: :class:`~red7.core.model.Explained`)."""


@dataclass(frozen=True)
class SeatRecord:
    """Who sat in one seat, as a record keeps it: a person (``bot`` None) with the name
    they gave (empty: none), or a bot by its spec (``easy``, ``ismcts:iters=400``...)."""

    name: str = ""
    bot: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot}


def to_record(
    game: Game, seats: Sequence[SeatRecord] | None = None, settings: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The record of ``game`` so far (``result`` is None while it is not over), with
    who sat where when ``seats`` is given (one per player), and, when ``settings`` is
    given and not empty, how the game was being played (JSON values: the interface's
    language, whether turns are confirmed...), which a resumed game takes up again and
    which no replay reads."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "config": game.config.as_dict(),
        "seed": game.seed,
        "deal": game.deal,
        "decisions": [str(action) for _, action in game.history],
        "result": game.result.as_dict() if game.result else None,
    }
    if seats is not None:
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats for a game of {game.players} players")
        record["seats"] = [seat.as_dict() for seat in seats]
    if settings:
        record["settings"] = dict(settings)
    return record


def seats_of(record: dict[str, Any]) -> list[SeatRecord] | None:
    """Who sat in each seat of ``record`` (None: the record does not say, as records
    written before the field existed). A ``seats`` field that is not one
    ``{"name": text, "bot": spec or null}`` per player raises RecordError."""
    if "seats" not in record:
        return None
    seats, config = record["seats"], record.get("config")
    players = config.get("players") if isinstance(config, dict) else None
    if not isinstance(seats, list) or (isinstance(players, int) and len(seats) != players):
        if isinstance(players, int):
            raise RecordError(
                N_("record 'seats' must list one seat per player ({players}), not {seats}"),
                players=players,
                seats=json.dumps(seats),
            )
        raise RecordError(N_("record 'seats' must list one seat per player, not {seats}"), seats=json.dumps(seats))
    found = []
    for number, seat in enumerate(seats, 1):
        name = seat.get("name", "") if isinstance(seat, dict) else None
        bot = seat.get("bot") if isinstance(seat, dict) else None
        if not isinstance(name, str) or not (bot is None or (isinstance(bot, str) and bot)):
            raise RecordError(
                N_('record seat {number} must be {{"name": text, "bot": a bot spec or null}}, not {seat}'),
                number=number,
                seat=json.dumps(seat),
            )
        found.append(SeatRecord(name, bot))
    return found


def parse(text: str, where: str = "record") -> dict[str, Any]:
    """A record from its JSON text; text that is not a JSON object raises RecordError
    (``where`` names the text in the message, e.g. the file)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        # Some of json's messages end with "at" ("Unterminated string starting at"): say it once.
        what = err.msg.removesuffix(" at")
        raise RecordError(
            N_("{where} is not valid JSON (truncated?): {what} at line {line}, column {column}"),
            where=where,
            what=what,
            line=err.lineno,
            column=err.colno,
        ) from None
    except RecursionError:  # (json recurses once per level: a few thousand "[" overflow it)
        raise RecordError(N_("{where} is not a record: its JSON is nested too deeply"), where=where) from None
    if not isinstance(data, dict):
        raise RecordError(N_("{where} must hold a JSON object, not {kind}"), where=where, kind=type(data).__name__)
    return data


def result_in_words(result: Any) -> str:
    """A result as a record holds it (``{"winners": [0], "scores": [0, 0], "rounds": 1}``)
    in words for a person, who counts players from 1 as the screens do: "won by player 1
    in 1 round"; the scores follow when one is not 0 (the advanced game, R8). Anything
    that is not such a result is shown as the JSON it is.

    >>> result_in_words({"winners": [0, 2], "scores": [30, 4, 30], "rounds": 6})
    'won by players 1 and 3 in 6 rounds (scores 30, 4, 30)'
    """
    try:
        winners = [str(seat + 1) for seat in result["winners"]]
        scores, rounds = list(result["scores"]), int(result["rounds"])
    except (TypeError, KeyError, ValueError):  # not a result (a hand-made record): as it is
        return json.dumps(result)
    if not winners:
        return json.dumps(result)
    who = f"player {winners[0]}" if len(winners) == 1 else f"players {', '.join(winners[:-1])} and {winners[-1]}"
    words = f"won by {who} in {rounds} round{'' if rounds == 1 else 's'}"
    return words + (f" (scores {', '.join(map(str, scores))})" if any(scores) else "")


def dumps(game: Game, seats: Sequence[SeatRecord] | None = None, settings: Mapping[str, Any] | None = None) -> str:
    """The record of ``game`` (with ``seats`` and ``settings``, see :func:`to_record`)
    as JSON text (one decision list, indented)."""
    return json.dumps(to_record(game, seats, settings), indent=1) + "\n"


def _game_of(record: dict[str, Any]) -> tuple[Game, list[str]]:
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(N_("not a red7 record (format {format!r})"), format=record.get("format"))
    version = _version(record)
    if version not in VERSIONS or isinstance(version, bool):
        raise RecordError(
            N_("record version {version!r} is not supported (this reads versions 1 and {latest})"),
            version=version,
            latest=VERSION,
        )
    for field in ("config", "seed", "decisions"):
        if field not in record:
            raise RecordError(N_("record has no {field!r} field"), field=field)
    cfg = record["config"]
    if not isinstance(cfg, dict):
        raise RecordError(N_("record 'config' must be an object with players, advanced and actions"))
    decisions = record["decisions"]
    if not isinstance(decisions, list) or not all(isinstance(d, str) for d in decisions):
        raise RecordError(N_("record 'decisions' must be a list of decision strings such as 'play R7'"))
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(N_("record 'seed' must be an integer, not {seed!r}"), seed=seed)
    deal = deal_of(record)
    try:
        game = Game(config=Config.from_mapping(cfg), seed=seed, deal=deal)
    except (GameError, TypeError) as err:
        raise RecordError(N_("record config is invalid: {reason}"), reason=err) from None
    seats_of(record)  # a malformed seats field is refused, although the replay does not need it
    return game, decisions


def _version(record: dict[str, Any]) -> Any:
    """The record's version; a record without one (written by hand) is read as version
    1 unless it names its generator (``deal``, which only version 2 has)."""
    return record.get("version", VERSION if "deal" in record else 1)


def deal_of(record: dict[str, Any]) -> str:
    """The generator that dealt ``record``'s game: its ``deal`` field (version 2), or
    the Mersenne Twister of version 1, whose records name none. RecordError for a
    version 2 record without a known generator."""
    if _version(record) == 1:
        if "deal" in record:
            raise RecordError(N_("a version 1 record names no generator (deal): it was dealt by mt19937"))
        return LEGACY_DEAL
    deal = record.get("deal")
    if deal not in DEALS:
        raise RecordError(
            N_("record 'deal' must name the generator that dealt it ({deals}), not {deal!r}"),
            deals=", ".join(DEALS),
            deal=deal,
        )
    return str(deal)


def initial(record: dict[str, Any]) -> Game:
    """The game a record starts from, before its first decision (RecordError if malformed)."""
    return _game_of(record)[0]


def steps(record: dict[str, Any]) -> Iterator[tuple[int, Action, Game]]:
    """Replay ``record`` one decision at a time, yielding ``(number, action, game)``
    after each (numbers from 1); raises RecordError at the first bad decision."""
    game, decisions = _game_of(record)
    for number, text in enumerate(decisions, 1):
        if game.is_over:
            raise RecordError(N_("decision {number} ({text!r}) comes after the game ended"), number=number, text=text)
        try:
            action = Action.parse(text)
            game.apply(action)
        except ActionError as err:
            raise RecordError(N_("decision {number}: {reason}"), number=number, reason=err) from None
        except IllegalActionError as err:
            raise RecordError(
                N_("decision {number} ({text!r}) is illegal: {reason} ({rule})"),
                number=number,
                text=text,
                reason=err.refusal.explained(),
                rule=err.refusal.rule,
            ) from None
        yield number, action, game


def replay(record: dict[str, Any], on_step: Callable[[int, Action, Game], None] | None = None) -> Game:
    """Replay and verify ``record``; returns the final game.

    Raises RecordError if a decision is unreadable or illegal, or if the record has a
    ``result`` field that the replay contradicts: a result the replayed game does not
    reach (it is unfinished, or ends otherwise), or ``null`` (the game is not over) for
    decisions that finish the game. A record without the field claims nothing.
    """
    game, _ = _game_of(record)
    for number, action, game in steps(record):
        if on_step:
            on_step(number, action, game)
    if "result" not in record:
        return game
    expected, count = record["result"], len(record["decisions"])
    actual = game.result.as_dict() if game.result else None
    if expected is None and actual is not None:
        raise RecordError(
            N_(
                "the record claims no result, as for an unfinished game, but its {count} decisions finish the game: "
                "{result}"
            ),
            count=count,
            result=result_in_words(actual),
        )
    if expected is not None and actual is None:
        raise RecordError(
            N_("the record claims a result but its {count} decisions do not finish the game"), count=count
        )
    if actual != expected:
        said, found = result_in_words(expected), result_in_words(actual)
        if said == found:  # equal in words, not in the record (an extra field...): show both as they are
            said, found = json.dumps(expected), json.dumps(actual)
        raise RecordError(
            N_("the recorded result ({said}) differs from the replayed one ({found})"), said=said, found=found
        )
    return game
