"""``red7 tutorial`` in a real terminal: tmux runs the command, the test types keys and reads
the screen (waiting on what it shows, with generous deadlines), as a newcomer would."""

from __future__ import annotations

import json
import shutil
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.tmux import DEADLINE, Terminal

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


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
