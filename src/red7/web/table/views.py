"""Everything the web server sends to a browser is built here, and only here.

:func:`table_frame` is the one way a game reaches a client: it reads the game through the
engine's per-seat views, :meth:`~red7.play.table.Table.observe` and
:meth:`~red7.play.table.Table.events_for` (R9), for the seat the client holds a token
of, or for a spectator (None), and never reads the game's state. Its public part (the
board, the standing, the seats) is read from the spectator's view once per change of
the table (:func:`shared_view`), and only each seat's own part (hand, log, options) from
that seat's. Reconnect snapshots, updates and replays are this same frame; errors are
:func:`error_frame`. A connection's later frames leave out what it has already: the
words of the page (``ui``) and the start of the move log (:func:`since`). The
wire-level leak test (tests/web/test_web_leaks.py) records every frame and checks that no
other seat's hand card and nothing of the unknown deck's order ever appears in one.

Words are in the viewer's language (each connection's: :func:`red7.ui.i18n.using`; the
table's when none is named), from the same catalogs
and the same functions as the terminal game (:mod:`red7.ui.words`); the browser runs no
rule and translates nothing: it renders what the frame says. A card goes out as
``{"id": "R7", "label": "Vm7", "colour": "red", "name": "Vermelho 7"}``: its notation
(what the browser sends back), what a person reads (R1.3 letters in English, the
Portuguese marks in Portuguese), its colour for the stylesheet, and its name for screen
readers.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

import orjson

from ...core.actions import Kind
from ...core.cards import COLOURS, Card, CardSet
from ...core.events import RoundOver
from ...core.model import STEP_KINDS, Option, Step
from ...core.standing import standing_of
from ...play.last_move import last_move
from ...play.session import cards_at_round_end
from ...ui.i18n import _, language, ngettext, using
from ...ui.words import (
    RULE_TEXT,
    card_label,
    colour_name,
    config_words,
    decision_text,
    just_drawn,
    move_log,
    round_summary,
    turn_prompt,
    turn_summary,
    unsafe_reason,
    unusable_reasons,
    winners_line,
    winning_line,
)
from ..http.wire import PROTOCOL_VERSION, Tag
from .clocks import countdown, countdown_key
from .frames import (
    CardView,
    Colour,
    ErrorFrame,
    GameView,
    LastRound,
    Level,
    LobbyRow,
    OptionView,
    OwnGame,
    PublicGame,
    RematchView,
    SeatInfo,
    Status,
    TableFrame,
    TableInfo,
)
from .words import ui_words

if TYPE_CHECKING:
    from ...core.observation import Observation
    from ...play.table import Table
    from .live import LiveTable


def card_json(card: Card | int | str) -> CardView:
    """A card as the browser gets it (see the module docstring), in the language in use."""
    c = Card.parse(card) if isinstance(card, str) else Card(card)
    return _card_json(int(c), language()).copy()


def cards_json(mask_or_cards: int | Sequence[int]) -> list[CardView]:
    """Cards, a card-set mask highest first (as a palette is read) or a sequence in
    order. The cards' objects are shared by every frame that shows them (made once per
    card, or per card set, and language): read them, never change them."""
    lang = language()
    if isinstance(mask_or_cards, int):
        return list(_card_set_json(mask_or_cards, lang))
    return [_card_json(int(c), lang) for c in mask_or_cards]


@functools.cache
def _card_json(index: int, lang: str) -> CardView:
    # 49 cards x 2 languages: the words of a card are looked up once, not in every frame
    c = Card(index)
    with using(lang):
        return {
            "id": str(c),
            "label": card_label(c),
            "colour": cast("Colour", c.colour_name),
            "name": _("{colour} {number}").format(colour=colour_name(c.colour_name), number=c.value),
        }


@functools.lru_cache(maxsize=1 << 14)
def _card_set_json(mask: int, lang: str) -> tuple[CardView, ...]:
    # hands, palettes and the canvas change by a card at a time: most sets were shown before
    return tuple(_card_json(int(c), lang) for c in CardSet(mask))


# (The casts here name their types in strings: a type written as an expression, a Union or a
# Literal, is built again at every call, which cost a frame 5 % of its CPU.)


def tag(lang: str) -> Tag:
    """A table's language as frames name it (a table's is always one the server speaks:
    :func:`~red7.ui.i18n.parse_language` made it)."""
    return cast("Tag", lang)


def status(name: str) -> Status:
    """A table's status as frames name it (always one of :data:`~red7.web.table.frames.Status`)."""
    return cast("Status", name)


