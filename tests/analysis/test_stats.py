"""``red7 stats`` (src/red7/analysis/stats.py): figures a game designer asks for,
measured while the games are played and checked against counts made by hand from the
games' own histories."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from red7 import Game, Kind
from red7.analysis.measures import counts_json, histogram, histogram_summary, percentile, spread
from red7.analysis.runner import run
from red7.analysis.schedule import ScheduleError, make_entrants
from red7.analysis.stats import DesignFigures, plan, play_compiled, summarize_design
from red7.bots import make_bot
from red7.core.model import Config
from red7.native import available as native_available
from red7.play.match import play_game
from tests.support import configs
from tests.support.helpers import forbid_games, run_main

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CONFIGS = [Config(2), Config(3, advanced=True, actions=True), Config(4, actions=True), Config(2, advanced=True)]


def stats_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run_main(["stats", *argv, "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def measured_game(seed: int, config: Config, spec: str = "random") -> tuple[Game, dict[str, Any]]:
    """A game between ``spec`` bots, measured while it is played."""
    figures = DesignFigures()
    game = play_game([make_bot(spec) for _ in range(config.players)], seed, config, figures.before_decision).game
    return game, figures.result(game)


def random_game(seed: int, config: Config) -> Game:
    return play_game([make_bot("random") for _ in range(config.players)], seed, config).game


def action_values_played(game: Game) -> list[int]:
    """The values of the cards played to a palette, by the game's history."""
    return [a.card.value for _, a in game.history if a.kind is Kind.PLAY and a.card is not None]


def replayed_figures(game: Game) -> dict[str, Any]:
    """The designer's figures of a finished game, the straightforward way: replay its
    history from its seed and look at the game before each decision."""
    g = Game(config=game.config, seed=game.seed)
    legal: Counter[int] = Counter()
    safe: Counter[int] = Counter()
    rules = [0] * 7
    first_movers: list[int] = []
    for seat, action in game.history:
        if g.round > len(first_movers):
            first_movers.append(seat)
        if g.step_name == "start":
            legal[len(g.legal_actions())] += 1
            safe[len(g.safe_actions())] += 1
            rules[g.rule] += 1
        g.apply(action)
    assert g.result == game.result
    plays = Counter(action_values_played(game)) if game.config.actions else Counter()
    return {
        "turn_starts": legal.total(),
        "legal": dict(legal),
        "safe": dict(safe),
        "rules_in_force": rules,
        "round_first_players": first_movers,
        "round_winners": [r.winner for r in game.round_results],
        "round_rules": [r.rule for r in game.round_results],
        "action_plays": {v: plays[v] for v in (1, 3, 5, 7)},
    }


# --- one game -------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS[:3])
def test_figures_count_turn_starts_and_action_cards(config: Config) -> None:
    for seed in range(3):
        game, a = measured_game(seed, config)
        # By hand: replay the history and look at the step before each decision.
        g = Game(config=config, seed=seed)
        starts, legal_total = 0, 0
        for _, action in game.history:
            if g.step_name == "start":
                starts += 1
                legal_total += len(g.legal_actions())
            g.apply(action)
        assert a["turn_starts"] == starts == sum(a["legal"].values()) == sum(a["safe"].values())
        assert sum(k * c for k, c in a["legal"].items()) == legal_total
        assert sum(a["rules_in_force"]) == starts
        assert starts <= game.turns  # turns also count eliminations for an empty hand (R4.1)
        plays = action_values_played(game)
        expected = {v: (plays.count(v) if config.actions else 0) for v in (1, 3, 5, 7)}
        assert a["action_plays"] == expected
        assert len(a["round_first_players"]) == len(a["round_winners"]) == game.round
        assert a["round_first_players"][0] == Game(config=config, seed=seed).current_player  # R2.4
        assert all(k >= 1 for k in a["legal"])  # concede is always legal (R4.2)
        assert all(s <= max(a["legal"]) for s in a["safe"])


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_figures_from_events_equal_a_replay_of_the_history(config: Config, spec: str) -> None:
    """No replay needed: the hook and the events give exactly what replaying gives."""
    for seed in range(4):
        game, figures = measured_game(seed, config, spec)
        assert figures == replayed_figures(game)


def test_figures_refuse_an_unfinished_game() -> None:
    with pytest.raises(ValueError, match="not over"):
        DesignFigures().result(Game(2, seed=1))


def test_figures_refuse_a_game_they_did_not_watch() -> None:
    with pytest.raises(RuntimeError, match="measured 0 decisions"):
        DesignFigures().result(random_game(1, Config(2)))


# --- measures -------------------------------------------------------------------------


