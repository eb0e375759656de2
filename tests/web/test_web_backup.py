"""Backing up and restoring the web game's database (docs/deploying.md, "Backup and
restore"): a server with a finished game, a game in progress, an open table and chat,
backed up while it runs, restored into a fresh database; a new server on the restore
shows the same tables, records, replays, frames and chat. SQLite through ``red7 db
backup`` and ``red7 db restore`` (fast tier); PostgreSQL through ``pg_dump`` and
``pg_restore`` (full tier, the services fixture); each through the lines of
docs/deploying.md marked ``<!-- tested: ... -->``, read from the page and run as written,
the backup made private (0600). And what the commands refuse.
"""

from __future__ import annotations

import json
import os
import random
import re
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from red7.web.storage.store import libpq_address
from tests.support import local_services as services
from tests.support.web_live import Client, Game_, comparable, new_game, newest, play, post, settle
from tests.support.web_server import WebServer, red7_command

DOCS = Path(__file__).resolve().parents[2] / "docs" / "deploying.md"


def documented(name: str) -> str:
    """The shell lines of docs/deploying.md's block marked ``<!-- tested: NAME ... -->``."""
    found = re.search(rf"^<!-- tested: {re.escape(name)}\b[^\n]*-->\n```sh\n(.*?)^```$", DOCS.read_text(), re.M | re.S)
    assert found is not None, f"docs/deploying.md has no block marked <!-- tested: {name} -->"
    return found.group(1)


def run_documented(name: str, folder: Path, variables: dict[str, str], bin_dir: Path | None = None) -> str:
    """Run docs/deploying.md's block ``name`` as written, by bash in ``folder`` (an admin's
    backups' folder), every line required to succeed, with the page's variables
    (``RED7_DATABASE_URL``, ``restored``, ``backup``) set to the test's; ``red7`` (and
    ``bin_dir``'s commands: PostgreSQL's) on the PATH. The umask is the usual 022 of a
    login shell, whatever the test's own: the lines must make the backup private
    themselves. What the lines printed."""
    path = os.pathsep.join(str(d) for d in (bin_dir, Path(sys.executable).parent) if d is not None)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RED7_", "PG"))}
    env.update(variables, PATH=f"{path}{os.pathsep}{os.environ['PATH']}")
    script = f"umask 022\n{documented(name)}"
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"docs/deploying.md's {name} lines failed:\n{done.stdout}{done.stderr}"
    return done.stdout


def only_backup(folder: Path, pattern: str) -> Path:
    """The one backup the documented lines made in ``folder``, checked private (0600)."""
    made = list(folder.iterdir())
    assert [p.name for p in made] == [p.name for p in folder.glob(pattern)] and len(made) == 1, made
    assert stat.S_IMODE(made[0].stat().st_mode) == 0o600, oct(made[0].stat().st_mode)
    return made[0]


def red7_db(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*red7_command(), "db", *args], capture_output=True, text=True, timeout=120)


def get(server: WebServer, path: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.get(f"{server.url}{path}", headers=headers, timeout=60, trust_env=False)
    assert r.status_code == 200, r.text
    return r.json()


def chat_history(server: WebServer, table: str, token: str | None) -> list[dict[str, Any]]:
    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}", proxy=None, open_timeout=60, legacy=True) as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "chat": True}))
        while True:
            frame = json.loads(ws.recv(timeout=60))
            if frame["type"] == "chat":
                return list(frame["lines"])


def say(server: WebServer, table: str, token: str | None, text: str) -> None:
    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}", proxy=None, open_timeout=60, legacy=True) as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "chat": True}))
        ws.send(json.dumps({"type": "chat", "text": text}))
        while True:  # the line comes back once it is kept
            frame = json.loads(ws.recv(timeout=60))
            assert frame["type"] != "error", frame
            if frame["type"] == "chat" and not frame["history"]:
                return


def club_evening(server: WebServer) -> dict[str, Any]:
    """A server's tables as a club leaves them: a game played to its end, one in progress
    (a person's turn), an open table, and chat at two of them. What to find again."""
    finished = new_game(server, 2, True, False, people=1, level="easy")
    play(finished.clients, random.Random(1))
    settle(finished.clients)
    finished.close()
    going = new_game(server, 3, False, True, people=1, level="easy")
    play(going.clients, random.Random(2), until=6)
    going.close()
    created = post(server, "/api/tables", {"players": 4, "name": "Eva", "spectator_chat": "off"})
    say(server, finished.id, finished.tokens[0], "good game, bot")
    say(server, going.id, None, "a spectator's word")
    say(server, created["id"], created["token"], "anyone for a 4-player game?")
    return {"finished": finished, "going": going, "open": (created["id"], created["token"])}


