"""The package says it is typed (``py.typed``, PEP 561), so that a game checked against
it from outside gets its types, and ships the marker (``pyproject.toml``'s package data).
An install carrying it: ``test_lean_install.py``."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_package_has_the_py_typed_marker() -> None:
    assert (resources.files("tabletop") / "py.typed").is_file()


def test_the_package_data_ships_the_marker() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["tabletop"]


def test_mypy_is_strict_over_the_package_and_the_test_games() -> None:
    """Plain ``mypy`` (what ``make lint`` runs) checks strictly: the package and every
    game the tests host (a folder under tests/ with its own ``__init__.py``)."""
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    assert mypy["strict"] is True
    games = {p.parent.name for p in (ROOT / "tests").glob("*/gametype.py")}
    assert games, "no test game found"
    assert set(mypy["files"]) == {"src"} | {f"tests/{game}" for game in games}
