"""A table as the database holds it at one version (:class:`StoredTable`, its seats and its
latest game), and what one change of it tells the other processes (:func:`change_message`,
:func:`changed_table`). Plain frozen data: :mod:`red7.web.storage.store` reads and writes
it, :mod:`red7.web.table.live` keeps a copy of each table in memory.

A seat token and a private table's invitation are never kept, only their SHA-256
(:func:`token_hash`).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, replace
from typing import Any, Final

from ...core.game import Game
from ...core.model import Config
from ...core.seeds import DEAL

ADMIN_REVOKED, ACCOUNT_REVOKED = "admin", "account"
REMOVED: Final = "removed"
"""A seat's ``revoked`` once the host removed its person (the seat is empty: whoever held
its token is told the host removed them)."""
"""Why a seat's token was revoked: an admin revoked that seat's; its account was banned or removed."""


def new_token() -> str:
    """An unguessable seat token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class StoredSeat:
    name: str = ""
    token_hash: str | None = None
    bot: str | None = None
    substitute: str | None = None
    undone: int = 0
    account: int | None = None
    """The id of the account the seat was taken by (None: a guest, a bot, nobody)."""
    revoked: str | None = None
    """Why its token was revoked, if it was and its person was not seated again:
    :data:`ADMIN_REVOKED` or :data:`ACCOUNT_REVOKED` (None: it was not)."""


@dataclass(frozen=True)
class StoredGame:
    id: int | None
    """None: a game not written yet (:meth:`Store.commit` gives it its id)."""
    number: int
    config: dict[str, Any]
    seed: int
    result: dict[str, Any] | None
    decisions: tuple[tuple[int, str], ...]
    """Every decision, (seat, notation) each, in order: the final ones, then the staged ones."""
    committed: int
    """How many of :attr:`decisions` are final."""
    deal: str = DEAL
    """The generator that deals the game (:data:`red7.core.seeds.DEALS`)."""


def replayed(stored: StoredGame) -> Game:
    """The game ``stored`` holds, rebuilt by replaying its final decisions from its seed
    (the state itself is never stored)."""
    game = Game(config=Config.from_mapping(stored.config), seed=stored.seed, deal=stored.deal)
    for _seat, action in stored.decisions[: stored.committed]:
        game.apply(action)
    return game


@dataclass(frozen=True)
class StoredTable:
    """A table as the database holds it at one :attr:`version`."""

    id: str
    players: int
    advanced: bool
    actions: bool
    lang: str
    status: str
    seats: tuple[StoredSeat, ...]
    game: StoredGame | None
    """The table's latest game (None before the first starts)."""
    version: int = 0
    clock: int = 0
    """Seconds a person has for each turn (0: no clock)."""
    deadline: float | None = None
    """When (seconds since the epoch) the awaited person's time runs out (None: none runs)."""
    agreed: tuple[int, ...] | None = None
    """The seats that agreed to a rematch (None: none proposed)."""
    declined: int | None = None
    """The seat whose person declined the last rematch proposed."""
    spectator_chat: str = "separate"
    """Whether spectators talk among themselves (``separate``) or not (``off``): :mod:`red7.web.chat.chat`."""
    name: str = ""
    """The table's name (set when it is made, never changed)."""
    private: bool = False
    invite_hash: str | None = None
    """A private table's invitation secret, hashed (:func:`token_hash`)."""
    hints: bool = True
    """The people may ask for a hint (a table option, set when it is created)."""
    rated: bool = False
    """Its games move its players' ratings (:mod:`red7.web.ratings.ratings`; set when it is created)."""
    removed: tuple[str, ...] = ()
    """Who the host removed from a seat (each a seat's ``who``): they may not sit there again."""

    def rematch_columns(self) -> dict[str, Any]:
        """The values of the columns that change with the clock and the rematch, by the
        names the store's statements bind them to."""
        agreed = None if self.agreed is None else ",".join(str(seat) for seat in self.agreed)
        return {"deadline": self.deadline, "agreed": agreed, "declined": self.declined}


