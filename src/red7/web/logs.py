"""The server's logs: text lines for a person, or one JSON object a line for a log
collector (``red7 serve --log-format json``). Seat tokens never reach a log: the pages
put none in an address (a request line, which the access log, ``--access-log``, and a
proxy's logs write), the server logs table ids only, and a secret a careless client puts
in an address anyway (refused: ``token-in-url``) is hidden from every line before it is
written (:class:`HideSecrets`)."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import unquote_plus

from .accounts.accounts import COOKIE

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "color_message"}

SECRET_NAMES: Final = frozenset({"token", "invite", "password", "session", COOKIE})
"""The names of an address's parameters whose values a log never shows (in any case or
percent-encoding): a seat token, an invitation, a password, a login session."""
_PARAMETER = re.compile(r"([?&;])([^=&;#\s\"]+)=([^&;#\s\"]*)")
"""A parameter of an address's query (``name=value``, after ``?``, ``&`` or ``;``), as a
log line writes it (the request line's query as it came, up to a space or a quote)."""
HIDDEN: Final = "***"
"""What a log line shows in place of a secret."""


def hide_secrets(text: str) -> str:
    """``text`` with the value of every parameter named in :data:`SECRET_NAMES` of each
    address in it replaced by :data:`HIDDEN`."""

    def hidden(found: re.Match[str]) -> str:
        mark, name, value = found.groups()
        if value and unquote_plus(name).strip().lower() in SECRET_NAMES:
            return f"{mark}{name}={HIDDEN}"
        return found[0]

    return _PARAMETER.sub(hidden, text) if "=" in text else text


class HideSecrets(logging.Filter):
    """A filter of the log's handler: each record's message (its format and arguments:
    uvicorn's access line gives the request's path and query as one) with its secrets
    hidden (:func:`hide_secrets`) before any formatter, text or JSON, writes it."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed call: the handler reports it as it would have
            return True
        hidden = hide_secrets(message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


class JsonFormatter(logging.Formatter):
    """A record as one JSON line: time (UTC, ISO 8601), level, logger, message, the
    fields given with ``extra=`` and the exception's text if any."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update({key: value for key, value in vars(record).items() if key not in _STANDARD})
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


def log_config(style: str, access: bool = False) -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` for uvicorn and red7 (``style``: text or json;
    ``access``: a line for every request, else none)."""
    text = {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    formatter = {"()": JsonFormatter} if style == "json" else text
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "filters": {"secrets": {"()": HideSecrets}},
        "handlers": {
            "main": {
                "class": "logging.StreamHandler",
                "formatter": "main",
                "filters": ["secrets"],  # every line, uvicorn's and red7's
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": {"handlers": ["main"], "level": "WARNING", "propagate": False},
            "uvicorn.error": {"level": "INFO" if access else "WARNING"},  # its INFO: the WebSockets' lines
            "uvicorn.access": {"handlers": ["main"] if access else [], "level": "INFO", "propagate": False},
            "red7": {"handlers": ["main"], "level": "INFO", "propagate": False},
            # the asynchronous pool says each of its failed reconnections (PostgreSQL restarting:
            # dozens of lines); the store says an outage once (red7.web.storage.outage)
            "psycopg.pool": {"handlers": ["main"], "level": "ERROR", "propagate": False},
        },
    }
