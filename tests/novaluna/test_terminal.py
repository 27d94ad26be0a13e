"""Terminal play, driven through the real entry point with scripted stdin."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.cli import novaluna as main
from tabletop.console import default_save_path
from tabletop.games.novaluna.bots import make_bot
from tabletop.games.novaluna.records import replay
from tabletop.games.novaluna.rules import Game, parse_action
from tabletop.games.novaluna.terminal import render


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Records go to a temporary directory; the console is a plain 120-column one."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return tmp_path


def feed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


def first_moves(players: int, seed: int, limit: int | None = None) -> list[str]:
    """The first legal action each turn, until the game ends (or ``limit`` actions)."""
    state = Game(players=players).new_state(seed)
    moves: list[str] = []
    while not state.is_over and (limit is None or len(moves) < limit):
        action = state.legal_actions()[0]
        moves.append(str(action))
        state.apply(action)
    return moves


def greedy_moves(players: int, seed: int) -> list[str]:
    """What the greedy bot would play each turn (it ends solo phase 1 at once)."""
    state = Game(players=players).new_state(seed)
    bot = make_bot("greedy", seed)
    moves: list[str] = []
    while not state.is_over:
        action = bot.choose(state.view())
        moves.append(str(action))
        state.apply(action)
    return moves


def load(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def the_record(tmp_path: Path) -> Path:
    (path,) = tmp_path.glob("novaluna-*.json")
    return path


# -- whole games ------------------------------------------------------------------


def test_hot_seat_game_played_to_the_end(monkeypatch, capsys, tmp_path):
    moves = first_moves(2, seed=11)
    feed(monkeypatch, *moves)
    assert main(["play", "--players", "2", "--humans", "2", "--seed", "11"]) == 0
    out = capsys.readouterr().out
    assert "Result" in out and " won: " in out
    assert "Traceback" not in out and "\x1b[" not in out
    record = load(the_record(tmp_path))
    assert record["over"] is True and len(record["turns"]) >= 30
    rec = replay(record)
    assert rec.state.is_over
    assert record["result"]["ranking"][0] == rec.state.result().winner
    assert f"Record saved to {the_record(tmp_path).resolve()}" in out


class PromptFollower(io.StringIO):
    """Stdin that types the example move shown by the latest prompt."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        super().__init__()
        self.capsys = capsys
        self.transcript = ""
        self.prompts = 0

    def readline(self, *args: object) -> str:
        self.transcript += self.capsys.readouterr().out
        self.prompts += 1
        examples = re.findall(r"your move \(e\.g\. (\S+)\)", self.transcript)
        if self.prompts > 300 or not examples:
            return ""
        return examples[-1] + "\n"


def test_game_against_a_bot_typing_what_the_screen_suggests(monkeypatch, capsys, tmp_path):
    stdin = PromptFollower(capsys)
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["play", "--seed", "4", "--bots", "greedy", "--save", "game.json"]) == 0
    out = stdin.transcript + capsys.readouterr().out
    assert re.search(r"Bot greedy \(seat 2\) took the \w+ \d from space \d+ and laid it at", out)
    assert "Result" in out and "won" in out
    assert "Moon wheel" in out and "Moon track" in out and "▶ take" in out
    record = load(tmp_path / "game.json")
    assert record["players"] == ["You", "greedy"] and record["over"] is True
    assert replay(record).state.is_over


def test_solo_game_shows_phases_and_final_scores(monkeypatch, capsys, tmp_path):
    moves = greedy_moves(1, seed=6)
    assert "end" in moves
    feed(monkeypatch, *moves)
    assert main(["solo", "--seed", "6", "--save", "solo.json"]) == 0
    out = capsys.readouterr().out
    assert "Solo · phase 1" in out and "Phase-1 score now" in out
    assert "or end: close phase 1 now" in out
    assert "Solo · phase 2" in out and "total now" in out
    record = load(tmp_path / "solo.json")
    result = record["result"]
    assert "Solo result" in out and f"Final score {result['total']}" in out
    assert result["total"] == result["phase1"] + result["phase2"]
    assert replay(record).state.is_over


# -- input handling -----------------------------------------------------------------


