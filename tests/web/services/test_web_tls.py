"""docs/deploy/nginx-tls.conf, the nginx example with TLS, run as written but for its
ports and its certificate's paths (a certificate made here for 127.0.0.1): plain http
is sent to https for good, https answers with HSTS, and a game's WebSocket goes through
as ``wss://``. Its proxying is nginx.conf's, line for line (that one the cluster tests
run: tests/web/services/test_web_cluster.py)."""

from __future__ import annotations

import json
import re
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.support import local_services as services
from tests.support.web_server import WebServer, free_port

pytestmark = pytest.mark.services

DEPLOY = Path(__file__).resolve().parents[3] / "docs" / "deploy"


def locations(config: str) -> list[str]:
    """The ``location`` blocks of an nginx configuration, as written."""
    return re.findall(r"^    location [^\n]*\{\n.*?^    \}$", config, re.MULTILINE | re.DOTALL)


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key (openssl, as Debian ships it)."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"]
        + ["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


@pytest.fixture(scope="module")
def proxied(
    tmp_path_factory: pytest.TempPathFactory, certificate: tuple[Path, Path]
) -> Iterator[tuple[WebServer, int, int]]:
    """One server behind the TLS example (both upstream lines to it): the server, the http
    port and the https port."""
    cert, key = certificate
    with WebServer(tmp_path_factory.mktemp("behind-tls"), bot_delay=0) as server:
        plain, secure = free_port(), free_port()
        config = (DEPLOY / "nginx-tls.conf").read_text()
        changes = {
            "127.0.0.1:8001": f"127.0.0.1:{server.port}",
            "127.0.0.1:8002": f"127.0.0.1:{server.port}",
            "listen 80;": f"listen 127.0.0.1:{plain};",
            "listen 443 ssl;": f"listen 127.0.0.1:{secure} ssl;",
            "/etc/letsencrypt/live/red7.example.org/fullchain.pem": str(cert),
            "/etc/letsencrypt/live/red7.example.org/privkey.pem": str(key),
        }
        for old, new in changes.items():
            assert old in config, old
            config = config.replace(old, new)
        with services.Nginx(config, port=secure):  # (nginx -t first: the example is valid)
            yield server, plain, secure


def test_the_tls_example_proxies_as_the_plain_one_does() -> None:
    plain, tls = ((DEPLOY / name).read_text() for name in ("nginx.conf", "nginx-tls.conf"))
    assert locations(plain) and locations(tls)[-len(locations(plain)) :] == locations(plain)


def test_plain_http_is_sent_to_https(proxied: tuple[WebServer, int, int]) -> None:
    _server, plain, _secure = proxied
    answer = httpx.get(f"http://127.0.0.1:{plain}/t/abc?watch", trust_env=False, timeout=60)
    assert answer.status_code == 301
    assert answer.headers["location"] == "https://127.0.0.1/t/abc?watch"


def test_https_serves_the_game_with_hsts_and_its_websocket(
    proxied: tuple[WebServer, int, int], certificate: tuple[Path, Path]
) -> None:
    _server, _plain, secure = proxied
    trusted = ssl.create_default_context(cafile=str(certificate[0]))
    with httpx.Client(base_url=f"https://127.0.0.1:{secure}", verify=trusted, trust_env=False, timeout=60) as client:
        lobby = client.get("/")
        assert lobby.status_code == 200 and "Red7" in lobby.text
        assert lobby.headers["strict-transport-security"] == "max-age=63072000"
        created = client.post("/api/tables", json={"players": 2, "name": "Ana"})
        assert created.status_code == 200, created.text
        assert client.get("/api/tables").headers["strict-transport-security"]
    table, token = created.json()["id"], created.json()["token"]
    with connect(f"wss://127.0.0.1:{secure}/ws/{table}", ssl=trusted, proxy=None, open_timeout=60) as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "chat": True}))
        frame = json.loads(ws.recv(timeout=60))
        assert frame["type"] == "table" and frame["you"] == 0
        ws.send(json.dumps({"type": "chat", "text": "over TLS"}))
        while frame["type"] != "chat" or frame["history"]:
            frame = json.loads(ws.recv(timeout=60))
        assert frame["lines"][0]["text"] == "over TLS"
