"""The web game: ``red7 serve``.

See :mod:`red7.web.server` for the application and :mod:`red7.web.routes` for its
routes (pages, the lobby's API, the game's WebSocket, records, operations);
:mod:`red7.web.protocol` for every request and frame on the wire, declared
(docs/protocol.md); :mod:`red7.web.views` for everything sent to a browser;
:mod:`red7.web.service` for the tables, their bots and connections
(:mod:`red7.web.live` holds the data); and :mod:`red7.web.store` for the database.
Needs the optional ``web`` extra (FastAPI, uvicorn, SQLAlchemy, Alembic).
"""
