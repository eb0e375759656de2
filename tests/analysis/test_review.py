"""Decisions marked by the exact solver (red7.analysis.review), the solver-backed bot
(red7.bots.pimc) and intervals bootstrapped over deals (red7.analysis.measures)."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest

from red7 import Game, native
from red7.analysis.measures import bootstrap_ratio
from red7.analysis.review import TurnLabels
from red7.bots import BotSpecError, inference, make_bot
from red7.bots.ismcts import ISMCTSBot, candidates
from red7.bots.pimc import PIMCBot
from red7.bots.random_bot import random_decision
from red7.cli import main
from red7.core.actions import Action, Kind
from red7.core.cards import NAME_OF
from red7.core.model import Config, GameError
from red7.core.record import SeatRecord, dumps
from red7.play import play_game
from red7.play.judge import BudgetedJudge, judge
from red7.solver import solve
from red7.solver.marks import COSTLY, Estimate, mark, review
from red7.ui.words import decision_text, verdict_text


def test_marks_chain_from_decision_to_decision() -> None:
    """Each decision's value after it is the next decision's value before it (for the
    same player within a turn, for the other player across turns), so a position
    changes hands only through a decision marked as thrown away."""
    bots = [make_bot("medium"), make_bot("easy")]
    for seed in range(12):
        played = play_game(bots, seed)
        moves = [a for _, a in played.game.history]
        marks = review(Config(2), seed, moves)
        assert [m.action for m in marks] == moves
        for m, nxt in zip(marks, marks[1:], strict=False):
            assert m.won_before is not None and m.won_after is not None
            assert nxt.won_before == (m.won_after if nxt.seat == m.seat else not m.won_after)
            assert m.threw_away == (m.won_before and not m.won_after)
            assert (m.action in m.best) == (m.won_before and m.won_after)
        last = marks[-1]
        assert last.won_after == (last.seat in played.winners)


def test_review_refuses_a_record_that_is_not_legal() -> None:
    """A decision that is not legal where it comes is named, with the rule's reason."""
    game = Game(players=2, seed=4)
    bad = f"canvas {game.hand(0)[0]}" if game.current_player == 1 else f"canvas {game.hand(1)[0]}"
    with pytest.raises(ValueError, match="decision 1 .* is not legal there"):
        review(Config(2), 4, [bad])
    with pytest.raises(ValueError, match="after the end of the game"):
        review(Config(2), 4, ["concede", "concede"])


def test_turn_labels_agree_with_the_marks() -> None:
    """The measure's turn starts are the marks of the decisions that start a turn."""
    bots = [make_bot("medium"), make_bot("medium")]
    for seed in range(6):
        labels = TurnLabels()
        played = play_game(bots, seed, before_decision=labels.before_decision)
        turns = labels.result(played.game)["turns"]
        marks = [m for m in review(Config(2), seed, [a for _, a in played.game.history]) if m.turn_start]
        assert [[m.seat, m.won_before] for m in marks] == [t[:2] for t in turns]
        for t, nxt in zip(turns, turns[1:], strict=False):
            assert t[2] == (nxt[1] if nxt[0] == t[0] else not nxt[1])
        assert turns[-1][2] == (turns[-1][0] in played.winners)


def test_pimc_plays_a_winning_decision_when_its_worlds_are_the_game() -> None:
    """Advanced game, empty deck, every card not in a hand public (score piles): the
    only hidden cards are the other hand, so every sampled world is the true game and
    the bot must keep every won position it is given."""
    rng = random.Random(3)
    bot = PIMCBot(worlds=2, cards=7)
    won = 0
    for _ in range(150):
        names = [NAME_OF[c] for c in rng.sample(range(49), 49)]
        game = Game.from_position(
            [names[0:4], names[4:8]], [names[8:10], names[10:12]],
            scores=[names[12:30], names[30:]], advanced=True,
        )  # fmt: skip
        if game.is_over:
            continue
        me = game.current_player
        assert me is not None
        solution = solve(game)
        choice = bot.choose(game.observe(me), game.options(), rng)
        assert bot.last_solved
        if solution.won:
            won += 1
            assert solution.values[choice.id], (names, choice)
    assert won > 40


