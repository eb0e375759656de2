"""The review of a finished web game, worked out once and kept.

A review marks every decision of a game (:meth:`red7.play.session.Session.review`: the
exact solver where it answers, else the hint's bot estimating the people's decisions)
and words it as the terminal game does (:func:`red7.ui.words.review_text`). It reads
every hand, so it is only for a game that is over. It may take a while (the solver's
first positions of a deal, an estimate per decision), so it runs in a thread, once per
game and process: :class:`Reviews` keeps each game's :class:`Review` (how far it is, then
its text); a second request for the same game gets the same one, however many ask.
Starting one is limited per client (:data:`STARTS_RATE`) and in all
(:data:`RUNNING`), so one client cannot start many.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Final

from ..bots import make_bot
from ..bots.base import Appraiser
from ..play.session import Session
from ..ui.i18n import _, using
from ..ui.words import review_text
from .hints import HINT_BOT
from .limits import Bucket
from .refusals import Limited

STARTS_RATE: Final = 3 / 60
"""Reviews a client may start a second on average (three a minute)..."""
STARTS_BURST: Final = 6
"""...and six at once (a club's people may share an address)."""
RUNNING: Final = 2
"""Reviews worked out at once by one process (each holds a thread)."""
KEPT: Final = 200
"""Finished reviews kept (the oldest are worked out again if asked)."""


@dataclass
class Review:
    """One game's review, in the table's language ``lang``: ``done`` of ``total``
    decisions marked, then its ``text``."""

    lang: str
    done: int = 0
    total: int = 0
    text: str | None = None
    failed: bool = False
    task: asyncio.Future[None] | None = field(default=None, repr=False)

    def json(self) -> dict[str, Any]:
        """What ``GET .../review`` answers (:class:`~red7.web.protocol.ReviewView`)."""
        status = "failed" if self.failed else "working" if self.text is None else "done"
        return {"status": status, "lang": self.lang, "done": self.done, "total": self.total, "text": self.text}


@dataclass
class Reviews:
    """The reviews of one server process, by (table, game number)."""

    rate: float = STARTS_RATE
    burst: float = STARTS_BURST
    running: int = RUNNING
    _reviews: OrderedDict[tuple[str, int], Review] = field(default_factory=OrderedDict)
    _starts: dict[str, Bucket] = field(default_factory=dict)

    def of(
        self,
        key: tuple[str, int],
        session: Session,
        names: list[str],
        lang: str,
        people: Collection[int],
        client: str,
        now: float,
    ) -> Review:
        """The review of game ``key`` (its table's id and number), started if there is
        none (or the last one failed) for ``session``'s finished game, in ``lang`` with
        ``names``; ``people``: the seats whose decisions the bot estimates. Starting one
        counts against ``client``'s share (:class:`~red7.web.refusals.Limited` when it has
        had it, or when :attr:`running` reviews are being worked out already)."""
        review = self._reviews.get(key)
        if review is not None and not review.failed:
            self._reviews.move_to_end(key)
            return review
        busy = sum(r.text is None and not r.failed for r in self._reviews.values())
        if busy >= self.running:
            raise Limited("reviews-busy", _("Other reviews are being worked out: try again in a minute."), 30.0)
        bucket = self._starts.setdefault(client, Bucket.full(self.rate, self.burst, now))
        wait = bucket.take(now)
        if wait:
            message = _("You started many reviews in a short time: wait {seconds} s.").format(seconds=int(wait) + 1)
            raise Limited("too-many-reviews", message, wait)
        review = self._reviews[key] = Review(lang)
        review.task = asyncio.get_running_loop().run_in_executor(
            None, _work_out, review, session, names, lang, frozenset(people)
        )
        while len(self._reviews) > KEPT:
            oldest = next(iter(self._reviews))
            if self._reviews[oldest].text is None and not self._reviews[oldest].failed:
                break  # never drop one being worked out
            del self._reviews[oldest]
        return review


def _work_out(review: Review, session: Session, names: list[str], lang: str, people: frozenset[int]) -> None:
    """In a worker thread: mark the game, counting in ``review`` how far it is, then word it."""

    def progress(done: int, total: int) -> None:
        review.done, review.total = done, total

    try:
        bot = make_bot(HINT_BOT)
        marks = session.review(bot if isinstance(bot, Appraiser) else None, people, progress)
        with using(lang):
            text = review_text(marks, names, session.table.config.advanced)
        review.done = review.total = len(marks)
        review.text = text
    except Exception:
        review.failed = True
        raise
