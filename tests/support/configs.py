"""The 12 configurations of the game, defined once for the tests: 2, 3 and 4 players x
the basic or the advanced game x the action cards off or on. A test that needs them as
tuples or keyword dictionaries derives them (``dataclasses.astuple``, ``asdict``)."""

from __future__ import annotations

from typing import Final

from red7.core.model import MAX_PLAYERS, MIN_PLAYERS, Config

CONFIGS: Final = tuple(
    Config(players, advanced, actions)
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
    for advanced in (False, True)
    for actions in (False, True)
)
"""Every configuration, players first, then advanced, then actions (off before on)."""


def name_of(config: Config) -> str:
    """The configuration's name: ``2p-basic-plain`` ... ``4p-advanced-actions`` (the
    playthroughs' file stems, and test ids)."""
    return f"{config.players}p-{'advanced' if config.advanced else 'basic'}-{'actions' if config.actions else 'plain'}"


CONFIG_IDS: Final = tuple(name_of(config) for config in CONFIGS)
"""The names of :data:`CONFIGS`, in their order."""
