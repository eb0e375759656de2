"""Hints at a web table: the terminal game's hint, asked from a browser.

A person whose turn it is asks (a ``hint`` message, :class:`~red7.web.reviews.wire.Hint`);
:class:`Hints` checks that the table allows hints, that it is their turn at the ``seq``
of the game they saw (a spectator never gets here: the socket refuses them first), that
they have no hint being worked out already and that they have not asked too many
lately; then the session's hint (:meth:`red7.play.session.Session.hint`: a bot's whole
turn in their place, on a copy of the game, from their own observation) is worked out
off the event loop, in a thread, and worded as the terminal game words it
(:func:`red7.ui.words.plan_text`). The answer goes to the asking connection only
(:func:`hint_frame`): it is about that person's own hand.
"""

from __future__ import annotations

import asyncio
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
from .wire import HintFrame

HINT_BOT: Final = "hard"
"""The bot whose turn a hint shows (the terminal game's default)."""
RATE: Final = 4 / 60
"""Hints a seat may ask a second on average: four a minute..."""
BURST: Final = 3
"""...and three at once."""
KEPT: Final = 10_000
"""Seats whose share is counted before those with their whole share again are forgotten."""


@dataclass
class Hints:
    """The hints of one server process: one at a time per seat of a table, and at most
    :data:`RATE` (:data:`BURST` at once) per seat."""

    rate: float = RATE
    burst: float = BURST
    _buckets: dict[tuple[str, int], Bucket] = field(default_factory=dict)
    _busy: set[tuple[str, int]] = field(default_factory=set)

    def check(self, live: LiveTable, seat: int, seq: int, now: float, game: int | None = None) -> None:
        """Refuse, in words (in the language in use), unless the person in ``seat`` may
        have a hint now at ``seq`` of game ``game`` (None: the game being played);
        counts the hint against their share if they may."""
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
        if len(self._buckets) > KEPT:  # forget the seats that have their whole share again
            self._buckets = {k: b for k, b in self._buckets.items() if b.level(now) < b.burst}
        if key in self._busy:
            raise Refused("hint-busy", _("Your hint is being worked out: it comes in a moment."), 429)
        bucket = self._buckets.setdefault(key, Bucket.full(self.rate, self.burst, now))
        wait = bucket.take(now)
        if wait:
            message = _("You asked for many hints in a short time: wait {seconds} s.").format(seconds=int(wait) + 1)
            raise Limited("too-many-hints", message, wait)

    async def work_out(self, live: LiveTable, seat: int, seq: int, game: int, lang: str | None = None) -> HintFrame:
        """The hint for ``seat`` at ``seq`` of game number ``game`` (already :meth:`check`
        ed), worked out in a thread (the event loop serves the other tables meanwhile):
        its frame, in ``lang`` (the asker's; None: the table's language)."""
        key = (live.id, seat)
        self._busy.add(key)
        try:
            hint = live.session.hint(make_bot(HINT_BOT))  # a copy of the game as it is now
            plan = await asyncio.get_running_loop().run_in_executor(None, hint.plan)
        finally:
            self._busy.discard(key)
        with using(lang or live.lang):
            return hint_frame(plan, game, seq, live.names(), live.config.advanced)


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