def test_pimc_is_ismcts_where_the_solver_does_not_apply() -> None:
    """3 players, or a hand larger than ``cards``: the ISMCTS choice, for the same RNG."""
    game = Game(players=3, seed=5)
    me = game.current_player
    assert me is not None
    pimc, ismcts = PIMCBot(steps=300), make_bot("ismcts:steps=300")
    a = pimc.choose(game.observe(me), game.options(), random.Random(1))
    assert not pimc.last_solved
    assert a == ismcts.choose(game.observe(me), game.options(), random.Random(1))


def test_pimc_options_are_checked() -> None:
    with pytest.raises(ValueError, match="worlds=0.5 must be a whole number"):
        make_bot("pimc:worlds=0.5")
    with pytest.raises(ValueError, match="opening=1.5 must be a whole number"):
        make_bot("pimc:opening=1.5")
    with pytest.raises(ValueError, match="judgements=0.5 must be a whole number"):
        make_bot("pimc:judgements=0.5")
    assert make_bot("pimc:worlds=4,cards=3").name == "pimc:worlds=4,cards=3"


@pytest.mark.skipif(not native.available(), reason="the Python solver solves 5-card hands at most: no opening")
def test_pimc_solves_fewer_worlds_in_the_opening() -> None:
    """``opening=N``: N worlds while the two hands hold 13 cards or more (a 2-player basic
    game's first turn), ``worlds`` once they hold fewer; by default ``worlds`` always."""
    bot, plain = PIMCBot(worlds=6, opening=2), PIMCBot(worlds=6)
    game = Game(players=2, seed=11)
    rng = random.Random(11)
    seen = set()
    while not game.is_over and sum(game.observe(0).hand_sizes) >= 10:
        observation, options = game.observe(game.current_player), game.options()
        if len(options) > 1:
            cards = sum(observation.hand_sizes)
            appraisal = bot.appraise(observation, options, rng)
            assert appraisal.solved and appraisal.samples == (2 if cards >= 13 else 6), cards
            assert plain.appraise(observation, options, rng).samples == 6
            seen.add(cards >= 13)
        game.apply(options[0].action)
    assert seen == {True, False}


def test_bootstrap_over_deals_is_wider_when_games_of_a_deal_agree() -> None:
    """Two games per deal that always agree carry the information of one game: the
    deal-level interval is as wide as for half as many independent games."""
    rng = random.Random(0)
    deals = [rng.random() < 0.5 for _ in range(200)]
    paired = bootstrap_ratio([2 * w for w in deals], [2] * 200)
    alone = bootstrap_ratio([w for w in deals for _ in (0, 1)], [1] * 400)
    assert paired[1] - paired[0] > 1.2 * (alone[1] - alone[0])
    assert paired == bootstrap_ratio([2 * w for w in deals], [2] * 200)  # seeded


