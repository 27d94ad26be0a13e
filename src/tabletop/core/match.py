"""One game as the server holds it, written once for every game.

A ``Match`` is the true state (secrets included) with its record, and what the
server asks of it: who must act, each recipient's view, the acting seat's
choices, applying an action sent as text, the outcome, and bot and hint work
to run elsewhere. It is rebuilt after a restart by creating it again from its
options and seed and re-applying the stored actions, so every step is
deterministic. In a simultaneous game a seat may withdraw its pending action
with the action ``TAKE_BACK`` until the round resolves.

>>> from tabletop.core.game import get_game
>>> game = get_game("nmbr9")
>>> options = game.check_setup([{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], {})
>>> match = game.new_match(2, options, seed=5)
>>> sorted(match.active_seats())
[0, 1]
>>> match.apply(0, match.choices(0)[0]["action"]).log["text"]
'placed their 2'
>>> match.has_pending(0), sorted(match.active_seats())
(True, [1])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from ..i18n import N_
from .errors import ActionRejected
from .game import JSON, SIMULTANEOUS, GameType, Recorder, State, View, get_game
from .limits import DEFAULT_LIMITS, BotLimits
from .outcome import Outcome
from .page import page_choices, page_view

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .page import Applied, GamePage, SimultaneousPage, Step, Undo

#: In a simultaneous game: the action that withdraws the seat's pending action of the
#: current round (refused once the round has resolved, or if it has none).
TAKE_BACK = "take-back"

#: No action of any game is longer: longer text is refused before it is parsed.
MAX_ACTION = 40


#: What a ``Job`` returns: an action's text, or a hint.
T = TypeVar("T")


@dataclass(frozen=True)
class Job(Generic[T]):
    """Work for a bot process: ``function(*args)``, picklable, returns JSON-ready data.

    ``quick`` jobs (milliseconds: random, greedy) run in a lane of their own, so
    they never wait behind searches of other games."""

    function: Callable[..., T]
    args: tuple[object, ...]
    quick: bool = False

    def run(self) -> T:
        return self.function(*self.args)


class Match:
    """A game in progress on the server (see the module docstring)."""

    def __init__(self, game: GameType, recorder: Recorder) -> None:
        if game.page is None:
            raise ValueError(f"{game.title} is not played in the browser")
        self.game = game
        self.page: GamePage[Any] = game.page  # Any: the game's own recorder type
        self.recorder = recorder

    @property
    def state(self) -> State:
        return self.recorder.state

    def clone(self) -> Match:
        """An independent copy: the server applies an action to a copy and keeps it only
        once the action is stored."""
        return Match(self.game, self.recorder.clone())

    def active_seats(self) -> frozenset[int]:
        """The seats that must act now; empty once the game is over."""
        return frozenset(self.state.acting_seats())

    def to_move(self) -> int | None:
        """The one seat to move in a sequential game; ``None`` once it is over."""
        seats = self.state.acting_seats()
        return seats[0] if seats else None

    def is_over(self) -> bool:
        return bool(self.state.is_over)

    def has_pending(self, seat: int) -> bool:
        """Whether ``seat`` has a hidden action of the current round it may still take
        back; always ``False`` in a sequential game."""
        if self.game.dynamics != SIMULTANEOUS or self.is_over():
            return False
        return 0 <= seat < len(self.recorder.players) and seat not in self.active_seats()

    def apply(self, seat: int, action: str) -> Applied:
        """Validate and apply ``action`` for ``seat``; ``ActionRejected`` (the game
        unchanged) otherwise."""
        if self.is_over():
            raise ActionRejected(N_("the game is over"))
        if not 0 <= seat < len(self.recorder.players):
            raise ActionRejected(N_("there is no seat {seat}"), seat=seat + 1)
        if self.game.dynamics == SIMULTANEOUS:
            if action == TAKE_BACK:
                page = cast("SimultaneousPage[Any]", self.page)  # its dynamics say so
                return page.take_back(self.recorder, seat)
        elif seat not in self.active_seats():
            (acting,) = self.active_seats()
            raise ActionRejected(N_("it is seat {seat}'s turn"), seat=acting + 1)
        if len(action) > MAX_ACTION:
            raise ActionRejected(self.page.notation_hint)
        return self.page.play(self.recorder, seat, self.game.parse_action(action))

    def undo(self, steps: Sequence[Step], seat: int) -> Undo | str:
        """What undoing ``seat``'s last move leaves, or why not (``GamePage.undo``)."""
        return self.page.undo(steps, seat)

    def view(self, seat: int | None) -> JSON:
        """Everything ``seat`` (``None``: a spectator) may see, and nothing more: the
        page is handed the seat's view, never the state."""
        return page_view(self.page, self.state, seat)

    def choices(self, seat: int) -> list[JSON]:
        """The legal actions of ``seat`` if it must act, each ``{"action": ...}`` plus
        whatever the page needs to preview it; otherwise ``[]``."""
        if seat not in self.active_seats():
            return []
        return page_choices(self.page, self.state, seat)

    def result(self) -> JSON | None:
        """The result as the page shows it, once over."""
        return self.page.result_json(self.state) if self.is_over() else None

    def outcome(self) -> Outcome | None:
        """How the game came out (ranks for the ratings), once over."""
        return self.state.outcome() if self.is_over() else None

    def record(self, names: list[str]) -> JSON:
        """The full game record (secrets included: only for finished games)."""
        self.recorder.players = list(names)
        return self.recorder.to_record()

    def bot_job(
        self, seat: int, bot: str, seed: int, limits: BotLimits = DEFAULT_LIMITS
    ) -> Job[str]:
        """A job whose result is the action text ``bot`` plays for ``seat`` now, searching
        no longer than ``limits.seconds``. Built from ``seat``'s view only: never from
        hidden information or another seat's pending action."""
        quick = bot.partition(":")[0] in self.game.quick_bots
        args = (self.game.name, bot, self.state.view(seat), seed, limits.seconds)
        return Job(bot_move, args, quick)

    def hint_job(self, seat: int, seed: int) -> Job[JSON]:
        """A job whose result is ``{"action", "reason", "parts"}`` for ``seat``."""
        return Job(hint, (self.game.name, self.state.view(seat), seed))


def bot_move(game_name: str, spec: str, view: View, seed: int, seconds: float) -> str:
    """The action ``spec`` chooses from ``view``, searching at most ``seconds`` (a
    top-level function: bot processes run it)."""
    game = get_game(game_name)
    bot = game.bots.make(spec, seed=seed)
    game.limit_bot(bot, seconds)  # stored games keep their spec: bound it here too
    return str(bot.choose(view))


def hint(game_name: str, view: View, seed: int) -> JSON:
    """The game's hint for ``view`` (a top-level function: bot processes run it)."""
    page = get_game(game_name).page
    assert page is not None  # a match exists only for games with a page
    return page.hint(view, seed)
