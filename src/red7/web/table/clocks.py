"""A table's clock as the web shows it: the clocks a table may have, and the countdown
every seat and spectator sees.

The clock itself (the seconds of each turn, the deadline of the turn awaited, the away
substitution at its end) is the table's :class:`~red7.play.session.Session`'s; the
server gives it the time (:attr:`red7.web.table.tables.Tables.wall`, seconds since the
epoch: a deadline is stored, so it outlives the process and is the same in every one).
A table without a clock keeps the patience of old: a person away on their turn for
:attr:`~red7.web.settings.Settings.patience` seconds gets a substitute; its countdown
is shown the same way.
"""

from __future__ import annotations

import math
import time
from typing import Any, Final, Literal

from ...ui.i18n import _
from ..http.refusals import Refused
from .frames import ClockView
from .live import LiveTable

CLOCKS: Final = (0, 60, 180, 86_400, 259_200)
"""The clocks a table may have, in seconds per turn: none, a minute, three minutes (a
per-turn clock), a day, three days (a correspondence clock, for a game over days)."""
CORRESPONDENCE: Final = 3_600
"""A clock of this many seconds per turn or more is a correspondence clock."""

Kind = Literal["turn", "correspondence", "away"]


def clock_refusal() -> Refused:
    """A table's clock that is not one of :data:`CLOCKS`, refused in the language in use."""
    return Refused(
        "bad-clock",
        _("A table's clock is 0 (none), 60 or 180 seconds a turn, or 86400 or 259200 (one or three days)."),
    )


def clock_kind(seconds: int) -> Literal["turn", "correspondence"] | None:
    """What a clock of ``seconds`` per turn is called (None: no clock)."""
    if not seconds:
        return None
    return "correspondence" if seconds >= CORRESPONDENCE else "turn"


def countdown(live: LiveTable) -> ClockView | None:
    """The countdown of the turn awaited, as every frame shows it: whose turn (``seat``),
    why it runs (``kind``: the table's clock, or ``away``: the patience with a person
    who is not connected), the ``seconds`` it gives and the whole seconds ``remaining``
    (counted by the page from the frame on). None: nothing runs (no game, a bot's
    turn, a substitute playing, a person connected at a table without a clock)."""
    mover = live.session.mover()
    if mover is None or mover[1].value != "person":
        return None
    seat = mover[0]
    session = live.session
    if session.clock:
        if session.deadline is None:
            return None
        left = session.deadline - live.wall()
        kind: Kind = "correspondence" if session.clock >= CORRESPONDENCE else "turn"
        return _view(seat, kind, session.clock, left)
    state = live.seats[seat]
    if state.left is None or not live.patience:
        return None
    return _view(seat, "away", live.patience, live.patience - (time.monotonic() - state.left))


def _view(seat: int, kind: Kind, seconds: float, left: float) -> ClockView:
    return {"seat": seat, "kind": kind, "seconds": int(seconds), "remaining": max(0, math.ceil(left))}


def countdown_key(live: LiveTable) -> tuple[Any, ...] | None:
    """What :func:`countdown` shows, as part of a frame's key (its whole seconds)."""
    shown = countdown(live)
    return None if shown is None else tuple(shown.values())
