"""red7: the card game Red7, its complete rules as a fast, seeded engine.

>>> import red7
>>> red7.winner("indigo", [["R4", "B5", "G7", "Y6"], ["I2", "I3", "O4", "V5"]])
0
>>> game = red7.Game(players=2, seed=7)
>>> game.apply(game.safe_actions()[0])
"""

from .core.actions import NUM_ACTIONS, Action, ActionError
from .core.cards import COLOURS, Card, CardError, CardSet
from .core.game import TARGETS, Config, Game, GameError, IllegalActionError, Result, RoundResult
from .core.rules import qualifying, winner

__all__ = [
    "Action",
    "ActionError",
    "COLOURS",
    "Card",
    "CardError",
    "CardSet",
    "Config",
    "Game",
    "GameError",
    "IllegalActionError",
    "NUM_ACTIONS",
    "Result",
    "RoundResult",
    "TARGETS",
    "qualifying",
    "winner",
]
__version__ = "0.1.0"
