"""The passwords an account may have (red7.web.accounts.passwords): length, control
characters, the common and breached ones, the easily guessed ones and why, in both
languages; what of a long password is measured; the page's words say the same; and the
command line's ``red7 admin add`` keeps the policy."""

from __future__ import annotations

import pytest

from red7.ui.i18n import using
from red7.web.accounts.passwords import LEET, MEASURED, check_password, measured_part
from red7.web.accounts.routes import PAGE_WORDS
from red7.web.http.refusals import Refused


def refusal(password: str, username: str = "Ana", lang: str = "en") -> Refused:
    with using(lang), pytest.raises(Refused) as refused:
        check_password(password, username)
    return refused.value


@pytest.mark.parametrize(
    ("password", "code"),
    [
        ("short", "bad-password"),
        ("x" * 257, "bad-password"),
        ("12345678", "common-password"),
        ("password", "common-password"),
        ("Password1", "common-password"),
        ("qwertyuiop", "common-password"),
        ("iloveyou", "common-password"),
        ("senha123", "common-password"),  # (Brazil's own)
        ("        ", "weak-password"),
        ("\x00" * 8, "password-characters"),
        ("correct\thorse battery", "password-characters"),
        ("line one\nline two", "password-characters"),
        ("del\x7fete this one", "password-characters"),
        ("abcdefghij", "weak-password"),
        ("zxcvbnmasdf", "weak-password"),
        ("anaana123", "weak-password"),
        ("Ana12345", "weak-password"),
        ("red7red7red7", "weak-password"),
        ("password" * 5, "weak-password"),
    ],
)
def test_a_weak_password_is_refused_saying_why(password: str, code: str) -> None:
    en, pt = refusal(password), refusal(password, lang="pt-BR")
    assert (en.code, en.status, pt.code) == (code, 400, code)
    assert en.message != pt.message and en.message.endswith(".") and pt.message.endswith(".")


@pytest.mark.parametrize(
    "password",
    [
        "correct horse battery",
        "ranked lanes of seven",
        "zz8-Tq-mw2",
        "Kx9#mP2q",
        "jogar red7 com amigos",
        "é" + "ç" * 3 + "ñü 🂡 ok",
    ],
)
def test_a_password_hard_to_guess_is_taken(password: str) -> None:
    assert check_password(password, "Ana") == password


def test_a_password_of_the_username_or_the_sites_name_says_so() -> None:
    for password, username in (("Bartolomeu", "Bartolomeu"), ("bartolomeu7", "Bartolomeu"), ("redseven", "Ana")):
        said = refusal(password, username)
        assert said.code == "weak-password" and "username" in said.message, (password, said.message)
    assert check_password("Bartolomeu", "Ana") == "Bartolomeu"  # someone else's name is just a name
    assert "nome de usuário" in refusal("Bartolomeu", "Bartolomeu", "pt-BR").message


def test_what_is_measured_is_the_beginning_with_few_letter_like_symbols() -> None:
    """zxcvbn's time grows exponentially with the different characters that may stand for
    a letter: what it is given stops before the ninth of them, and at 32 characters."""
    symbols = "!$%(+0123456789<@[{|"
    assert measured_part(symbols * 3) == symbols[:LEET]
    assert measured_part("ab" * 40) == "ab" * (MEASURED // 2)
    assert measured_part("four words of seven") == "four words of seven"
    assert measured_part("11111111aaaa@@@@") == "11111111aaaa@@@@"  # one kind repeated: one
    # a long password whose beginning is weak is refused, one whose beginning is strong taken
    assert refusal("password123" + "?" * 40).code == "weak-password"
    assert check_password("ranked lanes of seven and more " * 4, "Ana")
    assert check_password(symbols * 3, "Ana")  # (its measured part, 8 symbols, is random enough)


def test_the_account_pages_words_say_the_policy() -> None:
    assert PAGE_WORDS["password_rules"] == "At least 8 characters, and not a common or easily guessed password."
