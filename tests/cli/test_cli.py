"""The ``red7`` command (src/red7/cli/): sim, replay, play and bench.

Every user mistake must end with exit code 2 and a short message, never a traceback.
In-process calls go through ``red7.cli.main(argv)``; a few calls run the installed
console script ``.venv/bin/red7`` to check what a user really sees.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from red7 import Config, Game
from red7.bots import make_bot
from red7.cli import build_parser, main
from red7.core.model import safe_or_concede
from red7.core.record import to_record
from red7.core.stream import Stream, split
from red7.native import available as native_available
from red7.play.match import play_game
from red7.play.records import save
from tests.support.helpers import run_main

RED7 = Path(sys.executable).with_name("red7")
TIMING_KEYS = {"seconds", "games_per_second", "decisions_per_second", "turns_per_second"}


def run_script(
    args: list[str], tmp_path: Path, stdin: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run the installed console script; records default to a data dir under tmp_path."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "xdg"), HOME=str(tmp_path / "home"))
    return subprocess.run(
        [str(RED7), *args],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=tmp_path,
    )


def finished_game(seed: int = 3, players: int = 2, advanced: bool = False, actions: bool = False) -> Game:
    """A complete game where every player takes its first safe decision (or concedes)."""
    game = Game(players, advanced, actions, seed=seed)
    while not game.is_over:
        safe = game.safe_actions()
        game.apply(safe[0] if safe else "concede")
    return game


def write_record(path: Path, record: dict[str, Any]) -> Path:
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def assert_one_line_error(err: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("red7: error: ")
    assert "Traceback" not in err


def test_console_script_exists() -> None:
    assert RED7.exists(), f"{RED7} is the console script installed by pyproject.toml"


def test_the_license_is_an_spdx_expression() -> None:
    """PEP 639: `license = "MIT"`; the table form made setuptools print a deprecation
    warning at every install (make play). Setuptools reads the string from 77 on."""
    import tomllib

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["license"] == "MIT"
    assert pyproject["build-system"]["requires"] == ["setuptools>=77"]


# --- sim --------------------------------------------------------------------------------


def sim_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run_main(argv, capsys)
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def random_games(config: Config, seeds: range) -> list[Game]:
    """The games ``red7 sim`` plays, the long way: each game of seed ``s`` dealt from
    ``s``, its random players sharing the stream ``Stream(split(s, 0))`` and
    choosing uniformly among the safe options (or conceding), applied with full checks."""
    games = []
    for seed in seeds:
        game = Game(config=config, seed=seed)
        rng = Stream(split(seed, 0))
        while not game.is_over:
            choices = safe_or_concede(game.options())
            game.apply(choices[int(rng.random() * len(choices))])
        games.append(game)
    return games


@pytest.mark.parametrize(
    ("players", "flags"),
    [(2, []), (3, ["--actions"]), (4, ["--advanced"]), (3, ["--advanced", "--actions"])],
)
def test_sim_json_summary(players: int, flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    data = sim_json(["sim", "--games", "6", "--players", str(players), *flags, "--seed", "9", "--json"], capsys)
    config = Config(players, advanced="--advanced" in flags, actions="--actions" in flags)
    games = random_games(config, range(9, 15))
    assert data["games"] == 6 and data["seed"] == 9
    assert (data["players"], data["advanced"], data["actions"]) == (players, config.advanced, config.actions)
    assert data["decisions"] == sum(len(g.history) for g in games)
    wins = data["wins_by_seat"]
    assert wins == [sum(seat in g.result.winners for g in games if g.result) for seat in range(players)]
    if config.advanced:
        assert sum(wins) >= 6  # R8.4: equal highest scores share the victory
    else:
        assert sum(wins) == 6  # R6.3: one round, one winner
    assert data["mean_turns"] == pytest.approx(sum(g.turns for g in games) / 6)
    assert data["mean_rounds"] == pytest.approx(sum(g.round for g in games) / 6)
    assert data["seconds"] > 0
    assert data["decisions_per_second"] == pytest.approx(data["decisions"] / data["seconds"], rel=0.01)
    assert data["games_per_second"] == pytest.approx(6 / data["seconds"], rel=0.01)
    assert data["turns_per_second"] == pytest.approx(data["mean_turns"] * 6 / data["seconds"], rel=0.01)


def test_sim_engine_fast_is_gone_with_a_word(capsys: pytest.CaptureFixture[str]) -> None:
    """``--engine fast`` once played other games than the reference for speed; every
    engine now plays the same games as fast, and the choice is refused, saying so."""
    code, _, err = run_main(["sim", "--games", "2", "--engine", "fast"], capsys)
    assert code == 2 and "'fast' is gone" in err and "as fast" in err
    assert_one_line_error(err)


def test_sim_same_seed_same_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "--games", "5", "--players", "3", "--advanced", "--actions", "--seed", "42", "--json"]
    first = sim_json(argv, capsys)
    second = sim_json(argv, capsys)

    def strip(d: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in d.items() if k not in TIMING_KEYS}

    assert strip(first) == strip(second)
    assert {"games", "decisions", "wins_by_seat", "mean_turns"} <= set(strip(first))


def test_sim_without_a_seed_draws_one_and_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    first = sim_json(["sim", "--games", "3", "--json"], capsys)
    second = sim_json(["sim", "--games", "3", "--json"], capsys)
    assert first["seed"] != second["seed"]
    again = sim_json(["sim", "--games", "3", "--seed", str(first["seed"]), "--json"], capsys)
    assert (again["decisions"], again["wins_by_seat"]) == (first["decisions"], first["wins_by_seat"])


def test_sim_seed_changes_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    """Over 10 games, two different seeds giving the same decision count would be a
    coincidence; the seed must reach the deal."""
    a = sim_json(["sim", "--games", "10", "--players", "4", "--seed", "1", "--json"], capsys)
    b = sim_json(["sim", "--games", "10", "--players", "4", "--seed", "1000", "--json"], capsys)
    assert (a["decisions"], a["wins_by_seat"], a["mean_turns"]) != (b["decisions"], b["wins_by_seat"], b["mean_turns"])


def test_sim_without_json_prints_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(["sim", "--games", "2", "--seed", "1"], capsys)
    assert code == 0 and "games" in out and "wins_by_seat" in out
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


@pytest.mark.parametrize(
    "argv",
    [
        ["sim", "--players", "5", "--games", "2"],
        ["sim", "--players", "1", "--games", "2"],
        ["sim", "--games", "0"],
        ["sim", "--games", "-3"],
        ["sim", "--games", "abc"],
        ["sim", "--seed", "x1"],
        ["play", "--players", "5"],
        ["sim", "--bogus"],
        ["frobnicate"],
    ],
)
def test_bad_options_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(argv, capsys)
    assert code == 2
    assert "error" in err and "Traceback" not in err
    assert out == ""


def test_bad_players_names_the_allowed_range(capsys: pytest.CaptureFixture[str]) -> None:
    """R2.1: 2 to 4 players."""
    code, _, err = run_main(["sim", "--players", "5"], capsys)
    assert code == 2 and "2 to 4" in err


def test_bad_option_through_the_console_script(tmp_path: Path) -> None:
    proc = run_script(["sim", "--games", "abc"], tmp_path)
    assert proc.returncode == 2
    assert "abc" in proc.stderr and "Traceback" not in proc.stderr


# --- replay -----------------------------------------------------------------------------


def test_replay_good_record_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = finished_game(seed=3, players=3, advanced=True, actions=True)
    path = save(game, tmp_path / "good.json")
    code, out, err = run_main(["replay", str(path)], capsys)
    assert code == 0, err
    assert err == ""
    assert str(len(game.history)) in out


def test_replay_show_lists_every_decision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = finished_game(seed=4)
    path = save(game, tmp_path / "good.json")
    code, out, _ = run_main(["replay", "--show", str(path)], capsys)
    assert code == 0
    for text in to_record(game)["decisions"]:
        assert text in out
    # who decided, and the decision in words beside its notation (issue 48, item 19)
    first_seat, first = game.history[0]
    assert f"   1. Player {first_seat + 1}: " in out and f"[{first}]" in out


def test_replay_unfinished_record_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(2, seed=3)
    game.apply(game.safe_actions()[0])
    path = save(game, tmp_path / "partial.json")
    code, out, _ = run_main(["replay", str(path)], capsys)
    assert code == 0 and "not finished" in out


def _bad_records(tmp_path: Path) -> dict[str, Path]:
    game = finished_game(seed=3)
    good = to_record(game)
    text = json.dumps(good, indent=1)
    (tmp_path / "truncated.json").write_text(text[: len(text) // 2], encoding="utf-8")
    (tmp_path / "notjson.json").write_text("this is not a record\n", encoding="utf-8")
    # json recurses once per level: this overflowed the interpreter's stack (a traceback)
    (tmp_path / "nested.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    illegal = dict(good, decisions=["end"], result=None)  # R4.6: no 'end' at the start of a turn
    write_record(tmp_path / "illegal.json", illegal)
    wrong = dict(good, result=dict(good["result"], winners=[1 - good["result"]["winners"][0]]))
    write_record(tmp_path / "wrong_result.json", wrong)
    write_record(tmp_path / "list.json", [1, 2])  # type: ignore[arg-type]
    write_record(tmp_path / "null_result.json", dict(good, result=None))
    return {
        "null_result": tmp_path / "null_result.json",
        "truncated": tmp_path / "truncated.json",
        "notjson": tmp_path / "notjson.json",
        "nested": tmp_path / "nested.json",
        "illegal": tmp_path / "illegal.json",
        "wrong_result": tmp_path / "wrong_result.json",
        "list": tmp_path / "list.json",
        "missing": tmp_path / "missing.json",
    }


@pytest.mark.parametrize(
    "kind", ["truncated", "notjson", "nested", "illegal", "wrong_result", "list", "missing", "null_result"]
)
def test_replay_bad_record_exits_2_with_one_line(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _bad_records(tmp_path)[kind]
    code, out, err = run_main(["replay", str(path)], capsys)
    assert code == 2
    assert_one_line_error(err)
    if kind == "illegal":
        assert "decision 1" in err
    if kind in ("missing", "truncated", "notjson", "nested"):
        assert path.name in err
    if kind == "truncated":
        assert "at at" not in err
    if kind == "null_result":  # the game the decisions play is over, the record says it is not
        assert "claims no result" in err and "finish the game" in err


def test_replay_counts_players_from_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Screens call the first seat "player 1"; so does replay --check (it said "won by player 0"),
    in the language asked (issue 48, item 19)."""
    game = next(g for g in map(finished_game, range(1, 50)) if g.result and g.result.winners == (0,))
    path = save(game, tmp_path / "good.json")
    code, out, _ = run_main(["replay", "--check", str(path)], capsys)
    assert code == 0
    assert out == f"The record replays correctly: {len(game.history)} decisions. Player 1 won the game!\n"
    code, out, _ = run_main(["replay", "--check", "--lang", "pt-BR", str(path)], capsys)
    assert out == f"O registro se repete corretamente: {len(game.history)} decisões. Jogador 1 venceu o jogo!\n"
    write_record(path, dict(to_record(game), result=dict(to_record(game)["result"], winners=[1])))
    code, _, err = run_main(["replay", "--check", str(path)], capsys)
    assert code == 2
    assert "result (won by player 2 in 1 round) differs from the replayed one (won by player 1 in 1 round)" in err
    assert "player 0" not in err


