"""Refusals: what the web server answers when it does not do what it is asked.

A refusal has a stable ``code`` for programs and a ``message``, a sentence in the
request's language (the table's, or the one the page or browser asks for:
:func:`asked_language`); over HTTP it is ``{"code", "message"}`` with a 4xx status
(:func:`refusal_response`), on a WebSocket an ``error`` frame. Nothing was changed.
"""

from __future__ import annotations

import contextlib
from typing import Any

from fastapi.responses import JSONResponse

from ...play.session import Stop
from ...ui.i18n import _, parse_language


class Refused(Exception):
    """A request that cannot be done: ``code`` for programs, ``message`` in words (in
    the asker's language). Nothing was changed."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def session_refusal(stop: Stop) -> Refused:
    """The words of a table's session refusing an input (:class:`~red7.play.session.Stop`),
    in the language in use: the one sentence of each, whoever finds it (the session, the
    protocol's check of a ``seq``, a write another process got in first)."""
    if stop is Stop.STALE:
        return Refused("stale", _("The table changed before your decision arrived: look again and decide."), 409)
    if stop is Stop.NOT_YOUR_TURN:
        return Refused("not-your-turn", _("It is not your turn."), 409)
    if stop is Stop.NOT_OVER:
        return Refused("not-over", _("The game is not over yet."), 409)
    if stop is Stop.AGREED:
        return Refused("agreed", _("You have agreed to play again already: the others are asked."), 409)
    if stop is Stop.TIME_UP:
        return Refused("time-up", _("Your time for this turn is over: a bot plays it for you."), 409)
    if stop is Stop.NO_PROPOSAL:
        return Refused("no-proposal", _("Nobody has proposed to play again."), 409)
    if stop is Stop.CLOSED:
        return Refused("closed", _("An admin of this server closed this table: nothing more is played at it."), 409)
    return Refused("no-game", _("No game is being played at this table."), 409)


class Limited(Refused):
    """A refusal of a client that has had its share (429): ``retry_after`` seconds until it may try again."""

    def __init__(self, code: str, message: str, retry_after: float) -> None:
        super().__init__(code, message, 429)
        self.retry_after = retry_after


def asked_language(accept: str | None, *choices: Any) -> str:
    """The language to refuse a request in: the first of ``choices`` that names a
    language this server speaks (a page's own choice), else the first of the browser's
    ``Accept-Language`` header, else English."""
    return spoken_language(accept, *choices) or "en"


def spoken_language(accept: str | None, *choices: Any) -> str | None:
    """The first of ``choices`` that names a language this server speaks, else the first
    of the browser's ``Accept-Language`` header that does; None if none does (a caller
    then falls back: to English, to the table's language)."""
    tags = [c for c in choices if isinstance(c, str)]
    tags += [part.split(";")[0].strip() for part in (accept or "").split(",")[:8]]
    for tag in tags:
        if tag and tag != "*":
            with contextlib.suppress(ValueError):
                return parse_language(tag)
    return None


def refusal_response(code: str, message: str, status: int, headers: dict[str, str] | None = None) -> JSONResponse:
    """A refusal as an HTTP answer."""
    return JSONResponse({"code": code, "message": message}, status_code=status, headers=headers)


def response_of(err: Refused) -> JSONResponse:
    """``err`` as an HTTP answer (a :class:`Limited` one says when to come back: ``Retry-After``)."""
    headers = {"Retry-After": str(int(err.retry_after))} if isinstance(err, Limited) else None
    return refusal_response(err.code, err.message, err.status, headers)
