"""Accounts of a web server (optional: guests play as before), their login sessions; the
admin's account operations.

A person registers with a username (:data:`USERNAME`) and a password
(:func:`~red7.web.accounts.passwords.check_password`: 8 to 256 characters, not easily
guessed), kept as its argon2id hash (argon2-cffi), never itself. Logging in makes a
login session: a random id (:func:`~red7.web.storage.stored.new_token`'s 192 bits) that
the browser keeps in an HttpOnly cookie, the database only its SHA-256 (so a copy of
the database opens no session). Every request that uses it looks it up in the database:
a session revoked, or an account banned or removed, is refused by every process at
once.

Logging in tells nothing of which usernames exist: an unknown name and a wrong
password get the same refusal (``bad-login``, 401, the same sentence) after the same
work (an unknown name's password is checked against a hash of the same cost). Failed
logins slow down the address they come from, never the name from another address
(:mod:`red7.web.accounts.throttle`: counted in the database, by the SHA-256 of the name's
key, whether the account exists or not); each process also limits a client's rate of
tries (:mod:`red7.web.accounts.login_limits`).

Every method is one short transaction (or an argon2 hash and one), blocking: the
server calls them in threads (:func:`asyncio.to_thread`), off its event loop.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ...ui.i18n import _
from ...ui.words import RESERVED_NAME, name_key
from ..http.refusals import Refused
from ..storage.rows import Base, GameRow, SeatRow, TableRow, now
from ..storage.store import Store
from ..storage.stored import new_token, token_hash
from .passwords import check_password
from .throttle import Counts, LoginThrottle
from .wire import AdminAccount, ProfileGame, username_refusal

USERNAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,19}")
"""A username: 3 to 20 letters (a-z, A-Z), digits, ``_``, ``.`` or ``-``, starting with
a letter or a digit. ASCII only: no two names that look alike (``Ana`` and ``Аna``, the
second with a Cyrillic A); names differ in more than their case (``Ana`` is ``ana``)."""
RESERVED: Final = frozenset(
    {"admin", "administrator", "root", "system", "red7", "server", "moderator", "mod", "support", "staff", "guest",
     "anonymous", "nobody", "null", "none", "undefined", "bot", "easy", "medium", "hard", "expert", "you", "voce"}
)  # fmt: skip
"""Usernames nobody may register: the server's and its roles', the bots' levels, and
(:data:`~red7.ui.words.RESERVED_NAME`) the names of bots and empty seats (``Bot 2``...)."""
LOGIN_DAYS: Final = 30
"""Days a login session lasts."""
COOKIE: Final = "red7_login"
"""The cookie that holds a login session's id."""
MEMBER, ADMIN = "member", "admin"


@dataclass(frozen=True)
class Account:
    """A registered person, as a request sees them."""

    id: int
    username: str
    admin: bool = False
    banned: bool = False


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(20))
    """As its person typed it (``Ana``)."""
    key: Mapped[str] = mapped_column(String(20), unique=True)
    """What makes it unique: the username in lower case (``ana``)."""
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(8), default=MEMBER)
    banned: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LoginRow(Base):
    __tablename__ = "logins"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The SHA-256 of the session's id (the cookie holds the id)."""
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[float] = mapped_column(Float)
    """When it ends (seconds since the epoch)."""


def username_key(username: str) -> str:
    """What two usernames must differ in: ``Ana`` and ``ANA`` are one."""
    return username.strip().lower()


def check_username(username: str) -> str:
    """``username`` if it may be registered (:data:`USERNAME`, not :data:`RESERVED`),
    else :class:`~red7.web.http.refusals.Refused` saying why (in the language in use)."""
    if not USERNAME.fullmatch(username):
        raise username_refusal()
    if username_key(username) in RESERVED or RESERVED_NAME.fullmatch(name_key(username)):
        raise Refused("reserved-username", _("The username {name} is reserved: choose another.").format(name=username))
    return username


def _bad_login() -> Refused:
    # one refusal for an unknown name, a wrong password and a malformed name alike
    return Refused("bad-login", _("Wrong username or password."), 401)


