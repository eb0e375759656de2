"""The guided first game's page and API (``/tutorial``, ``POST /api/tutorial``), in-process:
the chapters judged by the engine over HTTP, the table page's own frame for the learner's
seat (nothing of the bot's hand), in the language asked for; the page in both languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from red7.tutorial.chapters import CHAPTERS, chapter, words
from red7.ui.i18n import _, using
from red7.web.learn.wire import TutorialView
from red7.web.protocol import read
from tests.support.web_client import make_app
from tests.tutorial.paths import miss, solution


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path)) as running:
        yield running


def step(client: TestClient, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    answer = client.post("/api/tutorial", json=body)
    assert answer.status_code == status, answer.text
    if status == 200:
        read(TutorialView, answer.text)  # exactly its declaration, strictly
    result: dict[str, Any] = answer.json()
    return result


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_page_speaks_its_language_and_loads_its_script(client: TestClient, lang: str) -> None:
    page = client.get(f"/tutorial?lang={lang}")
    assert page.status_code == 200 and f'<html lang="{lang}">' in page.text
    assert '<script type="module" src="/static/tutorial.js">' in page.text
    with using(lang):
        assert _("Learn Red7") in page.text
    assert client.get("/static/tutorial.js").status_code == 200
    assert client.get("/static/tutorial.css").status_code == 200


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_every_chapter_is_won_over_http_after_a_miss(client: TestClient, lang: str) -> None:
    for n, c in enumerate(CHAPTERS):
        shown = step(client, {"chapter": n, "lang": lang})
        assert shown["verdict"] is None and shown["decisions"] == [] and not shown["done"]
        assert shown["frame"]["you"] == 0 and shown["frame"]["game"]["hand_sizes"][1] == len(c.other_hand)
        missed = step(client, {"chapter": n, "decision": str(miss(c)), "lang": lang})
        assert missed["verdict"]["outcome"] == "missed" and missed["decisions"] == []
        with using(lang):
            assert shown["lesson"] == words(c.lesson) and shown["title"] == _(c.title)
            assert words(c.why) in missed["verdict"]["text"]
        decisions: list[str] = []
        for action in solution(c):
            answer = step(client, {"chapter": n, "decisions": decisions, "decision": str(action), "lang": lang})
            decisions = answer["decisions"]
        assert answer["done"] and answer["verdict"]["outcome"] == "done"
        assert decisions == [str(a) for a in solution(c)]
        assert answer["frame"]["table"]["lang"] == lang


def test_a_refusal_says_the_engines_reason_and_nothing_of_the_bots_hand_is_sent(client: TestClient) -> None:
    n = CHAPTERS.index(chapter("refused"))
    answer = client.post("/api/tutorial", json={"chapter": n, "decision": "canvas O1", "lang": "pt-BR"})
    body = answer.json()
    assert body["verdict"]["outcome"] == "refused"
    assert body["verdict"]["text"].startswith("Com Lj1 na Tela você não estaria vencendo.")
    assert "G1" not in answer.text and "Vd1" not in answer.text  # the bot's hand, hidden (R9)


def test_what_the_server_refuses(client: TestClient) -> None:
    assert step(client, {"chapter": len(CHAPTERS)}, 400)["code"] == "bad-chapter"
    assert step(client, {"chapter": 0, "decisions": ["play R3"]}, 400)["code"] == "bad-decision"  # a miss is no step
    assert step(client, {"chapter": 0, "decision": "dance"}, 400)["code"] == "bad-decision"
    assert step(client, {"chapter": 0, "decisions": ["end"] * 13}, 400)["code"] == "bad-decision"
    assert step(client, {"chapter": "0"}, 400)["code"] == "bad-chapter"
    assert step(client, {"chapter": 0, "lang": "fr"}, 400)["code"] == "bad-language"
    assert client.post("/api/tutorial", json={"chapter": 0, "extra": 1}).status_code == 400