def level(bot: str | None) -> Level | None:
    """A seat's bot as frames name it (a level: the lobby seats no other bot)."""
    return cast("Level | None", bot)


def error_frame(code: str, message: str) -> ErrorFrame:
    """A refusal or a mistake, said in words (``message``, already in the table's
    language) and as a stable ``code`` for programs; it changed nothing."""
    return {"v": PROTOCOL_VERSION, "type": "error", "code": code, "message": message}


@dataclass(frozen=True)
class Shared:
    """What every client of a table is shown alike at one moment, in one language: the
    table, its seats and the public part of the game, read from the spectator's view
    (``observe(None)``, ``events_for(None)``: public facts only). Made once per change of
    the table and language (:func:`shared_view`) and completed for each seat by
    :func:`table_frame`, so a change costs one public view per language, not one per
    client. While a person's turn is staged, its mover's frames are made from a second
    one, the public facts of the turn as they see it (:func:`shared_view` of the mover)."""

    table: TableInfo
    seats: list[SeatInfo]
    names: list[str]
    game: PublicGame | None


def shared_view(live: LiveTable, viewer: int | None = None, lang: str | None = None) -> Shared:
    """The :class:`Shared` part of ``live``'s frames now, for every client, or for the
    ``viewer`` whose staged turn it is (the others see the turn as it began), in ``lang``
    (None: the table's language)."""
    with using(lang or live.lang):
        names = live.names()
        table: TableInfo = {
            "id": live.id,
            "lang": tag(live.lang),
            "players": live.config.players,
            "advanced": live.config.advanced,
            "actions": live.config.actions,
            "status": status(live.status),
            "game": live.game_number,
            "settings": settings_text(live),
            "clock": int(live.session.clock),
            "name": live.title(),
            "private": live.private,
            "invitation": live.invite_hash is not None if live.private else None,
            "hints": live.hints,
            "rated": live.rated,
        }
        seats: list[SeatInfo] = [
            {
                "seat": s,
                "name": names[s],
                "bot": level(seat_info.bot),
                "person": seat_info.bot is None,
                "who": seat_info.who,
                "taken": seat_info.taken,
                "online": seat_info.online > 0,
                "away": live.substitute(s) is not None,
            }
            for s, seat_info in enumerate(live.seats)
        ]
        return Shared(table, seats, names, None if live.table is None else public_game_json(live, names, viewer))


def table_frame(
    live: LiveTable, seat: int | None, *, words: bool = True, shared: Shared | None = None, lang: str | None = None
) -> TableFrame:
    """The table as ``seat`` may see it (None: a spectator), in ``lang`` (the viewer's;
    None: the table's language); ``words``: with the words of the page's controls
    (``ui``: a connection's first frame needs them, later ones do not); ``shared``: the
    table's :func:`shared_view` now in ``lang``, if already made for another client."""
    lang = lang or live.lang
    shared = shared or shared_view(live, seat if seat is not None and seat == live.staging else None, lang)
    with using(lang):
        frame: TableFrame = {
            "v": PROTOCOL_VERSION,
            "type": "table",
            "lang": tag(lang),
            "table": shared.table,
            "seats": [{**info, "you": s == seat} for s, info in enumerate(shared.seats)],
            "you": seat,
            "seq": live.seq_for(seat),
            "game": None if shared.game is None else game_view(live, seat, shared.names, shared.game),
            "clock": countdown(live),
            "rematch": rematch_json(live),
        }
        if words:
            frame["ui"] = ui_words()
        return frame


