"""Who is winning right now, and why (R3.1, R3.2): the facts an interface explains.

Interfaces say "Blue: 5 colours against 4" rather than just a name. This module
computes, from public facts only (palettes, who remains, the rule), each remaining
player's qualifying set, the leader, the strongest challenger and what decided
between them; the words belong to the interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from .cards import COLOURS, names_of, parse_colour
from .rules import qualifying_mask, rule_key

Reason = Literal["alone", "more", "higher", "nobody"]


class Seen(Protocol):
    """What a standing is worked out from: an
    :class:`~red7.core.observation.Observation` (named structurally, so that this module,
    which the engine's refusals carry, imports no observation: no cycle in the core)."""

    @property
    def rule(self) -> int: ...
    @property
    def palettes(self) -> Sequence[int]: ...
    @property
    def alive(self) -> Sequence[bool]: ...


@dataclass(frozen=True)
class Standing:
    """The situation under one rule.

    ``qualifying[s]`` is seat ``s``'s qualifying set, highest card first (empty for an
    eliminated seat). ``reason`` says why ``leader`` wins: ``"alone"`` (no other
    remaining player qualifies), ``"more"`` (a larger set than ``challenger``'s),
    ``"higher"`` (sets of equal size, ``leader``'s highest card is higher, R3.1) or
    ``"nobody"`` (no one qualifies, R3.2: ``leader`` is None).
    """

    rule: str
    leader: int | None
    challenger: int | None
    reason: Reason
    qualifying: tuple[tuple[str, ...], ...]

    def count(self, seat: int) -> int:
        return len(self.qualifying[seat])

    def top(self, seat: int) -> str | None:
        """The highest card of ``seat``'s qualifying set (what breaks a tie)."""
        cards = self.qualifying[seat]
        return cards[0] if cards else None


def standing(rule: int | str, palettes: Sequence[int], alive: Sequence[bool]) -> Standing:
    """The standing under ``rule`` (index or English colour name) of palette masks.

    >>> from red7.core.cards import mask_of
    >>> s = standing("blue", [mask_of("R1 O2 Y3".split()), mask_of("G7 B6".split())], [True, True])
    >>> s.leader, s.reason, s.challenger, s.count(0), s.count(1)
    (0, 'more', 1, 3, 2)
    """
    r = parse_colour(rule) if isinstance(rule, str) else rule
    keys = [rule_key(r, m) if alive[s] else 0 for s, m in enumerate(palettes)]
    order = sorted((s for s in range(len(palettes)) if keys[s]), key=lambda s: -keys[s])
    quals = tuple(tuple(names_of(qualifying_mask(r, m))) if alive[s] else () for s, m in enumerate(palettes))
    if not order:
        return Standing(COLOURS[r], None, None, "nobody", quals)
    leader = order[0]
    if len(order) == 1:
        return Standing(COLOURS[r], leader, None, "alone", quals)
    challenger = order[1]
    reason: Reason = "more" if keys[leader] >> 6 > keys[challenger] >> 6 else "higher"
    return Standing(COLOURS[r], leader, challenger, reason, quals)


def standing_of(observation: Seen, rule: int | str | None = None) -> Standing:
    """The standing of an observation's palettes, under its rule or ``rule``."""
    return standing(observation.rule if rule is None else rule, observation.palettes, observation.alive)