def test_percentiles_interpolate_between_order_statistics() -> None:
    hundred = list(range(1, 101))
    assert percentile(hundred, 50) == 50.5
    assert percentile(hundred, 99) == pytest.approx(99.01)  # 99 + 0.01 of the way to 100
    assert percentile([40, 10, 30, 20], 25) == 17.5  # order does not matter
    assert percentile([0.05] * 4 + [0.15] * 4, 99) == pytest.approx(0.15)
    assert percentile([3], 99) == 3 and percentile([], 50) is None
    with pytest.raises(ValueError, match="between 1 and 99"):
        percentile(hundred, 100)


def test_percentiles_agree_with_numpy_linear_method() -> None:
    import random

    import numpy

    rng = random.Random(7)
    for size in (2, 3, 10, 101):
        data = [rng.random() for _ in range(size)]
        for q in (1, 25, 50, 90, 99):
            assert percentile(data, q) == pytest.approx(float(numpy.percentile(data, q)), rel=1e-12)


def test_histograms_and_spreads() -> None:
    counts = histogram([3, 10, 3, 2, 3])
    assert counts == {3: 3, 10: 1, 2: 1}
    assert list(counts_json(counts).items()) == [("2", 1), ("3", 3), ("10", 1)]  # numeric order
    assert spread([5, 1, 2, 2]) == {
        "mean": 2.5,
        "min": 1,
        "median": 2.0,
        "max": 5,
        "counts": {"1": 1, "2": 2, "5": 1},
    }
    assert spread([]) == {"mean": None, "min": None, "median": None, "max": None, "counts": {}}
    summary = histogram_summary(counts)
    assert summary["mean"] == pytest.approx((3 * 3 + 10 + 2) / 5) and summary["max"] == 10
    assert histogram_summary(histogram([])) == {"counts": {}, "mean": None, "max": None}


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
    config = Config(2, advanced=True, actions=True)
    sched = plan(make_entrants(["random"]), config=config, games=12, seed=3)
    results = run(sched.tasks)
    s = summarize_design(results, config)
    games = [random_game(t.seed, config) for t in sched.tasks]
    first_wins = sum(1 / len(g.result.winners) for g in games if g.result and g.history[0][0] in g.result.winners)
    assert s["first_player"]["game"]["wins"] == pytest.approx(first_wins)
    assert s["rounds"] == sum(g.round for g in games)
    assert s["rounds_per_game"]["max"] == max(g.round for g in games)
    plays = [v for g in games for v in action_values_played(g)]
    for v in (1, 3, 5, 7):
        assert s["action_cards"][str(v)]["played"] == plays.count(v)
        assert s["action_cards"][str(v)]["per_game"] == pytest.approx(plays.count(v) / 12)
    won_under = [r.rule for g in games for r in g.round_results]
    assert [s["rules"][c]["won_rounds"] for c in s["rules"]] == [won_under.count(i) for i in range(7)]
    assert sum(seat["wins"] for seat in s["seats"]) == pytest.approx(12)


CONFIGS = configs.CONFIGS


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_the_compiled_random_games_give_the_reference_summary(config: Config) -> None:
    """With every seat the random player, the compiled engine plays the same games (the
    same deals, each seat drawing from the same stream) and takes the same figures."""
    if not native_available():
        pytest.skip("the compiled engine is off")
    sched = plan(make_entrants(["random"]), config=config, games=30, seed=11)
    compiled = play_compiled(sched, config)
    assert compiled is not None
    assert summarize_design(compiled, config) == summarize_design(run(sched.tasks), config)
    rotated = plan(
        make_entrants(["random", "easy", *["random"] * (config.players - 2)]), config=config, games=8, seed=2
    )
    assert summarize_design(play_compiled(rotated, config) or [], config) == summarize_design(
        run(rotated.tasks), config
    )
    others = plan(
        make_entrants(["random", "greedy", *["random"] * (config.players - 2)]), config=config, games=4, seed=2
    )
    assert play_compiled(others, config) is None  # another bot: the runner plays it


def test_one_bot_per_seat_rotates_over_each_deal() -> None:
    sched = plan(make_entrants(["random", "ismcts:iters=20"]), config=Config(2), games=5, seed=1)
    assert len(sched.tasks) == 4 and sched.rounded and sched.rotations == 2
    assert [t.seating for t in sched.tasks[:2]] == [("random", "ismcts:iters=20"), ("ismcts:iters=20", "random")]
    assert all(t.measure is DesignFigures for t in sched.tasks)
    single = plan(make_entrants(["random"]), config=Config(4), games=5, seed=1)
    assert len(single.tasks) == 5 and len({t.seed for t in single.tasks}) == 5
    assert all(t.measure is DesignFigures and t.seating == ("random",) * 4 for t in single.tasks)
    with pytest.raises(ScheduleError, match="one bot"):
        plan(make_entrants(["random", "random", "random"]), config=Config(2), games=4, seed=1)


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
