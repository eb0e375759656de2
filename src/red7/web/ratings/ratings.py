"""The ratings of the people and bots who play at rated tables, and their leaderboard.

A game finished at a rated table moves the skill (:mod:`red7.analysis.rating`, the
model tournaments use) of each of its players: a registered person
(``account:<id>``) or a bot level (``bot:<level>``, so a person sees how they compare
with ``easy`` … ``hard``; the line of ``bot:expert``, a level since removed, stays as the
history of the games it played). A game with a guest in it is not rated (a rated table
seats registered people only).

**Exactly once.** A game is rated in one transaction that first claims it: the row of
:class:`RatedGameRow` whose key is the game's id. Two processes rating the same game
at once (the one that wrote its end, another one's look after it) cannot both insert
that row: the database lets one in and the other finds it there and changes nothing.
A process that dies mid-rating leaves no claim (its transaction never committed), so
the game is rated by the next look (:meth:`Ratings.unrated`). The rows of the players'
skills are locked in one order (their identities sorted) before they are read, so two
games sharing a player are applied one after the other, never one over the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import DateTime, Float, ForeignKey, Integer, String, and_, cast, exists, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Mapped, mapped_column

from ...analysis.rating import Skill, first_skill, rated
from ..storage.rows import Base, GameRow, TableRow, now

PERSON, BOT = "person", "bot"


class RatingRow(Base):
    __tablename__ = "ratings"

    identity: Mapped[str] = mapped_column(String(48), primary_key=True)
    """``account:<id>`` or ``bot:<level>`` (:func:`identity`)."""
    name: Mapped[str] = mapped_column(String(40))
    """The name shown: the account's name at its last rated game, or the bot's level."""
    kind: Mapped[str] = mapped_column(String(8))
    """:data:`PERSON` or :data:`BOT`."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatedGameRow(Base):
    __tablename__ = "rated_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    """The game rated: its key lets one transaction rate it, once."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def identity(account: int | None, bot: str | None) -> str | None:
    """Who a seat's player is to the ratings: its account, or its bot's level; None for
    a guest (or an empty seat), who is never rated."""
    if bot is not None:
        return f"bot:{bot}"
    if account is not None:
        return f"account:{account}"
    return None


@dataclass(frozen=True)
class Placing:
    """One player of a finished game: who (:func:`identity`), the name to show, and
    their place (1 the best; equal places share a rank)."""

    identity: str
    name: str
    rank: int


class SeatHolder(Protocol):
    """Who sits in a seat, as far as the ratings ask (a live table's seat)."""

    @property
    def name(self) -> str: ...
    @property
    def bot(self) -> str | None: ...
    @property
    def account(self) -> int | None: ...


def placings(seats: Sequence[SeatHolder], ranks: Sequence[int]) -> list[Placing] | None:
    """The placings of a finished game whose seat ``i`` (held by ``seats[i]``) finished
    in place ``ranks[i]`` (:func:`red7.play.match.ranks_of`); None if a guest played
    (a game with a guest moves no rating)."""
    found = []
    for seat, rank in zip(seats, ranks, strict=True):
        who = identity(seat.account, seat.bot)
        if who is None:
            return None
        found.append(Placing(who, seat.bot or seat.name, rank))
    return found


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
    one short transaction, run in the store's threads by the server."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def apply(self, game_id: int, placings: Sequence[Placing]) -> bool:
        """Rate the game ``game_id`` by its ``placings``, exactly once (see the module's
        docstring): True if this call rated it, False if it had been rated already."""
        if len(placings) < 2 or len({p.identity for p in placings}) != len(placings):
            raise ValueError("a rated game needs two or more different players")
        with self.engine.begin() as connection:
            insert = _insert_new(connection)
            claimed = connection.execute(
                insert(RatedGameRow)
                .values(game_id=game_id, at=now())
                .on_conflict_do_nothing()
                .returning(RatedGameRow.game_id)
            ).first()
            if claimed is None:  # (a rowcount would do, but psycopg does not count this insert)
                return False
            first = first_skill()
            connection.execute(
                insert(RatingRow)
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
            before = {row.identity: Skill(row.mu, row.sigma) for row in rows}
            after = rated([before[p.identity] for p in placings], [p.rank for p in placings])
            for placing, skill in zip(placings, after, strict=True):
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
        return True

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

    def is_rated(self, game_id: int) -> bool:
        with self.engine.connect() as connection:
            return connection.execute(select(exists().where(RatedGameRow.game_id == game_id))).scalar_one()

    def board(self, offset: int, limit: int, kind: str | None = None) -> tuple[list[Standing], int]:
        """A page of the leaderboard (``kind``: only :data:`PERSON` or :data:`BOT` lines)
        and how many lines it has in all."""
        where = [] if kind is None else [RatingRow.kind == kind]
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
        """``who``'s line (:func:`identity`), its place counted among every rated player;
        None if they have no rated game."""
        with self.engine.connect() as connection:
            row = connection.execute(select(RatingRow).where(RatingRow.identity == who)).first()
            if row is None:
                return None
            ordinal = row.mu - 3 * row.sigma
            ahead = connection.execute(
                select(func.count()).select_from(RatingRow).where((RatingRow.mu - 3 * RatingRow.sigma) > ordinal)
            ).scalar_one()
        return Standing(ahead + 1, row.name, row.kind, ordinal, row.mu, row.sigma, row.games)
