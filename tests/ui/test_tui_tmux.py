"""``red7 play`` in a real terminal (tmux): what the terminal is left with once the game's
screen is gone."""

from __future__ import annotations

import shutil
import sys
import uuid
from pathlib import Path

import pytest

from tests.support.tmux import Terminal

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


WORDS = {
    "en": (
        "Concede [enter]",
        "Next round [enter]",
        "Quit [enter]",
        "The game so far is saved to:",
        "Continue it later with: red7 play --resume",
    ),
    "pt-BR": (
        "Desistir [enter]",
        "Próxima rodada [enter]",
        "Sair [enter]",
        "A partida até aqui está salva em:",
        "Para continuar depois: red7 play --resume",
    ),
}


@pytest.mark.parametrize("lang", ["pt-BR", "en"])
def test_quitting_leaves_where_the_game_is_saved_on_the_terminal(tmp_path: Path, lang: str) -> None:
    """Issue 48, item 20: an advanced match at 80x24, its first round conceded (so there is
    a game to keep), then q and Enter: the screen goes, and the terminal says where the
    unfinished game is saved and how to resume it."""
    concede, next_round, quit_, saved, resume = WORDS[lang]
    red7 = Path(sys.executable).parent / "red7"
    env = {"XDG_DATA_HOME": str(tmp_path), "TERM": "xterm-256color", "LANG": "C.UTF-8"}
    command = [str(red7), "play", "--lang", lang, "--seed", "3", "--delay", "0", "--advanced"]
    term = Terminal(f"red7-quit-{uuid.uuid4().hex[:8]}", command, env, size=(80, 24))
    try:
        term.wait_for("[q]")
        term.select("x", concede)  # (the first key may come before the board listens)
        term.keys("Enter")
        term.wait_for(next_round)
        term.keys("Enter")
        term.wait_for("[q]")
        term.select("q", quit_)
        term.keys("Enter")
        shown = term.wait_for(resume, gone="█")  # the screen gone: the terminal's own lines
        assert saved in shown
        autosaved = next((tmp_path / "red7" / "records" / "unfinished").glob("*.json"))
        assert str(autosaved) in shown.replace("\n", "")
    finally:
        term.close()
