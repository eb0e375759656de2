"""Playing games: whole games between bots, a table with people and bots, and the
session that every interface drives. No user interface and no analysis here."""

from .match import PlayedGame, bot_rng, play_game

__all__ = ["PlayedGame", "bot_rng", "play_game"]
