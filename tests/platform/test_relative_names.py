"""A game names its parts relative to its own package (``research = ".encoding:..."``)
and is registered by its package's name: its folder moves, or is copied under another
name, without an edit. Absolute ``"module:attribute"`` names keep working."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop.core import game as registry
from tabletop.core.game import get_game, load_target

TOYGAME = Path(__file__).resolve().parents[1] / "toygame"


def test_a_target_is_a_package_an_absolute_or_a_relative_name() -> None:
    shipped = get_game("nmbr9")
    assert load_target("tabletop.games.nmbr9") is shipped  # its gametype:GAME
    assert load_target("tabletop.games.nmbr9.gametype:GAME") is shipped
    assert load_target(".nmbr9.gametype:GAME", "tabletop.games") is shipped
    assert shipped.package == "tabletop.games.nmbr9"
    assert shipped.research is not None and shipped.research.startswith(".")
    with pytest.raises(ValueError, match="relative"):
        load_target(".encoding:ENCODING")


@pytest.fixture
def moved_toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Toy Draft's folder copied to another package, ``movedtoy``, and registered as
    ``moved`` by that package's name alone."""
    shutil.copytree(TOYGAME, tmp_path / "movedtoy", ignore=shutil.ignore_patterns("test_*"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry._REGISTRY, "moved", "movedtoy")
    try:
        yield "moved"
    finally:
        registry._LOADED.pop("moved", None)
        for module in [m for m in sys.modules if m.partition(".")[0] == "movedtoy"]:
            del sys.modules[module]


def test_a_moved_game_folder_finds_its_parts_where_it_now_lies(moved_toy: str) -> None:
    moved = get_game(moved_toy)
    assert type(moved).__module__ == "movedtoy.gametype" and moved.package == "movedtoy"
    analyser = moved.analyser()
    assert analyser is not None and type(analyser).__module__ == "movedtoy.analysis"
    pytest.importorskip("numpy")  # the research encoding is the optional extra's
    from tabletop.research.encoding import encoding

    assert type(encoding(moved_toy)).__module__ == "movedtoy.encoding"
    assert type(encoding("toy")).__module__ == "toygame.encoding"  # each its own
