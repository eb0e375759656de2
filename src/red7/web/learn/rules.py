"""The rules of Red7 for the web game's players: ``/rules?lang=en|pt-BR``, linked from the
lobby and every table.

The page is the terminal game's rules screen (:func:`red7.ui.words.rules_markdown`: the
goal, the cards as the board writes them, the turn, the seven rules, the advanced game,
the action cards), in the language asked for (``lang``, else the browser's), with the
table page's keys in place of the terminal's. It is made on the server from translated
text of this package alone, Markdown rendered with raw HTML escaped, and needs no script.
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

from ...core.model import N_
from ...ui.i18n import LANGUAGES, _, using
from ...ui.words import rules_markdown
from ..http.refusals import asked_language

router = APIRouter(include_in_schema=False)

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

_EMPTY_HEAD = re.compile(r"<thead>\s*<tr>\s*(?:<th></th>\s*)+</tr>\s*</thead>\s*")
"""The empty header row of the rules' table (Markdown has no table without one): a
screen reader would announce empty column headers."""


@router.get("/rules")
async def rules_page(request: Request, lang: str | None = None) -> HTMLResponse:
    """The rules in ``lang`` (a tag this server speaks; else the browser's language)."""
    return HTMLResponse(_page(asked_language(request.headers.get("accept-language"), lang)))


@functools.cache
def _page(tag: str) -> str:
    """The rules page in language ``tag`` (made once per language: it never changes)."""
    with using(tag):
        text = rules_markdown(_(WEB_KEYS), board=False, complete=False)
        # the page's own heading is the rules' title: the Markdown's first line goes
        rules = _EMPTY_HEAD.sub("", _markdown.render(text.split("\n", 1)[1]))
        languages = " · ".join(
            f'<a href="/rules?lang={escape(other)}" lang="{escape(other)}" hreflang="{escape(other)}"'
            + (' aria-current="page"' if other == tag else "")
            + f">{escape(name)}</a>"
            for other, name in LANGUAGES.items()
        )
        return PAGE.substitute(
            lang=tag,
            title=escape(_("The rules of Red7")),
            language=escape(_("Language")),
            languages=languages,
            rules=rules,
            back=escape(_("Back to the lobby")),
        )
