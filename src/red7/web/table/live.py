"""A table as the web server holds it in memory: its seats and the session of its games.

The data only; :mod:`red7.web.table.tables` changes it, :mod:`red7.web.table.views` shows it. The
flow of the game (whose decision is awaited, the staged turn and its sequence numbers,
take-backs, substitutes, new games) is the :class:`~red7.play.session.Session`'s: this
module keeps what only a server has (tokens, connections, the stored version).
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from ...bots import make_bot, stored_spec
from ...core.game import Game
from ...core.model import Config
from ...play.session import SeatKind, SeatName, Session
from ...play.table import Seat, Table
from ...ui.i18n import _, using
from ...ui.words import name_key, seat_name
from ..storage.stored import StoredGame, StoredSeat, StoredTable, token_hash

WHO_LENGTH: Final = 64
"""The most characters of a person's :attr:`SeatState.who` (a chat line keeps it)."""


@dataclass
class SeatState:
    """One seat of a live table."""

    name: str = ""
    token_hash: str | None = None
    """The SHA-256 of the person's seat token (None: no person sits here)."""
    bot: str | None = None
    here: int = 0
    """How many connections of this seat's person this process has open."""
    elsewhere: int = 0
    """How many other server processes have (as they last told)."""
    left: float | None = None
    """When (``time.monotonic``) the person's last connection closed; None while online."""
    account: int | None = None
    """The account the person took the seat logged in as (None: a guest)."""
    revoked: str | None = None
    """Why the seat's token was revoked (:data:`~red7.web.storage.stored.ADMIN_REVOKED`,
    :data:`~red7.web.storage.stored.ACCOUNT_REVOKED`), until its person is seated again."""

    @property
    def online(self) -> int:
        """How many connections of this seat's person are open, in every process."""
        return self.here + self.elsewhere

    @property
    def taken(self) -> bool:
        return self.bot is not None or self.token_hash is not None

    @property
    def who(self) -> str | None:
        """Who the person sitting here is, the same in whichever seat they sit and after
        they leave and come back (what a page's chat mutes; None: nobody, a bot):
        ``u:`` and their username if they sat down logged in, else ``g:`` and their
        name as the table knows it (:func:`~red7.ui.words.name_key`: two people at a
        table never share one), cut to :data:`WHO_LENGTH` characters. Made of what
        everyone at the table sees, never of a token: it gives nothing away."""
        if self.token_hash is None or self.bot is not None:
            return None
        return (("u:" if self.account is not None else "g:") + name_key(self.name))[:WHO_LENGTH]

    def stored(self, substitute: str | None, undone: int) -> StoredSeat:
        """The seat as the database keeps it, with what the session says of its
        substitute and take-backs."""
        return StoredSeat(self.name, self.token_hash, self.bot, substitute, undone, self.account, self.revoked)

    def load(self, stored: StoredSeat) -> None:
        """Take what the database holds of who sits in the seat; who is connected stays
        (its substitute and take-backs are the session's: :meth:`Session.load_seats`)."""
        self.name, self.token_hash, self.bot = stored.name, stored.token_hash, stored.bot
        self.account, self.revoked = stored.account, stored.revoked


def session_seats(seats: Sequence[SeatState]) -> list[Seat]:
    """The seats of a table as its session plays them: each person's name, each bot made
    (a level removed since the seat was stored plays as its replacement: :func:`~red7.bots.stored_spec`)."""
    specs = [stored_spec(s.bot) if s.bot else None for s in seats]
    return [Seat(s.name, make_bot(spec) if spec else None, spec) for s, spec in zip(seats, specs, strict=True)]


TABLE_NAME_LENGTH: Final = 40
"""The most characters a table's name has (after its spaces are folded)."""


def default_table_name(creator: str) -> str:
    """The name of a table whose creator gave none: theirs ("Ana's table"), or a
    plain "Red7 table" if they gave no name either (in the language in use)."""
    if not creator:
        return _("Red7 table")
    return _("{name}'s table").format(name=creator)[:TABLE_NAME_LENGTH]


