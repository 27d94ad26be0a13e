"""The daily challenge on the server: start a day's game, and the day's results board.

A day's deal comes from ``tabletop.daily`` (nothing is stored in advance). With an
account, today's first Play is the counted attempt: ``StartDaily`` stores it with its
game in one transaction, keyed by account, game and day, so a second Play (another
tab, another process, at the same moment) gets the same game back. Other plays (no
account, or an earlier day for practice) are ordinary solo games of that deal.

The board ranks the finished counted attempts by the game's ``Outcome`` (its
``lower_is_better`` decides the order; equal scores share a rank). Beside it, once
the player has finished, the score of the game's strongest solo bot on the same deal
(``GameType.daily_bot``), played move by move in the bot pool in the background and
kept per game and day with its record (``bot_game``: its frames, for the replay page
to step through beside yours), and the best game with hindsight where the game's
analyser offers one (``hindsight``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from ..analysis.run import hindsight_of
from ..core.game import plain_number
from ..core.match import Job
from ..core.web import JSON, BotLimits, WebGame
from ..daily import Deal, deal, ranked
from ..i18n import Part, fill
from .errors import ApiError, reading
from .replays import companion, off_loop
from .room import Room, Rooms
from .rows import Account
from .scheduling import Scheduler, derived_seed
from .setup import bot_labels, check_setup, created_seat
from .storage import GameStore
from .writes import CreateGame, StartDaily, Write

log = logging.getLogger("tabletop.server")

#: Bot games and hindsight searches kept in memory (per game and day: today, yesterday,
#: a few practice days); the oldest is dropped first.
KEPT_WORK = 32
#: The hindsight search's seed and budget: one per deal, whoever asks.
HINDSIGHT_SEED = 0
T = TypeVar("T")  # what a job returns


@dataclass(frozen=True)
class Finished:
    """A finished daily game as the board shows it."""

    score: int | float
    length: int
    lower_is_better: bool
    share: list[Part]


class Dailies:
    """Starts daily games and reads the boards; ``bots`` overrides a game's daily bot
    (``serve --daily-bot``: a weaker one on a small machine, or in tests)."""

    def __init__(
        self,
        store: GameStore,
        rooms: Rooms,
        scheduler: Scheduler,
        write: Callable[[Write[Any]], Awaitable[Any]],
        limits: BotLimits,
        bots: dict[str, str] | None = None,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.scheduler = scheduler
        self._write = write
        self.limits = limits
        self.bots = dict(bots or {})
        self._finished: dict[str, Finished] = {}  # game id -> its result (final once over)
        self._work: OrderedDict[tuple[str, str, str], asyncio.Task[JSON | None]] = OrderedDict()
        self._bot_records: dict[tuple[str, str], JSON] = {}  # (game, day) -> the bot's record
        self._turn = asyncio.Semaphore(1)  # one daily bot job in the pool at a time

    def bot_for(self, game: WebGame) -> str:
        return self.bots.get(game.name) or game.daily_bot()

    # -- playing ----------------------------------------------------------------------

    async def start(self, game: WebGame, day: date, today: date, account: Account | None) -> JSON:
        """A game of ``day``'s deal: today's counted attempt with an account (the same
        one on every later call), else an uncounted one; ``created`` says which."""
        the_deal = deal(game, day)
        counted = account is not None and day == today
        setup = check_setup(_body(game, the_deal, account), account, self.limits)
        game_id = _new_id()
        create = CreateGame(
            *(game_id, game.name, setup.options, setup.seed, setup.seats),
            *(True, account.id if account else None),
        )
        created = True
        if counted:
            game_id, created = await self._write(StartDaily(create, day.isoformat()))
        else:
            await self._write(create)
        room = self.rooms.room(game_id)
        if created:
            self.scheduler.schedule_bots(room)
        answer: JSON = {**the_deal.to_json(), "id": game_id, "url": f"/g/{game_id}"}
        answer.update(counted=counted, created=created)
        if created:  # the seat links go to whoever created the game, once
            answer["seats"] = [created_seat(game_id, s) for s in setup.seats]
        return answer

    def today(self, game: WebGame, day: date, account: Account | None) -> JSON:
        """A game's deal of ``day`` for the Daily page, with the account's attempt."""
        shown = {**deal(game, day).to_json(), "title": game.title}
        game_id = None
        if account is not None:
            game_id = reading(self.store.daily_game, game.name, day.isoformat(), account.id)
        shown["you"] = None if game_id is None else self._yours(game_id, True, day)
        return shown

    # -- the board ---------------------------------------------------------------------

    def board(
        self, game: WebGame, day: date, account: Account | None, own_game: str | None
    ) -> JSON:
        """``day``'s results, best first; ``you`` (the account's attempt, or the game
        ``own_game`` if it is of this deal) and, once you finished, the bot's result."""
        attempts = reading(self.store.daily_attempts, game.name, day.isoformat())
        stamp = day.isoformat()
        done = [(a, self._result(a.game_id, stamp)) for a in attempts if a.over and not a.abandoned]
        finished = [(a, f) for a, f in done if f is not None]
        lower = finished[0][1].lower_is_better if finished else False
        ranks = ranked([f.score for _, f in finished], lower_is_better=lower)
        rows = [
            {
                "rank": rank,
                "name": a.name,
                "score": f.score,
                "length": f.length,
                "helped": a.helped,
                "you": account is not None and a.account_id == account.id,
            }
            for rank, (a, f) in sorted(zip(ranks, finished, strict=True), key=lambda x: x[0])
        ]
        you = self._you(game, day, account, own_game, attempts)
        shown: JSON = {**deal(game, day).to_json(), "title": game.title, "results": rows}
        shown.update(
            lower_is_better=lower,
            playing=sum(1 for a in attempts if not a.over),
            you=you,
            planner=None,
            hindsight=None,
        )
        if you is not None and you["over"]:  # the bot's game shows the deal: only after yours
            shown["planner"] = self._bot_result(game, day)
            shown["hindsight"] = self._hindsight(game, day)
        return shown

    def _you(
        self,
        game: WebGame,
        day: date,
        account: Account | None,
        own_game: str | None,
        attempts: list[Any],
    ) -> JSON | None:
        mine = [a for a in attempts if account is not None and a.account_id == account.id]
        if mine:
            return self._yours(mine[0].game_id, True, day)
        if own_game is None:
            return None
        self._check_of_deal(game, day, own_game)
        return self._yours(own_game, False, day)

    def _check_of_deal(self, game: WebGame, day: date, game_id: str) -> None:
        """404 unless ``game_id`` is a game of ``day``'s deal."""
        row = reading(self.store.game, game_id) if len(game_id) < 40 else None
        if row is None or row.type != game.name or row.seed != deal(game, day).seed:
            raise ApiError(404, "that game is not one of this day's challenge")

    def _yours(self, game_id: str, counted: bool, day: date) -> JSON:
        room = self.rooms.room(game_id)
        over = room.match.is_over() and not room.row.abandoned
        shown: JSON = {"game": game_id, "url": f"/g/{game_id}", "counted": counted, "over": over}
        if over:
            result = self._result(game_id, day.isoformat())
            if result is not None:
                text = "\n".join(_english(line) for line in result.share)
                shown.update(
                    score=result.score, length=result.length, share=result.share, text=text
                )
        return shown

    def _result(self, game_id: str, day: str) -> Finished | None:
        """A finished game of ``day``'s deal: its score and share lines (worked out once:
        they are final; a game is of one deal, so of one day)."""
        if game_id not in self._finished:
            room = self.rooms.room(game_id)
            outcome = room.match.outcome()
            if outcome is None:
                return None
            share = room.type.daily_share(_record(room), day)
            score = plain_number(outcome.scores[0])
            self._finished[game_id] = Finished(
                score, outcome.length, outcome.lower_is_better, list(share)
            )
        return self._finished[game_id]

    async def bot_game(self, game: WebGame, day: date, own_game: str | None) -> JSON:
        """The daily bot's game on ``day``'s deal as replay frames, for the player of
        ``own_game`` (a finished game of that deal: like its score, the bot's game shows
        the deal only after yours)."""
        if own_game is None:
            raise ApiError(400, "name your finished game of this deal: ?game=ID")
        self._check_of_deal(game, day, own_game)
        room = self.rooms.room(own_game)
        if not room.match.is_over() or room.row.abandoned:
            raise ApiError(409, "the bot's game is shown once yours is over")
        key = (game.name, day.isoformat())
        shown = _status(self._task(("bot", *key), lambda: self._bot_game(game, day)))
        record = self._bot_records.get(key)
        if shown["status"] == "failed":
            raise ApiError(409, "the strong bot's game could not be worked out; try again")
        if shown["status"] != "done" or record is None:
            raise ApiError(409, "the strong bot is still playing this deal; look again in a minute")
        spec = record["players"][0]
        named = {**record, "players": [bot_labels(game).get(spec, spec)]}
        return await off_loop(lambda: companion(game, named, shown["score"]))

    # -- the bot's game and hindsight, worked out in the background ------------------------

    def _bot_result(self, game: WebGame, day: date) -> JSON:
        task = self._task(("bot", game.name, day.isoformat()), lambda: self._bot_game(game, day))
        spec = self.bot_for(game)  # "name": its label, a msgid the page translates
        return {"bot": spec, "name": bot_labels(game).get(spec, spec), **_status(task)}

    def _hindsight(self, game: WebGame, day: date) -> JSON | None:
        """The best game with hindsight, where the game's analyser offers it (NMBR 9's
        knows the card order): ``{"status", ...}``, or None for a game without."""
        analyser = game.analyser()
        if analyser is None or not callable(getattr(analyser, "hindsight", None)):
            return None
        key = ("hindsight", game.name, day.isoformat())
        return _status(self._task(key, lambda: self._hindsight_of(game, day)))

    def _task(
        self, key: tuple[str, str, str], work: Callable[[], Coroutine[Any, Any, JSON | None]]
    ) -> asyncio.Task[JSON | None]:
        task = self._work.get(key)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = asyncio.get_running_loop().create_task(work())
            self._work[key] = task
        self._work.move_to_end(key)
        while len(self._work) > KEPT_WORK:
            (_, *old_key), old = self._work.popitem(last=False)
            old.cancel()
            self._bot_records.pop((old_key[0], old_key[1]), None)
        return task

    async def _bot_game(self, game: WebGame, day: date) -> JSON | None:
        """The daily bot's game of the deal, one move per job in the bot pool."""
        the_deal, spec = deal(game, day), self.bot_for(game)
        match = game.new_match(the_deal.players, the_deal.options, the_deal.seed)
        moves = 0
        while not match.is_over():
            for seat in sorted(match.active_seats()):
                seed = derived_seed(the_deal.seed, moves, f"daily {seat}")
                action = await self._job(match.bot_job(seat, spec, seed, self.limits))
                match.apply(seat, action)
                moves += 1
        outcome = match.outcome()
        assert outcome is not None
        self._bot_records[(game.name, day.isoformat())] = match.record([spec])
        return {"score": plain_number(outcome.scores[0]), "length": outcome.length}

    async def _hindsight_of(self, game: WebGame, day: date) -> JSON | None:
        """Hindsight needs a finished record of the deal: the bot's game serves."""
        key = (game.name, day.isoformat())
        await self._task(("bot", *key), lambda: self._bot_game(game, day))
        record = self._bot_records.get(key)
        if record is None:  # dropped meanwhile (many days asked for): ask again later
            return None
        analyser = game.analyser()
        assert analyser is not None
        budget = analyser.default_budget
        job = Job(hindsight_of, (game.name, record, budget, HINDSIGHT_SEED))
        found: JSON | None = await self._job(job)
        return found

    async def _job(self, job: Job[T]) -> T:
        async with self._turn:
            return await self.scheduler.pool.run(job)

    def close(self) -> None:
        for task in self._work.values():
            task.cancel()


def _status(task: asyncio.Task[JSON | None]) -> JSON:
    if not task.done():
        return {"status": "running"}
    if task.cancelled() or task.exception() is not None:
        if not task.cancelled():
            log.error("daily bot work failed: %s", task.exception())
        return {"status": "failed"}
    result = task.result()
    return {"status": "done", **(result or {})}


def _body(game: WebGame, the_deal: Deal, account: Account | None) -> JSON:
    """A create request for the deal: you in the first seat, bots in any others."""
    seats: list[JSON] = [{"kind": "human", "me": account is not None}]
    seats += [{"kind": "bot", "bot": game.default_bot}] * (the_deal.players - 1)
    return {"type": game.name, "seats": seats, "options": the_deal.options, "seed": the_deal.seed}


def _record(room: Room) -> JSON:
    return room.match.record([s.name for s in room.seats])


def _english(line: Part) -> str:
    return fill(line["key"], line["args"])


def _new_id() -> str:
    import secrets

    return secrets.token_urlsafe(9)
