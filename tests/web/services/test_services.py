"""The real services of ``tests.support.local_services`` do what the tests using them rely on: separate
PostgreSQL databases, a Redis that relays messages, an nginx that proxies, all gone after."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
import redis
import sqlalchemy as sa

from tests.support import local_services as services
from tests.support.web_server import free_port

pytestmark = pytest.mark.services


def test_postgres_databases_are_new_and_separate(postgres: services.Postgres) -> None:
    first, second = postgres.create_database(), postgres.create_database()
    assert first != second
    assert first.startswith(f"postgresql+psycopg://postgres@127.0.0.1:{postgres.port}/")
    for url, word in ((first, "first"), (second, "second")):
        engine = sa.create_engine(url)
        try:
            with engine.begin() as connection:
                # A table of the same name in each: the databases are empty and separate.
                connection.execute(sa.text("CREATE TABLE notes (id serial PRIMARY KEY, word text NOT NULL)"))
                connection.execute(sa.text("INSERT INTO notes (word) VALUES (:word)"), {"word": word})
            with engine.connect() as connection:
                assert connection.execute(sa.text("SELECT word FROM notes")).scalars().all() == [word]
        finally:
            engine.dispose()


def test_postgres_refuses_a_database_name_that_is_not_plain(postgres: services.Postgres) -> None:
    with pytest.raises(ValueError, match="not a plain"):
        postgres.create_database('x"; DROP DATABASE postgres; --')


def test_redis_relays_a_published_message(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    pubsub = client.pubsub()
    try:
        pubsub.subscribe("red7-test")
        # The subscription is confirmed before anything is published: no message is lost.
        confirmation = pubsub.get_message(timeout=5.0)
        assert confirmation is not None and confirmation["type"] == "subscribe"
        assert client.publish("red7-test", b"hello") == 1
        message = pubsub.get_message(timeout=5.0)
        assert message is not None and (message["type"], message["data"]) == ("message", b"hello")
    finally:
        pubsub.close()
        client.close()


class _Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # the name http.server calls
        body = f"hello from the backend, path {self.path}".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet


@pytest.fixture
def backend() -> Iterator[int]:
    """A tiny HTTP server on a free port (its value), answering every GET."""
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), _Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def _require_nginx() -> None:
    if not services.Nginx.available():
        pytest.fail("nginx is not installed: run `apt-get install -y nginx` (as root)")


def test_nginx_proxies_to_the_backend(backend: int) -> None:
    _require_nginx()
    port = free_port()
    fragment = f"""
upstream red7 {{
    server 127.0.0.1:{backend};
}}
server {{
    listen 127.0.0.1:{port};
    location / {{
        proxy_pass http://red7;
    }}
}}
"""
    with services.Nginx(fragment, port=port) as nginx:
        response = httpx.get(f"{nginx.url}/some/path", timeout=10.0)
        assert response.status_code == 200, nginx.log()
        assert response.text == "hello from the backend, path /some/path"
        folder = nginx.folder
    assert folder is not None and not folder.exists()
    # Stopped: the port is free again (nginx's workers went with it).
    deadline = time.monotonic() + 5.0
    while services.accepts_tcp(port) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not services.accepts_tcp(port)


def test_nginx_reports_a_bad_configuration() -> None:
    _require_nginx()
    with pytest.raises(RuntimeError, match="nginx -t rejected") as error:
        with services.Nginx("server { listen 127.0.0.1:1; no_such_directive on; }", port=free_port()):
            pass
    assert "no_such_directive" in str(error.value)
