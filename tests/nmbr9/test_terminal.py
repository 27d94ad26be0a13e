"""Terminal play (``nmbr9 play``), driven through the real entry point with scripted stdin."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from tabletop.cli import nmbr9 as main
from tabletop.games.nmbr9.bots import HINT_BOT, make_bot
from tabletop.games.nmbr9.records import Recorder, replay
from tabletop.games.nmbr9.rules import FULL_DECK, Board, Game, parse_action
from tabletop.games.nmbr9.terminal import render
from tabletop.games.nmbr9.terminal.app import Seat, Session


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Records go to a temporary directory; the console is a plain 120-column one."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return tmp_path


def feed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


def first_moves(seed: int, *, remove: int = 0, limit: int | None = None) -> list[str]:
    """The first legal placement each round of a solo game, until it ends."""
    state = Game(players=1, remove=remove).new_state(seed)
    moves: list[str] = []
    while not state.is_over and (limit is None or len(moves) < limit):
        action = state.legal_actions(0)[0]
        moves.append(str(action))
        state.apply(action)
    return moves


def load(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def the_record(tmp_path: Path) -> Path:
    (path,) = tmp_path.glob("nmbr9-*.json")
    return path


def screens(out: str, label: str) -> list[str]:
    """The screens drawn for ``label``: from each header naming it to its next prompt."""
    found = []
    for match in re.finditer(rf"NMBR 9 · round \d+ of \d+ · card\s+\d\s+· to place: {label}", out):
        end = out.index(f"{label} ▸ place the", match.end())
        found.append(out[match.start() : end])
    return found


class PromptFollower(io.StringIO):
    """Stdin that types the example placement shown by the latest prompt."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        super().__init__()
        self.capsys = capsys
        self.transcript = ""
        self.prompts = 0

    def readline(self, *args: object) -> str:
        self.transcript += self.capsys.readouterr().out
        self.prompts += 1
        examples = re.findall(r"▸ place the \d \(e\.g\. (\S+)\)", self.transcript)
        if self.prompts > 100 or not examples:
            return ""
        return examples[-1] + "\n"


# -- whole games ------------------------------------------------------------------


def test_solo_game_played_to_the_end(monkeypatch, capsys, tmp_path):
    moves = first_moves(seed=3)
    feed(monkeypatch, *moves)
    assert main(["play", "--seed", "3", "--save", "solo.json"]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out and "\x1b[" not in out
    assert "NMBR 9 · solo game · seed 3 · 20 rounds" in out
    assert "NMBR 9 · round 20 of 20" in out and "Final boards" in out
    record = load(tmp_path / "solo.json")
    assert record["over"] is True and len(record["rounds"]) == 20
    rec = replay(record)
    score = rec.state.boards[0].score
    assert re.search(rf"Solo score {score} — a good game", out)
    assert re.search(r"Round 20 · card\s+\d\s+— You: r\d@-?\d+,-?\d+ on ", out)
    assert "stays hidden" not in out  # nobody else to hide it from
    where = str((tmp_path / "solo.json").resolve())
    assert f"Record saved to {where}" in out and f"Check it with: nmbr9 replay {where}" in out


def test_game_against_a_bot_typing_what_the_screen_suggests(monkeypatch, capsys, tmp_path):
    stdin = PromptFollower(capsys)
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["play", "--players", "2", "--seed", "4", "--save", "game.json"]) == 0
    out = stdin.transcript + capsys.readouterr().out
    assert "Traceback" not in out and "\x1b[" not in out
    assert re.search(r"what everybody did:\n  • You: r\d@-?\d+,-?\d+ on .*\n  • Bot greedy", out)
    assert re.search(
        r"• Bot greedy \(seat 2\): r\d@-?\d+,-?\d+ on (the table|level \d), \+\d+", out
    )
    assert "Other boards (after round 19):" in out and "Result" in out
    record = load(tmp_path / "game.json")
    assert record["players"] == ["You", "greedy"] and record["over"] is True
    assert replay(record).state.is_over
    ranks = record["result"]["ranks"]
    assert re.search(rf"│\s+{ranks[1]} │ Bot greedy \(seat 2\)", out)
    # the bot was seeded from the game's seed (seed * 10 + seat): the seed replays the game
    state = Game(players=2).new_state(4)
    bot = make_bot("greedy", 4 * 10 + 1)
    for entry in record["rounds"]:
        mine = entry["placements"][1]
        assert str(bot.choose(state.view(1))) == f"r{mine['rotation']}@{mine['x']},{mine['y']}"
        for seat, p in enumerate(entry["placements"]):
            state.apply(parse_action(f"r{p['rotation']}@{p['x']},{p['y']}"), seat)