@pytest.mark.parametrize("kind", ["truncated", "nested", "illegal", "missing"])
def test_replay_bad_record_through_the_console_script(kind: str, tmp_path: Path) -> None:
    path = _bad_records(tmp_path)[kind]
    proc = run_script(["replay", str(path)], tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert_one_line_error(proc.stderr)


def test_replay_good_record_through_the_console_script(tmp_path: Path) -> None:
    path = save(finished_game(seed=5, players=4, actions=True), tmp_path / "good.json")
    proc = run_script(["replay", str(path)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


# --- play -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "flags"), [(7, ["--players", "2"]), (8, ["--players", "3", "--advanced", "--actions"])]
)
def test_play_through_stdin_finishes_and_saves_a_replayable_record(seed: int, flags: list[str], tmp_path: Path) -> None:
    """Always answering '1' (the first legal decision, which always exists because
    concede is always legal, R4.2.4; offered last, so the first once nothing else is),
    and 'y' when asked to confirm, must finish the game and save its record."""
    target = tmp_path / "out" / "game.json"
    proc = run_script(["play", *flags, "--seed", str(seed), "--save", str(target)], tmp_path, stdin="1\ny\n" * 5000)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert target.exists(), proc.stdout[-2000:]
    record = json.loads(target.read_text(encoding="utf-8"))
    assert record["seed"] == seed
    assert record["result"] is not None
    assert record["decisions"]
    check = run_script(["replay", str(target)], tmp_path)
    assert check.returncode == 0, check.stderr


def test_play_with_closed_stdin_exits_0_without_traceback(tmp_path: Path) -> None:
    proc = run_script(["play", "--seed", "7"], tmp_path)
    assert proc.returncode == 0
    assert "Traceback" not in proc.stderr and proc.stderr == ""
    assert "Red7" in proc.stdout


def test_play_in_process_rejects_bad_input_then_continues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bad answers (unknown notation, out-of-range number) are reported and asked
    again; 'quit' stops without an error."""
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("fly\n999\n0\nquit\n"))
    code, out, err = run_main(["play", "--seed", "7", "--save", str(tmp_path / "g.json")], capsys)
    assert code == 0 and err == ""
    assert "'fly' is not a decision: type a number from 1 to" in out
    assert out.count("Choose a number from 1 to") == 2
    assert not (tmp_path / "g.json").exists()


# --- bench ------------------------------------------------------------------------------


def test_bench_json_reports_both_configurations(capsys: pytest.CaptureFixture[str]) -> None:
    """Each configuration on each engine in use, the reference first: its ratio is 1."""
    code, out, err = run_main(["bench", "--seconds", "0.05", "--repeat", "1", "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    engines = ["python", "native"] if native_available() else ["python"]
    assert isinstance(report, list) and len(report) == 2 * len(engines)
    assert [row["engine"] for row in report] == engines * 2
    assert len({row["config"] for row in report}) == 2
    for row in report:
        assert isinstance(row["games_per_second"], (int, float)) and row["games_per_second"] > 0
        assert row["turns_per_second"] > row["games_per_second"]
        assert row["repeats"] == 1
        if row["engine"] == "python":
            assert row["ratio"] == 1.0
        else:  # the compiled engine, measured beside the reference in the same run
            assert row["ratio"] > 1


def test_bench_rejects_non_positive_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["bench", "--seconds", "0", "--repeat", "1"], capsys)
    assert code == 2
    assert_one_line_error(err)


def test_bench_times_a_bot_per_decision(capsys: pytest.CaptureFixture[str]) -> None:
    """`red7 bench --bot` reports the bot's own decisions: count, mean, median, p99, max."""
    assert main(["bench", "--bot", "ismcts:iters=20", "--games", "2", "--players", "3", "--seed", "4", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["bot"] == "ismcts:iters=20" and row["players"] == 3 and row["games"] == 2
    bots = [make_bot("ismcts:iters=20"), make_bot("medium"), make_bot("medium")]
    assert row["decisions"] == sum(play_game(bots, seed, Config(3)).decisions[0] for seed in (4, 5)) > 0
    assert 0 <= row["median_ms"] <= row["p99_ms"] <= row["max_ms"]


def test_bench_rejects_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--bot", "nobody"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown bot 'nobody'" in err


# --- play: seats and languages ------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--bots", "easy,hard", "--players", "4"],
            "--bots: 2 bots for 4 players, that is 1 person (you) and 3 bot seats; give 1 bot for all of them or 3, "
            "one per seat, or add --hotseat so that the 2 seats without a bot are people",
        ),
        (
            ["--bots", "easy,hard", "--players", "2"],
            "--bots: 2 bots for 2 players, that is 1 person (you) and 1 bot seat; give 1 bot, or use --players 3",
        ),
        (
            ["--bots", "easy,medium,hard,hard"],
            "--bots: 4 bots and you make 5 players, but Red7 is played by 2 to 4; give at most 3 bots",
        ),
        (
            ["--hotseat", "--bots", "easy,medium,hard,hard"],
            "--bots: 4 bots and at least 1 person make 5 players, but Red7 is played by 2 to 4; give at most 3 bots",
        ),
        (
            ["--hotseat", "--players", "2", "--bots", "easy,easy"],
            "--bots: 2 bots at a table of 2 players leave no seat for a person (with --hotseat the seats without a "
            "bot are people, at least 1); give at most 1 bot, or use --players 3",
        ),
        (["--bots", "easy,,hard"], "--bots: empty bot spec"),
        (["--players", "2", "--hotseat", "--bots", ""], "--bots: empty bot spec"),
        (["--bots", ""], "--bots: empty bot spec"),
        (["--bots", "wizard"], "--bots: "),
        (["--hotseat", "--names", "Ana,Bia,Caio"], "--names: 3 names for 2 person(s)"),
        (["--delay", "-1"], "--delay must be between 0 and 10 seconds"),
    ],
)
def test_play_refuses_bad_seats_in_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Each mistake says how many players, people and bots it makes and what would work
    (five bots used to end in a GameError traceback, an empty --bots meant no bots)."""
    code, out, err = run_main(["play", "--text", *argv], capsys)
    assert code == 2 and out == ""
    assert_one_line_error(err)
    assert message in err


@pytest.mark.parametrize(
    ("argv", "people", "specs"),
    [
        ([], 1, ["medium"]),
        (["--players", "4"], 1, ["medium"] * 3),
        (["--players", "3", "--bots", "easy"], 1, ["easy", "easy"]),
        (["--bots", "easy,hard"], 1, ["easy", "hard"]),
        (["--hotseat"], 2, []),
        (["--hotseat", "--players", "3"], 3, []),
        (["--hotseat", "--bots", "easy"], 1, ["easy"]),
        (["--hotseat", "--bots", "easy,hard"], 1, ["easy", "hard"]),
        (["--hotseat", "--players", "4", "--bots", "easy"], 3, ["easy"]),
    ],
)
def test_play_seats_follow_the_rules_of_the_help(argv: list[str], people: int, specs: list[str]) -> None:
    """The seat rules --help states: without --hotseat one person and the bots in every
    other seat (one spec for all, or one each; medium by default); with --hotseat one
    bot per spec and people in the other seats; --players by default one more than the
    bots given, at least 2."""
    from red7.cli.play import table_maker

    table = table_maker(build_parser().parse_args(["play", *argv]))(1)
    assert table.people == list(range(people))
    assert [s.spec for s in table.seats[people:]] == specs


def test_play_help_states_the_seat_rules(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "Without --hotseat you are the one person and the bots fill the other seats" in help_text
    assert "give one spec for every bot seat or one per bot seat (default medium)" in help_text
    assert "With --hotseat each spec is one bot (default none) and the other seats are people" in help_text
    assert "2 to 4 players in all" in help_text
    assert "the seats without a bot are people (at least one)" in help_text


def test_a_hotseat_of_people_only_plays_in_text(tmp_path: Path) -> None:
    """`red7 play --text --players 3 --hotseat`: three people, no bot (it once named the
    people as bots and stopped with "GameError: it is not a bot's turn")."""
    target = tmp_path / "g.json"
    proc = run_script(
        ["play", "--text", "--players", "3", "--hotseat", "--seed", "4", "--save", str(target)],
        tmp_path,
        stdin="1\ny\n" * 3000,
    )
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert proc.stdout.startswith("Red7 — Player 1, Player 2, Player 3. Seed 4.")
    assert "Bot" not in proc.stdout
    assert json.loads(target.read_text(encoding="utf-8"))["result"] is not None


def unwritable_directory(tmp_path: Path) -> Path:
    """A directory in which no file can be created: a read-only one, or for root (whom
    permission bits do not stop) /sys, where not even root creates files."""
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o555)
        return locked
    if not Path("/sys/kernel").is_dir():
        pytest.skip("no directory that root cannot write to")
    return Path("/sys")


@pytest.mark.parametrize("where", ["parent is a file", "a directory", "unwritable", "parent under a file", "empty"])
def test_play_checks_save_before_the_game(where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--save is checked before the first decision, with the true reason (it was checked
    only when the game ended: "File exists", and the record was lost)."""
    (tmp_path / "hostname").write_text("x\n", encoding="utf-8")
    path, reason = {
        "parent is a file": (tmp_path / "hostname" / "x.json", f"{tmp_path / 'hostname'} is not a directory"),
        "parent under a file": (tmp_path / "hostname" / "a" / "x.json", f"{tmp_path / 'hostname'} is not a directory"),
        "a directory": (tmp_path, f"{tmp_path} is a directory"),
        "unwritable": (unwritable_directory(tmp_path) / "g.json", "no file can be created in "),
        "empty": (Path(""), "the file name is empty"),
    }[where]
    argv = ["play", "--text", "--seed", "3", "--save", "" if where == "empty" else str(path)]
    code, out, err = run_main(argv, capsys)
    assert code == 2 and out == "", out[:200]  # no game began
    assert_one_line_error(err)
    assert reason in err
    if where != "empty":
        assert f"--save: cannot save the record to {path}: " in err


def test_play_saves_into_directories_it_makes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A --save whose directories do not exist yet passes the check, and they are made
    when the record is written."""
    import io

    target = tmp_path / "new" / "deeper" / "g.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\ny\n" * 3000))
    code, _, err = run_main(["play", "--text", "--seed", "3", "--save", str(target)], capsys)
    assert code == 0 and err == ""
    assert json.loads(target.read_text(encoding="utf-8"))["result"] is not None


def test_play_refuses_an_unknown_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["play", "--lang", "fr"], capsys)
    assert code == 2
    assert "language 'fr' is not available; choose one of: en, pt-BR" in err


def test_play_seats_people_first_then_the_bots() -> None:
    from red7.cli.play import table_maker

    args = build_parser().parse_args(["play", "--hotseat", "--players", "4", "--bots", "hard", "--names", "Ana"])
    table = table_maker(args)(7)
    assert [s.name for s in table.seats] == ["Ana", "", "", ""]
    assert [s.spec for s in table.seats] == [None, None, None, "hard"]
    assert table.people == [0, 1, 2] and table.seed == 7
    args = build_parser().parse_args(["play", "--bots", "easy,medium,hard"])
    table = table_maker(args)(None)
    assert table.game.players == 4 and [s.spec for s in table.seats] == [None, "easy", "medium", "hard"]


def test_the_text_game_speaks_portuguese(tmp_path: Path) -> None:
    proc = run_script(
        ["play", "--lang", "pt-BR", "--seed", "7", "--save", str(tmp_path / "g.json")], tmp_path, stdin="1\ny\n" * 500
    )
    assert proc.returncode == 0, proc.stderr
    assert "Sua mão: " in proc.stdout and "Vencendo: " in proc.stdout


def test_output_cut_short_by_its_reader_ends_quietly(tmp_path: Path) -> None:
    """`red7 play --text | head -1`: when whoever reads the output goes away, the command
    stops with exit code 1 and no traceback (a BrokenPipeError used to end the text
    game with one)."""
    program = "import sys; from red7.cli import main; sys.exit(main(['play', '--text', '--seed', '3']))"
    proc = subprocess.Popen(
        [sys.executable, "-c", program],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)},
    )  # fmt: skip
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith(b"Red7")
    proc.stdout.close()  # the reader leaves; the game goes on answering "1" to every question
    _, err = proc.communicate(b"1\ny\n" * 300, timeout=60)
    assert b"Traceback" not in err and proc.returncode == 1


def test_play_save_refuses_to_replace_a_file_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: --save of a file that exists is refused before the game (it was
    silently replaced); --force replaces it."""
    import io

    target = tmp_path / "g.json"
    target.write_text("mine\n", encoding="utf-8")
    code, out, err = run_main(["play", "--text", "--seed", "3", "--save", str(target)], capsys)
    assert code == 2 and out == ""
    assert_one_line_error(err)
    assert f"--save: {target} exists; give another file, or add --force" in err
    assert target.read_text(encoding="utf-8") == "mine\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\ny\n" * 3000))
    code, _, err = run_main(["play", "--text", "--seed", "3", "--save", str(target), "--force"], capsys)
    assert code == 0 and err == ""
    assert json.loads(target.read_text(encoding="utf-8"))["result"] is not None


