"""The research tests run over every game with an encoding and a toy third game
(``research_toy_support``), hosted for each test and taken away after it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import research_toy_support as toy
from tabletop.core import game as core_game
from tabletop.research import gym


@pytest.fixture(autouse=True)
def research_toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # register_game has no inverse (games are registered for good); the test restores
    # the registry itself so that no other test meets a game without the platform's hooks
    monkeypatch.setitem(core_game._REGISTRY, toy.NAME, toy.TARGET)
    gym.register()
    yield
    core_game._LOADED.pop(toy.NAME, None)
