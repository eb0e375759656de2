"""Game records (red7.core.record, files in red7.play.records): round trip, atomic
save, and every way a record can be wrong. A record is the configuration, the seed and the decisions in notation
(R1.3 and actions.py); chance comes only from the seeded shuffle, so a replay must
re-create the game exactly."""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from types import SimpleNamespace
from typing import IO, Any

import pytest

from red7 import Action, Game
from red7.core.record import VERSION, RecordError, deal_of, replay, result_in_words, to_record
from red7.core.seeds import DEAL, LEGACY_DEAL
from red7.play import records
from red7.play.records import load, save

CONFIGS = [
    (2, False, False),
    (3, False, True),
    (4, False, False),
    (2, True, False),
    (3, True, True),
    (4, True, True),
]


def random_game(players: int, advanced: bool, actions: bool, seed: int, max_decisions: int | None = None) -> Game:
    """A game driven by random legal decisions (mostly safe ones, sometimes any legal
    one, so that unsafe plays and concessions also appear in records)."""
    rng = random.Random(seed * 7919 + 1)
    game = Game(players, advanced, actions, seed=seed)
    while not game.is_over and (max_decisions is None or len(game.history) < max_decisions):
        safe = game.safe_actions()
        pool = safe if safe and rng.random() < 0.97 else game.legal_actions()
        game.apply(rng.choice(pool))
    return game


def finished_record(seed: int = 3, players: int = 2, advanced: bool = False, actions: bool = False) -> dict[str, Any]:
    game = random_game(players, advanced, actions, seed)
    assert game.is_over
    record = to_record(game)
    assert len(record["decisions"]) >= 3, "the tests below need a few decisions"
    return record