@dataclass
class LiveTable:
    """A table in memory: its seats, and the :class:`~red7.play.session.Session` of its
    games (the :class:`~red7.play.table.Table` of the current one once started)."""

    id: str
    lang: str
    config: Config
    seats: list[SeatState]
    status: str = "open"
    game_number: int = 0
    game_id: int | None = None
    session: Session = field(default_factory=Session)
    saved: StoredTable | None = field(default=None, repr=False)
    """The table as the database holds it, at the version this copy was made from."""
    touched: float = 0.0
    """When (``time.monotonic``) this copy last changed (here or from the database)."""
    bot_task: asyncio.Task[None] | None = field(default=None, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    """Held while a change of the table is made and written (one at a time)."""
    patience: float = 0.0
    """Seconds a person may be away on their turn before a substitute plays (a table
    without a clock; shown as a countdown: :func:`red7.web.table.clocks.countdown`)."""
    wall: Callable[[], float] = field(default=time.time, repr=False)
    """The server's time in seconds since the epoch, which the clock's deadline is in."""
    spectator_chat: str = "separate"
    """The host's choice for spectators' chat: ``separate`` or ``off`` (:mod:`red7.web.chat.chat`)."""
    name: str = ""
    """The table's name (empty: a table made before tables had names)."""
    private: bool = False
    """Left out of the lobby, and opened only by a seat token or the invitation."""
    invite_hash: str | None = field(default=None, repr=False)
    """The SHA-256 of a private table's invitation secret."""

    hints: bool = True
    """The people at the table may ask for a hint (a table option; never changes)."""
    rated: bool = False
    """Its games move its players' ratings (:mod:`red7.web.ratings.ratings`; never changes)."""
    removed: tuple[str, ...] = ()
    """Who the host removed from a seat (each a seat's :attr:`SeatState.who`): they may
    not sit at the table again."""

    def invited(self, secret: str | None) -> bool:
        """Whether ``secret`` is this private table's invitation (compared in constant
        time); a public table needs none: always True."""
        if not self.private:
            return True
        if not secret or self.invite_hash is None:
            return False
        return hmac.compare_digest(self.invite_hash, token_hash(secret))

    @property
    def table(self) -> Table | None:
        """The table of the current game (None before the first)."""
        return self.session.table if self.session.started else None

    def substitute(self, seat: int) -> str | None:
        """The bot playing for the person of ``seat`` while they are away (None: none)."""
        return self.session.substitute(seat)

    @property
    def version(self) -> int:
        return -1 if self.saved is None else self.saved.version

    def stored(self) -> StoredTable:
        """The table as it is now in memory, as :meth:`~red7.web.storage.store.Store.commit` writes it."""
        game = None
        if self.table is not None:
            table = self.table
            result = table.game.result
            history = table.game.history
            # final decisions never change: those already saved are not written out again
            before = self.saved.game if self.saved is not None else None
            kept = before.decisions[: before.committed] if before is not None and before.id == self.game_id else ()
            game = StoredGame(
                self.game_id,
                self.game_number,
                self.config.as_dict(),
                table.seed,
                None if result is None else result.as_dict(),
                kept + tuple((seat, str(action)) for seat, action in history[len(kept) :]),
                table.committed,
                table.deal,
            )
        return StoredTable(
            self.id,
            self.config.players,
            self.config.advanced,
            self.config.actions,
            self.lang,
            self.status,
            tuple(seat.stored(self.session.substitute(s), self.session.undone(s)) for s, seat in enumerate(self.seats)),
            game,
            self.version,
            clock=int(self.session.clock),
            deadline=self.session.deadline,
            agreed=None if self.session.agreed is None else tuple(sorted(self.session.agreed)),
            declined=self.session.declined,
            spectator_chat=self.spectator_chat,
            name=self.name,
            private=self.private,
            invite_hash=self.invite_hash,
            hints=self.hints,
            rated=self.rated,
            removed=self.removed,
        )

    @property
    def seq(self) -> int:
        """How many decisions the game has had (:attr:`Session.seq`)."""
        return self.session.seq

    @property
    def staging(self) -> int | None:
        """The seat whose turn is staged now, if any (:attr:`Session.staging`)."""
        return self.session.staging

    def seq_for(self, seat: int | None) -> int:
        """The sequence number ``seat``'s frames carry (None: a spectator's), which its
        next decision or take-back must carry to be accepted (:meth:`Session.seq_for`)."""
        return self.session.seq_for(seat)

    def title(self) -> str:
        """The table's name in the language in use: the one its creator gave; if they
        gave none, its default after the host ("Ana's table", kept in the table's
        language) worded for each reader ("Mesa de Ana")."""
        host = self.seats[0].name if self.seats else ""
        with using(self.lang):
            default = default_table_name(host)
        return default_table_name(host) if self.name == default else self.name

    def names(self) -> list[str]:
        """Each seat's name in the language in use ("Ana", "Bot 3", "Player 2")."""
        # several people share a web table: a seat is never "You" to everyone
        return [
            seat_name(SeatName(s, SeatKind.BOT if seat.bot else SeatKind.PLAYER, seat.name, seat.bot))
            for s, seat in enumerate(self.seats)
        ]

    def seat_of(self, token: str | None) -> int | None:
        """The seat ``token`` opens (None: no seat; compared in constant time)."""
        if not token:
            return None
        digest = token_hash(token)
        found = None
        for s, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = s
        return found

    def rewound(self, number: int) -> Iterator[LiveTable]:
        """This table as it was after each decision of its game ``number`` (only the
        current game is in memory: others are read back by the caller), from the deal
        on; decisions still staged are left out."""
        if self.table is None or number != self.game_number:
            return
        game = self.table.game
        history = [action for _seat, action in game.history][: self._committed()]
        replayed = Game(config=game.config, seed=game.seed, deal=game.deal)
        seats = [Seat(s.name, None, s.bot) for s in self.seats]
        # a step's seq is its number of decisions: nothing is staged, nothing was taken back
        states = [replace(s) for s in self.seats]
        for i in range(len(history) + 1):
            if i:
                replayed.apply(history[i - 1])
            step = replace(self, seats=states, session=Session(Table.around(replayed.clone(), seats)), bot_task=None)
            yield step

    def _committed(self) -> int:
        return self.table.committed if self.table is not None else 0
