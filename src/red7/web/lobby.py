"""The lobby's list of tables, a page at a time (``GET /api/tables?offset=&limit=``).

Open tables come first, then those being played, the newest first in each. A page costs
a look at every table's status and version (a few microseconds each) and the rows of
its own tables only: each row (:func:`red7.web.views.lobby_json`, in the table's
language) is kept until its table changes (a new version). Thousands of tables, or
pages polled by many lobbies at once, then cost the event loop a millisecond or two a
request instead of a whole list built and encoded each time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .live import LiveTable
from .views import lobby_json

PAGE = 50
"""Tables a page shows unless it asks for fewer."""
MAX_PAGE = 100
"""The most tables one page shows."""


class Lobby:
    """The lobby of a server's tables: ``listed`` gives them in the lobby's order
    (:meth:`red7.web.service.Tables.listed`)."""

    def __init__(self, listed: Callable[[], list[LiveTable]]) -> None:
        self.listed = listed
        self._rows: dict[str, tuple[int, dict[str, Any]]] = {}
        """Each listed table's row, with the version it shows."""

    def page(self, offset: int = 0, limit: int = PAGE) -> dict[str, Any]:
        """The tables ``offset`` to ``offset + limit`` of the list, and how many it has
        (``total``)."""
        listed = self.listed()
        if len(self._rows) > 2 * len(listed) + MAX_PAGE:  # forget the rows of tables gone from the list
            ids = {live.id for live in listed}
            self._rows = {key: row for key, row in self._rows.items() if key in ids}
        shown = listed[offset : offset + limit]
        return {"tables": [self._row(live) for live in shown], "total": len(listed), "offset": offset, "limit": limit}

    def _row(self, live: LiveTable) -> dict[str, Any]:
        kept = self._rows.get(live.id)
        if kept is None or kept[0] != live.version or kept[1]["status"] != live.status:
            kept = self._rows[live.id] = (live.version, lobby_json([live])[0])
        return kept[1]
