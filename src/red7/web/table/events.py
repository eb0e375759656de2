"""What a table tells the rooms around it after the fact: the one narrow interface between
the table's flow and what listens to it (:class:`Events`).

The table's own parts listen (the presence sends every client its frame, the bots are
asked), and so do the club features (the ratings rate a finished game) without the
table knowing them: a room adds its listener when the app is assembled
(:func:`red7.web.server.create_app`). Listeners are awaited one after the other, in the
order they were added, on the event loop; a listener that needs time starts a task of
its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .live import LiveTable


@dataclass(frozen=True)
class Changed:
    """``live`` is to be shown as it is now. ``written``: this process has just written a
    change of it (the table is held: its frames go out now, then its next bot is asked);
    else it was read back from the database (another process changed it) or who is
    connected to it changed."""

    live: LiveTable
    written: bool


@dataclass(frozen=True)
class GameOver:
    """This process wrote the end of game ``number`` of ``live`` (told once, after the
    :class:`Changed` of that write)."""

    live: LiveTable
    number: int


Event = Changed | GameOver
E = TypeVar("E", Changed, GameOver)


class Events:
    """The listeners of one server's tables, by the kind of event they hear."""

    def __init__(self) -> None:
        self._listeners: dict[type[Any], list[Callable[[Any], Awaitable[None]]]] = {}

    def on(self, kind: type[E], listener: Callable[[E], Awaitable[None]]) -> None:
        """Call ``listener`` with every event of ``kind``, after those added before it."""
        self._listeners.setdefault(kind, []).append(listener)

    async def tell(self, event: Event) -> None:
        """Hand ``event`` to each of its listeners in turn."""
        for listener in self._listeners.get(type(event), ()):
            await listener(event)
