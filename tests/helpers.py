"""Helpers shared by several test modules (imported as ``helpers``: pytest puts this
folder on ``sys.path``)."""

from __future__ import annotations

import pytest

from red7 import Game
from red7.cli import main


def make(
    hands: list[str],
    palettes: list[str],
    *,
    current: int = 0,
    canvas: str = "",
    deck: str = "",
    eliminated: list[int] | None = None,
    advanced: bool = False,
    actions: bool = False,
) -> Game:
    """A position from space-separated card strings (deck top first, canvas bottom first)."""
    return Game.from_position(
        [h.split() for h in hands],
        [p.split() for p in palettes],
        current=current,
        canvas=canvas.split(),
        deck=deck.split(),
        eliminated=eliminated,
        advanced=advanced,
        actions=actions,
    )


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``main(argv)``; argparse errors raise SystemExit, which counts as the exit code."""
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def forbid_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any tournament or stats game fail the test (for checks that must come first)."""
    import red7.analysis.tournament

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(red7.analysis.tournament, "play_task", no_games)
