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
wire-level leak test (tests/test_web_leaks.py) records every frame and checks that no
other seat's hand card and nothing of the unknown deck's order ever appears in one.

Words are in the table's language (:func:`red7.ui.i18n.using`), from the same catalogs
and the same functions as the terminal game (:mod:`red7.ui.words`); the browser runs no
rule and translates nothing: it renders what the frame says. A card goes out as
``{"id": "R7", "label": "Vm7", "colour": "red", "name": "Vermelho 7"}``: its notation
(what the browser sends back), what a person reads (R1.3 letters in English, the
Portuguese marks in Portuguese), its colour for the stylesheet, and its name for screen
readers.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import orjson

from ..core.actions import Kind
from ..core.cards import COLOURS, Card, CardSet
from ..core.events import RoundOver
from ..core.model import STEP_KINDS, Option, Step
from ..core.standing import standing_of
from ..play.last_move import last_move
from ..play.session import cards_at_round_end
from ..ui.i18n import N_, _, language, ngettext, using
from ..ui.words import (
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
from .clocks import countdown, countdown_key
from .protocol import PROTOCOL_VERSION

if TYPE_CHECKING:
    from ..core.observation import Observation
    from ..play.table import Table
    from .live import LiveTable

UI_WORDS: Final = {
    "play": N_("Play"),
    "canvas": N_("Canvas"),
    "deck": N_("Onto the deck"),
    "take": N_("Take"),
    "draw": N_("Draw"),
    "decline": N_("Do not draw"),
    "end": N_("End turn"),
    "concede": N_("Concede"),
    "take_back": N_("Take the turn back"),
    "confirm": N_("Confirm"),
    "cancel": N_("Choose again"),
    "confirm_turn": N_("Confirm your turn"),
    "unsafe_title": N_("This choice is not safe"),
    "do_it": N_("Do it anyway"),
    "your_hand": N_("Your hand"),
    "hands_hidden": N_("Hands are hidden."),
    "canvas_title": N_("Canvas"),
    "rule": N_("Rule"),
    "deck_title": N_("Deck"),
    "log": N_("Last moves"),
    "next_round": N_("Next round"),
    "play_again": N_("Play again"),
    "game_over": N_("Game over"),
    "spectating": N_("You are watching: no hand is shown."),
    "out": N_("out of the round"),
    "winning": N_("winning"),
    "away": N_("away"),
    "online": N_("online"),
    "offline": N_("offline"),
    "replay": N_("Replay"),
    "review": N_("Review"),
    "reviewing": N_("Reviewing the game… {done} of {total} decisions"),
    "review_failed": N_("The review could not be worked out: reload the page to try again."),
    "all_hands": N_("Show every hand"),
    "hand": N_("Hand:"),
    "record": N_("Game record (JSON)"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "your_turn": N_("Your turn"),
    "waiting_for": N_("Waiting for {name}…"),
    "thinking": N_("{name} is thinking…"),
    "seat_empty": N_("empty seat"),
    "take_seat": N_("Take this seat"),
    "add_bot": N_("Add a bot"),
    "start": N_("Start the game"),
    "your_name": N_("Your name"),
    "share": N_("Share this link to invite players:"),
    "watch_link": N_("Spectators' link:"),
    "lobby_title": N_("Red7 online"),
    "new_table": N_("New table"),
    "players": N_("Players"),
    "advanced_game": N_("Advanced game (scores over a match)"),
    "action_cards": N_("Action cards"),
    "hints_allowed": N_("Hints allowed"),
    "rated_table": N_("Rated: the games move the players' ratings (registered players only, no hints)"),
    "hint": N_("Hint"),
    "hint_title": N_("Hint"),
    "thinking_hint": N_("Thinking of a hint…"),
    "language": N_("Language"),
    "create": N_("Create the table"),
    "open_tables": N_("Open tables"),
    "no_tables": N_("No table is open: create one."),
    "join": N_("Join"),
    "watch": N_("Watch"),
    "level_easy": N_("easy"),
    "level_medium": N_("medium"),
    "level_hard": N_("hard"),
    "level_expert": N_("expert"),  # removed; the leaderboard's line of bot:expert still names it
    "first": N_("First"),
    "previous": N_("Previous"),
    "next": N_("Next"),
    "last": N_("Last"),
    "leaderboard": N_("Leaderboard"),
    "leaderboard_about": N_(
        "Every game at a rated table moves the ratings of its players, people and bots alike "
        "(openskill): the rating shown is the cautious one, μ − 3σ, so it rises as games make it sure."
    ),
    "place": N_("Place"),
    "player": N_("Player"),
    "rating": N_("Rating"),
    "games_played": N_("Games"),
    "everyone": N_("Everyone"),
    "people_only": N_("People"),
    "bots_only": N_("Bots"),
    "bot_line": N_("{level} (bot)"),
    "no_ratings": N_("No rated game has been played yet."),
    "page_of": N_("{first}–{last} of {total}"),
    "decision_of": N_("Decision {i} of {n}"),
    "rules": N_("Rules"),
    "counts": N_("Underlined: counts under the rule"),
    "drawn": N_("+ just drawn"),
    "moved": N_("Outlined: moved in the last turn"),
    "your_turn_title": N_("● Your turn — Red7"),
    "sound": N_("Sound when it is your turn"),
    "in_hand": N_("Cards in hand: {n}"),
    "points": N_("Points: {score} of {target}"),
    "known_top": N_("Known on top:"),
    "known_hand": N_("Known in hand:"),
    "you": N_("you"),
    "close": N_("Close"),
    "level": N_("Bot level"),
    "no_table": N_("There is no such table."),
    "back_to_table": N_("Back to the table"),
    "no_replay": N_("There is nothing to replay yet."),
    "pick_first": N_("Pick a card first: arrows, 1-9 or a click."),
    "concede_round": N_("You will be out of this round."),
    "concede_game": N_("You will be out, and the basic game has only this round: you lose the game."),
    "final_palettes": N_("Final palettes:"),
    "status_open": N_("waiting for players"),
    "status_playing": N_("being played"),
    "clock": N_("Clock"),
    "clock_0": N_("No clock"),
    "clock_60": N_("1 minute a turn"),
    "clock_180": N_("3 minutes a turn"),
    "clock_86400": N_("1 day a turn (correspondence)"),
    "clock_259200": N_("3 days a turn (correspondence)"),
    "time_left": N_("{name}: {time} left to play"),
    "time_left_short": N_("{time} left"),
    "away_in": N_("{name} is away: a bot plays for them in {time}"),
    "your_turns": N_("Your turn at these tables"),
    "rematch_agreed": N_("Play again? Agreed so far: {names}."),
    "rematch_waiting": N_("Waiting for the others to agree…"),
    "rematch_agree": N_("Agree to play again"),
    "rematch_decline": N_("Decline the rematch"),
    "rematch_declined": N_("{name} declined to play again."),
    "spectator_chat": N_("Spectators' chat"),
    "spectator_chat_separate": N_("separate from the players'"),
    "spectator_chat_off": N_("off"),
    "status_closed": N_("closed by an admin"),
    "account": N_("Account"),
    "table_closed": N_("An admin of this server closed this table."),
    "table_name": N_("Table name"),
    "table_name_hint": N_("Empty: named after you"),
    "private_table": N_("Private: only people with the invitation link can find and join it"),
    "private": N_("private"),
    "copy_invite": N_("Copy the invitation link"),
    "copy_link": N_("Copy the table's link"),
    "copied": N_("Link copied."),
    "invite_link": N_("Invitation link (anyone with it can join or watch):"),
    "invite_lost": N_("This browser does not have the invitation link: ask the host for it."),
    "invite_renew": N_("New invitation link"),
    "invite_revoke": N_("Revoke the invitation"),
    "invite_renewed": N_("New invitation link made: the old one no longer opens the table."),
    "invite_revoked": N_("Invitation revoked: only the people seated can open the table."),
    "invite_none": N_("This table has no invitation: only the people seated can open it."),
    "invite_host": N_(
        "A new link or a revocation closes the old one: its spectators stop watching; the seated keep their seats."
    ),
    "remove": N_("Remove"),
    "remove_seat": N_("Remove {name} from seat {n}"),
    "leave_seat": N_("Leave my seat"),
    "filters": N_("Filters"),
    "filter_players": N_("Players"),
    "filter_any": N_("Any"),
    "filter_game": N_("Game"),
    "filter_basic": N_("Basic"),
    "filter_advanced": N_("Advanced"),
    "filter_actions": N_("Action cards"),
    "filter_with": N_("With"),
    "filter_without": N_("Without"),
    "filter_free": N_("Only tables with a free seat"),
    "no_match": N_("No table matches these filters."),
}
"""The words of the page's own controls, sent translated in the first frame of each
connection (``ui``: the page keeps them); fields such as ``{n}`` are left for the page
to fill."""


def ui_words() -> dict[str, str]:
    """:data:`UI_WORDS` in the language in use."""
    return dict(_ui_words(language()))


@functools.cache
def _ui_words(lang: str) -> tuple[tuple[str, str], ...]:
    return tuple((key, _(words)) for key, words in UI_WORDS.items())


def card_json(card: Card | int | str) -> dict[str, str]:
    """A card as the browser gets it (see the module docstring), in the language in use."""
    c = Card.parse(card) if isinstance(card, str) else Card(card)
    return dict(_card_json(int(c), language()))


def cards_json(mask_or_cards: int | Sequence[int]) -> list[dict[str, str]]:
    """Cards, a card-set mask highest first (as a palette is read) or a sequence in
    order. The cards' objects are shared by every frame that shows them (made once per
    card, or per card set, and language): read them, never change them."""
    lang = language()
    if isinstance(mask_or_cards, int):
        return list(_card_set_json(mask_or_cards, lang))
    return [_card_json(int(c), lang) for c in mask_or_cards]


@functools.cache
def _card_json(index: int, lang: str) -> dict[str, str]:
    # 49 cards x 2 languages: the words of a card are looked up once, not in every frame
    c = Card(index)
    with using(lang):
        return {
            "id": str(c),
            "label": card_label(c),
            "colour": c.colour_name,
            "name": _("{colour} {number}").format(colour=colour_name(c.colour_name), number=c.value),
        }


@functools.lru_cache(maxsize=1 << 14)
def _card_set_json(mask: int, lang: str) -> tuple[dict[str, str], ...]:
    # hands, palettes and the canvas change by a card at a time: most sets were shown before
    return tuple(_card_json(int(c), lang) for c in CardSet(mask))


def error_frame(code: str, message: str) -> dict[str, Any]:
    """A refusal or a mistake, said in words (``message``, already in the table's
    language) and as a stable ``code`` for programs; it changed nothing."""
    return {"v": PROTOCOL_VERSION, "type": "error", "code": code, "message": message}


@dataclass(frozen=True)
class Shared:
    """What every client of a table is shown alike at one moment, in the table's
    language: the table, its seats and the public part of the game, read from the
    spectator's view (``observe(None)``, ``events_for(None)``: public facts only). Made
    once per change of the table (:func:`shared_view`) and completed for each seat by
    :func:`table_frame`, so a change costs one public view, not one per client. While a
    person's turn is staged, its mover's frames are made from a second one, the public
    facts of the turn as they see it (:func:`shared_view` of the mover)."""

    table: dict[str, Any]
    seats: list[dict[str, Any]]
    names: list[str]
    game: dict[str, Any] | None


def shared_view(live: LiveTable, viewer: int | None = None) -> Shared:
    """The :class:`Shared` part of ``live``'s frames now, for every client, or for the
    ``viewer`` whose staged turn it is (the others see the turn as it began)."""
    with using(live.lang):
        names = live.names()
        table = {
            "id": live.id,
            "lang": live.lang,
            "players": live.config.players,
            "advanced": live.config.advanced,
            "actions": live.config.actions,
            "status": live.status,
            "game": live.game_number,
            "settings": settings_text(live),
            "clock": int(live.session.clock),
            "name": live.name,
            "private": live.private,
            "invitation": live.invite_hash is not None if live.private else None,
            "hints": live.hints,
            "rated": live.rated,
        }
        seats = [
            {
                "seat": s,
                "name": names[s],
                "bot": seat_info.bot,
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
    live: LiveTable, seat: int | None, *, words: bool = True, shared: Shared | None = None
) -> dict[str, Any]:
    """The table as ``seat`` may see it (None: a spectator), in the table's language;
    ``words``: with the words of the page's controls (``ui``: a connection's first frame
    needs them, later ones do not); ``shared``: the table's :func:`shared_view` now, if
    already made for another client."""
    shared = shared or shared_view(live, seat if seat is not None and seat == live.staging else None)
    with using(live.lang):
        frame: dict[str, Any] = {
            "v": PROTOCOL_VERSION,
            "type": "table",
            "table": shared.table,
            "seats": [dict(info, you=s == seat) for s, info in enumerate(shared.seats)],
            "you": seat,
            "seq": live.seq_for(seat),
            "game": None if shared.game is None else shared.game | seat_game_json(live, seat, shared.names),
            "clock": countdown(live),
            "rematch": rematch_json(live),
        }
        if words:
            frame["ui"] = ui_words()
        return frame


def frame_key(live: LiveTable, seat: int | None) -> tuple[Any, ...]:
    """Everything :func:`table_frame` of ``seat`` (None: a spectator) reads from ``live``,
    in a tuple: two equal keys give equal frames, so a view is made once per key
    (:class:`~red7.web.frames.FrameCache`). The table (status, language, game), each
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


def rematch_json(live: LiveTable) -> dict[str, Any] | None:
    """The rematch proposed (the seats that agreed) or declined (who), if any."""
    session = live.session
    if session.agreed is None and session.declined is None:
        return None
    return {"agreed": sorted(session.agreed or ()), "declined": session.declined}


def since(frame: dict[str, Any], seen: Sequence[str]) -> dict[str, Any]:
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


def encode(frame: dict[str, Any]) -> str:
    """A frame as it goes on the wire: compact JSON, accents as they are (orjson: the
    server encodes a frame for every seat at every change, six times faster than the
    standard library's encoder)."""
    return orjson.dumps(frame).decode()


def settings_text(live: LiveTable) -> str:
    """E.g. "3 players · advanced game, 35 points to win · action cards"."""
    players = live.config.players
    return " · ".join([ngettext("{n} player", "{n} players", players).format(n=players), *config_words(live.config)])


def public_game_json(live: LiveTable, names: Sequence[str], viewer: int | None = None) -> dict[str, Any]:
    """The part of a frame's game everybody sees alike, from the spectator's observation
    and events: the board, the standing, the last round's end and the result. With a
    ``viewer``, its public facts as that seat sees them (its own staged turn in them)."""
    table = live.table
    assert table is not None
    obs = table.observe(viewer)
    standing = standing_of(obs)
    rule = COLOURS[obs.rule]
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
            [dict(card, counts=card["id"] in standing.qualifying[s]) for card in cards_json(palette)]
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


def seat_game_json(live: LiveTable, seat: int | None, names: Sequence[str]) -> dict[str, Any]:
    """The part of a frame's game that is ``seat``'s own: its hand and the cards it just
    drew (its observation), the move log as it may read it (its events), and, on its
    turn, its legal options with their safety marks and words."""
    table = live.table
    assert table is not None
    events = table.events_for(seat)
    mine = seat is not None and table.current == seat and live.substitute(seat) is None and not live.session.closed
    game: dict[str, Any] = {
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
        game["hand"] = None if obs.hand is None else cards_json(obs.hand)
        game["drawn"] = sorted(str(c) for c in just_drawn(events, seat))
        if mine:
            options = table.options()
            game["prompt"] = turn_prompt(obs.step, options, bool(table.staged))
            lines: dict[int | None, str] = {}  # the standing after the turn, by the rule then: shared by options
            game["options"] = [option_json(table, obs, option, names, lines) for option in options]
            game["picks"] = picks(obs.step)
            game["staged"] = [str(a) for a in table.staged]
            game["unusable"] = unusable_json(table, obs, options, names)
    moved = last_move(events)  # as ``seat`` sees the events: another seat's hidden draw is no card (R9)
    game["last"] = None if moved is None else {"seat": moved.seat, "cards": [str(card) for card in moved.cards]}
    return game


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


def picks(step: Step) -> str:
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
) -> dict[str, Any]:
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
        "to": action.destination,
        "safe": option.safe,
        "unsafe_reason": reason,
        "ends_turn": ends,
        "summary": summary,
        "text": decision_text(action),
    }


def last_round_json(
    events: Sequence[Any], scores: list[int], target: int | None, names: Sequence[str]
) -> dict[str, Any] | None:
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


def lobby_json(lives: Sequence[LiveTable]) -> list[dict[str, Any]]:
    """The tables a visitor may join or watch (public facts only: no token, no seed)."""
    rows = []
    for live in lives:
        with using(live.lang):
            names = live.names()
            rows.append(
                {
                    "id": live.id,
                    "lang": live.lang,
                    "status": live.status,
                    "settings": settings_text(live),
                    "players": live.config.players,
                    "free": sum(not s.taken for s in live.seats),
                    "seats": [names[s] if seat.taken else None for s, seat in enumerate(live.seats)],
                    "clock": int(live.session.clock),
                    "name": live.name,
                    "advanced": live.config.advanced,
                    "actions": live.config.actions,
                }
            )
    return rows


def replay_frames(live: LiveTable, number: int, seat: int | None, every_hand: bool = False) -> list[dict[str, Any]]:
    """A finished (or running) game of the table step by step as ``seat`` may see it:
    one frame per decision, each made by :func:`table_frame` over a table rewound to
    that decision (a running game: only its decisions that cannot be taken back); the
    first one with the words of the page's controls (``ui``). ``every_hand``: each
    frame's game also shows every seat's hand then (``hands``): only for a game that is
    over (the caller checks), when nothing is hidden any more. No frame has a clock."""
    frames = []
    for i, step in enumerate(live.rewound(number)):
        frame = table_frame(step, seat, words=i == 0)
        # history: no turn is awaited in it (a rewound step's countdown would be today's
        # patience with whoever is away now, a figure that changes with each asking)
        frame["clock"] = None
        if every_hand and step.table is not None and frame["game"] is not None:
            with using(live.lang):
                hands = [step.table.observe(s).hand for s in range(live.config.players)]
                frame["game"]["hands"] = [cards_json(hand or 0) for hand in hands]
        frames.append(frame)
    return frames
