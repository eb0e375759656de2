"""Rating the games of rated tables as they end (:class:`Rater`), and those a process that
died left unrated.

The table tells its listeners when this process wrote a game's end
(:class:`~red7.web.table.events.GameOver`); a rated table's game is then rated in a task
of its own (its end is written and shown first), exactly once whoever else rates it
(:meth:`~red7.web.ratings.ratings.Ratings.apply`). A rating that fails (the database away
for a moment), or one a process died before writing, is done by the next look: every
``look`` seconds (``red7 serve --rate-look``) each process rates the finished games of
rated tables left unrated, one look at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Final

from ...play.match import ranks_of
from ..storage.stored import replayed
from ..table.events import GameOver
from ..table.tables import DatabaseAway, Tables
from .eligibility import Verdict, finished_turns, placings
from .ratings import Ratings

log = logging.getLogger("red7.web")

RATE_LOOK: Final = 30.0
"""Seconds between two looks of a process for finished games of rated tables left
unrated (their rater died before it wrote the ratings)."""


class Rater:
    """The rating of ``tables``' finished rated games into ``ratings``."""

    def __init__(self, tables: Tables, ratings: Ratings, look: float = RATE_LOOK) -> None:
        self.tables, self.ratings, self.look = tables, ratings, look
        self._rating: set[asyncio.Task[None]] = set()
        """The ratings being written, and the look under way."""
        self._looks: asyncio.Task[None] | None = None
        tables.events.on(GameOver, self._game_over)

    async def start(self) -> None:
        """Rate what a process that died left, then look again every :attr:`look` seconds."""
        self._looks = asyncio.create_task(self._looking())

    async def stop(self) -> None:
        """Stop looking and rating (a rating cut short is rated by the next start:
        :meth:`~red7.web.ratings.ratings.Ratings.unrated`)."""
        tasks = [task for task in [self._looks, *self._rating] if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    async def _game_over(self, event: GameOver) -> None:
        if event.live.rated:
            self._later(self.rate(event.live.id, event.number))

    def _later(self, rating: Awaitable[None]) -> None:
        task = asyncio.ensure_future(rating)
        self._rating.add(task)
        task.add_done_callback(self._rating.discard)

    async def _looking(self) -> None:
        while True:
            # one look at a time: a look waiting on a rating another process is writing
            # must not be joined by more, each holding a store thread
            await self.rate_pending()
            await asyncio.sleep(self.look)

    async def rate(self, table_id: str, number: int) -> None:
        """Rate game ``number`` of the rated table ``table_id`` once it is over, exactly
        once whoever else rates it, as the rules let it (:meth:`Ratings.apply`); a game
        with a guest in it (none can sit at a rated table) moves nothing."""
        live = self.tables.live.get(table_id)
        if live is None or not live.rated:
            return
        seats = list(live.seats)  # who sits there, read on the loop (the seats never change in a game)
        try:
            stored = await self.tables.db(self.tables.store.game, table_id, number)
            if stored is None or stored.id is None or not stored.result:
                return
            game = replayed(stored)
            places = placings(seats, ranks_of(game), finished_turns(game))
            if places is None:
                return
            verdict = await self.tables.db(self.ratings.apply, stored.id, places)
            if verdict is Verdict.RATED:
                self.tables.metrics.rated.inc()
            elif verdict is not None:
                self.tables.metrics.unrated.labels(reason=verdict.value).inc()
        except DatabaseAway:
            return  # the database away for a moment (the store says so once): the next look rates it
        except Exception:
            log.exception("could not rate game %d of table %s", number, table_id)

    async def rate_pending(self) -> None:
        """Rate the finished games of rated tables left unrated (:meth:`Ratings.unrated`)."""
        try:
            pending = await self.tables.db(self.ratings.unrated)
        except DatabaseAway:
            return
        except Exception as err:
            log.warning("could not look for games to rate (%s)", type(err).__name__)
            return
        for table_id, number in pending:
            await self.rate(table_id, number)
