"""Hints at a web table: the terminal game's hint, asked from a browser.

A person whose turn it is asks (a ``hint`` message, :class:`~red7.web.reviews.wire.Hint`);
:class:`Hints` checks that the table allows hints, that it is their turn at the ``seq``
of the game they saw (a spectator never gets here: the socket refuses them first), that
they have no hint being worked out already and that they have not asked too many
lately; and, across every seat and table of the client they ask from (its address, as
:func:`~red7.web.http.limits.client_key` says), that it has no more hints being worked
out than its share of the search pool (:attr:`~red7.web.reviews.pool.SearchPool.share`)
and has not asked too many lately either. Then the session's hint
(:meth:`red7.play.session.Session.hint`: a bot's whole turn in their place, on a copy of
the game, from their own observation) is worked out off the event loop, in the search
pool (:mod:`red7.web.reviews.pool`), and worded as the terminal game words it
(:func:`red7.ui.words.plan_text`). The answer goes to the asking connection only
(:func:`hint_frame`): it is about that person's own hand.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Final

from ...bots import make_bot
from ...play.session import Plan, Stop
from ...play.session import Refused as SessionRefused
from ...ui.i18n import _, using
from ...ui.words import bot_level, plan_text
from ..http.limits import Bucket
from ..http.refusals import Limited, Refused, session_refusal
from ..http.wire import PROTOCOL_VERSION
from ..table.live import LiveTable
from ..table.play import stale_game
from .pool import SearchPool
from .wire import HintFrame

HINT_BOT: Final = "hard"
"""The bot whose turn a hint shows (the terminal game's default)."""
RATE: Final = 4 / 60
"""Hints a seat may ask a second on average: four a minute..."""
BURST: Final = 3
"""...and three at once."""
CLIENT_RATE: Final = 30 / 60
"""Hints a client may ask a second on average over all its seats and tables: thirty a
minute (a club's people may share an address)..."""
CLIENT_BURST: Final = 15
"""...and fifteen at once."""
CLIENT_WAIT: Final = 2.0
"""Seconds a client whose share of the search pool is taken is told to wait (a hint
takes about a second)."""
KEPT: Final = 10_000
"""Seats (or clients) whose share is counted before those with their whole share again are forgotten."""


@dataclass
class Hints:
    """The hints of one server process: one at a time per seat of a table, and at most
    :data:`RATE` (:data:`BURST` at once) per seat; per client, at most the search pool's
    share being worked out, and :data:`CLIENT_RATE` (:data:`CLIENT_BURST` at once)."""

    rate: float = RATE
    burst: float = BURST
    client_rate: float = CLIENT_RATE
    client_burst: float = CLIENT_BURST
    _buckets: dict[tuple[str, int], Bucket] = field(default_factory=dict)
    _clients: dict[str, Bucket] = field(default_factory=dict)
    _asked: dict[tuple[str, int], asyncio.Future[Plan]] = field(default_factory=dict)

    def ask(
        self,
        live: LiveTable,
        seat: int,
        seq: int,
        client: str,
        pool: SearchPool,
        now: float,
        game: int | None = None,
        lang: str | None = None,
    ) -> Awaitable[HintFrame]:
        """The hint for the person in ``seat`` at ``seq`` of game ``game`` (None: the game
        being played), asked from ``client``: refused, in words (in the language in use),
        unless they may have one now (counted against their shares if they may); else its
        work is handed to ``pool`` at once, and the awaitable returned gives its frame, in
        ``lang`` (the asker's; None: the table's language)."""
        if not live.hints:
            raise Refused("no-hints", _("Hints are off at this table."), 403)
        if live.status != "playing":
            raise session_refusal(Stop.NO_GAME)
        if stale_game(live, game):
            raise session_refusal(Stop.STALE)
        try:
            live.session.check(seat, seq)
        except SessionRefused as refused:
            raise session_refusal(refused.stop) from None
        key = (live.id, seat)
        if key in self._asked:
            raise Refused("hint-busy", _("Your hint is being worked out: it comes in a moment."), 429)
        if pool.held(client) >= pool.share:
            message = _("Other hints asked from your address are being worked out: ask again in {seconds} s.")
            raise Limited("hints-busy-address", message.format(seconds=int(CLIENT_WAIT)), CLIENT_WAIT)
        self._take(key, client, now)
        plan = pool.submit(live.session.hint(make_bot(HINT_BOT)).plan, holder=client)  # on a copy of the game
        self._asked[key] = plan
        plan.add_done_callback(lambda _: self._asked.pop(key, None))
        return self._worded(live, plan, live.game_number, seq, lang)

    def _take(self, key: tuple[str, int], client: str, now: float) -> None:
        """Count a hint against the seat's share and the client's (Limited, counted
        against neither, if either has had it)."""
        if len(self._buckets) > KEPT:  # forget the seats (and clients) that have their whole share again
            self._buckets = {k: b for k, b in self._buckets.items() if b.level(now) < b.burst}
            self._clients = {k: b for k, b in self._clients.items() if b.level(now) < b.burst}
        bucket = self._buckets.setdefault(key, Bucket.full(self.rate, self.burst, now))
        wait = bucket.take(now)
        if wait:
            message = _("You asked for many hints in a short time: wait {seconds} s.").format(seconds=int(wait) + 1)
            raise Limited("too-many-hints", message, wait)
        shared = self._clients.setdefault(client, Bucket.full(self.client_rate, self.client_burst, now))
        wait = shared.take(now)
        if wait:
            bucket.give_back()
            message = _("Many hints were asked from your address in a short time: wait {seconds} s.")
            raise Limited("too-many-hints-address", message.format(seconds=int(wait) + 1), wait)

    @staticmethod
    async def _worded(live: LiveTable, plan: Awaitable[Plan], game: int, seq: int, lang: str | None) -> HintFrame:
        worked_out = await plan
        with using(lang or live.lang):
            return hint_frame(worked_out, game, seq, live.names(), live.config.advanced)


def hint_frame(plan: Plan, game: int, seq: int, names: list[str], match: bool) -> HintFrame:
    """A hint as its asker gets it, in the language in use."""
    return {
        "v": PROTOCOL_VERSION,
        "type": "hint",
        "game": game,
        "seq": seq,
        "text": plan_text(plan, bot_level(HINT_BOT), names, match),
        "decisions": [str(action) for action in plan.decisions],
    }
