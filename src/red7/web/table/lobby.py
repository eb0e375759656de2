"""The lobby's list of tables, a page at a time (``GET /api/tables?offset=&limit=``),
filtered by configuration and by "has a free seat" (:class:`Filters`).

Open public tables come first, then those being played, the newest first in each
(private tables are never listed). A page costs
a look at every table's status and version (a few microseconds each) and the rows of
its own tables only: each row (:func:`red7.web.table.views.lobby_json`, in the visitor's
language: a lobby speaks one) is kept until its table changes (a new version). Thousands of tables, or
pages polled by many lobbies at once, then cost the event loop a millisecond or two a
request instead of a whole list built and encoded each time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .frames import LobbyPage, LobbyRow
from .live import LiveTable
from .views import lobby_json

PAGE = 50
"""Tables a page shows unless it asks for fewer."""
MAX_PAGE = 100
"""The most tables one page shows."""


@dataclass(frozen=True)
class Filters:
    """Which tables a page lists: None (or False for ``free``) lets any pass."""

    players: int | None = None
    advanced: bool | None = None
    """True: advanced games only; False: basic ones only."""
    actions: bool | None = None
    """True: with the action cards only; False: without them only."""
    free: bool = False
    """Only tables with a free seat (open ones: a seat is free only before the start)."""

    def passes(self, live: LiveTable) -> bool:
        config = live.config
        return (
            (self.players is None or config.players == self.players)
            and (self.advanced is None or config.advanced == self.advanced)
            and (self.actions is None or config.actions == self.actions)
            and (not self.free or (live.status == "open" and any(not seat.taken for seat in live.seats)))
        )

    @property
    def none(self) -> bool:
        return self == NO_FILTERS


NO_FILTERS = Filters()


class Lobby:
    """The lobby of a server's tables: ``listed`` gives them in the lobby's order
    (:meth:`red7.web.table.tables.Tables.listed`)."""

    def __init__(self, listed: Callable[[], list[LiveTable]]) -> None:
        self.listed = listed
        self._rows: dict[tuple[str, str | None], tuple[int, LobbyRow]] = {}
        """Each listed table's row in each language asked, with the version it shows."""

    def page(
        self, offset: int = 0, limit: int = PAGE, filters: Filters = NO_FILTERS, lang: str | None = None
    ) -> LobbyPage:
        """The tables ``offset`` to ``offset + limit`` of the list of those passing
        ``filters``, and how many pass (``total``), worded in ``lang`` (None: each
        table's own language)."""
        listed = self.listed()
        if len(self._rows) > 4 * len(listed) + MAX_PAGE:  # forget the rows of tables gone from the list
            ids = {live.id for live in listed}
            self._rows = {key: row for key, row in self._rows.items() if key[0] in ids}
        if not filters.none:
            listed = [live for live in listed if filters.passes(live)]
        shown = listed[offset : offset + limit]
        rows = [self._row(live, lang) for live in shown]
        return {"tables": rows, "total": len(listed), "offset": offset, "limit": limit}

    def _row(self, live: LiveTable, lang: str | None) -> LobbyRow:
        kept = self._rows.get((live.id, lang))
        if kept is None or kept[0] != live.version or kept[1]["status"] != live.status:
            kept = self._rows[live.id, lang] = (live.version, lobby_json([live], lang)[0])
        return kept[1]
