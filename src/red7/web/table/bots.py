"""The bots of a server's tables (:class:`Bots`): asked when it is their turn, thinking in a
pool of processes (or threads, for tests), their answers handed to the table's session.

A bot is asked after every change this process wrote that makes it the bot's turn (or
the turn of the substitute of a person away); the session ignores an answer that comes
late (a person came back, a new game, another process's decision). With other
processes, the bot of a table is asked by the process that wrote the change that made
it the bot's turn; if that process dies, another takes over after
:data:`~red7.web.table.tables.TAKEOVER` seconds (:mod:`red7.web.table.watch`).

A bot's answer the database could not take (PostgreSQL restarting) is written again, every
:data:`RETRY` seconds at first, until it goes in or the table moves on: the bot's turn is
never left unanswered by this process (another may take it over meanwhile: the database
lets one answer in).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import random
import threading
import time
from concurrent.futures import Executor
from typing import Final

from ...bots import BotSpecError, make_bot
from ...bots.base import Bot
from ...core.model import GameError, Option
from ...core.observation import Observation
from ...core.seeds import derive_seed
from ...play.session import BotTurn, Role
from ..http.refusals import Refused
from .events import Changed
from .live import LiveTable
from .tables import DatabaseAway, Tables

log = logging.getLogger("red7.web")

RETRY: Final = 0.5
"""Seconds before a bot's answer the database could not take is written again (doubled at
each try, up to :data:`RETRY_MOST`)."""
RETRY_MOST: Final = 2.0

_worker_bots: dict[str, Bot] = {}


def end_with_parent() -> None:
    """A bot worker's initializer: end the worker when the server that started it
    ends, killed included (SIGKILL runs no shutdown code, and a worker waiting on the
    pool's queue would wait for ever, holding on to its memory)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])  # readable once the server is gone
        os._exit(0)

    threading.Thread(target=watch, name="red7-watch-server", daemon=True).start()


def choose_in_worker(spec: str, observation: Observation, options: list[Option], seed: int) -> str:
    """A bot's decision, computed in a pool worker (the bot made once per worker and
    spec); the notation of the decision."""
    bot = _worker_bots.get(spec)
    if bot is None:
        bot = _worker_bots[spec] = make_bot(spec)
    return str(bot.choose(observation, options, random.Random(seed)))


class Bots:
    """The bots of ``tables``: ``pool`` runs them (a process pool in the server; None:
    threads, for tests); ``delay``: least seconds a bot's move takes, so people can follow it."""

    def __init__(self, tables: Tables, pool: Executor | None = None, delay: float = 0.8) -> None:
        self.tables, self.pool, self.delay = tables, pool, delay
        tables.events.on(Changed, self._changed)

    async def _changed(self, event: Changed) -> None:
        if event.written:
            self.ask(event.live)

    def start(self) -> None:
        """Alone, ask the bots of every game waiting for one (with other processes, those
        are another's, unless it is gone: :mod:`red7.web.table.watch` takes them over)."""
        if not self.tables.bus.shared:
            for live in self.tables.live.values():
                self.ask(live)

    async def stop(self) -> None:
        tasks = [live.bot_task for live in self.tables.live.values() if live.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    def ask(self, live: LiveTable) -> None:
        """Ask the bot to move (or the substitute of an away person), if one is and none
        is asked yet."""
        mover = live.session.mover()
        if mover is None or mover[1] is Role.PERSON or (live.bot_task is not None and not live.bot_task.done()):
            return
        turn = live.session.awaited()
        assert isinstance(turn, BotTurn)
        live.bot_task = asyncio.create_task(self._moves(live, turn))

    async def _moves(self, live: LiveTable, turn: BotTurn) -> None:
        """Work out ``turn``'s answer in the pool and hand it to the session, which
        ignores it if the table moved on meanwhile (a person came back, a new game,
        another process's decision)."""
        spec = turn.spec
        assert spec is not None and live.table is not None
        seed = derive_seed(live.table.seed, "web-bot", turn.seq)
        started = time.perf_counter()
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self.pool, choose_in_worker, spec, turn.observation, turn.options, seed)
        except (BotSpecError, GameError):
            log.exception("bot %s failed at table %s", spec, live.id)
            return
        await asyncio.sleep(max(0.0, self.delay - (time.perf_counter() - started)))
        pause = RETRY
        while (written := await self._answer(live, turn, action)) is None:
            await asyncio.sleep(pause)  # the database away: the same answer, again in a moment
            pause = min(2 * pause, RETRY_MOST)
        if written:
            self.tables.metrics.decisions.labels(by="bot").inc()

    async def _answer(self, live: LiveTable, turn: BotTurn, action: str) -> bool | None:
        """Hand ``action``, the answer to ``turn``, to the session and write it: True once
        written; False if it is late or another process's answer went in first; None if
        the database could not take it (the table is as before: try again)."""
        async with self.tables.changing(live):
            live.bot_task = None  # (the change's listeners may ask the next bot)
            if live.session.apply_bot(action, turn) is None:
                return False  # late: the game moved on meanwhile
            try:
                await self.tables.write(live)
            except DatabaseAway:
                live.bot_task = asyncio.current_task()  # this task answers still
                return None
            except Refused:
                # another process moved first: the table is as it made it, and that
                # process, having written, asks the bot whose turn it is (not decided again)
                return False
        return True