@pytest.mark.slow
def test_red7_analyse_marks_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``red7 analyse``: the thrown-away decisions in English and pt-BR, each with its
    number and whether its player could see it (the judge, from their view), every mark
    as JSON, and a clear error (exit 2, no traceback) for a file that is not a record."""
    game = play_game([make_bot("medium"), make_bot("easy")], 8).game
    path = tmp_path / "game.json"
    path.write_text(dumps(game, [SeatRecord("Ana"), SeatRecord(bot="easy")]))
    marks = review(game.config, game.seed, [a for _, a in game.history], judge(make_bot("hard"), game.seed))
    thrown = [m for m in marks if m.threw_away]
    assert thrown  # this deal has one: easy's first play
    assert main(["analyse", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert f"{len(marks)} decisions, {len(marks)} valued exactly by the solver." in out
    # findable in the game's log and its replay: the decision's number, the round and the
    # turn of it, the seat as the game named it
    first = thrown[0]
    where = f"{first.number}. Round {first.round}, turn {first.turn}, Bot {first.seat + 1} (easy): "
    assert where + verdict_text(first) in out
    assert first.visible is not None  # the judge weighed it from the player's view too
    seen = "visible from the player's own view" if first.visible else "only in hindsight"
    assert (
        f"{decision_text(first.action)} {'threw a won round away, ' if first.visible else 'lost a won round '}" in out
    )
    assert seen in out
    assert main(["analyse", str(path), "--lang", "pt-BR"]) == 0
    out = capsys.readouterr().out  # every word translated: decisions, cards, the bot's level
    assert f"{first.number}. Rodada {first.round}, turno {first.turn}, Bot {first.seat + 1} (fácil): " in out
    assert "uma rodada ganha" in out and " a teria mantido" in out or "isso se via" in out
    assert "jogar " in decision_text(first.action) and " play " not in out
    assert main(["analyse", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [m.as_dict() for m in marks]
    (tmp_path / "bad.json").write_text("{}")
    assert main(["analyse", str(tmp_path / "bad.json"), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "is not a Red7 record that can be analysed" in err and "Traceback" not in err


def test_red7_analyse_names_the_seats_as_the_game_did(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 48, item 19: the one person at the table, unnamed, is "Você" ("You") in the
    analysis as in the game, never "Jogador 1"; the bot keeps its name and level."""
    recorded = json.loads((Path(__file__).parent.parent / "data" / "review_verdicts.json").read_text())["games"]["hint"]
    game = Game(config=Config(2), seed=recorded["seed"])
    for action in recorded["decisions"]:
        game.apply(action)
    path = tmp_path / "game.json"
    path.write_text(dumps(game, [SeatRecord(), SeatRecord(bot="hard")]))
    assert main(["analyse", str(path), "--exact", "--lang", "pt-BR"]) == 0
    out = capsys.readouterr().out
    assert "13. Rodada 1, turno 7, Você: descartar An6 na Tela" in out
    assert "Jogador 1" not in out


