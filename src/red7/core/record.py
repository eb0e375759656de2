"""Game records: configuration, seed and decisions, enough to replay a game exactly.

A record is JSON::

    {"format": "red7-record", "version": 1,
     "config": {"players": 2, "advanced": false, "actions": false},
     "seed": 7,
     "decisions": ["play R5", "canvas B3", "end", "concede"],
     "result": {"winners": [0], "scores": [0, 0], "rounds": 1}}

Chance comes only from the game's seeded RNG, so replaying the decisions from the seed
re-creates every state. :func:`replay` checks each decision as it goes and the result
at the end, and reports the first thing that does not match with a
:class:`RecordError` naming the decision.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .actions import Action, ActionError
from .game import Config, Game, GameError, IllegalActionError

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
        "decisions": [str(Action._all[a]) for _, a in game.history],
        "result": game.result.as_dict() if game.result else None,
    }


def save(game: Game, path: str | os.PathLike[str]) -> Path:
    """Write the record of ``game`` to ``path`` atomically (never half-written)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".record-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(to_record(game), f, indent=1)
            f.write("\n")
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a record file; unreadable or non-JSON files raise RecordError."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"cannot read record {str(path)!r}: {err}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(
            f"record {str(path)!r} is not valid JSON (truncated?): {err.msg} at line {err.lineno}, column {err.colno}"
        ) from None
    if not isinstance(data, dict):
        raise RecordError(f"record {str(path)!r} must hold a JSON object, not {type(data).__name__}")
    return data


def _game_of(record: dict[str, Any]) -> tuple[Game, list[str]]:
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"not a red7 record (format {record.get('format')!r})")
    if record.get("version", VERSION) != VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported (this is version {VERSION})")
    for field in ("config", "seed", "decisions"):
        if field not in record:
            raise RecordError(f"record has no {field!r} field")
    cfg = record["config"]
    if not isinstance(cfg, dict) or set(cfg) - {"players", "advanced", "actions"}:
        raise RecordError("record 'config' must be an object with players, advanced and actions")
    decisions = record["decisions"]
    if not isinstance(decisions, list) or not all(isinstance(d, str) for d in decisions):
        raise RecordError("record 'decisions' must be a list of decision strings such as 'play R7'")
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"record 'seed' must be an integer, not {seed!r}")
    try:
        config = Config(**cfg)
        return Game(config.players, config.advanced, config.actions, seed=seed), decisions
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
