"""The accounts' part of the wire: the credentials a person registers or logs in with,
who is logged in (:class:`AccountView`), a person's profile (:class:`Profile`) and an
account as the admin's page lists it (:class:`AdminAccount`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Final, NotRequired

from pydantic import Field
from typing_extensions import TypedDict

from ...ui.i18n import _
from ..http.refusals import Refused
from ..http.wire import Request, Why, frame

PASSWORD_LENGTH: Final = (8, 256)
"""The shortest and longest password (a longer one would only make hashing cost more)."""


def username_refusal() -> Refused:
    """What a username that breaks :data:`USERNAME` is told."""
    return Refused(
        "bad-username",
        _(
            "A username has 3 to 20 letters (without accents), digits, '_', '.' or '-', "
            "and starts with a letter or a digit."
        ),
    )


def password_refusal() -> Refused:
    """What a password too short or too long is told."""
    low, high = PASSWORD_LENGTH
    return Refused("bad-password", _("A password has {low} to {high} characters.").format(low=low, high=high))


class Credentials(Request):
    """``POST /api/account/register`` and ``POST /api/account/login``: a username and its password."""

    refusals: ClassVar[Mapping[str, Why]] = {"username": username_refusal, "password": password_refusal}

    username: Annotated[str, Field(max_length=40)]
    password: Annotated[str, Field(max_length=PASSWORD_LENGTH[1])]


@frame
class AccountView(TypedDict):
    """``GET /api/account``, and the answer to a registration or login: who is logged in
    (``username`` null: nobody, a guest)."""

    username: str | None
    admin: bool


@frame
class ProfileGame(TypedDict):
    table: str
    number: int
    seat: int
    """The account's seat, from 0."""
    players: int
    started: str
    """When the game started (ISO 8601)."""
    won: bool
    replay: str
    """The address of its replay."""
    review: str
    """The address of its review (:mod:`red7.web.reviews`)."""


@frame
class RatingView(TypedDict):
    """A person's line on the leaderboard (:mod:`red7.web.ratings`)."""

    place: int
    rating: float
    """The cautious skill, ``mu - 3 sigma``, the leaderboard's order."""
    games: int
    """Rated games played."""


@frame
class Profile(TypedDict):
    """``GET /api/account/games``: the logged-in person's finished games, the newest
    first, and their rating (null: no rated game yet); ``GET /api/players/{username}``:
    the same of a registered person, their games at public tables only."""

    username: str
    games: list[ProfileGame]
    rating: NotRequired[Annotated[RatingView | None, Field(default=None)]]


@frame
class AdminAccount(TypedDict):
    username: str
    admin: bool
    banned: bool
    logins: int
    """Login sessions open."""