@pytest.mark.parametrize(
    ("names", "says"),
    [
        ("Ana,ana", "--names: Ana and ana are the same name"),
        ("Ana, ANA ", "--names: Ana and ANA are the same name"),
        ("A" * 25 + ",Bia", "is not a name of up to 24 printable characters"),
        ("Bot 2,Bia", "--names: names like Bot 2 are the table's"),
        ("Ana,Você", "--names: names like Você are the table's"),
    ],
)
def test_hotseat_names_follow_the_web_rules(names: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 34: hotseat names are unique (case aside) and at most 24 characters, as on the web."""
    code, out, err = run_main(["play", "--text", "--hotseat", "--players", "2", "--names", names], capsys)
    assert code == 2 and out == ""
    assert_one_line_error(err)
    assert says in err


def test_command_line_errors_and_help_follow_the_locale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: argparse's own words ("usage:", "options", "the following arguments are
    required") and red7's error line come from the catalogs: the locale's language, or
    --lang's."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    code, out, err = run_main(["replay"], capsys)
    assert code == 2 and out == ""
    assert err == "red7: erro: os seguintes argumentos são obrigatórios: file (veja red7 replay --help)\n"
    code, out, err = run_main(["play", "--delay", "-1"], capsys)
    assert code == 2 and err.startswith("red7: erro: --delay precisa estar entre 0 e 10 segundos, não -1.0")
    code, out, err = run_main(["play", "--text", "--hotseat", "--players", "2", "--names", "Ana,ANA"], capsys)
    assert code == 2 and err == "red7: erro: --names: Ana e ANA são o mesmo nome: dê a cada pessoa o seu\n"
    monkeypatch.setenv("LANG", "C.UTF-8")
    code, out, _ = run_main(["play", "--lang", "pt-BR", "--help"], capsys)
    assert code == 0 and out.startswith("uso: red7 play") and "\nopções:\n" in out and "mostra esta ajuda e sai" in out
    assert "permitir que --save substitua um arquivo que já existe" in " ".join(out.split())  # red7's own help
    code, out, _ = run_main(["play", "--help"], capsys)
    assert code == 0 and out.startswith("usage: red7 play") and "\noptions:\n" in out


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ([], "O jogo de cartas Red7."),
        ([], "mostra a versão do programa e sai"),  # argparse's own help of --version
        (["serve"], "a porta (padrão 8000; variável RED7_PORT)"),
        (["tournament"], "jogos por mesa, arredondados para baixo"),
        (["analyse"], "o bot que estima (padrão: hard)"),
        (["replay"], "com --check, mostrar cada decisão"),
        (["stats"], "Com um bot, ele ocupa todos os lugares"),  # the commands' descriptions too
        (["tournament"], "Os resultados dependem só de --seed."),
        (["analyse"], "cada decisão é avaliada exatamente"),
    ],
)
def test_every_commands_help_follows_the_locale(
    command: list[str], says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: red7's own option texts come from the catalogs too."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    code, out, _ = run_main([*command, "--help"], capsys)
    assert code == 0 and out.startswith("uso: red7") and says in " ".join(out.split())


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["tournament", "--bots", "wizard"], "--bots: bot desconhecido 'wizard': escolha um de easy, medium, hard"),
        (["tournament", "--bots", "easy", "--players", "3"], "1 bot(s) não preenchem uma mesa de 3 jogadores"),
        (["tournament", "--bots", "easy,hard", "--games", "1"], "--games 1 é menos que os 2 rodízios de lugares"),
        (["stats", "--bots", "easy,easy,easy"], "--bots: dê um bot (ele ocupa todos os lugares) ou 2 bots"),
        (["stats", "--bots", "easy,,hard"], "--bots: uma especificação de bot vazia (duas vírgulas seguidas?)"),
        (["sim", "--games", "0"], "argumento --games: '0' não é um inteiro positivo"),
        (["sim", "--seed", "x"], "argumento --seed: 'x' não é uma semente inteira"),
        (["sim", "--engine", "fast"], "argumento --engine: 'fast' não existe mais"),
        (
            ["sim", "--seed", "-5", "--engine", "native"],
            "o motor compilado aceita sementes de 0 a 2**64 - 1"
            if native_available()
            else "o motor 'native' precisa do motor compilado, que não está em uso: desligado por RED7_NATIVE=0",
        ),
        (["bench", "--seconds", "0"], "--seconds precisa ser um número de segundos entre 0 e 3600, não 0.0"),
        (["bench", "--bot", "greedy:worlds=2.5"], "--bot: a opção worlds=2.5 precisa ser um número inteiro de mundos"),
        (["bench", "--bot", "pimc:model=2"], "--bot: a opção model=2 precisa ser 0 ou 1"),
        (["bench", "--bot", "ismcts:steps"], "--bot: opção inválida 'steps' em 'ismcts:steps': escreva chave=valor"),
        (["analyse", "x.json", "--budget=-1"], "argumento --budget: -1 não é um número de segundos (0 ou mais)"),
        (["serve", "--port", "0"], "--port precisa estar entre 1 e 65535, não 0"),
        (["serve", "--host", "nowhere"], "--host precisa ser um endereço IP (ou localhost), não 'nowhere'"),
        (["serve", "--log-format", "xml"], "argumento --log-format: escolha inválida: 'xml'"),
        (["serve", "--database-url", "nonsense://x"], "não é possível usar o banco de dados: "),
        (["serve", "--sockets", "0"], "--sockets precisa estar entre 1 e 10**9, não 0"),
        (["serve", "--tables-per-hour", "-1"], "--tables-per-hour precisa ser um número positivo, não -1.0"),
        (["serve", "--expire-open", "-5"], "--expire-open precisa ser 0 (nunca) ou um número de segundos, não -5.0"),
        (["serve", "--joins-per-hour", "0"], "--joins-per-hour precisa ser um número positivo, não 0.0"),
        (["serve", "--join-burst", "0"], "--join-burst precisa estar entre 1 e 10**9, não 0"),
        (["db", "upgrade", "--database-url", "nonsense://x"], "não é possível usar o banco de dados: "),
        (["play", "--players", "5"], "argumento --players: Red7 é jogado por 2 a 4 jogadores, não 5"),
        (["play", "--hint", "hard:x=1"], "--hint: o nível 'hard' não aceita opções; use um nome de bot como"),
        (["play", "--bots", "wizard"], "--bots: bot desconhecido 'wizard'"),
        (
            ["play", "--bots", "easy,hard", "--players", "4"],
            "--bots: 2 bots para 4 jogadores, isto é, 1 pessoa (você) e 3 lugares de bot; dê 1 bot para todos eles "
            "ou 3, um por lugar, ou acrescente --hotseat para que os 2 lugares sem bot sejam pessoas",
        ),
        (
            ["play", "--bots", "easy,hard", "--players", "2"],
            "--bots: 2 bots para 2 jogadores, isto é, 1 pessoa (você) e 1 lugar de bot; dê 1 bot, ou use --players 3",
        ),
        (
            ["play", "--hotseat", "--bots", "easy,medium,hard,hard"],
            "--bots: 4 bots e pelo menos 1 pessoa fazem 5 jogadores, mas Red7 é jogado por 2 a 4; dê no máximo 3 bots",
        ),
        (
            ["play", "--hotseat", "--players", "2", "--bots", "easy,easy"],
            "--bots: 2 bots numa mesa de 2 jogadores não deixam lugar para uma pessoa (com --hotseat os lugares sem "
            "bot são pessoas, pelo menos 1); dê no máximo 1 bot, ou use --players 3",
        ),
        (["play", "--lang", "fr"], "o idioma 'fr' não está disponível; escolha um de: en, pt-BR"),
    ],
)
def test_every_commands_errors_follow_the_locale(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: the errors of every command, the bots' and schedules' sentences within
    them included, are said in the locale's language: one line, exit code 2."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    monkeypatch.delenv("RED7_DATABASE_URL", raising=False)
    code, out, err = run_main(argv, capsys)
    assert code == 2 and out == "", err
    assert err.startswith("red7: erro: ") and len(err.strip().splitlines()) == 1, err
    assert says in err


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("RED7_PORT", "abc", "RED7_PORT='abc' não é válido: dê um número inteiro"),
        ("RED7_AWAY", "soon", "RED7_AWAY='soon' não é válido: dê um número"),
        ("RED7_ACCESS_LOG", "maybe", "RED7_ACCESS_LOG='maybe' não é válido: dê 1 ou 0 (yes ou no, true ou false"),
    ],
)
def test_a_bad_environment_variable_of_serve_is_said_in_the_locales_language(
    variable: str, value: str, says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The variables that set red7 serve's options: a bad value says what to give (it
    said "(_switch expected)"), in the locale's language."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    monkeypatch.setenv(variable, value)
    code, out, err = run_main(["serve"], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"red7: erro: {says}") and err.count("\n") == 1, err


def test_the_database_urls_the_store_reads_pass_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check of --database-url before anything starts reads a URL as the store does:
    postgres:// is PostgreSQL, although SQLAlchemy has no dialect of that name (here no
    server answers: the error is the connection's, not the URL's)."""
    monkeypatch.delenv("RED7_DATABASE_URL", raising=False)
    code, out, err = run_main(["db", "current", "--database-url", f"sqlite:///{tmp_path / 'r.db'}"], capsys)
    assert code == 0 and out == "red7: the database is at migration none (empty)\n", err
    code, out, err = run_main(["db", "current", "--database-url", "postgres://nobody@127.0.0.1:1/none"], capsys)
    assert code == 2 and err.startswith("red7: error: cannot use the database: ") and "plugin" not in err, err


def test_a_bot_spec_error_is_english_outside_the_cli() -> None:
    """The sentence a bot spec error carries is English (str(err)), its template and
    fields there for any interface to say it in its language."""
    from red7.bots import BotSpecError
    from red7.ui.i18n import error_text, using

    with pytest.raises(BotSpecError) as caught:
        make_bot("greedy:worlds=2.5")
    assert str(caught.value) == "option worlds=2.5 must be a whole number of worlds, from 1 to 64"
    with using("pt-BR"):
        assert error_text(caught.value) == "a opção worlds=2.5 precisa ser um número inteiro de mundos, de 1 a 64"
    assert error_text(ValueError("plain")) == "plain"


def test_a_localized_error_through_the_console_script(tmp_path: Path) -> None:
    """What a person sees: the pt-BR sentence, no traceback, exit code 2."""
    env_lang = {"LANG": "pt_BR.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    proc = subprocess.run(
        [str(RED7), "db", "current", "--database-url", "nonsense://x"],
        capture_output=True, text=True, timeout=60, env={**os.environ, **env_lang}, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("red7: erro: não é possível usar o banco de dados: ")


def test_a_bad_record_is_explained_in_the_locales_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: why a record cannot be replayed, analysed or resumed is said in the
    locale's language, the record's own fault included (it was English in pt-BR)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    other = write_record(tmp_path / "other.json", {"format": "other"})
    code, out, err = run_main(["replay", "--check", str(other)], capsys)
    assert code == 2 and out == ""
    because = "não é um registro do red7 (formato 'other')"
    assert err == f"red7: erro: {other} não é um registro do Red7 que possa ser reproduzido ({because})\n"
    finished = write_record(tmp_path / "finished.json", to_record(finished_game()))
    code, out, err = run_main(["play", "--text", "--resume", str(finished)], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"red7: erro: --resume: {finished} ") and "o jogo terminou: ele pode ser reproduzido" in err
    code, out, err = run_main(["analyse", "--exact", str(tmp_path / "none.json")], capsys)
    assert code == 2 and "não é possível ler o registro" in err, err
    code, out, err = run_main(["replay", "--check", str(_bad_records(tmp_path)["illegal"])], capsys)
    said = "(a decisão 1 ('end') não é permitida: uma decisão 'end' não cabe na etapa 'start' do turno (R4.2))\n"
    assert code == 2 and err.endswith(said), err
