"""Bots choose legal actions and never read the draw pile's order."""

from __future__ import annotations

import random

import pytest

from tabletop.games.novaluna.bots import BotSpecError, bot_names, hint_bot, make_bot
from tabletop.games.novaluna.bots import solo as solo_module
from tabletop.games.novaluna.bots.greedy import GreedyBot
from tabletop.games.novaluna.bots.mcts import MctsBot, Settings
from tabletop.games.novaluna.bots.solo import Settings as SoloSettings
from tabletop.games.novaluna.bots.solo import SoloPlanner
from tabletop.games.novaluna.rules import END_PHASE, REFILL, Game, Place
from tabletop.games.novaluna.rules.tiles import TILE_COST


@pytest.mark.parametrize("name", ["random", "greedy", "mcts:12"])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_bots_play_legal_games(name, players):
    state = Game(players).new_state(seed=players)
    bot = make_bot(name, seed=1)
    while not state.is_over:
        action = bot.choose(state.view())
        assert action in state.legal_actions()
        state.apply(action)


def _reorder_unseen(state, seed):
    """The same position with the unseen part of the pile in another order."""
    pile = list(state.pile_order())
    rest = pile[state.drawn :]
    random.Random(seed).shuffle(rest)
    other = state.clone()
    other._pile = tuple(pile[: state.drawn] + rest)
    return other


@pytest.mark.parametrize(("name", "moves"), [("random", 25), ("greedy", 25), ("mcts:20", 12)])
def test_choice_does_not_depend_on_pile_order(name, moves):
    rng = random.Random(0)
    state = Game(3).new_state(seed=9)
    for _ in range(moves):
        shuffled = _reorder_unseen(state, rng.random())
        assert make_bot(name, seed=5).choose(state.view()) == make_bot(name, seed=5).choose(
            shuffled.view()
        )
        state.apply(rng.choice(state.legal_actions()))


def test_greedy_takes_a_covering_move():
    """Greedy prefers a placement that covers a task now."""
    for seed in range(100):
        state = Game(2).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            covering = [
                a for a in state.legal_actions() if isinstance(a, Place) and state.preview(a)
            ]
            if covering:
                choice = GreedyBot(seed=1).choose(state.view())
                assert state.preview(choice)
                return
            state.apply(rng.choice(state.legal_actions()))
    pytest.fail("no covering move came up")


def test_greedy_ends_solo_phase_one_when_allowed():
    for seed in range(30):
        state = Game(1).new_state(seed=seed)
        bot = GreedyBot(seed=seed)
        while state.phase == 1 and not state.is_over:
            action = bot.choose(state.view())
            if END_PHASE in state.legal_actions():
                assert action == END_PHASE
                return
            state.apply(action)
    pytest.fail("greedy never reached 8 discs in phase 1")


def test_greedy_explains_its_hint():
    state = Game(2).new_state(seed=3)
    action, reason = GreedyBot(seed=0).explain(state.view())
    assert action in state.legal_actions()
    assert "cost" in reason or action in (REFILL, END_PHASE)


def test_unknown_bot_and_bad_option():
    assert {"random", "greedy"} <= set(bot_names())
    with pytest.raises(BotSpecError, match="unknown bot 'zz'"):
        make_bot("zz")
    with pytest.raises(BotSpecError, match="takes no option"):
        make_bot("greedy:hard")
    with pytest.raises(BotSpecError, match="mcts takes a level"):
        make_bot("mcts:superhard")
    with pytest.raises(BotSpecError, match="mcts takes a level"):
        make_bot("mcts:0")


def test_mcts_levels_and_budget():
    """The iteration budget is exact without a time cap; a time cap stops early."""
    state = Game(2).new_state(seed=2)
    for _ in range(6):
        state.apply(GreedyBot(seed=0).choose(state.view()))
    assert make_bot("mcts:40", seed=1).search(state.view()).visits == 40
    capped = MctsBot(Settings(iterations=10_000, max_seconds=0.0), seed=1)
    assert capped.search(state.view()).visits < 10_000
    assert make_bot("mcts").settings.max_seconds <= 1.0  # the default answers within 1 s
    easy, hard = make_bot("mcts:easy"), make_bot("mcts:hard")
    assert (
        easy.settings.iterations < make_bot("mcts").settings.iterations < hard.settings.iterations
    )


def test_mcts_same_seed_same_choice():
    state = Game(4).new_state(seed=3)
    for _ in range(9):
        state.apply(GreedyBot(seed=0).choose(state.view()))
    choices = {make_bot("mcts:60", seed=7).choose(state.view()) for _ in range(2)}
    assert len(choices) == 1 and choices <= set(state.legal_actions())


def test_mcts_takes_a_winning_last_disc():
    """With one disc left and a covering move on offer, it covers and wins."""
    for seed in range(200):
        state = Game(2).new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(8):
            state.apply(rng.choice(state.legal_actions()))
        covering = [a for a in state.legal_actions() if isinstance(a, Place) and state.preview(a)]
        if covering:
            state.supply[state.current_seat] = 1
            seat = state.current_seat
            state.apply(make_bot("mcts:80", seed=1).choose(state.view()))
            assert state.is_over and state.result().winner == seat
            return
    pytest.fail("no covering move came up")


