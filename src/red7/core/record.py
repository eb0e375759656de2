"""Game records: configuration, seed and decisions, enough to replay a game exactly.

A record is JSON::

    {"format": "red7-record", "version": 1,
     "config": {"players": 2, "advanced": false, "actions": false},
     "seed": 7,
     "decisions": ["play R5", "canvas B3", "end", "concede"],
     "result": {"winners": [0], "scores": [0, 0], "rounds": 1}}

Chance comes only from the game's seeded RNG (:func:`red7.core.seeds.round_rng`), so
replaying the decisions from the seed re-creates every state. :func:`replay` checks
each decision as it goes and the result at the end, and reports the first thing that
does not match with a :class:`RecordError` naming the decision. Files are read and
written by :mod:`red7.play.records`; :func:`parse` reads a record's text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from .actions import Action, ActionError
from .game import Game
from .model import Config, GameError, IllegalActionError

FORMAT = "red7-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay."""


def to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` so far (``result`` is None while it is not over)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "config": game.config.as_dict(),
        "seed": game.seed,
        "decisions": [str(action) for _, action in game.history],
        "result": game.result.as_dict() if game.result else None,
    }


def parse(text: str, where: str = "record") -> dict[str, Any]:
    """A record from its JSON text; text that is not a JSON object raises RecordError
    (``where`` names the text in the message, e.g. the file)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(
            f"{where} is not valid JSON (truncated?): {err.msg} at line {err.lineno}, column {err.colno}"
        ) from None
    if not isinstance(data, dict):
        raise RecordError(f"{where} must hold a JSON object, not {type(data).__name__}")
    return data


def dumps(game: Game) -> str:
    """The record of ``game`` as JSON text (one decision list, indented)."""
    return json.dumps(to_record(game), indent=1) + "\n"


def _game_of(record: dict[str, Any]) -> tuple[Game, list[str]]:
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"not a red7 record (format {record.get('format')!r})")
    if record.get("version", VERSION) != VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported (this is version {VERSION})")
    for field in ("config", "seed", "decisions"):
        if field not in record:
            raise RecordError(f"record has no {field!r} field")
    cfg = record["config"]
    if not isinstance(cfg, dict):
        raise RecordError("record 'config' must be an object with players, advanced and actions")
    decisions = record["decisions"]
    if not isinstance(decisions, list) or not all(isinstance(d, str) for d in decisions):
        raise RecordError("record 'decisions' must be a list of decision strings such as 'play R7'")
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"record 'seed' must be an integer, not {seed!r}")
    try:
        return Game(config=Config.from_mapping(cfg), seed=seed), decisions
    except (GameError, TypeError) as err:
        raise RecordError(f"record config is invalid: {err}") from None


def initial(record: dict[str, Any]) -> Game:
    """The game a record starts from, before its first decision (RecordError if malformed)."""
    return _game_of(record)[0]


def steps(record: dict[str, Any]) -> Iterator[tuple[int, Action, Game]]:
    """Replay ``record`` one decision at a time, yielding ``(number, action, game)``
    after each (numbers from 1); raises RecordError at the first bad decision."""
    game, decisions = _game_of(record)
    for number, text in enumerate(decisions, 1):
        if game.is_over:
            raise RecordError(f"decision {number} ({text!r}) comes after the game ended")
        try:
            action = Action.parse(text)
            game.apply(action)
        except ActionError as err:
            raise RecordError(f"decision {number}: {err}") from None
        except IllegalActionError as err:
            raise RecordError(f"decision {number} ({text!r}) is illegal: {err.reason}") from None
        yield number, action, game


def replay(record: dict[str, Any], on_step: Callable[[int, Action, Game], None] | None = None) -> Game:
    """Replay and verify ``record``; returns the final game.

    Raises RecordError if a decision is unreadable or illegal, or if the recorded
    result (when given) differs from the replayed one.
    """
    game, _ = _game_of(record)
    for number, action, game in steps(record):
        if on_step:
            on_step(number, action, game)
    expected = record.get("result")
    if expected is not None:
        if not game.is_over:
            count = len(record["decisions"])
            raise RecordError(f"the record claims a result but its {count} decisions do not finish the game")
        actual = game.result.as_dict() if game.result else None
        if actual != expected:
            raise RecordError(f"the replayed result {actual} differs from the recorded result {expected}")
    return game
