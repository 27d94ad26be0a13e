"""A game played offline — by bots, in the terminal, in a tournament — recorded as it goes.

Written once for every game over its ``Recorder`` (``core.game``).

>>> from tabletop.core.game import get_game
>>> table = get_game("nmbr9").new_table(2, {}, ["Ann", "Bob"], seed=1)
>>> table.acting()
(0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from .game import JSON, Recorder, View


class Table:
    """One game at a table: who acts, what each seat sees, applying, the record."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    def acting(self) -> Sequence[int]:
        """The seats that must act now, in the order they are asked; empty once over."""
        return self.recorder.state.acting_seats()

    def view(self, seat: int) -> View:
        """What ``seat`` may know now: what its bot chooses from."""
        return self.recorder.lend_view(seat)

    def apply(self, seat: int, action: object) -> object:
        """Apply one of ``view(seat).legal_actions()`` for ``seat``."""
        return self.recorder.apply(action, seat)

    def record(self) -> JSON:
        """The game's record so far (see the game's record format)."""
        return self.recorder.to_record()
