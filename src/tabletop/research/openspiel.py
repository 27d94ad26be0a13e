"""OpenSpiel games for Nova Luna and NMBR 9 (needs ``pip install open-spiel``).

Importing this module registers two Python games with ``pyspiel``:

* ``tabletop_nova_luna`` (parameter ``players``, 1-4, default 2): sequential,
  **perfect information with explicit chance**. The draw pile's order, the only
  secret of the rules, is never in the state: each tile drawn (the 11 at set-up,
  every refill, the automatic refill when the wheel empties, the solo phase 2)
  is a chance node over the tiles still in the pile, uniform over them. The
  start stack (who moves first, and the tie order) is one chance node over the
  ``players!`` orders. Actions are ``tabletop.research.novaluna``'s flat indices
  (the PettingZoo environment's). When a player's action will draw tiles, the
  draws follow it as chance nodes and the action takes effect after them.
* ``tabletop_nmbr9`` (parameters ``players`` 1-4, default 2, and ``remove``,
  cards removed unseen, default 0): the rules' simultaneous rounds are played
  **sequentially**, seat 0 first, with **imperfect information**: a seat's
  observation never shows another seat's placement of the current round (the
  engine's ``View``). Each round begins with a chance node turning the next card:
  a digit, with probability proportional to the cards of it not turned yet.
  Actions are ``tabletop.research.nmbr9``'s flat indices on the 40 × 40 window;
  should a seat find no placement inside the window (never seen), the game ends
  there.

Both are ``GENERAL_SUM`` with terminal rewards as the PettingZoo default: the
rank reward ``1 - 2 (rank - 1) / (players - 1)`` (ties share the better rank),
solo Nova Luna ``-`` its score (lower is better), solo NMBR 9 its score.
``observation_tensor`` is the PettingZoo observation (as float32) of the
player asked about; ``information_state_tensor`` is that observation followed by
the player's history as a fixed-size table (Nova Luna: every action and chance
outcome; NMBR 9: per round the card and each seat's placement, another seat's
placement of the current round hidden as ``HIDDEN``). See docs/research-openspiel.md.
"""

from __future__ import annotations

import itertools

import numpy as np
import pyspiel

from ..games.nmbr9 import rules as n9
from ..games.novaluna import rules as nl
from ..games.novaluna.rules.tiles import TILE_IDS
from . import nmbr9 as n9enc
from . import novaluna as nlenc
from .aec import rank_reward

NOVA_LUNA = "tabletop_nova_luna"
NMBR9 = "tabletop_nmbr9"

_COMMON = dict(
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
)


def _ranks(values: list[float], higher_is_better: bool = True) -> list[int]:
    """Competition ranks (1 = best; ties share the better rank)."""
    sign = 1 if higher_is_better else -1
    return [1 + sum(sign * v > sign * mine for v in values) for mine in values]


class _Observer:
    """A PyObserver. Without perfect recall (the observation) the tensor is the research
    encoding of the observer's seat; with it (the information state) the tensor is
    ``info(state, player)``: that observation followed by the player's history."""

    def __init__(self, iig_obs_type, observation: tuple, information: tuple) -> None:
        self.recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        size, self._encode = information if self.recall else observation
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player: int) -> None:
        self.tensor[:] = self._encode(state, player)

    def string_from(self, state, player: int) -> str:
        if self.recall:
            return state._information_state_string(player)
        return state._observation_string(player)


def _padded(values: list[int], size: int) -> np.ndarray:
    """``values`` then ``-1`` up to ``size`` entries, as float32."""
    out = np.full(size, -1.0, np.float32)
    out[: len(values)] = values
    return out


# -- Nova Luna --------------------------------------------------------------------

_NL_TYPE = pyspiel.GameType(
    short_name=NOVA_LUNA,
    long_name="Nova Luna (tabletop)",
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    parameter_specification={"players": 2},
    **_COMMON,
)
# Length: at most 68 placements, as many refills, one end of phase and 69 chance nodes.
_NL_LENGTH = 68 * 2 + 1 + 69


# The worst solo score: phase 1 and phase 2 each count the display (at most all 68
# tiles, 268) and 10 per missing disc (8, then 21).
_NL_SOLO_WORST = 2 * 268 + 10 * 8 + 10 * 21


class NovaLunaGame(pyspiel.Game):
    def __init__(self, params=None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 2))
        if players not in (1, 2, 3, 4):
            raise ValueError(f"Nova Luna is for 1 to 4 players, not {players}")
        solo = players == 1
        info = pyspiel.GameInfo(
            num_distinct_actions=nlenc.ACTIONS,
            max_chance_outcomes=len(TILE_IDS),
            num_players=players,
            min_utility=-_NL_SOLO_WORST if solo else -1.0,
            max_utility=0.0 if solo else 1.0,
            utility_sum=None,
            max_game_length=_NL_LENGTH,
        )
        super().__init__(_NL_TYPE, info, {"players": players})
        self.players = players
        self.rules = nl.Game(players=players)
        self.stacks = list(itertools.permutations(range(players)))

    def new_initial_state(self):
        return NovaLunaState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        size = nlenc.observation_size(self.players)
        observation = (size, NovaLunaState._observe)
        return _Observer(iig_obs_type, observation, (size + _NL_LENGTH, NovaLunaState._info))