def test_hot_seat_never_shows_the_first_players_pending_tile(monkeypatch, capsys, tmp_path):
    state = Game(players=2).new_state(6)
    state.apply(parse_action("r0@0,0"), 0)
    state.apply(parse_action("r0@0,0"), 1)
    after_round_1 = Board.from_tiles(state.boards[0].tiles)
    pending = state.legal_actions(0)[0]
    state.apply(pending, 0)
    with_pending = state.boards[0]
    feed(monkeypatch, "r0@0,0", "r0@0,0", str(pending))
    assert main(["play", "--players", "2", "--humans", "2", "--seed", "6"]) == 0
    out = capsys.readouterr().out
    assert f"✓ Player 1 placed the {state.card} at {pending}" in out
    first, second = screens(out, "Player 2")
    # round 1: Player 1 has placed, but Player 2 sees an empty board
    assert "Player 1 · 0 points · 0 tiles" in first
    assert "this round: ✓ placed (hidden for now)" in first
    # round 2: Player 2 sees Player 1's board as it was after round 1, drawn exactly so
    assert "Player 1 · 0 points · 1 tile" in second and "2 tiles" not in second

    def drawing(board: Board) -> list[str]:
        return [line.plain.rstrip() for line in render.compact_lines(board)[1:]]

    assert all(line in second for line in drawing(after_round_1))
    assert not all(line in second for line in drawing(with_pending))
    assert "Round 1 · card" in second  # the resolved round is summarised for everybody
    assert "End of input: game not finished (1 round of 20 played)" in out
    assert len(load(the_record(tmp_path))["rounds"]) == 2


def test_equal_totals_share_the_rank(monkeypatch, capsys, tmp_path):
    moves = [m for m in first_moves(seed=7, remove=15) for _ in range(2)]  # both the same
    feed(monkeypatch, *moves)
    args = ["play", "--players", "2", "--humans", "2", "--seed", "7", "--remove", "15"]
    assert main([*args, "--save", "tie.json"]) == 0
    out = capsys.readouterr().out
    assert "Player 1 and Player 2 share first place with 0 points." in out
    assert re.search(r"│\s+1 │ Player 1 .*\n│\s+1 │ Player 2 ", out)
    assert load(tmp_path / "tie.json")["result"]["ranks"] == [1, 1]


def test_hot_seat_on_a_terminal_clears_the_screen_between_players(monkeypatch, tmp_path):
    feed(monkeypatch, "", "r0@0,0", "", "", "r0@0,0")
    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    rec = Recorder.new(Game(players=2), ["Player 1", "Player 2"], seed=2)
    seats = [Seat("Player 1", "Player 1"), Seat("Player 2", "Player 2")]
    assert Session(console, rec, seats, tmp_path / "hot.json").run() == 0
    out = console.file.getvalue()
    ready = "your turn in round {}. Press Enter when the others are not looking"
    assert "Player 1" in out and ready.format(1) in out and ready.format(2) in out
    assert "Press Enter to hide your board and pass on" in out
    assert out.count("\x1b[2J") >= 4  # before each player's prompt and each board
    assert "End of input" in out
    assert len(load(tmp_path / "hot.json")["rounds"]) == 1


# -- input handling -----------------------------------------------------------------