class _TrueWorlds:
    """Worlds that are the game itself (the bot sees every card: for tests)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __call__(self, observation: object) -> _TrueWorlds:
        return self

    def sample(self, rng: random.Random) -> Game:
        return self.game.clone()


def test_ismcts_solved_leaves_find_the_winning_decision() -> None:
    """ISMCTS with solve=N: when its worlds are the true game and every leaf is solved,
    the values in the tree are exact, and the most visited decision keeps a won round."""
    won = 0
    for seed in range(80):
        rng = random.Random(seed)
        game = Game(players=2, seed=seed)
        while not game.is_over and sum(len(game.hand(s)) for s in range(2)) > 8:
            game.apply_id(random_decision(game, rng))
        if game.is_over:
            continue
        solution = solve(game)
        me = game.current_player
        assert me is not None
        bot = ISMCTSBot(iters=300, solve=14, world_source=_TrueWorlds(game))
        choice = bot.choose(game.observe(me), game.options(), rng)
        if solution.won:
            won += 1
            assert solution.values[choice.id], (seed, choice)
    assert won > 20
    with pytest.raises(BotSpecError, match="solve=1.5 must be a whole number"):
        make_bot("ismcts:solve=1.5")


def test_pimc_model_keeps_the_worlds_that_explain_the_other_player() -> None:
    """model=1: against `medium` (which is greedy), the worlds kept explain every decision
    of the other player, and some deals do not (greedy would have played otherwise in
    them); the bot decides deterministically, on explained worlds."""
    bot = PIMCBot(model=1, worlds=8)
    medium = make_bot("medium")
    rejected = 0
    for seed in range(3):
        game = Game(players=2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            obs = game.observe(seat)
            worlds, tried = inference.explained_worlds(obs, rng, 8, 5000)
            assert len(worlds) == 8 and all(unexplained == 0 for _, unexplained in worlds)
            rejected += tried - len(worlds)
            game.apply(medium.choose(obs, game.options(), rng))
    assert rejected > 0
    game = Game(players=2, seed=9)
    for _ in range(8):
        game.apply(medium.choose(game.observe(game.current_player), game.options(), random.Random(0)))
    obs = game.observe(game.current_player)
    choices = {bot.choose(obs, game.options(), random.Random(4)) for _ in range(2)}
    assert len(choices) == 1 and choices.pop() in game.legal_actions()
    assert bot.last_solved and bot.last_explained == 8
    with pytest.raises(BotSpecError, match="model=2 must be 0 or 1"):
        make_bot("pimc:model=2")


def test_a_session_reviews_only_a_finished_game() -> None:
    """The review reads every hand: a game in progress is refused."""
    from red7.play.session import Session
    from red7.play.table import Seat, Table

    seed = next(s for s in range(50) if Game(players=2, seed=s).current_player == 0)  # the person begins
    table = Table([Seat(), Seat("", make_bot("easy"), "easy")], Config(2), seed=seed)
    session = Session(table)
    with pytest.raises(GameError, match="the game is not over"):
        session.review()
    table.decide("concede")
    assert [m.action for m in session.review()] == [Action.parse("concede")]


# --- appraisals, the review's judge, and red7 analyse beyond the solver ------------------------


def test_appraise_makes_the_choice_of_choose_and_weighs_what_it_is_asked_to() -> None:
    """ISMCTS and PIMC: with no ``include`` the appraisal's choice is ``choose``'s for the
    same RNG; its chances are between 0 and 1 and the most visited (ISMCTS) or best
    (PIMC) decision is the choice. An unsafe decision the search ignores gets a chance
    when it is included."""
    game = Game(players=3, advanced=True, seed=9)  # its first player has an unsafe play
    me = game.current_player
    assert me is not None
    seen, options = game.observe(me), game.options()
    bot = ISMCTSBot(iters=200)
    appraisal = bot.appraise(seen, options, random.Random(3))
    assert appraisal.choice == bot.choose(seen, options, random.Random(3))
    assert not appraisal.solved and appraisal.samples == 200
    assert all(0.0 <= c <= 1.0 for c in appraisal.chances.values()) and appraisal.choice.id in appraisal.chances
    unsafe = next(o.action for o in options if not o.safe and o.action.kind is not Kind.CONCEDE)
    assert unsafe.id not in appraisal.chances
    assert unsafe.id in bot.appraise(seen, options, random.Random(3), include=(unsafe.id,)).chances

    game = Game.from_position([["R7", "B3", "G1"], ["O6", "Y2"]], [["O5"], ["Y5"]])
    seen, options = game.observe(0), game.options()
    pimc = PIMCBot(worlds=8)
    solved = pimc.appraise(seen, options, random.Random(1))
    assert pimc.last_solved and solved.solved and solved.samples == 8
    assert solved.choice == pimc.choose(seen, options, random.Random(1))
    assert set(solved.chances) == {o.action.id for o in options}  # every legal decision
    assert all(c * 8 == int(c * 8) for c in solved.chances.values())  # a share of 8 worlds
    assert solved.chances[solved.choice.id] == max(solved.chances.values())


# Seed 7's match ends in a two-player endgame the reference search values in half a
# second (with the compiled bots as without them, whose matches differ); seed 16's, in a
# much larger one (its plain review takes some 18 s).
@pytest.mark.parametrize("seed", [7, pytest.param(16, marks=pytest.mark.slow)])
def test_a_review_with_a_judge_estimates_what_the_solver_cannot_value(seed: int) -> None:
    """3 players, advanced, actions: the exact marks are those of a review without a
    judge; every decision of seat 0 (an exact value or not) is estimated where the judge
    weighs more than one decision (the one made among them); no other seat is, nor a
    decision the judge sees as the only one; the review is the same again (seeded), and
    reports its progress before each decision."""
    config = Config(3, advanced=True, actions=True)
    played = play_game([make_bot("medium"), make_bot("easy"), make_bot("medium")], seed, config=config)
    moves = [a for _, a in played.game.history]
    plain = review(config, seed, moves)
    assert any(m.won_before is not None for m in plain)  # the solver values the endgame
    calls: list[tuple[int, int]] = []
    spec = "ismcts:iters=30"
    judged = review(config, seed, moves, judge(make_bot(spec), seed, {0}), lambda d, t: calls.append((d, t)))
    assert calls == [(n, len(moves)) for n in range(len(moves))]
    assert [(m.won_before, m.won_after, m.best) for m in judged] == [(m.won_before, m.won_after, m.best) for m in plain]
    replay = Game(config=config, seed=seed)
    for m in judged:
        weighed = set(candidates(replay)) | {m.action.id}
        expected = m.seat == 0 and len(weighed) > 1  # where the solver values it too: from the player's view
        assert (m.estimate is not None) == expected, m
        if m.estimate is not None:
            assert m.estimate.loss == max(0.0, m.estimate.best_chance - m.estimate.chance)
            assert m.costly == (m.estimate.loss >= COSTLY)
            assert replay.check(m.estimate.suggested) is None  # legal there
        replay.apply(m.action)
    assert any(m.estimate is not None for m in judged)
    assert review(config, seed, moves, judge(make_bot(spec), seed, {0})) == judged


def test_the_memo_a_review_shares_between_its_searches_changes_no_mark() -> None:
    """Each decision marked on its own (a search with a memo of its own) is marked as the
    review marks it, sharing one memo between its decisions (3 players, advanced, actions:
    the endgame goes through the reference search)."""
    config = Config(3, advanced=True, actions=True)
    played = play_game([make_bot("medium"), make_bot("easy"), make_bot("medium")], 7, config=config)
    moves = [a for _, a in played.game.history]
    reviewed = review(config, 7, moves)
    game = Game(config=config, seed=7)
    alone, rounds = [], []
    for number, action in enumerate(moves, 1):
        alone.append(mark(game, action, number))
        rounds.append(game.round)
        game.apply(action)
    # a mark made alone does not know where in the game it is: the review says so
    assert alone == [dataclasses.replace(m, round=0, turn=0) for m in reviewed]
    assert sum(m.won_before is not None for m in alone) > 15
    # the review's place of each decision: its round, and its turn counted in that round
    assert [m.round for m in reviewed] == rounds and len(set(rounds)) > 1
    for before, m in zip([None, *reviewed], reviewed, strict=False):
        same_round = before is not None and before.round == m.round
        expected = (before.turn if same_round else 0) + m.turn_start  # type: ignore[union-attr]
        assert m.turn == expected


def test_red7_analyse_estimates_with_a_judge_and_refuses_bad_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An advanced 3-player match: the costly decisions of seat 1 against the judge's
    choice, in English and pt-BR, and as JSON; --exact estimates nothing; a judge that
    cannot appraise, a bad spec or a seat the game does not have: exit 2, one line."""
    config = Config(3, advanced=True, actions=True)
    game = play_game([make_bot("easy"), make_bot("medium"), make_bot("medium")], 5, config=config).game
    path = tmp_path / "match.json"
    path.write_text(dumps(game, [SeatRecord("Ana"), SeatRecord(bot="medium"), SeatRecord(bot="medium")]))
    spec = "ismcts:iters=30"
    marks = review(config, 5, [a for _, a in game.history], judge(make_bot(spec), game.seed, {0}))
    costly = [m for m in marks if m.costly and m.won_before is None]
    estimated = [m for m in marks if m.estimate is not None]
    unsolved = [m for m in estimated if m.won_before is None]  # the solver's say the verdicts: not averaged
    assert costly  # easy (random) plays costly decisions in this match
    # no time budget: every estimate is the judge's (a budget makes them hang on the machine's speed)
    args = ["analyse", str(path), "--judge", spec, "--seat", "1", "--budget", "0"]
    assert main([*args, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert f"{len(estimated)} estimated by {spec}." in out
    first = costly[0]
    assert first.estimate is not None
    assert f"{first.number}. Round {first.round}, turn {first.turn}, Ana: " in out
    assert f"was costly (an estimated {round(100 * first.estimate.chance)}% to win the match, against " in out
    assert f"Ana: {len(costly)} costly decisions of {len(unsolved)} estimated" in out
    loss = sum(m.estimate.loss for m in unsolved if m.estimate is not None) / len(unsolved)
    assert f"on average {100 * loss:.1f} points of chance lost." in out
    assert main([*args, "--lang", "pt-BR"]) == 0
    out = capsys.readouterr().out
    assert "custou caro (estimativa de " in out
    assert "em média " + f"{100 * loss:.1f}".replace(".", ",") + " pontos de chance perdidos." in out  # 5,8
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [m.as_dict() for m in marks]
    assert main(["analyse", str(path), "--exact", "--json"]) == 0
    assert all(m["estimate"] is None for m in json.loads(capsys.readouterr().out))
    for bad, message in (
        (["--judge", "medium"], "medium cannot estimate chances: use hard, or an ismcts or pimc spec"),
        (["--judge", "ismcts:iters=-1"], "option iters=-1 must be a positive number"),
        (["--seat", "4"], "--seat must be 1 to 3: this game has 3 players"),
    ):
        assert main(["analyse", str(path), *bad, "--lang", "en"]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err


class Clock:
    """A clock the test moves: a budget is tested without waiting on one."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_budgeted_judge_hands_the_rest_to_the_smaller_judge_once_half_the_budget_is_spent() -> None:
    """BudgetedJudge: the main judge estimates until half of the budget has passed since
    its first estimate, then the fallback estimates the rest; without a budget (0 or
    None) the main judge estimates everything, however long it takes."""
    game = Game(players=2, seed=3)
    action = game.legal_actions()[0]
    main_estimate = Estimate(action, 0.5, 0.5, False)
    fallback_estimate = Estimate(action, 0.25, 0.25, False)
    clock = Clock()
    budgeted = BudgetedJudge(lambda g, a: main_estimate, lambda g, a: fallback_estimate, 60, clock)
    seen = []
    for now in (0, 10, 29.9, 30, 45, 200):
        clock.now = now
        seen.append(budgeted(game, action))
    assert seen == [main_estimate] * 3 + [fallback_estimate] * 3
    assert (budgeted.by_main, budgeted.by_fallback) == (3, 3) and budgeted.spent
    for budget in (0, None):
        unbounded = BudgetedJudge(lambda g, a: main_estimate, lambda g, a: fallback_estimate, budget, clock)
        clock.now = 0
        unbounded(game, action)
        clock.now = 10**6
        assert unbounded(game, action) is main_estimate and not unbounded.spent


@pytest.mark.slow
def test_red7_analyse_says_when_the_budget_handed_decisions_to_the_smaller_judge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A budget too small for the judge: the first decision estimated is the judge's,
    the rest the smaller judge's (hard), and the summary says how many each estimated."""
    config = Config(3, advanced=True, actions=True)
    game = play_game([make_bot("easy"), make_bot("medium"), make_bot("medium")], 5, config=config).game
    path = tmp_path / "match.json"
    path.write_text(dumps(game, [SeatRecord("Ana"), SeatRecord(bot="medium"), SeatRecord(bot="medium")]))
    args = ["analyse", str(path), "--judge", "ismcts:iters=30", "--seat", "1", "--budget", "0.000001"]
    assert main([*args, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    summary = r"^(\d+) estimated by ismcts:iters=30, (\d+) by hard once half the time budget \(0 s, --budget\)"
    found = re.search(summary, out, re.M)
    assert found and int(found.group(1)) <= 1 and int(found.group(2)) > 1, out
    for bad, message in (("-1", "-1 is not a number of seconds (0 or more)"), ("soon", "'soon' is not a number")):
        with pytest.raises(SystemExit) as exit_:
            main(["analyse", str(path), "--budget", bad, "--lang", "en"])
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and message in err and "Traceback" not in err
