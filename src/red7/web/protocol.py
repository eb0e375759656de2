"""The web game's wire protocol, gathered: every request a client sends and every frame
and answer the server sends, each declared once in the room it belongs to, and their
JSON Schema (docs/protocol.md explains them).

* Requests are Pydantic models (:class:`~red7.web.http.wire.Request`): the table's
  (:mod:`red7.web.table.requests`), the chat's, the hints', the accounts'. What a client
  sends on its WebSocket after its hello is one of :data:`Sent`, told apart by its
  ``type`` (:func:`parse_message`).
* Frames and answers are TypedDicts (:func:`~red7.web.http.wire.frame`), built as plain
  dicts by their rooms and checked by mypy against these declarations; the tests validate
  every frame the games of tests/web/test_web_leaks.py send, strictly, against
  :data:`SERVER_FRAME`.

:func:`schema` is what ``GET /api/protocol`` serves and ``python -m red7.web.protocol``
writes to docs/protocol.schema.json (a test fails while the file is stale).
:data:`~red7.web.http.wire.PROTOCOL_VERSION` is carried by every frame (``v``) and by the
schema (its ``$id``, ``title`` and ``version``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Final, TypeVar, get_args

from pydantic import Field, TypeAdapter, ValidationError
from pydantic.json_schema import GenerateJsonSchema

from .accounts.wire import AccountView, Credentials, Profile
from .admin.wire import AdminView
from .chat.wire import ChatFrame, Say
from .http.wire import PROTOCOL_VERSION, Done, Empty, Refusal, Request, refusal_of
from .learn.wire import TutorialStep, TutorialView
from .reviews.wire import Hint, HintFrame, ReviewView
from .table.frames import (
    Created,
    ErrorFrame,
    Invitation,
    LobbyPage,
    Replay,
    Seated,
    TableFrame,
    TurnsPage,
    UiWords,
)
from .table.requests import (
    AddBot,
    Again,
    ChangeInvite,
    CreateTable,
    Decide,
    Decline,
    Hello,
    LeaveSeat,
    PlayNow,
    RemoveSeat,
    Reseat,
    Speak,
    StartGame,
    TakeBack,
    TakeSeat,
    YourTurn,
)

SCHEMA_ID: Final = f"urn:red7:web-protocol:{PROTOCOL_VERSION}"

Sent = Decide | TakeBack | Again | Decline | Say | Hint | Speak
"""The messages a client sends on its WebSocket after its hello (:mod:`red7.web.socket`
handles each: a type without its handler fails ``mypy --strict`` there)."""
ClientMessage = Annotated[Sent, Field(discriminator="type")]
"""What a client sends on its WebSocket after its hello, told apart by its ``type``."""
CLIENT_MESSAGE: Final = TypeAdapter[Sent](ClientMessage)
MESSAGES: Final[dict[str, type[Request]]] = {
    get_args(model.model_fields["type"].annotation)[0]: model for model in get_args(Sent)
}
"""Each message's model by its ``type``."""

Frame = TableFrame | ErrorFrame | ChatFrame | HintFrame
"""The frames the server sends on a WebSocket."""
ServerFrame = Annotated[Frame, Field(discriminator="type")]
"""What the server sends on a WebSocket, told apart by its ``type``."""
SERVER_FRAME: Final = TypeAdapter[Frame](ServerFrame)


T = TypeVar("T")


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def read(kind: type[T], text: str | bytes) -> T:
    """``text``, a frame or answer the server sent (JSON), read as its declaration ``kind``
    strictly (a Python client's, a test's): exactly its fields, each of its type; else
    :class:`pydantic.ValidationError`."""
    adapter = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
    found: T = adapter.validate_json(text, strict=True)
    return found


def parse_message(text: str) -> Sent:
    """A WebSocket's message after its hello (already under
    :data:`~red7.web.http.wire.MAX_MESSAGE`), or :class:`Refused` saying what is wrong,
    as its model says of the field at fault."""
    try:
        return CLIENT_MESSAGE.validate_json(text)
    except ValidationError as err:
        problems = err.errors(include_url=False, include_context=False, include_input=False)
        tag = problems[0]["loc"][0] if problems and problems[0]["loc"] else None
        model = MESSAGES.get(tag) if isinstance(tag, str) else None
        raise refusal_of(err, {} if model is None else model.refusals, "message") from None


# --- the schema ---------------------------------------------------------------------------------