def agreed_seats(column: str | None) -> tuple[int, ...] | None:
    """The seats a ``tables.agreed`` value names (None: no proposal)."""
    if column is None:
        return None
    return tuple(int(seat) for seat in column.split(",") if seat)


def invite_changed(before: StoredTable, after: StoredTable) -> bool:
    """Whether a change gives the table another invitation (renewed or revoked by its host):
    written apart, and told to the other processes as a version to read (never the hash)."""
    return before.invite_hash != after.invite_hash


def change_message(before: StoredTable, after: StoredTable) -> dict[str, Any]:
    """What other processes are told of a change from ``before`` to ``after`` (written
    as ``after.version``): the version, and when the seats and the game are the same,
    the change itself (the decisions kept and added, how many are final, the status and
    result), which :func:`changed_table` applies without reading the database. Seats
    and the invitation never travel (their hashes stay in the database)."""
    message: dict[str, Any] = {"t": after.id, "v": after.version}
    old, new = before.game, after.game
    if (
        before.seats != after.seats
        or invite_changed(before, after)
        or before.removed != after.removed
        or new is None
        or old is None
        or old.id != new.id
    ):
        return message  # read it from the database
    keep = kept_of(old, new)
    message.update(
        base=before.version,
        status=after.status,
        keep=keep,
        add=new.decisions[keep:],
        committed=new.committed,
        result=new.result,
        **after.rematch_columns(),
    )
    return message


def changed_table(saved: StoredTable, message: dict[str, Any]) -> StoredTable | None:
    """``saved`` with the change a :func:`change_message` tells, if it was made from
    ``saved``'s version (None: read the table from the database)."""
    game = saved.game
    if message.get("base") != saved.version or game is None:
        return None
    try:
        added = tuple((int(seat), str(action)) for seat, action in message["add"])
        decisions = game.decisions[: int(message["keep"])] + added
        changed = replace(game, decisions=decisions, committed=int(message["committed"]), result=message["result"])
        deadline, declined = message["deadline"], message["declined"]
        return replace(
            saved,
            version=int(message["v"]),
            status=str(message["status"]),
            game=changed,
            deadline=None if deadline is None else float(deadline),
            agreed=agreed_seats(message["agreed"]),
            declined=None if declined is None else int(declined),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def same_change(stored: StoredTable, after: StoredTable) -> bool:
    """Whether the database's ``stored`` holds the change that made ``after`` (read back at
    the version ``after`` was written as): the same status, seats, invitation, rematch
    answers and game (its number, decisions and how many are final; a new game's id is the
    database's)."""
    old, new = stored.game, after.game
    games = (old is None) == (new is None)
    if old is not None and new is not None:
        games = (old.number, old.decisions, old.committed) == (new.number, new.decisions, new.committed)
    return games and (stored.status, stored.seats, stored.invite_hash, stored.agreed, stored.declined) == (
        after.status,
        after.seats,
        after.invite_hash,
        after.agreed,
        after.declined,
    )


def appends(before: StoredTable, after: StoredTable) -> int | None:
    """How many decisions of ``before``'s game ``after`` keeps, if the change only adds
    decisions to the same game (and perhaps commits them, ends it, changes the table's
    status): all of them. None for any other change (seats, a new game, a take-back)."""
    old, new = before.game, after.game
    if (
        before.seats != after.seats
        or invite_changed(before, after)
        or old is None
        or new is None
        or old.id is None
        or old.id != new.id
    ):
        return None
    kept = kept_of(old, new)
    return kept if kept == len(old.decisions) else None


def kept_of(old: StoredGame, new: StoredGame) -> int:
    """How many of ``old``'s decisions ``new`` keeps: its final ones (never changed), and
    of its staged ones those ``new`` still starts with."""
    kept = old.committed
    for before, after in zip(old.decisions[kept:], new.decisions[kept:], strict=False):
        if before != after:
            break
        kept += 1
    return kept
