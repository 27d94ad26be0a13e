"""The platform's error vocabulary: every bad input a game or the platform refuses.

All are ``ValueError`` subclasses whose message is written for the user, so a
command prints it on one line and the server sends it with a 4xx status.
"""

from __future__ import annotations


class OptionsError(ValueError):
    """Game options, seats or a bot the game cannot accept; the message says why."""


class BotSpecError(OptionsError):
    """An unknown bot name or a bad bot option."""


class ActionRejected(ValueError):
    """An action that is malformed or not legal now; the game is unchanged."""


class RecordError(ValueError):
    """A record that is malformed or breaks the rules; the message says where."""
