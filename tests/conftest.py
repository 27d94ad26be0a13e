"""Fixtures shared by every test folder (games and platform)."""

from __future__ import annotations

import random

import pytest


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20240607)
