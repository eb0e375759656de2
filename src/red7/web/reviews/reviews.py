"""The review of a finished web game, worked out once and kept.

A review marks every decision of a game (:meth:`red7.play.session.Session.review`: the
exact solver where it answers, else the hint's bot estimating the people's decisions)
and words it as the terminal game does (:func:`red7.ui.words.review_text`), once in each
language the server speaks, so that every reader gets it in their own. It reads
every hand, so it is only for a game that is over. It may take a while (the solver's
first positions of a deal, an estimate per decision), so it runs in the search pool
(:mod:`red7.web.reviews.pool`), which tells how far it is as it goes: :class:`Reviews`
keeps each game's :class:`Review` (how far it is, then its texts); a second request for
the same game gets the same one, however many ask.

**Once across processes.** A finished review is kept in the database
(:class:`StoredReviews`, a row a language keyed by the game and the language: migrations
``0012`` and ``0018``), written by inserts that lose gracefully to rows already there: the
first process to finish writes it, and every process (this one included) then serves the
texts the database holds. A
process asked for a review first looks there, so a review finished by another process
is served without being worked out again. A review being worked out is known to its
process only: asked through another process meanwhile, it is worked out there too, and
the first finished is the one kept and served. A review being worked out when its
process dies is in no database (nothing was written): the next request, to any
process, starts it again.

Starting one is limited per client (:data:`STARTS_RATE`) and in all (:data:`RUNNING`, and
no more than the search pool's share, :attr:`~red7.web.reviews.pool.SearchPool.share`,
so that reviews never take every worker from the hints), in each process (as the hints'
and the chat's limits), so one client cannot start many.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Literal, cast

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, mapped_column

from ...bots import make_bot
from ...bots.base import Appraiser
from ...play.session import Session
from ...ui.i18n import LANGUAGES, _, using
from ...ui.words import review_text
from ..http.limits import Bucket
from ..http.refusals import Limited
from ..http.wire import Tag
from ..storage.rows import Base, GameRow, now
from .hints import HINT_BOT
from .pool import SearchPool
from .wire import ReviewView

STARTS_RATE: Final = 3 / 60
"""Reviews a client may start a second on average (three a minute)..."""
STARTS_BURST: Final = 6
"""...and six at once (a club's people may share an address)."""
RUNNING: Final = 2
"""Reviews worked out at once by one process (each holds a worker of the search pool)."""
KEPT: Final = 200
"""Finished reviews kept (the oldest are worked out again if asked)."""

log = logging.getLogger("red7.web")


class ReviewRow(Base):
    __tablename__ = "reviews"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    """The game reviewed: with ``lang``, its key lets one review of it in, the first finished."""
    lang: Mapped[str] = mapped_column(String(8), primary_key=True)
    """The language of ``text``."""
    decisions: Mapped[int] = mapped_column(Integer)
    """How many decisions it marked."""
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class StoredReviews:
    """The finished reviews in the server's database (``engine``: the store's); each
    method is one short transaction, run in a thread."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def find(self, table_id: str, number: int) -> Review | None:
        """The review of game ``number`` of table ``table_id`` kept by any process (done,
        in every language kept); None if none is."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(ReviewRow.lang, ReviewRow.decisions, ReviewRow.text)
                .join(GameRow, GameRow.id == ReviewRow.game_id)
                .where(GameRow.table_id == table_id, GameRow.number == number)
            ).all()
        return _review(rows)

    def keep(self, table_id: str, number: int, review: Review) -> Review:
        """Keep the finished ``review`` as the game's unless one is kept already (another
        process finished first: this one changes nothing); the review kept.
        LookupError if there is no such game."""
        assert review.texts is not None, "only a finished review is kept"
        with self.engine.begin() as connection:
            game_id = connection.execute(
                select(GameRow.id).where(GameRow.table_id == table_id, GameRow.number == number)
            ).scalar_one_or_none()
            if game_id is None:
                raise LookupError(f"no game {number} at table {table_id}")
            insert = postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert
            rows = [
                {"game_id": game_id, "lang": lang, "decisions": review.total, "text": text, "at": now()}
                for lang, text in review.texts.items()
            ]
            connection.execute(insert(ReviewRow).values(rows).on_conflict_do_nothing())
            kept = connection.execute(
                select(ReviewRow.lang, ReviewRow.decisions, ReviewRow.text).where(ReviewRow.game_id == game_id)
            ).all()
        found = _review(kept)
        assert found is not None
        return found


def _review(rows: Collection[Any]) -> Review | None:
    """The finished review whose texts are ``rows`` (lang, decisions, text); None if none."""
    if not rows:
        return None
    decisions = max(row.decisions for row in rows)
    return Review(decisions, decisions, {row.lang: row.text for row in rows})


@dataclass
class Review:
    """One game's review: ``done`` of ``total`` decisions marked, then its ``texts``
    (by language: every language the server speaks, or the one a review kept before
    reviews were worded in each)."""

    done: int = 0
    total: int = 0
    texts: dict[str, str] | None = None
    failed: bool = False
    task: asyncio.Future[None] | None = field(default=None, repr=False)

    def json(self, lang: str) -> ReviewView:
        """What ``GET .../review`` answers to a reader of ``lang``: the text in ``lang``
        if it has one, else in a language it has."""
        status: Literal["working", "done", "failed"] = (
            "failed" if self.failed else "working" if self.texts is None else "done"
        )
        if self.texts and lang not in self.texts:
            lang = next(iter(self.texts))
        return {
            "status": status,
            "lang": cast("Tag", lang),
            "done": self.done,
            "total": self.total,
            "text": None if self.texts is None else self.texts[lang],
        }


