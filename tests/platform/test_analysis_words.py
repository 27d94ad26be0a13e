"""The terminal's analysis as people read it (issue 44): moves in the game's words,
counts by the plural rules, a table nobody cuts when piped, a loss marked as it is
shown, and docs whose thresholds are the code's."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tabletop.analysis import analyse, judged_move
from tabletop.analysis.command import analyse_file
from tabletop.analysis.render import render, seat_summary
from tabletop.core.analysis import Scale
from tabletop.games.nmbr9 import analysis as nmbr9_analysis
from tabletop.games.nmbr9.bots.compiled import KERNEL
from tabletop.games.nmbr9.gametype import GAME as NMBR9
from tabletop.games.novaluna import analysis as nova_analysis
from tabletop.games.novaluna.gametype import GAME as NOVA
from tabletop.harness.selfplay import play_game
from tabletop.i18n import catalogue, placeholders

DOCS = Path(__file__).resolve().parents[2] / "docs"
NOTATION = re.compile(r"\br\d@-?\d+,-?\d+|\b\d+@-?\d+,-?\d+")
needs_kernel = pytest.mark.skipif(
    not KERNEL.built, reason="NMBR 9's analysis needs its compiled kernel"
)


@pytest.fixture(scope="module")
def nmbr9_game() -> dict[str, Any]:
    """A greedy solo game of NMBR 9 analysed at a tiny budget (it has blunders)."""
    return analyse(NMBR9, play_game(NMBR9, ["greedy"], seed=2), budget=4).to_json()


def _text(renderable: Any, width: int = 200) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


@needs_kernel
def test_nmbr9_moves_are_in_the_words_of_its_log(nmbr9_game: dict[str, Any]) -> None:
    shown = _text(render(nmbr9_game))
    assert not NOTATION.search(shown), shown
    assert "round 5" in shown
    assert re.search(r"the \d at column −?\d+, row −?\d+, level \d, turned (90|180|270)°", shown)
    move = nmbr9_game["seats"][0]["moves"][4]
    assert move["label_words"] == {"key": "round {n}", "args": {"n": 5}}
    assert move["played_words"]["args"]["card"] == move["card"]


def test_nova_luna_moves_are_in_the_words_of_its_log() -> None:
    record = play_game(NOVA, ["greedy", "greedy"], seed=1)
    shown = _text(render(analyse(NOVA, record, budget=8).to_json()))
    assert not NOTATION.search(shown), shown
    assert "turn 3" in shown and "a refill of the wheel" in shown
    assert re.search(r"the (red|blue|cyan|yellow) \d+, laid (right|left) of the", shown)
    assert nova_analysis.COLOURS.keys() == {"red", "blue", "cyan", "yellow"}


def test_counts_follow_the_plural_rule() -> None:
    scale = nmbr9_analysis.SCALE
    seat = {"name": "Ann", "accuracy": 80.0, "average_loss": 2.0, "inaccuracies": 1}
    seat.update(mistakes=1, blunders=2, moves=[], costliest=[])
    line = seat_summary(seat, scale).plain
    assert "1 inaccuracy, 1 mistake, 2 blunders" in line
    seat.update(inaccuracies=0, mistakes=3, blunders=1)
    assert "0 inaccuracies, 3 mistakes, 1 blunder" in seat_summary(seat, scale).plain


@needs_kernel
def test_the_table_is_whole_when_piped(
    nmbr9_game: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Piped (here: captured), rich would take 80 columns and cut the marks."""
    monkeypatch.delenv("COLUMNS", raising=False)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(play_game(NMBR9, ["greedy"], seed=2)))
    assert analyse_file(NMBR9, str(path), 4, 0, False, 1) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    marks = [m["mark"] for m in nmbr9_game["seats"][0]["moves"] if m["mark"]]
    assert marks and out.count("?? blunder") == marks.count("blunder")
    assert "value played (points)" in out


def test_a_loss_shown_as_the_threshold_carries_its_mark() -> None:
    """0.0496 reads "5%": it is marked as 5 % is; 0.0449 reads "4%" and is not."""
    share = nova_analysis.STANDARD_SCALE
    near = judged_move(0, "a", "b", 0.5, 0.5496, 0.0, share)
    assert share.format(near.loss) == "5%" and near.mark == "inaccuracy"
    below = judged_move(1, "a", "b", 0.5, 0.5449, 0.0, share)
    assert share.format(below.loss) == "4%" and below.mark is None
    points = nmbr9_analysis.SCALE
    for loss in (2.949, 2.95, 2.96, 5.96, 11.951):
        move = judged_move(2, "a", "b", 80.0, 80.0 + loss, 0.0, points)
        shown = float(points.format(move.loss))
        assert move.mark == points.mark(shown), (loss, move)


def _nmbr9_doc_table() -> dict[str, float]:
    text = (DOCS / "analysis-nmbr9.md").read_text()
    rows = re.findall(r"^\| (inaccuracy|mistake|blunder) \S+\s*\| (\d+) points \|", text, re.M)
    return {mark: float(loss) for mark, loss in rows}


def _scale_of_docs_example() -> dict[str, Any]:
    text = (DOCS / "analysis.md").read_text()
    found = re.search(r'"scale": (\{.*?"higher_is_better": \w+\})', text, re.S)
    assert found, "docs/analysis.md shows no scale"
    scale: dict[str, Any] = json.loads(found[1])
    return scale


def _thresholds(scale: Scale) -> dict[str, float]:
    return {"inaccuracy": scale.inaccuracy, "mistake": scale.mistake, "blunder": scale.blunder}


def test_the_docs_show_the_thresholds_of_the_code() -> None:
    scale = nmbr9_analysis.SCALE
    assert _scale_of_docs_example() == scale.to_json()
    assert _nmbr9_doc_table() == _thresholds(scale)
    assert f"exp(−loss / {scale.accuracy:g})" in (DOCS / "analysis-nmbr9.md").read_text()
    nova = (DOCS / "analysis-novaluna.md").read_text()
    standard, solo = nova_analysis.STANDARD_SCALE, nova_analysis.SOLO_SCALE
    row = "| 2–4 players | chance to win | {:.0%} | {:.0%} | {:.0%} | {:g} |"
    assert row.format(*_thresholds(standard).values(), standard.accuracy).replace("%", " %") in nova
    row = "| solo | points | {:g} | {:g} | {:g} | {:g} |"
    assert row.format(*_thresholds(solo).values(), solo.accuracy) in nova


def _parts(part: Any) -> Iterator[dict[str, Any]]:
    """A part and every part among its arguments."""
    if isinstance(part, dict) and "key" in part:
        yield part
        for value in part["args"].values():
            yield from _parts(value)


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_every_word_of_a_move_is_translated_with_its_placeholders_filled(lang: str) -> None:
    """The page translates a move's parts: each msgid has a translation, and each of its
    placeholders an argument (German and Dutch; NMBR 9 without its kernel is skipped)."""
    messages = catalogue(lang)["messages"]
    games = [analyse(NOVA, play_game(NOVA, ["greedy", "greedy"], seed=1), budget=8)]
    if KERNEL.built:
        games.append(analyse(NMBR9, play_game(NMBR9, ["greedy"], seed=2), budget=4))
    for report in games:
        for move in (m for seat in report.to_json()["seats"] for m in seat["moves"]):
            for key in ("played_words", "best_words", "label_words"):
                for part in _parts(move[key]):
                    assert part["key"] in messages, part["key"]
                    assert placeholders(part["key"]) == set(part["args"]), part
