"""A training data set from selfplay: one row per decision, written to Parquet.

``novaluna selfplay --dataset FILE.parquet`` (and ``nmbr9``) writes, for every decision
of every game, what the acting seat saw (the observation as the PettingZoo environment
gives it: the research encoding scaled onto [0, 1]), its legal actions, the action its
bot took and how the game ended for that seat, with the game's number, seed, the
decision's number and the seat (docs/dataset.md has the schema). It needs ``pyarrow``
and numpy (the extra ``data``).

The games are played as ever (``harness.selfplay.play_game``, so the records are the
same); each game's moves are then read into the game's encoding from its record
(``Encoding.from_record`` deals it again, ``Encoder.action_index`` names each move), in
the process that played it: with ``--jobs`` or Ray the rows are made where the games
run. The writer streams them: a Parquet row group every ``ROW_GROUP_BYTES`` of
observations, so a data set of millions of decisions never sits in memory at once.

>>> import pyarrow.parquet as pq, tempfile, os
>>> from tabletop.core.game import get_game
>>> from tabletop.harness.tournament import Fixture
>>> path = os.path.join(tempfile.mkdtemp(), "d.parquet")
>>> writer = DatasetWriter(path, get_game("nmbr9"), 2, {"remove": 0})
>>> writer.add(play_with_decisions(Fixture("nmbr9", {"remove": 0}, ("random", "greedy"), 7)))
>>> writer.close()
>>> table = pq.read_table(path)
>>> table.num_rows, table.column("seat").to_pylist()[:4]  # 20 rounds, two seats each
(40, [0, 1, 0, 1])
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..core.errors import OptionsError
from ..core.game import JSON, GameType, get_game
from ..harness.selfplay import play_game
from ..records import record_seed
from .encoding import Encoder, encoding, final_rewards, zero_sum_rewards

if TYPE_CHECKING:
    from ..harness.tournament import Fixture, Played

FORMAT = 1
#: A row group is written once this many bytes of observations are buffered.
ROW_GROUP_BYTES = 32 << 20
#: What a column holds (written into the file's schema as field metadata).
COLUMNS = {
    "game_id": "the game's number in this file, from 0",
    "seed": "the game's seed (the record's)",
    "turn": "the decision's number in its game, from 0 (the environment's step)",
    "seat": "the acting seat (PettingZoo agent player_<seat>)",
    "bot": "the bot spec that chose the action",
    "observation": "the seat's observation, scaled onto [0, 1] as the PettingZoo env gives it",
    "legal": "the legal action indices (the nonzero entries of the action mask)",
    "action": "the action index taken",
    "final_rank": "the seat's rank at the end (1 = best; equal totals share a rank)",
    "final_reward": "the environments' default reward at the end (zero-sum rank; solo: score)",
    "final_score": "the game's own figure for the seat at the end (the tournament's score)",
    "complete": "false: the game's rows stop early, at a move the encoding cannot express",
}


@dataclass
class Decisions:
    """One game's rows, as arrays (made where the game was played)."""

    seats: np.ndarray  # int8, per decision
    actions: np.ndarray  # int32
    observations: np.ndarray  # float32, decisions × observation size
    legal_counts: np.ndarray  # int32, legal actions per decision
    legal: np.ndarray  # int32, every decision's legal actions one after another
    ranks: Sequence[int]  # per seat
    rewards: Sequence[float]
    scores: Sequence[float]
    complete: bool  # False: a move the encoding cannot express cut the rows short


