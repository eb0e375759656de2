"""How a route finds the parts of its app: each by its type (:class:`Parts`).

The assembly (:func:`red7.web.server.create_app`) makes the parts (the tables, the
accounts, the chat...) and adds each under the type its users ask for; a route asks for
what it needs as a parameter, ``tables: Annotated[Tables, part(Tables)]``. So a room's
routes depend only on the rooms below it (a club feature's routes never on the
assembly), and a type may be a :class:`~typing.Protocol` a room declares and a room above
it implements (the table asks for :class:`~red7.web.table.members.Members`; the accounts
provide them).
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

from fastapi import Depends
from starlette.requests import HTTPConnection

T = TypeVar("T")


class Parts:
    """The parts of one app, one of each type."""

    def __init__(self) -> None:
        self._parts: dict[type[Any], object] = {}

    def add(self, kind: type[T], found: T) -> None:
        """Make ``found`` the app's ``kind`` (one of each: adding another replaces it)."""
        self._parts[kind] = found

    def get(self, kind: type[T]) -> T:
        """The app's ``kind`` (the app has started: no route is served before)."""
        found = self._parts.get(kind)
        assert found is not None, f"the app has no {kind.__name__} (it has not started)"
        return cast(T, found)

    def __contains__(self, kind: object) -> bool:
        return kind in self._parts


def parts_of(connection: HTTPConnection) -> Parts:
    """The :class:`Parts` of the app ``connection`` (a request, a WebSocket) came to."""
    found = connection.app.state.parts
    assert isinstance(found, Parts)
    return found


def part(kind: type[T]) -> Any:
    """A route's parameter for its app's ``kind``: ``x: Annotated[Kind, part(Kind)]``."""

    def found(connection: HTTPConnection) -> T:
        return parts_of(connection).get(kind)

    return Depends(found)