def seen(server: WebServer, evening: dict[str, Any]) -> dict[str, Any]:
    """Everything a person or a program sees of the evening's tables through ``server``."""
    finished: Game_ = evening["finished"]
    going: Game_ = evening["going"]
    open_id, open_token = evening["open"]
    view: dict[str, Any] = {"lobby": get(server, "/api/tables")}
    view["record"] = get(server, f"/api/tables/{finished.id}/games/1/record")
    view["replay"] = get(server, f"/api/tables/{finished.id}/games/1/replay", finished.tokens[0])
    for name, game in (("finished", finished), ("going", going)):
        person = Client(server, game.id, game.tokens[0], 0)
        view[f"{name}-frame"] = comparable(person.first())
        person.close()
        view[f"{name}-chat"] = [(x["seat"], x["name"], x["text"]) for x in chat_history(server, game.id, None)]
    view["open-chat"] = chat_history(server, open_id, open_token)
    return view


@pytest.mark.slow
def test_a_sqlite_backup_taken_while_the_server_runs_restores_everything(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    restored_url = f"sqlite:///{tmp_path / 'restored' / 'club.sqlite3'}"
    backups = tmp_path / "backups"
    backups.mkdir()
    where = {"RED7_DATABASE_URL": url, "restored": restored_url}
    with WebServer(tmp_path / "first", bot_delay=0, database_url=url) as server:
        evening = club_evening(server)
        before = seen(server, evening)
        taken = run_documented("sqlite-backup", backups, where)  # the server running
        assert "backed up to" in taken and "3 tables, 2 games" in taken
        post(server, "/api/tables", {"players": 2, "name": "Late"})  # after the backup: not in it
    backup = only_backup(backups, "red7-*.sqlite3")
    restored = run_documented("sqlite-restore", backups, {**where, "backup": backup.name})
    assert "restored from" in restored and "3 tables, 2 games" in restored
    with WebServer(tmp_path / "second", bot_delay=0, database_url=restored_url) as server:
        assert seen(server, evening) == before
        going: Game_ = evening["going"]  # and the game in progress plays on to its end
        going.connect(server)
        play(going.clients, random.Random(3))
        assert newest(going.clients)["game"]["over"]
        going.close()


@pytest.mark.slow
def test_the_commands_refuse_what_would_lose_data(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    assert red7_db("upgrade", "--database-url", url).returncode == 0
    backup = tmp_path / "b.sqlite3"
    assert red7_db("backup", str(backup), "--database-url", url).returncode == 0
    again = red7_db("backup", str(backup), "--database-url", url)
    assert again.returncode == 2 and "never overwrites" in again.stderr
    into_used = red7_db("restore", str(backup), "--database-url", url)
    assert into_used.returncode == 2 and "is not empty" in into_used.stderr and "--replace" in into_used.stderr
    replaced = red7_db("restore", str(backup), "--database-url", url, "--replace")
    assert replaced.returncode == 0, replaced.stderr
    not_ours = tmp_path / "notes.txt"
    not_ours.write_text("not a database")
    refused = red7_db("restore", str(not_ours), "--database-url", f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert refused.returncode == 2 and "not a database of the red7 web game" in refused.stderr
    missing = red7_db("backup", str(tmp_path / "c.sqlite3"), "--database-url", f"sqlite:///{tmp_path / 'none.db'}")
    assert missing.returncode == 2 and "There is no database" in missing.stderr
    postgres = red7_db("backup", str(tmp_path / "d.sqlite3"), "--database-url", "postgresql://red7@db/red7")
    assert postgres.returncode == 2 and "pg_dump" in postgres.stderr
    for result in (again, into_used, refused, missing, postgres):
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.services
def test_a_postgresql_dump_taken_while_the_server_runs_restores_everything(
    postgres: services.Postgres, tmp_path: Path
) -> None:
    url = postgres.create_database()
    restored_url = postgres.create_database()  # the page's createdb
    backups = tmp_path / "backups"
    backups.mkdir()
    where = {"RED7_DATABASE_URL": libpq_address(url), "restored": libpq_address(restored_url)}
    with WebServer(tmp_path / "first", bot_delay=0, database_url=url) as server:
        evening = club_evening(server)
        before = seen(server, evening)
        run_documented("postgresql-backup", backups, where, postgres.bin)  # the server running
    backup = only_backup(backups, "red7-*.dump")
    run_documented("postgresql-restore", backups, {**where, "backup": backup.name}, postgres.bin)
    with WebServer(tmp_path / "second", bot_delay=0, database_url=restored_url) as server:
        assert seen(server, evening) == before
        post(server, "/api/tables", {"players": 2, "name": "Next"})  # the restored sequences go on from the dump's
        say(server, evening["going"].id, None, "after the restore")
