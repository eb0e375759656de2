"""The rules of Red7 for the web game's players: ``/rules?lang=en|pt-BR``, linked from the
lobby and every table.

The page is the terminal game's rules screen (:func:`red7.ui.rules_text.rules_markdown`: the
goal, the seven rules each with an example palette, drawn here as the table draws cards,
the turn, the cards as the board writes them, the advanced game, the action cards), in
the language asked for (``lang``, else the browser's), with the table page's keys in place
of the terminal's; it links ``/rules/complete``, the complete rules rule by rule (the file
the package carries: :func:`red7.ui.rules_text.complete_rules`). It is made on the server
from translated text of this package alone, Markdown rendered with raw HTML escaped, and
needs no script.
"""

from __future__ import annotations

import functools
import re
from html import escape
from string import Template
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin

from ...core.cards import COLOURS
from ...core.model import N_
from ...ui.i18n import LANGUAGES, _, using
from ...ui.rules_text import COMPLETE_RULES, COUNTS, RuleExample, complete_rules, rule_examples, rules_markdown
from ...ui.words import card_label
from ..http.refusals import asked_language
from ..http.wire import DeclaredRoute

router = APIRouter(include_in_schema=False, route_class=DeclaredRoute)

WEB_KEYS: Final = N_(
    "On a table's page, besides clicking: **←/→** or **1–9** pick a hand card, then **p** play it, "
    "**c** put it on the canvas, **k** move it onto the deck (7), **t** take it (1); **d** draw, "
    "**n** do not draw, **e** end the turn, **u** take the turn back, **h** ask for a hint, "
    "**x** concede; **Enter** does the picked card's one option, **Esc** unpicks it."
)

PAGE: Final = Template("""<!doctype html>
<html lang="$lang">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>$title</title>
  <link rel="icon" href="/static/icon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/red7.css">
</head>
<body class="lobby-page">
  <header class="top">
    <a class="brand" href="/">Red<span>7</span></a>
    <h1 class="settings">$title</h1>
    <nav class="languages" aria-label="$language">$languages</nav>
  </header>
  <main class="lobby rules">
    <article class="panel">
$rules
    </article>
    <p><a href="/">$back</a></p>
  </main>
</body>
</html>
""")

_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
"""Markdown to HTML, raw HTML escaped (the text is the package's, and stays text)."""

_EXAMPLE_CELL = re.compile(r"(<tr>\s*<td>.*?</td>\s*<td>.*?</td>\s*<td>)(.*?)(</td>)", re.S)
"""A row of the seven rules' table, its third cell the example (written as text by the
rules' Markdown): the page shows it as cards instead."""

_EMPTY_HEAD = re.compile(r"<thead>\s*<tr>\s*(?:<th></th>\s*)+</tr>\s*</thead>\s*")
"""The empty header row of the rules' table (Markdown has no table without one): a
screen reader would announce empty column headers."""


def _example_cards(example: RuleExample) -> str:
    """An example palette as the table page shows cards: each in its colour, with its
    label, those that count marked as the board marks them (and with :data:`COUNTS`)."""
    return " ".join(
        f'<span class="card mini c-{COLOURS[card.colour]}{" counts" if card in example.counting else ""}">'
        f'<span class="label">{escape(card_label(card))}</span>'
        + (f" {COUNTS}" if card in example.counting else "")
        + "</span>"
        for card in example.cards
    )


def _with_example_cards(html: str) -> str:
    """The rules' table with each example drawn as cards (rows in the rules' order, Red first)."""
    examples = iter(rule_examples())
    return _EXAMPLE_CELL.sub(lambda row: row[1] + _example_cards(next(examples)) + row[3], html)


@router.get("/rules")
async def rules_page(request: Request, lang: str | None = None) -> HTMLResponse:
    """The rules in ``lang`` (a tag this server speaks; else the browser's language)."""
    return HTMLResponse(_page(asked_language(request.headers.get("accept-language"), lang)))


@router.get("/rules/complete")
async def complete_rules_page(request: Request, lang: str | None = None) -> HTMLResponse:
    """The complete rules, rule by rule (the file this package carries, docs/rules.md's
    copy), in ``lang`` (else the browser's language)."""
    return HTMLResponse(_complete_page(asked_language(request.headers.get("accept-language"), lang)))


_anchored = MarkdownIt("commonmark", {"html": False}).enable("table").use(anchors_plugin, max_level=3)
"""The complete rules' Markdown to HTML, each heading with its id (their table of
contents links to them)."""


@functools.cache
def _complete_page(tag: str) -> str:
    """The complete rules page in language ``tag`` (made once per language)."""
    text = complete_rules(tag).read_text(encoding="utf-8")
    for other, name in COMPLETE_RULES.items():  # the other language's file: its page here
        text = text.replace(f"]({name})", f"](/rules/complete?lang={other})")
    title, body = text.split("\n", 1)
    with using(tag):
        return PAGE.substitute(
            lang=tag,
            title=escape(title.removeprefix("# ")),
            language=escape(_("Language")),
            languages=_languages(tag, "/rules/complete"),
            rules=_anchored.render(body),
            back=escape(_("Back to the lobby")),
        )


def _languages(tag: str, path: str) -> str:
    """Links to ``path`` in every language, ``tag``'s marked as the page's."""
    return " · ".join(
        f'<a href="{path}?lang={escape(other)}" lang="{escape(other)}" hreflang="{escape(other)}"'
        + (' aria-current="page"' if other == tag else "")
        + f">{escape(name)}</a>"
        for other, name in LANGUAGES.items()
    )


@functools.cache
def _page(tag: str) -> str:
    """The rules page in language ``tag`` (made once per language: it never changes)."""
    with using(tag):
        complete = f"/rules/complete?lang={tag}"
        text = rules_markdown(_(WEB_KEYS), board=False, complete=f"[{complete}]({complete})")
        # the page's own heading is the rules' title: the Markdown's first line goes
        rules = _with_example_cards(_EMPTY_HEAD.sub("", _markdown.render(text.split("\n", 1)[1])))
        languages = _languages(tag, "/rules")
        return PAGE.substitute(
            lang=tag,
            title=escape(_("The rules of Red7")),
            language=escape(_("Language")),
            languages=languages,
            rules=rules,
            back=escape(_("Back to the lobby")),
        )
