"""``selfplay --dataset``: one Parquet row per decision, what the PettingZoo environment
gives when the game's record is replayed through it (docs/dataset.md)."""

from __future__ import annotations

import doctest
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tabletop.cli import main
from tabletop.core.game import get_game
from tabletop.research.aec import TabletopEnv

pq = pytest.importorskip("pyarrow.parquet", reason="selfplay --dataset needs pyarrow ('.[data]')")

from tabletop.research import dataset  # noqa: E402  (needs pyarrow)


def selfplay(tmp_path: Path, command: str, *args: str) -> tuple[list[dict], Any]:
    """Run ``selfplay --dataset --out``; the records and the data set's table."""
    out, data = tmp_path / "games.jsonl", tmp_path / "games.parquet"
    argv = [command, "selfplay", *args, "--out", str(out), "--dataset", str(data)]
    assert main(argv) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    return records, pq.read_table(data)


def env_for(record: dict) -> TabletopEnv:
    """The PettingZoo environment of a record's game, dealt as the record says (the
    record's own fields: no code of the data set's)."""
    players = len(record["players"])
    if record["game"] == "nova-luna":
        env = TabletopEnv("nova-luna", players, first_game=record["first_game"])
        env.reset(options={"pile": record["pile"], "start_stack": record.get("start_stack")})
    elif record["game"] == "nmbr9":
        env = TabletopEnv("nmbr9", players, remove=record["removed"])
        env.reset(options={"deck": record["deck"]})
    else:  # Toy Draft, the tests' third game (tests/toygame)
        env = TabletopEnv(record["game"], players)
        env.reset(options={"pile": record["pile"]})
    return env


def final_position(record: dict, state: Any) -> Any:
    """What a finished game left on the table, to compare the env's with the record's."""
    if record["game"] == "nova-luna":
        displays = [(dict(d.tiles), dict(d.open)) for d in state.displays]
        return displays, list(state.supply), list(state.time)
    if record["game"] == "nmbr9":
        return [list(board.tiles) for board in state.boards]
    return state.hands


def check_rows_replay_records(records: list[dict], table: Any) -> int:
    """Every row is what the env gives on replaying its record with the rows' actions,
    each action legal there; complete games end as the record does. The games cut short."""
    game = get_game(records[0]["game"])
    meta = json.loads(table.schema.metadata[b"tabletop"])
    rows = table.to_pylist()
    masks = dataset.mask_rows(table, meta["actions"])
    cut = 0
    for game_id, record in enumerate(records):
        env = env_for(record)
        outcome = game.outcome(record)
        mine = [i for i, row in enumerate(rows) if row["game_id"] == game_id]
        assert [rows[i]["turn"] for i in mine] == list(range(len(mine)))
        for i in mine:
            row = rows[i]
            agent = f"player_{row['seat']}"
            assert env.agent_selection == agent
            seen = env.observe(agent)
            np.testing.assert_array_equal(
                np.asarray(row["observation"], np.float32), seen["observation"]
            )
            np.testing.assert_array_equal(masks[i], seen["action_mask"])
            assert seen["action_mask"][row["action"]] == 1
            assert row["seed"] == record["seed"]
            assert row["bot"] == record["players"][row["seat"]].rsplit(" (", 1)[0]
            assert row["final_rank"] == outcome.ranks[row["seat"]]
            assert row["final_score"] == outcome.scores[row["seat"]]
            env.step(row["action"])
        complete = {rows[i]["complete"] for i in mine}
        assert len(complete) == 1
        if complete == {True}:
            assert all(env.terminations.values())
            replayed = game.read_record(record).state
            assert final_position(record, env.game_state) == final_position(record, replayed)
            for i in mine:
                assert rows[i]["final_reward"] == pytest.approx(
                    env.rewards[f"player_{rows[i]['seat']}"]
                )
        else:  # NMBR 9: a bot laid a tile beyond the 40 x 40 window
            cut += 1
            assert record["game"] == "nmbr9" and not any(env.terminations.values())
    assert sorted({row["game_id"] for row in rows}) == list(range(len(records)))
    return cut


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("novaluna", ["--players", "2", "--bots", "random,greedy"]),
        ("novaluna", ["--players", "3", "--bots", "greedy,random", "--first-game"]),
        ("novaluna", ["--players", "1", "--bots", "greedy"]),
        ("nmbr9", ["--players", "2", "--bots", "greedy,random", "--remove", "3"]),
        ("nmbr9", ["--players", "1", "--bots", "greedy"]),
        ("toy", ["--players", "2", "--bots", "greedy,random"]),  # a game from outside
    ],
)
def test_rows_are_what_the_env_gives_on_replaying_the_records(tmp_path, command, args):
    records, table = selfplay(tmp_path, command, *args, "--games", "3", "--seed", "5")
    assert table.num_rows > 0
    check_rows_replay_records(records, table)


def test_nmbr9_games_beyond_the_window_are_cut_and_said_so(tmp_path, capsys):
    # random bots spread past the 40 x 40 window in about a quarter of their games
    records, table = selfplay(tmp_path, "nmbr9", "--bots", "random", "--games", "8")
    cut = check_rows_replay_records(records, table)
    assert cut > 0
    assert f"{cut} game(s) left the encoding's window" in capsys.readouterr().out


def test_jobs_give_the_same_data_set_in_row_groups(tmp_path, monkeypatch):
    monkeypatch.setattr(dataset, "ROW_GROUP_BYTES", 1)  # a row group every 64 rows
    args = ["--bots", "random,greedy", "--games", "4", "--seed", "2"]
    for name in ("1", "2"):
        (tmp_path / name).mkdir()
    one = selfplay(tmp_path / "1", "novaluna", *args)
    two = selfplay(tmp_path / "2", "novaluna", *args, "--jobs", "2")
    assert one[1].equals(two[1])
    assert pq.ParquetFile(tmp_path / "2" / "games.parquet").metadata.num_row_groups > 1
    check_rows_replay_records(two[0], two[1])


def test_the_file_says_its_game_and_shapes(tmp_path):
    _, table = selfplay(tmp_path, "nmbr9", "--players", "3", "--bots", "greedy", "--games", "1")
    meta = json.loads(table.schema.metadata[b"tabletop"])
    assert meta == {
        "format": 1,
        "game": "nmbr9",
        "players": 3,
        "options": {"remove": 0},
        "actions": 4 * 40 * 40,
        "observation_size": 6 + 10 + 3 + 3 * 2 * 40 * 40,
        "reward": "zero_sum",
    }
    assert table.schema.field("observation").type.list_size == meta["observation_size"]
    assert table.num_rows == 3 * 20


def test_without_pyarrow_the_message_names_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow raises ImportError
    monkeypatch.delitem(sys.modules, "tabletop.research.dataset")
    path = tmp_path / "d.parquet"
    code = main(["novaluna", "selfplay", "--games", "1", "--dataset", str(path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "pyarrow" in err and "pip install 'tabletop[data]'" in err and "Traceback" not in err
    assert not path.exists()


def test_an_unwritable_path_fails_before_playing(tmp_path, capsys):
    path = tmp_path / "no" / "such" / "d.parquet"
    assert main(["nmbr9", "selfplay", "--games", "1", "--dataset", str(path)]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_the_loading_example_of_the_page_runs():
    page = str(Path(__file__).resolve().parents[2] / "docs" / "dataset.md")
    result = doctest.testfile(page, module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0
