"""The server's logs: text lines for a person, or one JSON object a line for a log
collector (``red7 serve --log-format json``). Seat tokens never reach a log: none travels
in an address (a request line, which the access log, ``--access-log``, and a proxy's logs
write), and the server logs table ids only."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "color_message"}


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
        "handlers": {"main": {"class": "logging.StreamHandler", "formatter": "main", "stream": "ext://sys.stderr"}},
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