def replay_error(record: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as info:
        replay(record)
    return str(info.value)


# --- round trip ---------------------------------------------------------------------


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_record_save_load_replay_round_trip(
    players: int, advanced: bool, actions: bool, seed: int, tmp_path: Path
) -> None:
    game = random_game(players, advanced, actions, seed)
    assert game.is_over and game.result is not None
    record = to_record(game)
    assert record["config"] == {"players": players, "advanced": advanced, "actions": actions}
    assert record["seed"] == seed
    assert record["decisions"] == [str(a) for _, a in game.history]
    assert record["result"] == {
        "winners": list(game.result.winners),
        "scores": list(game.result.scores),
        "rounds": game.result.rounds,
    }
    path = save(game, tmp_path / "game.json")
    assert path == tmp_path / "game.json"
    loaded = load(path)
    assert loaded == record == json.loads(json.dumps(record))
    again = replay(loaded)
    assert again.fingerprint() == game.fingerprint()
    assert again.round_results == game.round_results
    assert to_record(again) == record


@pytest.mark.parametrize(("players", "advanced", "actions"), CONFIGS)
def test_unfinished_game_with_null_result_replays(players: int, advanced: bool, actions: bool, tmp_path: Path) -> None:
    game = random_game(players, advanced, actions, seed=21, max_decisions=9)
    assert not game.is_over
    record = to_record(game)
    assert record["result"] is None
    save(game, tmp_path / "partial.json")
    again = replay(load(tmp_path / "partial.json"))
    assert not again.is_over
    assert again.fingerprint() == game.fingerprint()


def test_record_without_result_field_replays() -> None:
    record = finished_record()
    del record["result"]
    assert replay(record).is_over


def test_replay_calls_on_step_with_numbers_from_one() -> None:
    record = finished_record(seed=4)
    seen: list[tuple[int, str]] = []
    replay(record, lambda number, action, game: seen.append((number, str(action))))
    assert seen == list(enumerate(record["decisions"], 1))


# --- atomic save ----------------------------------------------------------------------


def test_save_writes_only_the_final_file(tmp_path: Path) -> None:
    game = random_game(2, False, False, seed=8)
    target = tmp_path / "deep" / "dir" / "g.json"
    save(game, target)
    assert sorted(p.name for p in (tmp_path / "deep" / "dir").iterdir()) == ["g.json"]
    assert json.loads(target.read_text(encoding="utf-8")) == to_record(game)


def test_save_overwrites_an_existing_record(tmp_path: Path) -> None:
    target = tmp_path / "g.json"
    first = random_game(2, False, False, seed=8)
    second = random_game(3, True, True, seed=9)
    save(first, target)
    save(second, target)
    assert load(target) == to_record(second)
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


class CrashingFile:
    """A record file whose write stores half the text, then fails with ``error``."""

    def __init__(self, f: IO[str], error: Exception) -> None:
        self.f, self.error = f, error

    def __enter__(self) -> CrashingFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.f.close()

    def write(self, text: str) -> None:
        self.f.write(text[: len(text) // 2])
        self.f.flush()
        raise self.error


def crash_writes(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    """Make red7.play.records's next file write crash half way (its os module only)."""

    def fdopen(fd: int, *args: Any, **kwargs: Any) -> CrashingFile:
        return CrashingFile(os.fdopen(fd, *args, **kwargs), error)

    monkeypatch.setattr(records, "os", SimpleNamespace(fdopen=fdopen, replace=os.replace))


def test_failed_save_leaves_the_old_file_intact_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash half way through writing must not leave a half-written record."""
    target = tmp_path / "g.json"
    old = random_game(2, False, False, seed=8)
    save(old, target)
    before = target.read_bytes()
    crash_writes(monkeypatch, OSError("disk full"))
    with pytest.raises(OSError):
        save(random_game(3, False, False, seed=9), target)
    monkeypatch.undo()
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_failed_first_save_creates_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    crash_writes(monkeypatch, RuntimeError("boom"))
    with pytest.raises(RuntimeError):
        save(random_game(2, False, False, seed=8), tmp_path / "g.json")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


# --- where a record can be saved -----------------------------------------------------


def test_a_record_can_be_saved_where_directories_are_missing_and_none_is_made(tmp_path: Path) -> None:
    assert records.unsaveable(tmp_path / "a" / "b" / "g.json") is None
    assert records.unsaveable(tmp_path / "g.json") is None
    assert list(tmp_path.iterdir()) == []  # the check leaves nothing behind


def test_why_a_record_cannot_be_saved(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert records.unsaveable(tmp_path) == f"{tmp_path} is a directory"
    assert records.unsaveable(tmp_path / "file" / "g.json") == f"{tmp_path / 'file'} is not a directory"
    assert records.unsaveable(tmp_path / "file" / "a" / "g.json") == f"{tmp_path / 'file'} is not a directory"


def test_a_directory_without_write_permission_cannot_take_a_record(tmp_path: Path) -> None:
    """Tried, not read from permission bits (root passes those; /sys refuses even root)."""
    if os.geteuid() == 0:
        locked = Path("/sys")
        if not (locked / "kernel").is_dir():
            pytest.skip("no directory that root cannot write to")
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o555)
    reason = records.unsaveable(locked / "sub" / "g.json")
    assert reason is not None and reason.startswith(f"no file can be created in {locked} (")
    assert not (locked / "sub").exists()


# --- bad decisions --------------------------------------------------------------------


def test_unknown_notation_names_the_decision() -> None:
    record = finished_record()
    record["decisions"][2] = "fly"
    message = replay_error(record)
    assert "decision 3" in message and "fly" in message


def test_unknown_card_names_the_decision() -> None:
    record = finished_record()
    record["decisions"][0] = "play R8"
    assert "decision 1" in replay_error(record)


def _first_illegal(game: Game) -> Action:
    legal = set(game.legal_actions())
    return next(a for a in (Action.from_id(i) for i in range(249)) if a not in legal)


@pytest.mark.parametrize("position", [1, 2, 4])
def test_illegal_decision_names_the_decision(position: int) -> None:
    record = finished_record(seed=5, players=3, actions=True)
    assert len(record["decisions"]) >= position
    prefix = record["decisions"][: position - 1]
    game = Game(3, False, True, seed=5)
    for text in prefix:
        game.apply(text)
    bad = _first_illegal(game)
    broken = dict(record, decisions=prefix + [str(bad)], result=None)
    message = replay_error(broken)
    assert f"decision {position} " in message and str(bad) in message and "illegal" in message


def test_playing_a_card_not_in_hand_is_illegal() -> None:
    """R4.2: only your own hand cards can be played; the opponent's palette card cannot."""
    game = Game(2, seed=3)
    assert game.current_player is not None
    other = 1 - game.current_player
    card = game.palette(other)[0]
    record = dict(to_record(game), decisions=[f"play {card}"])
    message = replay_error(record)
    assert "decision 1" in message and card in message


def test_decisions_after_the_end_name_the_decision() -> None:
    record = finished_record()
    n = len(record["decisions"])
    record["decisions"].append("concede")
    message = replay_error(record)
    assert f"decision {n + 1}" in message and "after the game ended" in message


def test_wrong_result_is_reported() -> None:
    record = finished_record()
    winner = record["result"]["winners"][0]
    record["result"] = dict(record["result"], winners=[1 - winner])
    message = replay_error(record)
    assert "result" in message


def test_wrong_round_count_is_reported() -> None:
    record = finished_record()
    record["result"] = dict(record["result"], rounds=record["result"]["rounds"] + 1)
    assert "result" in replay_error(record)


def test_no_result_for_a_finished_game_is_reported() -> None:
    """`"result": null` says the game is not over: decisions that finish it contradict
    the record (it used to replay as valid)."""
    record = finished_record()
    count = len(record["decisions"])
    record["result"] = None
    message = replay_error(record)
    assert (
        f"the record claims no result, as for an unfinished game, but its {count} decisions finish the game" in message
    )


def test_result_messages_count_players_from_1() -> None:
    """A person reads the message: the first seat is player 1, as on the screens."""
    record = finished_record(seed=3)
    winner = record["result"]["winners"][0]
    record["result"] = dict(record["result"], winners=[1 - winner])
    message = replay_error(record)
    assert f"the recorded result (won by player {2 - winner} in 1 round) differs from the replayed one " in message
    assert f"(won by player {winner + 1} in 1 round)" in message


def test_a_result_in_words() -> None:
    assert result_in_words({"winners": [0], "scores": [0, 0], "rounds": 1}) == "won by player 1 in 1 round"
    assert result_in_words({"winners": [3], "scores": [0, 9, 2, 41], "rounds": 4}) == (
        "won by player 4 in 4 rounds (scores 0, 9, 2, 41)"
    )
    # what is not a result (a hand-made record) shows as it is, without a crash
    for odd in (None, [1], "x", {"winners": []}, {"winners": ["a"], "scores": [], "rounds": 1}, {"winners": [0]}):
        assert result_in_words(odd) == json.dumps(odd)


def test_claimed_result_for_unfinished_game_is_reported() -> None:
    record = finished_record()
    record["decisions"] = record["decisions"][:-1]
    message = replay_error(record)
    assert "result" in message and str(len(record["decisions"])) in message


# --- the generator that dealt a record (version 2) and version 1 records ---------------


def legacy_record(seed: int = 3, players: int = 3, advanced: bool = True) -> dict[str, Any]:
    """A finished record as version 1 wrote it: no ``deal``, the game dealt by
    CPython's random.Random (a game begun before SplitMix64 dealt every game)."""
    rng = random.Random(seed)
    game = Game(players, advanced, False, seed=seed, deal=LEGACY_DEAL)
    while not game.is_over:
        game.apply(rng.choice(game.safe_actions() or ["concede"]))
    record = to_record(game)
    del record["deal"]
    return {**record, "version": 1}


def test_a_record_says_which_generator_dealt_it() -> None:
    record = finished_record()
    assert (record["version"], record["deal"], VERSION) == (2, DEAL, 2)
    assert deal_of(record) == DEAL and replay(record).deal == DEAL


def test_a_version_1_record_replays_with_the_mersenne_twister() -> None:
    """Version 1 records name no generator: they were all dealt by random.Random, and
    replay so; dealt by SplitMix64 instead, the same decisions are another game."""
    record = legacy_record()
    assert "deal" not in record and deal_of(record) == LEGACY_DEAL
    game = replay(record)
    assert game.deal == LEGACY_DEAL and game.result is not None and game.round > 1
    again = to_record(game)  # saved again: version 2, naming its generator
    assert (again["version"], again["deal"]) == (2, LEGACY_DEAL)
    assert replay(again).observation(None) == game.observation(None)
    assert "is illegal" in replay_error({**record, "version": 2, "deal": DEAL})  # other cards


def test_a_record_without_a_version_is_version_1_unless_it_names_its_generator() -> None:
    legacy = legacy_record()
    del legacy["version"]
    assert replay(legacy).deal == LEGACY_DEAL
    record = finished_record()
    del record["version"]
    assert replay(record).deal == DEAL


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"deal": "xorshift"}, "'deal' must name the generator"),
        ({"deal": None}, "'deal' must name the generator"),
        ({"version": 1}, "a version 1 record names no generator"),
        ({"version": 3}, "record version 3 is not supported"),
        ({"version": True}, "record version True is not supported"),
    ],
)
def test_a_wrong_generator_or_version_is_named(change: dict[str, Any], named: str) -> None:
    assert named in replay_error({**finished_record(), **change})


