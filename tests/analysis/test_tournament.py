"""``red7 tournament`` (src/red7/analysis/schedule.py, runner.py, tournament.py,
ray_backend.py; src/red7/cli/output.py, plots.py).

Scheduling (tables, seat rotations, rounding of --games), reproducibility whatever
--jobs or the backend, the summary's arithmetic, the files written to --out, and
every bad input ending with exit code 2, one line and nothing written.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from red7 import Game
from red7.analysis.measures import bootstrap_ratio, wilson
from red7.analysis.runner import GameRecord, GameTask, chunked, play_chunk, run
from red7.analysis.schedule import (
    Entrant,
    Schedule,
    ScheduleError,
    deal_seed,
    make_entrants,
    schedule,
    split_specs,
)
from red7.analysis.tournament import summarize_tournament
from red7.bots import BotSpecError
from red7.cli import main
from red7.core.model import Config
from red7.core.seeds import derive_seed
from tests.support.helpers import forbid_games, run_main

RED7 = Path(sys.executable).with_name("red7")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TIMING = ("seconds", "times")


def entrants(*labels: str) -> list[Entrant]:
    return [Entrant(label, label.split("#")[0]) for label in labels]


def untimed(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING} for r in results]


# --- entrants -------------------------------------------------------------------------


def test_split_specs_keeps_bot_options_together() -> None:
    assert split_specs("hard,medium,easy") == ["hard", "medium", "easy"]
    assert split_specs("ismcts:iters=20,c=1.5, random,ismcts:seconds=1") == [
        "ismcts:iters=20,c=1.5",
        "random",
        "ismcts:seconds=1",
    ]


def test_repeated_specs_get_numbered_labels() -> None:
    got = make_entrants(["random", "ismcts:iters=20", "Random", "random"])
    assert [e.label for e in got] == ["random", "ismcts:iters=20", "random#2", "random#3"]
    assert [e.spec for e in got] == ["random", "ismcts:iters=20", "random", "random"]


@pytest.mark.parametrize("spec", ["nobody", "ismcts:iters=0", "ismcts:iters=-5", "ismcts:iters=abc", "random:x=1", ""])
def test_bad_specs_raise_bot_spec_error(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_entrants(["random", spec])


# --- schedule -------------------------------------------------------------------------


def test_more_entrants_than_seats_play_every_combination() -> None:
    plan = schedule(entrants("hard", "medium", "easy"), config=Config(2), games=4, seed=1)
    assert [tuple(e.label for e in t) for t in plan.tables] == [
        ("hard", "medium"),
        ("hard", "easy"),
        ("medium", "easy"),
    ]
    assert len(plan.tasks) == 3 * 4
    assert [t.index for t in plan.tasks] == list(range(12))
    per_table = Counter(t.table for t in plan.tasks)
    assert per_table == {0: 4, 1: 4, 2: 4}


def test_four_entrants_three_seats() -> None:
    plan = schedule(entrants("a", "b", "c", "d"), config=Config(3), games=3, seed=1)
    assert len(plan.tables) == 4  # C(4, 3)
    assert all(len(t.seating) == 3 for t in plan.tasks)


def test_just_enough_entrants_make_one_table() -> None:
    plan = schedule(entrants("a", "b", "c"), config=Config(3), games=6, seed=1)
    assert len(plan.tables) == 1 and plan.rotations == 3 and plan.deals == 2


def test_every_deal_is_played_once_per_seat_rotation() -> None:
    plan = schedule(entrants("a", "b", "c", "d"), config=Config(4), games=8, seed=5)
    assert plan.deals == 2
    for deal in range(plan.deals):
        games = [t for t in plan.tasks if t.deal == deal]
        assert len(games) == 4
        assert len({t.seed for t in games}) == 1  # the same deal...
        for seat in range(4):  # ...with every entrant once in every seat
            assert sorted(t.seating[seat] for t in games) == ["a", "b", "c", "d"]
        assert len({t.seating for t in games}) == 4
    assert plan.tasks[0].seed != plan.tasks[4].seed  # different deals differ


def test_deal_seeds_come_from_the_seed_and_deal_index_only() -> None:
    plan = schedule(entrants("x", "y", "z"), config=Config(2), games=4, seed=9)
    by_table = [[t.seed for t in plan.tasks if t.table == table] for table in range(3)]
    assert by_table[0] == by_table[1] == by_table[2]  # every table plays the same deals
    assert by_table[0] == [deal_seed(9, 0)] * 2 + [deal_seed(9, 1)] * 2
    assert deal_seed(9, 0) == derive_seed(9, "deal", 0)  # the seeds' one derivation, stream "deal"
    assert deal_seed(9, 0) != deal_seed(10, 0)
    other = schedule(entrants("x", "y", "z"), config=Config(2), games=4, seed=9)
    assert other.tasks == plan.tasks


def test_games_rounded_down_to_whole_deals() -> None:
    plan = schedule(entrants("a", "b", "c"), config=Config(3), games=7, seed=0)
    assert plan.games_per_table == 6 and plan.deals == 2 and plan.rounded
    assert len(plan.tasks) == 6
    exact = schedule(entrants("a", "b"), config=Config(2), games=6, seed=0)
    assert not exact.rounded and exact.games_per_table == 6


@pytest.mark.parametrize(("players", "games"), [(2, 1), (3, 2), (4, 3)])
def test_fewer_games_than_rotations_is_refused(players: int, games: int) -> None:
    with pytest.raises(ScheduleError, match="seat rotations"):
        schedule(entrants("a", "b", "c", "d"), config=Config(players), games=games, seed=0)


def test_fewer_entrants_than_players_is_refused() -> None:
    with pytest.raises(ScheduleError, match="at least 3 bots"):
        schedule(entrants("a", "b"), config=Config(3), games=6, seed=0)


# --- running --------------------------------------------------------------------------


def test_results_identical_for_one_and_two_jobs() -> None:
    plan = schedule(
        make_entrants(["random", "random", "random"]), config=Config(3, advanced=True, actions=True), games=6, seed=11
    )
    calls: list[int] = []
    one = run(plan.tasks, jobs=1, progress=calls.append)
    two = run(plan.tasks, jobs=2)
    assert sum(calls) == len(plan.tasks)
    assert untimed(one) == untimed(two)
    assert [r["index"] for r in two] == list(range(len(plan.tasks)))
    assert summarize_untimed(plan, one) == summarize_untimed(plan, two)


def summarize_untimed(plan: Schedule, results: list[dict[str, Any]]) -> dict[str, Any]:
    summary = summarize_tournament(plan, results)
    for e in summary["entrants"]:
        del e["seconds"], e["seconds_per_decision"]
    return summary


def test_a_game_is_a_pure_function_of_its_task() -> None:
    plan = schedule(make_entrants(["random", "ismcts:iters=20"]), config=Config(2), games=2, seed=4)
    assert untimed(run(plan.tasks)) == untimed(run(plan.tasks))


class DecisionsSeen:
    """A measure counting the decisions its hook was shown (module-level: tasks pickle it)."""

    def __init__(self) -> None:
        self.seen: list[int] = []

    def before_decision(self, game: Game) -> None:
        self.seen.append(game.decisions)

    def result(self, game: Game) -> dict[str, Any]:
        return {"seen": self.seen, "decisions": game.decisions}


def test_a_task_measures_with_its_hook_before_every_decision() -> None:
    bots = make_entrants(["random", "greedy"])
    plain = run(schedule(bots, config=Config(2, advanced=True), games=4, seed=6).tasks)
    measured = schedule(bots, config=Config(2, advanced=True), games=4, seed=6, measure=DecisionsSeen)
    records = run(measured.tasks, jobs=2)  # the measure is pickled to the worker processes
    for r in records:
        decisions = sum(r["decisions"])
        # the hook saw the game before each decision: 0, 1, 2... decisions made so far
        assert r.pop("analysis") == {"seen": list(range(decisions)), "decisions": decisions}
    assert untimed(records) == untimed(plain)  # measuring changes no game
    assert "analysis" not in plain[0]


def test_any_backend_gives_the_same_records_in_game_order() -> None:
    plan = schedule(make_entrants(["random", "random"]), config=Config(2, actions=True), games=8, seed=2)

    def backwards(tasks: Sequence[GameTask], jobs: int) -> Iterator[list[GameRecord]]:
        for chunk in reversed(chunked(tasks, jobs)):
            yield play_chunk(chunk)

    assert untimed(run(plan.tasks, jobs=2, backend=backwards)) == untimed(run(plan.tasks))


def test_a_backend_losing_a_game_is_an_error() -> None:
    plan = schedule(make_entrants(["random", "random"]), config=Config(2), games=4, seed=2)

    def lossy(tasks: Sequence[GameTask], jobs: int) -> Iterator[list[GameRecord]]:
        yield play_chunk(tasks[1:])

    with pytest.raises(RuntimeError, match="lost or duplicated"):
        run(plan.tasks, backend=lossy)
    with pytest.raises(ValueError, match="jobs"):
        run(plan.tasks, jobs=0)


@pytest.mark.slow  # starts a Ray cluster
def test_ray_backend_gives_the_local_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tiny tournament on a local Ray instance (2 CPUs), started and shut down by the run."""
    import ray  # the red7[ray] extra is part of the test-full extra

    argv = ["tournament", "--bots", "random,ismcts:iters=20", "--games", "4", "--seed", "3"]
    code, _, err = run_main([*argv, "--jobs", "1", "--out", str(tmp_path / "local")], capsys)
    assert code == 0, err
    code, out, err = run_main([*argv, "--jobs", "2", "--backend", "ray", "--out", str(tmp_path / "ray")], capsys)
    assert code == 0, err
    assert "ray backend" in out
    assert not ray.is_initialized()
    local = json.loads((tmp_path / "local" / "results.json").read_text())
    remote = json.loads((tmp_path / "ray" / "results.json").read_text())
    assert untimed(local["games"]) == untimed(remote["games"])
    assert remote["config"]["backend"] == "ray"


