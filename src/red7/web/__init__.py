"""The web game: ``red7 serve``.

:mod:`red7.web.server` assembles the application from its rooms; docs/architecture.md
has the map of who owns what and the import contracts that keep it. Needs the optional
``web`` extra (FastAPI, uvicorn, SQLAlchemy, Alembic).
"""
