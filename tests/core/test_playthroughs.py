"""The golden playthroughs (tests/data/playthroughs, written by tests/support/playthroughs.py,
whose docstring is the format): both engines reproduce every file, step by step.

* The Python engine (the reference) writes each file again byte for byte, from the
  file's seed and decisions, and from its written deals (explicit chance: no generator).
* The seed in each header deals what the file writes (the one check that depends on the
  generator the header names).
* The compiled engine, given each round's written deal and the file's decisions, says
  at every step what the file says: the mover and the step, the legal decisions and their
  safety marks (R4.7), every field of each seat's observation it keeps (all but the round
  log, which needs a history it does not keep), the refusal of every decision tried, the
  rounds' and the match's results.
* Each file shows what it must (a refusal, an unsafe decision, a concession, every
  action, the advanced draw...), and the files are the ones tests/support/playthroughs.py writes
  now, each from the seed it keeps (else: ``.venv/bin/python -m tests.support.playthroughs --write``,
  and read the diff).
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from red7 import Action, Game
from red7.core import compiled
from red7.core.actions import MOVE_CANVAS, MOVE_DECK, TAKE
from red7.core.cards import mask_of, names_of, parse_index
from red7.core.model import Config, Result, RoundLog, RoundResult, Step
from red7.core.observation import Observation
from tests.support import playthroughs
from tests.support.playthroughs import CONFIGS, DEALT_BY, ROUND_LOG, Deal, Playthrough, name_of, path_of

COMPILED = pytest.mark.skipif(
    not compiled.available(),
    reason="the compiled engine is not in use (RED7_NATIVE=0, or not built): the Python engine's checks still run",
)


def read(config: Config) -> tuple[str, Playthrough]:
    text = path_of(config).read_text()
    return text, playthroughs.parse(text)


def same_text(found: str, expected: str, what: str) -> None:
    """Assert two playthrough texts are equal, showing the first lines that differ."""
    if found != expected:
        diff = difflib.unified_diff(expected.splitlines(), found.splitlines(), "file", what, lineterm="", n=2)
        pytest.fail(f"{what} differs from the file:\n" + "\n".join(itertools.islice(diff, 60)))


@pytest.mark.parametrize("config", CONFIGS, ids=name_of)
def test_the_python_engine_writes_each_file_again_from_its_seed(config: Config) -> None:
    text, pt = read(config)
    assert pt.config == config
    same_text(playthroughs.render(config, pt.seed, pt.entries), text, "the Python engine dealt from the seed")


@pytest.mark.parametrize("config", CONFIGS, ids=name_of)
def test_the_python_engine_writes_each_file_again_from_its_written_deals(config: Config) -> None:
    """No generator: the engine's explicit chance is fed the written deals and draws."""
    text, pt = read(config)
    same_text(playthroughs.render(config, pt.seed, pt.entries, pt.deals), text, "the Python engine given the deals")


@pytest.mark.parametrize("config", CONFIGS, ids=name_of)
def test_the_seed_deals_what_the_file_writes(config: Config) -> None:
    """The header's seed, through the generator the header names, deals every round
    as written (R2, R8.4): the files and the engines' dealing stay tied."""
    _, pt = read(config)
    assert pt.dealt_by == DEALT_BY
    game = Game(config=config, seed=pt.seed, deal=pt.dealt_by)
    deals = [Deal.of(game)]
    for entry in pt.entries:
        game.apply_id(entry.decided)
        if not game.is_over and game.round > len(deals):
            deals.append(Deal.of(game))
    assert deals == list(pt.deals)


# --- the compiled engine -------------------------------------------------------------------


def _loaded(config: Config, deal: Deal, seed: int, carried: dict[str, Any]) -> Any:
    """A compiled engine at the start of ``deal``'s round: the deal as written, the
    match's scores, score piles, round and turn count as ``carried`` has them."""
    n = config.players
    fields = {
        "hands": tuple(mask_of(h, "hand") for h in deal.hands),
        "palettes": tuple(1 << parse_index(p) for p in deal.palettes),
        "known_hand_cards": (0,) * n,
        "deck": tuple(parse_index(c) for c in reversed(deal.deck)),  # the engine's deck is top last
        "deck_known_count": 0,
        "canvas": (),
        "rule": 0,
        "out_of_round": 0,
        "out_of_round_known": 0,
        "out_of_round_own": (0,) * n,
        "score_piles": carried["score_piles"],
        "scores": carried["scores"],
        "alive": (True,) * n,
        "current": deal.first,
        "step": int(Step.START),
        "pending": None,
        "round": carried["round"],
        "turns": carried["turns"],
    }
    # The seed deals nothing that is compared: every round is loaded from its written deal.
    return compiled.load(config, fields, seed)