# --- summary --------------------------------------------------------------------------


def fake_game(index: int, seating: list[str], winners: list[int], ranks: list[int]) -> dict[str, Any]:
    n = len(seating)
    return {
        "index": index,
        "deal": index // n,  # one game per seat rotation of each deal
        "seating": seating,
        "winners": winners,
        "ranks": ranks,
        "decisions": [2] * n,
        "seconds": [0.2] * n,
        "times": [[0.05, 0.15]] * n,
    }


def test_summary_counts_shared_victories_as_fractions() -> None:
    plan = schedule(entrants("a", "b"), config=Config(2), games=4, seed=0)
    results = [
        fake_game(0, ["a", "b"], [0], [1, 2]),
        fake_game(1, ["b", "a"], [1], [2, 1]),
        fake_game(2, ["a", "b"], [0, 1], [1, 1]),  # a shared victory (R8.4)
        fake_game(3, ["b", "a"], [0], [1, 2]),
    ]
    s = summarize_tournament(plan, results)
    a, b = s["entrants"]
    assert (a["games"], a["wins"], a["win_rate"]) == (4, 2.5, 0.625)
    assert (b["games"], b["wins"]) == (4, 1.5)
    assert [seat["wins"] for seat in a["seats"]] == [1.5, 1.0]
    assert [seat["games"] for seat in a["seats"]] == [2, 2]
    assert [seat["wins"] for seat in s["seats"]] == [2.5, 1.5]
    assert a["ci95_wilson"] == pytest.approx(wilson(2.5, 4), abs=1e-6)
    # deal 0 (games 0, 1): a wins 2 of 2; deal 1 (games 2, 3): 0.5 of 2
    assert a["ci95"] == pytest.approx(bootstrap_ratio([2, 0.5], [2, 2], seed=0), abs=1e-6)
    (pair,) = s["pairings"]
    assert (pair["a"], pair["b"], pair["games"], pair["wins"], pair["b_wins"]) == ("a", "b", 4, 2.5, 1.5)
    assert a["rating"]["mu"] > b["rating"]["mu"]
    assert a["rating"]["ordinal"] == pytest.approx(a["rating"]["mu"] - 3 * a["rating"]["sigma"], abs=1e-3)
    assert a["seconds_per_decision"]["mean"] == pytest.approx(0.1)
    assert a["seconds_per_decision"]["p99"] == pytest.approx(0.15)  # 8 times: four 0.05s, four 0.15s
    assert s["p99_basis"] == "every decision"


