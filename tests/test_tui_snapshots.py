"""Snapshots of the terminal game's screens (pytest-textual-snapshot), in both languages.

A changed layout fails here until the new SVGs are reviewed and accepted with
``pytest tests/test_tui_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest

from red7.ui.i18n import set_language
from tui_driver import SIZE, new_app, settle


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_main_screen(lang: str, snap_compare: Any) -> None:
    set_language(lang)
    app = new_app(seed=11, bots=("medium", "easy"), advanced=True, actions=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=settle, press=["2"])


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_turn_confirmation(lang: str, snap_compare: Any) -> None:
    set_language(lang)
    app = new_app(seed=11)

    async def stage(pilot: Any) -> None:
        await settle(pilot)
        for i, card in enumerate(app._selectable(), 1):  # a play after which the turn can end
            trial = app.table.game.clone()
            trial.apply(f"play {card}")
            if any(a.kind == "end" for a in trial.legal_actions()):
                await pilot.press(str(i), "p", "e")
                return
        raise AssertionError("no play lets the turn end in this deal")

    assert snap_compare(app, terminal_size=SIZE, run_before=stage)


def test_the_hotseat_pass_screen(snap_compare: Any) -> None:
    app = new_app(seed=4, bots=(), people=2, hotseat=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)
