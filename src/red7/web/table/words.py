"""The words of the pages' own controls (:data:`UI_WORDS`), sent translated in the first
frame of each connection (``ui``) and by ``GET /api/ui``: the browser translates nothing."""

from __future__ import annotations

import functools
from typing import Final

from ...ui.i18n import N_, _, language

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
    "about_red7": N_(
        "Red7 is a card game for 2 to 4 players where the rule changes as you play: "
        "end each turn winning under it, or you are out of the round."
    ),
    "learn_link": N_("Learn with a guided first game"),
    "play_now": N_("Play now against a bot"),
    "play_now_summary": N_("{n} players · {game} · bot: {level}"),
    "game_basic": N_("basic game"),
    "game_advanced": N_("advanced game"),
    "game_with_actions": N_("{game} with action cards"),
    "more_options": N_("More options"),
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
        "The games played at rated tables move the ratings of their players, people and bots alike "
        "(openskill): the rating shown is the cautious one, μ − 3σ, so it rises as games make it sure."
    ),
    "counting_title": N_("Which games count"),
    # the ratings' rules (red7.web.ratings.eligibility): {games} and {hours} come with the leaderboard
    "counting_played": N_(
        "A player who finished no turn of their own in a game (who conceded at their first decision, "
        "or was out before they could move) is not rated by it; the others are rated among themselves "
        "if two or more are left."
    ),
    "counting_repeated": N_(
        "Two people are rated together at most {games} times in {hours} hours; their further games "
        "in that time move no rating. Games against bots are not limited: a bot plays every game to win."
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
    "your_turns": N_("Your turn at:"),
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
    "invite_ask": N_(
        "This table is private: to invite someone, ask the host for its link (they may have made a new one)."
    ),
    "invite_renew": N_("New invitation link"),
    "invite_revoke": N_("Revoke the invitation"),
    "invite_renewed": N_("New invitation link made: the old one no longer opens the table."),
    "invite_revoked": N_("Invitation revoked: only the people seated can open the table."),
    "invite_none": N_("This table has no invitation: only the people seated can open it."),
    "invite_host": N_(
        "A new link or a revocation closes the old one: its spectators stop watching; the seated keep their seats."
    ),
    "waiting_host": N_("The host starts the game once every seat is taken."),
    "removed_here": N_("The host removed you from this table: you may watch it, but not sit at it again."),
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
