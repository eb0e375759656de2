"""The wire-level leak test of the web game (R9 over the WebSocket).

For every configuration (2-4 players, basic or advanced, with or without the action
rules) a whole game is played over WebSockets: two people (one client each), bots in
the other seats, and a spectator. Every frame each client receives is kept as the raw
text it came in, and so is every frame of the game's replay for each seat and for a
spectator. Each one is then checked against the truth of the game at that frame's
``seq`` (the game rebuilt from its record, decision by decision: the server's history is
linear here, nobody takes a decision back, so the frame with ``seq`` k shows the game
after its first k decisions).

What a seat may not see at step k (:class:`Step`): the other seats' hand cards but those
everyone saw drawn (``known_hand_cards``, R7.z), the deck but its public top cards, and
the face-down cards of eliminated players but those everyone saw (and the seat's own).
No card of that set may appear in the seat's frame: not as a card object, and not as a
card's notation, English or Portuguese label or name inside any string. The move log and
the last round's summary tell of the past, so there a card is also allowed if the seat
knew it earlier in the game (an advanced match deals every round again: a card played in
round 1 may sit in another hand in round 2); that knowledge is built independently of the
server, from the full events (public moves, the seat's own deals and draws) and the
states (public cards, the seat's own hand) up to step k.

The seed never appears in a frame of a game in progress, and the unknown part of the
deck never at all (so neither does its order).

Every one of these frames, live and replayed, also validates strictly against the
protocol's models (:mod:`red7.web.protocol`): the schema published is the one the
frames keep.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from red7.core.cards import ALL_CARDS, Card, CardSet
from red7.core.events import (
    CanvasPlayed,
    CardDrawn,
    CardMoved,
    CardPlayed,
    CardTaken,
    Event,
    RoundDealt,
    RoundOver,
)
from red7.core.game import Game
from red7.core.model import Config
from red7.ui.i18n import using
from red7.web import socket
from red7.web.protocol import SERVER_FRAME, read
from red7.web.table.frames import Replay
from red7.web.table.views import card_json
from tests.support import configs
from tests.support.web_client import Conn, add_bot, careful, join, make_app, new_table, play_out, start

Viewer = int | None
PAST = ("log", "last_round")
"""The parts of a frame that tell of the past."""


def _forms() -> dict[str, str]:
    """Every way a frame could write a card: notation, label and name, in every language."""
    forms: dict[str, str] = {}
    for card in ALL_CARDS:
        for lang in ("en", "pt-BR"):
            with using(lang):
                shown = card_json(card)
            for form in (shown["id"], shown["label"], shown["name"]):
                assert forms.setdefault(form, shown["id"]) == shown["id"], f"{form} names two cards"
    return forms


FORMS = _forms()
CARD_TEXT = re.compile(r"(?<!\w)(" + "|".join(sorted(map(re.escape, FORMS), key=len, reverse=True)) + r")(?!\w)")


def cards_of(mask: int) -> set[str]:
    return {str(c) for c in CardSet(mask)}


@dataclass(frozen=True)
class Step:
    """The truth after k decisions: what each viewer may not see, what each knew at
    some point up to now, and each seat's hand."""

    hidden: dict[Viewer, frozenset[str]]
    known: dict[Viewer, frozenset[str]]
    hands: tuple[frozenset[str], ...]


def event_cards(event: Event, viewer: Viewer) -> set[str]:
    """The cards ``event`` shows ``viewer`` (written from the rules, not from the engine's views)."""
    match event:
        case RoundDealt(palettes=palettes, hands=hands):
            shown = {str(c) for c in palettes}
            if viewer is not None and hands[viewer] is not None:
                shown |= {str(c) for c in hands[viewer]}
            return shown
        case CardPlayed(card=card) | CanvasPlayed(card=card) | CardMoved(card=card) | CardTaken(card=card):
            return {str(card)}
        case CardDrawn(seat=seat, card=Card() as card, public=public) if public or seat == viewer:
            return {str(card)}
        case RoundOver(scored=scored):
            return {str(c) for c in scored}
    return set()


