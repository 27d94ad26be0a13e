"""The platform's error vocabulary: every bad input a game or the platform refuses.

All are ``ValueError`` subclasses whose message is written for the user, so a
command prints it on one line and the server sends it with a 4xx status (a 503 for
``Unavailable``: a missing part of this installation, not a bad input).
"""

from __future__ import annotations

from tabletop.i18n import fill


class KeyedError(ValueError):
    """An error whose message is an English template ``key`` with ``{name}``
    placeholders filled from ``params``: a front end may translate the template and
    fill it itself (the server sends both, tabletop.i18n), while ``str()`` stays the
    English sentence.

    >>> err = KeyedError("{action}: cell {cell} is taken", action="2@0,0", cell="0,0")
    >>> str(err), err.key, err.params
    ('2@0,0: cell 0,0 is taken', '{action}: cell {cell} is taken', {'action': '2@0,0', 'cell': '0,0'})
    """  # noqa: E501

    def __init__(self, key: str = "", /, **params: object) -> None:
        super().__init__(fill(key, params))
        self.key = key
        self.params = params


class OptionsError(KeyedError):
    """Game options, seats or a bot the game cannot accept; the message says why."""


class BotSpecError(OptionsError):
    """An unknown bot name or a bad bot option."""


class ActionRejected(KeyedError):
    """An action that is malformed or not legal now; the game is unchanged.

    Every game raises one of its two kinds, and front ends (the server, the terminal,
    the research environments) catch this base and pass it on as it is."""


class InvalidActionError(ActionRejected):
    """The text is not an action in the game's notation."""


class IllegalActionError(ActionRejected):
    """The action is well formed but not legal in the current state (or not in the
    acting seat's mask); the message says which rule it breaks."""


class Unavailable(KeyedError):
    """What this installation cannot do, whatever the input: an analysis whose compiled
    search kernel was not built (``tabletop.core.kernels``). A command prints it on one
    line and exits 2; the server answers 503."""


class RecordError(ValueError):
    """A record that is malformed or breaks the rules; the message says where."""
