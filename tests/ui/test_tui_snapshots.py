"""Snapshots of the terminal game's screens (pytest-textual-snapshot), in both languages.

A changed layout fails here until the new SVGs are reviewed and accepted with
``pytest tests/ui/test_tui_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest

from red7.core.actions import Kind
from red7.ui.i18n import set_language
from tests.support.tui_driver import SIZE, new_app, settle


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_main_screen(lang: str, snap_compare: Any) -> None:
    set_language(lang)
    app = new_app(seed=39, bots=("medium", "easy"), advanced=True, actions=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=settle, press=["3"])  # G4 (Y7 and G7 cannot be used)


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_turn_confirmation(lang: str, snap_compare: Any) -> None:
    """A play staged, then the decision that ends the turn: the dialog sums the turn up
    and offers to take it back."""
    set_language(lang)
    app = new_app(seed=11)

    async def stage(pilot: Any) -> None:
        await settle(pilot)
        for i, card in enumerate(app.numbered(), 1):  # the first play after which the turn can end
            trial = app.table.game.clone()
            trial.apply(f"play {card}")
            if trial.is_legal("end"):
                await pilot.press(str(i), "p", "e")
                return
            canvas = next((a.card for a in trial.legal_actions() if a.kind is Kind.CANVAS), None)
            if canvas is not None:
                await pilot.press(str(i), "p")
                await pilot.press(str(app.numbered().index(canvas) + 1), "c")
                return
        raise AssertionError("no play lets the turn end in this deal")

    assert snap_compare(app, terminal_size=SIZE, run_before=stage)


def test_the_hotseat_pass_screen(snap_compare: Any) -> None:
    app = new_app(seed=4, bots=(), people=2, hotseat=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)
