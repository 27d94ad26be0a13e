"""Run the examples in the package's docstrings."""

import doctest
import importlib

import pytest

MODULES = [
    "novaluna.rules.tiles",
    "novaluna.rules.actions",
    "novaluna.rules.state",
    "novaluna.rules.view",
    "novaluna.rules",
    "novaluna.bots",
    "novaluna.bots.base",
    "novaluna.bots.explain",
    "novaluna.records",
    "novaluna.tournament",
    "novaluna.solobench",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
    assert tried > 0, f"{name} has no examples"