class NovaLunaState(pyspiel.State):
    """A Nova Luna position; ``engine`` is the rules' ``State`` once set up."""

    def __init__(self, game: NovaLunaGame) -> None:
        super().__init__(game)
        # Python attributes of the game do not survive OpenSpiel's clones: keep copies
        self._rules = game.rules
        self._stacks = game.stacks
        self.stack: tuple[int, ...] | None = None if game.players > 1 else (0,)
        self.draws: list[int] = []  # tiles drawn by the chance nodes not yet applied
        self.to_draw = 11  # chance nodes to come before the pending action (or set-up)
        self.pending: int | None = None  # the action waiting for its draws
        # the encoder holds the rules' state (one attribute: OpenSpiel's clone copies
        # each attribute on its own, which would part a state from its encoder)
        self.encoder: nlenc.Encoder | None = None

    @property
    def engine(self) -> nl.State | None:
        return None if self.encoder is None else self.encoder.state

    # -- OpenSpiel API
    def current_player(self) -> int:
        if self.engine is not None and self.engine.is_over and self.pending is None:
            return pyspiel.PlayerId.TERMINAL
        if self.stack is None or len(self.draws) < self.to_draw:
            return pyspiel.PlayerId.CHANCE
        return self.engine.current_seat

    def _unseen(self) -> list[int]:
        pool = list(self.engine.unseen_tiles()) if self.engine else list(TILE_IDS)
        for tile in self.draws:
            pool.remove(tile)
        return pool

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.stack is None:
            n = len(self._stacks)
            return [(i, 1.0 / n) for i in range(n)]
        pool = self._unseen()
        return [(tile - 1, 1.0 / len(pool)) for tile in pool]

    def _legal_actions(self, player: int) -> list[int]:
        return self.encoder.legal_actions()

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            if self.stack is None:
                self.stack = self._stacks[action]
                return
            self.draws.append(action + 1)
            if len(self.draws) < self.to_draw:
                return
            if self.engine is None:  # set-up: the 11 tiles on the wheel, then the rest
                rest = [t for t in TILE_IDS if t not in self.draws]
                engine = self._rules.new_state(pile=self.draws + rest, start_stack=self.stack)
                self.encoder = nlenc.Encoder(engine)
            else:
                self.engine.arrange_pile(self.draws)
                self.encoder.apply(self.pending)
            self.draws, self.to_draw, self.pending = [], 0, None
            return
        draws = self._draws(action)
        if draws:
            self.pending, self.to_draw = action, draws
        else:
            self.encoder.apply(action)

    def _draws(self, action: int) -> int:
        """How many tiles ``action`` will draw from the pile."""
        s = self.engine
        if action < nlenc.REFILL_ACTION and s.on_wheel > 1:
            return 0  # a placement draws only when it empties the wheel
        trial = s.clone()
        trial.apply(nlenc.decode(action, trial))
        return trial.drawn - s.drawn

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.stack is None:
                return f"start stack {self._stacks[action]}"
            return f"draw tile {action + 1}"
        if self.engine is None:
            return str(action)
        move = nlenc.decode(action, self.engine)
        return str(move) if move is not None else str(action)

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_over and self.pending is None

    def returns(self) -> list[float]:
        n = self.num_players()
        if not self.is_terminal():
            return [0.0] * n
        result = self.engine.result()
        if isinstance(result, nl.SoloResult):
            return [-float(result.total)]
        ranks = [0] * n
        for place, seat in enumerate(result.ranking):
            ranks[seat] = place + 1
        return [rank_reward(r, n) for r in ranks]

    def __str__(self) -> str:
        if self.engine is None:
            return f"setting up: stack {self.stack}, drawn {self.draws}"
        text = nlenc.render(self.engine)
        if self.pending is not None:
            text += f"\npending action {self.pending}, drawn {self.draws} of {self.to_draw}"
        return text

    # -- observations
    def _observe(self, player: int) -> np.ndarray:
        if self.encoder is None:
            return np.zeros(nlenc.observation_size(self.num_players()), np.int16)
        return self.encoder.observe(player)

    def _info(self, player: int) -> np.ndarray:
        """The information state tensor: the observation, then the whole history (every
        action and chance outcome is public), padded with -1 to ``_NL_LENGTH``."""
        history = _padded(self.history(), _NL_LENGTH)
        return np.concatenate([self._observe(player).astype(np.float32), history])

    def _observation_string(self, player: int) -> str:
        return str(self)  # perfect information: everyone sees everything in the state

    def _information_state_string(self, player: int) -> str:
        return " ".join(map(str, self.history()))  # everything that happened is public


# -- NMBR 9 -----------------------------------------------------------------------

_N9_TYPE = pyspiel.GameType(
    short_name=NMBR9,
    long_name="NMBR 9 (tabletop)",
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    parameter_specification={"players": 2, "remove": 0},
    **_COMMON,
)


HIDDEN = -2  # in an NMBR 9 information state: another seat's placement of this round