def frame_key(live: LiveTable, seat: int | None) -> tuple[Any, ...]:
    """Everything :func:`table_frame` of ``seat`` (None: a spectator) reads from ``live``,
    in a tuple: two equal keys give equal frames, so a view is made once per key
    (:class:`~red7.web.table.cache.FrameCache`). The table (status, language, game), each
    seat (who sits there, online or away: presence is not written, it is told over the
    bus), whether it has an invitation, the game as ``seat`` sees it (:meth:`~red7.play.table.Table.seen_at`: another
    seat's staged decision changes nothing of it) and ``seat``'s sequence number."""
    table = live.table
    game = None if table is None else (id(table), table.seen_at(seat), table.committed)
    seats = tuple((s.who, s.name, s.bot, live.substitute(n), s.taken, s.online > 0) for n, s in enumerate(live.seats))
    session = live.session
    timing = (session.clock, countdown_key(live), session.agreed, session.declined)
    return (
        live.id,
        live.status,
        live.lang,
        live.game_number,
        live.game_id,
        live.invite_hash is not None,  # (whether a private table has an invitation: its host may revoke it)
        game,
        seats,
        seat,
        live.seq_for(seat),
        timing,
    )


def rematch_json(live: LiveTable) -> RematchView | None:
    """The rematch proposed (the seats that agreed) or declined (who), if any."""
    session = live.session
    if session.agreed is None and session.declined is None:
        return None
    return {"agreed": sorted(session.agreed or ()), "declined": session.declined}


def since(frame: TableFrame, seen: Sequence[str]) -> TableFrame:
    """``frame`` for a client that has the move log ``seen`` already (the whole log of
    the last frame it got): the log's lines from the first one that differs on
    (``log_from``: how many of its lines the client keeps). The page keeps its first
    ``log_from`` lines and appends ``log``: an advanced match's log grows to hundreds of
    lines, three quarters of a whole frame, and each frame adds a line or two."""
    game = frame["game"]
    if game is None or not seen:
        return frame
    log = game["log"]
    keep = 0
    for before, now in zip(seen, log, strict=False):  # mostly the very same strings
        if before != now:
            break
        keep += 1
    if keep == 0:
        return frame
    return {**frame, "game": {**game, "log": log[keep:], "log_from": keep}}


def encode(frame: Mapping[str, Any]) -> str:
    """A frame as it goes on the wire: compact JSON, accents as they are (orjson: the
    server encodes a frame for every seat at every change, six times faster than the
    standard library's encoder)."""
    return orjson.dumps(frame).decode()


def settings_text(live: LiveTable) -> str:
    """E.g. "3 players · advanced game, 35 points to win · action cards"."""
    players = live.config.players
    return " · ".join([ngettext("{n} player", "{n} players", players).format(n=players), *config_words(live.config)])


def public_game_json(live: LiveTable, names: Sequence[str], viewer: int | None = None) -> PublicGame:
    """The part of a frame's game everybody sees alike, from the spectator's observation
    and events: the board, the standing, the last round's end and the result. With a
    ``viewer``, its public facts as that seat sees them (its own staged turn in them)."""
    table = live.table
    assert table is not None
    obs = table.observe(viewer)
    standing = standing_of(obs)
    rule: Colour = COLOURS[obs.rule]
    target = obs.config.target if obs.advanced else None
    return {
        "round": obs.round,
        "step": obs.step.value,
        "current": obs.current_player,
        "final": table.committed,  # the decisions that are final: where the game is, for all
        "rule": {"colour": rule, "name": colour_name(rule), "text": _(RULE_TEXT[rule])},
        "canvas": cards_json(obs.canvas),
        "deck": {"size": obs.deck_size, "known_top": cards_json(obs.deck_known_top)},
        "palettes": [
            [{**card, "counts": card["id"] in standing.qualifying[s]} for card in cards_json(palette)]
            for s, palette in enumerate(obs.palettes)
        ],
        "hand_sizes": list(obs.hand_sizes),
        "alive": list(obs.alive),
        "known_hands": [cards_json(known) for known in obs.known_hand_cards],
        "scores": list(obs.scores),
        "target": target,
        "leader": standing.leader,
        "standing": winning_line(standing, names),
        "last_round": last_round_json(table.events_for(viewer), list(obs.scores), target, names),
        "over": None
        if obs.result is None
        else {"winners": list(obs.result.winners), "text": winners_line(obs.result.winners, names, obs.advanced)},
    }


