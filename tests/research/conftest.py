"""The research tests run over every game with an encoding (``research_support``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tabletop.research import gym


@pytest.fixture(autouse=True)
def gym_ids() -> Iterator[None]:
    gym.register()  # Gymnasium ids for every solo game registered by now (the toy's too)
    yield
