"""The game's words, in the language in use (:mod:`red7.ui.i18n`).

Every sentence an interface shows (the terminal game, the text game) is built here
from engine facts (cards, decisions, events, refusals, standings, seat names), so the
screens hold layout only and each message exists once, in both catalogs. Nothing here
imports a user-interface toolkit.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from ..bots.base import Appraisal
from ..core.actions import Action, Kind
from ..core.cards import COLOUR_LETTERS, COLOURS, NAME_OF, NUM_CARDS, Card, CardSet, bits_of, to_card
from ..core.events import (
    CanvasPlayed,
    CardDrawn,
    CardMoved,
    CardPlayed,
    CardTaken,
    DrawDeclined,
    DrawReason,
    Event,
    GameOver,
    PlayerEliminated,
    RoundDealt,
    RoundOver,
)
from ..core.model import STEP_KINDS, Config, Option, Refusal, RoundResult, Step
from ..core.standing import Standing
from ..play.records import last_unfinished
from ..play.saving import Saver
from ..play.session import Plan, PlanEnd, SeatKind, SeatName
from ..solver.marks import Estimate, Mark
from .i18n import LANGUAGES, N_, _, language, ngettext, translations

if TYPE_CHECKING:
    from ..core.observation import Observation

CARD_MARKS: Final = N_("R O Y G B I V")
"""The colours' marks on a card as the interfaces show it (the mark, then the number:
``R7``), in card order, separated by spaces; each translation gives seven distinct
marks. English shows the notation's letters (R1.3). A language whose readers would
misread them gives other marks: a Portuguese reader takes V for *Vermelho*, but V is
Violet (and G, Green, is *Verde*), so Portuguese shows ``Vm7`` for R7 and ``Vt1`` for
V1. Only what a person reads changes: records, the engine and what a person types
keep the notation."""
COLOUR_NAMES: Final = {
    "red": N_("Red"),
    "orange": N_("Orange"),
    "yellow": N_("Yellow"),
    "green": N_("Green"),
    "blue": N_("Blue"),
    "indigo": N_("Indigo"),
    "violet": N_("Violet"),
}
RULE_TEXT: Final = {
    "red": N_("highest card"),
    "orange": N_("most cards of one number"),
    "yellow": N_("most cards of one colour"),
    "green": N_("most even cards"),
    "blue": N_("most different colours"),
    "indigo": N_("most cards in a run of consecutive numbers"),
    "violet": N_("most cards below 4"),
}
BOT_LEVELS: Final = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"), "expert": N_("expert")}
"""The levels' names in words: those offered (:data:`red7.bots.LEVELS`) and ``expert``,
removed (:data:`red7.bots.RETIRED_LEVELS`) but named by records written before."""
SEAT_WORDS: Final[Mapping[SeatKind, str]] = {
    SeatKind.YOU: N_("You"),
    SeatKind.PLAYER: N_("Player {n}"),
    SeatKind.BOT: N_("Bot {n}"),
}
STEP_NAMES: Final[Mapping[Step, str]] = {
    Step.START: N_("start"),
    Step.AFTER: N_("after"),
    Step.FIVE: N_("five"),
    Step.SEVEN: N_("seven"),
    Step.ONE: N_("one"),
    Step.DRAW: N_("draw"),
    Step.OVER: N_("over"),
    Step.DEALING: N_("dealing"),
    Step.DRAWING: N_("drawing"),
}
"""The steps of a turn (:class:`~red7.core.model.Step`) as a message names them."""

# A decision's words, keyed by its kind and, for a 7's move, its destination. ``{card}``
# is the card the decision names and ``{rule}`` the colour it would make the rule.
ActionKey = tuple[Kind, str | None]
ACTION_TEXT: Final[Mapping[ActionKey, str]] = {
    (Kind.PLAY, None): N_("played {card}"),
    (Kind.CANVAS, None): N_("put {card} on the canvas (rule: {rule})"),
    (Kind.MOVE, "canvas"): N_("moved {card} from the palette to the canvas (rule: {rule})"),
    (Kind.MOVE, "deck"): N_("put {card} from the palette on top of the deck"),
    (Kind.TAKE, None): N_("took {card} and put it on the deck"),
    (Kind.END, None): N_("ended the turn"),
    (Kind.CONCEDE, None): N_("conceded"),
    (Kind.DRAW, None): N_("drew a card"),
    (Kind.DECLINE, None): N_("did not draw"),
}
"""What a player did, e.g. "played R7" (the log, the turn's summary)."""
DECISION_TEXT: Final[Mapping[ActionKey, str]] = {
    (Kind.PLAY, None): N_("play {card}"),
    (Kind.CANVAS, None): N_("put {card} on the canvas"),
    (Kind.MOVE, "canvas"): N_("move {card} to the canvas"),
    (Kind.MOVE, "deck"): N_("move {card} onto the deck"),
    (Kind.TAKE, None): N_("take {card}"),
    (Kind.END, None): N_("end the turn"),
    (Kind.CONCEDE, None): N_("concede"),
    (Kind.DRAW, None): N_("draw a card"),
    (Kind.DECLINE, None): N_("do not draw"),
}
"""A decision as advice, e.g. "play R7" (hints)."""
STEP_PROMPTS: Final[Mapping[Step, str]] = {
    Step.START: N_("pick a hand card, then [p] play it to your palette or [c] put it on the canvas."),
    Step.FIVE: N_("The 5: pick another hand card and play it to your palette [p]."),
    Step.SEVEN: N_("The 7: pick another card of your palette, then move it to the canvas [c] or onto the deck [k]."),
    Step.ONE: N_("The 1: pick a card of a palette at least as large as yours and take it [t]."),
    Step.DRAW: N_("You may draw the top card of the deck [d] or decline [n]."),
}
"""What the person to move is asked at each step (``after`` depends on whether they can end);
the start of a turn is said after whose turn it is (:func:`turn_start`)."""


def turn_start(name: str | None = None) -> str:
    """How a prompt at the start of a turn begins: "Your turn:", or with ``name`` (a
    screen several people share, where "your" would not say whose) "Ana's turn:"."""
    return _("Your turn:") if name is None else _("{name}'s turn:").format(name=name)


def colour_name(colour: int | str) -> str:
    """A colour's name: ``colour`` is a colour index (0 = Red) or the engine's English name."""
    return _(COLOUR_NAMES[COLOURS[colour] if isinstance(colour, int) else colour])


def card_marks() -> tuple[str, ...]:
    """The seven colours' marks in the language in use (:data:`CARD_MARKS`), Red first."""
    return _marks(language())


@functools.cache
def _marks(lang: str) -> tuple[str, ...]:
    # asked for every card shown: the web server shows thousands a second
    return tuple(translations(lang).gettext(CARD_MARKS).split())


def card_label(card: Card | str | int) -> str:
    """A card as a person reads it in the language in use: its colour's mark and its
    number, e.g. ``R7`` in English, ``Vm7`` in Portuguese (``card``: a card, its
    notation or its index)."""
    c = to_card(card)
    return f"{card_marks()[c.colour]}{c.value}"


def cards_label(cards: Iterable[Card | str | int] | int) -> str:
    """Cards as a person reads them, e.g. "Vm7 Az3"; a card-set mask is shown highest
    card first (as a palette is read)."""
    return " ".join(card_label(c) for c in (CardSet(cards) if isinstance(cards, int) else cards))


def cards_explained() -> str:
    """How the interfaces write a card, for the rules screen and the text game: the mark
    of each colour and, where the marks are not the notation's letters (R1.3), the
    letter each colour has in records and in what a person types."""
    marks = card_marks()
    legend = ", ".join(
        f"{mark} {colour_name(colour)}" + (f" ({letter})" if mark != letter else "")
        for colour, mark, letter in zip(COLOURS, marks, COLOUR_LETTERS, strict=True)
    )
    text = _("A card shows its colour and its number: {card} is the {colour} 7. The colours: {legend}.").format(
        card=card_label(Card.of(0, 7)), colour=colour_name("red"), legend=legend
    )
    if marks != tuple(COLOUR_LETTERS):
        text += " " + _(
            "Game records and the text game's notation use the English initials in parentheses: {notation} is {card}."
        ).format(notation=Card.of(6, 1), card=card_label(Card.of(6, 1)))
    return text


def config_words(config: Config) -> list[str]:
    """The kind of game in words, e.g. ["advanced game, 35 points to win", "action rules"]."""
    if config.advanced:
        words = [_("advanced game, {target} points to win").format(target=config.target)]
    else:
        words = [_("basic game")]
    return words + ([_("action rules")] if config.actions else [])


def rule_text(rule: int | str) -> str:
    """The rule in words, e.g. "Red: highest card" (``rule``: index or English name)."""
    name = COLOURS[rule] if isinstance(rule, int) else rule
    return _("{colour}: {rule}").format(colour=colour_name(name), rule=_(RULE_TEXT[name]))


def bot_level(spec: str) -> str:
    return _(BOT_LEVELS[spec]) if spec in BOT_LEVELS else spec


def seat_name(name: SeatName) -> str:
    """A seat's name: the one given, else "You", "Player 2" or "Bot 2"."""
    return name.given or _(SEAT_WORDS[name.kind]).format(n=name.number)


def seat_mark(name: SeatName) -> str:
    """What follows a bot's name, its level: "(easy)"; empty for a person."""
    return f"({bot_level(name.level)})" if name.level is not None else ""


def step_name(step: Step) -> str:
    return _(STEP_NAMES[step])


def qualifying_words(rule: str, n: int) -> str:
    """What ``n`` qualifying cards mean under ``rule``, e.g. "5 colours"."""
    if rule == "red":
        return ngettext("{n} card", "{n} cards", n).format(n=n)
    phrases = {
        "orange": ngettext("{n} card of one number", "{n} cards of one number", n),
        "yellow": ngettext("{n} card of one colour", "{n} cards of one colour", n),
        "green": ngettext("{n} even card", "{n} even cards", n),
        "blue": ngettext("{n} colour", "{n} colours", n),
        "indigo": ngettext("a run of {n} card", "a run of {n} cards", n),
        "violet": ngettext("{n} card below 4", "{n} cards below 4", n),
    }
    return phrases[rule].format(n=n)


def standing_text(st: Standing, names: Sequence[str]) -> str:
    """Why the leader is winning, e.g. "Blue: 5 colours against 4 (Bot 2)"; see :func:`winning_line`."""
    colour = colour_name(st.rule)
    if st.leader is None:
        return _("{colour}: nobody qualifies").format(colour=colour)
    if st.rule == "red":
        if st.challenger is None:
            return _("{colour}: {card}, nobody else has a card").format(colour=colour, card=_top(st, st.leader))
        return _("{colour}: {card} against {other_card} ({challenger})").format(
            colour=colour,
            card=_top(st, st.leader),
            other_card=_top(st, st.challenger),
            challenger=names[st.challenger],
        )
    what = qualifying_words(st.rule, st.count(st.leader))
    if st.challenger is None:
        return _("{colour}: {what}, nobody else qualifies").format(colour=colour, what=what)
    if st.reason == "more":
        return _("{colour}: {what} against {other} ({challenger})").format(
            colour=colour, what=what, other=st.count(st.challenger), challenger=names[st.challenger]
        )
    return _("{colour}: {what} each, and the highest card decides: {card} against {other_card} ({challenger})").format(
        colour=colour,
        what=what,
        card=_top(st, st.leader),
        other_card=_top(st, st.challenger),
        challenger=names[st.challenger],
    )


def _top(st: Standing, seat: int) -> str:
    """The highest qualifying card of ``seat`` as a person reads it ("" if none)."""
    top = st.top(seat)
    return card_label(top) if top is not None else ""


def winning_line(st: Standing, names: Sequence[str]) -> str:
    """E.g. "Winning: Ana — Blue: 5 colours against 4 (Bot 2)"."""
    if st.leader is None:
        return standing_text(st, names)
    return _("Winning: {name} — {why}").format(name=names[st.leader], why=standing_text(st, names))


def _filled(template: str, card: Card | None) -> str:
    """``template`` translated, with the card and the rule its colour would make."""
    if card is None:
        return _(template)
    return _(template).format(card=card_label(card), rule=colour_name(card.colour_name))


def action_text(action: Action) -> str:
    """A decision in words, e.g. "played R7" or "put B3 on the canvas (rule: Blue)"."""
    return _filled(ACTION_TEXT[action.kind, action.destination], action.card)


def decision_text(action: Action) -> str:
    """A decision as advice, e.g. "play R7" or "put B3 on the canvas"."""
    return _filled(DECISION_TEXT[action.kind, action.destination], action.card)


def event_text(event: Event) -> str | None:
    """What a move-log line says of ``event`` (as its viewer sees it), e.g. "played R7";
    None for the events the log leaves to other messages (deals, round and game ends)
    and for the end of a turn, which every turn has: the next line shows who plays."""
    match event:
        case CardPlayed(card=card):
            return _filled(ACTION_TEXT[Kind.PLAY, None], card)
        case CanvasPlayed(card=card):
            return _filled(ACTION_TEXT[Kind.CANVAS, None], card)
        case CardMoved(card=card, to_canvas=to_canvas):
            return _filled(ACTION_TEXT[Kind.MOVE, "canvas" if to_canvas else "deck"], card)
        case CardTaken(card=card):
            return _filled(ACTION_TEXT[Kind.TAKE, None], card)
        case CardDrawn(card=None):
            return _(ACTION_TEXT[Kind.DRAW, None])
        case CardDrawn(card=Card() as card):
            return _("drew {card}").format(card=card_label(card))
        case DrawDeclined():
            return _(ACTION_TEXT[Kind.DECLINE, None])
        case PlayerEliminated(conceded=True):
            return _(ACTION_TEXT[Kind.CONCEDE, None])
        case PlayerEliminated():
            return _("is out: no card left in hand")
    return None


def log_lines(
    events: Sequence[Event], names: Sequence[str], last: int | None = None, viewer: int | None = None
) -> list[str]:
    """The log lines of ``events`` (as one seat sees them), e.g. "Bot 2: played R7";
    only the last ``last`` lines if given. A card ``viewer`` drew is told to that
    person: "You drew G3 (the 3's action)"; whose palette a 1 took a card from is told
    to all (:func:`_log_line`)."""
    names, lang = tuple(names), language()
    lines = [line for event in events if (line := _log_line(event, names, viewer, lang)) is not None]
    return lines if last is None else lines[-last:]


@functools.lru_cache(maxsize=1 << 14)
def _log_line(event: Event, names: tuple[str, ...], viewer: int | None, lang: str) -> str | None:
    # Events are immutable and their words depend on these arguments only, so a line is
    # made once: the web server writes every seat's whole log at every change.
    seat = getattr(event, "seat", None)  # every event the log tells of has a seat
    if seat is None:
        return None
    if isinstance(event, CardDrawn):
        # why the card was drawn is public (the event says it); the card only when it was
        # known to all (R7.z) or ``viewer`` drew it (R9: the event as seen already hides it)
        by_three = event.reason is DrawReason.THREE
        if event.card is None:
            text = _("drew a card (the 3's action)") if by_three else _("drew a card (the canvas draw)")
        elif seat == viewer:
            you = _("You drew {card} (the 3's action)") if by_three else _("You drew {card} (the canvas draw)")
            return you.format(card=card_label(event.card))
        else:
            text = (_("drew {card} (the 3's action)") if by_three else _("drew {card} (the canvas draw)")).format(
                card=card_label(event.card)
            )
        return f"{names[seat]}: {text}"
    if isinstance(event, CardTaken):
        # whose card a 1 took is public (R7.1): the person whose palette it was reads "your"
        if event.owner == viewer or names[event.owner] == _(SEAT_WORDS[SeatKind.YOU]):
            text = _("took {card} from your palette and put it on the deck")
        else:
            text = _("took {card} from {owner}'s palette and put it on the deck")
        return f"{names[seat]}: {text.format(card=card_label(event.card), owner=names[event.owner])}"
    if (said := event_text(event)) is not None:
        return f"{names[seat]}: {said}"
    return None


def step_prompt(step: Step, can_end: bool, staged: bool) -> str:
    """What the person to move is asked to do at ``step`` (with the keys)."""
    if step is Step.AFTER:
        text = (
            _("Put a card on the canvas [c], or end your turn [e].")
            if can_end
            else _("You are not winning: put a card on the canvas [c] that makes you win, or concede [x].")
        )
        return text + (" " + _("[u] takes the turn back.") if staged else "")
    if step is Step.START:
        return f"{turn_start()} {_(STEP_PROMPTS[step])}"
    return _(STEP_PROMPTS[step]) if step in STEP_PROMPTS else ""


def turn_prompt(step: Step, options: Sequence[Option], staged: bool, name: str | None = None) -> str:
    """What the person to move can do now, with the terminal game's keys: only what
    the legal ``options`` allow (an empty hand is not asked for a card, End turn only
    while winning); "[u] takes the turn back." when something is ``staged``. ``name``:
    the person to move, on a screen several people share: a turn's start says whose
    turn it is ("Ana's turn: ...") instead of "Your turn: ..."."""
    offered = {(o.action.kind, o.action.destination) for o in options}
    if offered <= {(Kind.CONCEDE, None)}:
        text = _("Nothing you can do now keeps you in the round: concede [x].")
    elif step is Step.AFTER:
        can_end, can_canvas = (Kind.END, None) in offered, (Kind.CANVAS, None) in offered
        text = (
            step_prompt(step, can_end, False)
            if can_canvas
            else _("You are winning and no hand card can go on the canvas: end your turn [e].")
        )
    elif step is Step.START and (Kind.CANVAS, None) not in offered:
        play_only = _("pick a hand card and play it to your palette [p].")
        text = f"{turn_start(name)} {play_only}"
    elif step is Step.START and (Kind.PLAY, None) not in offered:
        canvas_only = _("pick a hand card and put it on the canvas [c].")
        text = f"{turn_start(name)} {canvas_only}"
    elif step is Step.START:
        text = f"{turn_start(name)} {_(STEP_PROMPTS[step])}"
    elif step is Step.SEVEN and (Kind.MOVE, "deck") not in offered:
        text = _("The 7: pick another card of your palette and move it to the canvas [c].")
    elif step is Step.SEVEN and (Kind.MOVE, "canvas") not in offered:
        text = _("The 7: pick another card of your palette and move it onto the deck [k].")
    else:
        text = step_prompt(step, False, False)
    return text + (" " + _("[u] takes the turn back.") if staged else "")


def refusal_text(refusal: Refusal) -> str:
    """Why a decision is not allowed, in the language in use: the engine's sentence for
    the refusal's code (:data:`red7.core.model.REFUSALS`), which says the rule in words,
    translated by the catalog and filled by the refusal, e.g. "With B3 on the canvas you
    would not be winning.". The rule's ID (``refusal.rule``) is for the API and for
    the rules documents, not for a player."""
    return _refusal_text(refusal, language())


@functools.lru_cache(maxsize=1 << 12)
def _refusal_text(refusal: Refusal, lang: str) -> str:
    # refusals are immutable values: the web frames word the mover's greyed cards at
    # every change, each sentence once per language
    fields = {"step": step_name(refusal.step)}
    if refusal.card is not None:
        fields["card"] = card_label(refusal.card)
    reason = refusal.format(_(refusal.template), **fields)
    numbers = (
        "" if refusal.standing is None or refusal.seat is None else f" {short_text(refusal.standing, refusal.seat)}."
    )
    return f"{reason[:1].upper()}{reason[1:]}.{numbers}"


def short_text(st: Standing, seat: int) -> str:
    """How far ``seat``, who would not be winning, is from it under the standing's rule,
    in numbers: its qualifying cards against the best other player's, and the card that
    wins a tie, e.g. "Orange: 1 card of one number against 1; Y7 wins the tie" or "Red:
    R3 against O6" (the rule Red counts no cards: the highest one decides)."""
    colour = colour_name(st.rule)
    rival = st.leader if st.leader != seat else st.challenger
    if rival is None:
        return _("{colour}: nobody qualifies").format(colour=colour)
    mine, theirs = st.count(seat), st.count(rival)
    if st.rule == "red":
        if not mine:
            return _("{colour}: no card against {other_card}").format(colour=colour, other_card=_top(st, rival))
        return _("{colour}: {card} against {other_card}").format(
            colour=colour, card=_top(st, seat), other_card=_top(st, rival)
        )
    what = qualifying_words(st.rule, mine)
    if mine == theirs:
        return _("{colour}: {what} against {other}; {card} wins the tie").format(
            colour=colour, what=what, other=theirs, card=_top(st, rival)
        )
    return _("{colour}: {what} against {other}").format(colour=colour, what=what, other=theirs)


CARD_DECISIONS: Final = (
    (Kind.PLAY, None),
    (Kind.CANVAS, None),
    (Kind.MOVE, "canvas"),
    (Kind.MOVE, "deck"),
    (Kind.TAKE, None),
)
"""The decisions that name a card (a kind and, for a 7's move, its destination), in the
order their refusals are told."""


def unusable_reason(
    obs: Observation, card: Card, check: Callable[[Action], Refusal | None], names: Sequence[str]
) -> str | None:
    """Why the mover, whose view is ``obs``, cannot use ``card`` now, in words; None when
    a decision of this step can use it, or when it is in no place a decision could pick
    it from (a hand card at a 7's step: the front end words that with its own controls).

    A card where this step's decisions pick (the hand for a play or the canvas, the
    mover's palette at a 7's step, the others' palettes at a 1's step) gets the engine's
    refusal of each of those decisions about it (``check``: the table's, None for a
    legal decision); a card in a palette elsewhere, which action would move it. The
    terminal game words a greyed card with this function, the web frames with
    :func:`unusable_reasons` (the same words, for all the cards at once)."""
    return unusable_reasons(obs, check, names, 1 << card).get(str(card))


def unusable_reasons(
    obs: Observation, check: Callable[[Action], Refusal | None], names: Sequence[str], among: int = ~0
) -> dict[str, str]:
    """:func:`unusable_reason` of every card of the mover's hand and of the palettes in
    the mask ``among`` (default: all) that has one, by notation, at once: what the
    step's decisions pick is worked out once, not per card, and a palette's sentences
    once per palette (the web server words the mover's frame at every change)."""
    hand, own, others, decisions = _picks(obs.step)
    lang = language()
    reasons: dict[str, str] = {}

    def refused(cards: int) -> None:
        for index in bits_of(cards):
            actions = decisions[index]
            refusals = tuple(refusal for action in actions if (refusal := check(action)) is not None)
            if refusals and len(refusals) == len(actions):  # no decision of this step can use it
                reasons[NAME_OF[index]] = _cannot_use(Card(index), refusals, lang)

    if hand:
        refused((obs.hand or 0) & among)
    for seat, palette in enumerate(obs.palettes):
        mine = seat == obs.seat
        if own if mine else others:  # where this step picks
            refused(palette & among)
        elif palette & among:
            reasons.update(_palette_reasons(palette & among, None if mine else names[seat], obs.actions, lang))
    return reasons


@functools.cache
def _picks(step: Step) -> tuple[bool, bool, bool, tuple[tuple[Action, ...], ...]]:
    """Where the decisions of ``step`` pick their card (the hand, the mover's palette,
    the others' palettes), and each card's decisions of this step (:data:`CARD_DECISIONS`
    of its kinds), by card index: made once per step, not at every frame of the mover
    (reading a decision's notation was half the time of their greyed cards)."""
    kinds = STEP_KINDS[step]
    ways = [(kind, to) for kind, to in CARD_DECISIONS if kind in kinds]
    decisions = tuple(tuple(Action.of(kind, Card(i), to) for kind, to in ways) for i in range(NUM_CARDS))
    return bool(kinds & {Kind.PLAY, Kind.CANVAS}), Kind.MOVE in kinds, Kind.TAKE in kinds, decisions


@functools.lru_cache(maxsize=1 << 12)
def _cannot_use(card: Card, refusals: tuple[Refusal, ...], lang: str) -> str:
    # refusals are immutable values: each sentence is made once per language
    words = " ".join(dict.fromkeys(refusal_text(refusal) for refusal in refusals))
    return _("{card} cannot be used now: {reasons}").format(card=card_label(card), reasons=words)


@functools.lru_cache(maxsize=1 << 12)
def _palette_reasons(palette: int, owner: str | None, actions: bool, lang: str) -> tuple[tuple[str, str], ...]:
    # the web server words every palette card of the mover's frame at every change, and
    # palettes change a card at a time: a palette's sentences are kept by owner, table
    # (with action cards or not) and language (``owner`` None: the mover's own palette),
    # and a changed palette's are made of the cards' sentences, kept too (a card's is made
    # once per owner, table and language)
    return tuple((NAME_OF[index], _palette_reason(index, owner, actions, lang)) for index in bits_of(palette))


@functools.lru_cache(maxsize=1 << 14)
def _palette_reason(index: int, owner: str | None, actions: bool, lang: str) -> str:
    card = card_label(index)
    if not actions:  # (no action card moves a palette card: the game without them never speaks of one)
        if owner is not None:
            return _("{card} is in {name}'s palette: a card played to a palette stays there.").format(
                card=card, name=owner
            )
        return _("{card} is in your palette: a card played to a palette stays there.").format(card=card)
    if owner is not None:
        return _("{card} is in {name}'s palette: only a 1's action takes a card from another palette.").format(
            card=card, name=owner
        )
    return _("{card} is in your palette: only a 7's action moves a palette card.").format(card=card)


def turn_summary(staged: Sequence[Action], last: Action) -> str:
    """The turn a person is asked to confirm: the decisions staged so far and ``last``,
    the one that ends the turn, e.g. "You played R7, ended the turn.". A draw (R5.1) is
    still to come when it is confirmed, so it is said as what will happen: "You put B3
    on the canvas (rule: Blue) and will draw a card."."""
    if last.kind is Kind.DRAW:
        done = ", ".join(action_text(a) for a in staged)
        return _("You {summary} and will draw a card.").format(summary=done) if done else _("You will draw a card.")
    return _("You {summary}.").format(summary=", ".join(action_text(a) for a in [*staged, last]))


def concession_consequence(advanced: bool) -> str:
    """What conceding costs, said before a person concedes (every front end asks first):
    the round; in the basic game, its one round (R6.3), the game."""
    if advanced:
        return _("You will be out of this round.")
    return _("You will be out, and the basic game has only this round: you lose the game.")


def unsafe_reason(after: Standing | None, names: Sequence[str]) -> str:
    """Why a decision that is not safe (R4.7) would put the player out, given the
    standing right after it (None when the outcome hangs on a card drawn from the deck)."""
    if after is None:
        return _("You would stay in the round only if the card you draw lets you win.")
    return _("Afterwards you would not be winning, and no choice left this turn fixes it. {standing}").format(
        standing=winning_line(after, names)
    )


def round_winner(over: RoundOver | RoundResult, names: Sequence[str]) -> str:
    """E.g. "Round winner: Ana, under the rule Blue."."""
    return _("Round winner: {name}, under the rule {rule}.").format(
        name=names[over.winner], rule=colour_name(over.rule)
    )


def scores_line(scores: Sequence[int], target: int | None, names: Sequence[str]) -> str:
    """E.g. "Scores (target 40): Ana 12, Bot 2 7"."""
    return _("Scores (target {target}): {scores}").format(
        target=target, scores=", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
    )


def round_summary(over: RoundOver, scores: Sequence[int], target: int | None, names: Sequence[str]) -> str:
    """How a round ended: its winner and rule; in the advanced game (``target`` set)
    the scoring cards and the match scores (R8.2)."""
    lines = [round_winner(over, names)]
    if target is not None:
        scoring = ngettext(
            "Scoring cards: {cards} = {points} point.", "Scoring cards: {cards} = {points} points.", over.points
        )
        lines.append(scoring.format(cards=cards_label(over.scored) or "—", points=over.points))
        lines.append(scores_line(scores, target, names))
    return "\n".join(lines)


def game_over_line(winners: Sequence[int], last: RoundResult, advanced: bool, names: Sequence[str]) -> str:
    """Who won, and how the last round ended, for the board at the end of a game (in
    place of who is winning, which the palettes as the engine leaves them, the scoring
    cards gone to the score pile, no longer tell): "Ana won the game! Round winner:
    Ana, under the rule Blue. Scoring cards: B7 B6 = 13 points."""
    line = winners_line(winners, names, match=advanced) + " " + round_winner(last, names)
    if advanced:
        scoring = ngettext(
            "Scoring cards: {cards} = {points} point.", "Scoring cards: {cards} = {points} points.", last.points
        )
        cards = cards_label(last.scored) or "—"
        line += " " + scoring.format(cards=cards, points=last.points)
    return line


def winners_line(winners: Sequence[int], names: Sequence[str], match: bool = False) -> str:
    """E.g. "Ana won the game!", "Ana won the match!" (``match``: the advanced game,
    a match of rounds, R8) or "Ana & Bia share the victory!"."""
    won = (
        ngettext("{names} won the match!", "{names} share the victory!", len(winners))
        if match
        else ngettext("{names} won the game!", "{names} share the victory!", len(winners))
    )
    return won.format(names=" & ".join(names[w] for w in winners))


def is_match(over: GameOver) -> bool:
    """Was the game that ``over`` ends an advanced game's match (R8)? Only a match
    scores points, and its winner reached the target (a basic game scores none); a
    match of more than one round is one whatever the scores."""
    return over.rounds > 1 or any(over.scores)


def move_log(events: Sequence[Event], names: Sequence[str], viewer: int | None = None) -> list[str]:
    """The move log: :func:`log_lines` of ``events`` (as ``viewer`` sees
    them, R9; a card ``viewer`` drew says "You drew G3"), with each round's winner, the
    game's winners and a marker before every round after the first ("— Round 2 —"), so
    the move that ends a round stays in the log."""
    names, lang = tuple(names), language()
    lines: list[str] = []
    for event in events:
        if isinstance(event, RoundDealt):
            if event.round > 1:
                lines.append(_("— Round {n} —").format(n=event.round))
        elif isinstance(event, RoundOver):
            lines.append(round_winner(event, names))
        elif isinstance(event, GameOver):
            lines.append(winners_line(event.winners, names, is_match(event)))
        elif (line := _log_line(event, names, viewer, lang)) is not None:
            lines.append(line)
    return lines


def just_drawn(events: Sequence[Event], seat: int | None) -> frozenset[Card]:
    """The cards ``seat`` drew since its last decision that was not a draw (an
    advanced draw, R5.1, or a 3's, R7.3), as that seat's events tell (``seat``'s own
    view): the board marks them in the hand until the seat plays again."""
    drawn: set[Card] = set()
    if seat is None:
        return frozenset()
    for event in reversed(events):
        match event:
            case CardDrawn(seat=s, card=Card() as card) if s == seat:
                drawn.add(card)
            case RoundDealt() | CardPlayed() | CanvasPlayed() | CardMoved() | CardTaken() | DrawDeclined() if (
                getattr(event, "seat", seat) == seat
            ):
                break
    return frozenset(drawn)


DECIMAL_COMMA: Final = frozenset({"pt-BR"})
"""Languages that write 5,8 where English writes 5.8."""


def decimal_text(value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals and the decimal mark of the current language."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if language() in DECIMAL_COMMA else text


def chance_text(chance: float, match: bool) -> str:
    """An estimated chance in words, e.g. "38% to win the match" (``match``: the
    advanced game, where the estimates are the match's; else the round's)."""
    percent = round(100 * chance)
    return (_("{percent}% to win the match") if match else _("{percent}% to win the round")).format(percent=percent)


def estimate_text(estimate: Estimate, match: bool) -> str:
    """A judge's estimate of a decision against its own choice, e.g. "an estimated
    38% to win the match, against 56% with put G5 on the canvas"."""
    if estimate.best_chance <= estimate.chance:
        return _("an estimated {chance}").format(chance=chance_text(estimate.chance, match))
    return _("an estimated {chance}, against {best} with {decision}").format(
        chance=chance_text(estimate.chance, match),
        best=f"{round(100 * estimate.best_chance)}%",
        decision=decision_text(estimate.suggested),
    )


def reason_text(appraisal: Appraisal, runner_up: tuple[Action, float] | None, match: bool) -> str:
    """Why a bot chose a decision, from its appraisal (a hint's reason): the share of
    solved worlds it keeps won, or its estimated chance, then the next best decision's;
    "" when it weighed nothing."""
    chance = appraisal.chances.get(appraisal.choice.id)
    if chance is None:
        return _("It is the only decision that keeps you in the round.") if not appraisal.chances else ""
    if appraisal.solved:
        why = ngettext(
            "It keeps the round won in {won} of {worlds} way the cards you cannot see may lie ({percent}%).",
            "It keeps the round won in {won} of {worlds} ways the cards you cannot see may lie ({percent}%).",
            appraisal.samples,
        ).format(won=round(chance * appraisal.samples), worlds=appraisal.samples, percent=round(100 * chance))
    else:
        why = _("Estimated: {chance}.").format(chance=chance_text(chance, match))
    if runner_up is None:
        return why
    other, other_chance = runner_up  # said in the unit of the choice's: worlds, or an estimate
    odds = worlds_text(other_chance, appraisal.samples) if appraisal.solved else f"{round(100 * other_chance)}%"
    return _("{why} Next best: {decision}, {odds}.").format(why=why, decision=decision_text(other), odds=odds)


def worlds_text(share: float, worlds: int) -> str:
    """A share of ``worlds`` solved worlds as a count and a percentage, the one unit of
    the hint and the review, e.g. "63 of 64 deals (98%)"."""
    return ngettext("{won} of {worlds} deal ({percent}%)", "{won} of {worlds} deals ({percent}%)", worlds).format(
        won=round(share * worlds), worlds=worlds, percent=round(100 * share)
    )


def decision_place(mark: Mark) -> str:
    """Where a marked decision was made, as a person finds it in the game's log:
    "Round 2, turn 5" (every player's turns of the round counted); "Decision 13" (its
    place in the record) when the mark does not know its round."""
    if mark.round and mark.turn:
        return _("Round {round}, turn {turn}").format(round=mark.round, turn=mark.turn)
    return _("Decision {number}").format(number=mark.number)


def review_text(
    marks: Sequence[Mark], names: Sequence[str], match: bool = False, seats: Collection[int] | None = None
) -> str:
    """The post-game review: a verdict on every decision of the players in ``seats``
    (default: all; the people of a game), each line opened by the decision's number in
    the record ("13. Round 2, turn 5, Ana: …", what a replay steps to), and the other
    players' thrown-away rounds; then per player how many of their decisions in won
    positions threw one away, and how many of those could be seen from their own view;
    and how many of their estimated ones were costly (``match``: the estimates are of
    winning the match); or why there is nothing to value."""
    solved = [m for m in marks if m.won_before is not None]
    estimated = [m for m in marks if m.estimate is not None]
    if not solved and not estimated:
        return _("The solver values decisions only when two players are left and no card remains to be drawn.")
    lines = []
    for m in marks:
        if seats is None or m.seat in seats or m.threw_away:
            lines.append(
                _("{number}. {when}, {name}: {verdict}").format(
                    number=m.number, when=decision_place(m), name=names[m.seat], verdict=verdict_text(m, match)
                )
            )
    lines.append("")
    for seat in sorted({m.seat for m in solved}):
        won = sum(bool(m.won_before) for m in solved if m.seat == seat)
        thrown = [m for m in solved if m.seat == seat and m.threw_away]
        if not won:
            lines.append(_("{name}: never in a won position.").format(name=names[seat]))
            continue
        lines.append(
            ngettext(
                "{name}: {thrown} of {won} decisions in won positions threw the round away.",
                "{name}: {thrown} of {won} decisions in won positions threw the round away.",
                won,
            ).format(name=names[seat], thrown=len(thrown), won=won)
        )
        if any(m.visible is not None for m in thrown):
            lines.append(
                ngettext(
                    "{name}: {seen} of them could be seen from their own view, the others only in hindsight.",
                    "{name}: {seen} of them could be seen from their own view, the others only in hindsight.",
                    len(thrown),
                ).format(name=names[seat], seen=sum(bool(m.visible) for m in thrown))
            )
    for seat in sorted({m.seat for m in estimated if m.won_before is None}):
        judged = [m for m in estimated if m.seat == seat and m.won_before is None]
        lines.append(
            ngettext(
                "{name}: {costly} of {judged} estimated decision was costly.",
                "{name}: {costly} of {judged} estimated decisions were costly.",
                len(judged),
            ).format(name=names[seat], costly=sum(m.costly for m in judged), judged=len(judged))
        )
    return "\n".join(lines)


def verdict_text(m: Mark, match: bool = False) -> str:
    """The review's verdict on one decision, e.g. "put An6 on the canvas lost a won round
    only in hindsight: …". Where the solver values it, with every hand known (a round
    thrown away, kept, or already lost), and what the player could see said beside it
    when the judge weighed it from their view (the worlds consistent with it, as the
    hint): a round thrown away is said to be visible from their own view, or lost only
    in hindsight (:attr:`~red7.solver.marks.Mark.visible`). Elsewhere the judge's
    estimate (``match``: of winning the match), or that nothing judged it."""
    decision, e = decision_text(m.action), m.estimate
    kept = _(" or ").join(decision_text(a) for a in m.best)
    view = e is not None and e.solved and e.worlds > 0
    if m.threw_away and e is not None and view:
        fields = {
            "decision": decision,
            "kept": kept,
            "share": worlds_text(e.chance, e.worlds),
            "best": decision_text(e.suggested),
            "best_share": worlds_text(e.best_chance, e.worlds),
        }
        if m.visible:
            return _(
                "{decision} threw a won round away, visible from the player's own view: over the deals consistent "
                "with what they could see, it kept the round won in {share}, {best} in {best_share}."
            ).format(**fields)
        if e.chance >= e.best_chance:
            return _(
                "{decision} lost a won round only in hindsight: with every hand known, {kept} would have kept it; "
                "over the deals consistent with what the player could see, it kept the round won in {share}, "
                "as well as any choice."
            ).format(**fields)
        return _(
            "{decision} lost a won round only in hindsight: with every hand known, {kept} would have kept it; "
            "over the deals consistent with what the player could see, it kept the round won in {share}, "
            "close to {best}: {best_share}."
        ).format(**fields)
    if m.threw_away and e is not None:  # a search's estimate, not worlds solved
        if m.visible:
            return _("{decision} threw a won round away, visible from the player's own view ({estimate}).").format(
                decision=decision, estimate=estimate_text(e, match)
            )
        return _(
            "{decision} lost a won round only in hindsight: with every hand known, {kept} would have kept it; "
            "from what the player could see, {estimate}."
        ).format(decision=decision, kept=kept, estimate=estimate_text(e, match))
    if m.threw_away:
        return _("{decision} threw a won round away, with every hand known ({kept} would have kept it).").format(
            decision=decision, kept=kept
        )
    if m.won_before:
        return _("{decision} kept the won round.").format(decision=decision)
    if m.won_before is not None:
        if e is not None and e.costly and view:
            return _(
                "{decision}: the round was already lost with every hand known, but from what the player could see it "
                "was costly: it kept the round won in {share}, {best} in {best_share}."
            ).format(
                decision=decision,
                share=worlds_text(e.chance, e.worlds),
                best=decision_text(e.suggested),
                best_share=worlds_text(e.best_chance, e.worlds),
            )
        return _("{decision}: the round was already lost, with every hand known.").format(decision=decision)
    if e is not None:
        template = _("{decision} was costly ({estimate}).") if e.costly else _("{decision} was sound ({estimate}).")
        return template.format(decision=decision, estimate=estimate_text(e, match))
    return _("{decision}: not judged (a single choice, or nothing could value it).").format(decision=decision)


def plan_text(plan: Plan, level: str, names: Sequence[str], match: bool = False) -> str:
    """A hint in words: the bot's whole turn (``level``: the bot in words), e.g. "Hint:
    the hard bot would play Y2, then put G5 on the canvas → Green: 3 even cards against
    2 (Bot 2)."; "…, then draw and see" when it stops at a draw from the unknown deck;
    "nothing keeps you in the round: concede" when conceding is all that is left. Then
    the reason, when the bot gave one (:func:`~red7.ui.words.reason_text`; ``match``:
    its chances are of winning the match)."""
    if plan.end is PlanEnd.CONCEDE and plan.forced:
        return _("Hint: nothing keeps you in the round: concede [x].")
    steps = [decision_text(action) for action in plan.decisions]
    if plan.end is PlanEnd.DRAW:  # what the drawn card allows is not known yet (and not shown)
        last = plan.decisions[-1]
        steps[-1] = (
            _("draw and see")
            if last.kind is Kind.DRAW
            else _("{decision} and see what you draw").format(decision=steps[-1])
        )
    line = steps[0]
    for step in steps[1:]:
        line = _("{first}, then {next}").format(first=line, next=step)
    if plan.standing is None:
        text = _("Hint: the {level} bot would {decision}.").format(level=level, decision=line)
    else:
        text = _("Hint: the {level} bot would {plan} → {why}.").format(
            level=level, plan=line, why=standing_text(plan.standing, names)
        )
    reason = reason_text(plan.appraisal, plan.runner_up, match) if plan.appraisal is not None else ""
    return f"{text} {reason}" if reason else text


def saved_so_far(saver: Saver, staged: bool) -> str:
    """What quitting now costs, for the game's person: nothing, the game is saved (and
    how to take it up again: ``red7 play --resume``, with the file when it is not the
    last one saved; ``staged``: they have decisions this turn that may still be taken
    back, which the save does not keep); or the game is lost (nothing saved yet, no
    autosave, or saving failed)."""
    if saver.autosave_error is not None:
        return _("The game could not be saved ({error}): if you quit, it is lost.").format(
            error=saver.autosave_error.strerror or saver.autosave_error
        )
    path = saver.autosaved
    if path is None:
        return _("The game in progress will not be saved.")
    command = "red7 play --resume" if last_unfinished(path.parent) == path else f"red7 play --resume {path}"
    text = _("The game so far is saved to:") + f"\n{path}"  # a long path on a line of its own
    if staged:  # what may still be taken back is not kept: the turn goes on from before it
        text += "\n" + _("What you can still take back this turn is not kept.")  # (never run into the path)
    return text + "\n" + _("Continue it later with: {command}").format(command=command)


NAME_LENGTH: Final = 24
"""The longest name a person may give (the web's tables, the terminal's hotseat)."""


def name_key(name: str) -> str:
    """What two names must differ in to be two names: ``Ana``, ``ANA`` and ``Ａｎａ`` are one."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


RESERVED_NAME = re.compile(
    "|".join(
        r"\s*\d*".join(re.escape(part.strip()) for part in name_key(translations(lang).gettext(words)).split("{n}"))
        for lang in LANGUAGES
        for words in SEAT_WORDS.values()
    )
)
"""The names the table gives seats itself, in every language ("Bot 3", "Jogador 2",
"You"...): a person may not take one (:func:`name_key` of a name is matched whole)."""
