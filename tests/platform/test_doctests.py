"""Run the examples in every module's docstrings (modules are discovered, not listed)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tabletop

SKIP = {"tabletop.server.main"}  # starts nothing in examples; listed to keep discovery honest


def _modules() -> list[str]:
    names = ["tabletop"]
    for info in pkgutil.walk_packages(tabletop.__path__, "tabletop."):
        if not info.name.rsplit(".", 1)[-1].startswith("_") and info.name not in SKIP:
            names.append(info.name)
    return names


MODULES = _modules()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if name == "tabletop.research.openspiel":
        pytest.importorskip("pyspiel")  # an optional extra (open-spiel)
    if name == "tabletop.research.dataset":
        pytest.importorskip("pyarrow")  # an optional extra (data)
    module = importlib.import_module(name)
    failures, _tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_the_core_modules_have_examples():
    for name in ("tabletop.core.game", "tabletop.core.bots", "tabletop.records"):
        assert doctest.testmod(importlib.import_module(name)).attempted > 0, name
