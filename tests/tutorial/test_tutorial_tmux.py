"""``red7 tutorial`` in a real terminal: tmux runs the command, the test types keys and reads
the screen (waiting on what it shows, with generous deadlines), as a newcomer would."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

DEADLINE = 120.0
"""Seconds to wait for the screen to show something (a busy machine is slow, never wrong)."""


class Terminal:
    """A detached tmux session of 100×32 running one command."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        self.name = name
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        line = f"env {exports} {' '.join(command)}; sleep 30"
        subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "100", "-y", "32", line], check=True)

    def screen(self) -> str:
        done = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return done.stdout

    def keys(self, *keys: str) -> None:
        for key in keys:
            subprocess.run(["tmux", "send-keys", "-t", self.name, key], check=True)

    def wait_for(self, text: str) -> str:
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never showed; the screen:\n{self.screen()}")

    def select(self, key: str, shown: str) -> None:
        """Press ``key`` (a choice that is the same pressed twice) until the screen shows
        ``shown``: the first key after a dialog closes may come before the board listens."""
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            self.keys(key)
            again = time.monotonic() + 5
            while time.monotonic() < again:
                if shown in self.screen():
                    return
                time.sleep(0.2)
        raise AssertionError(f"{shown!r} never showed; the screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[tuple[Terminal, Path]]:
    red7 = Path(sys.executable).parent / "red7"
    env = {"XDG_DATA_HOME": str(tmp_path), "TERM": "xterm-256color", "LANG": "C.UTF-8"}
    term = Terminal(f"red7-tutorial-{uuid.uuid4().hex[:8]}", [str(red7), "tutorial", "--lang", "pt-BR"], env)
    try:
        yield term, tmp_path
    finally:
        term.close()


def test_a_newcomer_plays_the_first_chapter_in_a_real_terminal(terminal: tuple[Terminal, Path]) -> None:
    term, data = terminal
    term.wait_for("Capítulo 1 de 14: A sua Paleta e quem está vencendo")
    term.keys("Enter")
    term.wait_for("Objetivo: Jogue na sua Paleta")
    # each key once the screen shows the one before it took
    term.select("2", "›Vm3‹")
    term.keys("p")  # Vm3: the miss
    term.wait_for("Não é essa.")
    term.keys("1")
    term.wait_for("›Az6‹")
    term.keys("p")
    term.wait_for("Você: jogou Az6")
    term.keys("e")  # end the turn
    term.wait_for("Capítulo concluído")
    term.keys("q")
    deadline = time.monotonic() + DEADLINE
    progress = data / "red7" / "tutorial.json"
    while not progress.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert json.loads(progress.read_text())["done"] == ["winning"]
