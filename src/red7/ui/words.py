"""The game's words, in the language in use (:mod:`red7.ui.i18n`).

Every sentence the terminal game shows is built here from engine facts, so the
screens hold layout only and each message exists once, in both catalogs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ..core.actions import Action
from ..core.standing import Standing
from .i18n import N_, _, ngettext

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
LETTER_COLOUR: Final = dict(zip("ROYGBIV", COLOUR_NAMES, strict=True))
BOT_LEVELS: Final = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"), "expert": N_("expert")}


def colour_name(colour: str) -> str:
    """A colour's name (``colour`` in English, as the engine names it)."""
    return _(COLOUR_NAMES[colour])


def rule_text(rule: str) -> str:
    """The rule in words, e.g. "Red: highest card"."""
    return _("{colour}: {rule}").format(colour=colour_name(rule), rule=_(RULE_TEXT[rule]))


def bot_level(spec: str) -> str:
    return _(BOT_LEVELS[spec]) if spec in BOT_LEVELS else spec


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
            return _("{colour}: {card}, nobody else has a card").format(colour=colour, card=st.top(st.leader))
        return _("{colour}: {card} against {other_card} ({challenger})").format(
            colour=colour, card=st.top(st.leader), other_card=st.top(st.challenger), challenger=names[st.challenger]
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
        card=st.top(st.leader),
        other_card=st.top(st.challenger),
        challenger=names[st.challenger],
    )


def winning_line(st: Standing, names: Sequence[str]) -> str:
    """E.g. "Winning: Ana — Blue: 5 colours against 4 (Bot 2)"."""
    if st.leader is None:
        return standing_text(st, names)
    return _("Winning: {name} — {why}").format(name=names[st.leader], why=standing_text(st, names))


def action_text(action: Action) -> str:
    """A decision in words, e.g. "played R7" or "put B3 on the canvas (rule: Blue)"."""
    card = str(action.card) if action.card is not None else ""
    if action.kind == "play":
        return _("played {card}").format(card=card)
    if action.kind == "canvas":
        rule = colour_name(LETTER_COLOUR[card[0]])
        return _("put {card} on the canvas (rule: {rule})").format(card=card, rule=rule)
    if action.kind == "move" and action.destination == "canvas":
        rule = colour_name(LETTER_COLOUR[card[0]])
        return _("moved {card} from the palette to the canvas (rule: {rule})").format(card=card, rule=rule)
    if action.kind == "move":
        return _("put {card} from the palette on top of the deck").format(card=card)
    if action.kind == "take":
        return _("took {card} and put it on the deck").format(card=card)
    return {
        "end": _("ended the turn"),
        "concede": _("conceded"),
        "draw": _("drew a card"),
        "decline": _("did not draw"),
    }[action.kind]


def log_lines(obs: dict[str, Any], names: Sequence[str], last: int) -> list[str]:
    """The last ``last`` decisions of the match, e.g. "Bot 2: played R7"."""
    lines = [f"{names[seat]}: {action_text(Action.parse(text))}" for seat, text in obs["history"]]
    return lines[-last:]


def step_prompt(obs: dict[str, Any], can_end: bool, staged: bool) -> str:
    """What the person to move is asked to do now (with the keys)."""
    step = obs["step"]
    if step == "start":
        return _("Your turn: pick a hand card, then [p] play it to your palette or [c] put it on the canvas.")
    if step == "after":
        text = (
            _("Put a card on the canvas [c], or end your turn [e].")
            if can_end
            else _("You are not winning: put a card on the canvas [c] that makes you win, or concede [x].")
        )
        return text + (" " + _("[u] takes the turn back.") if staged else "")
    if step == "five":
        return _("The 5: pick another hand card and play it to your palette [p].")
    if step == "seven":
        return _("The 7: pick another card of your palette, then move it to the canvas [c] or onto the deck [k].")
    if step == "one":
        return _("The 1: pick a card of a palette at least as large as yours and take it [t].")
    if step == "draw":
        return _("You may draw the top card of the deck [d] or decline [n].")
    return ""


def unsafe_reason(after: Standing | None, names: Sequence[str]) -> str:
    """Why a decision that is not safe (R4.7) would put the player out, given the
    standing right after it (None when the outcome hangs on a card drawn from the deck)."""
    if after is None:
        return _("You would stay in the round only if the card you draw lets you win.")
    return _("Afterwards you would not be winning, and no choice left this turn fixes it. {standing}").format(
        standing=winning_line(after, names)
    )


def decision_text(action: Action) -> str:
    """A decision as advice, e.g. "play R7" or "put B3 on the canvas"."""
    card = str(action.card) if action.card is not None else ""
    if action.kind == "play":
        return _("play {card}").format(card=card)
    if action.kind == "canvas":
        return _("put {card} on the canvas").format(card=card)
    if action.kind == "move" and action.destination == "canvas":
        return _("move {card} to the canvas").format(card=card)
    if action.kind == "move":
        return _("move {card} onto the deck").format(card=card)
    if action.kind == "take":
        return _("take {card}").format(card=card)
    return {
        "end": _("end the turn"),
        "concede": _("concede"),
        "draw": _("draw a card"),
        "decline": _("do not draw"),
    }[action.kind]
