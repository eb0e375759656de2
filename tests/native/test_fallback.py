"""Where the compiled core is not in use, the game says so once, naming the levels that
play differently (red7.ui.fallback, red7.bots.fallback_levels).

``RED7_NATIVE=0`` in a subprocess stands for a machine where the core was not built
(red7.native reads it at import); the front ends are run as a user runs them.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from red7 import native
from red7.bots import COMPILED_LEVELS, LEVELS, PYTHON_LEVELS, fallback_levels, make_bot
from red7.ui.fallback import fallback_notice
from tests.support.tui_driver import SIZE, new_app, screen_lines
from tests.support.web_server import WebServer

RED7 = Path(sys.executable).with_name("red7")
ENGLISH = "The compiled core is not in use (turned off by RED7_NATIVE=0): the level"
PORTUGUESE = "O núcleo compilado não está em uso (desligado por RED7_NATIVE=0): o nível difícil busca menos"


def red7(
    args: list[str], tmp_path: Path, *, off: bool = True, lang: str = "en_US.UTF-8", stdin: str = "quit\n"
) -> subprocess.CompletedProcess[str]:
    """Run the installed ``red7`` (``off``: with RED7_NATIVE=0), records under tmp_path."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path), "LANG": lang}
    for overriding in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(overriding, None)
    if off:
        env["RED7_NATIVE"] = "0"
    return subprocess.run(
        [str(RED7), *args], input=stdin, capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path
    )


def test_the_python_budgets_change_only_hard() -> None:
    changed = [level for level in COMPILED_LEVELS if COMPILED_LEVELS[level] != PYTHON_LEVELS[level]]
    assert changed == ["hard"]
    assert LEVELS == (COMPILED_LEVELS if native.available() else PYTHON_LEVELS)
    assert fallback_levels() == ([] if native.available() else ["hard"])
    for spec in PYTHON_LEVELS.values():
        make_bot(spec)  # every fallback budget is a spec the registry takes


def test_the_notice_names_only_the_levels_a_command_plays() -> None:
    if native.available():
        assert fallback_notice() is None and fallback_notice(["hard"]) is None
    else:
        assert fallback_notice(["easy", "medium", "greedy"]) is None
        notice = fallback_notice(["Hard", "easy"])
        assert notice is not None and "the level hard searches less" in notice and "medium" not in notice


def test_the_text_game_says_so_once_in_english_and_portuguese(tmp_path: Path) -> None:
    english = red7(["play", "--text", "--seed", "3"], tmp_path)
    assert english.returncode == 0, english.stderr
    assert english.stdout.count(ENGLISH) == 1
    assert "the level hard searches less here and plays weaker" in english.stdout
    assert english.stdout.splitlines()[1].startswith(ENGLISH)  # under the game's first line
    portuguese = red7(["play", "--text", "--seed", "3"], tmp_path, lang="pt_BR.UTF-8")
    assert portuguese.returncode == 0, portuguese.stderr
    assert portuguese.stdout.count(PORTUGUESE) == 1


def test_where_the_core_is_in_use_the_text_game_says_nothing_of_it(tmp_path: Path) -> None:
    """The same game in this process's environment: the notice iff the core is off here."""
    proc = red7(["play", "--text", "--seed", "3"], tmp_path, off=False)
    assert proc.returncode == 0, proc.stderr
    assert ("The compiled core is not in use" in proc.stdout) == (not native.available())


def test_a_tournament_says_so_once_when_it_plays_a_level_that_changes(tmp_path: Path) -> None:
    args = ["tournament", "--games", "2", "--seed", "1"]
    with_hard = red7([*args, "--bots", "hard,easy"], tmp_path)
    assert with_hard.returncode == 0, with_hard.stderr
    assert with_hard.stderr.count("red7: The compiled core is not in use") == 1
    assert "the level hard searches less here" in with_hard.stderr
    without = red7([*args, "--bots", "medium,easy"], tmp_path)
    assert without.returncode == 0, without.stderr
    assert "compiled core" not in without.stderr


def test_analyse_says_so_in_the_language_asked_for(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    played = red7(["play", "--text", "--seed", "3", "--save", str(record)], tmp_path, off=False, stdin="1\ny\n" * 400)
    assert played.returncode == 0 and record.exists(), played.stderr
    proc = red7(["analyse", str(record), "--lang", "pt-BR"], tmp_path)  # its judge: hard
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("O núcleo compilado não está em uso") == 1
    assert "o nível difícil busca menos" in proc.stderr


def test_serve_logs_it_once_at_its_start(tmp_path: Path) -> None:
    with WebServer(tmp_path / "web", env={"RED7_NATIVE": "0", "LANG": "en_US.UTF-8", "LANGUAGE": ""}) as server:
        log = server.log()
    assert log.count("red7: The compiled core is not in use") == 1, log
    assert "the level hard searches less here" in log


def test_the_terminal_game_shows_its_notice_once_at_the_start() -> None:
    app = new_app()
    app.notice = "The compiled core is not in use (turned off by RED7_NATIVE=0)"
    shown: list[str] = []

    async def main() -> None:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            shown.extend(line for line in screen_lines(app) if "compiled core" in line)

    asyncio.run(main())
    assert len(shown) == 1