def test_a_version_2_record_without_its_generator_is_refused() -> None:
    record = finished_record()
    del record["deal"]
    record["version"] = 2
    assert "'deal' must name the generator" in replay_error(record)


# --- bad fields -----------------------------------------------------------------------


@pytest.mark.parametrize("field", ["config", "seed", "decisions"])
def test_missing_field_is_named(field: str) -> None:
    record = finished_record()
    del record[field]
    assert repr(field) in replay_error(record)


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("seed", "7", "seed"),
        ("seed", 7.0, "seed"),
        ("seed", True, "seed"),
        ("seed", None, "seed"),
        ("decisions", "play R7", "decisions"),
        ("decisions", {"1": "end"}, "decisions"),
        ("decisions", ["concede", 3], "decisions"),
        ("config", [2, False, False], "config"),
        ("config", {"players": 2, "colour": "red"}, "config"),
        ("config", {"players": 5, "advanced": False, "actions": False}, "config"),
        ("config", {"players": 1, "advanced": False, "actions": False}, "config"),
        ("config", {"players": "2", "advanced": False, "actions": False}, "config"),
        ("format", "chess-pgn", "format"),
        ("version", 99, "version"),
    ],
)
def test_wrong_types_and_values_are_reported(field: str, value: object, named: str) -> None:
    record = finished_record()
    record[field] = value
    assert named in replay_error(record)