def _observations(
    config: Config, f: dict[str, Any], results: Sequence[RoundResult], result: Result | None
) -> list[Observation]:
    """Each seat's observation of the compiled position ``f`` (its fields by name), as
    red7.core.observation.observe builds it; the history and round log, which the
    compiled engine does not keep, left empty."""
    step = Step(f["step"])
    deck, known = f["deck"], f["deck_known_count"]
    return [
        Observation(
            seat=seat,
            config=config,
            round=f["round"],
            turns=f["turns"],
            current_player=None if step >= Step.OVER else f["current"],
            step=step,
            rule=f["rule"],
            canvas=tuple(f["canvas"]),
            palettes=tuple(f["palettes"]),
            hand_sizes=tuple(h.bit_count() for h in f["hands"]),
            alive=tuple(f["alive"]),
            known_hand_cards=tuple(f["known_hand_cards"]),
            deck_size=len(deck),
            deck_known_top=tuple(reversed(deck))[:known],
            out_of_round_count=f["out_of_round"].bit_count(),
            out_of_round_known=f["out_of_round_known"],
            out_of_round_own=f["out_of_round_own"][seat],
            scores=tuple(f["scores"]),
            score_piles=tuple(f["score_piles"]),
            pending=f["pending"] if step is Step.SEVEN else None,
            hand=f["hands"][seat],
            history=(),
            round_log=RoundLog.empty(config.players),
            round_results=tuple(results),
            result=result,
        )
        for seat in range(config.players)
    ]


def _comparable(lines: Sequence[str]) -> list[str]:
    """A block's lines as the compiled engine can say them: without the round log, and a
    refusal without its code (the compiled engine refuses without saying which rule)."""
    kept = []
    for line in lines:
        if line.strip().startswith(ROUND_LOG):
            continue
        kept.append(line.split(", refused ")[0] if line.startswith("  tried: ") else line)
    return kept


def compiled_blocks(pt: Playthrough) -> dict[str, list[str]]:
    """The decision blocks and the end block of ``pt`` as the compiled engine plays them,
    given each round's written deal and the file's decisions (:func:`_comparable` lines)."""
    config = pt.config
    names = compiled.FIELDS
    twin = _loaded(
        config,
        pt.deals[0],
        pt.seed,
        {"score_piles": (0,) * config.players, "scores": (0,) * config.players, "round": 1, "turns": 1},
    )
    earlier: list[RoundResult] = []  # the results of the rounds before the engine was last loaded

    def results() -> list[RoundResult]:
        return earlier + [RoundResult(w, rule, tuple(names_of(m)), p) for w, rule, m, p in twin.round_results]

    def observation_lines() -> list[str]:
        f = dict(zip(names, twin.fields(), strict=True))
        result = Result(twin.winners, twin.scores, twin.round) if twin.winners is not None else None
        return _comparable(playthroughs.observation_lines(_observations(config, f, results(), result)))

    blocks = {}
    for k, entry in enumerate(pt.entries):
        lines = [f"  mover: {twin.current}, step: {Step(twin.step).label}", *playthroughs.legal_lines(twin.options())]
        lines += observation_lines()
        if entry.tried is not None:
            before = twin.fields()
            with pytest.raises(ValueError, match="is not legal now"):
                twin.apply(entry.tried)
            assert twin.fields() == before, f"decision {k}: a refused decision changed the position"
            lines.append(playthroughs.tried_line(entry.tried, "", "").split(", refused ")[0])
        lines.append(f"  decided: {entry.decided} {Action.from_id(entry.decided)}")
        done = len(results())
        round_number = twin.round
        twin.apply(entry.decided)
        for number, r in enumerate(results()[done:], done + 1):
            lines.append(playthroughs.round_over_line(number, r.winner, r.rule, r.scored, r.points))
        if twin.winners is not None:
            lines.append(playthroughs.game_over_line(twin.winners, twin.scores, twin.round))
        elif twin.round > round_number:  # R8.4: a new round, dealt by the engine; load the written one
            deal = pt.deals[twin.round - 1]
            f = dict(zip(names, twin.fields(), strict=True))
            dealt = sum(f["hands"]) | sum(f["palettes"]) | mask_of(f["deck"], "deck")
            assert dealt == deal.cards(), f"decision {k}: round {twin.round} is dealt from other cards than written"
            earlier = results()
            twin = _loaded(config, deal, pt.seed, f)
        blocks[f"decision {k}"] = lines
    assert twin.is_over, "the decisions do not finish the game in the compiled engine"
    blocks["end"] = observation_lines()
    return blocks


@COMPILED
@pytest.mark.parametrize("config", CONFIGS, ids=name_of)
def test_the_compiled_engine_plays_each_file_step_by_step(config: Config) -> None:
    _, pt = read(config)
    for name, lines in compiled_blocks(pt).items():
        assert lines == _comparable(pt.blocks[name]), f"{name_of(config)}, {name}: the compiled engine differs"


def compiled_differences(pt: Playthrough) -> list[str]:
    """The blocks of ``pt`` where the compiled engine says something else (a decision it
    refuses raises ValueError)."""
    return [name for name, lines in compiled_blocks(pt).items() if lines != _comparable(pt.blocks[name])]


