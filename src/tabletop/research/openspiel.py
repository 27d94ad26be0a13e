"""OpenSpiel games, one game and state class for every game with an encoding (needs
``pip install open-spiel``).

Importing this module registers ``tabletop_<name>`` (the registry's name, ``-`` as
``_``) with ``pyspiel`` for every registered game with an encoding; ``register()``
registers games added to the registry later. Parameters are the encoding's
``spiel_parameters`` (``players``; NMBR 9 also ``remove``).

* ``tabletop_nova_luna`` (``players`` 1-4, default 2): sequential, **perfect
  information with explicit chance**: every tile drawn is a chance node over the
  tiles still in the pile, and the start stack one over the ``players!`` orders;
  the pile's order is never in the state. An action that will draw tiles waits for
  their chance nodes (``tabletop.games.novaluna.chance.ChanceEncoder``).
* ``tabletop_nmbr9`` (``players`` 1-4, default 2; ``remove``, default 0): the
  rules' simultaneous rounds are played **sequentially**, seat 0 first, with
  **imperfect information**: a seat's observation never shows another seat's
  placement of the current round. Each round begins with a chance node turning
  the card (``tabletop.games.nmbr9.encoding.ChanceEncoder``).

Actions are the encodings' flat indices (the PettingZoo environments'). By default
the games of two or more players are ``ZERO_SUM`` with terminal rewards as the
PettingZoo default: the rank reward ``1 - 2 (rank - 1) / (players - 1)`` less its
mean over the seats, +1 for a win, -1 for a loss and 0 for a two-player draw; one
seat gets its score reward (solo Nova Luna ``-`` its score, solo NMBR 9 its score).
The parameter ``zero_sum=False`` gives the general-sum rank reward, where ties share
the better rank (a two-player draw pays +1 to both).
``observation_tensor`` is the PettingZoo observation (``float32`` on ``[0, 1]``) of
the player asked about; ``information_state_tensor`` is that observation followed
by the player's history as a fixed-size table, scaled onto ``[0, 1]`` as well
(``ChanceEncoder.information_tensor``): every tensor a network is given is. An
observer asked for public information only (``PrivateInfoType.NONE``) gives what
every player knows. ``resample_from_infostate`` serves ISMCTS; a game of
perfect information takes ``imperfect_information=True`` to be declared imperfect
(ISMCTS refuses it otherwise). See docs/research-openspiel.md.

>>> import pyspiel
>>> game = pyspiel.load_game("tabletop_nmbr9", {"players": 1})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions()
(True, 6400)
"""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from .encoding import (
    CHANCE,
    ChanceEncoder,
    PublicView,
    Setup,
    _tensorfast,
    encoded_games,
    encoding,
    final_rewards,
    pick,
    spiel_name,
    zero_sum_rewards,
)

if TYPE_CHECKING:
    from ..core.game import State

NOVA_LUNA = spiel_name("nova-luna")
NMBR9 = spiel_name("nmbr9")

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