REQUESTS: Final[dict[str, Any]] = {
    "POST /api/tables": CreateTable,
    "POST /api/play-now": PlayNow,
    "POST /api/tables/{id}/seats/{seat}": TakeSeat,
    "POST /api/tables/{id}/bots": AddBot,
    "POST /api/tables/{id}/start": StartGame,
    "POST /api/tables/{id}/seats/{seat}/reseat": Reseat,
    "POST /api/account/register": Credentials,
    "POST /api/account/login": Credentials,
    "POST /api/account/logout": Empty,
    "POST /api/admin/...": Empty,
    "POST /api/tables/{id}/seats/{seat}/remove": RemoveSeat,
    "POST /api/tables/{id}/leave": LeaveSeat,
    "POST /api/tables/{id}/invite": ChangeInvite,
    "WebSocket /ws/{id}: first message": Hello,
    "WebSocket /ws/{id}: decide": Decide,
    "WebSocket /ws/{id}: take_back": TakeBack,
    "WebSocket /ws/{id}: again": Again,
    "WebSocket /ws/{id}: decline": Decline,
    "POST /api/turns": YourTurn,
    "WebSocket /ws/{id}: chat": Say,
    "WebSocket /ws/{id}: hint": Hint,
    "POST /api/tutorial": TutorialStep,
}
"""Each request and the model its body or message is."""
ANSWERS: Final[dict[str, Any]] = {
    "GET /api/ui": UiWords,
    "GET /api/tables": LobbyPage,
    "POST /api/tables": Created,
    "POST /api/play-now": Created,
    "POST /api/tables/{id}/seats/{seat}": Seated,
    "POST /api/tables/{id}/bots": Done,
    "POST /api/tables/{id}/start": Done,
    "POST /api/tables/{id}/seats/{seat}/reseat": Seated,
    "GET /api/account": AccountView,
    "POST /api/account/register": AccountView,
    "POST /api/account/login": AccountView,
    "POST /api/account/logout": AccountView,
    "GET /api/account/games": Profile,
    "GET /api/admin": AdminView,
    "POST /api/admin/...": Done,
    "POST /api/tables/{id}/seats/{seat}/remove": Done,
    "POST /api/tables/{id}/leave": Done,
    "POST /api/tables/{id}/invite": Invitation,
    "GET /api/tables/{id}/games/{n}/replay": Replay,
    "POST /api/turns": TurnsPage,
    "GET /api/tables/{id}/games/{n}/review": ReviewView,
    "POST /api/tutorial": TutorialView,
    "any refusal (4xx)": Refusal,
    "WebSocket /ws/{id}: table": TableFrame,
    "WebSocket /ws/{id}: error": ErrorFrame,
    "WebSocket /ws/{id}: chat": ChatFrame,
    "WebSocket /ws/{id}: hint": HintFrame,
}
"""Each answer and the declaration it is (a game's record, ``GET .../record``, is the
engine's record format: docs/library.md)."""


def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (draft 2020-12): every declaration under ``$defs``, and
    which request and answer each is (``requests``, ``answers``: references into ``$defs``)."""
    declared = list(dict.fromkeys([*REQUESTS.values(), *ANSWERS.values()]))
    adapters = [(kind, "validation", TypeAdapter(kind)) for kind in declared]
    refs, defs = TypeAdapter.json_schemas(adapters, ref_template="#/$defs/{model}", schema_generator=GenerateJsonSchema)  # type: ignore[arg-type]
    ref = {kind: refs[(kind, "validation")] for kind in declared}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"Red7 web protocol, version {PROTOCOL_VERSION}",
        "version": PROTOCOL_VERSION,
        "description": "docs/protocol.md explains the messages, their order, the refusals and the versions.",
        "requests": {name: ref[kind] for name, kind in REQUESTS.items()},
        "answers": {name: ref[kind] for name, kind in ANSWERS.items()},
        "$defs": defs["$defs"],
    }


def schema_text() -> str:
    """:func:`schema` as docs/protocol.schema.json holds it."""
    return json.dumps(schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    """``python -m red7.web.protocol [FILE]``: write the schema to FILE (default: print it)."""
    if len(argv) > 1:
        print("usage: python -m red7.web.protocol [FILE]", file=sys.stderr)
        return 2
    if argv:
        Path(argv[0]).write_text(schema_text(), encoding="utf-8")
    else:
        sys.stdout.write(schema_text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