def test_intervals_resample_deals_not_games() -> None:
    """When both games of every deal go the same way (the deal decided), the games carry
    half the information: the interval over deals is wider than Wilson's over games."""
    plan = schedule(entrants("a", "b"), config=Config(2), games=120, seed=3)
    results = []
    for deal in range(60):
        winner_label = "a" if deal % 3 else "b"  # the deal's cards decide
        for rotation, seating in enumerate((["a", "b"], ["b", "a"])):
            w = seating.index(winner_label)
            results.append(fake_game(2 * deal + rotation, seating, [w], [1 if s == w else 2 for s in range(2)]))
    s = summarize_tournament(plan, results)
    a = s["entrants"][0]
    (pair,) = s["pairings"]
    assert a["win_rate"] == pytest.approx(2 / 3) and pair["ci95"] == a["ci95"]
    width = a["ci95"][1] - a["ci95"][0]
    assert width > 1.25 * (a["ci95_wilson"][1] - a["ci95_wilson"][0])


def test_head_to_head_in_a_three_player_table_uses_ranks() -> None:
    plan = schedule(entrants("a", "b", "c"), config=Config(3), games=3, seed=0)
    s = summarize_tournament(
        plan, [fake_game(0, ["a", "b", "c"], [2], [2, 3, 1]), fake_game(1, ["b", "c", "a"], [0], [1, 2, 2])]
    )
    scores = {(p["a"], p["b"]): (p["games"], p["wins"]) for p in s["pairings"]}
    assert scores == {("a", "b"): (2, 1.0), ("a", "c"): (2, 0.5), ("b", "c"): (2, 1.0)}


