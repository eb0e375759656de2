"""The lobby API's time with thousands of tables in the store: ``GET /api/tables``
answered by one server process on SQLite, in process (FastAPI's TestClient: no
network), for the first page, a filtered page and a deep page.

The tables are written straight into a fresh database (``--tables`` of them, every
configuration in turn, one in ten private, one in seven with every seat taken), then
the app starts and loads them as a restarted server does. Each request is timed
``--repeat`` times; reported: each one's median and 99th percentile in milliseconds,
the number of tables each answer says match (``total``), and the server's load time.

    python -m benchmarks.web_lobby [--tables 5000] [--repeat 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import insert

from red7.web.http.limits import UNLIMITED
from red7.web.server import create_app
from red7.web.settings import Settings
from red7.web.storage.rows import SeatRow, TableRow
from red7.web.storage.store import Store

CONFIGS = [
    (players, advanced, actions) for players in (2, 3, 4) for advanced in (False, True) for actions in (False, True)
]
QUERIES = {
    "first page": "/api/tables?limit=20",
    "filtered (3 players, advanced, free seat)": "/api/tables?limit=20&players=3&advanced=true&free=true",
    "deep page (offset 4000)": "/api/tables?limit=20&offset=4000",
    "filtered, second page (4 players, basic, action cards, free seat)": (
        "/api/tables?limit=20&offset=20&players=4&advanced=false&actions=true&free=true"
    ),
}


def fill(url: str, tables: int) -> None:
    """Write ``tables`` tables and their seats into the database at ``url`` (upgraded)."""
    store = Store(url)
    store.upgrade()
    now = datetime.now(UTC)
    rows: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    for i in range(tables):
        players, advanced, actions = CONFIGS[i % len(CONFIGS)]
        table_id = f"t{i:06}"
        rows.append(
            {
                "id": table_id,
                "created": now,
                "players": players,
                "advanced": advanced,
                "actions": actions,
                "lang": "pt-BR" if i % 2 else "en",
                "status": "open",
                "version": 1,
                "name": f"Mesa {i}",
                "private": i % 10 == 0,
                "invite_hash": "0" * 64 if i % 10 == 0 else None,
            }
        )
        full = i % 7 == 0
        for seat in range(players):
            taken = seat == 0 or full
            seats.append(
                {
                    "table_id": table_id,
                    "seat": seat,
                    "name": "Ana" if seat == 0 else "",
                    "token_hash": f"{i:064x}" if seat == 0 else None,
                    "bot": "easy" if taken and seat else None,
                    "substitute": None,
                    "undone": 0,
                }
            )
    with store.engine.begin() as connection:
        connection.execute(insert(TableRow), rows)
        connection.execute(insert(SeatRow), seats)
    store.close()


def measure(tables: int, repeat: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="red7-lobby-") as folder:
        url = f"sqlite:///{Path(folder) / 'db.sqlite3'}"
        fill(url, tables)
        settings = Settings(database_url=url, workers=0, limits=UNLIMITED, allowed_hosts=("testserver",))
        started = time.perf_counter()
        with TestClient(create_app(settings)) as client:
            loaded = time.perf_counter() - started
            report: dict[str, Any] = {"tables": tables, "repeat": repeat, "load_seconds": round(loaded, 2)}
            for name, path in QUERIES.items():
                times, total = [], 0
                for _ in range(repeat):
                    begun = time.perf_counter()
                    response = client.get(path)
                    times.append(time.perf_counter() - begun)
                    assert response.status_code == 200, response.text
                    total = response.json()["total"]
                times.sort()
                report[name] = {
                    "p50_ms": round(statistics.median(times) * 1000, 2),
                    "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 2),
                    "total": total,
                }
        return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    report = measure(args.tables, args.repeat)
    if args.json:
        print(json.dumps(report))
        return
    print(f"{report['tables']} tables in the store, loaded in {report['load_seconds']} s; {args.repeat} requests each")
    for name in QUERIES:
        figures = report[name]
        print(f"  {name}: p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms ({figures['total']} tables match)")


if __name__ == "__main__":
    main()