class Accounts:
    """The accounts of the server whose database is ``store``. ``hasher``: how passwords
    are hashed (argon2id; tests give a cheap one); ``wall``: the time (seconds since the
    epoch: login sessions last across processes and restarts); ``throttle``: how failed
    logins slow their address down (default: its rules, on ``store``, by ``wall``)."""

    def __init__(
        self,
        store: Store,
        hasher: PasswordHasher | None = None,
        wall: Callable[[], float] = time.time,
        throttle: LoginThrottle | None = None,
    ) -> None:
        self.store, self.hasher, self.wall = store, hasher or PasswordHasher(), wall
        self.throttle = throttle or LoginThrottle(store.engine, wall=wall)
        self._decoy: str | None = None

    # --- registering and logging in -------------------------------------------------

    def register(self, username: str, password: str) -> tuple[Account, str]:
        """A new account, logged in: the account and its login session's id. Refused if
        the username or password breaks the rules, or the name is taken."""
        account = self.add(username, password)
        return account, self._new_login(account.id)

    def add(self, username: str, password: str, admin: bool = False) -> Account:
        """A new account (``admin``: with the admin role: ``red7 admin add``)."""
        check_username(username)
        check_password(password, username)
        digest = self.hasher.hash(password)
        try:
            with Session(self.store.engine) as s, s.begin():
                row = AccountRow(
                    username=username,
                    key=username_key(username),
                    password_hash=digest,
                    role=ADMIN if admin else MEMBER,
                    banned=False,
                    created=now(),
                )
                s.add(row)
                s.flush()
                return _account(row)
        except IntegrityError:
            message = _("The username {name} is taken: choose another.").format(name=username)
            raise Refused("username-taken", message, 409) from None

    def login(self, username: str, password: str, client: str = "?") -> tuple[Account, str]:
        """Log in from ``client`` (its address: :func:`~red7.web.http.limits.client_key`):
        the account and a new login session's id. Refused alike (``bad-login``) for an
        unknown name and a wrong password; ``login-wait`` (429) while the address waits
        after failing (:mod:`red7.web.accounts.throttle`); ``banned`` (403, said only to
        whoever gives the right password)."""
        counts = Counts.of(client, username_key(username))
        self.throttle.check(counts)
        with Session(self.store.engine) as s:
            row = s.scalars(select(AccountRow).where(AccountRow.key == username_key(username))).first()
            found = None if row is None else (_account(row), row.password_hash)
        # the same work for an unknown name: its password is checked against a decoy hash
        right = self._verify(found[1] if found is not None else self._decoy_hash(), password)
        if found is None or not right:
            self.throttle.failed(counts, client, None if found is None else found[0].username)
            raise _bad_login()
        account, digest = found
        if account.banned:
            raise Refused("banned", _("This account is banned from this server."), 403)
        self.throttle.succeeded(counts)
        if self.hasher.check_needs_rehash(digest):
            rehashed = self.hasher.hash(password)  # (the cost was raised since)
            with Session(self.store.engine) as s, s.begin():
                s.execute(update(AccountRow).where(AccountRow.id == account.id).values(password_hash=rehashed))
        return account, self._new_login(account.id)

    def _verify(self, digest: str, password: str) -> bool:
        try:
            return self.hasher.verify(digest, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def _decoy_hash(self) -> str:
        if self._decoy is None:
            self._decoy = self.hasher.hash(new_token())
        return self._decoy

    def _new_login(self, account_id: int) -> str:
        session_id = new_token()
        with Session(self.store.engine) as s, s.begin():
            s.add(
                LoginRow(
                    id_hash=token_hash(session_id),
                    account_id=account_id,
                    created=now(),
                    expires=self.wall() + LOGIN_DAYS * 86400,
                )
            )
        return session_id

    def account_of(self, session_id: str | None) -> Account | None:
        """The account a login session's id opens (None: none, expired, revoked, or the
        account banned or removed)."""
        if not session_id or len(session_id) > 200:
            return None
        with Session(self.store.engine) as s:
            row = s.execute(
                select(AccountRow, LoginRow.expires)
                .join(LoginRow, LoginRow.account_id == AccountRow.id)
                .where(LoginRow.id_hash == token_hash(session_id))
            ).first()
        if row is None or row[1] <= self.wall() or row[0].banned:
            return None
        return _account(row[0])

    def logout(self, session_id: str | None) -> None:
        """End a login session (nothing if there is none)."""
        if session_id:
            with Session(self.store.engine) as s, s.begin():
                s.execute(delete(LoginRow).where(LoginRow.id_hash == token_hash(session_id)))

    # --- an admin's ---------------------------------------------------------------

    def named(self, username: str) -> Account:
        """The account ``username`` (any case); Refused (``no-account``, 404) if none."""
        with Session(self.store.engine) as s:
            row = s.scalars(select(AccountRow).where(AccountRow.key == username_key(username[:40]))).first()
            if row is None:
                raise Refused("no-account", _("There is no account {name}.").format(name=username[:40]), 404)
            return _account(row)

    def set_admin(self, username: str, admin: bool) -> Account:
        """Give (or take back) the admin role (``red7 admin grant``, ``red7 admin revoke``)."""
        account = self.named(username)
        with Session(self.store.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account.id).values(role=ADMIN if admin else MEMBER))
        return Account(account.id, account.username, admin, account.banned)

    def ban(self, username: str, banned: bool = True) -> Account:
        """Ban an account (it cannot log in; its login sessions end), or lift its ban."""
        account = self.named(username)
        with Session(self.store.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account.id).values(banned=banned))
            if banned:
                s.execute(delete(LoginRow).where(LoginRow.account_id == account.id))
        return Account(account.id, account.username, account.admin, banned)

    def remove(self, username: str) -> None:
        """Remove an account: its login sessions end, its seats keep their names but
        no longer name it, and its username may be registered again."""
        account = self.named(username)
        with Session(self.store.engine) as s, s.begin():
            s.execute(delete(LoginRow).where(LoginRow.account_id == account.id))
            s.execute(update(SeatRow).where(SeatRow.account_id == account.id).values(account_id=None))
            s.execute(delete(AccountRow).where(AccountRow.id == account.id))

    def end_logins(self, username: str) -> int:
        """End every login session of an account; how many there were."""
        account = self.named(username)
        with Session(self.store.engine) as s, s.begin():
            result = s.execute(delete(LoginRow).where(LoginRow.account_id == account.id))
            return int(getattr(result, "rowcount", 0) or 0)

    def listing(self, limit: int = 500) -> list[AdminAccount]:
        """The accounts (the first ``limit`` by name) with their role, ban and open login sessions."""
        clock = self.wall()
        with Session(self.store.engine) as s:
            rows = s.scalars(select(AccountRow).order_by(AccountRow.key).limit(limit)).all()
            logins: dict[int, int] = {}
            for account_id, expires in s.execute(select(LoginRow.account_id, LoginRow.expires)):
                if expires > clock:
                    logins[account_id] = logins.get(account_id, 0) + 1
            return [
                {"username": r.username, "admin": r.role == ADMIN, "banned": r.banned, "logins": logins.get(r.id, 0)}
                for r in rows
            ]

    # --- a profile ------------------------------------------------------------------

    def games(self, account_id: int, limit: int = 200, public: bool = False) -> list[ProfileGame]:
        """The finished games played in a seat the account took, the newest first: table,
        game number, seat, players, when it started, whether the seat won, and the
        addresses of its replay and its review. ``public``: only those of public tables
        (a public profile's: a private table's games are its people's and invitees')."""
        query = (
            select(GameRow.table_id, GameRow.number, GameRow.created, GameRow.result)
            .add_columns(SeatRow.seat, TableRow.players)
            .join(SeatRow, SeatRow.table_id == GameRow.table_id)
            .join(TableRow, TableRow.id == GameRow.table_id)
            .where(SeatRow.account_id == account_id, GameRow.result.is_not(None))
        )
        if public:
            query = query.where(TableRow.private.is_(False))
        with Session(self.store.engine) as s:
            rows = s.execute(query.order_by(GameRow.created.desc(), GameRow.id.desc()).limit(limit)).all()
        games: list[ProfileGame] = []
        for table_id, number, created, result, seat, players in rows:
            winners = result.get("winners", []) if isinstance(result, dict) else []
            games.append(
                {
                    "table": table_id,
                    "number": number,
                    "seat": seat,
                    "players": players,
                    "started": created.isoformat() if isinstance(created, datetime) else str(created),
                    "won": seat in winners,
                    "replay": f"/t/{table_id}/replay/{number}",
                    "review": f"/t/{table_id}/review/{number}",
                }
            )
        return games


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.username, row.role == ADMIN, row.banned)