def test_bad_input_gets_a_message_and_the_game_goes_on(monkeypatch, capsys, tmp_path):
    first = first_moves(2, seed=1, limit=1)[0]
    feed(
        monkeypatch,
        "hello",
        "\u00b2",
        "9" * 5000,
        "99@0,0",
        "3@5,5",
        "",
        "refill",
        "end",
        "2@",
        first,
    )
    assert main(["play", "--humans", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "I don't understand 'hello'" in out
    assert "'\u00b2' is not an action" in out
    assert "wheel spaces are numbered 0 to 11" in out
    assert "3@5,5: the first tile goes on cell 0,0" in out
    assert "Type a move like" in out
    assert "a refill is only allowed with 1 or 2 tiles on the wheel" in out
    assert "only the solo game has phases" in out
    assert "'2@' is not an action" in out
    assert "Traceback" not in out
    assert "End of input: game not finished" in out
    record = load(the_record(tmp_path))
    assert len(record["turns"]) == 1 and record["over"] is False


def test_help_hint_preview_moves_and_quit(monkeypatch, capsys, tmp_path):
    state = Game(players=2).new_state(2)
    example = str(state.legal_actions()[0])
    feed(monkeypatch, "help", "hint", f"preview {example}", "preview nonsense", "moves", "quit")
    assert main(["play", "--humans", "2", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "How to play" in out and "space@x,y" in out and "furthest back" in out
    assert re.search(
        r"Hint \(mcts:strong-fast bot\): \d+@-?\d+,-?\d+ — take the \w+ \d from space", out
    )
    assert f"{example}: take the" in out and "would cover" in out
    assert "✗ preview:" in out
    assert f"legal moves: {' '.join(str(a) for a in state.legal_actions())}" in out
    assert "Quit: game not finished. Record saved to" in out
    record = load(the_record(tmp_path))
    assert record["turns"] == [] and replay(record).state.turn == 0


def test_eof_mid_game_saves_a_replayable_record(monkeypatch, capsys, tmp_path):
    moves = first_moves(3, seed=8, limit=12)
    feed(monkeypatch, *moves)
    assert main(["play", "--players", "3", "--humans", "3", "--seed", "8"]) == 0
    out = capsys.readouterr().out
    path = the_record(tmp_path)
    assert re.fullmatch(r"novaluna-\d{8}-\d{6}\.json", path.name)
    assert "End of input" in out and str(path.resolve()) in out
    rec = replay(load(path))
    assert rec.state.turn == sum(1 for m in moves if "@" in m)


def test_ctrl_c_saves_and_exits_cleanly(monkeypatch, capsys, tmp_path):
    class Interrupting(io.StringIO):
        def readline(self, *args: object) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupting())
    assert main(["solo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Interrupted: game not finished" in out
    assert load(the_record(tmp_path))["over"] is False


def test_a_bare_space_number_places_the_first_tile_on_0_0(monkeypatch, capsys, tmp_path):
    state = Game(players=1).new_state(9)
    space = state.takeable_spaces()[0]
    feed(monkeypatch, str(space), str(space))
    assert main(["solo", "--seed", "9", "--save", "s.json"]) == 0
    out = capsys.readouterr().out
    assert f"You took the {render.tile_name(state.wheel[space])} from space {space}" in out
    assert "Where should it go? Type" in out  # the second time there are four free cells
    assert load(tmp_path / "s.json")["turns"][0]["cell"] == [0, 0]


# -- options ----------------------------------------------------------------------


def test_unknown_bot_is_exit_status_2(monkeypatch, capsys, tmp_path):
    feed(monkeypatch)
    assert main(["play", "--bots", "greedy,nobody"]) == 2
    err = capsys.readouterr().err
    assert "unknown bot 'nobody'" in err and "greedy" in err
    assert not list(tmp_path.glob("*.json"))


def test_more_humans_than_players_is_exit_status_2(monkeypatch, capsys):
    assert main(["play", "--players", "2", "--humans", "3"]) == 2
    assert "--humans 3 is more than --players 2" in capsys.readouterr().err


def test_unwritable_save_path_is_exit_status_2(monkeypatch, capsys, tmp_path):
    assert main(["solo", "--save", str(tmp_path / "missing" / "x.json")]) == 2
    assert "cannot write the record" in capsys.readouterr().err


def test_default_save_path_never_overwrites(tmp_path):
    first = default_save_path("novaluna")
    first.write_text("{}")
    assert default_save_path("novaluna") != first


def test_runs_as_a_program_with_piped_stdin(tmp_path):
    moves = first_moves(2, seed=5, limit=4)
    script = "hint\nhelp\n" + "".join(f"{m}\n" for m in moves)
    done = subprocess.run(
        [sys.executable, "-m", "tabletop.cli", "novaluna", "play", "--humans", "2", "--seed", "5"],
        input=script,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Hint (mcts:strong-fast bot)" in done.stdout and "How to play" in done.stdout
    assert "Traceback" not in done.stderr
    record = load(the_record(tmp_path))
    assert len(record["turns"]) == sum(1 for m in moves if "@" in m)
    replay(record)


# -- rendering ----------------------------------------------------------------------


def test_task_letters_and_tile_names():
    assert render.task_text({"yellow": 1, "blue": 2}).plain == "BBY"
    assert render.tile_name(17) == "red 7"


def test_board_marks_takeable_spaces_and_covered_tasks():
    from rich.console import Console

    state = Game(players=1).new_state(0)
    for _ in range(40):
        if state.is_over or state.discs_placed(0):
            break
        state.apply(state.legal_actions()[-1])
    console = Console(width=160, record=True, file=io.StringIO())
    console.print(render.board(state, ["You"], width=160, header=render.Text("x")))
    text = console.export_text()
    assert text.count("▶ take") == len(state.takeable_spaces())
    assert "☾ meeple" in text
    assert ("●" in text) == (state.discs_placed(0) > 0)
    for x, y in state.legal_cells():
        assert f"{x},{y}" in text
    parse_action(render.example_move(state))
