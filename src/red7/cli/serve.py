"""``red7 serve``: the web game (FastAPI and uvicorn, the optional ``web`` extra)."""

from __future__ import annotations

import argparse
import ipaddress

from .common import Parser, UsageError


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    p = sub.add_parser("serve", help="the web game: play in the browser, with friends online or against the bots")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    p.add_argument(
        "--database-url",
        metavar="URL",
        default=None,
        help="a SQLAlchemy database URL (default: a SQLite file in the user's data directory)",
    )
    p.add_argument("--workers", type=int, default=2, help="processes the bots think in (default 2)")
    p.add_argument("--bot-delay", type=float, default=0.8, help="least seconds a bot's move takes (default 0.8)")
    p.add_argument(
        "--away",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="seconds a player may be away on their turn before a bot plays for them (default 60)",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin whose pages may open the game's WebSockets (e.g. https://red7.example.org)",
    )


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.server import Settings, create_app
    except ImportError as err:
        raise UsageError(f"red7 serve needs the web extra: pip install 'red7[web]' ({err.name} is missing)") from None
    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be between 1 and 65535, not {args.port}")
    if not 0 <= args.workers <= 64:
        raise UsageError(f"--workers must be between 0 and 64, not {args.workers}")
    if not 0 <= args.bot_delay <= 10:
        raise UsageError(f"--bot-delay must be between 0 and 10 seconds, not {args.bot_delay}")
    if not args.away > 0:
        raise UsageError(f"--away must be a positive number of seconds, not {args.away}")
    try:
        ipaddress.ip_address(args.host)
    except ValueError:
        if args.host != "localhost":
            raise UsageError(f"--host must be an IP address (or localhost), not {args.host!r}") from None
    settings = Settings(args.database_url, args.workers, args.bot_delay, args.away, tuple(args.allow_origin))
    print(f"red7: the web game is at http://{args.host}:{args.port}/ (Ctrl+C stops it)", flush=True)
    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        access_log=False,  # request lines would carry seat tokens (?token=...)
        ws_max_size=64 * 1024,
        log_level="warning",
    )
    return 0