def decisions(game: GameType, record: JSON, moves: Sequence[tuple[int, object]]) -> Decisions:
    """The rows of one finished game: its ``moves`` (seat, rules' action, in the order
    played) read into the game's encoding, dealt as ``record`` says. A move the
    encoding cannot express (NMBR 9: a bot laid a tile beyond the window, which random
    bots do in about a quarter of their games) ends the rows there: ``complete`` False."""
    setup, deal = encoding(game.name).from_record(record)
    encoder = setup.deal(record_seed(record) or 0, deal)  # a downloaded record: a string
    count = len(moves)
    seats = np.empty(count, np.int8)
    actions = np.empty(count, np.int32)
    observations = np.empty((count, setup.observation_shape[0]), np.float32)
    legal_counts = np.empty(count, np.int32)
    legal: list[np.ndarray] = []
    complete = True
    for turn, (seat, move) in enumerate(moves):
        if encoder.acting() != seat:
            raise ValueError(
                f"decision {turn}: seat {seat} moved, the encoding has seat "
                f"{encoder.acting()} to act"
            )
        try:
            index = encoder.action_index(move)
        except ValueError:
            complete = False
            count = turn
            break
        seats[turn] = seat
        actions[turn] = index
        observations[turn] = setup.scaler(encoder.observe(seat))
        indices = np.asarray(encoder.legal_actions(seat), np.int32)  # the mask's nonzeros
        legal.append(indices)
        legal_counts[turn] = len(indices)
        encoder.apply(index, seat)
    outcome = game.outcome(record)
    ranks = list(outcome.ranks)
    if complete and not _ends_as(encoder, ranks, outcome.scores):
        raise ValueError("the encoding's game ended otherwise than the record's")
    return Decisions(
        seats[:count],
        actions[:count],
        observations[:count],
        legal_counts[:count],
        np.concatenate(legal) if legal else np.empty(0, np.int32),
        ranks,
        final_rewards(encoder, setup.players) if complete else _rewards(ranks, outcome.scores),
        [float(s) for s in outcome.scores],
        complete,
    )


def _ends_as(encoder: Encoder, ranks: Sequence[int], scores: Sequence[float]) -> bool:
    """Whether the encoder's game is over with the record's ranks (solo: its score)."""
    if not encoder.is_over:
        return False
    if len(ranks) > 1:
        return list(encoder.ranks()) == list(ranks)
    return encoder.solo_score() == scores[0]


def _rewards(ranks: Sequence[int], scores: Sequence[float]) -> list[float]:
    """``encoding.final_rewards`` of a game the encoding did not follow to its end (cut
    short, NMBR 9 only): the zero-sum rank reward, or one seat's points."""
    if len(ranks) > 1:
        return zero_sum_rewards(ranks)
    return [float(score) for score in scores]


def play_with_decisions(fixture: Fixture) -> Played:
    """Play one scheduled game and make its rows (a top-level function: the harness
    runs it in worker processes and on Ray)."""
    from ..harness.tournament import Played

    game = get_game(fixture.game)
    moves: list[tuple[int, object]] = []
    start = time.perf_counter()
    record = play_game(game, list(fixture.specs), fixture.seed, fixture.options, moves=moves)
    seconds = time.perf_counter() - start
    return Played(fixture, record, seconds, (), decisions(game, record, moves))


def schema(observation_size: int, metadata: dict[str, Any]) -> pa.Schema:
    """The data set's columns (docs/dataset.md); ``metadata`` goes into the file."""
    types = {
        "game_id": pa.int64(),
        "seed": pa.int64(),
        "turn": pa.int32(),
        "seat": pa.int8(),
        "bot": pa.string(),
        "observation": pa.list_(pa.float32(), observation_size),
        "legal": pa.list_(pa.int32()),
        "action": pa.int32(),
        "final_rank": pa.int8(),
        "final_reward": pa.float32(),
        "final_score": pa.float32(),
        "complete": pa.bool_(),
    }
    fields = [
        pa.field(name, kind, nullable=False, metadata={"description": COLUMNS[name]})
        for name, kind in types.items()
    ]
    return pa.schema(fields, metadata={"tabletop": json.dumps(metadata)})


