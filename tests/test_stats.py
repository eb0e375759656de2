"""``red7 stats`` (src/red7/stats.py): figures a game designer asks for, checked
against counts made by hand from the games' own histories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import forbid_games, run_main
from red7 import Game
from red7.analysis.stats import analyse, plan, summarize
from red7.analysis.tournament import TournamentError, make_entrants, run
from red7.bots import make_bot, play_game
from red7.core.actions import CANVAS
from red7.core.cards import VALUE_OF

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def stats_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run_main(["stats", *argv, "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def random_game(seed: int, players: int = 2, advanced: bool = False, actions: bool = False) -> Game:
    return play_game([make_bot("random") for _ in range(players)], seed, advanced, actions).game


# --- one game -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "advanced", "actions"), [(2, False, False), (3, True, True), (4, False, True)])
def test_analyse_counts_turn_starts_and_action_cards(players: int, advanced: bool, actions: bool) -> None:
    for seed in range(3):
        game = random_game(seed, players, advanced, actions)
        a = analyse(game)
        # By hand: replay the history and look at the step before each decision.
        g = Game(players, advanced, actions, seed=seed)
        starts, legal_total = 0, 0
        for _, action_id in game.history:
            if g.step_name == "start":
                starts += 1
                legal_total += len(g.legal_actions())
            g.apply_id(action_id)
        assert a["turn_starts"] == starts == sum(a["legal"].values()) == sum(a["safe"].values())
        assert sum(k * c for k, c in a["legal"].items()) == legal_total
        assert sum(a["rules_in_force"]) == starts
        assert starts <= game.turns  # turns also count eliminations for an empty hand (R4.1)
        plays = [VALUE_OF[i] for _, i in game.history if i < CANVAS]
        expected = {v: (plays.count(v) if actions else 0) for v in (1, 3, 5, 7)}
        assert a["action_plays"] == expected
        assert len(a["round_first_players"]) == len(a["round_winners"]) == game.round
        assert a["round_first_players"][0] == Game(players, advanced, actions, seed=seed).current_player  # R2.4
        assert all(k >= 1 for k in a["legal"])  # concede is always legal (R4.2)
        assert all(s <= max(a["legal"]) for s in a["safe"])


def test_analyse_refuses_an_unfinished_game() -> None:
    with pytest.raises(ValueError, match="not over"):
        analyse(Game(2, seed=1))


# --- many games -----------------------------------------------------------------------


def test_summary_numbers_check_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    data = stats_json(["--games", "40", "--players", "3", "--seed", "5"], capsys)
    assert data["games"] == 40 and data["players"] == 3
    assert sum(s["win_rate"] for s in data["seats"]) == pytest.approx(1.0)
    assert sum(s["wins"] for s in data["seats"]) == pytest.approx(40)
    # basic game: one round a game, so the first player's rates per game and per round agree
    assert data["rounds"] == 40 and data["rounds_per_game"]["mean"] == 1
    assert data["first_player"]["game"]["wins"] == data["first_player"]["round"]["wins"]
    legal, safe = data["branching"]["legal"], data["branching"]["safe"]
    assert sum(legal["counts"].values()) == sum(safe["counts"].values()) == data["turn_starts"]
    assert sum(r["in_force"] for r in data["rules"].values()) == data["turn_starts"]
    assert sum(r["won_rounds"] for r in data["rules"].values()) == data["rounds"]
    assert sum(r["in_force_share"] for r in data["rules"].values()) == pytest.approx(1.0)
    assert all(card["played"] == 0 for card in data["action_cards"].values())  # actions off
    assert data["turns_per_game"]["min"] <= data["turns_per_game"]["mean"] <= data["turns_per_game"]["max"]
    assert sum(data["turns_per_game"]["counts"].values()) == 40


def test_summary_matches_the_games_played_again() -> None:
    """Every game is a pure function of its seed: play the same seeds again and count."""
    sched = plan(make_entrants(["random"]), 2, 12, seed=3, advanced=True, actions=True)
    results = run(sched.tasks)
    s = summarize(results, 2, advanced=True, actions=True)
    games = [random_game(t.seed, 2, True, True) for t in sched.tasks]
    first_wins = sum(1 / len(g.result.winners) for g in games if g.history[0][0] in g.result.winners)
    assert s["first_player"]["game"]["wins"] == pytest.approx(first_wins)
    assert s["rounds"] == sum(g.round for g in games)
    assert s["rounds_per_game"]["max"] == max(g.round for g in games)
    plays = [VALUE_OF[i] for g in games for _, i in g.history if i < CANVAS]
    for v in (1, 3, 5, 7):
        assert s["action_cards"][str(v)]["played"] == plays.count(v)
        assert s["action_cards"][str(v)]["per_game"] == pytest.approx(plays.count(v) / 12)
    won_under = [r.rule for g in games for r in g.round_results]
    assert [s["rules"][c]["won_rounds"] for c in s["rules"]] == [won_under.count(i) for i in range(7)]
    assert sum(seat["wins"] for seat in s["seats"]) == pytest.approx(12)


def test_one_bot_per_seat_rotates_over_each_deal() -> None:
    sched = plan(make_entrants(["random", "ismcts:iters=20"]), 2, 5, seed=1)
    assert len(sched.tasks) == 4 and sched.rounded and sched.rotations == 2
    assert [t.seating for t in sched.tasks[:2]] == [("random", "ismcts:iters=20"), ("ismcts:iters=20", "random")]
    assert all(t.analyse for t in sched.tasks)
    single = plan(make_entrants(["random"]), 4, 5, seed=1)
    assert len(single.tasks) == 5 and len({t.seed for t in single.tasks}) == 5
    with pytest.raises(TournamentError, match="one bot"):
        plan(make_entrants(["random", "random", "random"]), 2, 4, seed=1)


def test_stats_writes_table_json_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "stats"
    code, out, err = run_main(
        ["stats", "--games", "10", "--players", "2", "--actions", "--seed", "2", "--out", str(out_dir)], capsys
    )
    assert code == 0, err
    for heading in ("Who wins", "Branching factor", "Rules", "Action cards", "first player"):
        assert heading in out
    names = sorted(p.name for p in out_dir.iterdir())
    assert names == [
        "action_cards.png",
        "branching.png",
        "game_length.png",
        "rules.png",
        "seat_win_rate.png",
        "stats.json",
    ]
    for name in names[:-1]:
        assert (out_dir / name).read_bytes()[:8] == PNG_MAGIC
    data = json.loads((out_dir / "stats.json").read_text())
    assert data["games"] == 10 and data["seed"] == 2 and data["bots"] == ["random"]
    assert [p.name for p in tmp_path.iterdir()] == ["stats"]


def test_stats_without_actions_skips_the_action_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(["stats", "--games", "4", "--seed", "1", "--out", str(tmp_path / "o")], capsys)
    assert code == 0, err
    assert "action rules are off" in out
    assert "action_cards.png" not in {p.name for p in (tmp_path / "o").iterdir()}


def test_stats_same_seed_same_numbers_whatever_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    a = stats_json(["--games", "16", "--players", "4", "--advanced", "--seed", "8"], capsys)
    b = stats_json(["--games", "16", "--players", "4", "--advanced", "--seed", "8", "--jobs", "2"], capsys)
    assert a == b


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--bots", "nobody"], "unknown bot"),
        (["--bots", "ismcts:iters=0"], "positive"),
        (["--bots", "greedy:worlds=x"], "not a number"),
        (["--bots", "random,random,random", "--players", "2"], "one bot"),
        (["--bots", "random,random", "--games", "1"], "seat rotations"),
        (["--games", "0"], "--games"),
        (["--players", "5"], "2 to 4"),
        (["--jobs", "0"], "--jobs"),
    ],
)
def test_bad_input_exits_2(argv: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(["stats", *argv, "--out", str(tmp_path / "out")], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("red7: error: ") and needle in err, err
    assert "Traceback" not in err and out == ""
    assert list(tmp_path.iterdir()) == []


def test_unwritable_out_fails_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    forbid_games(monkeypatch)
    (tmp_path / "file").write_text("x")
    code, out, err = run_main(["stats", "--games", "3", "--out", str(tmp_path / "file" / "out")], capsys)
    assert code == 2 and err.startswith("red7: error: --out") and out == ""
    assert [p.name for p in tmp_path.iterdir()] == ["file"]
