"""Which passwords an account may have (:func:`check_password`): 8 to 256 characters,
no control character, and not one that is easily guessed.

"Easily guessed" is zxcvbn's measure (Dropbox's estimator, in its Python port, MIT; the
``web`` extra): it looks for the password's parts in its lists of the 30,000 passwords
most found in breached sites' leaks, of common words and names, and for keyboard rows,
repeats, sequences, dates and the person's own username or the site's name, and counts
the guesses an attacker who knows all that needs. A password needing fewer than a
million (zxcvbn's score 0 or 1, :data:`LEAST_SCORE`) is refused; one made of a breached password alone is
said to be one (``common-password``), any other weak one gets a sentence naming what
makes it easy (``weak-password``), in the person's language.

zxcvbn's time grows with the length and, exponentially, with the number of different
characters that may stand for a letter (``@`` for ``a``, ``1`` for ``i`` or ``l``...:
:data:`zxcvbn.matching.L33T_TABLE`): a 32-character string of them took a second. So
what is measured is the password's beginning: at most :data:`MEASURED` characters,
stopping before the :data:`LEET`-plus-first such character. A password whose beginning
is hard to guess is hard to guess; one whose beginning is easy is refused, whatever
follows (one more word at the end of ``password123`` does not make it a good one). The
longest measure then takes milliseconds, less than the password's argon2 hash.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Final

from zxcvbn import zxcvbn
from zxcvbn.matching import L33T_TABLE

from ...ui.i18n import _
from ..http.refusals import Refused
from .wire import PASSWORD_LENGTH, password_refusal

MEASURED: Final = 32
"""The most characters of a password zxcvbn measures (its beginning)."""
LEET: Final = 8
"""The most different characters that may stand for a letter in what is measured."""
LEAST_SCORE: Final = 2
"""zxcvbn's score a password needs: 2 is a million guesses or more for an attacker who
knows the common passwords, words and patterns (0 and 1: fewer)."""
SITE_WORDS: Final = ("red7", "redseven", "red seven")
"""The site's own names, which no password should be made of."""

_LEET_CHARACTERS: Final = frozenset(ch for subs in L33T_TABLE.values() for ch in subs)
_measuring = threading.Lock()
"""zxcvbn keeps the words of the person (``user_inputs``) in a dictionary shared by all
its calls: two threads measuring at once would mix up two people's usernames."""


def check_password(password: str, username: str = "") -> str:
    """``password`` if an account (of ``username``) may have it; else
    :class:`~red7.web.http.refusals.Refused` saying why in the language in use:
    ``bad-password`` (its length), ``password-characters`` (a control character),
    ``common-password`` (one of the breached passwords zxcvbn knows),
    ``weak-password`` (easily guessed otherwise)."""
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise password_refusal()
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in password):
        raise Refused(
            "password-characters",
            _("A password cannot hold control characters (a tab, a line break, NUL...): choose another."),
        )
    with _measuring:
        measure = zxcvbn(measured_part(password), user_inputs=[username, *SITE_WORDS])
    if measure["score"] >= LEAST_SCORE:
        return password
    raise _weak(measure["sequence"])


def measured_part(password: str) -> str:
    """What of ``password`` is measured: its beginning, :data:`MEASURED` characters at
    most, stopping before the ``LEET + 1``-th different character that may stand for a letter."""
    seen: set[str] = set()
    for end, ch in enumerate(password[:MEASURED]):
        if ch in _LEET_CHARACTERS and ch not in seen:
            if len(seen) == LEET:
                return password[:end]
            seen.add(ch)
    return password[:MEASURED]


def _weak(sequence: Sequence[Mapping[str, object]]) -> Refused:
    """The refusal of a weak password, naming the longest part zxcvbn found in it."""
    parts = sorted(sequence, key=lambda part: len(str(part.get("token", ""))), reverse=True)
    part = parts[0] if parts else {}
    pattern, dictionary = part.get("pattern"), part.get("dictionary_name")
    if pattern == "dictionary" and dictionary == "passwords" and len(sequence) == 1:
        message = _("This password is one of the most common ones, known from breached sites: choose another.")
        return Refused("common-password", message)
    if pattern == "dictionary" and dictionary == "user_inputs":
        message = _("A password must not be made of your username or the site's name: choose another.")
    elif pattern == "dictionary":
        message = _("This password is made of a common password, word or name: add a few uncommon words.")
    elif pattern == "repeat":
        message = _("Repeated characters or words (aaa, abcabc) are easy to guess: choose another password.")
    elif pattern == "sequence":
        message = _("Sequences (abcd, 6543) are easy to guess: choose another password.")
    elif pattern == "spatial":
        message = _("Rows and patterns of keys (qwerty, asdf) are easy to guess: choose another password.")
    elif pattern in ("date", "regex"):
        message = _("Dates and years are easy to guess: choose another password.")
    else:
        message = _("This password is too easy to guess: add a few uncommon words.")
    return Refused("weak-password", message)
