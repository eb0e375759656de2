"""red7: the card game Red7, its complete rules as a fast, seeded engine.

>>> import red7
>>> red7.winner("indigo", [["R4", "B5", "G7", "Y6"], ["I2", "I3", "O4", "V5"]])
0
>>> game = red7.Game(players=2, seed=7)
>>> [type(e).__name__ for e in game.apply(game.safe_actions()[0])]
['CardPlayed']
"""

from .core.actions import NUM_ACTIONS, Action, ActionError, Kind
from .core.cards import COLOURS, Card, CardError, CardSet
from .core.game import Game
from .core.model import (
    TARGETS,
    Config,
    GameError,
    IllegalActionError,
    Option,
    Refusal,
    RefusalCode,
    Result,
    RoundResult,
    Step,
)
from .core.observation import Observation
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
    "Kind",
    "NUM_ACTIONS",
    "Observation",
    "Option",
    "Refusal",
    "RefusalCode",
    "Result",
    "RoundResult",
    "Step",
    "TARGETS",
    "qualifying",
    "winner",
]
__version__ = "0.1.0"