def test_wilson_interval() -> None:
    lo, hi = wilson(7, 10)
    assert lo == pytest.approx(0.3968, abs=1e-4) and hi == pytest.approx(0.8922, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(3, 10)[0] == pytest.approx(1 - wilson(7, 10)[1])


# --- the command, end to end -------------------------------------------------------------


def test_tournament_writes_results_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "results" / "run1"
    argv = [
        "tournament",
        "--bots",
        "random,ismcts:iters=20,random",
        "--players",
        "2",
        "--games",
        "5",
        "--seed",
        "7",
        "--jobs",
        "1",
        "--out",
        str(out_dir),
    ]
    code, out, err = run_main(argv, capsys)
    assert code == 0, err
    assert "Traceback" not in err
    assert "rounded" in out or "not a multiple" in out  # 5 games -> 4 per table, said so
    for label in ("random", "random#2", "ismcts:iters=20"):
        assert label in out
    assert sorted(p.name for p in out_dir.iterdir()) == ["ratings.png", "results.json", "win_rate_by_seat.png"]
    assert sorted(p.name for p in out_dir.parent.iterdir()) == ["run1"]  # no staging left behind
    for png in ("ratings.png", "win_rate_by_seat.png"):
        assert (out_dir / png).read_bytes()[:8] == PNG_MAGIC
    doc = json.loads((out_dir / "results.json").read_text())
    assert doc["config"]["seed"] == 7 and doc["config"]["games_per_table"] == 4
    assert doc["config"]["bots"] == ["random", "ismcts:iters=20", "random"]
    assert [e["label"] for e in doc["entrants"]] == ["random", "ismcts:iters=20", "random#2"]
    assert len(doc["tables"]) == 3 and len(doc["games"]) == 12
    for i, game in enumerate(doc["games"]):
        assert game["index"] == i
        assert {"seating", "seed", "winners", "ranks", "decisions", "seconds"} <= set(game)
        assert len(game["seating"]) == len(game["ranks"]) == len(game["decisions"]) == 2
        assert all(game["ranks"][w] == 1 for w in game["winners"])
    summary = doc["summary"]
    assert summary["games"] == 12
    assert sum(e["wins"] for e in summary["entrants"]) == pytest.approx(12)
    assert all(e["games"] == 8 for e in summary["entrants"])
    assert {(p["a"], p["b"]) for p in summary["pairings"]} == {
        ("random", "ismcts:iters=20"),
        ("random", "random#2"),
        ("ismcts:iters=20", "random#2"),
    }


def test_tournament_into_an_existing_directory_keeps_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    code, _, err = run_main(
        ["tournament", "--bots", "random,random", "--games", "2", "--seed", "1", "--out", str(tmp_path)], capsys
    )
    assert code == 0, err
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert (tmp_path / "results.json").exists()


# --- bad input --------------------------------------------------------------------------


def assert_one_line_error(err: str, *needles: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("red7: error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, err


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--bots", "random,nobody"], "unknown bot"),
        (["--bots", "random,ismcts:iters=0"], "positive"),
        (["--bots", "random,ismcts:iters=abc"], "not a number"),
        (["--bots", "random,ismcts:seconds=-1"], "positive"),
        (["--bots", "random,random", "--games", "1"], "seat rotations"),
        (["--bots", "random,random,random", "--players", "3", "--games", "2"], "seat rotations"),
        (["--bots", "random,random", "--players", "3"], "at least 3 bots"),
        (["--bots", "random,random", "--players", "5"], "2 to 4"),
        (["--bots", "random,random", "--players", "1"], "2 to 4"),
        (["--bots", "random,random", "--jobs", "0"], "--jobs"),
        (["--bots", "random,random", "--jobs", "-2"], "--jobs"),
        (["--bots", "random,random", "--games", "0"], "--games"),
        (["--bots", "random,random", "--backend", "mpi"], "--backend"),
        (["--games", "4"], "--bots"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    extra: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "out"
    code, out, err = run_main(["tournament", *extra, "--out", str(out_dir)], capsys)
    assert code == 2
    assert_one_line_error(err, needle)
    assert out == ""
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_out_under_a_file_fails_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    forbid_games(monkeypatch)
    (tmp_path / "file").write_text("x")
    for target in (tmp_path / "file" / "out", tmp_path / "file", tmp_path / "file" / "a" / "b"):
        code, out, err = run_main(
            ["tournament", "--bots", "random,random", "--games", "2", "--out", str(target)], capsys
        )
        assert code == 2
        assert_one_line_error(err, "--out", str(tmp_path / "file"))
        assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_a_failure_while_writing_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import red7.cli.plots

    def broken(summary: object, directory: Path) -> list[str]:
        (directory / "ratings.png").write_bytes(b"half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(red7.cli.plots, "tournament_plots", broken)
    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "results.json").write_text("old")
    for target in (tmp_path / "new", existing):
        code, _, err = run_main(
            ["tournament", "--bots", "random,random", "--games", "2", "--seed", "1", "--out", str(target)], capsys
        )
        assert code == 2  # the games were played (their progress bar shown), then the error in one line
        assert_one_line_error(err.strip().splitlines()[-1], "No space left on device")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing"]
    assert [p.name for p in existing.iterdir()] == ["results.json"]
    assert (existing / "results.json").read_text() == "old"


def test_interrupted_tournament_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import red7.analysis.runner

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(red7.analysis.runner, "play_task", interrupted)
    deep = tmp_path / "deep" / "er" / "out"  # missing parents are made, then removed again
    code = main(["tournament", "--bots", "random,random", "--games", "2", "--out", str(deep)])
    capsys.readouterr()
    assert code == 130
    assert list(tmp_path.iterdir()) == []


def test_without_matplotlib_out_writes_the_results_and_says_there_are_no_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: --out without matplotlib writes the results (it refused to write
    anything) and says the plots need the extra."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    for command, results in (("tournament", "results.json"), ("stats", "stats.json")):
        target = tmp_path / command
        code, out, err = run_main([command, "--bots", "random,random", "--games", "2", "--out", str(target)], capsys)
        assert code == 0, err
        assert sorted(p.name for p in target.iterdir()) == [results]
        assert "no plots: plots need matplotlib: pip install 'red7[plots]'" in " ".join((out + err).split())


def test_missing_ray_extra_is_named(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    code, _, err = run_main(["tournament", "--bots", "random,random", "--games", "2", "--backend", "ray"], capsys)
    assert code == 2
    assert_one_line_error(err, "pip install 'red7[ray]'")


def test_bad_input_through_the_console_script(tmp_path: Path) -> None:
    for args, needle in (
        (["tournament", "--bots", "random,nobody", "--out", "out"], "unknown bot"),
        (["tournament", "--bots", "random,random", "--games", "1", "--out", "out"], "seat rotations"),
        (["stats", "--bots", "ismcts:iters=0", "--out", "out"], "positive"),
    ):
        proc = subprocess.run(
            [str(RED7), *args], capture_output=True, text=True, timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL
        )
        assert proc.returncode == 2
        assert_one_line_error(proc.stderr, needle)
        assert proc.stdout == ""
    assert list(tmp_path.iterdir()) == []