def truth(record: dict[str, Any]) -> list[Step]:
    """The game of ``record`` after each of its decisions."""
    game = Game(config=Config.from_mapping(record["config"]), seed=record["seed"])
    n = game.players
    viewers: list[Viewer] = [*range(n), None]
    known: dict[Viewer, set[str]] = {v: set() for v in viewers}
    steps, seen = [], 0
    for k in range(len(record["decisions"]) + 1):
        if k:
            game.apply(record["decisions"][k - 1])
        events = game.events
        public = game.observe(None)
        visible = {str(Card(c)) for c in public.canvas} | {str(Card(c)) for c in public.deck_known_top}
        for mask in (*public.palettes, *public.known_hand_cards, *public.score_piles, public.out_of_round_known):
            visible |= cards_of(mask)
        hands = tuple(frozenset(game.hand(s)) for s in range(n))
        unknown_deck = set(game.deck()) - {str(Card(c)) for c in public.deck_known_top}
        face_down = set(game.out_of_round()) - cards_of(public.out_of_round_known)
        hidden, knew = {}, {}
        for v in viewers:
            own_out = cards_of(game.observe(v).out_of_round_own or 0) if v is not None else set()
            others = set().union(*(hands[t] - cards_of(public.known_hand_cards[t]) for t in range(n) if t != v))
            hidden[v] = frozenset(others | unknown_deck | (face_down - own_out))
            known[v] |= visible | own_out | (hands[v] if v is not None else set())
            for event in events[seen:]:
                known[v] |= event_cards(event, v)
            knew[v] = frozenset(known[v])
        seen = len(events)
        steps.append(Step(hidden, knew, hands))
    return steps


def shown(node: Any, past: bool = False) -> Iterator[tuple[str, bool]]:
    """Every card a frame shows, as (notation, whether it is in a part telling of the past):
    card objects, and card notations, labels and names inside strings."""
    if isinstance(node, dict):
        if isinstance(node.get("id"), str) and "colour" in node:
            yield node["id"], past
        for key, value in node.items():
            yield from shown(value, past or key in PAST)
    elif isinstance(node, list):
        for value in node:
            yield from shown(value, past)
    elif isinstance(node, str):
        for match in CARD_TEXT.finditer(node):
            yield FORMS[match.group(1)], past


@dataclass
class Tally:
    frames: int = 0
    cards_shown: int = 0
    hidden_checked: int = 0
    known_before: int = 0
    """Cards in the log of a seat that it may not see now but knew earlier (an earlier round)."""


def check_frame(raw: str, viewer: Viewer, steps: list[Step], seed: int, tally: Tally) -> None:
    """The frame ``raw`` (received by ``viewer``) shows nothing ``viewer`` may not see."""
    frame = json.loads(raw)
    if frame["type"] != "table" or frame["game"] is None:
        return
    assert frame["table"]["game"] == 1
    k = frame["seq"]
    step = steps[k]
    game = frame["game"]
    if game["over"] is None:
        assert str(seed) not in raw, f"seq {k}: the seed is in a frame of a game in progress"
    # the frame is the one of step k: its hand is the viewer's hand then (or none at all)
    if viewer is None:
        assert game["hand"] is None
    else:
        assert {c["id"] for c in game["hand"]} == step.hands[viewer], f"seq {k}: not the hand of seat {viewer}"
    del frame["table"]["id"]  # random letters, e.g. "x-B3_kq": not a card
    may_not_see = step.hidden[viewer]
    unknown_before = may_not_see - step.known[viewer]
    for card, past in shown(frame):
        tally.cards_shown += 1
        forbidden = unknown_before if past else may_not_see
        tally.known_before += past and card in may_not_see
        assert card not in forbidden, (
            f"seat {viewer} at seq {k} was shown {card}, which it may not see "
            f"({'in the log' if past else 'on the board'}): {raw}"
        )
    tally.frames += 1
    tally.hidden_checked += len(may_not_see)


