"""What the routes of one app share (:class:`Context`), and how a route finds it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Path
from starlette.requests import HTTPConnection

from ..accounts import Accounts
from ..hints import Hints
from ..limits import ClientLimits
from ..lobby import Lobby
from ..login_limits import LoginLimits
from ..metrics import Metrics
from ..origins import Origin
from ..protocol import MAX_NUMBER
from ..reviews import Reviews
from ..service import Tables
from ..settings import Settings

GameNumber = Annotated[int, Path(ge=0, le=MAX_NUMBER)]
"""A game's number in an address: bounded (past the database's integers, a 422)."""


@dataclass
class Context:
    """One app's settings, metrics, origins and client limits, and (once it has started:
    its lifespan loads them) its tables and lobby."""

    settings: Settings
    metrics: Metrics
    origins: tuple[Origin, ...]
    client_limits: ClientLimits
    live_tables: Tables | None = None
    lobby: Lobby | None = None
    login_limits: LoginLimits | None = None
    """What each client may try of logins and registrations (made with the app)."""
    live_accounts: Accounts | None = None
    """The accounts (once the app has started)."""
    hints: Hints = field(default_factory=Hints)
    """The hints being worked out and each seat's share of them."""
    reviews: Reviews = field(default_factory=Reviews)
    """The finished games' reviews, worked out once each."""

    def tables(self) -> Tables:
        """The app's tables (the app has started: no route is served before)."""
        assert self.live_tables is not None, "the app has not started"
        return self.live_tables

    def accounts(self) -> Accounts:
        """The app's accounts (the app has started)."""
        assert self.live_accounts is not None, "the app has not started"
        return self.live_accounts


def context_of(connection: HTTPConnection) -> Context:
    """The :class:`Context` of the app ``connection`` (a request, a WebSocket) came to."""
    found: Any = connection.app.state.context
    assert isinstance(found, Context)
    return found


Shared = Annotated[Context, Depends(context_of)]
"""A route's parameter for its app's :class:`Context`."""