def test_bad_input_gets_a_message_and_a_new_prompt(monkeypatch, capsys, tmp_path):
    first = first_moves(seed=1, limit=1)[0]
    bad = ["r0@30,30", "preview r0@30,30", "3,4", "preview"]
    feed(monkeypatch, "hello", "r7@0,0", "", first, *bad)
    assert main(["play", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "✗ I don't understand 'hello'. Type a placement like" in out
    assert "'r7@0,0': the rotation is 0, 1, 2 or 3" in out
    assert "Type a placement like r0@0,0, or help." in out
    rule = "does not touch your tiles on the table: a tile on a level with tiles must share"
    assert f"✗ r0@30,30 {rule}" in out
    assert f"✗ preview: r0@30,30 {rule}" in out
    assert "✗ '3,4' is not a placement: write r<rotation>@x,y" in out
    assert "✗ preview needs a placement, e.g. preview r" in out
    assert out.count("You ▸ place the") == 9  # a new prompt after every line
    assert "Traceback" not in out
    assert "End of input: game not finished (1 round of 20 played)" in out
    record = load(the_record(tmp_path))
    assert len(record["rounds"]) == 1 and record["over"] is False


def test_a_tile_on_a_single_tile_is_refused_with_the_rule(monkeypatch, capsys, tmp_path):
    state = Game(players=1).new_state(deck=(9, 9) + FULL_DECK[:18])
    assert state.card == 9
    feed(monkeypatch, "r0@0,0", "preview r0@0,0", "r0@0,0")
    rec = Recorder(state, ["You"], seed=None)
    console = Console(file=io.StringIO(), width=120)
    assert Session(console, rec, [Seat("You", "You")], tmp_path / "one.json").run() == 0
    out = console.file.getvalue()
    assert "✗ preview: r0@0,0 would rest on the 9 at 0,0 alone" in out
    assert "✗ r0@0,0 would rest on the 9 at 0,0 alone: a tile above the table must rest" in out


def test_help_moves_preview_board_hint_and_quit(monkeypatch, capsys, tmp_path):
    state = Game(players=1).new_state(seed=2)
    for _ in range(4):
        state.apply(state.legal_actions(0)[0])
    legal = state.view(0).legal_with_levels()
    top = max(level for _, level in legal)
    example = next(str(p) for p, level in legal if level == top)
    feed(
        monkeypatch,
        *first_moves(seed=2, limit=4),
        "help",
        "moves",
        f"preview {example}",
        "board",
        "hint",
        "cards",
        "quit",
    )
    assert main(["play", "--seed", "2", "--save", "q.json"]) == 0
    out = capsys.readouterr().out
    assert "NMBR 9 in short" in out and "Notation" in out and "at least two different tiles" in out
    assert f"{len(legal)} legal placements of the {state.card}:" in out
    assert f"{len(legal)} legal placements · highest level now: {top}" in out
    assert f"e.g. {example} lies" in out and f"(e.g. {example})" in out
    assert f"Preview of {example} (nothing placed yet)" in out
    assert f"{example}: the {state.card} would lie {render.where(top)}" in out
    assert re.search(rf"\+{state.card}{render.level_mark(top) or ' '}", out)  # the marked tile
    assert out.count("NMBR 9 · round 5 of 20") == 2  # "board" draws the screen again
    assert re.search(rf"Hint \({re.escape(HINT_BOT)} bot\): r\d@-?\d+,-?\d+ — ", out)
    assert out.count("Still to come:") == 7  # five screens, "board" and "cards"
    assert "Quit: game not finished (4 rounds of 20 played)" in out
    record = load(tmp_path / "q.json")
    assert record["over"] is False and len(record["rounds"]) == 4
    rec = replay(record)
    assert rec.state.round == 4 and not rec.state.is_over
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "q.json")]) == 0  # as the screen suggests
    assert "unfinished after 4 rounds of 20" in capsys.readouterr().out


def test_end_of_input_at_the_first_prompt_ends_cleanly(monkeypatch, capsys, tmp_path):
    feed(monkeypatch)
    assert main(["play", "--players", "3", "--bots", "greedy,random", "--seed", "9"]) == 0
    out = capsys.readouterr().out
    path = the_record(tmp_path)
    assert re.fullmatch(r"nmbr9-\d{8}-\d{6}\.json", path.name)
    assert "End of input: game not finished (0 rounds of 20 played)" in out
    # the console wraps the line at a space where the path is long (a worker of pytest -n
    # has a longer temporary folder)
    assert f"Check it with: nmbr9 replay {path.resolve()}" in " ".join(out.split())
    record = load(path)
    assert record["players"] == ["You", "greedy", "random"]
    replay(record)  # the bots' placements of round 1 are in it; the record is still valid


def test_ctrl_c_saves_and_exits_cleanly(monkeypatch, capsys, tmp_path):
    class Interrupting(io.StringIO):
        def readline(self, *args: object) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupting())
    assert main(["play", "--seed", "3"]) == 0
    assert "Interrupted: game not finished" in capsys.readouterr().out
    assert load(the_record(tmp_path))["over"] is False


def test_remove_2_plays_18_rounds(monkeypatch, capsys, tmp_path):
    moves = first_moves(seed=5, remove=2)
    assert len(moves) == 18
    feed(monkeypatch, *moves)
    assert main(["play", "--seed", "5", "--remove", "2", "--save", "r.json"]) == 0
    out = capsys.readouterr().out
    assert "18 rounds · 2 cards removed unseen" in out
    assert "NMBR 9 · round 18 of 18" in out and "round 19" not in out
    assert "2 of the 19 cards still face down are removed unseen and will never be turned" in out
    record = load(tmp_path / "r.json")
    assert record["removed"] == 2 and len(record["rounds"]) == 18 and record["over"] is True
    assert replay(record).state.is_over


# -- options ----------------------------------------------------------------------