# A bound on the solo score: each tile scores digit × level, the 20 digits sum to
# 90 and no tile lies higher than level 19.
_N9_SOLO_BEST = 90.0 * 19


class Nmbr9Game(pyspiel.Game):
    def __init__(self, params=None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 2))
        remove = int(params.get("remove", 0))
        self.rules = n9.Game(players=players, remove=remove)  # checks both
        rounds = n9.CARDS - remove
        solo = players == 1
        info = pyspiel.GameInfo(
            num_distinct_actions=n9enc.actions(),
            max_chance_outcomes=10,
            num_players=players,
            min_utility=0.0 if solo else -1.0,
            max_utility=_N9_SOLO_BEST if solo else 1.0,
            utility_sum=None,
            max_game_length=rounds * (players + 1),
        )
        super().__init__(_N9_TYPE, info, {"players": players, "remove": remove})
        self.players = players

    def new_initial_state(self):
        return Nmbr9State(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        size = n9enc.observation_size(self.players)
        rounds = self.max_game_length() // (self.players + 1)
        history = rounds * (self.players + 1)
        observation = (size, Nmbr9State._observe)
        return _Observer(iig_obs_type, observation, (size + history, Nmbr9State._info))


class Nmbr9State(pyspiel.State):
    """An NMBR 9 position: seats place in seat order after each card is turned."""

    def __init__(self, game: Nmbr9Game) -> None:
        super().__init__(game)
        # The engine's deck is arranged card by card by the chance nodes.
        self.engine = game.rules.new_state(deck=sorted(n9.FULL_DECK))
        self.turned = 0  # rounds whose card the chance node has turned
        self.stuck = False  # a seat found no placement in the window

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.turned == self.engine.round:
            return pyspiel.PlayerId.CHANCE
        return self.engine.acting_seats()[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = list(self.engine.deck_order()[self.engine.round :])
        return [(d, cards.count(d) / len(cards)) for d in sorted(set(cards))]

    def _legal_actions(self, player: int) -> list[int]:
        return np.flatnonzero(n9enc.legal_mask(self.engine, player)).tolist()

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.engine.arrange_deck([action])
            self.turned += 1
        else:
            self.engine.apply(n9enc.decode(action), self.current_player())
        if not self.engine.is_over and self.turned > self.engine.round:
            # the next seat to place (a new round waits for its card first)
            self.stuck = n9enc.window_is_full(self.engine, self.engine.acting_seats()[0])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"turn card {action}"
        return str(n9enc.decode(action))

    def is_terminal(self) -> bool:
        return self.engine.is_over or self.stuck

    def returns(self) -> list[float]:
        n = self.num_players()
        if not self.is_terminal():
            return [0.0] * n
        scores = [float(self.engine.score(s)) for s in range(n)]
        if n == 1:
            return scores
        return [rank_reward(r, n) for r in _ranks(scores)]

    def __str__(self) -> str:
        return n9enc.render(self.engine)

    def _observe(self, player: int) -> np.ndarray:
        if self.turned > self.engine.round or self.engine.is_over:
            return n9enc.observe(self.engine, player)
        obs = n9enc.observe(self.engine, player, acting=False)
        obs[3] = -1  # the round's card is not turned yet
        return obs

    def _observation_string(self, player: int) -> str:
        return n9enc.render(self.engine, player)

    def _known_history(self, player: int) -> list[list[int]]:
        """The history as ``player`` knows it, one row per round: the card turned, then
        the placements in seat order, another seat's of the current round as ``HIDDEN``."""
        n = self.num_players()
        rounds: list[list[int]] = []
        for action in self.history():
            if not rounds or len(rounds[-1]) == n + 1:  # a chance node: the round's card
                rounds.append([action])
            else:
                rounds[-1].append(action)
        last = rounds[-1] if rounds else []
        if len(last) < n + 1:  # the current round: only the player's own placement shows
            last[1:] = [a if seat == player else HIDDEN for seat, a in enumerate(last[1:])]
        return rounds

    def _info(self, player: int) -> np.ndarray:
        """The information state tensor: the observation, then ``_known_history`` as a
        table of ``rounds × (players + 1)`` (-1 where nothing happened yet)."""
        width = self.num_players() + 1
        length = self.get_game().max_game_length()
        rows = [_padded(row, width) for row in self._known_history(player)]
        table = _padded(np.concatenate(rows).tolist() if rows else [], length)
        return np.concatenate([self._observe(player).astype(np.float32), table])

    def _information_state_string(self, player: int) -> str:
        """The history as ``player`` knows it: the cards turned, every placement of
        the rounds resolved, and of the current round only ``player``'s own."""
        words: list[str] = []
        for card, *placed in self._known_history(player):
            words.append(f"card{card}")
            words += ["?" if a == HIDDEN else str(a) for a in placed]
        return " ".join(words)


pyspiel.register_game(_NL_TYPE, NovaLunaGame)
pyspiel.register_game(_N9_TYPE, Nmbr9Game)

__all__ = ["NMBR9", "NOVA_LUNA", "Nmbr9Game", "NovaLunaGame"]
