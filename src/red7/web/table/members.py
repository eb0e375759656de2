"""Who is logged in, as the table needs to know it: a registered person sits under their
username, and their seat is linked to their account (a rated table seats nobody else).

The accounts are a club feature (:mod:`red7.web.accounts`), which the table never
imports: it declares what it asks of them here, and the accounts room provides it
(the app's :class:`~red7.web.http.parts.Parts`: ``Members``).
"""

from __future__ import annotations

from typing import Protocol

from starlette.requests import HTTPConnection


class Member(Protocol):
    """A registered person: their account's id and username."""

    @property
    def id(self) -> int: ...

    @property
    def username(self) -> str: ...


class Members(Protocol):
    """Who is logged in on a request or WebSocket (None: a guest)."""

    async def member_of(self, connection: HTTPConnection) -> Member | None: ...
