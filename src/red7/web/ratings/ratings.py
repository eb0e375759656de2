"""The ratings of the people and bots who play at rated tables, and their leaderboard.

A game finished at a rated table moves the skill (:mod:`red7.analysis.rating`, the
model tournaments use) of each of its players: a registered person
(``account:<id>``) or a bot level (``bot:<level>``, so a person sees how they compare
with ``easy`` … ``hard``; the line of ``bot:expert``, a level since removed, stays as the
history of the games it played). A game with a guest in it is not rated (a rated table
seats registered people only). Which of a game's players it rates, if any, is decided by
the rules of :mod:`red7.web.ratings.eligibility` (a player who finished no turn is left
out; the same people are rated together at most three times a day), in the transaction
that rates it; a leaderboard line is shown once its player has a rated game.

**Exactly once.** A game is rated in one transaction that first claims it: the row of
:class:`RatedGameRow` whose key is the game's id. Two processes rating the same game
at once (the one that wrote its end, another one's look after it) cannot both insert
that row: the database lets one in and the other finds it there and changes nothing.
A process that dies mid-rating leaves no claim (its transaction never committed), so
the game is rated by the next look (:meth:`Ratings.unrated`). A game the rules leave
unrated is claimed all the same, with its :class:`~red7.web.ratings.eligibility.Verdict`,
so no look takes it up again. The rows of the players' skills are locked in one order
(their identities sorted) before they are read, so two games sharing a player are
applied one after the other, never one over the other; the games two people were rated
together in (:class:`RatedPlayerRow`) are counted after those locks, so two games of the
same people rated at once by two processes are counted one after the other too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Float, ForeignKey, Integer, String, and_, cast, exists, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Mapped, aliased, mapped_column

from ...analysis.rating import Skill, first_skill, rated
from ..storage.rows import Base, GameRow, TableRow, now
from .eligibility import REPEATS, WINDOW, Placing, Verdict, pairs, played

PERSON, BOT = "person", "bot"


class RatingRow(Base):
    __tablename__ = "ratings"

    identity: Mapped[str] = mapped_column(String(48), primary_key=True)
    """``account:<id>`` or ``bot:<level>`` (:func:`~red7.web.ratings.eligibility.identity`)."""
    name: Mapped[str] = mapped_column(String(40))
    """The name shown: the account's name at its last rated game, or the bot's level."""
    kind: Mapped[str] = mapped_column(String(8))
    """:data:`PERSON` or :data:`BOT`."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    """The games that rated it (0: a line made by a game that rated nobody after all, not shown)."""
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatedGameRow(Base):
    __tablename__ = "rated_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    """The game claimed: its key lets one transaction rate it, or judge it unrated, once."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    verdict: Mapped[str] = mapped_column(String(12), server_default=Verdict.RATED.value)
    """What became of it: a :class:`~red7.web.ratings.eligibility.Verdict` (migration 0014;
    the games claimed before it were all rated)."""


class RatedPlayerRow(Base):
    """A player a game rated (migration 0014): what the rule on repeated pairings counts."""

    __tablename__ = "rated_players"

    game_id: Mapped[int] = mapped_column(ForeignKey("rated_games.game_id"), primary_key=True)
    identity: Mapped[str] = mapped_column(String(48), primary_key=True, index=True)


@dataclass(frozen=True)
class Standing:
    """A player's line on the leaderboard."""

    place: int
    name: str
    kind: str
    rating: float
    """The conservative skill (``mu - 3 sigma``) the board is ordered by."""
    mu: float
    sigma: float
    games: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "name": self.name,
            "kind": self.kind,
            "rating": round(self.rating, 2),
            "mu": round(self.mu, 2),
            "sigma": round(self.sigma, 2),
            "games": self.games,
        }


def _insert_new(connection: Connection) -> Any:
    """The dialect's ``INSERT … ON CONFLICT DO NOTHING`` builder."""
    return postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert


ORDER = (RatingRow.mu - 3 * RatingRow.sigma).desc(), RatingRow.games.desc(), RatingRow.identity
"""The leaderboard's order: the conservative skill, then more games, then a stable key."""