def game_view(live: LiveTable, seat: int | None, names: Sequence[str], public: PublicGame) -> GameView:
    """The game of a frame to ``seat``: the ``public`` part, and the part that is
    ``seat``'s own: its hand and the cards it just drew (its observation), the move log
    as it may read it (its events), and, on its turn, its legal options with their
    safety marks and words."""
    table = live.table
    assert table is not None
    events = table.events_for(seat)
    mine = seat is not None and table.current == seat and live.substitute(seat) is None and not live.session.closed
    own: OwnGame = {
        "hand": None,
        "drawn": [],
        "log": move_log(events, names, seat),
        "log_from": 0,
        "prompt": waiting_text(live, names),
        "options": [],
        "picks": None,
        "staged": [],
        "unusable": {},
        "last": None,
    }
    if seat is not None:
        obs = table.observe(seat)
        own["hand"] = None if obs.hand is None else cards_json(obs.hand)
        own["drawn"] = sorted(str(c) for c in just_drawn(events, seat))
        if mine:
            options = table.options()
            own["prompt"] = turn_prompt(obs.step, options, bool(table.staged))
            lines: dict[int | None, str] = {}  # the standing after the turn, by the rule then: shared by options
            own["options"] = [option_json(table, obs, option, names, lines) for option in options]
            own["picks"] = picks(obs.step)
            own["staged"] = [str(a) for a in table.staged]
            own["unusable"] = unusable_json(table, obs, options, names)
    moved = last_move(events)  # as ``seat`` sees the events: another seat's hidden draw is no card (R9)
    own["last"] = None if moved is None else {"seat": moved.seat, "cards": [str(card) for card in moved.cards]}
    return {**public, **own}


def unusable_json(table: Table, obs: Observation, options: Sequence[Option], names: Sequence[str]) -> dict[str, str]:
    """For the mover only: each card of their hand and of the palettes that no legal
    decision names now, with why (:func:`~red7.ui.words.unusable_reasons`, the terminal
    game's words), so tapping or hovering a greyed card says it."""
    named = 0
    for option in options:
        if option.action.card is not None:
            named |= 1 << option.action.card
    return unusable_reasons(obs, table.check, names, ~named)


def waiting_text(live: LiveTable, names: Sequence[str]) -> str:
    table = live.table
    assert table is not None
    if live.session.closed:
        return _("An admin of this server closed this table: the game ended here.")
    if table.is_over or table.current is None:
        return ""
    current = table.current
    if live.seats[current].bot is not None or live.substitute(current) is not None:
        return _("{name} is thinking…").format(name=names[current])
    return _("Waiting for {name}…").format(name=names[current])


def picks(step: Step) -> Literal["hand", "own-palette", "other-palettes", "none"]:
    """Where the cards of this step's decisions are picked: ``hand``, ``own-palette``
    (a 7's card), ``other-palettes`` (a 1's), or ``none`` (draw, decline, end)."""
    kinds = STEP_KINDS[step]
    if kinds & {Kind.PLAY, Kind.CANVAS}:
        return "hand"
    if Kind.MOVE in kinds:
        return "own-palette"
    if Kind.TAKE in kinds:
        return "other-palettes"
    return "none"


