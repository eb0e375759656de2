"""The scripts of benchmarks/ run, at a tiny size, as their docstrings say to run them.

Each runs as a user runs it, ``python -m benchmarks.NAME ...`` in a process of its own
(``exact_play.py`` registers a bot of its own, which must not leak into other tests).
What they measure is not asserted (speed never is: CONTRIBUTING.md); that they run, and
print the figures they promise, is.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from red7 import native
from tests.support import local_services

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"


def benchmark(name: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", f"benchmarks.{name}", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )


def figures(name: str, *args: str) -> Any:
    """The JSON a benchmark prints with ``--json``."""
    proc = benchmark(name, *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_every_benchmark_has_a_test_here() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    for script in BENCHMARKS.glob("[!_]*.py"):
        assert f'"{script.stem}"' in source, f"benchmarks/{script.name} has no test in {Path(__file__).name}"


def test_env_speed() -> None:
    report = figures("env_speed", "--seconds", "0.05", "--repeat", "1", "--envs", "4")
    assert report["engine"] > 0 and report["pettingzoo_wrapped"] > 0
    assert ("vector" in report) == native.available()  # the vector environment needs the compiled engine


def test_exact_play_against_the_perfect_opponent() -> None:
    rows = figures("exact_play", "--bots", "medium", "--against", "perfect", "--deals", "2")
    assert [row["bot"] for row in rows] == ["medium"]
    assert rows[0]["games_won"]["of"] == 4  # 2 deals x both seats
    assert 0 <= rows[0]["won_turns_kept"]["share"] <= 1


def test_level_times() -> None:
    rows = figures("level_times", "--levels", "easy,medium", "--decisions", "3")
    assert {row["level"] for row in rows} == {"easy", "medium"}
    assert all(row["decisions"] >= 3 and row["p99_ms"] >= 0 for row in rows)


def test_level_times_of_some_configurations_with_their_cpu_time() -> None:
    rows = figures("level_times", "--levels", "easy", "--decisions", "2", "--configs", "2p basic,3p advanced")
    assert [row["config"] for row in rows] == ["2p basic", "3p advanced"]
    assert all(row["cpu_p99_ms"] >= 0 and row["load"] >= 0 for row in rows)


def test_opening_budget_compares_two_specs_on_the_same_positions() -> None:
    bots = "pimc:worlds=2,tries=50,steps=100,pimc:worlds=2,opening=1,tries=50,steps=100"
    if not native.available():  # it labels 7-card positions with the compiled solver: it says why not
        proc = benchmark("opening_budget", "--bots", bots, "--deals", "1")
        assert proc.returncode == 1 and "the compiled core is not in use" in proc.stderr
        return
    result = figures("opening_budget", "--bots", bots, "--deals", "2")
    first, second = result["bots"]
    assert first["won"] == second["won"] and first["paired_difference_to_first"] is None
    assert second["bot"].endswith("opening=1,tries=50,steps=100") and len(second["paired_difference_to_first"]) == 2


def test_solver_speed_compares_the_compiled_solver_with_its_python_twin() -> None:
    proc = benchmark("solver_speed", "--deals", "1", "--worlds", "1", "--json")
    if not native.available():  # nothing to compare with: it says why
        assert proc.returncode == 1 and "the compiled core is not in use" in proc.stderr
        return
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["fresh_deal_python_median_ms"] > 0 and result["fresh_deal_ratio"] > 0
    assert result["pimc_decision_compiled_median_ms"] > 0


@pytest.mark.slow
def test_web_load_with_people_on_sqlite() -> None:
    result = figures("web_load", "--games", "2", "--seconds", "1", "--ramp", "0.5")
    assert result["mode"] == "people" and result["games"] == 2 and result["connections"] == 8
    assert result["leaks"] == 0 and result["errors"] == {}
    cost = result["server_cpu_ms_per_decision"]
    # None: no decision fell in so short a window; 0.0: the servers' CPU, read in clock
    # ticks (10 ms), did not move by one in it
    assert cost is None or cost >= 0
    assert set(result["load_average"]) == {"min", "mean", "max"}


@pytest.mark.slow
def test_web_load_with_people_chatting_on_a_clock() -> None:
    # a line every 3 s on average per person: some 20 lines in the window, each owed to three seats
    result = figures(
        "web_load", "--games", "2", "--seconds", "5", "--ramp", "0.5", "--chat", "--chat-every", "3", "--clock", "60"
    )
    assert result["clock"] == 60 and result["leaks"] == 0 and result["errors"] == {}
    chat = result["chat"]
    assert chat["every_seconds"] == 3 and chat["refused"] == {}
    assert chat["sent_in_run"] > 0 and chat["frames"] > 0
    assert chat["lines"] > 0 and chat["delivery"]["n"] == 3 * chat["lines"] and chat["undelivered"] == 0
    assert 0 <= chat["delivery"]["p50_ms"] <= chat["delivery"]["p99_ms"]


def test_web_load_refuses_chat_faster_than_the_server_allows() -> None:
    proc = benchmark("web_load", "--chat", "--chat-every", "1")
    assert proc.returncode == 2 and "--chat-every must be at least 2.5 s" in proc.stderr


def test_web_frames() -> None:
    result = figures("web_frames", "--games", "1", "--connections", "2", "--spectators", "1", "--repeat", "1")
    assert result["decisions"] > 0 and result["frames_sent"] > result["decisions"]
    assert result["cpu_ms_per_decision_median"] > 0


def test_web_lobby() -> None:
    result = figures("web_lobby", "--tables", "120", "--repeat", "2")
    assert result["tables"] == 120 and result["load_seconds"] >= 0
    first = result["first page"]
    assert first["total"] == 108 and first["p50_ms"] > 0  # one table in ten is private: never listed
    assert result["filtered (3 players, advanced, free seat)"]["total"] == 15  # public, not full


@pytest.mark.slow
def test_hint_flood() -> None:
    # two tables flooding for 3 s: the other person's first hint and decision fall in it
    result = figures("hint_flood", "--tables", "2", "--seconds", "3")
    assert result["tables"] == 2 and result["src"] == "this checkout"
    probes = result["probes"]
    assert set(probes) == {"readyz", "account", "login", "profile", "hint", "decision"}
    assert probes["readyz"]["n"] > 0 and set(probes["readyz"]["answers"]) == {"200"}
    assert probes["login"]["answers"] == {"200": probes["login"]["n"]} and probes["login"]["n"] > 0
    assert result["flood"]["worked out"] > 0
    assert set(result["load_average"]) == {"min", "mean", "max"}


@pytest.mark.services  # PostgreSQL (Debian's, see .ci/run)
def test_web_capacity() -> None:
    assert local_services.Postgres.available()
    result = figures("web_capacity", "--tables", "2", "--rounds", "2", "--writers", "2", "--seconds", "0.5")
    assert result["follow"]["tables"] == 2 and result["follow"]["messages"] > 0
    assert result["database"]["writers"] == 2 and result["database"]["decisions_per_second"] > 0


@pytest.mark.slow  # valgrind runs the interpreter some 50 times slower (Debian's valgrind, see .ci/run)
def test_instructions() -> None:
    assert shutil.which("valgrind") is not None
    proc = benchmark("instructions", "--games", "1", timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "2 players, basic: " in proc.stdout and " instructions per game (1 games, " in proc.stdout