class _Observer:
    """A PyObserver. Without perfect recall (the observation) the tensor is the
    encoding's observation of the observer's seat; with it (the information state)
    the encoder's information tensor: that observation followed by the history.

    ``private_info=NONE`` asks for public information only, the same for every player:
    in a game of perfect information seat 0's observation and history (everything is
    public), otherwise the encoder's ``PublicView``. Other requests (no public
    information, every player's private information) are refused: ``ValueError``."""

    def __init__(self, iig_obs_type: Any, setup: Setup, perfect_information: bool) -> None:
        private = pyspiel.PrivateInfoType
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if not iig_obs_type.public_info or iig_obs_type.private_info == private.ALL_PLAYERS:
            raise ValueError(
                "observation type not supported: public_info=True with private_info "
                "SINGLE_PLAYER (a player's observation) or NONE (public only), either "
                f"perfect_recall; asked: public_info={iig_obs_type.public_info}, "
                f"private_info={iig_obs_type.private_info}"
            )
        self.recall = iig_obs_type.perfect_recall
        self.public = iig_obs_type.private_info == private.NONE
        self.perfect = perfect_information
        self.scale = setup.scaler
        size = setup.information_size if self.recall else setup.observation_shape[0]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        # per player: the tensor of a new state (OpenSpiel asks for one with every
        # observation_tensor call, to learn the size)
        self._initial: dict[int, np.ndarray] = {}

    def set_from(self, state: SpielState, player: int) -> None:
        if state._own:
            self._set_from(state, player)
            return
        initial = self._initial.get(player)  # the shared undealt position: the same
        if initial is None:
            self._set_from(state, player)
            initial = self._initial[player] = self.tensor.copy()
        self.tensor[:] = initial

    def _set_from(self, state: SpielState, player: int) -> None:
        encoder = state.encoder
        if self.public and not self.perfect:
            view = _public_view(encoder)
            if self.recall:
                self.tensor[:] = view.public_information_tensor(state.history())
            else:
                self.scale(view.public_observe(), out=self.tensor)
            return
        seat = 0 if self.public else player  # perfect information: all of it is public
        if self.recall:
            self.tensor[:] = encoder.information_tensor(seat, state.history())
        elif (scaled := getattr(encoder, "observe_scaled", None)) is not None:
            scaled(seat, self.tensor)  # a compiled game's, in one pass
        else:
            self.scale(encoder.observe(seat), self.tensor)  # in place: every step asks

    def string_from(self, state: SpielState, player: int) -> str:
        encoder = state.encoder
        if self.public and not self.perfect:
            view = _public_view(encoder)
            if self.recall:
                return view.public_information_string(state.history())
            return view.public_render()
        seat = 0 if self.public else player
        if self.recall:
            return encoder.information_string(seat, state.history())
        return encoder.render(seat)


def _public_view(encoder: ChanceEncoder) -> PublicView:
    if not isinstance(encoder, PublicView):
        raise ValueError(f"{type(encoder).__name__} offers no public observation")
    return encoder


class SpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """The registered game ``name`` with ``params`` (the encoding's ``spiel_parameters``);
    ``register()`` makes one subclass per game, ``name`` fixed."""

    name = ""

    def __init__(self, params: dict[str, int] | None = None) -> None:
        name = self.name
        encoded = encoding(name)
        params = {**encoded.spiel_parameters, "zero_sum": True, **(params or {})}
        zero_sum = bool(params.pop("zero_sum"))
        declared = bool(params.pop(IMPERFECT, False))
        values = {key: int(value) for key, value in params.items()}
        players = values.pop("players")
        # zero-sum by default: a general-sum two-player draw (+1 each) looks like a win
        # to OpenSpiel's MCTS and minimax; one seat gets its score (pyspiel fills in
        # the default, so ``zero_sum`` cannot tell a solo game anything)
        self.zero_sum = zero_sum = zero_sum and players >= 2
        self.setup = setup = encoded.setup(players, **values)  # checks them
        #: The position before the first chance node, shared by new states (never changed).
        self.undealt = setup.undealt()
        # observation_tensor's observer (recall false) and information_state_tensor's
        self._tensor_observers: dict[bool, _Observer] = {}
        self.perfect_information = encoded.perfect_information
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.actions,
            max_chance_outcomes=setup.max_chance_outcomes,
            num_players=players,
            min_utility=setup.min_utility,
            max_utility=setup.max_utility,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=setup.max_game_length,
        )
        params = {"players": players, **values, "zero_sum": zero_sum}
        if declared:
            params[IMPERFECT] = True
        super().__init__(_game_type(name, declared, zero_sum), info, params)

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def state_from_seat_record(self, seat_record: Any, seed: int) -> SpielState:
        """The state at the point a seat record shows (``GameType.seat_record``: what a
        program playing that seat is sent), for a search such as ``MCTSBot``: every
        chance outcome the seat has seen and every move replayed from the initial state
        (so ``history()`` and the information state are the real ones); a move hidden
        from the seat (NMBR 9: another seat's placement of the current round, and, since
        OpenSpiel plays a round in seat order, those of the seats before it) drawn from
        ``seed``, and so is the order of what nobody has seen. ``RecordError`` for a
        bad seat record or one of another variant (seats, options) than this game's."""
        from ..core.errors import RecordError

        if not isinstance(seat_record, dict) or seat_record.get("game") != self.name:
            raise RecordError(f"not a seat record of {_title(self.name)}")
        history = encoding(self.name).spiel_history(self.setup, seat_record, seed)
        state = self.new_initial_state()
        for action in history:
            state.apply_action(action)
        rng = random.Random(seed)
        state._changing().shuffle_unseen(rng.random)
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return _Observer(iig_obs_type, self.setup, self.perfect_information)

    def tensor_observer(self, recall: bool) -> _Observer:
        """The observer of ``observation_tensor`` (``recall`` false) or of
        ``information_state_tensor`` (true): OpenSpiel's default ones, made once."""
        observers = self._tensor_observers
        observer = observers.get(recall)
        if observer is None:
            kind = pyspiel.IIGObservationType(perfect_recall=recall)
            observer = observers[recall] = self.make_py_observer(kind)
        return observer


class SpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """A position: ``encoder`` (the encoding's ``ChanceEncoder``) holds all of it.

    OpenSpiel's ``clone()`` makes a new initial state and then deep-copies each
    attribute of this one onto it (``copy.deepcopy``: an encoder may make that cheap with
    ``__deepcopy__``), and every ``observation_tensor`` call makes a new initial state
    too: so a new state shares the game's undealt encoder, copied only when the state
    first changes (``_own`` says whether it has its own)."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self._encoder = game.undealt
        self._own = False

    @property
    def encoder(self) -> ChanceEncoder:
        """The game in progress (read it; changes go through OpenSpiel's methods)."""
        return self._encoder

    def _changing(self) -> ChanceEncoder:
        """The encoder, this state's own (a copy of the shared undealt one at first)."""
        if not self._own:
            self._encoder = copy.deepcopy(self._encoder)
            self._own = True
        return self._encoder

    @property
    def engine(self) -> State | None:
        """The rules' state (``None`` until the chance nodes have dealt it)."""
        return self.encoder.state

    def current_player(self) -> int:
        return self.encoder.acting()  # a seat, or CHANCE and TERMINAL as OpenSpiel numbers

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.encoder.chance_outcomes()

    def _legal_actions(self, player: int) -> list[int]:
        return self.encoder.legal_actions(player)

    # Called from Python, pyspiel's C++ methods below call back into this class several
    # times (each ``legal_actions()`` asks ``is_terminal``, ``current_player`` twice and
    # ``_legal_actions``, and converts the list both ways; every ``observation_tensor``
    # makes a new initial state to learn the size): these overrides give the same
    # answers, and the same errors, without the round trips. C++ callers (pyspiel's own
    # bots) still take the C++ path, which ends in the methods above.

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the acting one): the chance
        outcomes at a chance node, none at the end or for a seat not acting."""
        encoder = self._encoder
        acting = encoder.acting()
        if encoder.is_over:
            return []
        if acting == CHANCE:
            return [outcome for outcome, _ in encoder.chance_outcomes()]
        if player is None or player == acting:
            return encoder.legal_actions(acting)
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        return self._encoder.acting() == CHANCE

    def is_player_node(self) -> bool:
        return self._encoder.acting() >= 0

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation of ``player`` (default: the acting one) as a list, as
        OpenSpiel's ``observation_tensor`` gives it."""
        return self._tensor(False, player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The information state of ``player`` (default: the acting one) as a list."""
        return self._tensor(True, player)

    def _tensor(self, recall: bool, player: int | None) -> list[float]:
        if player is None:
            player = self._encoder.acting()
        players = self.num_players()
        if not 0 <= player < players:
            raise pyspiel.SpielError(f"no player {player} to observe: 0 to {players - 1}")
        observer = self.get_game().tensor_observer(recall)
        observer.set_from(self, player)
        return _as_list(observer.tensor)

    def _apply_action(self, action: int) -> None:
        encoder = self._encoder if self._own else self._changing()
        player = encoder.acting()
        if player == CHANCE:
            encoder.apply_chance(action)
        else:
            encoder.apply(action, player)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return self.encoder.chance_string(action)
        return self.encoder.action_string(action)

    def is_terminal(self) -> bool:
        return self.encoder.is_over

    def returns(self) -> list[float]:
        n = self.num_players()
        if not self.encoder.is_over:
            return [0.0] * n
        if self.get_game().zero_sum:
            return zero_sum_rewards(self.encoder.ranks())
        return final_rewards(self.encoder, n)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state ``player_id`` cannot tell from this one (the same information state and
        observation), drawn with ``probability_sampler`` (a callable giving numbers in
        [0, 1), OpenSpiel's ``UniformProbabilitySampler``): what nobody has seen
        reordered (``shuffle_unseen``), and each move the player has not seen re-drawn
        uniformly among the legal moves of its seat at that point (``hidden_moves``), the
        game replayed from its start with them."""

        def uniform() -> float:
            return float(probability_sampler())

        history = self.history()
        hidden = set(self.encoder.hidden_moves(player_id, history))
        state: SpielState  # what pyspiel's untyped new_initial_state() and clone() give
        if hidden:
            state = self.get_game().new_initial_state()
            for at, action in enumerate(history):
                if at in hidden:
                    legal = state.legal_actions()
                    action = legal[pick(len(legal), uniform)]
                state.apply_action(action)
        else:
            state = self.clone()
        state._changing().shuffle_unseen(uniform)
        return state

    def __str__(self) -> str:
        return self.encoder.render(None)


def _as_list(tensor: np.ndarray) -> list[float]:
    """``tensor.tolist()``, faster: in C equal entries share one float; in Python the
    zeros do, and only the others are converted (a new float per entry is what costs)."""
    if _tensorfast is not None:
        return _tensorfast.as_list(tensor)
    at = (tensor != 0).nonzero()[0]
    if 4 * len(at) > len(tensor):
        return tensor.tolist()
    out = _zeros(len(tensor))
    for index, value in zip(at.tolist(), tensor[at].tolist(), strict=True):
        out[index] = value
    return out


def _zeros(size: int) -> list[float]:
    zeros = _ZEROS.get(size)
    if zeros is None:
        zeros = _ZEROS[size] = [0.0] * size
    return zeros.copy()


#: Per tensor size a list of zeros to copy (``_as_list``).
_ZEROS: dict[int, list[float]] = {}


#: The parameter of a game of perfect information that declares it imperfect (default
#: false): ISMCTS, for one, refuses a game declared perfect. Nothing else changes.
IMPERFECT = "imperfect_information"


def _game_type(
    name: str, declared_imperfect: bool = False, zero_sum: bool = False
) -> pyspiel.GameType:
    encoded = encoding(name)
    information = pyspiel.GameType.Information
    parameters: dict[str, int | bool] = {**encoded.spiel_parameters, "zero_sum": True}
    if encoded.perfect_information:
        parameters[IMPERFECT] = False
    perfect = encoded.perfect_information and not declared_imperfect
    utility = pyspiel.GameType.Utility
    common = {**_COMMON, "utility": utility.ZERO_SUM if zero_sum else utility.GENERAL_SUM}
    return pyspiel.GameType(
        short_name=spiel_name(name),
        long_name=f"{_title(name)} (tabletop)",
        information=information.PERFECT_INFORMATION
        if perfect
        else information.IMPERFECT_INFORMATION,
        parameter_specification=parameters,
        **common,
    )


def _title(name: str) -> str:
    from ..core.game import get_game

    return get_game(name).title


def register() -> list[str]:
    """Register ``tabletop_<name>`` for every registered game with an encoding not
    registered yet (games added later too); the short names, all of them."""
    known = set(pyspiel.registered_names())
    names = []
    for name in encoded_games():
        short = spiel_name(name)
        if short not in known:
            # A class per game, as pyspiel's own Python games register: with a
            # functools.partial as the creator the process aborted at exit.
            creator = type(f"SpielGame_{short}", (SpielGame,), {"name": name})
            pyspiel.register_game(_game_type(name, zero_sum=True), creator)
        names.append(short)
    return names


register()

__all__ = ["NMBR9", "NOVA_LUNA", "SpielGame", "SpielState", "register"]