def option_json(
    table: Table, obs: Observation, option: Option, names: Sequence[str], lines: dict[int | None, str] | None = None
) -> OptionView:
    """One legal decision of the mover whose view is ``obs``: its notation (sent back as
    is), kind, card, where it goes, its safety mark (R4.7) and why it is not safe,
    whether it ends the turn (and so asks for confirmation, with the turn in words),
    and its words. One trial on a copy of the game answers both questions, once per
    decision point (:meth:`~red7.play.table.Table.look_aheads`); ``lines``: the
    standing lines of the turn summaries made so far for this ``obs``, by the rule
    in force after the turn (filled in here: the options of one frame share them)."""
    action = option.action
    ends, reason, summary = False, None, None
    if action.kind is not Kind.CONCEDE:
        ends, preview = table.look_ahead(action)
        if not option.safe:
            reason = unsafe_reason(standing_of(preview) if preview is not None else None, names)
        if ends:
            after_rule = action.card.colour if action.kind is Kind.CANVAS and action.card is not None else None
            lines = {} if lines is None else lines
            if after_rule not in lines:
                lines[after_rule] = winning_line(standing_of(obs, after_rule), names)
            summary = turn_summary(table.staged, action) + "\n" + lines[after_rule]
    return {
        "action": str(action),
        "kind": action.kind.value,
        "card": None if action.card is None else str(action.card),
        "to": cast("Literal['canvas', 'deck'] | None", action.destination),
        "safe": option.safe,
        "unsafe_reason": reason,
        "ends_turn": ends,
        "summary": summary,
        "text": decision_text(action),
    }


def last_round_json(
    events: Sequence[Any], scores: list[int], target: int | None, names: Sequence[str]
) -> LastRound | None:
    """The last round that ended (its number, winner, rule, scoring cards, points and the
    summary in words), for the round-end dialog; None before any round ended."""
    overs = [e for e in events if isinstance(e, RoundOver)]
    if not overs:
        return None
    over = overs[-1]
    ended = events[: len(events) - events[::-1].index(over) - 1]  # the round as it stood when it ended
    return {
        "palettes": [cards_json(seat.palette.mask) for seat in cards_at_round_end(ended, len(scores))],
        "round": over.round,
        "winner": over.winner,
        "rule": COLOURS[over.rule],
        "scored": cards_json(list(over.scored)),
        "points": over.points,
        "text": round_summary(over, scores, target, names),
    }


def lobby_json(lives: Sequence[LiveTable], lang: str | None = None) -> list[LobbyRow]:
    """The tables a visitor may join or watch (public facts only: no token, no seed),
    worded in ``lang`` (the visitor's: a lobby speaks one language; None: each table's
    own). ``lang`` of a row stays the table's: the language it was created in."""
    rows: list[LobbyRow] = []
    for live in lives:
        with using(lang or live.lang):
            names = live.names()
            rows.append(
                {
                    "id": live.id,
                    "lang": tag(live.lang),
                    "status": status(live.status),
                    "settings": settings_text(live),
                    "players": live.config.players,
                    "free": sum(not s.taken for s in live.seats),
                    "seats": [names[s] if seat.taken else None for s, seat in enumerate(live.seats)],
                    "clock": int(live.session.clock),
                    "name": live.title(),
                    "advanced": live.config.advanced,
                    "actions": live.config.actions,
                }
            )
    return rows


def replay_frames(
    live: LiveTable, number: int, seat: int | None, every_hand: bool = False, lang: str | None = None
) -> list[TableFrame]:
    """A finished (or running) game of the table step by step as ``seat`` may see it:
    one frame per decision, each made by :func:`table_frame` over a table rewound to
    that decision (a running game: only its decisions that cannot be taken back); the
    first one with the words of the page's controls (``ui``). ``every_hand``: each
    frame's game also shows every seat's hand then (``hands``): only for a game that is
    over (the caller checks), when nothing is hidden any more. No frame has a clock.
    In ``lang`` (None: the table's language)."""
    frames = []
    for i, step in enumerate(live.rewound(number)):
        frame = table_frame(step, seat, words=i == 0, lang=lang)
        # history: no turn is awaited in it (a rewound step's countdown would be today's
        # patience with whoever is away now, a figure that changes with each asking)
        frame["clock"] = None
        if every_hand and step.table is not None and frame["game"] is not None:
            with using(lang or live.lang):
                hands = [step.table.observe(s).hand for s in range(live.config.players)]
                frame["game"]["hands"] = [cards_json(hand or 0) for hand in hands]
        frames.append(frame)
    return frames
