"""Accounts over HTTP (:mod:`red7.web.accounts.accounts`; JSON in and out, a refusal is
``{"code", "message"}`` with a 4xx status in the browser's language):

* ``POST /api/account/register`` ``{"username", "password"}``: a new account, logged in;
* ``POST /api/account/login`` ``{"username", "password"}``: log in;
* ``POST /api/account/logout`` ``{}``: log out;
* ``GET /api/account``: who is logged in (``{"username": null}``: nobody);
* ``GET /api/account/games``: the logged-in person's finished games (their profile);
* ``GET /api/players/{username}``: a registered person's public profile: their rating
  and their finished games at public tables (``no-account``, 404: no such person, banned,
  or with neither a rating nor a public game);
* ``GET /api/account/ui?lang=``: the words of the account and admin pages;
* ``/account``: the page to register, log in and see one's games;
* ``/players/{username}``: a person's public profile (the leaderboard links to it).

A login answers with the cookie :data:`~red7.web.accounts.accounts.COOKIE`: the login session's
id, HttpOnly (no script reads it), SameSite=Lax (no other site's page sends it with a
request that changes something), Path=/, and Secure when the request came over HTTPS
(behind a reverse proxy, one ``--trusted-proxy`` names, its ``X-Forwarded-Proto``
says). Registrations and logins are limited per client (:mod:`red7.web.accounts.login_limits`:
429 with ``Retry-After``); failed logins slow their address down, in every process
(:mod:`red7.web.accounts.throttle`: ``login-wait``, 429 with ``Retry-After``). Neither a
password nor a login session's id is ever logged: they travel in bodies and cookies
only, never in an address.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse
from starlette.requests import HTTPConnection

from ...core.model import N_
from ...ui.i18n import LANGUAGES, _, using
from ..http.limits import client_key
from ..http.metrics import Metrics
from ..http.parts import part
from ..http.refusals import Limited, Refused, asked_language
from ..http.wire import DeclaredRoute, Empty, parse_body
from ..ratings.ratings import Ratings
from .accounts import COOKIE, LOGIN_DAYS, Account, Accounts
from .login_limits import LoginLimits
from .wire import AccountView, Credentials, Profile, RatingView

STATIC = Path(__file__).parent / "static"
router = APIRouter(route_class=DeclaredRoute)

PAGE_WORDS: Final = {
    "account": N_("Account"),
    "account_title": N_("Your account"),
    "your_rating": N_("Your rating: {rating}, place {place} on the leaderboard ({games} rated games)."),
    "not_rated": N_("No rated game yet: play at a rated table to appear on the leaderboard."),
    "leaderboard": N_("Leaderboard"),
    "login": N_("Log in"),
    "register": N_("Register"),
    "register_title": N_("New account"),
    "username": N_("Username"),
    "password": N_("Password"),
    "username_rules": N_("3 to 20 letters, digits, '_', '.' or '-'."),
    "password_rules": N_("At least 8 characters, and not a common or easily guessed password."),
    "logout": N_("Log out"),
    "logged_in_as": N_("Logged in as {name}"),
    "games_title": N_("Your finished games"),
    "public_profile": N_("Your public profile"),
    "profile_title": N_("Profile of {name}"),
    "their_rating": N_("Rating: {rating}, place {place} on the leaderboard ({games} rated games)."),
    "their_not_rated": N_("No rated game yet."),
    "their_games": N_("Finished games at public tables"),
    "their_no_games": N_("No finished game at a public table yet."),
    "no_player": N_(
        "No public profile for {name}: a registered player has one once they have finished a game at a public"
        " table or played a rated game."
    ),
    "no_games": N_("No finished game yet: the games you play logged in are listed here."),
    "game_line": N_("Game {n} at table {table}, {players} players, seat {seat}"),
    "won": N_("won"),
    "lost": N_("lost"),
    "replay": N_("Replay"),
    "review": N_("Review"),
    "back": N_("Back to the lobby"),
    "language": N_("Language"),
    "admin": N_("Admin"),
    "admin_title": N_("Server admin"),
    "tables": N_("Open tables and games in progress"),
    "no_tables": N_("No table is open or being played."),
    "connected": N_("People connected: {n}"),
    "table_line": N_("Table {id}: {settings}, game {game}, {status}, {n} connected"),
    "close_table": N_("Close the table"),
    "revoke_seat": N_("Revoke the token of {name}"),
    "accounts": N_("Accounts"),
    "account_line": N_("{name}: {logins} login sessions"),
    "is_admin": N_("admin"),
    "is_banned": N_("banned"),
    "ban": N_("Ban"),
    "unban": N_("Lift the ban"),
    "remove": N_("Remove"),
    "end_logins": N_("End the login sessions"),
    "metrics": N_("Metrics of this process"),
    "done": N_("Done."),
    "not_admin": N_("This page is for the server's admins: log in with an admin account."),
}
"""The words of the account and admin pages, sent translated (``GET /api/account/ui``)."""


class Logins:
    """Who is logged in on a request or WebSocket: the account whose login session its
    cookie holds (the table's :class:`~red7.web.table.members.Members`)."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts

    async def member_of(self, connection: HTTPConnection) -> Account | None:
        """The account whose login session the cookie holds (None: a guest), read from
        the database (a session ended or an account banned in any process is none)."""
        session_id = connection.cookies.get(COOKIE)
        if not session_id:
            return None
        return await asyncio.to_thread(self.accounts.account_of, session_id)


AccountsPart = Annotated[Accounts, part(Accounts)]
LoginsPart = Annotated[Logins, part(Logins)]


def _words() -> dict[str, str]:
    return {key: _(words) for key, words in PAGE_WORDS.items()}


@router.get("/api/account/ui")
async def page_words(lang: str = "en") -> dict[str, Any]:
    try:
        with using(lang) as tag:
            return {"lang": tag, "languages": LANGUAGES, "ui": _words()}
    except ValueError as err:
        raise Refused("bad-language", str(err)) from None


@router.get("/account", include_in_schema=False)
async def account_page() -> FileResponse:
    return FileResponse(STATIC / "account.html")


@router.get("/players/{username}", include_in_schema=False)
async def profile_page(username: str) -> FileResponse:
    """The page (its script asks ``GET /api/players/{username}``, which says whether there is one)."""
    return FileResponse(STATIC / "player.html")


def _logged_in(request: Request, account: Account, session_id: str) -> JSONResponse:
    view: AccountView = {"username": account.username, "admin": account.admin}
    response = JSONResponse(view)
    response.set_cookie(
        COOKIE,
        session_id,
        max_age=LOGIN_DAYS * 86400,
        path="/",
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="lax",
    )
    return response


async def _let_try(request: Request, limits: LoginLimits, metrics: Metrics) -> str:
    """The client's key, if it may try to log in or register now; else Limited."""
    who = client_key(request.client.host if request.client else None)
    wait = await limits.refusal(who)
    if wait is not None:
        metrics.refused.labels(reason="logins").inc()
        message = _("Too many tries from your address: wait {seconds} s.").format(seconds=int(wait))
        raise Limited("too-many-logins", message, wait)
    return who


@router.post("/api/account/register")
async def register(
    request: Request,
    accounts: AccountsPart,
    limits: Annotated[LoginLimits, part(LoginLimits)],
    metrics: Annotated[Metrics, part(Metrics)],
) -> JSONResponse:
    with using(asked_language(request.headers.get("accept-language"))):
        await _let_try(request, limits, metrics)
        asked = parse_body(Credentials, await request.body())
        account, session_id = await asyncio.to_thread(accounts.register, asked.username, asked.password)
    return _logged_in(request, account, session_id)


@router.post("/api/account/login")
async def login(
    request: Request,
    accounts: AccountsPart,
    limits: Annotated[LoginLimits, part(LoginLimits)],
    metrics: Annotated[Metrics, part(Metrics)],
) -> JSONResponse:
    with using(asked_language(request.headers.get("accept-language"))):
        who = await _let_try(request, limits, metrics)
        asked = parse_body(Credentials, await request.body())
        account, session_id = await asyncio.to_thread(accounts.login, asked.username, asked.password, who)
    return _logged_in(request, account, session_id)


@router.post("/api/account/logout")
async def logout(request: Request, accounts: AccountsPart) -> JSONResponse:
    with using(asked_language(request.headers.get("accept-language"))):
        parse_body(Empty, await request.body())
    await asyncio.to_thread(accounts.logout, request.cookies.get(COOKIE))
    view: AccountView = {"username": None, "admin": False}
    response = JSONResponse(view)
    response.delete_cookie(COOKIE, path="/", secure=request.url.scheme == "https", httponly=True, samesite="lax")
    return response


@router.get("/api/account")
async def who_is_in(request: Request, logins: LoginsPart) -> AccountView:
    account = await logins.member_of(request)
    if account is None:
        return {"username": None, "admin": False}
    return {"username": account.username, "admin": account.admin}


def not_logged_in() -> Refused:
    return Refused("not-logged-in", _("Log in first."), 401)


@router.get("/api/account/games")
async def my_games(
    request: Request,
    logins: LoginsPart,
    accounts: AccountsPart,
    ratings: Annotated[Ratings, part(Ratings)],
) -> Profile:
    account = await logins.member_of(request)
    if account is None:
        with using(asked_language(request.headers.get("accept-language"))):
            raise not_logged_in()
    return await _profile(accounts, ratings, account, public=False)


@router.get("/api/players/{username}")
async def public_profile(
    username: str,
    request: Request,
    accounts: AccountsPart,
    ratings: Annotated[Ratings, part(Ratings)],
) -> Profile:
    """A registered person's rating and finished games at public tables: what anyone
    may see of them at the tables and on the leaderboard, gathered. A person with
    neither, banned or unknown gets the one same answer (``no-account``, 404): the
    profile tells nobody which names exist (as logging in does not), only what the
    tables and the leaderboard showed already."""
    with using(asked_language(request.headers.get("accept-language"))):
        nobody = Refused("no-account", _("There is no account {name}.").format(name=username[:40]), 404)
        try:
            account = await asyncio.to_thread(accounts.named, username)
        except Refused:
            raise nobody from None
        if account.banned:  # (as if gone: their login sessions open nothing either)
            raise nobody
        profile = await _profile(accounts, ratings, account, public=True)
        if not profile["games"] and profile.get("rating") is None:
            raise nobody
        return profile


async def _profile(accounts: Accounts, ratings: Ratings, account: Account, public: bool) -> Profile:
    games = await asyncio.to_thread(accounts.games, account.id, 200, public)
    line = await asyncio.to_thread(ratings.of, f"account:{account.id}")
    rating: RatingView | None = (
        None if line is None else {"place": line.place, "rating": round(line.rating, 2), "games": line.games}
    )
    return {"username": account.username, "games": games, "rating": rating}