class Ratings:
    """The ratings in the server's database (``engine``: the store's). Each method is
    one short transaction, run in the store's threads by the server. ``clock``: when a
    game is claimed (the rule on repeated pairings counts back from it)."""

    def __init__(self, engine: Engine, clock: Callable[[], datetime] = now) -> None:
        self.engine, self.clock = engine, clock

    def apply(self, game_id: int, placings: Sequence[Placing]) -> Verdict | None:
        """Judge the game ``game_id`` by its ``placings`` and rate those the rules let it
        rate (:mod:`red7.web.ratings.eligibility`), exactly once (see the module's
        docstring): what became of it, or None if it had been claimed already."""
        if len(placings) < 2 or len({p.identity for p in placings}) != len(placings):
            raise ValueError("a rated game needs two or more different players")
        rating, at = played(placings), self.clock()
        verdict = Verdict.RATED if len(rating) >= 2 else Verdict.UNPLAYED
        with self.engine.begin() as connection:
            claimed = connection.execute(
                _insert_new(connection)(RatedGameRow)
                .values(game_id=game_id, at=at, verdict=verdict)
                .on_conflict_do_nothing()
                .returning(RatedGameRow.game_id)
            ).first()
            if claimed is None:  # (a rowcount would do, but psycopg does not count this insert)
                return None
            if verdict is Verdict.UNPLAYED:
                return verdict
            before = self._locked(connection, rating)
            if self._repeated(connection, rating, at):
                connection.execute(
                    update(RatedGameRow).where(RatedGameRow.game_id == game_id).values(verdict=Verdict.REPEATED)
                )
                return Verdict.REPEATED
            after = rated([before[p.identity] for p in rating], [p.rank for p in rating])
            for placing, skill in zip(rating, after, strict=True):
                connection.execute(
                    update(RatingRow)
                    .where(RatingRow.identity == placing.identity)
                    .values(
                        name=placing.name,
                        mu=skill.mu,
                        sigma=skill.sigma,
                        games=RatingRow.games + 1,
                        updated=now(),
                    )
                )
            connection.execute(
                _insert_new(connection)(RatedPlayerRow).values(
                    [{"game_id": game_id, "identity": p.identity} for p in rating]
                )
            )
        return verdict

    @staticmethod
    def _locked(connection: Connection, placings: Sequence[Placing]) -> dict[str, Skill]:
        """The skills of the players of ``placings``, their rows made if new (a line of
        no game: not shown) and locked in one order until the transaction ends."""
        first = first_skill()
        connection.execute(
            _insert_new(connection)(RatingRow)
            .values(
                [
                    {
                        "identity": p.identity,
                        "name": p.name,
                        "kind": BOT if p.identity.startswith("bot:") else PERSON,
                        "mu": first.mu,
                        "sigma": first.sigma,
                        "games": 0,
                        "updated": now(),
                    }
                    for p in placings
                ]
            )
            .on_conflict_do_nothing()
        )
        rows = connection.execute(
            select(RatingRow.identity, RatingRow.mu, RatingRow.sigma)
            .where(RatingRow.identity.in_([p.identity for p in placings]))
            .order_by(RatingRow.identity)
            .with_for_update()
        ).all()
        return {row.identity: Skill(row.mu, row.sigma) for row in rows}

    @staticmethod
    def _repeated(connection: Connection, placings: Sequence[Placing], at: datetime) -> bool:
        """Whether two people of ``placings`` were rated together :data:`REPEATS` times in
        the :data:`WINDOW` before ``at`` (asked once their rows are locked: a game of the
        same two rated meanwhile by another process has committed)."""
        mine, theirs = aliased(RatedPlayerRow), aliased(RatedPlayerRow)
        for one, other in pairs(placings):
            together = connection.execute(
                select(func.count())
                .select_from(mine)
                .join(theirs, theirs.game_id == mine.game_id)
                .join(RatedGameRow, RatedGameRow.game_id == mine.game_id)
                .where(mine.identity == one, theirs.identity == other, RatedGameRow.at > at - WINDOW)
            ).scalar_one()
            if together >= REPEATS:
                return True
        return False

    def unrated(self) -> list[tuple[str, int]]:
        """The finished games of rated tables not rated yet, as (table id, game number),
        oldest first: what a process that died before rating them left."""
        claimed = exists().where(RatedGameRow.game_id == GameRow.id)
        # a game not over has no result: SQL's NULL, or JSON's null written by the ORM
        over = and_(GameRow.result.is_not(None), cast(GameRow.result, String) != "null")
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(GameRow.table_id, GameRow.number)
                .join(TableRow, TableRow.id == GameRow.table_id)
                .where(TableRow.rated, over, ~claimed)
                .order_by(GameRow.id)
            )
            return [(table_id, number) for table_id, number in rows]

    def verdict(self, game_id: int) -> Verdict | None:
        """What became of the game ``game_id`` (None: not claimed yet)."""
        with self.engine.connect() as connection:
            found = connection.execute(select(RatedGameRow.verdict).where(RatedGameRow.game_id == game_id)).scalar()
        return None if found is None else Verdict(found)

    def board(self, offset: int, limit: int, kind: str | None = None) -> tuple[list[Standing], int]:
        """A page of the leaderboard (``kind``: only :data:`PERSON` or :data:`BOT` lines)
        and how many lines it has in all."""
        where = [RatingRow.games > 0, *([] if kind is None else [RatingRow.kind == kind])]
        with self.engine.connect() as connection:
            total = connection.execute(select(func.count()).select_from(RatingRow).where(*where)).scalar_one()
            rows = connection.execute(
                select(RatingRow).where(*where).order_by(*ORDER).offset(offset).limit(limit)
            ).all()
        lines = [
            Standing(offset + i + 1, row.name, row.kind, row.mu - 3 * row.sigma, row.mu, row.sigma, row.games)
            for i, row in enumerate(rows)
        ]
        return lines, total

    def of(self, who: str) -> Standing | None:
        """``who``'s line (:func:`~red7.web.ratings.eligibility.identity`), its place
        counted among every rated player; None if they have no rated game."""
        with self.engine.connect() as connection:
            row = connection.execute(select(RatingRow).where(RatingRow.identity == who, RatingRow.games > 0)).first()
            if row is None:
                return None
            ordinal = row.mu - 3 * row.sigma
            ahead = connection.execute(
                select(func.count())
                .select_from(RatingRow)
                .where(RatingRow.games > 0, (RatingRow.mu - 3 * RatingRow.sigma) > ordinal)
            ).scalar_one()
        return Standing(ahead + 1, row.name, row.kind, ordinal, row.mu, row.sigma, row.games)