CONFIGS = [astuple(c) for c in configs.CONFIGS]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One server for every configuration; its rate limit is lifted, as the scripted
    people decide far faster than anyone clicks (the limit has its own tests)."""
    folder: Path = tmp_path_factory.mktemp("leaks")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket, "RATE", 1e6)
        patch.setattr(socket, "BURST", 10**6)
        with TestClient(make_app(folder)) as client:
            yield client


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "advanced", "actions"),
    CONFIGS,
    ids=[f"{p}p-{'advanced' if adv else 'basic'}{'-actions' if act else ''}" for p, adv, act in CONFIGS],
)
def test_no_frame_shows_a_card_its_receiver_may_not_see(
    client: TestClient, players: int, advanced: bool, actions: bool
) -> None:
    lang = "pt-BR" if (players + advanced + actions) % 2 else "en"
    table_id, token = new_table(client, players, advanced, actions, lang, "Ana")
    tokens: dict[Viewer, str | None] = {0: token, 1: join(client, table_id, 1, "Bia"), None: None}
    for seat in range(2, players):
        add_bot(client, table_id, token, seat, "easy")
    conns = [Conn(client, table_id, tokens[v], v) for v in (0, 1, None)]
    try:
        start(client, table_id, token)
        play_out(conns, careful(random.Random(f"{players}{advanced}{actions}")))
    finally:
        for conn in conns:
            conn.close()
    record = client.get(f"/api/tables/{table_id}/games/1/record").json()
    assert record["result"] is not None
    steps = truth(record)
    tally = Tally()
    for conn in conns:
        assert conn.errors == []
        for raw in conn.raw:  # (web_client.Conn validated each as it came; said here, where it matters)
            assert SERVER_FRAME.validate_json(raw, strict=True)["type"] == "table"
        seqs = [json.loads(raw)["seq"] for raw in conn.raw]
        assert max(seqs) == len(record["decisions"])
        for raw in conn.raw:
            check_frame(raw, conn.seat, steps, record["seed"], tally)
    for viewer, seat_token in tokens.items():
        token_header = {"Authorization": f"Bearer {seat_token}"} if seat_token else {}  # never in the address
        answer = client.get(f"/api/tables/{table_id}/games/1/replay", headers=token_header)
        read(Replay, answer.text)  # every replay frame is the protocol's too
        frames = answer.json()["frames"]
        assert [f["seq"] for f in frames] == list(range(len(record["decisions"]) + 1))
        for frame in frames:
            check_frame(json.dumps(frame, ensure_ascii=False), viewer, steps, record["seed"], tally)
    # not a vacuous check: many frames, many cards shown, many cards each could not see
    assert tally.frames > 4 * len(record["decisions"])
    assert tally.cards_shown > 10 * tally.frames
    assert tally.hidden_checked > 10 * tally.frames


@pytest.mark.slow
def test_a_staged_turn_taken_back_shows_nobody_else_anything(tmp_path: Path) -> None:
    """R9 and the staged turn: Ana, at every turn start, plays a card she may take back,
    and takes it back, then decides as she would have. Bia's and a spectator's frames
    are byte for byte those of the same game (same deal, same decisions) without the
    staged plays: nobody but Ana saw the card, the log line, or even that anything
    happened. Ana saw each staged play in her own frames."""
    app = make_app(tmp_path, seeds=lambda: 20261206)  # every game deals the same cards
    staged_plays: list[str] = []

    def play(stage: bool) -> tuple[list[str], list[str]]:
        table_id, token = new_table(client, 3, True, True, "en", "Ana")
        bia = join(client, table_id, 1, "Bia")
        add_bot(client, table_id, token, 2, "easy")
        ana, bia_conn, eve = Conn(client, table_id, token, 0), Conn(client, table_id, bia, 1), Conn(client, table_id)
        decide = careful(random.Random(4))

        def choose(frame: dict[str, Any]) -> str:
            # a play she may take back: not the last of the turn, and not a 3, whose draw
            # (R7.3) of a card nobody knew cannot be taken back (red7.play.table)
            plays = [
                o
                for o in frame["game"]["options"]
                if o["kind"] == "play" and not o["ends_turn"] and not o["card"].endswith("3")
            ]
            if stage and frame["you"] == 0 and not frame["game"]["staged"] and plays:
                seq, card = frame["seq"], plays[0]["action"]
                ana.decide(card, seq)
                shown = ana.until(lambda f: f["type"] == "table" and f["seq"] == seq + 1)
                assert shown["game"]["staged"] == [card] and shown["game"]["log"][-1] == f"Ana: played {card[5:]}"
                ana.send({"type": "take_back", "seq": seq + 1})
                ana.until(lambda f: f["type"] == "table" and f["seq"] == seq + 2 and not f["game"]["staged"])
                staged_plays.append(card)
            return decide(frame)

        try:
            start(client, table_id, token)
            play_out([ana, bia_conn, eve], choose)
        finally:
            for conn in (ana, bia_conn, eve):
                conn.close()
        return [raw.replace(table_id, "T") for raw in bia_conn.raw], [raw.replace(table_id, "T") for raw in eve.raw]

    with pytest.MonkeyPatch.context() as patch, TestClient(app) as client:
        patch.setattr(socket, "RATE", 1e6)  # the scripted people decide far faster than anyone clicks
        patch.setattr(socket, "BURST", 10**6)
        plain = play(stage=False)
        staged = play(stage=True)
    assert len(staged_plays) > 10  # many cards shown to Ana alone, then taken back
    assert staged == plain
