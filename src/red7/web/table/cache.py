"""Each view of a table built once per change, and its text encoded once (:class:`FrameCache`).

A table's clients see it through a few views only: one per seat and language, the mover's
with its staged turn, and one for every spectator in each language (:func:`~red7.web.table.views.table_frame`). A change
of the table (or of who is online) is sent to each of its clients here; the hub
(:class:`~red7.web.table.presence.Presence`) asks this cache for each client's view, which is made
once per distinct :func:`~red7.web.table.views.frame_key` and language (however many
connections show it,
and however many times the table's clients are told without anything in it changing),
and its texts (a connection's first frame, with the words of the page, or a later one
from a given line of the move log on) are encoded once each and their bytes re-sent.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from ...ui.i18n import using
from .frames import TableFrame
from .live import LiveTable
from .views import Shared, encode, frame_key, shared_view, since, table_frame
from .words import ui_words


@dataclass
class Built:
    """One view of a table at one moment: its ``key`` (:func:`~red7.web.table.views.frame_key`),
    the frame without the page's words (``whole``: never change it, clients compare to
    it), and its texts made so far, by the number of move-log lines the client keeps
    (``log_from``; None: a first frame, whole, with the words of the page)."""

    key: Hashable
    whole: TableFrame
    texts: dict[int | None, str] = field(default_factory=dict)

    def text(self, seen: Sequence[str] | None, lang: str) -> tuple[str, int | None]:
        """The text for a client that has the move log ``seen`` (None: a client's first
        frame), and its key in :attr:`texts`."""
        if seen is None:
            if None not in self.texts:
                with using(lang):
                    self.texts[None] = encode({**self.whole, "ui": ui_words()})
            return self.texts[None], None
        frame = since(self.whole, seen)
        start = frame["game"]["log_from"] if frame["game"] else 0
        if start not in self.texts:
            self.texts[start] = encode(frame)
        return self.texts[start], start


class FrameCache:
    """The last :class:`Built` view of each (table, seat, language) with clients here
    (seat None: the spectators'). The words of a view are made once per language, not
    once per connection: a table whose people read two languages costs two views of each
    seat at most."""

    def __init__(self) -> None:
        self._built: dict[str, dict[tuple[int | None, str], Built]] = {}
        self._shared: dict[str, dict[tuple[bool, str], tuple[Hashable, Shared]]] = {}
        self.builds = 0
        """How many views were made (:func:`~red7.web.table.views.table_frame` calls), in all."""

    def view(self, live: LiveTable, seat: int | None, lang: str | None = None) -> Built:
        """The view of ``seat`` of ``live`` now, in ``lang`` (None: the table's language):
        made again only if its key changed. The
        public part (:func:`~red7.web.table.views.shared_view`) is kept too, by the key of
        the spectators' view (the mover's, while a turn is staged: its mover sees it),
        so that it is made once per change and language for every seat."""
        lang = lang or live.lang
        key = frame_key(live, seat)
        built = self._built.setdefault(live.id, {})
        view = built.get((seat, lang))
        if view is None or view.key != key:
            self.builds += 1
            mover = seat is not None and seat == live.staging
            public = self._public(live, mover, lang)
            view = built[seat, lang] = Built(key, table_frame(live, seat, words=False, shared=public, lang=lang))
        return view

    def _public(self, live: LiveTable, mover: bool, lang: str) -> Shared:
        viewer = live.staging if mover else None
        key = frame_key(live, viewer)
        kept = self._shared.setdefault(live.id, {})
        found = kept.get((mover, lang))
        if found is None or found[0] != key:
            found = kept[mover, lang] = (key, shared_view(live, viewer, lang))
        return found[1]

    def __contains__(self, table_id: object) -> bool:
        """Whether views of ``table_id`` are kept."""
        return table_id in self._built or table_id in self._shared

    def forget(self, table_id: str) -> None:
        """Drop the views of ``table_id``: nobody here is shown it any more."""
        self._built.pop(table_id, None)
        self._shared.pop(table_id, None)