def test_players_5_is_refused_with_the_allowed_range() -> None:
    """R2.1: 2 to 4 players."""
    record = finished_record()
    record["config"] = {"players": 5, "advanced": False, "actions": False}
    message = replay_error(record)
    assert "2 to 4" in message and "5" in message


def test_replay_does_not_modify_the_record() -> None:
    record = finished_record(seed=6, players=3, advanced=True, actions=True)
    snapshot = copy.deepcopy(record)
    replay(record)
    assert record == snapshot


# --- load -----------------------------------------------------------------------------


def _saved_text(tmp_path: Path) -> str:
    path = save(random_game(2, False, False, seed=8), tmp_path / "good.json")
    return path.read_text(encoding="utf-8")


def test_load_truncated_json(tmp_path: Path) -> None:
    text = _saved_text(tmp_path)
    bad = tmp_path / "cut.json"
    bad.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load(bad)
    assert "cut.json" in str(info.value) and "JSON" in str(info.value)


def test_load_json_cut_in_a_string_says_where_it_begins(tmp_path: Path) -> None:
    """json's message "Unterminated string starting at" ends with "at"; ours once said
    "... starting at at line 7"."""
    text = _saved_text(tmp_path)
    bad = tmp_path / "cut.json"
    bad.write_text(text[: text.index('"decisions"') + 5], encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load(bad)
    line = text[: text.index('"decisions"')].count("\n") + 1
    assert f"Unterminated string starting at line {line}, column 2" in str(info.value)


def test_load_empty_file(tmp_path: Path) -> None:
    bad = tmp_path / "empty.json"
    bad.write_text("", encoding="utf-8")
    with pytest.raises(RecordError):
        load(bad)


def test_load_non_json_text(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("play R7\ncanvas B3\n", encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load(bad)
    assert "notes.txt" in str(info.value)


def test_load_binary_file(tmp_path: Path) -> None:
    bad = tmp_path / "blob.bin"
    bad.write_bytes(bytes([0xFF, 0xFE, 0x00, 0x81, 0x9C]))
    with pytest.raises(RecordError):
        load(bad)


@pytest.mark.parametrize("payload", ["[1, 2, 3]", '"a string"', "42", "null"])
def test_load_json_that_is_not_an_object(tmp_path: Path, payload: str) -> None:
    bad = tmp_path / "list.json"
    bad.write_text(payload, encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load(bad)
    assert "object" in str(info.value)


def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError) as info:
        load(tmp_path / "nope.json")
    assert "nope.json" in str(info.value)


def test_load_a_directory(tmp_path: Path) -> None:
    with pytest.raises(RecordError):
        load(tmp_path)


@pytest.mark.parametrize(("field", "value"), [("advanced", "no"), ("actions", "false"), ("advanced", None)])
def test_config_flags_must_be_booleans(field: str, value: object) -> None:
    """A record's config flags are JSON booleans; a string such as "no" is a wrong type
    and must not silently switch the option on (bool("no") is True)."""
    record = to_record(Game(2, seed=3))
    record["config"] = dict(record["config"], **{field: value})
    assert "config" in replay_error(record)
