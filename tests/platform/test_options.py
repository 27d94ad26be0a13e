"""A variant option declared once (``tabletop.core.options``): the page's field, the
check with its translated errors, and the command-line flag read back, all from one
``Option``; the shipped games' page fields are what lobby.js reads."""

from __future__ import annotations

import argparse

import pytest

from tabletop.core.errors import OptionsError
from tabletop.core.game import get_game
from tabletop.core.options import (
    NOT_A_BOOL,
    NOT_A_CHOICE,
    NOT_AN_OBJECT,
    NOT_IN_RANGE,
    OLD_NAME_DIFFERS,
    TOO_FEW_SEATS,
    UNKNOWN,
    Choice,
    Option,
    add_flags,
    check_declared,
    read_flags,
)
from tabletop.i18n import translate

SWITCH = Option("fast", "Fast game", default=False, min_seats=2, flag="--fast", help="quicker")
SPEED = Option(
    "speed",
    "Speed",
    default="normal",
    choices=(Choice("slow", "slow"), Choice("normal", "normal"), Choice(3, "three")),
    flag="--speed",
)
CARDS = Option(
    "cards",
    "Cards left out",
    default=0,
    choices=(Choice(0, "none"), Choice("random", "some")),
    most=9,
    old_names=("removed",),
    flag="--cards",
    metavar="K",
)
DECLARED = (SWITCH, SPEED, CARDS)


def _refusal(options: object, players: int | None = 4) -> OptionsError:
    with pytest.raises(OptionsError) as refused:
        check_declared(DECLARED, options, players)
    return refused.value


def test_the_page_fields_are_the_ones_lobby_js_reads() -> None:
    assert SWITCH.page_field() == {
        "name": "fast",
        "label": "Fast game",
        "type": "bool",
        "default": False,
        "min_seats": 2,
    }
    assert CARDS.page_field() == {
        "name": "cards",
        "label": "Cards left out",
        "type": "choice",
        "default": 0,
        "choices": [{"value": 0, "label": "none"}, {"value": "random", "label": "some"}],
        "max": 9,
    }


def test_the_shipped_games_offer_the_fields_they_always_offered() -> None:
    (first_game,) = get_game("nova-luna").option_fields
    assert first_game == {
        "name": "first_game",
        "label": "First game (fewer discs to place)",
        "type": "bool",
        "default": False,
        "min_seats": 2,
    }
    remove, time_limit = get_game("nmbr9").option_fields
    assert remove["type"] == "choice" and remove["default"] == 0
    assert [c["value"] for c in remove["choices"]] == [0, "random"]
    # server/setup.py reads the game's own move clock from this field
    assert time_limit["name"] == "time_limit" and time_limit["max"] == 3600
    assert [c["value"] for c in time_limit["choices"]] == [0, 30, 60, 120]


def test_a_check_fills_in_defaults_and_keeps_what_is_given() -> None:
    assert check_declared(DECLARED, {}) == {"fast": False, "speed": "normal", "cards": 0}
    given = {"fast": True, "speed": 3, "cards": 7}
    assert check_declared(DECLARED, given, players=2) == given
    assert check_declared(DECLARED, {"cards": "random"})["cards"] == "random"
    assert check_declared(DECLARED, {"removed": 4})["cards"] == 4  # its old name


@pytest.mark.parametrize(
    ("options", "key", "args"),
    [
        ([], NOT_AN_OBJECT, {}),
        ({"fast": True, "slow": 1, "a": 2}, UNKNOWN, {"names": "a, slow"}),
        ({"fast": 1}, NOT_A_BOOL, {"name": "fast"}),
        ({"speed": "fast"}, NOT_A_CHOICE, {"name": "speed", "choices": "slow, normal, 3"}),
        ({"speed": True}, NOT_A_CHOICE, {"name": "speed", "choices": "slow, normal, 3"}),
        ({"cards": 10}, NOT_IN_RANGE, {"name": "cards", "most": 9, "choices": "0, random"}),
        ({"cards": 2, "removed": 3}, OLD_NAME_DIFFERS, {"old": "removed", "name": "cards"}),
    ],
)
def test_a_check_refuses_with_a_translated_reason(options: object, key: str, args: dict) -> None:
    refused = _refusal(options)
    assert refused.key == key and refused.params == args
    assert translate("de", key) != key  # the catalogue has it


def test_an_option_that_needs_more_seats_is_refused_only_when_set() -> None:
    assert check_declared(DECLARED, {"fast": False}, players=1)["fast"] is False
    refused = _refusal({"fast": True}, players=1)
    assert refused.key == TOO_FEW_SEATS and refused.params == {"name": "fast", "least": 2}
    assert str(refused) == "'fast' is for 2 seats or more"


def test_a_game_keeps_its_own_wording_for_a_value_it_does_not_take() -> None:
    with pytest.raises(OptionsError) as refused:
        get_game("nmbr9").check_options({"remove": 20}, 2)
    assert str(refused.value) == "'remove' is 0 to 19 cards, or \"random\""
    with pytest.raises(OptionsError) as refused:
        get_game("nmbr9").check_options({"time_limit": 30, "clock": 60}, 2)
    assert str(refused.value) == "'clock' is the old name of 'time_limit': give one of them"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_flags(parser, DECLARED)
    return parser


@pytest.mark.parametrize(
    ("argv", "read"),
    [
        ([], {"fast": False, "speed": "normal", "cards": 0}),
        (["--fast", "--speed", "SLOW", "--cards", "Random"], {"speed": "slow", "cards": "random"}),
        (["--speed", "3", "--cards", "9"], {"speed": 3, "cards": 9}),
    ],
)
def test_a_flag_reads_back_as_the_option_it_declares(argv: list[str], read: dict) -> None:
    options = read_flags(_parser().parse_args(argv), DECLARED)
    assert options == {"fast": "--fast" in argv, "speed": "normal", "cards": 0, **read}
    assert check_declared(DECLARED, options) == options


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--speed", "fast"], "--speed takes 'slow' or 'normal' or 3, not 'fast'"),
        (["--cards", "12"], "--cards takes 0 to 9 or 'random', not '12'"),
    ],
)
def test_a_flag_refuses_a_value_the_option_does_not_take(argv: list[str], message: str) -> None:
    with pytest.raises(argparse.ArgumentError, match=message):
        _parser().parse_args(argv)


def test_an_option_without_a_flag_stays_off_the_command_line() -> None:
    clock = Option("clock", "Clock", default=0, choices=(Choice(0, "none"), Choice(30, "30 s")))
    parser = argparse.ArgumentParser()
    add_flags(parser, (clock,))
    assert read_flags(parser.parse_args([]), (clock,)) == {}
    assert "clock" not in parser.format_help()


@pytest.mark.parametrize(
    "declare",
    [
        lambda: Option("x", "X", default=0),  # a switch defaults to True or False
        lambda: Option("x", "X", default=5, choices=(Choice(0, "none"),)),  # not a choice
    ],
)
def test_a_declaration_that_contradicts_itself_is_refused(declare) -> None:
    with pytest.raises(ValueError):
        declare()
