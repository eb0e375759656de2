"""Which club a database is: an identity its server processes share and nobody else's do.

What the processes of a club tell each other through Redis is named after it: the bus's
channel (:mod:`red7.web.storage.bus`; Redis's pub/sub channels are global, whatever the
database number in the URL, so a channel named ``red7`` alone was heard by every club on
that Redis, a restored copy of a database included) and the keys of the limits they count
together (:mod:`red7.web.http.shared_limits`).

The identity is a digest of two things:

* a random id the database is given when it is made (the ``club`` table, one row: migration
  0017), which tells two clubs apart wherever they are; a copy of the database keeps it
  (``pg_dump``, a SQLite backup);
* where the database lives, which a copy changes: on PostgreSQL, its server's cluster (the
  system identifier ``initdb`` drew, which a physical standby shares with its primary) and
  the database's oid in it; a SQLite file's device and inode (``red7 db restore`` writes a new
  file, and gives the copy a new random id as well: :func:`renew`).

So a restored copy started beside its original, on the same Redis, is another club at once,
with nothing to run; every process of one club reaches the same identity, by whatever
address it connects (the place is read from the database's server, not from the URL); and a
club's identity stays the same across restarts, a failover to a standby, and upgrades of
red7. It changes when the database moves (a restore elsewhere, ``pg_upgrade``'s new cluster):
every process is started again on the moved database then, and they agree again.

Where PostgreSQL does not let the server read ``pg_control_system()`` (a managed service may
not), the place is the database's oid and name alone: a copy restored into another server
under the same name may then get the same oid, and so the same identity; such a copy is given
a new random id by hand (``UPDATE club SET made = md5(random()::text)``, docs/deploying.md).
"""

from __future__ import annotations

import hashlib
import os
import secrets

from sqlalchemy import Engine, Integer, String, insert, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from .rows import Base


class ClubRow(Base):
    """The one row of ``club``: the random id the database was given when it was made."""

    __tablename__ = "club"
    one: Mapped[int] = mapped_column(Integer, primary_key=True)
    """Always 1: there is one row."""
    made: Mapped[str] = mapped_column(String(64))
    """Random hex digits."""


def new_id() -> str:
    """A random id for a new database (128 bits, hex)."""
    return secrets.token_hex(16)


def identity(engine: Engine) -> str:
    """The identity of the club whose database ``engine`` reaches (24 hex digits), from its
    random id and where it lives (module docstring). A database without its row (emptied
    by hand) is given one."""
    with engine.begin() as connection:
        made = connection.execute(select(ClubRow.made).where(ClubRow.one == 1)).scalar()
    if made is None:
        try:
            with engine.begin() as connection:
                connection.execute(insert(ClubRow).values(one=1, made=new_id()))
        except IntegrityError:
            pass  # another process gave it one first: theirs
        with engine.begin() as connection:
            made = connection.execute(select(ClubRow.made).where(ClubRow.one == 1)).scalar_one()
    return hashlib.sha256(f"{made}@{place(engine)}".encode()).hexdigest()[:24]


def renew(engine: Engine) -> None:
    """Give the database a new random id, and so a new identity: a copy becomes a club of its own."""
    with engine.begin() as connection:
        connection.execute(update(ClubRow).where(ClubRow.one == 1).values(made=new_id()))


def place(engine: Engine) -> str:
    """Where the database lives: a copy of it lives elsewhere (module docstring)."""
    if engine.dialect.name == "sqlite":
        path = engine.url.database
        if not path or path == ":memory:" or path.startswith("file:"):
            return "sqlite"  # a database of one process's own: nobody shares it
        found = os.stat(path)
        return f"sqlite:{found.st_dev}:{found.st_ino}"
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            oid, name = connection.execute(
                text("SELECT oid, datname FROM pg_database WHERE datname = current_database()")
            ).one()
        try:
            with engine.connect() as connection:
                cluster = connection.execute(text("SELECT system_identifier FROM pg_control_system()")).scalar()
        except DBAPIError:  # not allowed to read it: the oid and name alone
            cluster = None
        return f"postgresql:{cluster}:{oid}:{name}"
    return f"{engine.dialect.name}:{engine.url.host}:{engine.url.port}:{engine.url.database}"