@dataclass
class Reviews:
    """The reviews of one server process, by (table, game number)."""

    rate: float = STARTS_RATE
    burst: float = STARTS_BURST
    running: int = RUNNING
    stored: StoredReviews | None = None
    """Where finished reviews are kept for every process (None: in this process only)."""
    worked_out: Callable[[], None] = lambda: None
    """Called each time this process has worked a review out."""
    clock: Callable[[], float] = time.monotonic
    """What the limits on starting reviews read the time from (tests move it)."""
    _reviews: OrderedDict[tuple[str, int], Review] = field(default_factory=OrderedDict)
    _starts: dict[str, Bucket] = field(default_factory=dict)

    async def kept(self, key: tuple[str, int]) -> Review | None:
        """The review of game ``key`` this process has (being worked out, or done), else
        the one another process finished and kept in the database (then kept here too);
        None if there is neither (or the one here failed)."""
        review = self._reviews.get(key)
        if review is not None and not review.failed:
            self._reviews.move_to_end(key)
            return review
        if self.stored is None:
            return None
        found = await asyncio.get_running_loop().run_in_executor(None, self.stored.find, *key)
        review = self._reviews.get(key)  # (asked twice at once: the first answer stands)
        if review is not None and not review.failed:
            return review
        if found is not None:
            self._reviews[key] = found
            self._forget_oldest()
        return found

    def of(
        self,
        key: tuple[str, int],
        session: Session,
        names: dict[str, list[str]],
        people: Collection[int],
        client: str,
        now: float,
        pool: SearchPool,
    ) -> Review:
        """The review of game ``key`` (its table's id and number), started in ``pool`` if
        there is none (or the last one failed) for ``session``'s finished game, in every
        language of ``names`` (each seat's name in it); ``people``: the seats whose
        decisions the bot estimates.
        Starting one counts against ``client``'s share (:class:`~red7.web.http.refusals.Limited`
        when it has had it, or when :attr:`running` reviews, or the pool's share, are
        being worked out already)."""
        review = self._reviews.get(key)
        if review is not None and not review.failed:
            self._reviews.move_to_end(key)
            return review
        busy = sum(r.texts is None and not r.failed for r in self._reviews.values())
        if busy >= min(self.running, pool.share):
            raise Limited("reviews-busy", _("Other reviews are being worked out: try again in a minute."), 30.0)
        bucket = self._starts.setdefault(client, Bucket.full(self.rate, self.burst, now))
        wait = bucket.take(now)
        if wait:
            message = _("You started many reviews in a short time: wait {seconds} s.").format(seconds=int(wait) + 1)
            raise Limited("too-many-reviews", message, wait)
        review = self._reviews[key] = Review()

        def progress(done: int, total: int) -> None:  # (in a thread: a late one changes nothing)
            if review.texts is None:
                review.done, review.total = done, total

        marking = pool.submit(marked, session, names, frozenset(people), progress=progress)
        review.task = asyncio.ensure_future(self._work_out(key, review, marking))
        self._forget_oldest()
        return review

    async def _work_out(
        self, key: tuple[str, int], review: Review, marking: Awaitable[tuple[dict[str, str], int]]
    ) -> None:
        """Once ``marking`` (the game's review in words, by language, and its decisions)
        is done, keep it in the database; ``review`` is done once it is kept there, with
        the texts kept (another process's, if it finished first)."""
        try:
            texts, total = await marking
            done = Review(total, total, texts)
            self.worked_out()
            if self.stored is not None:
                done = await asyncio.get_running_loop().run_in_executor(None, self.stored.keep, *key, done)
            review.done, review.total = done.done, done.total
            review.texts = done.texts
        except Exception:
            review.failed = True
            log.exception("the review of game %s of table %s failed", key[1], key[0])

    def _forget_oldest(self) -> None:
        while len(self._reviews) > KEPT:
            oldest = next(iter(self._reviews))
            if self._reviews[oldest].texts is None and not self._reviews[oldest].failed:
                break  # never drop one being worked out
            del self._reviews[oldest]


def marked(
    session: Session, names: dict[str, list[str]], people: frozenset[int], progress: Callable[[int, int], None]
) -> tuple[dict[str, str], int]:
    """In a worker of the search pool: mark the finished game of ``session`` (telling
    ``progress`` how far it is), word it in each language of ``names`` (each seat's name in
    it); its words by language and the number of decisions marked."""
    bot = make_bot(HINT_BOT)
    marks = session.review(bot if isinstance(bot, Appraiser) else None, people, progress)
    texts = {}
    for lang, seats in names.items():
        with using(lang):
            texts[lang] = review_text(marks, seats, session.table.config.advanced, people or None)
    return texts, len(marks)


def named(names: Callable[[], list[str]]) -> dict[str, list[str]]:
    """Each language the server speaks, and ``names()`` (each seat's name) in it."""
    worded = {}
    for lang in LANGUAGES:
        with using(lang):
            worded[lang] = names()
    return worded