@COMPILED
def test_a_difference_is_caught() -> None:
    """The checks can fail: a file whose safety mark, observed hand or result is changed
    fails them, at the block changed."""
    config = Config(3, True, True)
    text, pt = read(config)
    for old, new in (
        (" safe\n", " unsafe\n"),
        ("  seat 1: hand ", "  seat 1: hand R7 "),
        ("game over: winners ", "game over: winners 9 "),
    ):
        changed = text.replace(old, new, 1)
        wrong = playthroughs.parse(changed)
        assert compiled_differences(wrong) == [name for name, lines in wrong.blocks.items() if lines != pt.blocks[name]]
        with pytest.raises(pytest.fail.Exception, match="differs from the file"):
            same_text(playthroughs.render(config, pt.seed, pt.entries), changed, "the Python engine")
    # every round's deck upside down (the file draws in some round, not always in the first)
    other_decks = tuple(replace(deal, deck=deal.deck[::-1]) for deal in pt.deals)
    try:
        assert compiled_differences(replace(pt, deals=other_decks))
    except ValueError as refused:  # a decision of the file is not legal in the other game
        assert "is not legal now" in str(refused)


# --- what the files hold, and that they are current -------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=name_of)
def test_each_file_shows_what_it_must(config: Config) -> None:
    """A refusal, an unsafe decision and a concession in every file; two rounds, a draw
    and a declined draw in the advanced game (R8, R5.1); every action with the action
    cards (R7.1, R7.3, R7.5, R7.7); a round's end and the match's (R6.2, R8)."""
    text, pt = read(config)
    assert playthroughs.missing(config, pt.seed, pt.entries) == []
    assert "  round 1 over: " in text and text.count("  game over: ") == 1
    assert 5_000 < len(text) < 150_000, "a playthrough should stay readable: tens of KB"


def test_the_files_together_show_both_moves_of_a_7_and_many_refusals() -> None:
    """A 7 moves a card to the canvas in some file and to the deck in another (R7.7);
    the refusals tried cover several rules."""
    decided: set[int] = set()
    codes: set[str] = set()
    for config in CONFIGS:
        text, pt = read(config)
        decided |= {e.decided for e in pt.entries}
        codes |= {line.split(", refused ")[1].split()[0] for line in text.splitlines() if line.startswith("  tried: ")}
    assert any(MOVE_CANVAS <= d < MOVE_DECK for d in decided) and any(MOVE_DECK <= d < TAKE for d in decided)
    assert {"wrong-step", "not-in-hand"} < codes and len(codes) >= 4, codes


def test_a_file_of_another_format_or_configuration_is_refused() -> None:
    text, _ = read(Config(2))
    with pytest.raises(playthroughs.PlaythroughError, match="not a red7 playthrough of version 1"):
        playthroughs.parse(text.replace("red7 playthrough 1", "red7 playthrough 2", 1))
    with pytest.raises(playthroughs.PlaythroughError, match="'2p-basic-plain' is not 3p-basic-plain"):
        playthroughs.parse(text.replace("players: 2", "players: 3", 1))


def test_the_files_are_current() -> None:
    """Each file is what tests/playthroughs.py writes now, from the seed in its header (the
    seeded chooser makes the same decisions again; :func:`test_each_file_shows_what_it_must`
    checks the game still covers everything): after a change to the rules or the dealing,
    run ``.venv/bin/python tests/playthroughs.py --write`` and read the diff."""
    found = playthroughs.stale()
    assert not found, (
        "stale playthroughs (run .venv/bin/python -m tests.support.playthroughs --write):\n"
        + "\n\n".join(f"{path.name}:\n{diff}" for path, diff in found)
    )
    assert sorted(p.name for p in playthroughs.FOLDER.iterdir()) == sorted(f"{name_of(c)}.txt" for c in CONFIGS)


def test_a_file_keeps_its_seed_unless_its_game_lacks_what_it_must_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writing a file again plays the seed of its header again, whichever covering seed it
    is, so that a change of the rules shows only its own lines; a seed is searched only for
    a new file, or when the kept seed's game lacks what every file must show, and says why."""
    config = Config(2)
    monkeypatch.setattr(playthroughs, "FOLDER", tmp_path)
    path = playthroughs.path_of(config)
    covering = [s for s in range(1, 60) if not playthroughs.missing(config, s, playthroughs.play(config, s))]
    lacking = next(s for s in itertools.count(1) if s not in covering)
    searched, _ = playthroughs.find(config)
    assert searched == covering[0]
    new = playthroughs.written(config)
    assert new.reseeded == f"seed {searched} was searched for, as there was no file, or no seed in its header"
    assert f"\nseed: {searched}\n" in new.text
    path.write_text(playthroughs.render(config, covering[1], playthroughs.play(config, covering[1])))
    assert playthroughs.written(config) == (path, path.read_text(), None)
    path.write_text(path.read_text().replace(f"\nseed: {covering[1]}\n", f"\nseed: {lacking}\n"))
    lacks = ", ".join(playthroughs.missing(config, lacking, playthroughs.play(config, lacking)))
    assert playthroughs.written(config) == (
        path,
        new.text,
        f"seed {searched} was searched for, as the game of its seed {lacking} lacks what missing() asks for: {lacks}",
    )