def test_same_seed_same_choices():
    state = Game(2).new_state(seed=1)
    a, b = make_bot("random", seed=4), make_bot("random", seed=4)
    for _ in range(20):
        choice = a.choose(state.view())
        assert choice == b.choose(state.view())
        state.apply(choice)


def test_solo_planner_plays_legal_solo_games_and_beats_greedy_on_average():
    """Over a few seeds the planner scores lower (better) than greedy."""
    totals = {"solo:fast": 0, "greedy": 0}
    for seed in range(4):
        for spec in totals:
            state = Game(1).new_state(seed=seed)
            bot = make_bot(spec, seed=seed)
            while not state.is_over:
                action = bot.choose(state.view())
                assert action in state.legal_actions()
                state.apply(action)
            totals[spec] += state.result().total
    assert totals["solo:fast"] < totals["greedy"]


def test_solo_planner_ignores_pile_order():
    state = Game(1).new_state(seed=12)
    rng = random.Random(3)
    for _ in range(5):
        shuffled = _reorder_unseen(state, rng.random())
        a = make_bot("solo:fast", seed=2).choose(state.view())
        assert a == make_bot("solo:fast", seed=2).choose(shuffled.view())
        state.apply(a)


def test_solo_planner_keeps_to_its_budget(monkeypatch):
    """A move evaluates at most its budget of placements, plus what one search
    layer or one sampled refill already under way needs to finish."""
    settings = SoloSettings(
        phase1_beam=40,
        candidates=20,
        rounds=((20, 4), (5, 8)),
        sample_beam=4,
        phase2_beam=40,
        budget=30_000,
    )
    slack = 3 * 100 * (max(settings.phase1_beam, settings.phase2_beam) + 24)
    used: list[int] = []

    def counted(function):
        def call(*args):
            result = function(*args)
            used[-1] += result[1]
            return result

        return call

    monkeypatch.setattr(solo_module.kernel, "search", counted(solo_module.kernel.search))
    monkeypatch.setattr(
        solo_module.kernel, "phase2_scores", counted(solo_module.kernel.phase2_scores)
    )
    bot = SoloPlanner(settings, seed=3)
    state = Game(1).new_state(seed=3)
    while not state.is_over:
        used.append(0)
        state.apply(bot.choose(state.view()))
    assert max(used) <= settings.budget + slack
    assert max(used) > settings.budget  # the budget was reached (so it was tested)


def test_solo_planner_refuses_standard_games_and_bad_levels():
    with pytest.raises(ValueError, match="only the solo game"):
        make_bot("solo").choose(Game(2).new_state(seed=1).view())
    with pytest.raises(BotSpecError, match="solo takes a level"):
        make_bot("solo:huge")


@pytest.mark.parametrize(("players", "mode"), [(1, "solo"), (3, "standard")])
def test_hint_bots_explain_their_choice(players, mode):
    state = Game(players).new_state(seed=4)
    for _ in range(5):
        state.apply(GreedyBot(seed=0).choose(state.view()))
    action, reason = hint_bot(mode).explain(state.view())
    assert action in state.legal_actions()
    assert "cost" in reason or "refill" in reason or "phase" in reason


def test_solo_planner_samples_the_phase_end():
    """When ending phase 1 is allowed, the planner compares it with one more tile
    over sampled refills and says so."""
    for seed in range(40):
        state = Game(1).new_state(seed=seed)
        bot = make_bot("solo:fast", seed=seed)
        while state.phase == 1 and not state.is_over:
            action, reason = bot.explain(state.view())
            if END_PHASE in state.legal_actions() and len(state.legal_actions()) > 1:
                assert "sampled refills" in reason
                assert action in state.legal_actions()
                return
            state.apply(action)
    pytest.fail("no phase-end decision came up")


@pytest.mark.parametrize("name", ["random", "greedy", "mcts:5", "solo:fast"])
def test_bots_refuse_a_finished_game_clearly(name):
    players = 1 if name.startswith("solo") else 2
    state = Game(players).new_state(seed=1)
    state.random_playout(random.Random(1))
    with pytest.raises(ValueError, match="the game is over"):
        make_bot(name).choose(state.view())


def test_clairvoyant_bound_script_plays_a_whole_solo_game():
    """scripts/solo_clairvoyant.py (a measuring stick that is told the refill)
    plays legal moves to the end and reports the game's own scores."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "scripts" / "solo_clairvoyant.py"
    spec = importlib.util.spec_from_file_location("solo_clairvoyant", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    total, phase1 = script.play((5, script.Breadth(beam=300, candidates=40)))
    assert 10 < phase1 < total < 200
    start = script.phase2_start(5)  # and the phase-2 widths measured from where fast gets
    assert start is not None
    display, wheel, _ = start
    laid = sum(TILE_COST[tile] for _, tile in display)
    # a phase-2 score counts every tile of the display again, those still to lay too
    assert any(wheel) and script.phase2_best((start, 50)) > laid
