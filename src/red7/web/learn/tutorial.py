"""The guided first game in the web game: the ``/tutorial`` page and ``POST /api/tutorial``.

The page (``static/tutorial.js``) draws each chapter with the table page's own board
(``render.js``, from a real table frame for the learner's seat: the same cards, rule,
standing line, prompts and greyed cards' reasons) and asks the server to judge each
decision. The server keeps nothing: each request names the chapter and the decisions the
learner made so far this turn, which a :class:`~red7.tutorial.lesson.Lesson` (the same
:class:`~red7.play.session.Session` as every game) plays again before it judges the new
one. The chapters done are kept by the browser (``localStorage``), so the tutorial is
resumed where it was left, and restarted from the page.
"""

from __future__ import annotations

import functools
from html import escape
from string import Template
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ...core.actions import ActionError
from ...core.model import N_
from ...play.session import SeatKind, SeatName
from ...tutorial.chapters import CHAPTERS, words
from ...tutorial.lesson import Lesson, Outcome, Verdict
from ...ui.i18n import LANGUAGES, _, using
from ...ui.words import seat_name
from ..http.refusals import asked_language
from ..http.wire import DeclaredRoute, parse_body
from ..table.live import LiveTable, SeatState
from ..table.views import table_frame
from .wire import TutorialStep, TutorialView, VerdictView, bad_decision, no_chapter

router = APIRouter(include_in_schema=False, route_class=DeclaredRoute)
api = APIRouter(route_class=DeclaredRoute)

PAGE_WORDS: Final = {
    "title": N_("Learn Red7"),
    "chapters": N_("Chapters"),
    "lesson": N_("The lesson"),
    "goal": N_("Goal: {goal}"),
    "next": N_("Next chapter"),
    "skip": N_("Skip the chapter"),
    "restart": N_("Start the chapter again"),
    "restart_all": N_("Start the tutorial again"),
    "take_back": N_("Take back"),
    "finished": N_("You finished the guided first game! Play a whole game against a bot from the lobby."),
    "done_mark": N_("done"),
    "play_now": N_("Go to the lobby"),
    "chapter_n": N_("Chapter {n} of {total}: {title}"),
}
"""The tutorial page's own words (the board's are the table page's)."""

PAGE: Final = Template("""<!doctype html>
<html lang="$lang">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>$title</title>
  <link rel="icon" href="/static/icon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/red7.css">
  <link rel="stylesheet" href="/static/tutorial.css">
  <script type="module" src="/static/tutorial.js"></script>
</head>
<body class="table-page tutorial-page">
  <header class="top">
    <a class="brand" href="/">Red<span>7</span></a>
    <h1 class="settings">$title</h1>
    <nav class="languages" aria-label="$language">$languages</nav>
  </header>
  <main id="main" class="tutorial" data-lang="$lang">
    <section id="lesson" class="panel lesson" aria-labelledby="chapter-title"></section>
    <div id="board"></div>
    <nav id="chapters" class="panel chapters" aria-label="$chapters"></nav>
  </main>
  <p id="toast" class="toast" role="alert"></p>
</body>
</html>
""")


@router.get("/tutorial")
async def tutorial_page(request: Request, lang: str | None = None) -> HTMLResponse:
    """The page in ``lang`` (a tag this server speaks; else the browser's language)."""
    return HTMLResponse(_page(asked_language(request.headers.get("accept-language"), lang)))


@functools.cache
def _page(tag: str) -> str:
    with using(tag):
        languages = " · ".join(
            f'<a href="/tutorial?lang={escape(other)}" lang="{escape(other)}" hreflang="{escape(other)}"'
            + (' aria-current="page"' if other == tag else "")
            + f">{escape(name)}</a>"
            for other, name in LANGUAGES.items()
        )
        return PAGE.substitute(
            lang=tag,
            title=escape(_(PAGE_WORDS["title"])),
            language=escape(_("Language")),
            chapters=escape(_(PAGE_WORDS["chapters"])),
            languages=languages,
        )


@api.post("/api/tutorial")
async def tutorial_step(request: Request) -> TutorialView:
    """Chapter ``chapter`` after the turn's ``decisions``, and the verdict on ``decision``."""
    with using(asked_language(request.headers.get("accept-language"))):
        step = parse_body(TutorialStep, await request.body())
    with using(step.lang):
        return view(step)


def view(step: TutorialStep) -> TutorialView:
    """The answer to ``step``, in the language in use (a bad chapter or turn: Refused)."""
    if step.chapter >= len(CHAPTERS):
        raise no_chapter()
    chapter = CHAPTERS[step.chapter]
    lesson = Lesson(chapter)
    try:
        for decision in step.decisions:
            if lesson.decide(decision).outcome is not Outcome.GOOD:
                raise bad_decision()
        verdict: Verdict | None = None if step.decision is None else lesson.decide(step.decision)
    except ActionError:
        raise bad_decision() from None
    accepted = list(step.decisions)
    if verdict is not None and verdict.outcome in (Outcome.GOOD, Outcome.DONE) and step.decision is not None:
        accepted.append(step.decision)
    judged: VerdictView | None = None if verdict is None else {"outcome": verdict.outcome.value, "text": verdict.text}
    return {
        "lang": step.lang,
        "chapter": step.chapter,
        "key": chapter.key,
        "title": _(chapter.title),
        "lesson": words(chapter.lesson),
        "goal": words(chapter.goal),
        "chapters": [{"key": c.key, "title": _(c.title)} for c in CHAPTERS],
        "words": {key: _(text) for key, text in PAGE_WORDS.items()},
        "frame": table_frame(_live(lesson, step.lang), 0),
        "decisions": accepted,
        "verdict": judged,
        "done": lesson.done,
    }


def _live(lesson: Lesson, lang: str) -> LiveTable:
    """The lesson's table as a live table of one person and a bot, for its frame alone
    (it is never kept: nobody else can see it)."""
    learner = SeatState(name=seat_name(SeatName(0, SeatKind.YOU)), token_hash="tutorial", here=1)
    return LiveTable(
        id="tutorial",
        lang=lang,
        config=lesson.table.config,
        seats=[learner, SeatState(bot="easy")],
        status="playing",
        game_number=1,
        session=lesson.session,
        hints=False,
    )
