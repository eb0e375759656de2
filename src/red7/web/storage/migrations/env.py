"""Alembic's environment for the web server's database (see red7.web.storage.store).

The server runs the migrations itself (:meth:`red7.web.storage.store.Store.upgrade`), handing
its connection over in ``config.attributes["connection"]``; there is no alembic.ini."""

from __future__ import annotations

from alembic import context

from red7.web.storage.rows import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through red7.web.storage.store.Store.upgrade()")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
