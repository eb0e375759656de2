"""What the front ends say, once, where the compiled core is not in use.

Where :mod:`red7.native` is not in use (not built, or ``RED7_NATIVE=0``) the levels
``hard`` runs smaller budgets and play weaker
(:func:`red7.bots.fallback_levels`; by how much: docs/bots.md). The terminal game, the
text game, ``red7 serve`` and the commands that pick bots say so at their start, in the
language in use, with :func:`fallback_notice`.
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import native
from ..bots import fallback_levels
from .i18n import _, ngettext
from .words import bot_level


def fallback_notice(specs: Iterable[str] | None = None) -> str | None:
    """The sentence saying that the compiled core is not in use and which levels play
    differently for it, in the current language; None where nothing plays differently.

    ``specs``: the bot specs a command plays (None: any, as in a game where levels are
    chosen later); the notice is then given only if one of them is such a level.
    """
    levels = fallback_levels()
    if specs is not None:
        named = {spec.strip().lower() for spec in specs}
        levels = [level for level in levels if level in named]
    if not levels:
        return None
    if native.why_not == native.TURNED_OFF:
        why = _("turned off by RED7_NATIVE=0")
    else:
        why = _("not built: reinstall red7 where a C compiler is installed")
    names = [bot_level(level) for level in levels]
    listed = names[0] if len(names) == 1 else _("{some} and {last}").format(some=", ".join(names[:-1]), last=names[-1])
    return ngettext(
        "The compiled core is not in use ({why}): the level {levels} searches less here and plays weaker "
        "than where it is built (docs/bots.md says by how much).",
        "The compiled core is not in use ({why}): the levels {levels} search less here and play weaker "
        "than where it is built (docs/bots.md says by how much).",
        len(names),
    ).format(why=why, levels=listed)
