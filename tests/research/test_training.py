"""The training example learns: MaskablePPO beats ``random`` at two-player Nova Luna.

Slow (about ten minutes on one core) and needs the extra ``rl``'s torch and sb3-contrib:
``pip install '.[rl]'`` then ``pytest -m slow tests/research/test_training.py``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_maskable_ppo.py"
# Training moves of the learner: half of the example's 30,720-step run, past the first
# few updates; from there on both seeds' curves (0 and 1, 100 games per evaluation) stay
# above random to the end of the run (see the Gymnasium page), so the count is not the
# peak of one curve.
STEPS = 16384
GAMES = 200  # evaluation games against random, fixed deals, both seats


def load_example():
    """The example script as a module (it is not part of the package)."""
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_maskable_ppo_with_the_grid_policy_beats_random():
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    example = load_example()
    model, curve = example.train(STEPS, seed=0, eval_every=STEPS, eval_games=GAMES)
    assert curve.steps == [0, STEPS]
    before, after = curve.win_rate
    # 200 games: random against random wins 50% ± 3.5% (one standard deviation)
    assert after > 0.5, f"won {after:.0%} of {GAMES} games against random (untrained {before:.0%})"
    assert after > before


def test_the_grid_policy_scores_each_cell_with_the_tiles_around_it():
    """GridNet draws the learner's display where the action encoding puts its cells."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    import numpy as np

    from tabletop.research import novaluna as nlenc

    example = load_example()
    env = example.NovaLunaVersusRandomEnv()
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(10):
        obs, _, _, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    net = example.GridNet()
    with torch.no_grad():
        cells, choices, _ = net._parts(torch.tensor(obs)[None])
        logits = net.forward_actor(torch.tensor(obs)[None])
    assert logits.shape == (1, nlenc.ACTIONS) and choices.shape == (1, 3, cells.shape[1])
    # a network whose trunk only sees "a tile is here": every legal cell touches one
    net.cell_tile.weight.data.zero_()
    planes_seen = []
    net.trunk = torch.nn.Sequential(torch.nn.Identity())
    hook = net.trunk.register_forward_hook(lambda m, i, o: planes_seen.append(i[0]))
    with torch.no_grad():
        net._parts(torch.tensor(obs)[None])
    hook.remove()
    occupied = planes_seen[0][0, -3].numpy()  # the "tile here" plane, (y, x) around (0, 0)
    for action in np.flatnonzero(info["action_mask"][: nlenc.CELLS]):
        row, column = divmod(int(action), nlenc.GRID)
        y, x = row - nlenc.RADIUS + example.CROP, column - nlenc.RADIUS + example.CROP
        assert occupied[y, x] == 0
        neighbours = (
            occupied[y - 1, x] + occupied[y + 1, x] + occupied[y, x - 1] + occupied[y, x + 1]
        )
        assert neighbours >= 1
    assert occupied.sum() == len(env.aec.game_state.displays[env.learner].tiles)