class DatasetWriter:
    """Streams games' decisions into a Parquet file (``add`` each ``Played`` with
    ``decisions``, then ``close``). Opening it creates the file: a path it cannot write
    raises ``OptionsError`` before any game is played."""

    def __init__(self, path: str, game: GameType, players: int, options: JSON) -> None:
        if not getattr(game, "research", None):
            raise OptionsError(f"{game.title} has no research encoding to write a data set in")
        setup, _ = encoding(game.name).from_record(_header(game, players, options))
        size = setup.observation_shape[0]
        self.path = path
        self.metadata = {
            "format": FORMAT,
            "game": game.name,
            "players": players,
            "options": options,
            "actions": setup.actions,
            "observation_size": size,
            "reward": "zero_sum",
        }
        self.schema = schema(size, self.metadata)
        self.group_rows = max(64, ROW_GROUP_BYTES // (4 * size))
        self.rows = 0
        self.games = 0
        self.cut = 0  # games whose rows stop early (``Decisions.complete`` False)
        self._buffer: list[tuple[int, Played]] = []
        self._buffered = 0
        try:
            self._writer = pq.ParquetWriter(path, self.schema, compression="zstd")
        except OSError as err:
            raise OptionsError(f"cannot write {path}: {err}") from None

    def add(self, played: Played) -> None:
        """One game's rows (``played.decisions``); written once a row group is full."""
        if played.decisions is None:
            raise ValueError("the game was played without its decisions (play_with_decisions)")
        self._buffer.append((self.games, played))
        self.games += 1
        self.cut += not played.decisions.complete
        self._buffered += len(played.decisions.actions)
        if self._buffered >= self.group_rows:
            self._flush()

    def close(self) -> None:
        """Write what is buffered and finish the file."""
        if self._writer is None:
            return
        try:
            self._flush()
        finally:
            self._writer.close()
            self._writer = None

    def _flush(self) -> None:
        if not self._buffer:
            return
        table = self._table(self._buffer)
        self._writer.write_table(table, row_group_size=len(table))
        self.rows += len(table)
        self._buffer, self._buffered = [], 0

    def _table(self, games: list[tuple[int, Played]]) -> pa.Table:
        parts: dict[str, list[np.ndarray]] = {name: [] for name in COLUMNS}
        bots: list[str] = []
        legal, counts = [], []
        for game_id, played in games:
            d: Decisions = played.decisions
            n = len(d.actions)
            seats = d.seats.astype(np.int64)
            parts["game_id"].append(np.full(n, game_id, np.int64))
            parts["seed"].append(np.full(n, played.fixture.seed, np.int64))
            parts["turn"].append(np.arange(n, dtype=np.int32))
            parts["seat"].append(d.seats)
            bots.extend(played.fixture.specs[s] for s in seats)
            parts["observation"].append(d.observations)
            parts["action"].append(d.actions)
            parts["final_rank"].append(np.asarray(d.ranks, np.int8)[seats])
            parts["final_reward"].append(np.asarray(d.rewards, np.float32)[seats])
            parts["final_score"].append(np.asarray(d.scores, np.float32)[seats])
            parts["complete"].append(np.full(n, d.complete))
            legal.append(d.legal)
            counts.append(d.legal_counts)
        observations = np.concatenate(parts.pop("observation"))
        size = observations.shape[1]
        offsets = np.zeros(sum(len(c) for c in counts) + 1, np.int32)
        np.cumsum(np.concatenate(counts), out=offsets[1:])
        del parts["bot"], parts["legal"]
        columns: dict[str, pa.Array] = {k: pa.array(np.concatenate(v)) for k, v in parts.items()}
        columns["bot"] = pa.array(bots, pa.string())
        columns["observation"] = pa.FixedSizeListArray.from_arrays(
            pa.array(observations.reshape(-1)), size
        )
        columns["legal"] = pa.ListArray.from_arrays(
            pa.array(offsets), pa.array(np.concatenate(legal))
        )
        return pa.Table.from_arrays(
            [columns[f.name].cast(f.type) for f in self.schema], schema=self.schema
        )


def _header(game: GameType, players: int, options: JSON) -> JSON:
    """A record's header for ``players`` seats and ``options``: enough of it for
    ``Encoding.from_record`` to name the variant the data set is written for."""
    table = game.new_table(players, options, [f"seat {s}" for s in range(players)], 0)
    return table.record()


def mask_rows(table: pa.Table, actions: int) -> np.ndarray:
    """The action masks of a data set's rows (``int8``, rows × ``actions``), as the
    environments give them, from its ``legal`` column; ``actions`` is the file's
    (``json.loads(table.schema.metadata[b"tabletop"])["actions"]``).

    A mask per row is big (Nova Luna has 23,765 actions): take a slice of the table."""
    column = table.column("legal").combine_chunks()
    counts = np.diff(column.offsets.to_numpy())
    rows = np.repeat(np.arange(len(counts)), counts)
    masks = np.zeros((len(counts), actions), np.int8)
    masks[rows, column.values.to_numpy()] = 1
    return masks
