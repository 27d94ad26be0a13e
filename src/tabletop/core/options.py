"""A game's variant options, each declared once: the page's field, the check, the flag.

A game lists its options as ``Option`` values (``GameType.declared_options``); the
platform derives from them what the page offers (``page_field``), how a request's or
a record's options are checked and normalised (``check_declared``), and the command
line's flag and how it is read back (``add_flags``, ``read_flags``).

>>> first_game = Option("first_game", "First game", default=False, flag="--first-game")
>>> first_game.kind, first_game.page_field()["type"]
('bool', 'bool')
>>> check_declared((first_game,), {})
{'first_game': False}
>>> check_declared((first_game,), {"first_game": "yes"})
Traceback (most recent call last):
...
tabletop.core.errors.OptionsError: 'first_game' must be true or false
>>> remove = Option("remove", "Remove cards", default=0,
...                 choices=(Choice(0, "none"), Choice("random", "1 to 4")), most=19)
>>> check_declared((first_game, remove), {"remove": 3})
{'first_game': False, 'remove': 3}
>>> parser = argparse.ArgumentParser()
>>> add_flags(parser, (first_game,))
>>> read_flags(parser.parse_args(["--first-game"]), (first_game,))
{'first_game': True}
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..i18n import N_
from .errors import OptionsError

#: What an option's value may be: a switch, a number or a word (JSON alike).
Value = bool | int | str

UNKNOWN = N_("unknown option(s): {names}")
NOT_AN_OBJECT = N_("the options must be an object")
NOT_A_BOOL = N_("'{name}' must be true or false")
NOT_A_CHOICE = N_("'{name}' is one of: {choices}")
NOT_IN_RANGE = N_("'{name}' is 0 to {most}, or one of: {choices}")
TOO_FEW_SEATS = N_("'{name}' is for {least} seats or more")
OLD_NAME_DIFFERS = N_("'{old}' is the old name of '{name}': give one of them")


@dataclass(frozen=True)
class Choice:
    """One value the page offers for a ``"choice"`` option, and its label (a msgid)."""

    value: Value
    label: str


@dataclass(frozen=True)
class Option:
    """One variant option of a game, declared once.

    ``choices`` empty: a ``"bool"`` switch (a checkbox; ``flag`` is a plain switch).
    Otherwise a ``"choice"``: the page offers ``choices``; ``most`` also admits every
    whole number from 0 to ``most`` (the API and the command line take them, e.g.
    NMBR 9's ``remove``). ``invalid`` is the game's own msgid for a value it does not
    take (arguments ``name`` and ``most``). ``min_seats``: the option may be set only
    at a table of that many seats (the page greys it out below). ``old_names`` are
    names the option had before, still read from stored games. ``flag`` (e.g.
    ``"--first-game"``, ``None``: not on the command line) with ``help`` and
    ``metavar`` is the command line's.
    """

    name: str
    label: str
    default: Value
    choices: tuple[Choice, ...] = ()
    most: int | None = None
    invalid: str | None = None
    min_seats: int | None = None
    old_names: tuple[str, ...] = ()
    flag: str | None = None
    help: str | None = None
    metavar: str | None = None

    def __post_init__(self) -> None:
        if self.kind == "bool" and (type(self.default) is not bool or self.most is not None):
            raise ValueError(f"option {self.name!r}: a switch's default is True or False")
        if self.kind == "choice" and not self.takes(self.default):
            raise ValueError(f"option {self.name!r}: its default is none of its values")

    @property
    def kind(self) -> Literal["bool", "choice"]:
        return "choice" if self.choices else "bool"

    def takes(self, value: object) -> bool:
        """Whether ``value`` is one this option takes (``True`` is not the number 1)."""
        if self.kind == "bool":
            return type(value) is bool
        if any(type(value) is type(c.value) and value == c.value for c in self.choices):
            return True
        return self._in_range(value)

    def checked(self, value: object) -> Value:
        """``value`` if this option takes it; ``OptionsError`` (translated) otherwise."""
        if self.takes(value):
            assert isinstance(value, bool | int | str)  # takes() admits only these
            return value
        if self.kind == "bool":
            raise OptionsError(self.invalid or NOT_A_BOOL, name=self.name)
        choices = ", ".join(_written(c.value) for c in self.choices)
        if self.invalid is not None:
            raise OptionsError(self.invalid, name=self.name, most=self.most, choices=choices)
        if self.most is not None:
            raise OptionsError(NOT_IN_RANGE, name=self.name, most=self.most, choices=choices)
        raise OptionsError(NOT_A_CHOICE, name=self.name, choices=choices)

    def page_field(self) -> dict[str, Any]:
        """The field the page offers (lobby.js): ``{"name", "label", "type",
        "default"}``, with ``"choices"`` (``{"value", "label"}``), ``"max"`` and
        ``"min_seats"`` where the option has them."""
        field: dict[str, Any] = {
            "name": self.name,
            "label": self.label,
            "type": self.kind,
            "default": self.default,
        }
        if self.choices:
            field["choices"] = [{"value": c.value, "label": c.label} for c in self.choices]
        if self.most is not None:
            field["max"] = self.most  # what the API takes beyond the offered choices
        if self.min_seats is not None:
            field["min_seats"] = self.min_seats
        return field

    def json_schema(self) -> dict[str, Any]:
        """The JSON schema of the values the option takes (the API's document)."""
        if self.kind == "bool":
            return {"type": "boolean"}
        alternatives: list[dict[str, Any]] = []
        if self.most is not None:
            alternatives.append({"type": "integer", "minimum": 0, "maximum": self.most})
        alternatives += [{"const": c.value} for c in self.choices if not self._in_range(c.value)]
        return alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}

    def _in_range(self, value: object) -> bool:
        return self.most is not None and type(value) is int and 0 <= value <= self.most

    def parse_flag(self, text: str) -> Value:
        """A ``"choice"`` flag's argument as the option's value (an ``argparse`` type)."""
        words = {str(c.value).lower(): c.value for c in self.choices}
        value = words.get(text.strip().lower(), _number_or_text(text))
        if not self.takes(value):
            raise argparse.ArgumentTypeError(
                f"{self.flag} takes {self._flag_values()}, not {text!r}"
            )
        return value

    def _flag_values(self) -> str:
        named = [repr(c.value) if isinstance(c.value, str) else str(c.value) for c in self.choices]
        if self.most is not None:
            named = [f"0 to {self.most}", *(n for n in named if n.startswith("'"))]
        return " or ".join(named)


def _number_or_text(text: str) -> Value:
    try:
        return int(text)
    except ValueError:
        return text


def _written(value: Value) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def check_declared(
    declared: Sequence[Option], options: object, players: int | None = None
) -> dict[str, Any]:
    """``options`` checked against ``declared`` and normalised: every declared option,
    its default where not given, each under its current name. ``OptionsError`` for an
    unknown option, a value the option does not take, an option set at a table of
    fewer seats than it needs (where ``players`` is given), or an old name that
    disagrees with the current one."""
    if not isinstance(options, dict):
        raise OptionsError(NOT_AN_OBJECT)
    known = {name for option in declared for name in (option.name, *option.old_names)}
    unknown = set(options) - known
    if unknown:
        raise OptionsError(UNKNOWN, names=", ".join(sorted(unknown)))
    return {option.name: _checked_value(option, options, players) for option in declared}


def _checked_value(option: Option, options: dict[str, Any], players: int | None) -> Value:
    given = [name for name in (option.name, *option.old_names) if name in options]
    for old in given[1:]:
        if options[old] != options[given[0]]:
            raise OptionsError(OLD_NAME_DIFFERS, old=old, name=option.name)
    value = option.checked(options[given[0]]) if given else option.default
    needs = option.min_seats
    if needs is not None and players is not None and players < needs and value != option.default:
        raise OptionsError(TOO_FEW_SEATS, name=option.name, least=needs)
    return value


def add_flags(parser: argparse.ArgumentParser, declared: Sequence[Option]) -> None:
    """Add a flag for each declared option that has one."""
    for option in declared:
        if option.flag is None:
            continue
        dest = option.name  # what terminal play reads too (``args.first_game``)
        if option.kind == "bool":
            action = "store_false" if option.default else "store_true"
            parser.add_argument(option.flag, dest=dest, action=action, help=option.help)
        else:
            parser.add_argument(
                option.flag,
                dest=dest,
                type=option.parse_flag,
                default=option.default,
                metavar=option.metavar,
                help=option.help,
            )


def read_flags(args: argparse.Namespace, declared: Sequence[Option]) -> dict[str, Any]:
    """The options the command line set (``add_flags``), as ``check_declared`` takes
    them; a command that did not add the flags gets the defaults."""
    return {o.name: getattr(args, o.name, o.default) for o in declared if o.flag is not None}
