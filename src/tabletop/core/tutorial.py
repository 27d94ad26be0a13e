"""Interactive tutorials: a game's scripted lesson as data, checked by the real rules.

A game that teaches itself names a ``Tutorial`` in its ``GameType`` (``tutorial =
".tutorial:TUTORIAL"``). The tutorial is data: a scripted deal (``start``), the other
seats' scripted moves, and ``Step`` after ``Step``, each either an *info step* (read,
then go on) or one that asks for one action in the game's notation. The platform drives
it (``Lesson``): the position at step ``k`` is the deal, the opening moves, then for each
step before ``k`` the learner's action (when it asks one) and its ``then`` moves —
replayed from scratch every time, so nothing is stored and a page resumes a lesson from
``{step, played}`` alone. A try is checked against the step and the rules: a right one
moves on, a wrong one gets one sentence saying why (``explain``).

>>> from tabletop.core.game import get_game
>>> lesson = Lesson(get_game("nmbr9"))
>>> first = lesson.first_action_step()
>>> lesson.tutorial.steps[first].ask
'r0@0,0'
>>> verdict = lesson.attempt(first, [], "r0@5,5")
>>> verdict.correct, verdict.kind
(False, 'legal')
>>> lesson.attempt(first, [], "r0@0,0").correct
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..i18n import N_, Part, part
from .errors import ActionRejected, IllegalActionError, KeyedError
from .match import MAX_ACTION, Match

if TYPE_CHECKING:
    from .game import JSON, GameType, Recorder, State

#: A scripted move of another seat: ``(seat, action in the game's notation)``.
Scripted = tuple[int, str]

#: The learner's seat in every tutorial.
LEARNER = 0

#: The kinds of wrong try every game has (a game's ``classify`` may name more).
LEGAL = "legal"
ILLEGAL = "illegal"
DEFAULT = "default"

#: The platform's sentence for a legal try that is not what the step asks.
NOT_ASKED = N_("That is allowed, but this step asks for something else: look at the highlight.")


class TutorialError(KeyedError):
    """A request the lesson cannot follow (a step out of range, moves that are not the
    steps'); the server answers 422."""


@dataclass(frozen=True)
class Step:
    """One step of a tutorial (see docs/adding-a-game.md, "Tutorial").

    ``say`` (a msgid, filled from ``args``) explains and asks; ``ask`` is the one action
    asked for (``None``: an info step the learner reads and goes on from); ``accept``
    other actions counted as right; ``highlight`` what to look at, in the game's own
    words (``{"target": name, ...}``: the game's page module draws it); ``wrong`` a
    sentence (msgid) per kind of wrong try; ``then`` the other seats' scripted moves
    once the step is done."""

    key: str
    say: str
    args: Mapping[str, Any] = field(default_factory=dict)
    ask: str | None = None
    accept: tuple[str, ...] = ()
    highlight: Mapping[str, Any] = field(default_factory=dict)
    wrong: Mapping[str, str] = field(default_factory=dict)
    then: tuple[Scripted, ...] = ()
    #: A new chapter: before this step the game is replaced by ``restart()`` (a fresh
    #: recorder of a constructed position) and the log emptied.
    restart: Callable[[], Recorder] | None = None

    @property
    def asks(self) -> bool:
        return self.ask is not None

    def right(self) -> tuple[str, ...]:
        """Every action this step takes as right, the asked one first."""
        return () if self.ask is None else (self.ask, *self.accept)


#: A game's sorting of a wrong try: ``(state, seat, action, error)`` -> a kind name, where
#: ``error`` is the rules' refusal or ``None`` for a legal action.
Classify = Callable[["State", int, Any, IllegalActionError | None], str]


def plain_kind(state: State, seat: int, action: Any, error: IllegalActionError | None) -> str:
    """The kinds every game has: the rules refuse the try, or allow it."""
    return LEGAL if error is None else ILLEGAL


@dataclass(frozen=True)
class Tutorial:
    """A game's lesson: ``players`` (seat names, msgids; the learner is seat 0),
    ``start`` (a fresh recorder of the scripted deal), ``steps``, the ``opening`` moves
    of other seats before the first step, tutorial-wide ``wrong`` sentences per kind,
    and ``classify`` (the game's kinds of wrong try)."""

    players: tuple[str, ...]
    start: Callable[[], Recorder]
    steps: tuple[Step, ...]
    opening: tuple[Scripted, ...] = ()
    wrong: Mapping[str, str] = field(default_factory=dict)
    classify: Classify = plain_kind

    def explanation(self, step: Step, kind: str) -> str | None:
        """The step's or the tutorial's sentence for ``kind`` (then their defaults); None
        where neither has one (the platform's own applies)."""
        for table, key in ((step.wrong, kind), (self.wrong, kind)):
            if key in table:
                return table[key]
        for table in (step.wrong, self.wrong):
            if DEFAULT in table:
                return table[DEFAULT]
        return None

    def msgids(self) -> list[str]:
        """Every text of the tutorial (the unit tests check the catalogues hold them)."""
        texts = [*self.players, *self.wrong.values()]
        for step in self.steps:
            texts += [step.say, *step.wrong.values()]
            texts += [a["key"] for a in step.args.values() if isinstance(a, dict)]
        return texts


@dataclass(frozen=True)
class Verdict:
    """What a try came to: right (the lesson moves on), or a wrong try's kind and its
    sentence (a part to translate)."""

    correct: bool
    kind: str | None = None
    explanation: Part | None = None


class Lesson:
    """The platform's driver of one game's tutorial (stateless: every call replays)."""

    def __init__(self, game: GameType, tutorial: Tutorial | None = None) -> None:
        found = tutorial or game.lesson()  # ``tutorial``: another lesson for the game (tests)
        if found is None:
            raise TutorialError(N_("{game} has no tutorial"), game=game.title)
        self.game = game
        self.tutorial: Tutorial = found

    @property
    def size(self) -> int:
        return len(self.tutorial.steps)

    def first_action_step(self) -> int:
        return next(i for i, step in enumerate(self.tutorial.steps) if step.asks)

    def check_step(self, step: object, *, ending: bool = False) -> int:
        """``step`` as an index; ``TutorialError`` unless it is one (``ending``: the index
        just past the last step too, the finished lesson)."""
        last = self.size if ending else self.size - 1
        if type(step) is not int or not 0 <= step <= last:
            raise TutorialError(N_("the step is a number from 0 to {last}"), last=last)
        return step

    def position(self, step: object, played: object) -> Position:
        """The game at the start of ``step``, the learner's actions ``played`` (one per
        action step before it) replayed with every scripted move."""
        index = self.check_step(step, ending=True)
        moves = self._check_played(index, played)
        at = Position(Match(self.game, self.tutorial.start()), [])
        at.run(self.tutorial.opening)
        for i, done in enumerate(self.tutorial.steps[: index + 1]):
            if done.restart is not None:  # a new chapter, from its own position
                at = Position(Match(self.game, done.restart()), [])
            if i == index:
                break
            if done.asks:
                at.run([(LEARNER, moves.pop(0))])
            at.run(done.then)
        return at

    def attempt(self, step: object, played: object, action: object) -> Verdict:
        """Check the learner's try ``action`` at ``step``: right, or why not."""
        index = self.check_step(step)
        current = self.tutorial.steps[index]
        if not current.asks:
            raise TutorialError(N_("this step asks for no move: go on to the next"))
        text = self._notation(action)
        if text in {self._notation(a) for a in current.right()}:
            return Verdict(True)
        match = self.position(index, played).match
        error: IllegalActionError | None = None
        try:
            match.clone().apply(LEARNER, text)
        except IllegalActionError as err:
            error = err
        kind = self.tutorial.classify(match.state, LEARNER, self.game.parse_action(text), error)
        said = self.tutorial.explanation(current, kind)
        if said is not None:
            return Verdict(False, kind, part(said, **dict(current.args)))
        if error is not None:
            return Verdict(False, kind, part(error.key, **error.params))
        return Verdict(False, kind, part(NOT_ASKED))

    def _notation(self, action: object) -> str:
        """``action`` in the game's own notation (``str`` of the parsed action), so that
        ``r0@ 0,0`` and ``r0@0,0`` are one try; ``ActionRejected`` if it is none."""
        if not isinstance(action, str) or not action or len(action) > MAX_ACTION:
            raise TutorialError(
                N_("the action is the move's notation, at most {most} characters"),
                most=MAX_ACTION,
            )
        return str(self.game.parse_action(action))

    def _check_played(self, index: int, played: object) -> list[str]:
        asked = [s for s in self.tutorial.steps[:index] if s.asks]
        if not isinstance(played, list) or len(played) != len(asked):
            raise TutorialError(
                N_("'played' must list your move of each step before this one that asks for one")
            )
        moves = []
        for step, action in zip(asked, played, strict=True):
            text = self._notation(action)
            if text not in {self._notation(a) for a in step.right()}:
                raise TutorialError(N_("'played' holds a move the tutorial did not ask for"))
            moves.append(text)
        return moves


@dataclass
class Position:
    """A lesson's game at one step, and its log so far (the page's "Game log")."""

    match: Match
    log: list[JSON]

    def run(self, moves: Sequence[Scripted]) -> None:
        for seat, action in moves:
            self.log.append(self.match.apply(seat, action).log)


def lesson_state(lesson: Lesson, step: int, position: Position) -> JSON:
    """The position as the page draws it: shaped like a live game's state message (the
    game's own board draws it), with ``tutorial`` saying what the step shows."""
    match = position.match
    seats = [
        {"seat": i, "name": name, "kind": "human" if i == LEARNER else "bot", "online": True}
        for i, name in enumerate(lesson.tutorial.players[: len(match.recorder.players)])
    ]
    current = lesson.tutorial.steps[step] if step < lesson.size else None
    # an info step (and the finished lesson): the board is only looked at, nobody acts
    active = sorted(match.active_seats()) if current is not None and current.asks else []
    acting = LEARNER if LEARNER in active else None
    return {
        "type": "state",
        "game": {
            "id": None,
            "type": lesson.game.name,
            "title": lesson.game.title,
            "dynamics": lesson.game.dynamics,
            "seats": seats,
            "tutorial": True,
        },
        "ply": step,
        "to_move": active[0] if len(active) == 1 else None,
        "active": active,
        "over": match.is_over(),
        "you": [LEARNER],
        "acting": acting,
        "thinking": None,
        "thinking_seats": [],
        "view": match.view(LEARNER),
        "choices": match.choices(LEARNER) if acting is not None else [],
        "log": position.log,
        "result": match.result(),
        "undo": False,
        "unrated": None,
        "record": None,
        "tutorial": None
        if current is None
        else {"step": step, "highlight": dict(current.highlight), "ask": current.ask},
    }


def describe_steps(lesson: Lesson) -> JSON:
    """The lesson's script for the page: each step's text (a part), action and
    highlight."""
    tutorial = lesson.tutorial
    return {
        "game": lesson.game.name,
        "title": lesson.game.title,
        "seat": LEARNER,
        "players": [part(name) for name in tutorial.players],
        "steps": [
            {
                "key": step.key,
                "say": part(step.say, **dict(step.args)),
                "ask": step.ask,
                "highlight": dict(step.highlight),
            }
            for step in tutorial.steps
        ],
    }


__all__ = [
    "ActionRejected",
    "Lesson",
    "Position",
    "Step",
    "Tutorial",
    "TutorialError",
    "Verdict",
    "describe_steps",
    "lesson_state",
]
