"""What every room's requests and frames are declared with, and how a request is read.

Each room declares its own part of the wire (``wire.py`` or ``frames.py`` in the room);
:mod:`red7.web.protocol` gathers them into the published protocol and its JSON Schema.

* **Requests** (HTTP bodies, WebSocket messages) are Pydantic models, subclasses of
  :class:`Request`: strict types, bounds, no field the protocol does not know. A request
  the models refuse is answered as every refusal is, ``{"code", "message"}`` with a
  sentence in the request's language (:func:`refusal_of`), never with Pydantic's own
  English: each model names, in :attr:`Request.refusals`, what a wrong field of it is told
  (the fields every request shares are :data:`REFUSALS`).
* **Frames and answers** are :class:`~typing.TypedDict` s decorated with :func:`frame`: the
  server builds them as plain dicts (a frame for every seat at every change must stay
  cheap: orjson encodes them), mypy checks every builder against its declaration, and
  Pydantic reads the same declaration for the schema and for the tests' strict validation.
  A field a client may not find in every frame is ``NotRequired``, with the value an old
  client takes for it as its ``Field(default=...)`` (the schema states it).

:data:`PROTOCOL_VERSION` is carried by every frame (``v``) and by the schema; it changes
when a frame or request changes in a way an existing client would misread (docs/protocol.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, Final, Literal, TypeVar

from fastapi.routing import APIRoute
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, with_config
from typing_extensions import TypedDict

from ...core.model import MAX_PLAYERS
from ...ui.i18n import _, parse_language
from .refusals import Refused

PROTOCOL_VERSION: Final = 1
"""The protocol's version: every frame's ``v``, the schema's ``version``."""
MAX_MESSAGE: Final = 4096
"""Bytes a client message or request body may have (a decision is about 60)."""
MAX_FRAME: Final = 1 << 20
"""Bytes a WebSocket message may have before the server stops reading it and closes the
socket (1009); between :data:`MAX_MESSAGE` and this, it is read and refused (``too-large``)."""
MAX_NUMBER: Final = 2**31 - 1
"""The largest number a request may hold (a game's number, a ``seq``: the database's integers)."""
MAX_TEXT: Final = 200
"""Characters a free text of a request (a name, before its spaces are folded; a token;
a decision's notation) may have."""

Number = Annotated[int, Field(ge=0, le=MAX_NUMBER)]
"""A count or a sequence number: an integer (not a bool, not a string), 0 to :data:`MAX_NUMBER`."""
SeatNumber = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
"""A seat, counted from 0 as the engine does (the pages show them from 1)."""
Text = Annotated[str, Field(max_length=MAX_TEXT)]
Tag = Literal["en", "pt-BR"]
"""A language this server speaks, as frames name it (:data:`red7.ui.i18n.LANGUAGES`)."""


def _language_tag(value: Any) -> Any:
    """A language as a person or browser writes it (``pt``, ``pt_BR``, ``en-GB``...) as
    its tag here; anything else is left for the enum to refuse."""
    if isinstance(value, str) and len(value) <= MAX_TEXT:
        try:
            return parse_language(value)
        except ValueError:
            return value
    return value


Language = Annotated[Tag, BeforeValidator(_language_tag)]
"""A language this server speaks, as a request may write it (read as its tag)."""

Why = Callable[[], Refused]
"""A refusal, made when asked (its sentence in the language in use then)."""


def _token() -> Refused:
    return Refused("bad-token", _("This seat token does not open a seat at this table."), 403)


def _kind() -> Refused:
    return Refused("bad-type", _("Unknown message type: use decide, take_back, again, decline, chat, hint or lang."))


REFUSALS: Final[Mapping[str, Why]] = {"token": _token, "type": _kind}
"""What a wrong field is told when the request's model says nothing of it: the fields
every request may share."""


class Request(BaseModel):
    """A client's request: strict types, no field the protocol does not know."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True)

    refusals: ClassVar[Mapping[str, Why]] = {}
    """What a wrong field of this request is told, by field (each field means one thing
    in every request it is in; :data:`REFUSALS` for the shared ones)."""


class Empty(Request):
    """A request that says everything in its address (``POST /api/account/logout``, an
    admin's actions): an empty JSON object, which a page of another site cannot send."""


frame: Final = with_config(ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True))
"""The decorator of every frame and answer (a TypedDict): exactly its fields, strictly typed."""


@frame
class Done(TypedDict):
    ok: Literal[True]


@frame
class Refusal(TypedDict):
    """An HTTP refusal (4xx): a stable ``code`` and a sentence in the request's language."""

    code: str
    message: str


def refusal_of(error: ValidationError, refusals: Mapping[str, Why], whole: str = "request") -> Refused:
    """The refusal of a request the models refused: the first wrong field's (in the
    order the model declares them: ``refusals`` says what each is told), a JSON that is
    not an object, or a field the protocol does not know; in the language in use.
    ``whole``: ``request`` (HTTP) or ``message`` (WebSocket), for the sentences about the whole."""
    problems = error.errors(include_url=False, include_context=False, include_input=False)
    kinds = {problem["type"] for problem in problems}
    if "json_invalid" in kinds:
        return Refused(
            "bad-json", _("The request is not JSON.") if whole == "request" else _("The message is not JSON.")
        )
    if kinds & {"union_tag_not_found", "union_tag_invalid"}:
        return _kind()
    for problem in problems:
        if not problem["loc"] or problem["type"] in ("model_type", "model_attributes_type", "dict_type"):
            if whole == "request":
                return Refused("bad-json", _("The request must be a JSON object."))
            return Refused("bad-json", _("The message must be a JSON object."))
    for problem in problems:
        field = str(problem["loc"][-1] if problem["type"] != "extra_forbidden" else "")
        why = refusals.get(field) or REFUSALS.get(field)
        if why is not None:
            return why()
    unknown = ", ".join(sorted({str(problem["loc"][-1]) for problem in problems}))
    return Refused("unknown-field", _("This server does not know the field {field}.").format(field=unknown[:100]))


R = TypeVar("R", bound=Request)


def parse_body(model: type[R], raw: bytes) -> R:
    """An HTTP body (JSON; empty: ``{}``) as ``model``, or :class:`Refused` saying what is wrong."""
    if len(raw) > MAX_MESSAGE:
        raise Refused("too-large", _("The request is too large."), 413)
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as err:
        raise refusal_of(err, model.refusals, "request") from None


class DeclaredRoute(APIRoute):
    """A route whose answer is declared by its return type, for mypy (which checks every
    builder against it) and the protocol's schema (:mod:`red7.web.protocol`), and sent as
    built: FastAPI neither builds a model of it nor checks each answer against it again.

    Why: FastAPI builds those models lazily, at a route's first request, and pydantic reads
    each declaration's attribute docstrings then by parsing its module's source with
    :mod:`ast`; CPython 3.11's AST constructor counts its depth in state shared by threads,
    so two threads parsing at once (two apps of a test process, each in its own thread)
    could fail with ``SystemError: AST constructor recursion depth mismatch`` (CPython issue
    106905), and a request with it. Checking every answer again also cost CPU for nothing
    mypy had not checked."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **options: Any) -> None:
        options["response_model"] = None
        super().__init__(path, endpoint, **options)