def test_unknown_bot_is_exit_status_2(monkeypatch, capsys, tmp_path):
    feed(monkeypatch)
    assert main(["play", "--players", "2", "--bots", "greedy,nobody"]) == 2
    err = capsys.readouterr().err
    assert "unknown bot 'nobody'" in err and "greedy" in err
    assert not list(tmp_path.glob("*.json"))


def test_more_humans_than_players_is_exit_status_2(capsys):
    assert main(["play", "--players", "2", "--humans", "3"]) == 2
    assert "--humans 3 is more than --players 2" in capsys.readouterr().err


def test_unwritable_save_path_is_exit_status_2(capsys, tmp_path):
    assert main(["play", "--save", str(tmp_path / "missing" / "x.json")]) == 2
    assert "cannot write the record" in capsys.readouterr().err


def test_runs_as_a_program_with_piped_stdin(tmp_path):
    state = Game(players=2).new_state(5)
    bot = make_bot("greedy", 51)
    moves = []
    for _ in range(3):
        state.apply(bot.choose(state.view(1)), 1)
        moves.append(str(state.legal_actions(0)[0]))
        state.apply(state.legal_actions(0)[0], 0)
    script = "hint\nhelp\n" + "".join(f"{m}\n" for m in moves)
    done = subprocess.run(
        [sys.executable, "-m", "tabletop.cli", "nmbr9", "play", "--players", "2", "--seed", "5"],
        input=script,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert f"Hint ({HINT_BOT} bot)" in done.stdout and "NMBR 9 in short" in done.stdout
    assert "\x1b[" not in done.stdout and "Traceback" not in done.stderr
    assert "End of input: game not finished (3 rounds of 20 played)" in done.stdout
    record = load(the_record(tmp_path))
    assert len(record["rounds"]) == 4  # the bot has placed its tile of round 4
    assert record["rounds"][3]["placements"][0] is None
    assert replay(record).state.boards[1].tiles[:3] == state.boards[1].tiles


# -- rendering ----------------------------------------------------------------------


def test_large_board_shows_digits_levels_lines_and_coordinates():
    board = Board()
    board.place(9, 0, 0, 0)
    board.place(9, 0, 3, 0)
    board.place(5, 3, 0, 0)
    lines = [line.plain for line in render.board_lines(board)]
    text = "\n".join(lines)
    assert lines[0].split() == [str(x) for x in range(-2, 8)]  # x across the top ...
    assert lines[-1].split() == lines[0].split()  # ... and the bottom
    row0 = next(line for line in lines if line.startswith("  0 "))
    assert row0 == "  0   ·   · │ 5¹  5¹  5¹  5¹│ 9   9 │ ·   ·   0"
    assert "┌" in text and "┘" in text and "-2" in lines[2]  # y down both sides
    assert render.large_width(board) == max(len(line) for line in lines)
    table = render.level_table(board).plain.splitlines()
    assert table[0].split() == ["level", "0", "1", "total"]
    assert table[2].split() == ["points", "0", "5", "5"]


def test_neighbouring_tiles_of_a_level_get_different_tones():
    board = Board()
    board.place(9, 0, 0, 0)
    board.place(9, 0, 3, 0)
    board.place(9, 0, 6, 0)
    board.place(1, 1, 0, 4)  # under the first 9 only: touches it
    assert render.tile_tones(board)[:3] == [0, 1, 0]
    assert render.level_style(0, 0) != render.level_style(0, 1)
    assert render.level_style(1) != render.level_style(2)


def test_tile_panel_of_a_0_says_r2_and_r3_repeat_r0_and_r1():
    deck = (0,) + tuple(d for d in FULL_DECK if d != 0) + (0,)
    view = Game(players=1).new_state(deck=deck).view(0)
    console = Console(file=io.StringIO(), width=120)
    console.print(render.tile_panel(view))
    text = console.file.getvalue()
    assert "r0 = r2" in text and "r1 = r3" in text and "r2 and r3 of the 0 are the same" in text
    assert "██" in text and "anywhere" in text
    parse_action(str(render.example_move(view)))


def test_analyse_after_the_game_shows_every_move_judged(monkeypatch, capsys, tmp_path):
    """Typing analyse at the last prompt prints the table of ``nmbr9 analyse``."""
    from tabletop.games.nmbr9 import analysis

    monkeypatch.setattr(analysis.ANALYSER, "default_budget", 4)  # the table, not its depth
    feed(monkeypatch, *first_moves(seed=3), "analyse")
    assert main(["play", "--seed", "3", "--save", "solo.json"]) == 0
    out = capsys.readouterr().out
    assert "Type analyse to see every move judged" in out
    assert "value played" in out and "accuracy" in out and "With hindsight" in out
    assert "Traceback" not in out
